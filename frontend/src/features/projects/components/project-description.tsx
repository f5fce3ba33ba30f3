import { Typography } from '@mantine/core';
import type { MouseEvent } from 'react';
import Markdown, { type Components } from 'react-markdown';

/** Links open safely; only http(s) and mailto survive (react-markdown's urlTransform drops javascript: etc.). */
const COMPONENTS: Components = {
  a: ({ href, children }) => (
    <a href={href} rel="nofollow noopener noreferrer" target="_blank">
      {children}
    </a>
  ),
  img: () => null,
};

/**
 * Renders a project description (Markdown) as React elements: raw HTML in the text is skipped,
 * never injected (`skipHtml`), images inside the text are dropped, URLs are sanitised.
 * @param onLinkClick called when a link of the text is clicked (analytics' external-link clicks, issue 15)
 */
export function ProjectDescription({ text, onLinkClick }: { text: string; onLinkClick?: () => void }) {
  return (
    <Typography
      data-testid="project-description"
      onClickCapture={(e: MouseEvent<HTMLDivElement>) => {
        if (onLinkClick && e.target instanceof Element && e.target.closest('a[href]')) onLinkClick();
      }}
    >
      <Markdown skipHtml components={COMPONENTS}>
        {text}
      </Markdown>
    </Typography>
  );
}

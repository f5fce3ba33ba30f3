import { Typography } from '@mantine/core';
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
 */
export function ProjectDescription({ text }: { text: string }) {
  return (
    <Typography data-testid="project-description">
      <Markdown skipHtml components={COMPONENTS}>
        {text}
      </Markdown>
    </Typography>
  );
}

import { Typography } from '@mantine/core';
import type { MouseEvent } from 'react';
import Markdown, { type Components } from 'react-markdown';

/**
 * How the elements of a text look: links open in a new tab without passing the page on (only
 * http(s), mailto and relative URLs survive react-markdown's urlTransform, javascript: etc. are
 * dropped), images inside the text are dropped, and a line break the author typed stays a line
 * break (people write addresses and lists line by line).
 */
const COMPONENTS: Components = {
  a: ({ href, children }) => (
    <a href={href} rel="nofollow noopener noreferrer" target="_blank">
      {children}
    </a>
  ),
  img: () => null,
  p: ({ children }) => <p style={{ whiteSpace: 'pre-line' }}>{children}</p>,
};

/**
 * The one renderer of text that members write (descriptions of projects, jobs, events,
 * portfolios and organisations, profile bios): Markdown (CommonMark via react-markdown) as React
 * elements. Raw HTML in the text is skipped, never injected (`skipHtml`), images are dropped and
 * URLs sanitised, so the text cannot bring markup or scripts into the page (issue 33 §3).
 * @param text the Markdown source as stored
 * @param testId data-testid of the wrapper
 * @param onLinkClick called when a link of the text is clicked (analytics' external-link clicks, issue 15)
 */
export function RichText({ text, testId, onLinkClick }: { text: string; testId?: string; onLinkClick?: () => void }) {
  return (
    <Typography
      data-testid={testId}
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

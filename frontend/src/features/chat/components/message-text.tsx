import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { isHttpUrl } from '@site/url';

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+/giu;
const TRAILING = /[.,;:!?)\]}]+$/u;

/**
 * Splits chat text into plain strings and links (issue 13 "links are clickable and safe"): only
 * http(s) URLs that pass `isHttpUrl` become links, opened in a new tab without referrer or opener
 * and marked `ugc nofollow`; trailing punctuation stays text. Nothing is rendered as HTML.
 */
export function linkify(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const start = match.index ?? 0;
    let url = match[0];
    const trailing = TRAILING.exec(url)?.[0] ?? '';
    if (trailing) url = url.slice(0, -trailing.length);
    if (!isHttpUrl(url)) continue;
    if (start > last) parts.push(text.slice(last, start));
    parts.push(
      <Anchor key={`${start}-${url}`} href={url} target="_blank" rel="noopener noreferrer nofollow ugc" style={{ wordBreak: 'break-all' }}>
        {url}
      </Anchor>,
    );
    last = start + url.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** A message body with safe links, line breaks kept. */
export function MessageText({ body }: { body: string }) {
  return <span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{linkify(body)}</span>;
}

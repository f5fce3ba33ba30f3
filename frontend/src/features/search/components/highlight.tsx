import { Fragment } from 'react';
import { markdownToPlainText } from '@/lib/plain-text';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** Decodes the entities private.html_escape() produces (&amp; &lt; &gt; &quot;, plus &#39;). */
export function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (m) => ENTITIES[m] ?? m);
}

/** A piece of a highlighted text: plain or marked. */
export interface HighlightPart {
  text: string;
  marked: boolean;
}

/**
 * Splits an HTML-escaped snippet with `<mark>…</mark>` (output of public.search) into parts.
 * Only the literal mark tags are interpreted; everything else stays text (React escapes it), so
 * no markup from user content can reach the DOM (spec §6, issue 8).
 */
export function splitHighlight(html: string): HighlightPart[] {
  const parts: HighlightPart[] = [];
  let marked = false;
  for (const token of html.split(/(<mark>|<\/mark>)/)) {
    if (token === '<mark>') marked = true;
    else if (token === '</mark>') marked = false;
    else if (token) parts.push({ text: decodeEntities(token), marked });
  }
  return parts;
}

const MARK_START = '\uE000';
const MARK_END = '\uE001';

/**
 * Like splitHighlight for a snippet of a member's Markdown text (issue 33 §3): the marks become
 * private-use characters while the markup is stripped (markdownToPlainText), then the parts are
 * split at them again, so "**Köln**" shows as a marked "Köln" without asterisks.
 */
export function splitSnippet(html: string): HighlightPart[] {
  const text = markdownToPlainText(decodeEntities(html.replaceAll('<mark>', MARK_START).replaceAll('</mark>', MARK_END)));
  const parts: HighlightPart[] = [];
  let marked = false;
  for (const token of text.split(/([\uE000\uE001])/)) {
    if (token === MARK_START) marked = true;
    else if (token === MARK_END) marked = false;
    else if (token) parts.push({ text: token, marked });
  }
  return parts;
}

/**
 * Renders a search highlight safely: text nodes and `<mark>` elements only.
 * @param markdown the text is a member's Markdown (a snippet): its markup is stripped
 */
export function Highlight({ html, markdown = false }: { html: string; markdown?: boolean }) {
  return (
    <>
      {(markdown ? splitSnippet(html) : splitHighlight(html)).map((part, i) => (part.marked ? <mark key={i}>{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>))}
    </>
  );
}

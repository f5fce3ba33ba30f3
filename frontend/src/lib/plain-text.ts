import { fromMarkdown } from 'mdast-util-from-markdown';

/** A node of the Markdown syntax tree, as far as the plain text needs it. */
interface MdNode {
  type: string;
  value?: string;
  alt?: string | null;
  children?: MdNode[];
}

/** Nodes whose children run on in one line; the children of every other parent are blocks. */
const INLINE_PARENTS = new Set(['paragraph', 'heading', 'emphasis', 'strong', 'delete', 'link', 'linkReference', 'tableCell']);

function plain(node: MdNode): string {
  if (node.type === 'text' || node.type === 'inlineCode' || node.type === 'code') return node.value ?? '';
  if (node.type === 'break') return ' ';
  if (node.type === 'html' || node.type === 'image' || node.type === 'imageReference') return '';
  const parts = (node.children ?? []).map(plain);
  return INLINE_PARENTS.has(node.type) ? parts.join('') : parts.filter((p) => p.trim() !== '').join(' ');
}

/**
 * The words of a Markdown text without its markup, for places that show text in one line (search
 * snippets, issue 33 §3): emphasis, headings, list markers, link targets, images and raw HTML go,
 * link texts and code stay; blocks are joined with a space. Parsed with the same CommonMark parser
 * react-markdown uses (mdast-util-from-markdown), so what RichText shows as bold is what goes here.
 * A text cut out of a longer one (a snippet fragment) may hold half of a delimiter pair (`**`,
 * `__`, `~~`, a backtick), which no parser can pair; such orphans are dropped too.
 * @param markdown the Markdown source (any string)
 * @returns the plain text, whitespace collapsed to single spaces
 */
export function markdownToPlainText(markdown: string): string {
  const text = plain(fromMarkdown(markdown) as MdNode);
  return text.replace(/\*{2,}|_{2,}|~~|`+/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * The mailbox's web pages: a message list (newest first) and a message view that shows the HTML
 * part in a sandboxed iframe (no scripts; links open in a new tab) and the text part.
 */
import { escapeHtml } from '../../http.ts';
import type { StoredMessage } from './store.ts';

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 0; color: #1a1b1e; background: #f8f9fa; }
  header { background: #1c7ed6; color: #fff; padding: 0.75rem 1.5rem; }
  header a { color: #fff; text-decoration: none; font-weight: 600; }
  main { padding: 1rem 1.5rem; max-width: 72rem; }
  table { width: 100%; border-collapse: collapse; background: #fff; }
  th, td { text-align: left; padding: 0.5rem 0.75rem; border-bottom: 1px solid #dee2e6; vertical-align: top; }
  th { background: #f1f3f5; }
  td a { color: #1864ab; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; background: #fff; padding: 1rem; }
  dt { font-weight: 600; }
  iframe { width: 100%; height: 32rem; border: 1px solid #dee2e6; background: #fff; }
  pre { white-space: pre-wrap; background: #fff; padding: 1rem; border: 1px solid #dee2e6; }
  .empty { color: #495057; }
`;

function layout(title: string, body: string, refreshSeconds?: number): string {
  const refresh = refreshSeconds ? `<meta http-equiv="refresh" content="${refreshSeconds}">` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${refresh}
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><header><a href="/">Teamwerk local mailbox</a></header><main>${body}</main></body></html>`;
}

/** The list page: subject (linking to the message), recipients, sender, time; reloads every 5 s. */
export function listPage(messages: StoredMessage[]): string {
  if (messages.length === 0) {
    return layout('Mailbox', '<h1>Mailbox</h1><p class="empty">No messages yet.</p>', 5);
  }
  const rows = messages
    .map(
      (m) => `<tr><td><a href="/messages/${encodeURIComponent(m.id)}">${escapeHtml(m.subject || '(no subject)')}</a></td>
<td>${escapeHtml(m.to.join(', '))}</td><td>${escapeHtml(m.from)}</td>
<td><time datetime="${escapeHtml(m.created_at)}">${escapeHtml(m.created_at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))}</time></td></tr>`,
    )
    .join('\n');
  return layout(
    'Mailbox',
    `<h1>Mailbox</h1><p>${messages.length} message(s), newest first.</p>
<table><thead><tr><th scope="col">Subject</th><th scope="col">To</th><th scope="col">From</th><th scope="col">Received</th></tr></thead>
<tbody>${rows}</tbody></table>`,
    5,
  );
}

/** One message: headers, HTML part in a sandboxed iframe, text part. */
export function messagePage(m: StoredMessage): string {
  const field = (label: string, value: string | null | undefined) =>
    value ? `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>` : '';
  // `<base target=_blank>` makes links inside the sandboxed frame open in a new tab.
  const html = m.html ? `<base target="_blank">${m.html}` : null;
  return layout(
    m.subject || 'Message',
    `<h1>${escapeHtml(m.subject || '(no subject)')}</h1>
<dl>${field('From', m.from)}${field('To', m.to.join(', '))}${field('Cc', m.cc?.join(', '))}${field('Bcc', m.bcc?.join(', '))}
${field('Reply-To', m.reply_to?.join(', '))}${field('Received', m.created_at)}${field('Id', m.id)}</dl>
${html ? `<h2>HTML</h2><iframe title="HTML part" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(html)}"></iframe>` : ''}
${m.text ? `<h2>Text</h2><pre>${escapeHtml(m.text)}</pre>` : ''}
<p><a href="/">Back to the list</a></p>`,
  );
}

/** A plain page for 404s. */
export function notFoundPage(): string {
  return layout('Not found', '<h1>Not found</h1><p><a href="/">Back to the list</a></p>');
}

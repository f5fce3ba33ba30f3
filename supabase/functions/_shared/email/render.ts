/**
 * Renders a transactional mail from an `email_templates` row (spec §7): branded HTML with React
 * Email and a plain-text alternative.
 *
 * Template format (see the email migration): paragraphs separated by blank lines, lines starting
 * with "• " form a list, `{{name}}` placeholders. Values are inserted as React text/attributes,
 * so React escapes them (no HTML injection through names); `{{link}}` becomes a link, and a
 * paragraph that is only `{{link}}` a button with the address below it. Links other than
 * http(s) are rendered as plain text. The subject gets plain values without line breaks.
 */
import * as React from 'react';
import { render } from '@react-email/render';
import {
  Body,
  Button,
  Container,
  Head,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from '@react-email/components';
import { localePrefix } from '../site/index.ts';

export type EmailLang = 'de' | 'en';

/** Placeholder values; missing ones render as empty text. */
export type TemplateVars = Record<string, string | number | null | undefined>;

/** Input of renderEmail. */
export interface RenderInput {
  subject: string;
  body: string;
  lang: EmailLang;
  vars: TemplateVars;
  /** SPA origin for the footer links (Impressum, privacy). */
  siteUrl: string;
}

/** A rendered mail. */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const h = React.createElement;
const PLACEHOLDER_RE = /\{\{\s*([a-z_]+)\s*\}\}/g;

const BRAND = {
  name: 'Teamwerk',
  primary: '#1f6feb',
  ink: '#1b1f24',
  muted: '#57606a',
  background: '#f4f6f8',
};

const FOOTER: Record<EmailLang, { button: string; fallback: string; reason: string; imprint: string; privacy: string }> = {
  de: {
    button: 'Jetzt öffnen',
    fallback: 'Falls der Button nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:',
    reason: 'Sie erhalten diese E-Mail, weil Ihre Adresse bei Teamwerk verwendet wurde.',
    imprint: 'Impressum',
    privacy: 'Datenschutzhinweise',
  },
  en: {
    button: 'Open now',
    fallback: "If the button doesn't work, copy this link into your browser:",
    reason: 'You are receiving this email because your address was used at Teamwerk.',
    imprint: 'Imprint',
    privacy: 'Privacy notice',
  },
};

/** Button labels per mail kind (the template's own wording around the link stays as written). */
const BUTTON_LABELS: Record<string, Record<EmailLang, string>> = {
  confirm_email: { de: 'E-Mail-Adresse bestätigen', en: 'Confirm email address' },
  password_reset: { de: 'Neues Passwort festlegen', en: 'Set a new password' },
  newsletter_confirm: { de: 'Anmeldung bestätigen', en: 'Confirm subscription' },
  cancellation_confirm_link: { de: 'Kündigung bestätigen', en: 'Confirm cancellation' },
  account_exists_notice: { de: 'Zur Anmeldung', en: 'Go to login' },
  contact_request: { de: 'Anfrage ansehen', en: 'View request' },
  contact_request_reminder: { de: 'Anfrage beantworten', en: 'Answer the request' },
  chat_unread: { de: 'Nachricht lesen', en: 'Read message' },
  subscription_duplicate_refunded: { de: 'Zu den Einstellungen', en: 'Open settings' },
  ticket_confirmation: { de: 'Zur Veranstaltung', en: 'View event' },
  ticket_refunded: { de: 'Meine Veranstaltungen', en: 'My events' },
  event_seat_offer: { de: 'Platz jetzt bezahlen', en: 'Pay for the seat' },
  event_changed: { de: 'Zur Veranstaltung', en: 'View event' },
  event_cancelled: { de: 'Zur Veranstaltung', en: 'View event' },
  event_reminder: { de: 'Zur Veranstaltung', en: 'View event' },
  organization_invitation: { de: 'Einladung ansehen', en: 'View invitation' },
  email_change_new: { de: 'Neue Adresse bestätigen', en: 'Confirm new address' },
  email_change_current: { de: 'Änderung bestätigen', en: 'Confirm the change' },
  auth_confirm_signup: { de: 'E-Mail-Adresse bestätigen', en: 'Confirm email address' },
};

function valueOf(vars: TemplateVars, name: string): string {
  const v = vars[name];
  return v === null || v === undefined ? '' : String(v);
}

/** True for absolute http(s) URLs: the only ones that become clickable. */
export function isSafeHref(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Fills placeholders with raw values (plain-text part and subject). */
export function fillPlain(template: string, vars: TemplateVars): string {
  return template.replace(PLACEHOLDER_RE, (_m, name: string) => valueOf(vars, name));
}

type Node = React.ReactNode;

/** One line of a paragraph as React nodes: text segments and placeholders (links clickable). */
function lineNodes(line: string, vars: TemplateVars, keyPrefix: string): Node[] {
  const nodes: Node[] = [];
  let last = 0;
  let i = 0;
  for (const m of line.matchAll(PLACEHOLDER_RE)) {
    if (m.index! > last) nodes.push(line.slice(last, m.index));
    const name = m[1]!;
    const value = valueOf(vars, name);
    if ((name === 'link' || name.endsWith('_link')) && isSafeHref(value)) {
      nodes.push(h(Link, { key: `${keyPrefix}-${i++}`, href: value, style: { color: BRAND.primary } }, value));
    } else {
      nodes.push(value);
    }
    last = m.index! + m[0].length;
  }
  if (last < line.length) nodes.push(line.slice(last));
  return nodes;
}

const textStyle = { fontSize: '15px', lineHeight: '24px', color: BRAND.ink, margin: '0 0 16px' };

function paragraphElement(paragraph: string, index: number, input: RenderInput, emailType: string): Node {
  const lines = paragraph.split('\n');
  const key = `p${index}`;
  if (paragraph.trim() === '{{link}}') {
    const link = valueOf(input.vars, 'link');
    if (!isSafeHref(link)) return h(Text, { key, style: textStyle }, link);
    const label = BUTTON_LABELS[emailType]?.[input.lang] ?? FOOTER[input.lang].button;
    return h(
      Section,
      { key, style: { margin: '8px 0 24px' } },
      h(
        Button,
        {
          href: link,
          style: {
            backgroundColor: BRAND.primary,
            color: '#ffffff',
            borderRadius: '6px',
            fontSize: '15px',
            fontWeight: 600,
            padding: '12px 20px',
            textDecoration: 'none',
          },
        },
        label,
      ),
      h(Text, { style: { ...textStyle, fontSize: '13px', color: BRAND.muted, margin: '16px 0 0' } }, FOOTER[input.lang].fallback, h('br'), h(Link, { href: link, style: { color: BRAND.primary, wordBreak: 'break-all' } }, link)),
    );
  }
  const children: Node[] = [];
  lines.forEach((line, li) => {
    if (li > 0) children.push(h('br', { key: `${key}-br${li}` }));
    children.push(...lineNodes(line, input.vars, `${key}-${li}`));
  });
  return h(Text, { key, style: textStyle }, ...children);
}

/** The React Email document of a mail. Exported for previews and tests. */
export function emailDocument(input: RenderInput, emailType: string, preview: string): React.ReactElement {
  const paragraphs = input.body.replace(/\r\n/g, '\n').split(/\n\s*\n/).filter((p) => p.trim() !== '');
  const site = input.siteUrl.replace(/\/+$/, '');
  const prefix = localePrefix(input.lang);
  const f = FOOTER[input.lang];
  return h(
    Html,
    { lang: input.lang, dir: 'ltr' },
    h(Head, null),
    h(Preview, null, preview),
    h(
      Body,
      { style: { backgroundColor: BRAND.background, fontFamily: 'Helvetica, Arial, sans-serif', margin: 0, padding: '24px 0' } },
      h(
        Container,
        { style: { backgroundColor: '#ffffff', borderRadius: '8px', maxWidth: '560px', padding: '32px 32px 24px' } },
        h(Text, { style: { fontSize: '22px', fontWeight: 700, color: BRAND.primary, margin: '0 0 24px', letterSpacing: '-0.3px' } }, BRAND.name),
        ...paragraphs.map((p, i) => paragraphElement(p, i, input, emailType)),
        h(Hr, { style: { borderColor: '#e5e7eb', margin: '24px 0 16px' } }),
        h(
          Text,
          { style: { fontSize: '12px', lineHeight: '18px', color: BRAND.muted, margin: 0 } },
          f.reason,
          h('br'),
          h(Link, { href: `${site}${prefix}/impressum`, style: { color: BRAND.muted } }, f.imprint),
          ' · ',
          h(Link, { href: `${site}${prefix}/legal/Datenschutzhinweise`, style: { color: BRAND.muted } }, f.privacy),
        ),
      ),
    ),
  );
}

/**
 * Renders subject, HTML and plain text of one mail. Deterministic for equal input (the same
 * queue row renders byte-identically on a retry, which Resend's idempotency check relies on).
 */
export async function renderEmail(input: RenderInput, emailType = ''): Promise<RenderedEmail> {
  const subject = fillPlain(input.subject, input.vars).replace(/[\r\n]+/g, ' ').trim().slice(0, 200);
  const text = fillPlain(input.body, input.vars).replace(/\r\n/g, '\n').trim() + '\n';
  const firstLine = text.split('\n').find((l) => l.trim() !== '') ?? subject;
  const html = await render(emailDocument(input, emailType, firstLine.slice(0, 120)));
  return { subject, html, text };
}

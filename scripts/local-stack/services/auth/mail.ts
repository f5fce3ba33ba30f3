/**
 * The e-mails GoTrue sends (confirm sign-up, invite, magic link, recovery, e-mail change),
 * delivered through the stack's mailbox. Links point at `${externalUrl}/verify` exactly like
 * GoTrue's default `{{ .ConfirmationURL }}`: `?token=<token hash>&type=<type>&redirect_to=<url>`;
 * the mails also carry the numeric OTP (`{{ .Token }}`) for verifyOtp.
 */
import { escapeHtml } from '../../http.ts';
import type { Mailer } from '../../types.ts';
import type { AuthSettings } from './settings.ts';

export type MailKind = 'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change';

/** Subjects of GoTrue's default templates. */
const SUBJECTS: Record<MailKind, string> = {
  signup: 'Confirm your email address',
  invite: "You've been invited",
  magiclink: 'Your sign-in link',
  recovery: 'Reset your password',
  email_change: 'Confirm your new email address',
};

const INTRO: Record<MailKind, string> = {
  signup: 'Follow this link to confirm your email address:',
  invite: 'You have been invited to create an account. Follow this link to accept the invitation:',
  magiclink: 'Follow this link to sign in:',
  recovery: 'Follow this link to reset the password of your account:',
  email_change: 'Follow this link to confirm the change of your email address',
};

/**
 * The verify link GoTrue puts into mails: `${externalUrl}/verify?token=…&type=…&redirect_to=…`.
 * `type` is the verification type (`signup`, `invite`, `magiclink`, `recovery`, `email_change`).
 */
export function actionLink(settings: AuthSettings, token: string, type: MailKind, redirectTo: string): string {
  const q = new URLSearchParams({ token, type, redirect_to: redirectTo });
  return `${settings.externalUrl}/verify?${q.toString()}`;
}

export interface AuthMail {
  kind: MailKind;
  to: string;
  link: string;
  otp: string;
  /** For email_change: the address being changed from/to. */
  email?: string;
  newEmail?: string;
}

/**
 * Renders and delivers one auth mail through `mailer` (the stack's mailbox).
 * Throws when the mailer fails; callers turn that into GoTrue's 500 and roll back.
 */
export async function sendAuthMail(mailer: Mailer, settings: AuthSettings, mail: AuthMail): Promise<void> {
  let intro = INTRO[mail.kind];
  if (mail.kind === 'email_change') intro += ` from ${mail.email ?? ''} to ${mail.newEmail ?? ''}:`;
  const text = `${intro}\n\n${mail.link}\n\nAlternatively, enter the code: ${mail.otp}\n`;
  const html =
    `<h2>${escapeHtml(SUBJECTS[mail.kind])}</h2>\n` +
    `<p>${escapeHtml(intro)}</p>\n` +
    `<p><a href="${escapeHtml(mail.link)}">${escapeHtml(linkLabel(mail.kind))}</a></p>\n` +
    `<p>Alternatively, enter the code: <strong>${escapeHtml(mail.otp)}</strong></p>\n`;
  await mailer.deliver({
    from: settings.smtpSender,
    to: [mail.to],
    subject: SUBJECTS[mail.kind],
    html,
    text,
    headers: { 'X-Supabase-Auth-Mail-Type': mail.kind },
  });
}

function linkLabel(kind: MailKind): string {
  switch (kind) {
    case 'signup':
      return 'Confirm your mail';
    case 'invite':
      return 'Accept the invite';
    case 'magiclink':
      return 'Log In';
    case 'recovery':
      return 'Reset Password';
    case 'email_change':
      return 'Change Email';
  }
}

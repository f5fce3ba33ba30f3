import { PASSWORD_RULES as RULES, type PasswordRule as Rule, passwordProblems } from '@site/password';

/** One visible password strength rule (issue 6 registration). */
export interface PasswordRule {
  /** Message id shown next to the rule. */
  messageId: string;
  test: (password: string) => boolean;
}

/** Message ids of the rules the registration form lists (bcrypt's 72-byte limit is checked, not listed). */
const MESSAGE_IDS: Partial<Record<Rule['code'], string>> = {
  password_too_short: 'auth.password.ruleLength',
  password_no_uppercase: 'auth.password.ruleUpper',
  password_no_lowercase: 'auth.password.ruleLower',
  password_no_digit: 'auth.password.ruleDigit',
};

/**
 * The visible rules of issue 6 (at least 8 characters, an upper-case and a lower-case letter, a
 * digit): the shared rule of `@site` (supabase/functions/_shared/site/password.ts) that the Edge
 * Functions enforce, with the SPA's message ids.
 */
export const PASSWORD_RULES: readonly PasswordRule[] = RULES.flatMap((rule) => {
  const messageId = MESSAGE_IDS[rule.code];
  return messageId ? [{ messageId, test: rule.test }] : [];
});

/** True when `password` passes every rule (and stays within bcrypt's 72 bytes). */
export function isStrongPassword(password: string): boolean {
  return passwordProblems(password).length === 0;
}

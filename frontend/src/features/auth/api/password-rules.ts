/** One visible password strength rule (issue 6 registration; mirrors `_shared/accounts.ts`). */
export interface PasswordRule {
  /** Message id shown next to the rule. */
  messageId: string;
  test: (password: string) => boolean;
}

/** The rules of issue 6: at least 8 characters, an upper-case and a lower-case letter, a digit. */
export const PASSWORD_RULES: readonly PasswordRule[] = [
  { messageId: 'auth.password.ruleLength', test: (p) => [...p].length >= 8 },
  { messageId: 'auth.password.ruleUpper', test: (p) => /\p{Lu}/u.test(p) },
  { messageId: 'auth.password.ruleLower', test: (p) => /\p{Ll}/u.test(p) },
  { messageId: 'auth.password.ruleDigit', test: (p) => /\d/.test(p) },
];

/** True when `password` passes every rule (and stays within bcrypt's 72 bytes). */
export function isStrongPassword(password: string): boolean {
  return PASSWORD_RULES.every((rule) => rule.test(password)) && new TextEncoder().encode(password).length <= 72;
}

/**
 * The password strength rule (issue 6 registration "with visible strength rules"): register,
 * complete-password-reset and update-user enforce it (`_shared/accounts.ts`), and the SPA shows the
 * same rules next to the password field and checks them before sending. Auth's own
 * `minimum_password_length` (supabase/config.toml) is set to the same 8.
 */
/** A password strength rule; `code` is what the SPA maps to its visible rule list. */
export interface PasswordRule {
  code: 'password_too_short' | 'password_no_uppercase' | 'password_no_lowercase' | 'password_no_digit' | 'password_too_long';
  message: string;
  test: (password: string) => boolean;
}

/**
 * Strength rules of issue 6 (registration "with visible strength rules"): at least 8 characters,
 * an upper-case letter, a lower-case letter and a digit. 72 bytes is bcrypt's input limit.
 */
export const PASSWORD_RULES: readonly PasswordRule[] = [
  { code: 'password_too_short', message: 'Password must be at least 8 characters long', test: (p) => [...p].length >= 8 },
  { code: 'password_too_long', message: 'Password must be at most 72 bytes long', test: (p) => new TextEncoder().encode(p).length <= 72 },
  { code: 'password_no_uppercase', message: 'Password must contain an upper-case letter', test: (p) => /\p{Lu}/u.test(p) },
  { code: 'password_no_lowercase', message: 'Password must contain a lower-case letter', test: (p) => /\p{Ll}/u.test(p) },
  { code: 'password_no_digit', message: 'Password must contain a digit', test: (p) => /\d/.test(p) },
];

/** The rules `password` breaks (empty when it is strong enough). */
export function passwordProblems(password: string): PasswordRule[] {
  return PASSWORD_RULES.filter((rule) => !rule.test(password));
}

/**
 * Public entry of the auth feature: what other features may use of it (the login form for the
 * admin login, the sign-out button, the visible password rules). Everything else is private.
 */
export { isStrongPassword } from './api/password-rules';
export { LoginForm } from './components/login-form';
export { PasswordRulesList } from './components/password-rules-list';
export { SignOutButton } from './components/sign-out-button';

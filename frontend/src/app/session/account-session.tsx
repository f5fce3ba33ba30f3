import { useAccountSession } from './use-account-session';

/** Mounts the session behaviour of spec §4 (auto-logout, tabs following sign-in/out) inside the IntlProvider. */
export function AccountSession(): null {
  useAccountSession();
  return null;
}

import { Button, type ButtonProps } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useNavigate } from 'react-router';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import { signOut } from '@/lib/sign-out';

/**
 * Sign-out (spec §4): ends the session, clears all cookies, sets the fresh-login-required flag
 * and replaces the history entry with /login, so the back button cannot reopen the user area.
 * A failed server-side logout shows its message (the local session is removed anyway).
 */
export function SignOutButton(props: ButtonProps) {
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const error = await signOut();
    if (error) notify('error', error);
    void navigate(localize(paths.login), { replace: true });
  };
  return (
    <Button variant="default" loading={busy} onClick={() => void run()} {...props}>
      <FormattedMessage id="auth.signOut" />
    </Button>
  );
}

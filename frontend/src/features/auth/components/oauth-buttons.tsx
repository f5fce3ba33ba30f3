import { Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import { signInWithProvider } from '../api/login';

/** "Sign in with Google" / "LinkedIn" (spec §4); a failure shows 'OAuth login failed'. */
export function OAuthButtons() {
  const intl = useIntl();
  const localize = useLocalizedPath();
  const [busy, setBusy] = useState<string | null>(null);
  const start = async (provider: 'google' | 'linkedin_oidc') => {
    setBusy(provider);
    const error = await signInWithProvider(provider, localize(paths.login)).catch((e: unknown) => String(e));
    if (error) {
      setBusy(null);
      notify('error', intl.formatMessage({ id: 'auth.oauth.failed' }));
    }
  };
  return (
    <Stack gap="xs">
      <Button variant="default" loading={busy === 'google'} onClick={() => void start('google')}>
        <FormattedMessage id="auth.oauth.google" />
      </Button>
      <Button variant="default" loading={busy === 'linkedin_oidc'} onClick={() => void start('linkedin_oidc')}>
        <FormattedMessage id="auth.oauth.linkedin" />
      </Button>
    </Stack>
  );
}

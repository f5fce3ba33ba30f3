import { Button, Divider, Stack } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import { signInWithProvider } from '../api/login';
import { useOfferedProviders, type OAuthProvider } from '../api/providers';

const LABELS: Record<OAuthProvider, string> = {
  google: 'auth.oauth.google',
  linkedin_oidc: 'auth.oauth.linkedin',
};

/**
 * "or", then "Sign in with Google" / "LinkedIn" (spec §4) for the providers Auth reports enabled
 * (GET /auth/v1/settings); nothing while that loads or when none is enabled. A failure shows
 * 'OAuth login failed'.
 */
export function OAuthButtons() {
  const intl = useIntl();
  const localize = useLocalizedPath();
  const [busy, setBusy] = useState<OAuthProvider | null>(null);
  const { data: providers = [] } = useOfferedProviders();
  const start = async (provider: OAuthProvider) => {
    setBusy(provider);
    const error = await signInWithProvider(provider, localize(paths.login)).catch((e: unknown) => String(e));
    if (error) {
      setBusy(null);
      notify('error', intl.formatMessage({ id: 'auth.oauth.failed' }));
    }
  };
  if (providers.length === 0) return null;
  return (
    <>
      <Divider label={intl.formatMessage({ id: 'auth.login.or' })} labelPosition="center" />
      <Stack gap="xs">
        {providers.map((provider) => (
          <Button key={provider} variant="default" loading={busy === provider} onClick={() => void start(provider)}>
            <FormattedMessage id={LABELS[provider]} />
          </Button>
        ))}
      </Stack>
    </>
  );
}

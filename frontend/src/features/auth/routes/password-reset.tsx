import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocation } from 'react-router';
import { z } from 'zod';
import { notify } from '@/lib/notify';
import { zodValidate } from '@/lib/zod-form';
import { FunctionCallError, invokeFunction } from '@/lib/invoke-function';
import { codeChallengeS256, createCodeVerifier, RESET_VERIFIER_KEY } from '../api/pkce';
import { Captcha, captchaEnabled } from '../components/captcha';

const schema = z.object({ email: z.email('auth.validation.email') });

/**
 * /password-reset: e-mail + captcha token (when configured) + PKCE S256 challenge; the verifier
 * stays in localStorage for /password-update. The answer never reveals whether the address exists (issue 6).
 */
export default function PasswordResetRoute() {
  const intl = useIntl();
  const state = useLocation().state as { email?: string } | null;
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: state?.email ?? '' },
    validate: (values) => Object.fromEntries(Object.entries(zodValidate(schema)(values)).map(([k, id]) => [k, intl.formatMessage({ id })])),
  });
  const submit = form.onSubmit(async ({ email }) => {
    if (captchaEnabled() && !captchaToken) {
      notify('error', intl.formatMessage({ id: 'auth.reset.captchaRequired' }));
      return;
    }
    setBusy(true);
    try {
      const verifier = createCodeVerifier();
      localStorage.setItem(RESET_VERIFIER_KEY, verifier);
      await invokeFunction('request-password-reset', {
        email: email.trim(),
        code_challenge: await codeChallengeS256(verifier),
        code_challenge_method: 'S256',
        ...(captchaToken ? { captcha_token: captchaToken } : {}),
      });
      setSent(true);
    } catch (err) {
      const message =
        err instanceof FunctionCallError && err.code === 'captcha_failed'
          ? intl.formatMessage({ id: 'auth.reset.captchaFailed' })
          : intl.formatMessage({ id: 'auth.login.genericError' });
      notify('error', message);
    } finally {
      setBusy(false);
    }
  });
  return (
    <Stack>
      <Title order={1}>
        <FormattedMessage id="page.password-reset.title" />
      </Title>
      <Text>
        <FormattedMessage id="auth.reset.intro" />
      </Text>
      {sent ? (
        <Alert color="green" role="status" data-testid="reset-sent">
          <FormattedMessage id="auth.reset.sent" />
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label={intl.formatMessage({ id: 'auth.field.email' })} type="email" autoComplete="email" required {...form.getInputProps('email')} />
            <Captcha onToken={setCaptchaToken} />
            <Button type="submit" loading={busy}>
              <FormattedMessage id="auth.reset.submit" />
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

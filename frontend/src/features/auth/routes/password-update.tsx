import { Alert, Button, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { useLocale, useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import { zodValidate } from '@/lib/zod-form';
import { FunctionCallError, invokeFunction } from '@/lib/invoke-function';
import { loginWithPassword } from '../api/login';
import { isStrongPassword } from '../api/password-rules';
import { RESET_VERIFIER_KEY } from '../api/pkce';
import { PasswordRulesList } from '../components/password-rules-list';

const schema = z
  .object({ password: z.string().refine(isStrongPassword, 'auth.validation.weakPassword'), confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'auth.validation.passwordMismatch' });

const ERROR_IDS: Record<string, string> = {
  token_expired: 'auth.update.tokenExpired',
  pkce_mismatch: 'auth.update.pkceMismatch',
  token_used: 'auth.update.tokenUsed',
};

/**
 * /password-update?token: sets the new password with the reset token and the PKCE verifier of
 * this browser, then signs in (issue 6). Without a token (legacy account redirected from the
 * login) it explains that a reset link is needed.
 */
export default function PasswordUpdateRoute() {
  const intl = useIntl();
  const locale = useLocale();
  const localize = useLocalizedPath();
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token') ?? '';
  const state = useLocation().state as { email?: string } | null;
  const [busy, setBusy] = useState(false);
  const [errorText, setErrorText] = useState<string | null>(null);
  const form = useForm({
    initialValues: { password: '', confirm: '' },
    validate: (values) => Object.fromEntries(Object.entries(zodValidate(schema)(values)).map(([k, id]) => [k, intl.formatMessage({ id })])),
  });
  const submit = form.onSubmit(async ({ password }) => {
    setBusy(true);
    setErrorText(null);
    try {
      const verifier = localStorage.getItem(RESET_VERIFIER_KEY) ?? '';
      const { email } = await invokeFunction<{ ok: boolean; email: string }>('complete-password-reset', { token, code_verifier: verifier, password });
      localStorage.removeItem(RESET_VERIFIER_KEY);
      notify('success', intl.formatMessage({ id: 'auth.update.success' }));
      const login = await loginWithPassword(email, password, locale);
      void navigate(localize(login.ok ? paths.user.home : paths.login), { replace: true });
    } catch (err) {
      setBusy(false);
      const id = err instanceof FunctionCallError ? ERROR_IDS[err.code] : undefined;
      const message = id
        ? intl.formatMessage({ id })
        : err instanceof FunctionCallError && err.code === 'weak_password'
          ? err.message
          : intl.formatMessage({ id: 'auth.login.genericError' });
      // shown once, in the form (issue 33 §8)
      setErrorText(message);
    }
  });
  return (
    <Stack>
      <Title order={1}>
        <FormattedMessage id="page.password-update.title" />
      </Title>
      {token === '' ? (
        <>
          <Alert color="yellow" role="status" data-testid="password-update-explain">
            <FormattedMessage id="auth.update.needLink" />
          </Alert>
          <Button onClick={() => void navigate(localize(paths.passwordReset), { state: { email: state?.email } })}>
            <FormattedMessage id="auth.update.requestLink" />
          </Button>
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            {errorText && (
              <Alert color="red" role="alert" data-testid="password-update-error">
                {errorText}
              </Alert>
            )}
            <Text>
              <FormattedMessage id="auth.update.intro" />
            </Text>
            <PasswordInput
              label={intl.formatMessage({ id: 'auth.field.newPassword' })}
              autoComplete="new-password"
              required
              aria-describedby="update-password-rules"
              {...form.getInputProps('password')}
            />
            <PasswordRulesList id="update-password-rules" password={form.values.password} />
            <PasswordInput label={intl.formatMessage({ id: 'auth.field.confirmPassword' })} autoComplete="new-password" required {...form.getInputProps('confirm')} />
            <Button type="submit" loading={busy}>
              <FormattedMessage id="auth.update.submit" />
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

import { Alert, Button, Group, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { LocalLink } from '@/components/local-link';
import { useLocale, useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import { peekReturnPath } from '@/lib/return-path';
import { zodValidate } from '@/lib/zod-form';
import { fetchOwnRole, loginWithPassword } from '../api/login';
import { resumeCheckoutAfterLogin } from '../session/after-login';
import { OAuthButtons } from './oauth-buttons';

const schema = z.object({
  email: z.email('auth.validation.email'),
  password: z.string().min(1, 'auth.validation.required'),
});

/**
 * The login form of /login and /admin/login (spec §4, §5, §8). Errors: the backend's message as
 * an error snackbar (and inline alert); unknown errors a generic message; an old_user goes to
 * /password-update. `admin`: only role admin proceeds to /admin, others are signed out again.
 * After a login the visitor returns to the `next` query parameter or the remembered return path
 * (lib/return-path.ts, issue 15) when it is an internal path, else goes to /user.
 */
export function LoginForm({ admin = false }: { admin?: boolean }) {
  const intl = useIntl();
  const locale = useLocale();
  const localize = useLocalizedPath();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [errorText, setErrorText] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: (values) => {
      const errors = zodValidate(schema)(values);
      return Object.fromEntries(Object.entries(errors).map(([k, id]) => [k, intl.formatMessage({ id })]));
    },
  });

  // issue 33 §8: an error of the form is shown once, in the form (role=alert), not also as a snackbar
  const fail = (message: string) => setErrorText(message);

  const submit = form.onSubmit(async ({ email, password }) => {
    setBusy(true);
    setErrorText(null);
    const result = await loginWithPassword(email.trim(), password, locale);
    if (!result.ok) {
      setBusy(false);
      if (result.code === 'password_update_required') {
        notify('info', intl.formatMessage({ id: 'auth.login.passwordUpdateRequired' }), false);
        void navigate(localize(paths.passwordUpdate()), { replace: false, state: { email: email.trim() } });
        return;
      }
      // issue 12 finding 9: too many attempts for this account or from this address
      if (result.code === 'over_request_rate_limit') {
        fail(intl.formatMessage({ id: 'auth.login.rateLimited' }));
        return;
      }
      fail(result.message || intl.formatMessage({ id: 'auth.login.genericError' }));
      return;
    }
    if (admin) {
      const role = await fetchOwnRole(result.userId);
      if (role !== 'admin') {
        const { signOut } = await import('@/lib/sign-out');
        await signOut();
        setBusy(false);
        fail(intl.formatMessage({ id: 'auth.login.adminOnly' }));
        return;
      }
      void navigate(localize(paths.admin.home), { replace: true });
      return;
    }
    if (await resumeCheckoutAfterLogin()) return;
    // issue 15: back to the page that sent the visitor here (e.g. an invitation), else /user
    const back = peekReturnPath(new URLSearchParams(window.location.search).get('next'));
    void navigate(back ?? localize(paths.user.home), { replace: true });
  });

  return (
    <Stack>
      <Title order={1}>
        <FormattedMessage id={admin ? 'page.admin-login.title' : 'page.login.title'} />
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack>
          {errorText && (
            <Alert color="red" role="alert" data-testid="login-error">
              {errorText}
            </Alert>
          )}
          <TextInput label={intl.formatMessage({ id: 'auth.field.email' })} type="email" autoComplete="email" required {...form.getInputProps('email')} />
          <PasswordInput
            label={intl.formatMessage({ id: 'auth.field.password' })}
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={busy}>
            <FormattedMessage id="auth.login.submit" />
          </Button>
        </Stack>
      </form>
      {!admin && (
        <>
          <Group justify="space-between">
            <LocalLink to={paths.passwordReset}>
              <FormattedMessage id="auth.login.forgotPassword" />
            </LocalLink>
            <LocalLink to={paths.registration}>
              <FormattedMessage id="auth.login.noAccount" />
            </LocalLink>
          </Group>
          <OAuthButtons />
        </>
      )}
    </Stack>
  );
}

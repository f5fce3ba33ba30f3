import { Button, Fieldset, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { z } from 'zod';
import { isStrongPassword, PasswordRulesList } from '@/features/auth';
import { notify } from '@/lib/notify';
import { zodValidate } from '@/lib/zod-form';
import { changeOwnEmail, changeOwnPassword } from '../api/own-profile';

const emailSchema = z.object({ email: z.email('auth.validation.email') });
const passwordSchema = z
  .object({ password: z.string().refine(isStrongPassword, 'auth.validation.weakPassword'), confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'auth.validation.passwordMismatch' });

/** Change of e-mail (confirmed by the link in the mail) and password through Auth (issue 6 settings). */
export function AccountCredentials({ email }: { email: string }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const emailForm = useForm({
    initialValues: { email },
    validate: (v) => Object.fromEntries(Object.entries(zodValidate(emailSchema)(v)).map(([k, id]) => [k, t(id)])),
  });
  const passwordForm = useForm({
    initialValues: { password: '', confirm: '' },
    validate: (v) => Object.fromEntries(Object.entries(zodValidate(passwordSchema)(v)).map(([k, id]) => [k, t(id)])),
  });
  const changeEmail = useMutation({
    mutationFn: (value: string) => changeOwnEmail(value),
    onSuccess: () => notify('success', t('account.email.confirmSent'), false),
    onError: (err) => notify('error', (err as { status?: number }).status === 429 ? t('account.email.tooMany') : err.message),
  });
  const changePassword = useMutation({
    mutationFn: (value: string) => changeOwnPassword(value),
    onSuccess: () => {
      passwordForm.reset();
      notify('success', t('account.password.changed'));
    },
    onError: (err) => notify('error', err.message),
  });
  return (
    <Stack>
      <Fieldset legend={t('account.email.section')}>
        <form onSubmit={emailForm.onSubmit((v) => changeEmail.mutate(v.email.trim()))} noValidate>
          <Stack>
            <TextInput label={t('auth.field.email')} type="email" autoComplete="email" {...emailForm.getInputProps('email')} />
            <Button type="submit" variant="outline" loading={changeEmail.isPending} disabled={emailForm.values.email.trim() === email}>
              <FormattedMessage id="account.email.submit" />
            </Button>
          </Stack>
        </form>
      </Fieldset>
      <Fieldset legend={t('account.password.section')}>
        <form onSubmit={passwordForm.onSubmit((v) => changePassword.mutate(v.password))} noValidate>
          <Stack>
            <PasswordInput label={t('auth.field.newPassword')} autoComplete="new-password" {...passwordForm.getInputProps('password')} />
            <PasswordRulesList password={passwordForm.values.password} />
            <PasswordInput label={t('auth.field.confirmPassword')} autoComplete="new-password" {...passwordForm.getInputProps('confirm')} />
            <Button type="submit" variant="outline" loading={changePassword.isPending}>
              <FormattedMessage id="account.password.submit" />
            </Button>
          </Stack>
        </form>
      </Fieldset>
    </Stack>
  );
}

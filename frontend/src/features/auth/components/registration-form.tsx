import { Alert, Button, Checkbox, PasswordInput, Radio, Group, Stack, TextInput, Title, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { LocalLink } from '@/components/local-link';
import { useLocale, useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { zodValidate } from '@/lib/zod-form';
import { FunctionCallError, invokeFunction } from '@/lib/invoke-function';
import { isStrongPassword } from '../api/password-rules';
import { PasswordRulesList } from './password-rules-list';

const schema = z.object({
  firstname: z.string().trim().min(1, 'auth.validation.required').max(100, 'auth.validation.tooLong'),
  lastname: z.string().trim().min(1, 'auth.validation.required').max(100, 'auth.validation.tooLong'),
  email: z.email('auth.validation.email'),
  password: z.string().refine(isStrongPassword, 'auth.validation.weakPassword'),
  type: z.enum(['business', 'other']),
  terms_accepted: z.literal(true, 'auth.validation.termsRequired'),
  privacy_accepted: z.literal(true, 'auth.validation.privacyRequired'),
});

/** Registration (spec §2 /registration, /register; issue 6): names, e-mail, password with visible rules, type, consents. */
export function RegistrationForm() {
  const intl = useIntl();
  const locale = useLocale();
  const localize = useLocalizedPath();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [errorText, setErrorText] = useState<string | null>(null);
  const form = useForm({
    initialValues: { firstname: '', lastname: '', email: '', password: '', type: 'other', terms_accepted: false, privacy_accepted: false },
    validate: (values) => {
      const errors = zodValidate(schema)(values);
      return Object.fromEntries(Object.entries(errors).map(([k, id]) => [k, intl.formatMessage({ id })]));
    },
  });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setErrorText(null);
    try {
      await invokeFunction('register', { ...values, email: values.email.trim(), locale });
      void navigate(localize(paths.registrationSuccess), { state: { email: values.email.trim() } });
    } catch (err) {
      setBusy(false);
      let message = intl.formatMessage({ id: 'auth.register.genericError' });
      if (err instanceof FunctionCallError) {
        if (err.code === 'email_exists') message = intl.formatMessage({ id: 'auth.register.emailExists' });
        else if (err.status === 429) message = intl.formatMessage({ id: 'auth.register.rateLimited' });
        else if (err.code === 'weak_password' || err.code === 'terms_not_accepted' || err.code === 'validation_failed') message = err.message;
      }
      // shown once, in the form (issue 33 §8)
      setErrorText(message);
    }
  });
  const terms = (chunks: ReactNode) => <LocalLink to={paths.legal.terms} target="_blank">{chunks}</LocalLink>;
  const privacy = (chunks: ReactNode) => <LocalLink to={paths.legal.privacy} target="_blank">{chunks}</LocalLink>;
  return (
    <Stack>
      <Title order={1}>
        <FormattedMessage id="page.registration.title" />
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack>
          {errorText && (
            <Alert color="red" role="alert">
              {errorText}
            </Alert>
          )}
          <Group grow align="flex-start">
            <TextInput label={intl.formatMessage({ id: 'auth.field.firstname' })} autoComplete="given-name" required {...form.getInputProps('firstname')} />
            <TextInput label={intl.formatMessage({ id: 'auth.field.lastname' })} autoComplete="family-name" required {...form.getInputProps('lastname')} />
          </Group>
          <TextInput label={intl.formatMessage({ id: 'auth.field.email' })} type="email" autoComplete="email" required {...form.getInputProps('email')} />
          <PasswordInput
            label={intl.formatMessage({ id: 'auth.field.password' })}
            autoComplete="new-password"
            required
            aria-describedby="register-password-rules"
            {...form.getInputProps('password')}
          />
          <PasswordRulesList id="register-password-rules" password={form.values.password} />
          <Radio.Group label={intl.formatMessage({ id: 'auth.field.type' })} {...form.getInputProps('type')}>
            <Group mt="xs">
              <Radio value="business" label={intl.formatMessage({ id: 'auth.type.business' })} />
              <Radio value="other" label={intl.formatMessage({ id: 'auth.type.other' })} />
            </Group>
          </Radio.Group>
          <Checkbox
            label={<FormattedMessage id="auth.register.acceptTerms" values={{ link: terms }} />}
            {...form.getInputProps('terms_accepted', { type: 'checkbox' })}
          />
          <Checkbox
            label={<FormattedMessage id="auth.register.acceptPrivacy" values={{ link: privacy }} />}
            {...form.getInputProps('privacy_accepted', { type: 'checkbox' })}
          />
          <Button type="submit" loading={busy}>
            <FormattedMessage id="auth.register.submit" />
          </Button>
          <Text size="sm">
            <LocalLink to={paths.login}>
              <FormattedMessage id="auth.register.haveAccount" />
            </LocalLink>
          </Text>
        </Stack>
      </form>
    </Stack>
  );
}

import { Alert, Button, Container, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { z } from 'zod';
import { notify } from '@/lib/notify';
import { zodValidate } from '@/lib/zod-form';
import { invokeFunction } from '@/lib/invoke-function';

const schema = z.object({ email: z.email('auth.validation.email') });

/** /confirm: ask for a new confirmation link (issue 6); the answer never reveals whether the address exists. */
export default function ConfirmRoute() {
  const intl = useIntl();
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { email: '' },
    validate: (values) => Object.fromEntries(Object.entries(zodValidate(schema)(values)).map(([k, id]) => [k, intl.formatMessage({ id })])),
  });
  const submit = form.onSubmit(async ({ email }) => {
    setBusy(true);
    try {
      await invokeFunction('resend-confirmation', { email: email.trim() });
      setSent(true);
    } catch (err) {
      notify('error', err instanceof Error ? err.message : intl.formatMessage({ id: 'auth.login.genericError' }));
    } finally {
      setBusy(false);
    }
  });
  return (
    <Container size={520} py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="page.confirm.title" />
        </Title>
        <Text>
          <FormattedMessage id="auth.confirm.intro" />
        </Text>
        {sent ? (
          <Alert color="green" role="status">
            <FormattedMessage id="auth.confirm.sent" />
          </Alert>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack>
              <TextInput label={intl.formatMessage({ id: 'auth.field.email' })} type="email" autoComplete="email" required {...form.getInputProps('email')} />
              <Button type="submit" loading={busy}>
                <FormattedMessage id="auth.confirm.submit" />
              </Button>
            </Stack>
          </form>
        )}
      </Stack>
    </Container>
  );
}

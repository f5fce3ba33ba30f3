import { Alert, Button, Container, NativeSelect, Radio, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { zodValidate } from '@/lib/zod-form';
import { PRODUCT_NAME } from '@/lib/constants';
import { useCancelContract } from '../api/cancel-contract';
import { BillingFunctionError } from '../api/invoke-function';
import { type CancellationForm, cancellationSchema } from '../cancellation-schema';
import { berlinToday } from '@site/cancellation';

/**
 * `/cancel-subscription`: "Verträge hier kündigen" (§312k BGB). Works without login: then the
 * cancel-contract function stores the request and mails a confirmation link to the account's
 * address (issue 12 finding 2); signed in, the caller's own contract ends at once. After sending,
 * the page says which of the two happened and shows the request number.
 */
export default function CancelSubscriptionRoute({ locale }: PageProps) {
  const intl = useIntl();
  const mutation = useCancelContract();
  const [done, setDone] = useState<{ requestId: string; email: string; signedIn: boolean } | null>(null);
  const form = useForm<CancellationForm>({
    mode: 'uncontrolled',
    initialValues: { name: '', email: '', plan: '', contract: '', reason: '', when: 'asap', date: '' },
    validate: zodValidate(cancellationSchema),
  });
  const [when, setWhen] = useState<'asap' | 'date'>('asap');
  form.watch('when', ({ value }) => setWhen(value));
  const t = (id: string | undefined) => (id ? intl.formatMessage({ id }) : undefined);
  const errorOf = (field: keyof CancellationForm) => t(form.errors[field] as string | undefined);

  const submit = form.onSubmit((values) => {
    const v = cancellationSchema.parse(values);
    mutation.mutate(
      {
        name: v.name,
        email: v.email,
        plan: v.plan || null,
        contract: v.contract || null,
        reason: v.reason || null,
        requestedDate: v.when === 'asap' ? 'asap' : v.date,
        locale,
      },
      {
        onSuccess: (answer) => setDone({ requestId: answer.requestId, email: v.email, signedIn: answer.confirmation === 'done' }),
        onError: (err) =>
          notify('error', intl.formatMessage({ id: err instanceof BillingFunctionError && err.status === 429 ? 'billing.cancel.rateLimited' : 'billing.cancel.failed' })),
      },
    );
  });

  if (done) {
    return (
      <Container size="sm" py="xl">
        <Stack>
          <Title order={1}>
            <FormattedMessage id="billing.cancel.doneTitle" />
          </Title>
          <Alert color="green" role="status" data-testid="cancellation-received">
            <Stack gap="xs">
              <Text>
                {done.signedIn ? (
                  <FormattedMessage id="billing.cancel.doneTextSignedIn" />
                ) : (
                  <FormattedMessage id="billing.cancel.doneText" values={{ email: done.email, product: PRODUCT_NAME }} />
                )}
              </Text>
              <Text fz="sm">
                <FormattedMessage id="billing.cancel.requestId" values={{ id: done.requestId }} />
              </Text>
            </Stack>
          </Alert>
          <LocalButtonLink to={paths.home} variant="subtle" style={{ alignSelf: 'flex-start' }}>
            <FormattedMessage id="billing.cancel.home" />
          </LocalButtonLink>
        </Stack>
      </Container>
    );
  }

  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="billing.cancel.title" />
        </Title>
        <Text>
          <FormattedMessage id="billing.cancel.intro" />
        </Text>
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label={<FormattedMessage id="billing.cancel.field.name" />}
              autoComplete="name"
              required
              key={form.key('name')}
              {...form.getInputProps('name')}
              error={errorOf('name')}
            />
            <TextInput
              label={<FormattedMessage id="billing.cancel.field.email" />}
              description={<FormattedMessage id="billing.cancel.field.emailHint" />}
              type="email"
              autoComplete="email"
              required
              key={form.key('email')}
              {...form.getInputProps('email')}
              error={errorOf('email')}
            />
            <NativeSelect
              label={<FormattedMessage id="billing.cancel.field.plan" />}
              key={form.key('plan')}
              {...form.getInputProps('plan')}
              data={[
                { value: '', label: intl.formatMessage({ id: 'billing.cancel.plan.all' }) },
                { value: 'basic', label: intl.formatMessage({ id: 'prices.plan.basic' }) },
                { value: 'premium', label: intl.formatMessage({ id: 'prices.plan.premium' }) },
                { value: 'enterprise', label: intl.formatMessage({ id: 'prices.plan.enterprise' }) },
              ]}
            />
            <TextInput
              label={<FormattedMessage id="billing.cancel.field.contract" />}
              key={form.key('contract')}
              {...form.getInputProps('contract')}
              error={errorOf('contract')}
            />
            <Radio.Group
              label={<FormattedMessage id="billing.cancel.field.when" />}
              key={form.key('when')}
              {...form.getInputProps('when')}
            >
              <Stack gap="xs" mt="xs">
                <Radio value="asap" label={<FormattedMessage id="billing.cancel.when.asap" />} />
                <Radio value="date" label={<FormattedMessage id="billing.cancel.when.date" />} />
              </Stack>
            </Radio.Group>
            {when === 'date' && (
              <TextInput
                type="date"
                min={berlinToday()}
                label={<FormattedMessage id="billing.cancel.field.date" />}
                required
                key={form.key('date')}
                {...form.getInputProps('date')}
                error={errorOf('date')}
              />
            )}
            <Textarea
              label={<FormattedMessage id="billing.cancel.field.reason" />}
              autosize
              minRows={3}
              key={form.key('reason')}
              {...form.getInputProps('reason')}
              error={errorOf('reason')}
            />
            <Button type="submit" loading={mutation.isPending} data-testid="cancel-submit" style={{ alignSelf: 'flex-start' }}>
              <FormattedMessage id="billing.cancel.submit" />
            </Button>
          </Stack>
        </form>
      </Stack>
    </Container>
  );
}

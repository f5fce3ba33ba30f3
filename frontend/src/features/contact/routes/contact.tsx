import { Alert, Button, Checkbox, Container, NativeSelect, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-error';
import { notify } from '@/lib/notify';
import { useSession } from '@/lib/session';
import type { PageProps } from '@/lib/route-def';
import { zodValidate } from '@/lib/zod-form';
import { CONTACT_TOPICS, contactMessageSchema, useCreateContactMessage } from '../api/create-contact-message';

const TOPIC_LABEL = {
  general: 'contact.topic.general',
  support: 'contact.topic.support',
  sales: 'contact.topic.sales',
  enterprise: 'contact.topic.enterprise',
  press: 'contact.topic.press',
} as const;

/** `/contact`: contact form stored in contact_messages (spec §2). */
export default function ContactRoute({ locale }: PageProps) {
  const intl = useIntl();
  const [sent, setSent] = useState(false);
  const [rateLimited, setRateLimited] = useState(false);
  const [search] = useSearchParams();
  const preset = CONTACT_TOPICS.find((t) => t === search.get('topic')) ?? 'general';
  const mutation = useCreateContactMessage(locale);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { topic: preset, name: '', email: '', subject: '', message: '', privacyAccepted: false },
    validate: zodValidate(contactMessageSchema),
  });
  // issue 33 §9: a signed-in member writes from the account's address by default and then gets a copy
  const session = useSession();
  const ownEmail = (session.status === 'signed-in' && session.user?.email) || '';
  const prefilledFor = useRef('');
  useEffect(() => {
    if (!ownEmail || prefilledFor.current === ownEmail) return;
    prefilledFor.current = ownEmail;
    if (!form.getValues().email) form.setFieldValue('email', ownEmail);
  }, [ownEmail, form]);
  const t = (id: string | undefined) => (id ? intl.formatMessage({ id }) : undefined);
  const errorOf = (field: string) => t(form.errors[field] as string | undefined);

  const submit = form.onSubmit((values) => {
    setSent(false);
    setRateLimited(false);
    mutation.mutate(contactMessageSchema.parse(values), {
      onSuccess: () => {
        setSent(true);
        form.reset();
        notify('success', intl.formatMessage({ id: 'contact.success' }));
      },
      onError: (error) => {
        // issue 12 §8: the database refuses past its per-address/account/IP limits with 429
        const limited = error instanceof ApiError && error.status === 429;
        setRateLimited(limited);
        // the limit has its own alert above the form; anything else a snackbar (each error once, issue 33 §8)
        if (!limited) notify('error', intl.formatMessage({ id: 'contact.failure' }));
      },
    });
  });

  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="contact.title" />
        </Title>
        <Text>
          <FormattedMessage id="contact.intro" />
        </Text>
        {sent && (
          <Alert color="green" role="status" data-testid="contact-sent">
            <FormattedMessage id="contact.success" />
          </Alert>
        )}
        {rateLimited && (
          <Alert color="red" role="alert" data-testid="contact-rate-limited">
            <FormattedMessage id="contact.rateLimited" />
          </Alert>
        )}
        <form onSubmit={submit} noValidate aria-label={intl.formatMessage({ id: 'contact.title' })}>
          <Stack>
            <NativeSelect
              label={<FormattedMessage id="contact.field.topic" />}
              data={CONTACT_TOPICS.map((value) => ({ value, label: intl.formatMessage({ id: TOPIC_LABEL[value] }) }))}
              key={form.key('topic')}
              {...form.getInputProps('topic')}
              error={errorOf('topic')}
            />
            <TextInput
              label={<FormattedMessage id="contact.field.name" />}
              autoComplete="name"
              required
              key={form.key('name')}
              {...form.getInputProps('name')}
              error={errorOf('name')}
            />
            <TextInput
              label={<FormattedMessage id="contact.field.email" />}
              type="email"
              autoComplete="email"
              required
              description={ownEmail ? <FormattedMessage id="contact.copyHint" /> : undefined}
              key={form.key('email')}
              {...form.getInputProps('email')}
              error={errorOf('email')}
            />
            <TextInput
              label={<FormattedMessage id="contact.field.subject" />}
              required
              key={form.key('subject')}
              {...form.getInputProps('subject')}
              error={errorOf('subject')}
            />
            <Textarea
              label={<FormattedMessage id="contact.field.message" />}
              required
              minRows={5}
              autosize
              key={form.key('message')}
              {...form.getInputProps('message')}
              error={errorOf('message')}
            />
            <Checkbox
              label={
                <FormattedMessage
                  id="contact.field.privacy"
                  values={{
                    link: (chunks) => (
                      <LocalLink to={paths.legal.privacy} inherit>
                        {chunks}
                      </LocalLink>
                    ),
                  }}
                />
              }
              key={form.key('privacyAccepted')}
              {...form.getInputProps('privacyAccepted', { type: 'checkbox' })}
              error={errorOf('privacyAccepted')}
            />
            <Button type="submit" loading={mutation.isPending} style={{ alignSelf: 'flex-start' }}>
              <FormattedMessage id="contact.submit" />
            </Button>
          </Stack>
        </form>
      </Stack>
    </Container>
  );
}

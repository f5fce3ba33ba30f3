import { Alert, Button, Checkbox, Container, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormattedMessage, useIntl } from 'react-intl';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useLocalizedPath } from '@/components/use-locale';
import { LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-error';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { zodValidate } from '@/lib/zod-form';
import { newsletterSchema, useSubscribeNewsletter } from '../api/subscribe-newsletter';

/** `/newsletter`: double opt-in subscription form (spec §2). */
export default function NewsletterRoute({ locale }: PageProps) {
  const intl = useIntl();
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  const mutation = useSubscribeNewsletter(locale);
  const [rateLimited, setRateLimited] = useState(false);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '', consent: false },
    validate: zodValidate(newsletterSchema),
  });
  const errorOf = (field: string) => {
    const id = form.errors[field] as string | undefined;
    return id ? intl.formatMessage({ id }) : undefined;
  };
  const submit = form.onSubmit((values) => {
    setRateLimited(false);
    mutation.mutate(newsletterSchema.parse(values), {
      onSuccess: () => void navigate(localize(paths.newsletterThankYou)),
      onError: (error) => {
        // issue 12 §8: too many sign-ups from this connection (the database answers 429)
        const limited = error instanceof ApiError && error.status === 429;
        setRateLimited(limited);
        // the limit has its own alert above the form; anything else a snackbar (each error once, issue 33 §8)
        if (!limited) notify('error', intl.formatMessage({ id: 'newsletter.failure' }));
      },
    });
  });
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="newsletter.title" />
        </Title>
        <Text>
          <FormattedMessage id="newsletter.intro" />
        </Text>
        <List>
          <List.Item>
            <FormattedMessage id="newsletter.benefit.jobs" />
          </List.Item>
          <List.Item>
            <FormattedMessage id="newsletter.benefit.events" />
          </List.Item>
          <List.Item>
            <FormattedMessage id="newsletter.benefit.tips" />
          </List.Item>
        </List>
        {rateLimited && (
          <Alert color="red" role="alert" data-testid="newsletter-rate-limited">
            <FormattedMessage id="newsletter.rateLimited" />
          </Alert>
        )}
        <form onSubmit={submit} noValidate aria-label={intl.formatMessage({ id: 'newsletter.title' })}>
          <Stack>
            <TextInput
              label={<FormattedMessage id="newsletter.field.email" />}
              type="email"
              autoComplete="email"
              required
              key={form.key('email')}
              {...form.getInputProps('email')}
              error={errorOf('email')}
            />
            <Checkbox
              label={
                <FormattedMessage
                  id="newsletter.field.consent"
                  values={{
                    link: (chunks) => (
                      <LocalLink to={paths.legal.privacy} inherit>
                        {chunks}
                      </LocalLink>
                    ),
                  }}
                />
              }
              key={form.key('consent')}
              {...form.getInputProps('consent', { type: 'checkbox' })}
              error={errorOf('consent')}
            />
            <Button type="submit" loading={mutation.isPending} style={{ alignSelf: 'flex-start' }}>
              <FormattedMessage id="newsletter.submit" />
            </Button>
            <Text fz="sm">
              <FormattedMessage id="newsletter.doubleOptIn" />
            </Text>
          </Stack>
        </form>
      </Stack>
    </Container>
  );
}

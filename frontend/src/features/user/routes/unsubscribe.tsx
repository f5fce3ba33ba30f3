import { Alert, Button, Container, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { useSearchParams } from 'react-router';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { FunctionCallError, invokeFunction } from '@/lib/invoke-function';
import type { PageProps } from '@/lib/route-def';

/** Answer of the `unsubscribe` function. */
interface Unsubscribed {
  unsubscribed: true;
  kind: 'contact_requests' | 'messages';
}

const DONE: Record<Unsubscribed['kind'], string> = {
  contact_requests: 'unsubscribe.done.contactRequests',
  messages: 'unsubscribe.done.messages',
};

/**
 * `/unsubscribe?token=…` (issue 13): the one-click unsubscribe link of the contact-request and
 * unread-message mails. Opening the link changes nothing (mail scanners open links too); the
 * button posts the token to the `unsubscribe` function, which switches that kind of mail off for
 * the mail's recipient. No login needed; the settings page turns it back on.
 */
export default function UnsubscribeRoute(_props: PageProps) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useMutation({ mutationFn: () => invokeFunction<Unsubscribed>('unsubscribe', { token }) });
  const invalid = mutation.error instanceof FunctionCallError && mutation.error.code === 'token_invalid';
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="unsubscribe.title" />
        </Title>
        {!token ? (
          <Alert color="yellow" role="alert" data-testid="unsubscribe-missing">
            <FormattedMessage id="unsubscribe.missing" />
          </Alert>
        ) : mutation.isSuccess ? (
          <Alert color="green" role="status" data-testid="unsubscribe-done">
            <FormattedMessage id={DONE[mutation.data.kind]} />
          </Alert>
        ) : (
          <>
            <Text>
              <FormattedMessage id="unsubscribe.intro" />
            </Text>
            {mutation.isError && (
              <Alert color="red" role="alert" data-testid="unsubscribe-error">
                <FormattedMessage id={invalid ? 'unsubscribe.invalid' : 'unsubscribe.error'} />
              </Alert>
            )}
            <Button onClick={() => mutation.mutate()} loading={mutation.isPending} data-testid="unsubscribe-submit" style={{ alignSelf: 'flex-start' }}>
              <FormattedMessage id="unsubscribe.submit" />
            </Button>
          </>
        )}
        <LocalButtonLink to={paths.user.settings} variant="subtle" style={{ alignSelf: 'flex-start' }}>
          <FormattedMessage id="unsubscribe.settings" />
        </LocalButtonLink>
      </Stack>
    </Container>
  );
}

import { Alert, Button, Container, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { useSearchParams } from 'react-router';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { PRODUCT_NAME } from '@/lib/constants';
import { useUnsubscribeNewsletter } from '../api/subscribe-newsletter';

/**
 * `/newsletter-unsubscribe?token=<uuid>`: the unsubscribe link of the newsletter mails (issue 33
 * §1). Opening the link changes nothing (mail scanners open links too); the button calls RPC
 * `newsletter_unsubscribe`, which marks the address unsubscribed (deleted after 30 days). No
 * login needed: the token of the mail is the proof.
 */
export default function NewsletterUnsubscribeRoute() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const mutation = useUnsubscribeNewsletter(token);
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="newsletterUnsubscribe.title" />
        </Title>
        {!token ? (
          <Alert color="yellow" role="alert" data-testid="newsletter-unsubscribe-missing">
            <FormattedMessage id="newsletterUnsubscribe.missing" />
          </Alert>
        ) : mutation.data === true ? (
          <Alert color="green" role="status" data-testid="newsletter-unsubscribed">
            <FormattedMessage id="newsletterUnsubscribe.done" />
          </Alert>
        ) : (
          <>
            <Text>
              <FormattedMessage id="newsletterUnsubscribe.intro" values={{ product: PRODUCT_NAME }} />
            </Text>
            {(mutation.data === false || mutation.isError) && (
              <Alert color="red" role="alert" data-testid="newsletter-unsubscribe-error">
                <FormattedMessage id={mutation.data === false ? 'newsletterUnsubscribe.invalid' : 'newsletterUnsubscribe.error'} />
              </Alert>
            )}
            <Button
              onClick={() => mutation.mutate()}
              loading={mutation.isPending}
              data-testid="newsletter-unsubscribe-submit"
              style={{ alignSelf: 'flex-start' }}
            >
              <FormattedMessage id="newsletterUnsubscribe.submit" />
            </Button>
          </>
        )}
        <LocalButtonLink to={paths.home} variant="subtle" style={{ alignSelf: 'flex-start' }}>
          <FormattedMessage id="newsletterUnsubscribe.home" />
        </LocalButtonLink>
      </Stack>
    </Container>
  );
}

import { Alert, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { useSearchParams } from 'react-router';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { useConfirmNewsletter } from '../api/subscribe-newsletter';

/**
 * `/newsletter-thankyou`: after the form ("check your inbox") and, with `?token=<uuid>` from
 * the double opt-in mail, the confirmation of the subscription.
 */
export default function NewsletterThankYouRoute() {
  const [search] = useSearchParams();
  const token = search.get('token');
  const confirmation = useConfirmNewsletter(token);
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="newsletterThankYou.title" />
        </Title>
        {!token && (
          <Text>
            <FormattedMessage id="newsletterThankYou.pending" />
          </Text>
        )}
        {token && confirmation.isPending && (
          <Group role="status">
            <Loader size="sm" />
            <Text>
              <FormattedMessage id="newsletterThankYou.confirming" />
            </Text>
          </Group>
        )}
        {token && confirmation.data === true && (
          <Alert color="green" data-testid="newsletter-confirmed">
            <FormattedMessage id="newsletterThankYou.confirmed" />
          </Alert>
        )}
        {token && (confirmation.data === false || confirmation.isError) && (
          <Alert color="red" role="alert" data-testid="newsletter-invalid">
            <FormattedMessage id="newsletterThankYou.invalid" />
          </Alert>
        )}
        <LocalButtonLink to={paths.home} variant="light" style={{ alignSelf: 'flex-start' }}>
          <FormattedMessage id="newsletterThankYou.home" />
        </LocalButtonLink>
      </Stack>
    </Container>
  );
}

import { Container, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { useSearchParams } from 'react-router';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';

/**
 * `/newsletter-thankyou`: after the form ("check your inbox") and, with `?confirmed=1`, after the
 * confirmation link of the double opt-in mail.
 */
export default function NewsletterThankYouRoute() {
  const [search] = useSearchParams();
  const confirmed = search.get('confirmed') === '1';
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="newsletterThankYou.title" />
        </Title>
        <Text>
          {confirmed ? <FormattedMessage id="newsletterThankYou.confirmed" /> : <FormattedMessage id="newsletterThankYou.pending" />}
        </Text>
        <LocalButtonLink to={paths.home} variant="light" style={{ alignSelf: 'flex-start' }}>
          <FormattedMessage id="newsletterThankYou.home" />
        </LocalButtonLink>
      </Stack>
    </Container>
  );
}

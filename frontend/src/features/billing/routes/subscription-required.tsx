import { Container, Group, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';

/** `/subscription-required`: where the payment-required guard sends users without a paid plan (spec §6). */
export default function SubscriptionRequiredRoute() {
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="subscriptionRequired.title" />
        </Title>
        <Text>
          <FormattedMessage id="subscriptionRequired.text" />
        </Text>
        <Group>
          <LocalButtonLink to={paths.prices}>
            <FormattedMessage id="subscriptionRequired.cta" />
          </LocalButtonLink>
          <LocalButtonLink to={paths.contact} variant="subtle">
            <FormattedMessage id="subscriptionRequired.contact" />
          </LocalButtonLink>
        </Group>
      </Stack>
    </Container>
  );
}

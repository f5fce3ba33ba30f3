import { Alert, Container, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { PRODUCT_NAME } from '@/lib/constants';

/**
 * Stand-in page for a route whose feature arrives with a later issue: shows the page title and
 * what it will offer, inside the route's layout.
 */
export function PagePlaceholder({ titleKey, descriptionKey }: { titleKey: string; descriptionKey: string }) {
  return (
    <Container size="md" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id={titleKey} values={{ product: PRODUCT_NAME }} />
        </Title>
        <Text>
          <FormattedMessage id={descriptionKey} values={{ product: PRODUCT_NAME }} />
        </Text>
        <Alert color="blue" variant="light" data-testid="placeholder">
          <FormattedMessage id="common.comingSoon" />
        </Alert>
      </Stack>
    </Container>
  );
}

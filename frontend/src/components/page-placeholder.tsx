import { Container, Stack } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { PRODUCT_NAME } from '@/lib/constants';
import { EmptyState } from './empty-state';
import { PageHeader } from './page-header';

/**
 * Stand-in page for a route whose feature arrives with a later issue: the page header (title and
 * what it will offer) and a "coming soon" empty state (`data-testid="placeholder"`), inside the
 * route's layout.
 */
export function PagePlaceholder({ titleKey, descriptionKey }: { titleKey: string; descriptionKey: string }) {
  return (
    <Container size="md" py="xl">
      <Stack>
        <PageHeader title={<FormattedMessage id={titleKey} values={{ product: PRODUCT_NAME }} />} description={<FormattedMessage id={descriptionKey} values={{ product: PRODUCT_NAME }} />} />
        <EmptyState testId="placeholder">
          <FormattedMessage id="common.comingSoon" />
        </EmptyState>
      </Stack>
    </Container>
  );
}

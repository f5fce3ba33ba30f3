import { Container, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import type { PageProps } from '@/lib/route-def';
import { parseSearchParams, type SearchParams } from '../api/search';
import { SearchViewSlot as SearchView } from '../components/search-view-slot';

/** `/unified-search`: the same search, rendered on the client only and updated as the user types (debounced 300 ms). */
export default function UnifiedSearchRoute({ locale }: PageProps) {
  const [params, setParams] = useState<SearchParams>(() => parseSearchParams(new URLSearchParams()));
  return (
    <Container size="md" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="unifiedSearch.title" />
        </Title>
        <Text>
          <FormattedMessage id="unifiedSearch.intro" />
        </Text>
        <SearchView locale={locale} params={params} onChange={setParams} mode="live" />
      </Stack>
    </Container>
  );
}

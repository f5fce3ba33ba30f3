import { Container, Stack } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import type { PageProps } from '@/lib/route-def';
import { parseSearchParams, type SearchParams } from '../api/search';
import { SearchViewSlot as SearchView } from '../components/search-view-slot';
import { PageHeader } from '@/components/page-header';

/** `/unified-search`: the same search, rendered on the client only and updated as the user types (debounced 300 ms). */
export default function UnifiedSearchRoute({ locale }: PageProps) {
  const [params, setParams] = useState<SearchParams>(() => parseSearchParams(new URLSearchParams()));
  return (
    <Container size="md" py="xl">
      <Stack>
        <PageHeader title={<FormattedMessage id="unifiedSearch.title" />} description={<FormattedMessage id="unifiedSearch.intro" />} />
        <SearchView locale={locale} params={params} onChange={setParams} mode="live" />
      </Stack>
    </Container>
  );
}

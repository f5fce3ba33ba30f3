import { Container, Stack } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useSearchParams } from 'react-router';
import type { PageProps } from '@/lib/route-def';
import { parseSearchParams, type SearchParams } from '../api/search';
import { SearchViewSlot as SearchView } from '../components/search-view-slot';
import { PageHeader } from '@/components/page-header';

/**
 * `/unified-search`: the same search, rendered on the client only and updated as the user types
 * (debounced 300 ms). It starts from the URL's parameters (`?q=berlin&type=event`, as on /search;
 * issue 33 §2) and follows a new URL; typing changes only the page's state.
 */
export default function UnifiedSearchRoute({ locale }: PageProps) {
  const [searchParams] = useSearchParams();
  const key = searchParams.toString();
  const [params, setParams] = useState<SearchParams>(() => parseSearchParams(searchParams));
  // a link to another /unified-search?q=… while the page is open: start again from that URL
  const [seenKey, setSeenKey] = useState(key);
  if (seenKey !== key) {
    setSeenKey(key);
    setParams(parseSearchParams(searchParams));
  }
  return (
    <Container size="md" py="xl">
      <Stack>
        <PageHeader title={<FormattedMessage id="unifiedSearch.title" />} description={<FormattedMessage id="unifiedSearch.intro" />} />
        <SearchView locale={locale} params={params} onChange={setParams} mode="live" />
      </Stack>
    </Container>
  );
}

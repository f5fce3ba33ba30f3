import { Container, Stack } from '@mantine/core';
import { useCallback, useMemo } from 'react';
import { FormattedMessage } from 'react-intl';
import { useSearchParams } from 'react-router';
import type { PageProps } from '@/lib/route-def';
import { parseSearchParams, type SearchParams, toSearchParams } from '../api/search';
import { SearchViewSlot as SearchView } from '../components/search-view-slot';
import { PageHeader } from '@/components/page-header';

/** `/search` (title 'Suche'): the query and filters live in the URL, so a shared URL reproduces the results (spec §2, §6). */
export default function SearchRoute({ locale }: PageProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const key = searchParams.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const params = useMemo(() => parseSearchParams(searchParams), [key]);
  const onChange = useCallback((next: SearchParams) => setSearchParams(toSearchParams(next)), [setSearchParams]);
  return (
    <Container size="md" py="xl">
      <Stack>
        <PageHeader title={<FormattedMessage id="search.title" />} description={<FormattedMessage id="search.intro" />} />
        <SearchView locale={locale} params={params} onChange={onChange} mode="submit" />
      </Stack>
    </Container>
  );
}

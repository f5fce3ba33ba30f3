import { Anchor, Button, Checkbox, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type FormEvent, Suspense, useDeferredValue, useEffect, useState } from 'react';
import { lazyChunk } from '@/lib/load-chunk';
import { FormattedMessage, useIntl } from 'react-intl';
import { CardBadge, ContentCard } from '@/components/content-card';
import { EmptyState } from '@/components/empty-state';
import { ListPagination } from '@/components/list-pagination';
import { LoadError, LoadingState } from '@/components/query-state';
import { paths } from '@/config/paths';
import { type Locale } from '@site/locale';
import { CATEGORY_LABEL } from '@/lib/categories';
import { formatDate } from '@/lib/format';
import { SEARCH_PAGE_SIZE, SEARCH_TYPES, type SearchParams, type SearchResult, type SearchType, useSearch } from '../api/search';
import { CATEGORIES } from '@/lib/categories';
import { Highlight } from './highlight';
import { SearchResultsMap } from './search-results-map';
import { ViewSwitch } from '@/features/map';
import { useSession } from '@/lib/session';

// "Connect" on people (issue 13) loads with supabase-js, only for signed-in visitors.
const ConnectButton = lazyChunk(() => import('@/features/contacts').then((m) => ({ default: m.ConnectButton })));

const TYPE_LABEL: Record<SearchType, string> = {
  project: 'search.type.project',
  portfolio: 'search.type.portfolio',
  event: 'search.type.event',
  profile: 'search.type.profile',
};

/** Link target of a hit, or null when the type has no public page (portfolios are shown on profiles). */
function resultPath(r: SearchResult): string | null {
  if (!r.slug) return null;
  if (r.type === 'project') return paths.project(Number(r.id), r.slug);
  if (r.type === 'event') return paths.event(r.slug);
  if (r.type === 'profile') return paths.profile(r.slug);
  // portfolios have no page of their own: they show on their owner's profile
  if (r.type === 'portfolio' && r.owner) return paths.profile(r.owner.slug);
  return null;
}

interface Props {
  locale: Locale;
  /** Current parameters (from the URL on /search, from state on /unified-search). */
  params: SearchParams;
  /** Applies new parameters (writes the URL or the state). */
  onChange: (next: SearchParams) => void;
  /** `live`: the query box searches as the user types (debounced 300 ms); `submit`: on Enter/button. */
  mode: 'live' | 'submit';
}

/**
 * The search UI shared by /search (URL state) and /unified-search (client state): query box,
 * type/category/city/date filters with facet counts, results with safe highlighting, pagination.
 */
export function SearchView({ locale, params, onChange, mode }: Props) {
  const intl = useIntl();
  const [q, setQ] = useState(params.q);
  const [city, setCity] = useState(params.city);
  const [debouncedQ] = useDebouncedValue(q, 300);

  // back/forward or a new shared URL: the boxes follow the parameters (React's "adjust state on prop change");
  // each box only when its own parameter changed, so a city applied on blur keeps a query typed but not yet submitted
  const [seen, setSeen] = useState({ q: params.q, city: params.city });
  if (seen.q !== params.q || seen.city !== params.city) {
    setSeen({ q: params.q, city: params.city });
    if (mode === 'submit' && seen.q !== params.q) setQ(params.q);
    if (seen.city !== params.city) setCity(params.city);
  }

  useEffect(() => {
    if (mode === 'live' && debouncedQ !== params.q) onChange({ ...params, q: debouncedQ, page: 1 });
  }, [mode, debouncedQ, params, onChange]);

  const search = useSearch(params);
  // new results are drawn in a background render that React slices and that yields to input, not
  // in one task with the query's update (Lighthouse TBT of /search, issue 18); until then the
  // previous results or the loading state stay
  const data = useDeferredValue(search.data);
  const signedIn = useSession().status !== 'signed-out';
  const apply = (patch: Partial<SearchParams>) => onChange({ ...params, ...patch, page: patch.page ?? 1 });
  const showMap = params.view === 'map';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply({ q, city });
  };
  const toggleType = (type: SearchType, checked: boolean) =>
    apply({ types: checked ? [...params.types, type] : params.types.filter((t) => t !== type) });

  return (
    <Stack>
      <form role="search" onSubmit={submit} aria-label={intl.formatMessage({ id: 'search.form' })}>
        <Stack>
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              label={<FormattedMessage id="search.query" />}
              placeholder={intl.formatMessage({ id: 'search.placeholder' })}
              value={q}
              maxLength={200}
              onChange={(e) => setQ(e.currentTarget.value)}
              data-testid="search-query"
              type="search"
            />
            <Button type="submit">
              <FormattedMessage id="search.submit" />
            </Button>
          </Group>
          <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
            <legend>
              <Text fw={600} fz="sm">
                <FormattedMessage id="search.types" />
              </Text>
            </legend>
            <Group>
              {SEARCH_TYPES.map((type) => (
                <Checkbox
                  key={type}
                  checked={params.types.includes(type)}
                  onChange={(e) => toggleType(type, e.currentTarget.checked)}
                  label={
                    <>
                      <FormattedMessage id={TYPE_LABEL[type]} />
                      {data && ` (${data.facets.types[type] ?? 0})`}
                    </>
                  }
                  data-testid={`search-type-${type}`}
                />
              ))}
            </Group>
          </fieldset>
          <SimpleGrid cols={{ base: 1, sm: 4 }}>
            <NativeSelect
              label={<FormattedMessage id="search.category" />}
              value={params.category}
              onChange={(e) => apply({ category: e.currentTarget.value })}
              data={[
                { value: '', label: intl.formatMessage({ id: 'search.any' }) },
                ...CATEGORIES.map((c) => {
                  const n = data?.facets.categories[c];
                  return { value: c, label: intl.formatMessage({ id: CATEGORY_LABEL[c] }) + (n ? ` (${n})` : '') };
                }),
              ]}
            />
            <TextInput
              label={<FormattedMessage id="search.city" />}
              value={city}
              maxLength={100}
              onChange={(e) => setCity(e.currentTarget.value)}
              onBlur={() => city !== params.city && apply({ city })}
              list="search-city-facets"
            />
            <TextInput type="date" label={<FormattedMessage id="search.from" />} value={params.from} onChange={(e) => apply({ from: e.currentTarget.value })} />
            <TextInput type="date" label={<FormattedMessage id="search.to" />} value={params.to} onChange={(e) => apply({ to: e.currentTarget.value })} />
          </SimpleGrid>
          {data && data.facets.cities.length > 0 && !params.city && (
            <Group gap="xs" aria-label={intl.formatMessage({ id: 'search.cityFacets' })} role="group">
              {data.facets.cities.slice(0, 8).map((c) => (
                <Button key={c.city} size="compact-xs" variant="light" onClick={() => apply({ city: c.city })}>
                  {`${c.city} (${c.count})`}
                </Button>
              ))}
            </Group>
          )}
          <datalist id="search-city-facets">
            {data?.facets.cities.map((c) => <option key={c.city} value={c.city} />)}
          </datalist>
        </Stack>
      </form>

      {!data && !search.isError && <LoadingState messageId="search.loading" />}
      {search.isError && <LoadError messageId="search.error" onRetry={() => void search.refetch()} testId="search-error" />}
      {data && (
        <Stack aria-busy={search.isFetching} data-testid="search-results-region">
          <Group justify="space-between">
            <Text role="status" aria-live="polite" data-testid="search-total">
              <FormattedMessage
                id={data.total_estimated ? 'search.totalEstimated' : data.total_capped ? 'search.totalCapped' : 'search.total'}
                values={{ count: data.total }}
              />
            </Text>
            <ViewSwitch value={params.view} onChange={(view) => onChange({ ...params, view })} />
          </Group>
          {data.suggestion && (
            <Text data-testid="search-suggestion">
              <FormattedMessage
                id="search.didYouMean"
                values={{
                  suggestion: (
                    <Anchor
                      component="button"
                      type="button"
                      fw={600}
                      onClick={() => {
                        setQ(data.suggestion ?? '');
                        apply({ q: data.suggestion ?? '' });
                      }}
                    >
                      {data.suggestion}
                    </Anchor>
                  ),
                }}
              />
            </Text>
          )}
          {showMap && data.results.length > 0 && <SearchResultsMap results={data.results} locale={locale} />}
          {showMap && data.results.length > 0 ? null : data.results.length === 0 ? (
            <EmptyState testId="search-empty" title={<FormattedMessage id="search.emptyTitle" />}>
              <FormattedMessage id="search.empty" />
            </EmptyState>
          ) : (
            <SimpleGrid component="ol" cols={{ base: 1, sm: 2 }} spacing="md" p={0} m={0} style={{ listStyle: 'none' }} data-testid="search-results">
              {data.results.map((r) => {
                const to = resultPath(r);
                const type = (SEARCH_TYPES as readonly string[]).includes(r.type) ? (r.type as SearchType) : null;
                return (
                  <li key={`${r.type}-${r.id}`}>
                    <ContentCard
                      testId="search-result"
                      to={to}
                      heading="h2"
                      title={<Highlight html={r.title_highlight} />}
                      kicker={r.category && CATEGORY_LABEL[r.category] ? intl.formatMessage({ id: CATEGORY_LABEL[r.category] }) : undefined}
                      badge={
                        <Group gap={4} wrap="nowrap">
                          {type && (
                            <CardBadge>
                              <FormattedMessage id={TYPE_LABEL[type]} />
                            </CardBadge>
                          )}
                          {r.premium && (
                            <CardBadge tone="grape">
                              <FormattedMessage id="search.premium" />
                            </CardBadge>
                          )}
                        </Group>
                      }
                      meta={[r.city, r.date ? formatDate(r.date, locale) : null].filter(Boolean).join(' · ') || undefined}
                      summary={
                        <span data-testid="search-snippet">
                          <Highlight html={r.snippet} markdown />
                        </span>
                      }
                      owner={r.owner ? { name: r.owner.name, img: r.owner.img } : r.type === 'profile' ? { name: r.title, img: null } : null}
                      action={<FormattedMessage id={r.type === 'profile' ? 'card.action.profile' : r.type === 'event' ? 'landing.events.action' : 'card.action.open'} />}
                      extra={
                        signedIn &&
                        r.type === 'profile' && (
                          <Suspense fallback={null}>
                            <ConnectButton userId={r.id} name={r.title} size="xs" />
                          </Suspense>
                        )
                      }
                    />
                  </li>
                );
              })}
            </SimpleGrid>
          )}
          {/* the pager offers at most 1000 pages */}
          <ListPagination total={Math.min(data.total, 1000 * SEARCH_PAGE_SIZE)} pageSize={SEARCH_PAGE_SIZE} page={params.page} onChange={(page) => apply({ page })} />
        </Stack>
      )}
    </Stack>
  );
}

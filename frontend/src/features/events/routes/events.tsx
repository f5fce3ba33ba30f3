import { Button, Container, Group, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router';
import { CardBadge, ContentCard } from '@/components/content-card';
import { EmptyState } from '@/components/empty-state';
import { ListPagination } from '@/components/list-pagination';
import { PageHeader } from '@/components/page-header';
import { LocalButtonLink } from '@/components/local-link';
import { LoadError, LoadingState } from '@/components/query-state';
import { paths } from '@/config/paths';
import type { PageProps } from '@/lib/route-def';
import { EVENTS_PAGE_SIZE, type EventFilters, parseEventFilters, toEventSearch, useEvents } from '../api/get-events';
import { formatPriceCents, visitorStatusLabel } from '../components/labels';
import { CATEGORY_LABEL } from '@/lib/categories';
import { formatEventRange } from '@/lib/format';
import { type MapItem, ResultsMap, ViewSwitch } from '@/features/map';

/** `/events`: upcoming public events, soonest first, with city/date/price/category filters in the URL and pagination (spec §2). */
export default function EventsRoute({ locale }: PageProps) {
  const intl = useIntl();
  const [searchParams, setSearchParams] = useSearchParams();
  const key = searchParams.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const filters = useMemo(() => parseEventFilters(searchParams), [key]);
  const [city, setCity] = useState(filters.city);
  const [seenCity, setSeenCity] = useState(filters.city);
  if (seenCity !== filters.city) {
    setSeenCity(filters.city);
    setCity(filters.city);
  }
  const events = useEvents(filters);
  // the moment the page opened decides which events are happening now or over (issue 33 §10)
  const [now] = useState(() => Date.now());
  const placed = useMemo(
    () =>
      (events.data?.rows ?? []).flatMap((ev): MapItem[] =>
        ev.latitude !== null && ev.longitude !== null
          ? [{ layer: 'events', id: String(ev.id), slug: ev.slug, title: ev.title, subtitle: ev.venue_name, category: ev.category, city: ev.city, lat: ev.latitude, lon: ev.longitude, starts_at: ev.starts_at, ends_at: ev.ends_at }]
          : [],
      ),
    [events.data],
  );
  const apply = (patch: Partial<EventFilters>) => setSearchParams(toEventSearch({ ...filters, ...patch, page: patch.page ?? 1 }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply({ city });
  };

  return (
    <Container size="lg" py="xl">
      <Stack>
        <PageHeader
          title={<FormattedMessage id="events.title" />}
          description={<FormattedMessage id="events.intro" />}
          action={
            <LocalButtonLink to={paths.user.createEvent} variant="light">
              <FormattedMessage id="events.create" />
            </LocalButtonLink>
          }
        />
        <form onSubmit={submit} aria-label={intl.formatMessage({ id: 'events.filters' })}>
          <SimpleGrid cols={{ base: 1, sm: 3, md: 6 }} style={{ alignItems: 'end' }}>
            <TextInput label={<FormattedMessage id="events.filter.city" />} value={city} maxLength={100} onChange={(e) => setCity(e.currentTarget.value)} onBlur={() => city !== filters.city && apply({ city })} />
            <TextInput type="date" label={<FormattedMessage id="events.filter.from" />} value={filters.from} onChange={(e) => apply({ from: e.currentTarget.value })} />
            <TextInput type="date" label={<FormattedMessage id="events.filter.to" />} value={filters.to} onChange={(e) => apply({ to: e.currentTarget.value })} />
            <NativeSelect
              label={<FormattedMessage id="events.filter.price" />}
              value={filters.price}
              onChange={(e) => apply({ price: e.currentTarget.value as EventFilters['price'] })}
              data={[
                { value: '', label: intl.formatMessage({ id: 'search.any' }) },
                { value: 'free', label: intl.formatMessage({ id: 'events.free' }) },
                { value: 'paid', label: intl.formatMessage({ id: 'events.paid' }) },
              ]}
            />
            <NativeSelect
              label={<FormattedMessage id="events.filter.category" />}
              value={filters.category}
              onChange={(e) => apply({ category: e.currentTarget.value })}
              data={[{ value: '', label: intl.formatMessage({ id: 'search.any' }) }, ...Object.entries(CATEGORY_LABEL).map(([value, id]) => ({ value, label: intl.formatMessage({ id }) }))]}
            />
            <Button type="submit">
              <FormattedMessage id="events.filter.apply" />
            </Button>
          </SimpleGrid>
        </form>
        {events.isPending && <LoadingState messageId="events.loading" />}
        {events.isError && <LoadError messageId="events.error" onRetry={() => void events.refetch()} />}
        {events.data && events.data.rows.length === 0 && (
          <EmptyState testId="events-empty">
            <FormattedMessage id="events.empty" />
          </EmptyState>
        )}
        {events.data && events.data.rows.length > 0 && (
          <Group justify="flex-end">
            <ViewSwitch value={filters.view} onChange={(view) => setSearchParams(toEventSearch({ ...filters, view }))} />
          </Group>
        )}
        {events.data && events.data.rows.length > 0 && filters.view === 'map' && (
          <ResultsMap items={placed} unplaced={events.data.rows.length - placed.length} locale={locale} />
        )}
        {events.data && events.data.rows.length > 0 && filters.view === 'list' && (
          <SimpleGrid component="ul" cols={{ base: 1, sm: 2, md: 3 }} p={0} style={{ listStyle: 'none' }} data-testid="events-list" aria-busy={events.isFetching}>
            {events.data.rows.map((ev) => (
              <li key={ev.id}>
                <ContentCard
                  to={paths.event(ev.slug)}
                  title={ev.title}
                  kicker={formatEventRange(ev.starts_at, ev.ends_at, locale, 'medium')}
                  meta={ev.is_online ? intl.formatMessage({ id: 'events.online' }) : (ev.city ?? undefined)}
                  summary={ev.summary}
                  badge={
                    <Group gap={4} wrap="nowrap">
                      {visitorStatusLabel(ev, now) && (
                        <CardBadge>
                          <FormattedMessage id={visitorStatusLabel(ev, now)!} />
                        </CardBadge>
                      )}
                      <CardBadge tone={ev.is_paid ? 'grape' : 'teal'}>
                        {ev.is_paid && ev.price_cents ? formatPriceCents(ev.price_cents, locale) : <FormattedMessage id="events.free" />}
                      </CardBadge>
                    </Group>
                  }
                  action={<FormattedMessage id="landing.events.action" />}
                />
              </li>
            ))}
          </SimpleGrid>
        )}
        {events.data && <ListPagination total={events.data.total} pageSize={EVENTS_PAGE_SIZE} page={filters.page} onChange={(page) => apply({ page })} />}
      </Stack>
    </Container>
  );
}

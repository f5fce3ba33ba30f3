import { useState } from 'react';
import { Container, SimpleGrid, Stack, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { CardBadge, ContentCard } from '@/components/content-card';
import { EmptyState } from '@/components/empty-state';
import { LocalButtonLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import { paths } from '@/config/paths';
import type { PageProps } from '@/lib/route-def';
import { useMyEvents } from '../api/get-events';
import { useSession } from '@/lib/session';
import { formatPriceCents, rsvpLabel, STATUS_LABEL } from '../components/labels';
import { formatEventRange } from '@/lib/format';
import { EditEventButton } from '../components/edit-event-dialog';
import { StatusActions } from '../components/status-actions';

const TICKET_STATUS: Record<string, string> = {
  paid: 'events.mine.ticket.paid',
  refund_pending: 'events.mine.ticket.refundPending',
  refunded: 'events.mine.ticket.refunded',
};

/** `/user/events`: events I organise (all statuses, with editing and the allowed status changes), my tickets (issue 16) and my RSVPs (spec §2, issue 8). */
export default function UserEventsRoute({ locale }: PageProps) {
  const userId = useSession().user?.id ?? null;
  const mine = useMyEvents(userId);
  // the moment the page opened decides which RSVPs are past
  const [now] = useState(() => Date.now());
  return (
    <Container size="md" py="xl">
      <Stack>
        <PageHeader
          title={<FormattedMessage id="events.mine.title" />}
          action={
            <LocalButtonLink to={paths.user.createEvent}>
              <FormattedMessage id="events.create" />
            </LocalButtonLink>
          }
        />
        {(mine.isPending || !userId) && <LoadingState messageId="events.loading" />}
        {mine.isError && <LoadError messageId="events.error" onRetry={() => void mine.refetch()} />}
        {mine.data && (
          <>
            <Title order={2} fz="h3">
              <FormattedMessage id="events.mine.organised" />
            </Title>
            {mine.data.organised.length === 0 ? (
              <EmptyState compact>
                <FormattedMessage id="events.mine.organisedEmpty" />
              </EmptyState>
            ) : (
              <SimpleGrid component="ul" cols={{ base: 1, sm: 2 }} p={0} m={0} style={{ listStyle: 'none' }} data-testid="my-organised-events">
                {mine.data.organised.map((ev) => (
                  <li key={ev.id}>
                    <ContentCard
                      to={paths.event(ev.slug)}
                      heading="h3"
                      title={ev.title}
                      kicker={formatEventRange(ev.starts_at, ev.ends_at, locale, 'medium')}
                      meta={<FormattedMessage id="events.mine.counts" values={{ count: ev.going_count, places: ev.waitlist_count }} />}
                      badge={
                        <CardBadge>
                          <FormattedMessage id={STATUS_LABEL[ev.status] ?? 'events.status.draft'} />
                        </CardBadge>
                      }
                      action={<FormattedMessage id="landing.events.action" />}
                      extra={
                        <>
                          <EditEventButton eventId={ev.id} title={ev.title} status={ev.status} />
                          <StatusActions eventId={ev.id} status={ev.status} />
                        </>
                      }
                    />
                  </li>
                ))}
              </SimpleGrid>
            )}
            <Title order={2} fz="h3">
              <FormattedMessage id="events.mine.tickets" />
            </Title>
            {mine.data.tickets.length === 0 ? (
              <EmptyState compact>
                <FormattedMessage id="events.mine.ticketsEmpty" />
              </EmptyState>
            ) : (
              <SimpleGrid component="ul" cols={{ base: 1, sm: 2 }} p={0} m={0} style={{ listStyle: 'none' }} data-testid="my-tickets">
                {mine.data.tickets.map((t) => (
                  <li key={t.id} data-testid={`my-ticket-${t.ticket_number}`}>
                    <ContentCard
                      to={t.event ? paths.event(t.event.slug) : null}
                      heading="h3"
                      title={t.event ? t.event.title : <FormattedMessage id="events.mine.ticket.deleted" />}
                      kicker={t.event ? formatEventRange(t.event.starts_at, t.event.ends_at, locale, 'medium') : undefined}
                      meta={<FormattedMessage id="events.mine.ticket.line" values={{ number: t.ticket_number, amount: formatPriceCents(t.amount_cents, locale) }} />}
                      badge={
                        <div data-testid="my-ticket-status">
                          <CardBadge tone={t.status === 'paid' ? 'teal' : 'gray'}>
                            <FormattedMessage id={TICKET_STATUS[t.status] ?? 'events.mine.ticket.paid'} />
                          </CardBadge>
                        </div>
                      }
                      action={<FormattedMessage id="landing.events.action" />}
                    />
                  </li>
                ))}
              </SimpleGrid>
            )}
            <Title order={2} fz="h3">
              <FormattedMessage id="events.mine.rsvps" />
            </Title>
            {mine.data.rsvps.length === 0 ? (
              <EmptyState
                compact
                action={
                  <LocalButtonLink to={paths.events} variant="light" size="xs">
                    <FormattedMessage id="events.mine.browse" />
                  </LocalButtonLink>
                }
              >
                <FormattedMessage id="events.mine.rsvpsEmpty" />
              </EmptyState>
            ) : (
              <SimpleGrid component="ul" cols={{ base: 1, sm: 2 }} p={0} m={0} style={{ listStyle: 'none' }} data-testid="my-rsvps">
                {mine.data.rsvps.map((r) => (
                  <li key={r.event!.id}>
                    <ContentCard
                      to={paths.event(r.event!.slug)}
                      heading="h3"
                      title={r.event!.title}
                      kicker={formatEventRange(r.event!.starts_at, r.event!.ends_at, locale, 'medium')}
                      badge={
                        <CardBadge tone={r.status === 'going' ? 'teal' : 'gray'}>
                          <FormattedMessage id={rsvpLabel(r.status, r.event!.ends_at, now)} />
                        </CardBadge>
                      }
                      action={<FormattedMessage id="landing.events.action" />}
                    />
                  </li>
                ))}
              </SimpleGrid>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}

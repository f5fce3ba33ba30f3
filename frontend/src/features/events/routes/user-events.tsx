import { Alert, Badge, Card, Container, Group, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { LoadError, LoadingState } from '@/components/query-state';
import { paths } from '@/config/paths';
import type { PageProps } from '@/lib/route-def';
import { useMyEvents } from '../api/events';
import { useSessionUser } from '@/components/use-session-user';
import { formatEventRange, formatPriceCents, STATUS_LABEL } from '../components/labels';
import { EditEventButton } from '../components/edit-event-dialog';
import { StatusActions } from '../components/status-actions';

const TICKET_STATUS: Record<string, string> = {
  paid: 'events.mine.ticket.paid',
  refund_pending: 'events.mine.ticket.refundPending',
  refunded: 'events.mine.ticket.refunded',
};

/** `/user/events`: events I organise (all statuses, with editing and the allowed status changes), my tickets (issue 16) and my RSVPs (spec §2, issue 8). */
export default function UserEventsRoute({ locale }: PageProps) {
  const { userId } = useSessionUser();
  const mine = useMyEvents(userId);
  return (
    <Container size="md" py="xl">
      <Stack>
        <Group justify="space-between">
          <Title order={1}>
            <FormattedMessage id="events.mine.title" />
          </Title>
          <LocalButtonLink to={paths.user.createEvent}>
            <FormattedMessage id="events.create" />
          </LocalButtonLink>
        </Group>
        {(mine.isPending || !userId) && <LoadingState messageId="events.loading" />}
        {mine.isError && <LoadError messageId="events.error" onRetry={() => void mine.refetch()} />}
        {mine.data && (
          <>
            <Title order={2} fz="h3">
              <FormattedMessage id="events.mine.organised" />
            </Title>
            {mine.data.organised.length === 0 ? (
              <Alert color="blue">
                <FormattedMessage id="events.mine.organisedEmpty" />
              </Alert>
            ) : (
              <Stack component="ul" p={0} gap="sm" style={{ listStyle: 'none' }} data-testid="my-organised-events">
                {mine.data.organised.map((ev) => (
                  <Card component="li" key={ev.id} withBorder padding="sm">
                    <Stack gap={4}>
                      <Group justify="space-between">
                        <LocalLink to={paths.event(ev.slug)} fw={700}>
                          {ev.title}
                        </LocalLink>
                        <Badge variant="outline" color="var(--tw-blue)">
                          <FormattedMessage id={STATUS_LABEL[ev.status] ?? 'events.status.draft'} />
                        </Badge>
                      </Group>
                      <Text fz="sm">{formatEventRange(ev.starts_at, ev.ends_at, locale, 'medium')}</Text>
                      <Text fz="sm">
                        <FormattedMessage id="events.mine.counts" values={{ count: ev.going_count, places: ev.waitlist_count }} />
                      </Text>
                      <Group gap="xs">
                        <EditEventButton eventId={ev.id} title={ev.title} status={ev.status} />
                        <StatusActions eventId={ev.id} status={ev.status} />
                      </Group>
                    </Stack>
                  </Card>
                ))}
              </Stack>
            )}
            <Title order={2} fz="h3">
              <FormattedMessage id="events.mine.tickets" />
            </Title>
            {mine.data.tickets.length === 0 ? (
              <Alert color="blue" variant="outline">
                <FormattedMessage id="events.mine.ticketsEmpty" />
              </Alert>
            ) : (
              <Stack component="ul" p={0} gap="sm" style={{ listStyle: 'none' }} data-testid="my-tickets">
                {mine.data.tickets.map((t) => (
                  <Card component="li" key={t.id} withBorder padding="sm" data-testid={`my-ticket-${t.ticket_number}`}>
                    <Group justify="space-between" wrap="wrap">
                      <Stack gap={2}>
                        {t.event ? (
                          <LocalLink to={paths.event(t.event.slug)} fw={700}>
                            {t.event.title}
                          </LocalLink>
                        ) : (
                          <Text fw={700}>
                            <FormattedMessage id="events.mine.ticket.deleted" />
                          </Text>
                        )}
                        {t.event && <Text fz="sm">{formatEventRange(t.event.starts_at, t.event.ends_at, locale, 'medium')}</Text>}
                        <Text fz="sm">
                          <FormattedMessage id="events.mine.ticket.line" values={{ number: t.ticket_number, amount: formatPriceCents(t.amount_cents, locale) }} />
                        </Text>
                      </Stack>
                      <Badge variant="outline" color={t.status === 'paid' ? 'var(--tw-teal)' : 'var(--tw-gray)'} data-testid="my-ticket-status">
                        <FormattedMessage id={TICKET_STATUS[t.status] ?? 'events.mine.ticket.paid'} />
                      </Badge>
                    </Group>
                  </Card>
                ))}
              </Stack>
            )}
            <Title order={2} fz="h3">
              <FormattedMessage id="events.mine.rsvps" />
            </Title>
            {mine.data.rsvps.length === 0 ? (
              <Alert color="blue">
                <FormattedMessage id="events.mine.rsvpsEmpty" />
              </Alert>
            ) : (
              <Stack component="ul" p={0} gap="sm" style={{ listStyle: 'none' }} data-testid="my-rsvps">
                {mine.data.rsvps.map((r) => (
                  <Card component="li" key={r.event!.id} withBorder padding="sm">
                    <Group justify="space-between">
                      <Stack gap={2}>
                        <LocalLink to={paths.event(r.event!.slug)} fw={700}>
                          {r.event!.title}
                        </LocalLink>
                        <Text fz="sm">{formatEventRange(r.event!.starts_at, r.event!.ends_at, locale, 'medium')}</Text>
                      </Stack>
                      <Badge variant="outline" color={r.status === 'going' ? 'var(--tw-teal)' : 'var(--tw-gray)'}>
                        <FormattedMessage id={r.status === 'going' ? 'events.mine.going' : r.status === 'held' ? 'events.mine.held' : 'events.mine.waitlisted'} />
                      </Badge>
                    </Group>
                  </Card>
                ))}
              </Stack>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}

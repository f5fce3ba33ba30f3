import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Container, Group, Stack, Text, Title } from '@mantine/core';
import { OrganizationByline } from '@/features/organizations';
import { FormattedMessage, useIntl } from 'react-intl';
import { RichText } from '@/components/rich-text';
import { LoadingState } from '@/components/query-state';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-error';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { trackItem, useTrackView } from '@/lib/track';
import { useMyRsvp, useSetRsvp } from '../api/event-attendance';
import { useEvent } from '../api/get-events';
import { TicketActions } from '../components/ticket-actions';
import { useSession } from '@/lib/session';
import { ConfirmButton } from '../components/confirm-button';
import { EditEventButton } from '../components/edit-event-dialog';
import { formatPriceCents, STATUS_LABEL, visitorStatusLabel } from '../components/labels';
import { CATEGORY_LABEL } from '@/lib/categories';
import { formatEventRange } from '@/lib/format';
import { StatusActions } from '../components/status-actions';
import { buildIcs } from '@site/ics';
import { safeHref } from '@site/url';
import { downloadIcs } from '../lib/ics-download';
import { withLocale } from '@site/locale';

const OPEN = new Set(['published', 'upcoming', 'ongoing']);

/** `/events/{slug}`: details in Europe/Berlin, venue or online link, price, places left, RSVP with waitlist, .ics export; the organiser edits and changes the status here too (spec §2, issue 8). */
export default function EventRoute({ params, locale }: PageProps) {
  const intl = useIntl();
  const slug = params.slug ?? '';
  const event = useEvent(slug);
  const session = useSession();
  const userId = session.user?.id ?? null;
  const ready = session.status !== 'restoring';
  const ev = event.data ?? null;
  useTrackView('event', ev?.id);
  const rsvp = useMyRsvp(ev?.id, userId);
  const setRsvp = useSetRsvp(ev?.id ?? 0, userId);
  // the moment the page opened decides whether the event is past (issue 33 §10)
  const [now] = useState(() => Date.now());

  if (event.isPending) {
    return (
      <Container size="md" py="xl">
        <LoadingState messageId="events.loading" />
      </Container>
    );
  }
  if (event.isError || !ev) {
    return (
      <Container size="md" py="xl">
        <Stack>
          <Title order={1}>
            <FormattedMessage id={event.isError ? 'events.error' : 'events.notFound'} />
          </Title>
          {event.isError && (
            <Button variant="outline" onClick={() => void event.refetch()} style={{ alignSelf: 'flex-start' }}>
              <FormattedMessage id="common.retry" />
            </Button>
          )}
          <LocalButtonLink to={paths.events} variant="light" style={{ alignSelf: 'flex-start' }}>
            <FormattedMessage id="events.back" />
          </LocalButtonLink>
        </Stack>
      </Container>
    );
  }

  const isOrganizer = userId === ev.organizer_id;
  const placesLeft = ev.capacity === null ? null : Math.max(ev.capacity - ev.going_count, 0);
  const mine = rsvp.data ?? null;
  const past = Date.parse(ev.ends_at) <= now;
  // the organiser works with the workflow status; visitors read only what concerns them (issue 33 §10)
  const statusLabel = isOrganizer ? (STATUS_LABEL[ev.status] ?? null) : visitorStatusLabel(ev, now);
  const attending = mine !== null && mine.status !== 'cancelled';
  const act = (attend: boolean) =>
    setRsvp.mutate(
      { attend },
      {
        onSuccess: () => notify('success', intl.formatMessage({ id: attend ? 'events.rsvp.done' : 'events.rsvp.cancelled' })),
        onError: (e) => notify('error', intl.formatMessage({ id: e instanceof ApiError && e.message === 'event_not_open' ? 'events.rsvp.notOpen' : 'events.error.save' })),
      },
    );
  const exportIcs = () => {
    const pageUrl = `${window.location.origin}${withLocale(paths.event(ev.slug), locale)}`;
    downloadIcs(buildIcs(ev, pageUrl, window.location.hostname || 'teamwerk'), ev.slug);
  };
  const address = [ev.venue_name, ev.street, [ev.zipcode, ev.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');

  return (
    <Container size="md" py="xl">
      <Stack>
        <Group gap="xs">
          {statusLabel && (
            <Badge variant="outline" color="var(--tw-blue)" data-testid="event-status">
              <FormattedMessage id={statusLabel} />
            </Badge>
          )}
          <Badge variant="outline" color="var(--tw-gray)">
            <FormattedMessage id={CATEGORY_LABEL[ev.category] ?? 'search.category.other'} />
          </Badge>
        </Group>
        <Title order={1}>{ev.title}</Title>
        <OrganizationByline organization={ev.organization} />
        {isOrganizer && (
          <Group gap="xs">
            <EditEventButton eventId={ev.id} title={ev.title} status={ev.status} />
            <StatusActions eventId={ev.id} status={ev.status} />
          </Group>
        )}
        <Card withBorder padding="md">
          <Stack gap="xs">
            <Text data-testid="event-when">
              <Text span fw={600}>
                <FormattedMessage id="events.when" />{' '}
              </Text>
              {formatEventRange(ev.starts_at, ev.ends_at, locale)} <FormattedMessage id="events.berlinTime" />
            </Text>
            <Text>
              <Text span fw={600}>
                <FormattedMessage id="events.where" />{' '}
              </Text>
              {ev.is_online ? (
                safeHref(ev.online_url) ? (
                  <Anchor href={safeHref(ev.online_url)} target="_blank" rel="noopener noreferrer" onClick={() => trackItem('event', ev.id, 'external_link_click')}>
                    <FormattedMessage id="events.onlineLink" />
                  </Anchor>
                ) : (
                  <FormattedMessage id="events.online" />
                )
              ) : (
                address
              )}
            </Text>
            <Text data-testid="event-price">
              <Text span fw={600}>
                <FormattedMessage id="events.price" />{' '}
              </Text>
              {ev.is_paid && ev.price_cents ? (
                <>
                  {formatPriceCents(ev.price_cents, locale)} <FormattedMessage id="events.ticket.inclVat" />
                </>
              ) : (
                <FormattedMessage id="events.free" />
              )}
            </Text>
            <Text data-testid="event-places">
              {placesLeft === null ? (
                <FormattedMessage id="events.unlimited" />
              ) : (
                <FormattedMessage id="events.placesLeft" values={{ places: placesLeft, capacity: ev.capacity ?? 0 }} />
              )}
              {ev.waitlist_count > 0 && (
                <>
                  {' · '}
                  <FormattedMessage id="events.waitlistCount" values={{ count: ev.waitlist_count }} />
                </>
              )}
            </Text>
          </Stack>
        </Card>
        <Group>
          {ready && !userId && OPEN.has(ev.status) && (
            <LocalButtonLink to={paths.login} data-testid="event-login-to-rsvp" onClick={() => trackItem('event', ev.id, 'apply_click')}>
              <FormattedMessage id="events.rsvp.login" />
            </LocalButtonLink>
          )}
          {userId && ev.is_paid && (
            <TicketActions event={ev} mine={mine} locale={locale} soldOut={placesLeft === 0} loading={rsvp.isPending} />
          )}
          {userId && !ev.is_paid && OPEN.has(ev.status) && !attending && (
            <Button
              onClick={() => {
                trackItem('event', ev.id, 'apply_click');
                act(true);
              }}
              loading={setRsvp.isPending || rsvp.isPending}
              data-testid="event-rsvp"
            >
              <FormattedMessage id={placesLeft === 0 ? 'events.rsvp.joinWaitlist' : 'events.rsvp.attend'} />
            </Button>
          )}
          {userId && !ev.is_paid && attending && (
            <ConfirmButton variant="outline" color="red" question={<FormattedMessage id="events.confirm.cancelRsvp" />} onConfirm={() => act(false)} loading={setRsvp.isPending} data-testid="event-cancel-rsvp">
              <FormattedMessage id="events.rsvp.cancel" />
            </ConfirmButton>
          )}
          <Button variant="light" onClick={exportIcs} data-testid="event-ics">
            <FormattedMessage id="events.ics" />
          </Button>
        </Group>
        {mine && !ev.is_paid && mine.status === 'going' && (
          <Alert color="green" data-testid="event-my-status">
            <FormattedMessage id={past ? 'events.rsvp.attended' : 'events.rsvp.going'} />
          </Alert>
        )}
        {mine && !ev.is_paid && !past && mine.status === 'waitlisted' && (
          <Alert color="yellow" data-testid="event-my-status">
            <FormattedMessage id="events.rsvp.waitlisted" values={{ position: mine.position ?? 0 }} />
          </Alert>
        )}
        {ev.summary && (
          <Text fw={500} style={{ whiteSpace: 'pre-line' }}>
            {ev.summary}
          </Text>
        )}
        {ev.description && <RichText text={ev.description} testId="event-description" />}
      </Stack>
    </Container>
  );
}

import { Alert, Button, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { type Locale } from '@site/locale';
import { FunctionCallError } from '@/lib/function-call-error';
import { notify } from '@/lib/notify';
import { cancelTicket, type MyRsvp, startTicketCheckout } from '../api/event-attendance';
import { ConfirmButton } from './confirm-button';
import { formatPriceCents } from './labels';

const OPEN = new Set(['published', 'upcoming', 'ongoing']);
/** Attendees cancel with a full refund until this long before the start (issue 16). */
const REFUND_WINDOW_MS = 48 * 3600 * 1000;

/** What the ticket actions need of an event. */
interface TicketEvent {
  id: number;
  status: string;
  starts_at: string;
  price_cents: number | null;
}

/** Time of day and date in Berlin time for a hold deadline. */
function formatDeadline(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' }).format(new Date(iso));
}

/**
 * Buying and cancelling a ticket of a paid event on /events/{slug} (issue 16): "Buy ticket"
 * ("Zahlungspflichtig bestellen" in German, §312j BGB) opens Stripe Checkout; a held seat shows
 * its deadline and "Pay now"; a ticket shows its number and "Cancel ticket" (full refund until 48
 * hours before the start, after a confirmation); the waitlist shows the position.
 */
export function TicketActions({ event, mine, locale, soldOut, loading }: { event: TicketEvent; mine: MyRsvp | null; locale: Locale; soldOut: boolean; loading: boolean }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  // when the page was opened: the refund window is judged from then (the server decides anyway)
  const [openedAt] = useState(() => Date.now());
  const errorText = (e: unknown) => {
    const code = e instanceof FunctionCallError ? e.code : '';
    const known: Record<string, string> = {
      refund_window_closed: 'events.ticket.error.window',
      event_not_open: 'events.rsvp.notOpen',
      stripe_unavailable: 'events.ticket.error.stripe',
      hold_cooldown: 'events.ticket.error.cooldown',
    };
    return intl.formatMessage({ id: known[code] ?? 'events.ticket.error.generic' });
  };
  const buy = useMutation({
    mutationFn: () => startTicketCheckout(event.id, locale),
    onSuccess: (out) => {
      if (out.status === 'held') {
        window.location.assign(out.url);
        return;
      }
      notify('success', intl.formatMessage({ id: out.status === 'waitlisted' ? 'events.ticket.waitlisted' : 'events.ticket.have' }));
      void queryClient.invalidateQueries({ queryKey: ['events'] });
    },
    onError: (e) => notify('error', errorText(e)),
  });
  const cancel = useMutation({
    mutationFn: () => cancelTicket(event.id),
    onSuccess: (out) => {
      notify('success', intl.formatMessage({ id: out.refund === 'none' ? 'events.rsvp.cancelled' : out.refund === 'refunded' ? 'events.ticket.refunded' : 'events.ticket.refundPending' }));
    },
    onError: (e) => notify('error', errorText(e)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['events'] }),
  });

  const status = mine?.status ?? 'cancelled';
  const ticket = mine?.ticket ?? null;
  const open = OPEN.has(event.status);
  const refundable = Date.parse(event.starts_at) - openedAt > REFUND_WINDOW_MS;
  const price = event.price_cents ? formatPriceCents(event.price_cents, locale) : '';

  return (
    <Stack gap="xs" style={{ flexBasis: '100%' }}>
      {status === 'going' && ticket && (
        <Alert color="teal" variant="outline" data-testid="ticket-status">
          <Text>
            <FormattedMessage id="events.ticket.yours" values={{ number: ticket.ticket_number, amount: formatPriceCents(ticket.amount_cents, locale) }} />
          </Text>
        </Alert>
      )}
      {status !== 'going' && ticket && (ticket.status === 'refund_pending' || ticket.status === 'refunded') && (
        <Alert color="gray" variant="outline" data-testid="ticket-refund">
          <FormattedMessage
            id={ticket.status === 'refunded' ? 'events.ticket.refundedInfo' : 'events.ticket.refundPendingInfo'}
            values={{ number: ticket.ticket_number, amount: formatPriceCents(ticket.amount_cents, locale) }}
          />
        </Alert>
      )}
      {status === 'held' && mine?.holdExpiresAt && (
        <Alert color="yellow" variant="outline" data-testid="ticket-held">
          <FormattedMessage id="events.ticket.held" values={{ deadline: formatDeadline(mine.holdExpiresAt, locale) }} />
        </Alert>
      )}
      {status === 'waitlisted' && (
        <Alert color="yellow" variant="outline" data-testid="event-my-status">
          <FormattedMessage id="events.rsvp.waitlisted" values={{ position: mine?.position ?? 0 }} />
        </Alert>
      )}
      <div style={{ display: 'flex', gap: 'var(--mantine-spacing-sm)', flexWrap: 'wrap' }}>
        {open && (status === 'cancelled' || status === 'held') && (
          <Button onClick={() => buy.mutate()} loading={buy.isPending || loading} data-testid="ticket-buy">
            {status === 'held' ? (
              <FormattedMessage id="events.ticket.payNow" />
            ) : soldOut ? (
              <FormattedMessage id="events.rsvp.joinWaitlist" />
            ) : (
              <FormattedMessage id="events.ticket.buy" values={{ price }} />
            )}
          </Button>
        )}
        {status === 'going' && ticket && refundable && event.status !== 'cancelled' && (
          <ConfirmButton
            variant="outline"
            color="red"
            question={<FormattedMessage id="events.ticket.confirmCancel" values={{ amount: formatPriceCents(ticket.amount_cents, locale) }} />}
            onConfirm={() => cancel.mutate()}
            loading={cancel.isPending}
            data-testid="ticket-cancel"
          >
            <FormattedMessage id="events.ticket.cancel" />
          </ConfirmButton>
        )}
        {(status === 'held' || status === 'waitlisted') && (
          <ConfirmButton variant="outline" color="red" question={<FormattedMessage id="events.confirm.cancelRsvp" />} onConfirm={() => cancel.mutate()} loading={cancel.isPending} data-testid="event-cancel-rsvp">
            <FormattedMessage id="events.rsvp.cancel" />
          </ConfirmButton>
        )}
      </div>
      {status === 'going' && ticket && !refundable && event.status !== 'cancelled' && (
        <Text fz="sm" c="dimmed" data-testid="ticket-no-refund">
          <FormattedMessage id="events.ticket.error.window" />
        </Text>
      )}
    </Stack>
  );
}

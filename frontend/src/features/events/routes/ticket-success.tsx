import { Alert, Button, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import type { PageProps } from '@/lib/route-def';
import { FunctionCallError } from '@/lib/function-call-error';
import { verifyTicket } from '../api/event-attendance';
import { formatPriceCents } from '../components/labels';

/**
 * `/events/ticket/success?session_id=…` (issue 16): Stripe Checkout returns here after a ticket
 * payment; the session is verified with verify-ticket (like /payment/success for plans) and the
 * ticket number shown. A payment still open is retried a few times; one that came too late for a
 * seat says it is refunded.
 */
export default function TicketSuccessRoute({ locale }: PageProps) {
  const [search] = useSearchParams();
  const sessionId = search.get('session_id');
  const check = useQuery({
    queryKey: ['events', 'ticket-verify', sessionId],
    queryFn: () => verifyTicket(sessionId!),
    enabled: !!sessionId,
    retry: (count, err) => count < 3 && !(err instanceof FunctionCallError && err.status === 404),
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 2000 : false),
  });
  const data = check.data;
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="events.ticket.success.title" />
        </Title>
        {!sessionId && (
          <Alert color="red" variant="outline" data-testid="ticket-verify-failed">
            <FormattedMessage id="events.ticket.success.missing" />
          </Alert>
        )}
        {sessionId && (check.isPending || data?.status === 'pending') && (
          <Group gap="sm" data-testid="ticket-verifying">
            <Loader size="sm" />
            <Text>
              <FormattedMessage id="events.ticket.success.checking" />
            </Text>
          </Group>
        )}
        {check.isError && (
          <Alert color="red" variant="outline" data-testid="ticket-verify-failed">
            <Stack gap="xs">
              <FormattedMessage id="events.ticket.success.failed" />
              <Button variant="outline" onClick={() => void check.refetch()} style={{ alignSelf: 'flex-start' }}>
                <FormattedMessage id="common.retry" />
              </Button>
            </Stack>
          </Alert>
        )}
        {data?.status === 'paid' && (
          <Alert color="teal" variant="outline" data-testid="ticket-confirmed">
            <FormattedMessage id="events.ticket.success.paid" values={{ number: data.ticketNumber, amount: formatPriceCents(data.amountCents, locale) }} />
          </Alert>
        )}
        {(data?.status === 'refund_pending' || data?.status === 'refunded' || data?.status === 'expired') && (
          <Alert color="yellow" variant="outline" data-testid="ticket-too-late">
            <FormattedMessage id="events.ticket.success.tooLate" values={{ amount: formatPriceCents(data.amountCents, locale) }} />
          </Alert>
        )}
        {data && (
          <Group>
            <LocalButtonLink to={paths.event(data.eventSlug)} data-testid="ticket-to-event">
              <FormattedMessage id="events.ticket.success.toEvent" />
            </LocalButtonLink>
            <LocalButtonLink to={paths.user.events} variant="outline">
              <FormattedMessage id="events.ticket.success.toMine" />
            </LocalButtonLink>
          </Group>
        )}
      </Stack>
    </Container>
  );
}

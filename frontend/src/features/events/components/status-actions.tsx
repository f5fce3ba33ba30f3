import { Button, Group } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiError } from '@/lib/api-error';
import { notify } from '@/lib/notify';
import { useChangeEventStatus, useTransitions } from '../api/event-status';
import { type EventStatus } from '../api/get-events';
import { ConfirmButton } from './confirm-button';
import { TRANSITION_LABEL } from './labels';

/**
 * Status buttons for the organiser: only the transitions the database allows from the current
 * status (table event_status_transitions); cancelling asks for confirmation.
 */
export function StatusActions({ eventId, status }: { eventId: number; status: EventStatus }) {
  const intl = useIntl();
  const transitions = useTransitions();
  const change = useChangeEventStatus();
  const targets = (transitions.data ?? []).filter((t) => t.from_status === status).map((t) => t.to_status);
  const run = (to: EventStatus) =>
    change.mutate(
      { eventId, status: to },
      {
        onSuccess: () => notify('success', intl.formatMessage({ id: 'events.statusChanged' })),
        onError: (e) =>
          notify('error', intl.formatMessage({ id: e instanceof ApiError && e.message === 'invalid_event_transition' ? 'events.error.transition' : 'events.error.save' })),
      },
    );
  if (targets.length === 0) return null;
  return (
    <Group gap="xs" data-testid="event-status-actions">
      {targets.map((to) =>
        to === 'cancelled' ? (
          <ConfirmButton key={to} color="red" variant="outline" size="xs" question={<FormattedMessage id="events.confirm.cancelEvent" />} onConfirm={() => run(to)} loading={change.isPending}>
            <FormattedMessage id={TRANSITION_LABEL[to]} />
          </ConfirmButton>
        ) : (
          <Button key={to} size="xs" variant={to === 'published' ? 'filled' : 'light'} onClick={() => run(to)} loading={change.isPending}>
            <FormattedMessage id={TRANSITION_LABEL[to] ?? 'events.action.published'} />
          </Button>
        ),
      )}
    </Group>
  );
}

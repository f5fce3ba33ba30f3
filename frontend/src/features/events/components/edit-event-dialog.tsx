import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { notify } from '@/lib/notify';
import { type EventRow, type EventStatus, editEventSchema, useEventForEdit, useUpdateEvent } from '../api/events';
import { type EventSaveProblem, eventSaveProblem } from '../lib/event-save-error';
import { EventForm, eventRowToFormValues, useEventForm } from './event-form';

/** Statuses whose content can still change (finished and cancelled are read-only, migration 20261121017000). */
export const EDITABLE_STATUSES: ReadonlySet<EventStatus> = new Set(['draft', 'published', 'upcoming', 'ongoing']);

/**
 * "Edit" button of one organised event on /user/events; opens a dialog with the event form
 * (issue 8). Mantine's Modal traps focus, focuses the title and returns focus to the button on
 * close. Not shown for finished or cancelled events.
 */
export function EditEventButton({ eventId, title, status }: { eventId: number; title: string; status: EventStatus }) {
  const intl = useIntl();
  const [opened, { open, close }] = useDisclosure(false);
  if (!EDITABLE_STATUSES.has(status)) return null;
  return (
    <>
      <Button size="xs" variant="default" onClick={open} aria-label={intl.formatMessage({ id: 'events.edit.buttonLabel' }, { title })} data-testid="event-edit">
        <FormattedMessage id="events.edit.button" />
      </Button>
      <Modal opened={opened} onClose={close} title={<FormattedMessage id="events.edit.title" />} size="lg" closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'common.close' }) }}>
        {opened && <EditEventLoader eventId={eventId} onDone={close} />}
      </Modal>
    </>
  );
}

/** Loads the saved event fresh (counts decide what may change), then shows the form. */
function EditEventLoader({ eventId, onDone }: { eventId: number; onDone: () => void }) {
  const event = useEventForEdit(eventId, true);
  if (event.isPending) {
    return (
      <Group role="status" aria-live="polite">
        <Loader size="sm" />
        <Text>
          <FormattedMessage id="events.loading" />
        </Text>
      </Group>
    );
  }
  if (event.isError || !event.data) {
    return (
      <Alert color="red" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text>
            <FormattedMessage id={event.isError ? 'events.error' : 'events.notFound'} />
          </Text>
          {event.isError && (
            <Button size="xs" variant="outline" color="red.9" onClick={() => void event.refetch()}>
              <FormattedMessage id="common.retry" />
            </Button>
          )}
        </Stack>
      </Alert>
    );
  }
  if (!EDITABLE_STATUSES.has(event.data.status)) {
    return (
      <Alert color="yellow" role="alert">
        <FormattedMessage id="events.edit.error.readOnly" />
      </Alert>
    );
  }
  return <EditEventForm ev={event.data} onDone={onDone} />;
}

/** The form with the saved values; maps refusals of the database to field or form messages. */
function EditEventForm({ ev, onDone }: { ev: EventRow; onDone: () => void }) {
  const intl = useIntl();
  const update = useUpdateEvent();
  const initial = useMemo(() => eventRowToFormValues(ev), [ev]);
  const schema = useMemo(
    () =>
      editEventSchema({
        status: ev.status,
        startsAt: initial.startsAt,
        endsAt: initial.endsAt,
        goingCount: ev.going_count,
        activeRsvps: ev.going_count + ev.waitlist_count,
        isPaid: ev.is_paid,
        priceCents: ev.price_cents,
      }),
    [ev, initial],
  );
  const form = useEventForm(initial, schema);
  const [problem, setProblem] = useState<EventSaveProblem | null>(null);
  const submit = (values: typeof form.values) => {
    setProblem(null);
    update.mutate(
      { eventId: ev.id, values: schema.parse(values) },
      {
        onSuccess: () => {
          notify('success', intl.formatMessage({ id: 'events.edit.saved' }));
          onDone();
        },
        onError: (e) => {
          const p = eventSaveProblem(e);
          setProblem(p);
          if (p.field) form.setFieldError(p.field, p.id);
        },
      },
    );
  };
  return (
    <EventForm
      form={form}
      onSubmit={submit}
      ariaLabel={intl.formatMessage({ id: 'events.edit.title' })}
      submitLabel={<FormattedMessage id="events.edit.submit" />}
      pending={update.isPending}
      startLocked={ev.status === 'ongoing'}
      messageValues={{ count: problem?.values?.count ?? ev.going_count }}
      autoFocusTitle
      footer={
        problem && !problem.field ? (
          <Alert color="red" role="alert" data-testid="event-edit-error">
            {intl.formatMessage({ id: problem.id }, problem.values)}
          </Alert>
        ) : null
      }
      secondaryAction={
        <Button variant="default" onClick={onDone}>
          <FormattedMessage id="common.cancel" />
        </Button>
      }
    />
  );
}

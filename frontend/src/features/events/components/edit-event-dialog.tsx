import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { LoadingState } from '@/components/query-state';
import { notify } from '@/lib/notify';
import { type EventRow, type EventStatus, useEventForEdit } from '../api/get-events';
import { editEventSchema, useUpdateEvent } from '../api/save-event';
import { type EventSaveProblem, eventSaveProblem } from '../lib/event-save-error';
import { EventForm, eventRowToFormValues, useEventForm } from './event-form';

/** Statuses whose content can still change (finished and cancelled are read-only, supabase/schemas/11_events.sql). */
export const EDITABLE_STATUSES: ReadonlySet<EventStatus> = new Set(['draft', 'published', 'upcoming', 'ongoing']);

/**
 * "Edit" button of one organised event on /user/events; opens a dialog with the event form
 * (issue 8). Mantine's Modal traps focus and returns it to the button on close; the form focuses
 * the title once loaded. Closing with unsaved changes (Escape, ×, Cancel) asks first. Not shown
 * for finished or cancelled events.
 */
export function EditEventButton({ eventId, title, status }: { eventId: number; title: string; status: EventStatus }) {
  const intl = useIntl();
  const [opened, { open, close }] = useDisclosure(false);
  const [askDiscard, setAskDiscard] = useState(false);
  const dirtyRef = useRef(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (askDiscard) keepRef.current?.focus();
  }, [askDiscard]);
  if (!EDITABLE_STATUSES.has(status)) return null;
  const closeNow = () => {
    dirtyRef.current = false;
    setAskDiscard(false);
    close();
  };
  const requestClose = () => (dirtyRef.current ? setAskDiscard(true) : closeNow());
  return (
    <>
      <Button size="xs" variant="default" onClick={open} aria-label={intl.formatMessage({ id: 'events.edit.buttonLabel' }, { title })} data-testid="event-edit">
        <FormattedMessage id="events.edit.button" />
      </Button>
      <Modal opened={opened} onClose={requestClose} title={<FormattedMessage id="events.edit.title" />} size="lg" closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'common.close' }) }}>
        {askDiscard && (
          <Alert color="yellow" role="alert" mb="md" data-testid="event-edit-discard">
            <Stack gap="xs" align="flex-start">
              <Text>
                <FormattedMessage id="events.edit.discardQuestion" />
              </Text>
              <Group gap="xs">
                <Button size="xs" ref={keepRef} onClick={() => setAskDiscard(false)}>
                  <FormattedMessage id="events.edit.keepEditing" />
                </Button>
                <Button size="xs" variant="outline" color="var(--tw-red)" onClick={closeNow}>
                  <FormattedMessage id="events.edit.discard" />
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
        {opened && <EditEventLoader eventId={eventId} onDone={closeNow} onCancel={requestClose} dirtyRef={dirtyRef} />}
      </Modal>
    </>
  );
}

/** Loads the saved event fresh (counts decide what may change), then shows the form. */
function EditEventLoader({ eventId, onDone, onCancel, dirtyRef }: { eventId: number; onDone: () => void; onCancel: () => void; dirtyRef: RefObject<boolean> }) {
  const event = useEventForEdit(eventId, true);
  if (event.isPending) {
    return (
      <LoadingState messageId="events.loading" />
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
            <Button size="xs" variant="outline" color="var(--tw-red)" onClick={() => void event.refetch()}>
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
  return <EditEventForm ev={event.data} onDone={onDone} onCancel={onCancel} dirtyRef={dirtyRef} />;
}

/** The form with the saved values; maps refusals of the database to field or form messages. */
function EditEventForm({ ev, onDone, onCancel, dirtyRef }: { ev: EventRow; onDone: () => void; onCancel: () => void; dirtyRef: RefObject<boolean> }) {
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
  const isDirty = form.isDirty();
  useEffect(() => {
    dirtyRef.current = isDirty;
  }, [dirtyRef, isDirty]);
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
        <Button variant="default" onClick={onCancel}>
          <FormattedMessage id="common.cancel" />
        </Button>
      }
    />
  );
}

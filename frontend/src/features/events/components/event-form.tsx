import { Button, Group, NativeSelect, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { NumberField } from '@/components/number-field';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { type ReactNode, useEffect, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { zodValidate } from '@/lib/zod-form';
import type { EventRow } from '../api/get-events';
import type { EventFormValues } from '../api/save-event';
import { utcToBerlinLocal } from '../lib/berlin-time';
import { PublishAsSelect } from '@/features/organizations';
import { CATEGORY_LABEL } from '@/lib/categories';

/** Start values of the create form. */
export const EMPTY_EVENT_FORM: EventFormValues = {
  title: '',
  summary: '',
  description: '',
  category: 'community',
  startsAt: '',
  endsAt: '',
  isOnline: false,
  onlineUrl: '',
  venueName: '',
  street: '',
  zipcode: '',
  city: '',
  capacity: '',
  isPaid: false,
  price: '',
  organizationId: '',
};

/**
 * Form values of a saved event: instants → Europe/Berlin wall-clock times, cents → euros,
 * null → empty fields (inverse of `eventFormToColumns`).
 */
export function eventRowToFormValues(
  ev: Pick<EventRow, 'title' | 'summary' | 'description' | 'category' | 'starts_at' | 'ends_at' | 'is_online' | 'online_url' | 'venue_name' | 'street' | 'zipcode' | 'city' | 'capacity' | 'is_paid' | 'price_cents'> & {
    organization_id?: string | null;
  },
): EventFormValues {
  return {
    title: ev.title,
    summary: ev.summary,
    description: ev.description,
    category: ev.category,
    startsAt: utcToBerlinLocal(new Date(ev.starts_at)),
    endsAt: utcToBerlinLocal(new Date(ev.ends_at)),
    isOnline: ev.is_online,
    onlineUrl: ev.online_url ?? '',
    venueName: ev.venue_name ?? '',
    street: ev.street ?? '',
    zipcode: ev.zipcode ?? '',
    city: ev.city ?? '',
    capacity: ev.capacity ?? '',
    isPaid: ev.is_paid,
    price: ev.price_cents === null ? '' : ev.price_cents / 100,
    organizationId: ev.organization_id ?? '',
  };
}

/**
 * Mantine form state for the event form, validated by a zod schema whose messages are message ids
 * (`createEventSchema` for new events, `editEventSchema(...)` when editing).
 */
export function useEventForm(initialValues: EventFormValues, schema: Parameters<typeof zodValidate>[0]) {
  return useForm<EventFormValues>({ initialValues, validate: zodValidate(schema) });
}

/** Props of {@link EventForm}. */
export interface EventFormProps {
  form: UseFormReturnType<EventFormValues>;
  /** Called with values that passed the schema. */
  onSubmit: (values: EventFormValues) => void;
  /** Accessible name of the form. */
  ariaLabel: string;
  submitLabel: ReactNode;
  pending: boolean;
  disabled?: boolean;
  /** The start cannot change any more (ongoing event). */
  startLocked?: boolean;
  /** Values for field messages, e.g. `count` in the capacity message. */
  messageValues?: Record<string, number>;
  /** Focus the title when the form appears (dialogs, after loading). */
  autoFocusTitle?: boolean;
  /** Extra buttons next to submit (e.g. cancel in a dialog). */
  secondaryAction?: ReactNode;
  /** Shown above the buttons (e.g. a form-level error). */
  footer?: ReactNode;
}

/**
 * The event form shared by /user/events/create-event and the edit dialog on /user/events
 * (issue 8): title, texts, category, start/end in Europe/Berlin, venue or online link, city,
 * capacity, free/paid with price. Validation: createEventSchema (api/save-event.ts).
 */
export function EventForm({ form, onSubmit, ariaLabel, submitLabel, pending, disabled, startLocked, messageValues, autoFocusTitle, secondaryAction, footer }: EventFormProps) {
  const intl = useIntl();
  const titleRef = useRef<HTMLInputElement>(null);
  // the dialog loads the event first, so the Modal's own initial focus ran before this form existed
  useEffect(() => {
    if (autoFocusTitle) titleRef.current?.focus();
  }, [autoFocusTitle]);
  const err = (field: string) => {
    const id = form.errors[field];
    return typeof id === 'string' ? intl.formatMessage({ id }, messageValues) : undefined;
  };
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(values))} noValidate aria-label={ariaLabel}>
      <Stack>
        <TextInput label={<FormattedMessage id="events.form.title" />} required maxLength={140} {...form.getInputProps('title')} ref={titleRef} error={err('title')} />
        <Textarea label={<FormattedMessage id="events.form.summary" />} maxLength={500} autosize minRows={2} {...form.getInputProps('summary')} error={err('summary')} />
        <Textarea label={<FormattedMessage id="events.form.description" />} autosize minRows={4} maxRows={12} {...form.getInputProps('description')} error={err('description')} />
        <NativeSelect
          label={<FormattedMessage id="events.filter.category" />}
          data={Object.entries(CATEGORY_LABEL).map(([value, id]) => ({ value, label: intl.formatMessage({ id }) }))}
          {...form.getInputProps('category')}
        />
        <PublishAsSelect value={form.values.organizationId} onChange={(id) => form.setFieldValue('organizationId', id)} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            type="datetime-local"
            label={<FormattedMessage id="events.form.startsAt" />}
            description={<FormattedMessage id={startLocked ? 'events.edit.startLocked' : 'events.berlinTime'} />}
            required
            readOnly={startLocked}
            {...form.getInputProps('startsAt')}
            error={err('startsAt')}
          />
          <TextInput type="datetime-local" label={<FormattedMessage id="events.form.endsAt" />} description={<FormattedMessage id="events.berlinTime" />} required {...form.getInputProps('endsAt')} error={err('endsAt')} />
        </SimpleGrid>
        <Switch label={<FormattedMessage id="events.form.isOnline" />} {...form.getInputProps('isOnline', { type: 'checkbox' })} />
        {form.values.isOnline ? (
          <TextInput type="url" label={<FormattedMessage id="events.form.onlineUrl" />} placeholder="https://" required {...form.getInputProps('onlineUrl')} error={err('onlineUrl')} />
        ) : (
          <>
            <TextInput label={<FormattedMessage id="events.form.venue" />} maxLength={200} {...form.getInputProps('venueName')} error={err('venueName')} />
            <TextInput label={<FormattedMessage id="events.form.street" />} maxLength={200} {...form.getInputProps('street')} error={err('street')} />
            <SimpleGrid cols={2}>
              <TextInput label={<FormattedMessage id="events.form.zipcode" />} maxLength={20} {...form.getInputProps('zipcode')} error={err('zipcode')} />
              <TextInput label={<FormattedMessage id="events.filter.city" />} required maxLength={100} {...form.getInputProps('city')} error={err('city')} />
            </SimpleGrid>
          </>
        )}
        <NumberField label={intl.formatMessage({ id: 'events.form.capacity' })} description={<FormattedMessage id="events.form.capacityHint" />} min={1} allowDecimal={false} {...form.getInputProps('capacity')} error={err('capacity')} />
        <Switch label={<FormattedMessage id="events.form.isPaid" />} {...form.getInputProps('isPaid', { type: 'checkbox' })} />
        {form.values.isPaid && (
          <NumberField label={intl.formatMessage({ id: 'events.form.price' })} min={0.5} decimalScale={2} suffix=" €" required {...form.getInputProps('price')} error={err('price')} />
        )}
        {footer}
        <Group>
          <Button type="submit" loading={pending} disabled={disabled}>
            {submitLabel}
          </Button>
          {secondaryAction}
        </Group>
      </Stack>
    </form>
  );
}

import { Button, Container, NativeSelect, NumberInput, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { localizePath, paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { zodValidate } from '@/lib/zod-form';
import { type CreateEventValues, createEventSchema, useCreateEvent } from '../api/events';
import { useSessionUser } from '../api/use-session-user';
import { CATEGORY_LABEL } from '../components/labels';

/** `/user/events/create-event`: creates an event as draft; publishing happens on the event page (issue 8). */
export default function UserCreateEventRoute({ locale }: PageProps) {
  const intl = useIntl();
  const navigate = useNavigate();
  const { userId } = useSessionUser();
  const create = useCreateEvent(userId);
  const form = useForm<CreateEventValues>({
    initialValues: {
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
    },
    validate: zodValidate(createEventSchema),
  });
  const err = (field: string) => {
    const id = form.errors[field];
    return typeof id === 'string' ? intl.formatMessage({ id }) : undefined;
  };
  const submit = form.onSubmit((values) =>
    create.mutate(createEventSchema.parse(values), {
      onSuccess: (ev) => {
        notify('success', intl.formatMessage({ id: 'events.created' }));
        void navigate(localizePath(paths.event(ev.slug), locale));
      },
      onError: () => notify('error', intl.formatMessage({ id: 'events.error.save' })),
    }),
  );

  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="events.createTitle" />
        </Title>
        <Text>
          <FormattedMessage id="events.createIntro" />
        </Text>
        <form onSubmit={submit} noValidate aria-label={intl.formatMessage({ id: 'events.createTitle' })}>
          <Stack>
            <TextInput label={<FormattedMessage id="events.form.title" />} required maxLength={140} {...form.getInputProps('title')} error={err('title')} />
            <Textarea label={<FormattedMessage id="events.form.summary" />} maxLength={500} autosize minRows={2} {...form.getInputProps('summary')} error={err('summary')} />
            <Textarea label={<FormattedMessage id="events.form.description" />} autosize minRows={4} {...form.getInputProps('description')} error={err('description')} />
            <NativeSelect
              label={<FormattedMessage id="events.filter.category" />}
              data={Object.entries(CATEGORY_LABEL).map(([value, id]) => ({ value, label: intl.formatMessage({ id }) }))}
              {...form.getInputProps('category')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput type="datetime-local" label={<FormattedMessage id="events.form.startsAt" />} description={<FormattedMessage id="events.berlinTime" />} required {...form.getInputProps('startsAt')} error={err('startsAt')} />
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
            <NumberInput label={<FormattedMessage id="events.form.capacity" />} description={<FormattedMessage id="events.form.capacityHint" />} min={1} allowDecimal={false} {...form.getInputProps('capacity')} error={err('capacity')} />
            <Switch label={<FormattedMessage id="events.form.isPaid" />} {...form.getInputProps('isPaid', { type: 'checkbox' })} />
            {form.values.isPaid && (
              <NumberInput label={<FormattedMessage id="events.form.price" />} min={0.5} decimalScale={2} suffix=" €" required {...form.getInputProps('price')} error={err('price')} />
            )}
            <Button type="submit" loading={create.isPending} style={{ alignSelf: 'flex-start' }} disabled={!userId}>
              <FormattedMessage id="events.form.submit" />
            </Button>
          </Stack>
        </form>
      </Stack>
    </Container>
  );
}

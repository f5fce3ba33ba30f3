import { Container, Stack } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { createEventSchema, useCreateEvent } from '../api/save-event';
import { useSession } from '@/lib/session';
import { EMPTY_EVENT_FORM, EventForm, useEventForm } from '../components/event-form';
import { eventSaveProblem } from '../lib/event-save-error';
import { PageHeader } from '@/components/page-header';
import { withLocale } from '@site/locale';

/** `/user/events/create-event`: creates an event as draft; publishing happens on the event page (issue 8). */
export default function UserCreateEventRoute({ locale }: PageProps) {
  const intl = useIntl();
  const navigate = useNavigate();
  const userId = useSession().user?.id ?? null;
  const create = useCreateEvent(userId);
  const form = useEventForm(EMPTY_EVENT_FORM, createEventSchema);
  const submit = (values: typeof form.values) =>
    create.mutate(createEventSchema.parse(values), {
      onSuccess: (ev) => {
        notify('success', intl.formatMessage({ id: 'events.created' }));
        void navigate(withLocale(paths.event(ev.slug), locale));
      },
      onError: (e) => {
        const problem = eventSaveProblem(e);
        if (problem.field) form.setFieldError(problem.field, problem.id);
        else notify('error', intl.formatMessage({ id: problem.id }, problem.values));
      },
    });

  return (
    <Container size="sm" py="xl">
      <Stack>
        <PageHeader title={<FormattedMessage id="events.createTitle" />} description={<FormattedMessage id="events.createIntro" />} />
        <EventForm
          form={form}
          onSubmit={submit}
          ariaLabel={intl.formatMessage({ id: 'events.createTitle' })}
          submitLabel={<FormattedMessage id="events.form.submit" />}
          pending={create.isPending}
          disabled={!userId}
        />
      </Stack>
    </Container>
  );
}

import { Button, Input, NativeSelect, Rating, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSession } from '@/lib/session';
import { FEEDBACK_CATEGORY_LABEL, feedbackSchema, useCreateFeedback } from '@/features/feedback';
import { notify } from '@/lib/notify';
import { zodValidate } from '@/lib/zod-form';
import { PageHeader } from '@/components/page-header';

/** `/user/feedback`: feedback form stored in `feedback`, confirmed with a success snackbar (spec §2). */
export default function UserFeedbackRoute() {
  const intl = useIntl();
  const userId = useSession().user?.id;
  const mutation = useCreateFeedback();
  const form = useForm({
    initialValues: { category: 'general' as keyof typeof FEEDBACK_CATEGORY_LABEL, rating: 0, message: '' },
    validate: zodValidate(feedbackSchema),
  });
  const err = (field: string) => {
    const id = form.errors[field];
    return typeof id === 'string' ? intl.formatMessage({ id }) : undefined;
  };
  const submit = form.onSubmit((values) => {
    if (!userId) return;
    const referrer = typeof document !== 'undefined' && document.referrer.startsWith(window.location.origin) ? document.referrer : null;
    mutation.mutate(
      { userId: userId, input: feedbackSchema.parse(values), pageUrl: referrer },
      {
        onSuccess: () => {
          form.reset();
          notify('success', intl.formatMessage({ id: 'feedback.success' }));
        },
        onError: () => notify('error', intl.formatMessage({ id: 'feedback.failure' })),
      },
    );
  });

  return (
    <Stack maw={640}>
      <PageHeader title={<FormattedMessage id="page.user-feedback.title" />} description={<FormattedMessage id="feedback.intro" />} />
      <form onSubmit={submit} noValidate aria-label={intl.formatMessage({ id: 'page.user-feedback.title' })}>
        <Stack>
          <NativeSelect
            label={<FormattedMessage id="feedback.field.category" />}
            data={Object.entries(FEEDBACK_CATEGORY_LABEL).map(([value, id]) => ({ value, label: intl.formatMessage({ id }) }))}
            {...form.getInputProps('category')}
            error={err('category')}
          />
          <Input.Wrapper label={<FormattedMessage id="feedback.field.rating" />} id="feedback-rating">
            <Rating {...form.getInputProps('rating')} aria-label={intl.formatMessage({ id: 'feedback.field.rating' })} />
          </Input.Wrapper>
          <Textarea
            label={<FormattedMessage id="feedback.field.message" />}
            required
            autosize
            minRows={5}
            {...form.getInputProps('message')}
            error={err('message')}
          />
          <Button type="submit" loading={mutation.isPending} disabled={!userId} style={{ alignSelf: 'flex-start' }}>
            <FormattedMessage id="feedback.submit" />
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}

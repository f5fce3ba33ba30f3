import { Stack } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { PageHeader } from '@/components/page-header';
import { InboxTable } from '../components/inbox-table';

/** /admin/feedback: members' feedback, newest first, to read and mark handled (issue 33 §9). */
export default function AdminFeedbackRoute() {
  return (
    <Stack>
      <PageHeader title={<FormattedMessage id="page.admin-feedback.title" />} description={<FormattedMessage id="page.admin-feedback.description" />} />
      <InboxTable table="feedback" />
    </Stack>
  );
}

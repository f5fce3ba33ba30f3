import { Stack } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { PageHeader } from '@/components/page-header';
import { InboxTable } from '../components/inbox-table';

/** /admin/messages: the contact form's messages, newest first, to read and mark handled (issue 33 §9). */
export default function AdminMessagesRoute() {
  return (
    <Stack>
      <PageHeader title={<FormattedMessage id="page.admin-messages.title" />} description={<FormattedMessage id="page.admin-messages.description" />} />
      <InboxTable table="contact_messages" />
    </Stack>
  );
}

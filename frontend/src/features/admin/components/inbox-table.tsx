import { Alert, Anchor, Badge, Button, Loader, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { EmptyState } from '@/components/empty-state';
import { ListPagination } from '@/components/list-pagination';
import { useLocale } from '@/components/use-locale';
import { formatDate, formatTime } from '@/lib/format';
import { notify } from '@/lib/notify';
import { type ContactMessageRow, type FeedbackRow, INBOX_PAGE_SIZE, inboxQuery, type InboxStatus, type InboxTable, useSetInboxStatus } from '../api/admin-inbox';

const STATUS: Record<InboxStatus, { color: string; label: string }> = {
  new: { color: 'blue', label: 'admin.status.new' },
  in_review: { color: 'yellow', label: 'admin.status.in_review' },
  done: { color: 'green', label: 'admin.status.done' },
};
const TOPIC_LABEL: Record<ContactMessageRow['topic'], string> = {
  general: 'contact.topic.general',
  support: 'contact.topic.support',
  sales: 'contact.topic.sales',
  enterprise: 'contact.topic.enterprise',
  cancellation: 'contact.topic.cancellation',
  press: 'contact.topic.press',
};
const CATEGORY_LABEL: Record<string, string> = {
  general: 'feedback.category.general',
  bug: 'feedback.category.bug',
  idea: 'feedback.category.idea',
  praise: 'feedback.category.praise',
  other: 'feedback.category.other',
};

/** A row's triage state and the button that marks it handled or reopens it. */
function StatusCell({ table, id, status }: { table: InboxTable; id: number; status: InboxStatus }) {
  const intl = useIntl();
  const mutation = useSetInboxStatus(table);
  const next: InboxStatus = status === 'done' ? 'new' : 'done';
  return (
    <Stack gap={4} align="flex-start">
      <Badge color={STATUS[status].color} variant="light" data-testid="inbox-status" data-status={status}>
        <FormattedMessage id={STATUS[status].label} />
      </Badge>
      <Button
        size="compact-xs"
        variant="default"
        loading={mutation.isPending}
        onClick={() =>
          mutation.mutate(
            { id, status: next },
            {
              onSuccess: () => notify('success', intl.formatMessage({ id: 'admin.inbox.saved' })),
              onError: () => notify('error', intl.formatMessage({ id: 'admin.inbox.failed' })),
            },
          )
        }
      >
        <FormattedMessage id={next === 'done' ? 'admin.inbox.markDone' : 'admin.inbox.reopen'} />
      </Button>
    </Stack>
  );
}

/** Long text as written (line breaks kept). */
const Body = ({ children }: { children: ReactNode }) => (
  <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
    {children}
  </Text>
);

/**
 * An admin inbox (issue 33 §9): one page of contact messages or feedback, newest first, with the
 * total, a labelled page switcher and per row the "handled" state (public.feedback_status `done`).
 */
export function InboxTable({ table }: { table: InboxTable }) {
  const intl = useIntl();
  const locale = useLocale();
  const [page, setPage] = useState(1);
  const query = useQuery(inboxQuery(table, page));
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        <FormattedMessage id="admin.inbox.loadFailed" />
      </Alert>
    );
  }
  if (!query.data) return <Loader />;
  const { rows, total } = query.data;
  if (total === 0) {
    return (
      <EmptyState testId="inbox-empty">
        <FormattedMessage id={table === 'feedback' ? 'admin.feedback.empty' : 'admin.inbox.empty'} />
      </EmptyState>
    );
  }
  const when = (iso: string) => `${formatDate(iso, locale)}, ${formatTime(iso, locale)}`;
  return (
    <Stack>
      <Text role="status" data-testid="inbox-total">
        <FormattedMessage id={table === 'feedback' ? 'admin.feedback.total' : 'admin.inbox.total'} values={{ count: total }} />
      </Text>
      <Table.ScrollContainer minWidth={720}>
        <Table striped verticalSpacing="sm" data-testid="inbox-table">
          <Table.Thead>
            {table === 'feedback' ? (
              <Table.Tr>
                <Table.Th><FormattedMessage id="admin.inbox.received" /></Table.Th>
                <Table.Th><FormattedMessage id="admin.feedback.category" /></Table.Th>
                <Table.Th><FormattedMessage id="admin.feedback.rating" /></Table.Th>
                <Table.Th><FormattedMessage id="admin.inbox.message" /></Table.Th>
                <Table.Th><FormattedMessage id="admin.inbox.status" /></Table.Th>
              </Table.Tr>
            ) : (
              <Table.Tr>
                <Table.Th><FormattedMessage id="admin.inbox.received" /></Table.Th>
                <Table.Th><FormattedMessage id="admin.inbox.from" /></Table.Th>
                <Table.Th><FormattedMessage id="admin.inbox.topic" /></Table.Th>
                <Table.Th><FormattedMessage id="admin.inbox.message" /></Table.Th>
                <Table.Th><FormattedMessage id="admin.inbox.status" /></Table.Th>
              </Table.Tr>
            )}
          </Table.Thead>
          <Table.Tbody>
            {table === 'feedback'
              ? (rows as FeedbackRow[]).map((r) => (
                  <Table.Tr key={r.id} data-testid="inbox-row">
                    <Table.Td>{when(r.created_at)}</Table.Td>
                    <Table.Td>{CATEGORY_LABEL[r.category] ? <FormattedMessage id={CATEGORY_LABEL[r.category]} /> : r.category}</Table.Td>
                    <Table.Td>{r.rating ?? '–'}</Table.Td>
                    <Table.Td>
                      <Body>{r.message}</Body>
                      {r.page_url && (
                        <Anchor href={r.page_url} fz="xs" target="_blank" rel="noopener noreferrer">
                          {r.page_url}
                        </Anchor>
                      )}
                    </Table.Td>
                    <Table.Td><StatusCell table={table} id={r.id} status={r.status} /></Table.Td>
                  </Table.Tr>
                ))
              : (rows as ContactMessageRow[]).map((r) => (
                  <Table.Tr key={r.id} data-testid="inbox-row">
                    <Table.Td>{when(r.created_at)}</Table.Td>
                    <Table.Td>
                      <Text fz="sm">{r.name}</Text>
                      <Anchor href={`mailto:${r.email}`} fz="xs">
                        {r.email}
                      </Anchor>
                    </Table.Td>
                    <Table.Td><FormattedMessage id={TOPIC_LABEL[r.topic]} /></Table.Td>
                    <Table.Td>
                      <Text fw={600} fz="sm">
                        {r.subject}
                      </Text>
                      <Body>{r.message}</Body>
                    </Table.Td>
                    <Table.Td><StatusCell table={table} id={r.id} status={r.status} /></Table.Td>
                  </Table.Tr>
                ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListPagination
        total={total}
        pageSize={INBOX_PAGE_SIZE}
        page={page}
        onChange={setPage}
        label={intl.formatMessage({ id: table === 'feedback' ? 'page.admin-feedback.title' : 'page.admin-messages.title' })}
      />
    </Stack>
  );
}

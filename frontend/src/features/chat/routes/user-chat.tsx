import { Avatar, Badge, Card, Group, Indicator, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { ListPagination } from '@/components/list-pagination';
import { EmptyState } from '@/components/empty-state';
import { LocalButtonLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import { useLocale, useLocalizedPath } from '@/components/use-locale';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { publicAvatarUrl } from '@/lib/public-api';
import { formatRelativeTime } from '@/lib/format';
import { INBOX_PAGE_SIZE, inboxQuery } from '../api/chat';
import { PresenceLabel, usePresence } from '@/features/presence';

/** Picture of the empty inbox: two speech bubbles (inline SVG, decorative). */
function ChatBubbles() {
  return (
    <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M4 15V6a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v5a2 2 0 0 1-2 2H7z" />
      <path d="M9 17a2 2 0 0 0 2 2h6l3 3v-9a2 2 0 0 0-2-2" />
    </svg>
  );
}

/**
 * /user/chat (spec §2; issue 13): the inbox, most recent activity first, with the other person's
 * presence, the last message (sender, excerpt, time) and the unread count. Live: the account's
 * `inbox` Broadcasts refetch it. A conversation starts from a contact ("Message").
 */
export default function UserChatRoute() {
  const intl = useIntl();
  const locale = useLocale();
  const localize = useLocalizedPath();
  const me = useSession().user?.id;
  const [page, setPage] = useState(1);
  const inbox = useQuery(inboxQuery(page));
  const rows = inbox.data?.rows ?? [];
  const presence = usePresence(rows.flatMap((r) => (r.other_user_id ? [r.other_user_id] : [])));

  return (
    <Stack>
      <PageHeader title={<FormattedMessage id="page.user-chat.title" />} description={<FormattedMessage id="chat.intro" />} />
      {inbox.isPending && <LoadingState messageId="chat.loading" />}
      {inbox.isError && <LoadError messageId="chat.loadError" onRetry={() => void inbox.refetch()} />}
      {inbox.data && rows.length === 0 && (
        <EmptyState
          testId="inbox-empty"
          icon={<ChatBubbles />}
          action={
            <LocalButtonLink to={paths.user.contacts} variant="light">
              <FormattedMessage id="chat.toContacts" />
            </LocalButtonLink>
          }
        >
          <FormattedMessage id="chat.inboxEmpty" />
        </EmptyState>
      )}
      {rows.length > 0 && (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} data-testid="inbox" aria-busy={inbox.isFetching}>
          {rows.map((row) => {
            const unread = row.unread ?? 0;
            const mine = row.last_sender_id === me;
            // no other member: their account was deleted (issue 33 §11: the row showed a blank name)
            const name = row.display_name ?? intl.formatMessage({ id: 'chat.deletedPerson' });
            const excerpt = row.last_message_id
              ? row.last_deleted
                ? intl.formatMessage({ id: 'chat.deleted' })
                : row.last_body || intl.formatMessage({ id: 'chat.attachment.label' })
              : intl.formatMessage({ id: 'chat.noMessages' });
            return (
              <Card component="li" key={row.conversation_id} withBorder padding={0} data-testid="inbox-entry" data-unread={unread}>
                <UnstyledButton component={Link} to={localize(paths.user.conversation(row.conversation_id))} p="sm" style={{ display: 'block' }}>
                  <Group wrap="nowrap" gap="sm">
                    <Indicator
                      disabled={presence[row.other_user_id ?? ''] !== 'online'}
                      color="green"
                      position="bottom-end"
                      size={12}
                      withBorder
                      offset={6}
                    >
                      <Avatar src={publicAvatarUrl(row.profile_img)} name={name} alt="" radius="xl" size={48} color="blue" />
                    </Indicator>
                    <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                      <Group justify="space-between" wrap="nowrap" gap="xs">
                        <Text fw={unread > 0 ? 700 : 600} truncate data-testid="inbox-name">
                          {name}
                        </Text>
                        <Text size="xs" c="var(--tw-muted)" style={{ flex: 'none' }}>
                          {formatRelativeTime(row.last_message_at, locale)}
                        </Text>
                      </Group>
                      <Group justify="space-between" wrap="nowrap" gap="xs">
                        <Text size="sm" c={unread > 0 ? 'var(--mantine-color-text)' : 'var(--tw-muted)'} fw={unread > 0 ? 600 : 400} truncate data-testid="inbox-excerpt">
                          {row.last_message_id && (mine ? `${intl.formatMessage({ id: 'chat.you' })}: ` : '')}
                          {excerpt}
                        </Text>
                        {unread > 0 && (
                          <Badge color="red" variant="filled" size="sm" aria-label={intl.formatMessage({ id: 'nav.account.unread' }, { count: unread })} data-testid="inbox-unread">
                            {unread}
                          </Badge>
                        )}
                      </Group>
                      {row.other_user_id && <PresenceLabel status={presence[row.other_user_id] ?? 'offline'} lastSeenAt={row.last_seen_at} compact />}
                    </Stack>
                  </Group>
                </UnstyledButton>
              </Card>
            );
          })}
        </Stack>
      )}
      <ListPagination total={inbox.data?.total ?? 0} pageSize={INBOX_PAGE_SIZE} page={page} onChange={setPage} />
    </Stack>
  );
}

import { Avatar, Button, Fieldset, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ListPagination } from '@/components/list-pagination';
import { LocalLink } from '@/components/local-link';
import { LoadError, LoadingState } from '@/components/query-state';
import { useLocale } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { notify } from '@/lib/notify';
import { blockedUsersQuery, refreshAfterBlockChange, unblockUser, type BlockedUser } from '../api/blocked-users';
import { publicAvatarUrl } from '@/lib/public-api';

/** Entries per page of the block list. */
const PAGE_SIZE = 10;

/**
 * "Blocked users" section of /user/settings (issue 8): everyone the user blocked, newest first,
 * each with "Unblock". A block hides both people from each other, so this list is the way back
 * once the blocker has left the person's profile page.
 */
export function BlockedUsers() {
  const intl = useIntl();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const list = useQuery(blockedUsersQuery());
  const [page, setPage] = useState(1);
  const unblock = useMutation({
    mutationFn: async (entry: BlockedUser) => unblockUser(entry.user_id),
    onSuccess: async (_void, entry) => {
      await refreshAfterBlockChange(queryClient);
      notify('success', intl.formatMessage({ id: 'blockedUsers.unblocked' }, { name: entry.display_name }));
    },
    onError: () => notify('error', intl.formatMessage({ id: 'blockedUsers.error.unblock' })),
  });

  const entries = list.data ?? [];
  const pages = Math.max(1, Math.ceil(entries.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = entries.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);

  return (
    <Fieldset legend={intl.formatMessage({ id: 'blockedUsers.title' })} data-testid="blocked-users">
      <Stack>
        <Text size="sm">
          <FormattedMessage id="blockedUsers.intro" />
        </Text>
        {list.isPending && <LoadingState messageId="blockedUsers.loading" compact />}
        {list.isError && <LoadError messageId="blockedUsers.error.load" onRetry={() => void list.refetch()} testId="blocked-users-error" />}
        {list.isSuccess && entries.length === 0 && (
          <Text c="var(--tw-muted)" data-testid="blocked-users-empty">
            <FormattedMessage id="blockedUsers.empty" />
          </Text>
        )}
        {shown.length > 0 && (
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
            {shown.map((entry) => {
              const pending = unblock.isPending && unblock.variables?.user_id === entry.user_id;
              return (
                <Group component="li" key={entry.user_id} justify="space-between" wrap="nowrap" data-testid="blocked-user">
                  <Group gap="sm" wrap="nowrap">
                    <Avatar src={publicAvatarUrl(entry.profile_img)} alt="" radius="xl" />
                    <Stack gap={0}>
                      <LocalLink to={paths.profile(entry.slug)} fw={600}>
                        {entry.display_name}
                      </LocalLink>
                      <Text size="sm" c="var(--tw-muted)">
                        <FormattedMessage id="blockedUsers.blockedAt" values={{ date: formatDate(entry.blocked_at, locale) }} />
                      </Text>
                    </Stack>
                  </Group>
                  <Button
                    variant="outline"
                    loading={pending}
                    disabled={unblock.isPending && !pending}
                    aria-label={intl.formatMessage({ id: 'blockedUsers.unblockNamed' }, { name: entry.display_name })}
                    onClick={() => unblock.mutate(entry)}
                  >
                    <FormattedMessage id="profile.unblock.button" />
                  </Button>
                </Group>
              );
            })}
          </Stack>
        )}
        <ListPagination total={entries.length} pageSize={PAGE_SIZE} page={current} onChange={setPage} />
      </Stack>
    </Fieldset>
  );
}

import { Badge, Button, SimpleGrid, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ContentCard } from '@/components/content-card';
import { EmptyState } from '@/components/empty-state';
import { ListPagination } from '@/components/list-pagination';
import { LocalButtonLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import { useLocale, useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { CHAT_KEY, chatErrorMessageId, startConversation } from '@/features/chat';
import { PresenceLabel, usePresence } from '@/features/presence';
import { formatDate } from '@/lib/format';
import { notify } from '@/lib/notify';
import {
  answerContactRequest,
  contactAllowanceQuery,
  CONTACT_TABS,
  contactErrorMessageId,
  contactRequestCountQuery,
  type ContactRow,
  CONTACTS_KEY,
  CONTACTS_PAGE_SIZE,
  type ContactTab,
  deleteContact,
  myContactsQuery,
} from '../api/contacts';
import { formatRenewal } from '../api/weekly-limit';

const EMPTY: Record<ContactTab, string> = {
  contacts: 'contacts.empty.contacts',
  received: 'contacts.empty.received',
  sent: 'contacts.empty.sent',
};

type Pending = { kind: 'remove' | 'withdraw' | 'decline'; row: ContactRow } | null;

const CONFIRM: Record<NonNullable<Pending>['kind'], { title: string; text: string; button: string; done: string }> = {
  remove: { title: 'contacts.remove.title', text: 'contacts.remove.text', button: 'contacts.remove', done: 'contacts.remove.done' },
  withdraw: { title: 'contacts.withdraw.title', text: 'contacts.withdraw.text', button: 'contacts.withdraw', done: 'contacts.withdraw.done' },
  decline: { title: 'contacts.decline.title', text: 'contacts.decline.text', button: 'contacts.decline', done: 'contacts.decline.done' },
};

/**
 * /user/contacts (spec §2; issue 13): tabs "My contacts", "Requests received", "Requests sent"
 * (`?tab=`), a name filter, paging; accept, decline, withdraw and remove with confirmation where
 * it cannot be undone; "Message" opens the direct chat. Presence of contacts is live. Under the
 * title: the contact requests left this week and the renewal day (issue 19).
 */
export default function UserContactsRoute() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const locale = useLocale();
  const localize = useLocalizedPath();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const tabParam = searchParams.get('tab');
  const tab: ContactTab = (CONTACT_TABS as readonly string[]).includes(tabParam ?? '') ? (tabParam as ContactTab) : 'contacts';
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState('');
  const [search] = useDebouncedValue(filter.trim(), 300);
  const list = useQuery(myContactsQuery(tab, search, page));
  const requestCount = useQuery(contactRequestCountQuery());
  const allowance = useQuery(contactAllowanceQuery());
  const rows = list.data?.rows ?? [];
  const presence = usePresence(tab === 'contacts' ? rows.map((r) => r.user_id) : []);
  const [pending, setPending] = useState<Pending>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: CONTACTS_KEY });
  const answer = useMutation({
    mutationFn: ({ row, accept }: { row: ContactRow; accept: boolean }) => answerContactRequest(row.contact_id, accept),
    onSuccess: (_v, { row, accept }) => {
      notify('success', t(accept ? 'contacts.accept.done' : 'contacts.decline.done', { name: row.display_name }));
      setPending(null);
      void refresh();
    },
    onError: (error) => notify('error', t(contactErrorMessageId(error))),
  });
  const remove = useMutation({
    mutationFn: ({ row }: { row: ContactRow; kind: 'remove' | 'withdraw' }) => deleteContact(row.contact_id),
    onSuccess: (_v, { row, kind }) => {
      notify('success', t(CONFIRM[kind].done, { name: row.display_name }));
      setPending(null);
      void refresh();
      void queryClient.invalidateQueries({ queryKey: CHAT_KEY });
    },
    onError: (error) => notify('error', t(contactErrorMessageId(error))),
  });
  const message = useMutation({
    mutationFn: (row: ContactRow) => startConversation(row.user_id),
    onSuccess: (id) => void navigate(localize(paths.user.conversation(id))),
    onError: (error) => notify('error', t(chatErrorMessageId(error))),
  });

  const setTab = (value: string | null) => {
    setPage(1);
    const next = new URLSearchParams(searchParams);
    if (!value || value === 'contacts') next.delete('tab');
    else next.set('tab', value);
    setSearchParams(next, { replace: true });
  };

  const confirmPending = () => {
    if (!pending) return;
    if (pending.kind === 'decline') answer.mutate({ row: pending.row, accept: false });
    else remove.mutate({ row: pending.row, kind: pending.kind });
  };

  const received = requestCount.data ?? 0;
  return (
    <Stack>
      <PageHeader
        title={<FormattedMessage id="page.user-contacts.title" />}
        description={<FormattedMessage id="contacts.intro" />}
        action={
          <LocalButtonLink to={paths.search} variant="light">
            <FormattedMessage id="contacts.findPeople" />
          </LocalButtonLink>
        }
      />
      {allowance.data && allowance.data.weeklyLimit !== null && allowance.data.weeklyLimit > 0 && (
        <Text c="var(--tw-muted)" data-testid="contacts-allowance">
          <FormattedMessage
            id="contacts.allowance"
            values={{
              n: allowance.data.remaining ?? 0,
              limit: allowance.data.weeklyLimit,
              date: formatRenewal(intl, allowance.data.renewsAt),
            }}
          />
        </Text>
      )}
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="contacts" data-testid="contacts-tab-contacts">
            <FormattedMessage id="contacts.tab.contacts" />
          </Tabs.Tab>
          <Tabs.Tab
            value="received"
            data-testid="contacts-tab-received"
            rightSection={received > 0 ? <Badge size="sm" color="red" variant="filled" circle={received < 10}>{received}</Badge> : undefined}
          >
            <FormattedMessage id="contacts.tab.received" />
          </Tabs.Tab>
          <Tabs.Tab value="sent" data-testid="contacts-tab-sent">
            <FormattedMessage id="contacts.tab.sent" />
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <TextInput
        label={<FormattedMessage id="contacts.filter" />}
        value={filter}
        maxLength={100}
        onChange={(e) => {
          setFilter(e.currentTarget.value);
          setPage(1);
        }}
        style={{ maxWidth: 360 }}
        data-testid="contacts-filter"
      />
      {list.isPending && <LoadingState messageId="contacts.loading" />}
      {list.isError && <LoadError messageId="contacts.loadError" onRetry={() => void list.refetch()} />}
      {list.data && rows.length === 0 && (
        <EmptyState testId="contacts-empty">
          <FormattedMessage id={search ? 'contacts.emptyFilter' : EMPTY[tab]} />
        </EmptyState>
      )}
      {rows.length > 0 && (
        <SimpleGrid component="ul" cols={{ base: 1, sm: 2 }} p={0} m={0} style={{ listStyle: 'none' }} aria-busy={list.isFetching} data-testid="contacts-list">
          {rows.map((row) => (
            <li key={row.contact_id} data-testid="contact-entry" data-user-id={row.user_id}>
              <ContentCard
                to={paths.profile(row.slug)}
                heading="h2"
                title={row.display_name}
                badge={tab === 'contacts' ? <PresenceLabel status={presence[row.user_id] ?? 'offline'} lastSeenAt={row.last_seen_at} /> : undefined}
                meta={[row.city, t(tab === 'contacts' ? 'contacts.since' : 'contacts.sentOn', { date: formatDate(row.since, locale) })].filter(Boolean).join(' · ')}
                summary={
                  tab !== 'contacts' && row.message ? (
                    <Text component="span" fz="sm" fs="italic" style={{ whiteSpace: 'pre-line' }} data-testid="contact-note">
                      {row.message}
                    </Text>
                  ) : (
                    row.headline
                  )
                }
                owner={{ name: row.display_name, img: row.profile_img }}
                action={<FormattedMessage id="card.action.profile" />}
                extra={
                  <>
                    {tab === 'contacts' && (
                      <>
                        <Button size="xs" loading={message.isPending && message.variables?.contact_id === row.contact_id} onClick={() => message.mutate(row)}>
                          <FormattedMessage id="contacts.message" />
                        </Button>
                        <Button size="xs" variant="subtle" color="var(--tw-red)" onClick={() => setPending({ kind: 'remove', row })}>
                          <FormattedMessage id="contacts.remove" />
                        </Button>
                      </>
                    )}
                    {tab === 'received' && (
                      <>
                        <Button
                          size="xs"
                          loading={answer.isPending && answer.variables?.accept && answer.variables.row.contact_id === row.contact_id}
                          onClick={() => answer.mutate({ row, accept: true })}
                        >
                          <FormattedMessage id="contacts.accept" />
                        </Button>
                        <Button size="xs" variant="default" onClick={() => setPending({ kind: 'decline', row })}>
                          <FormattedMessage id="contacts.decline" />
                        </Button>
                      </>
                    )}
                    {tab === 'sent' && (
                      <Button size="xs" variant="default" onClick={() => setPending({ kind: 'withdraw', row })}>
                        <FormattedMessage id="contacts.withdraw" />
                      </Button>
                    )}
                  </>
                }
              />
            </li>
          ))}
        </SimpleGrid>
      )}
      <ListPagination total={list.data?.total ?? 0} pageSize={CONTACTS_PAGE_SIZE} page={page} onChange={setPage} />
      <ConfirmDialog
        opened={pending !== null}
        title={pending ? t(CONFIRM[pending.kind].title) : ''}
        message={pending ? t(CONFIRM[pending.kind].text, { name: pending.row.display_name }) : ''}
        confirmLabel={pending ? t(CONFIRM[pending.kind].button) : ''}
        loading={answer.isPending || remove.isPending}
        onConfirm={confirmPending}
        onClose={() => setPending(null)}
      />
    </Stack>
  );
}

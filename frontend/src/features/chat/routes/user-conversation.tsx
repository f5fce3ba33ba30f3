import { Alert, Avatar, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useLayoutEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LocalLink } from '@/components/local-link';
import { LoadError, LoadingState } from '@/components/query-state';
import { useLocale } from '@/components/use-locale';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { publicAvatarUrl } from '@/lib/public-api';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { type ChatMessage, chatErrorMessageId, conversationInfoQuery, deleteMessage, editMessage, MESSAGE_MAX } from '../api/chat';
import { Composer } from '../components/composer';
import { type EditingMessage, MessageItem } from '../components/message-item';
import { OutgoingItem } from '../components/outgoing-item';
import { useDraft, useNow } from '../hooks/use-draft';
import { useMessageThread } from '../hooks/use-message-thread';
import { useOutgoingMessages } from '../hooks/use-outgoing-messages';
import { PresenceLabel, usePresence } from '@/features/presence';

/**
 * /user/chat/{conversationId} (spec §2; issue 13): history newest at the bottom, older pages when
 * scrolling up (keyset by id, 50 at a time), day separators and sender groups; Enter sends,
 * Shift+Enter breaks the line; optimistic sending with "failed, retry"; editing and deleting one's
 * own messages within 15 minutes; typing indicator; "Seen" from the other side's last_read_at;
 * safe links. Live over Broadcast from Database; a rejoin fetches what was missed. The draft
 * survives reloads and lost connections (sessionStorage).
 */
export default function UserConversationRoute({ params }: PageProps) {
  const conversationId = params.conversationId ?? '';
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const locale = useLocale();
  const me = useSession().user?.id;
  const info = useQuery(conversationInfoQuery(conversationId));
  const other = info.data?.other_user_id ?? null;
  const presence = usePresence(other ? [other] : []);

  const thread = useMessageThread(conversationId, me);
  const { messages, loaded, loadError, hasOlder, loadingOlder, typing } = thread;
  const { outgoing, send, deliver, discard } = useOutgoingMessages(conversationId, me, (stored) => thread.merge([stored]));
  const [draft, setDraft] = useDraft(conversationId);
  const [editing, setEditing] = useState<EditingMessage | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [deleting, setDeleting] = useState<ChatMessage | null>(null);
  const now = useNow(30_000);

  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const prependAnchor = useRef<number | null>(null);

  // Keep the view at the bottom for new messages, and in place when older ones are prepended.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (prependAnchor.current !== null) {
      el.scrollTop = el.scrollHeight - prependAnchor.current;
      prependAnchor.current = null;
    } else if (stickToBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [messages, outgoing, typing]);

  const loadOlder = () =>
    thread.loadOlder(() => {
      if (scroller.current) prependAnchor.current = scroller.current.scrollHeight - scroller.current.scrollTop;
    });

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (el.scrollTop < 40 && hasOlder && !loadingOlder) void loadOlder();
  };

  const submit = () => {
    const body = draft.trim();
    if ((!body && !file) || body.length > MESSAGE_MAX) return;
    send(body, file);
    setDraft('');
    setFile(null);
    stickToBottom.current = true;
  };

  const saveEdit = async () => {
    if (!editing) return;
    const body = editing.body.trim();
    if (!body) return;
    try {
      const stored = await editMessage(editing.id, body);
      thread.merge([stored]);
      setEditing(null);
      notify('success', t('chat.edited.done'));
    } catch (error) {
      notify('error', t(chatErrorMessageId(error)));
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      const stored = await deleteMessage(deleting);
      thread.merge([stored]);
      notify('success', t('chat.delete.done'));
    } catch (error) {
      notify('error', t(chatErrorMessageId(error)));
    } finally {
      setDeleting(null);
    }
  };

  if (info.isPending) return <LoadingState messageId="chat.loading" />;
  if (info.isError) return <LoadError messageId="chat.loadError" onRetry={() => void info.refetch()} />;
  if (!info.data) {
    return (
      <Stack>
        <Title order={1}>
          <FormattedMessage id="page.user-conversation.title" />
        </Title>
        <Alert color="gray" data-testid="conversation-unavailable">
          <FormattedMessage id="chat.unavailable" />
        </Alert>
        <LocalLink to={paths.user.chat}>
          <FormattedMessage id="chat.backToInbox" />
        </LocalLink>
      </Stack>
    );
  }
  const conv = info.data;
  // the other member's account was deleted (the membership went with it): say so (issue 33 §11)
  const name = conv.display_name ?? t('chat.deletedPerson');
  const lastOwn = [...messages].reverse().find((m) => m.sender_id === me && !m.deleted_at);
  const readAts = [conv.other_last_read_at, thread.liveReadAt].filter((x): x is string => !!x).map((x) => new Date(x).getTime());
  const otherReadAt = readAts.length ? Math.max(...readAts) : null;
  const seen = !!lastOwn && otherReadAt !== null && otherReadAt >= new Date(lastOwn.created_at).getTime();

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Avatar src={publicAvatarUrl(conv.profile_img)} name={name} alt="" radius="xl" size={44} color="blue" />
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Title order={1} fz="h3" data-testid="conversation-title">
              {conv.slug ? (
                <LocalLink to={paths.profile(conv.slug)} c="inherit">
                  {name}
                </LocalLink>
              ) : (
                name
              )}
            </Title>
            {other && <PresenceLabel status={presence[other] ?? 'offline'} lastSeenAt={conv.last_seen_at} />}
          </Stack>
        </Group>
        <LocalLink to={paths.user.chat} size="sm">
          <FormattedMessage id="chat.backToInbox" />
        </LocalLink>
      </Group>
      <Box
        ref={scroller}
        onScroll={onScroll}
        role="log"
        aria-live="polite"
        aria-label={t('chat.history', { name })}
        tabIndex={0}
        data-testid="message-list"
        style={{
          height: 'min(60vh, 560px)',
          overflowY: 'auto',
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-md)',
          padding: 'var(--mantine-spacing-sm)',
        }}
      >
        {!loaded && !loadError && <LoadingState messageId="chat.loading" compact />}
        {loadError && <LoadError messageId="chat.loadError" onRetry={() => void thread.loadLatest()} />}
        {hasOlder && (
          <Group justify="center" mb="xs">
            <Button size="compact-xs" variant="subtle" loading={loadingOlder} onClick={() => void loadOlder()}>
              <FormattedMessage id="chat.loadOlder" />
            </Button>
          </Group>
        )}
        {loaded && messages.length === 0 && outgoing.length === 0 && (
          <Text c="var(--tw-muted)" ta="center" py="md" data-testid="conversation-empty">
            <FormattedMessage id="chat.conversationEmpty" values={{ name }} />
          </Text>
        )}
        <Stack gap={4}>
          {messages.map((m, i) => (
            <MessageItem
              key={m.id}
              message={m}
              previous={messages[i - 1]}
              me={me}
              name={name}
              now={now}
              locale={locale}
              editing={editing}
              onEdit={setEditing}
              onSaveEdit={() => void saveEdit()}
              onDelete={setDeleting}
              seen={m.sender_id === me && lastOwn?.id === m.id && seen && outgoing.length === 0}
            />
          ))}
          {outgoing.map((o) => (
            <OutgoingItem key={o.key} item={o} onRetry={() => void deliver(o)} onDiscard={() => discard(o.key)} />
          ))}
        </Stack>
      </Box>
      <Text size="sm" c="var(--tw-muted)" h={20} aria-live="polite" data-testid="typing-indicator">
        {typing ? t('chat.typing', { name }) : ''}
      </Text>
      {conv.can_write ? (
        <Composer name={name} draft={draft} onDraftChange={setDraft} file={file} onFileChange={setFile} onSubmit={submit} onTyping={thread.sendTyping} />
      ) : (
        <Alert color="gray" data-testid="cannot-write">
          <FormattedMessage id="chat.cannotWrite" />
        </Alert>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('chat.delete.title')}
        message={t('chat.delete.text')}
        confirmLabel={t('chat.delete')}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

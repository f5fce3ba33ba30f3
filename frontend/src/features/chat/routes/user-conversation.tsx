import { ActionIcon, Alert, Anchor, Avatar, Box, Button, CloseButton, Divider, FileButton, Group, Menu, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LocalLink } from '@/components/local-link';
import { LoadError, LoadingState } from '@/components/query-state';
import { useLocale } from '@/components/use-locale';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { publicAvatarUrl } from '@/lib/public-api';
import { formatDayHeading, formatTime } from '@/lib/format';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import {
  ATTACHMENT_TYPES,
  attachmentProblem,
  CHAT_KEY,
  type ChatMessage,
  chatErrorMessageId,
  conversationInfoQuery,
  deleteMessage,
  EDIT_WINDOW_MS,
  editMessage,
  fetchNewerMessages,
  fetchOlderMessages,
  markConversationRead,
  MESSAGE_MAX,
  MESSAGE_PAGE_SIZE,
  mergeMessages,
  sendMessage,
  uploadAttachment,
} from '../api/chat';
import { AttachmentView } from '../components/attachment-view';
import { MessageText } from '../components/message-text';
import { PresenceLabel, usePresence } from '@/features/presence';
import { useConversationChannel } from '../live/use-conversation-channel';

/** An optimistic message not confirmed by the database yet. */
interface Outgoing {
  key: string;
  body: string;
  file: File | null;
  /** Object name once the file is uploaded (a retry does not upload again). */
  uploadedPath?: string;
  createdAt: string;
  status: 'sending' | 'failed';
}

/** How long a typing signal shows (milliseconds). */
const TYPING_VISIBLE_MS = 4000;
/** Messages of one sender closer than this form one group (milliseconds). */
const GROUP_GAP_MS = 5 * 60 * 1000;

const draftKey = (conversationId: string) => `teamwerk.chat.draft.${conversationId}`;

function sameDay(a: string, b: string): boolean {
  return new Date(a).toDateString() === new Date(b).toDateString();
}

/** A paperclip drawn as SVG (an emoji depends on the visitor's fonts and shows as a box without them). */
function PaperclipIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M21 11.5 12.4 20a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6l7.9-7.9" />
    </svg>
  );
}

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
  const queryClient = useQueryClient();
  const info = useQuery(conversationInfoQuery(conversationId));
  const other = info.data?.other_user_id ?? null;
  const presence = usePresence(other ? [other] : []);

  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [loadError, setLoadError] = useState(false);
  const [hasOlder, setHasOlder] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [outgoing, setOutgoing] = useState<Outgoing[]>([]);
  const [liveReadAt, setLiveReadAt] = useState<string | null>(null);
  const [typing, setTyping] = useState(false);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [draft, setDraft] = useState(() => sessionStorage.getItem(draftKey(conversationId)) ?? '');
  const [editing, setEditing] = useState<{ id: number; body: string } | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [deleting, setDeleting] = useState<ChatMessage | null>(null);
  const [now, setNow] = useState(() => Date.now());

  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const prependAnchor = useRef<number | null>(null);
  const messagesRef = useRef(messages);
  useLayoutEffect(() => {
    messagesRef.current = messages;
  }, [messages]);

  useEffect(() => {
    if (draft) sessionStorage.setItem(draftKey(conversationId), draft);
    else sessionStorage.removeItem(draftKey(conversationId));
  }, [draft, conversationId]);

  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(tick);
  }, []);

  const markRead = useCallback(() => {
    if (document.visibilityState !== 'visible') return;
    void markConversationRead(conversationId)
      .then(() => queryClient.invalidateQueries({ queryKey: CHAT_KEY }))
      .catch(() => undefined);
  }, [conversationId, queryClient]);

  const loadLatest = useCallback(async () => {
    try {
      const newest = messagesRef.current.at(-1)?.id;
      if (newest === undefined) {
        const page = await fetchOlderMessages(conversationId, null);
        setMessages((current) => mergeMessages(current, page));
        setHasOlder(page.length === MESSAGE_PAGE_SIZE);
      } else {
        const newer = await fetchNewerMessages(conversationId, newest);
        if (newer.length) setMessages((current) => mergeMessages(current, newer));
      }
      setLoaded(true);
      setLoadError(false);
      markRead();
    } catch {
      setLoadError(true);
    }
  }, [conversationId, markRead]);

  const sendTyping = useConversationChannel(conversationId, me, {
    onMessages: (incoming) => {
      setMessages((current) => mergeMessages(current, incoming));
      if (incoming.some((m) => m.sender_id !== me)) {
        clearTimeout(typingTimer.current);
        setTyping(false);
        markRead();
      }
    },
    onRead: (_user, at) => setLiveReadAt((prev) => (!prev || at > prev ? at : prev)),
    onTyping: () => {
      clearTimeout(typingTimer.current);
      setTyping(true);
      typingTimer.current = setTimeout(() => setTyping(false), TYPING_VISIBLE_MS);
    },
    onJoined: () => void loadLatest(),
  });

  useEffect(() => () => clearTimeout(typingTimer.current), []);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') markRead();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [markRead]);

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

  const loadOlder = async () => {
    const oldest = messagesRef.current[0]?.id;
    if (oldest === undefined || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const page = await fetchOlderMessages(conversationId, oldest);
      if (scroller.current) prependAnchor.current = scroller.current.scrollHeight - scroller.current.scrollTop;
      setMessages((current) => mergeMessages(current, page));
      setHasOlder(page.length === MESSAGE_PAGE_SIZE);
    } catch {
      notify('error', t('chat.loadError'));
    } finally {
      setLoadingOlder(false);
    }
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (el.scrollTop < 40 && hasOlder && !loadingOlder) void loadOlder();
  };

  const deliver = async (item: Outgoing) => {
    if (!me) return;
    setOutgoing((list) => list.map((o) => (o.key === item.key ? { ...o, status: 'sending' } : o)));
    try {
      let path = item.uploadedPath;
      if (item.file && !path) {
        path = await uploadAttachment(conversationId, me, item.file);
        const uploaded = path;
        setOutgoing((list) => list.map((o) => (o.key === item.key ? { ...o, uploadedPath: uploaded } : o)));
      }
      const stored = await sendMessage(conversationId, me, item.body, item.file && path ? { path, name: item.file.name } : undefined, item.key);
      setMessages((current) => mergeMessages(current, [stored]));
      setOutgoing((list) => list.filter((o) => o.key !== item.key));
    } catch (error) {
      setOutgoing((list) => list.map((o) => (o.key === item.key ? { ...o, status: 'failed' } : o)));
      notify('error', t(chatErrorMessageId(error)));
    }
  };

  // back online: messages that failed while the connection was gone are sent again by themselves
  // (the network notice under the header tells the user what happens meanwhile, issue 17)
  const retryFailed = useRef<() => void>(() => undefined);
  useLayoutEffect(() => {
    retryFailed.current = () => {
      for (const item of outgoing) if (item.status === 'failed') void deliver(item);
    };
  });
  useEffect(() => {
    const up = () => retryFailed.current();
    window.addEventListener('online', up);
    return () => window.removeEventListener('online', up);
  }, []);

  const submit = () => {
    const body = draft.trim();
    if ((!body && !file) || body.length > MESSAGE_MAX) return;
    const item: Outgoing = { key: crypto.randomUUID(), body, file, createdAt: new Date().toISOString(), status: 'sending' };
    setOutgoing((list) => [...list, item]);
    setDraft('');
    setFile(null);
    stickToBottom.current = true;
    void deliver(item);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  const saveEdit = async () => {
    if (!editing) return;
    const body = editing.body.trim();
    if (!body) return;
    try {
      const stored = await editMessage(editing.id, body);
      setMessages((current) => mergeMessages(current, [stored]));
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
      setMessages((current) => mergeMessages(current, [stored]));
      notify('success', t('chat.delete.done'));
    } catch (error) {
      notify('error', t(chatErrorMessageId(error)));
    } finally {
      setDeleting(null);
    }
  };

  useEffect(() => {
    // first load when the channel cannot join (e.g. offline): the channel's join loads otherwise
    const timer = setTimeout(() => {
      if (!loaded) void loadLatest();
    }, 1500);
    return () => clearTimeout(timer);
  }, [loaded, loadLatest]);

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
  const name = conv.display_name ?? t('chat.unknownPerson');
  const lastOwn = [...messages].reverse().find((m) => m.sender_id === me && !m.deleted_at);
  const readAts = [conv.other_last_read_at, liveReadAt].filter((x): x is string => !!x).map((x) => new Date(x).getTime());
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
            <PresenceLabel status={other ? (presence[other] ?? 'offline') : 'offline'} lastSeenAt={conv.last_seen_at} />
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
        {loadError && <LoadError messageId="chat.loadError" onRetry={() => void loadLatest()} />}
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
          {messages.map((m, i) => {
            const prev = messages[i - 1];
            const newDay = !prev || !sameDay(prev.created_at, m.created_at);
            const grouped = !newDay && prev && prev.sender_id === m.sender_id && new Date(m.created_at).getTime() - new Date(prev.created_at).getTime() < GROUP_GAP_MS;
            const own = m.sender_id === me;
            const editable = own && !m.deleted_at && now - new Date(m.created_at).getTime() < EDIT_WINDOW_MS;
            return (
              <Box key={m.id}>
                {newDay && (
                  <Divider my="xs" label={formatDayHeading(m.created_at, locale)} labelPosition="center" data-testid="day-separator" />
                )}
                <Group justify={own ? 'flex-end' : 'flex-start'} gap={4} wrap="nowrap" mt={grouped ? 0 : 6}>
                  {editable && editing?.id !== m.id && (
                    <Menu position="left-start" withinPortal>
                      <Menu.Target>
                        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chat.messageActions')} data-testid="message-actions">
                          ⋯
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item onClick={() => setEditing({ id: m.id, body: m.body })}>
                          <FormattedMessage id="chat.edit" />
                        </Menu.Item>
                        <Menu.Item color="red" onClick={() => setDeleting(m)}>
                          <FormattedMessage id="chat.delete" />
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  )}
                  <Box
                    data-testid="message"
                    data-own={own}
                    data-message-id={m.id}
                    maw="75%"
                    px="sm"
                    py={6}
                    style={{
                      borderRadius: 12,
                      background: own ? 'var(--tw-bubble-own)' : 'var(--tw-bubble)',
                      border: `1px solid ${own ? 'var(--tw-bubble-own-border)' : 'var(--mantine-color-default-border)'}`,
                    }}
                  >
                    {!grouped && !own && (
                      <Text size="xs" fw={600} c="var(--tw-muted)">
                        {name}
                      </Text>
                    )}
                    {editing?.id === m.id ? (
                      <Stack gap={4}>
                        <Textarea
                          aria-label={t('chat.edit')}
                          value={editing.body}
                          maxLength={MESSAGE_MAX}
                          autosize
                          minRows={1}
                          autoFocus
                          onChange={(e) => setEditing({ id: m.id, body: e.currentTarget.value })}
                          onKeyDown={(e) => {
                            if (e.key === 'Enter' && !e.shiftKey) {
                              e.preventDefault();
                              void saveEdit();
                            }
                            if (e.key === 'Escape') setEditing(null);
                          }}
                          data-testid="edit-input"
                        />
                        <Group gap={4} justify="flex-end">
                          <Button size="compact-xs" variant="default" onClick={() => setEditing(null)}>
                            <FormattedMessage id="common.cancel" />
                          </Button>
                          <Button size="compact-xs" onClick={() => void saveEdit()}>
                            <FormattedMessage id="chat.save" />
                          </Button>
                        </Group>
                      </Stack>
                    ) : m.deleted_at ? (
                      <Text size="sm" fs="italic" c="var(--tw-muted)" data-testid="message-deleted">
                        <FormattedMessage id="chat.deleted" />
                      </Text>
                    ) : (
                      <Stack gap={4}>
                        {m.attachment_path && <AttachmentView message={m} />}
                        {m.body && (
                          <Text size="sm" data-testid="message-body">
                            <MessageText body={m.body} />
                          </Text>
                        )}
                      </Stack>
                    )}
                    <Text size="xs" c="var(--tw-muted)" ta="right">
                      {formatTime(m.created_at, locale)}
                      {m.edited_at && !m.deleted_at && ` · ${t('chat.edited')}`}
                    </Text>
                  </Box>
                </Group>
                {own && lastOwn?.id === m.id && seen && outgoing.length === 0 && (
                  <Text size="xs" c="var(--tw-muted)" ta="right" data-testid="read-receipt">
                    <FormattedMessage id="chat.seen" />
                  </Text>
                )}
              </Box>
            );
          })}
          {outgoing.map((o) => (
            <Group key={o.key} justify="flex-end" mt={6}>
              <Box
                data-testid="message-outgoing"
                data-status={o.status}
                maw="75%"
                px="sm"
                py={6}
                style={{
                  borderRadius: 12,
                  opacity: o.status === 'sending' ? 0.7 : 1,
                  background: 'var(--mantine-color-blue-0)',
                  border: `1px ${o.status === 'failed' ? 'dashed var(--mantine-color-red-7)' : 'solid var(--mantine-color-blue-2)'}`,
                }}
              >
                {o.file && (
                  <Text size="sm" c="var(--tw-muted)">
                    📎 {o.file.name}
                  </Text>
                )}
                {o.body && (
                  <Text size="sm">
                    <MessageText body={o.body} />
                  </Text>
                )}
                {o.status === 'sending' ? (
                  <Text size="xs" c="var(--tw-muted)" ta="right">
                    <FormattedMessage id="chat.sending" />
                  </Text>
                ) : (
                  <Group gap={4} justify="flex-end">
                    <Text size="xs" c="var(--tw-red)" role="alert">
                      <FormattedMessage id="chat.failed" />
                    </Text>
                    <Anchor component="button" type="button" size="xs" onClick={() => void deliver(o)} data-testid="retry-send">
                      <FormattedMessage id="chat.retry" />
                    </Anchor>
                    <Anchor
                      component="button"
                      type="button"
                      size="xs"
                      c="var(--tw-muted)"
                      onClick={() => setOutgoing((list) => list.filter((x) => x.key !== o.key))}
                    >
                      <FormattedMessage id="chat.discard" />
                    </Anchor>
                  </Group>
                )}
              </Box>
            </Group>
          ))}
        </Stack>
      </Box>
      <Text size="sm" c="var(--tw-muted)" h={20} aria-live="polite" data-testid="typing-indicator">
        {typing ? t('chat.typing', { name }) : ''}
      </Text>
      {conv.can_write ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          {file && (
            <Group gap={4} mb={4} data-testid="attachment-selected">
              <Text size="sm">📎 {file.name}</Text>
              <CloseButton size="sm" aria-label={t('chat.attachment.remove')} onClick={() => setFile(null)} />
            </Group>
          )}
          <Group align="flex-end" wrap="nowrap" gap="xs">
            <FileButton
              accept={ATTACHMENT_TYPES.join(',')}
              onChange={(picked) => {
                if (!picked) return;
                const problem = attachmentProblem(picked);
                if (problem) notify('error', t(problem === 'type' ? 'chat.attachment.wrongType' : 'chat.attachment.tooLarge'));
                else setFile(picked);
              }}
            >
              {(props) => (
                <ActionIcon {...props} variant="default" size={36} aria-label={t('chat.attachment.add')} data-testid="attach-file">
                  <PaperclipIcon />
                </ActionIcon>
              )}
            </FileButton>
            <Textarea
              style={{ flex: 1 }}
              aria-label={t('chat.compose', { name })}
              placeholder={t('chat.placeholder')}
              description={t('chat.composeHint')}
              value={draft}
              maxLength={MESSAGE_MAX}
              autosize
              minRows={1}
              maxRows={6}
              onChange={(e) => {
                setDraft(e.currentTarget.value);
                if (e.currentTarget.value) sendTyping();
              }}
              onKeyDown={onKeyDown}
              data-testid="message-input"
            />
            <Button type="submit" disabled={!draft.trim() && !file} data-testid="send-message">
              <FormattedMessage id="chat.send" />
            </Button>
          </Group>
        </form>
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

import { ActionIcon, Box, Button, Divider, Group, Menu, Stack, Text, Textarea } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Locale } from '@site/locale';
import { formatDayHeading, formatTime } from '@/lib/format';
import { type ChatMessage, EDIT_WINDOW_MS, MESSAGE_MAX } from '../api/chat';
import { AttachmentView } from './attachment-view';
import { MessageText } from './message-text';

/** Messages of one sender closer than this form one group (milliseconds). */
const GROUP_GAP_MS = 5 * 60 * 1000;

function sameDay(a: string, b: string): boolean {
  return new Date(a).toDateString() === new Date(b).toDateString();
}

/** The message being edited and its text. */
export interface EditingMessage {
  id: number;
  body: string;
}

/**
 * One stored message of the history (issue 13): a day separator before the first of a day, the
 * sender's name at the start of a group, own messages on the right with Edit/Delete within the
 * 15-minute window (inline editor: Enter saves, Shift+Enter breaks the line, Escape cancels),
 * "deleted" for deleted ones, time and "edited", and "Seen" under the last own message.
 */
export function MessageItem(props: {
  message: ChatMessage;
  previous: ChatMessage | undefined;
  me: string | undefined;
  /** Display name of the other person. */
  name: string;
  now: number;
  locale: Locale;
  editing: EditingMessage | null;
  onEdit: (editing: EditingMessage | null) => void;
  onSaveEdit: () => void;
  onDelete: (message: ChatMessage) => void;
  seen: boolean;
}) {
  const { message: m, previous: prev, me, name, now, locale, editing, onEdit, onSaveEdit, onDelete, seen } = props;
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const newDay = !prev || !sameDay(prev.created_at, m.created_at);
  const grouped = !newDay && prev && prev.sender_id === m.sender_id && new Date(m.created_at).getTime() - new Date(prev.created_at).getTime() < GROUP_GAP_MS;
  const own = m.sender_id === me;
  const editable = own && !m.deleted_at && now - new Date(m.created_at).getTime() < EDIT_WINDOW_MS;
  return (
    <Box>
      {newDay && <Divider my="xs" label={formatDayHeading(m.created_at, locale)} labelPosition="center" data-testid="day-separator" />}
      <Group justify={own ? 'flex-end' : 'flex-start'} gap={4} wrap="nowrap" mt={grouped ? 0 : 6}>
        {editable && editing?.id !== m.id && (
          <Menu position="left-start" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chat.messageActions')} data-testid="message-actions">
                ⋯
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => onEdit({ id: m.id, body: m.body })}>
                <FormattedMessage id="chat.edit" />
              </Menu.Item>
              <Menu.Item color="red" onClick={() => onDelete(m)}>
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
                onChange={(e) => onEdit({ id: m.id, body: e.currentTarget.value })}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.shiftKey) {
                    e.preventDefault();
                    onSaveEdit();
                  }
                  if (e.key === 'Escape') onEdit(null);
                }}
                data-testid="edit-input"
              />
              <Group gap={4} justify="flex-end">
                <Button size="compact-xs" variant="default" onClick={() => onEdit(null)}>
                  <FormattedMessage id="common.cancel" />
                </Button>
                <Button size="compact-xs" onClick={onSaveEdit}>
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
      {seen && (
        <Text size="xs" c="var(--tw-muted)" ta="right" data-testid="read-receipt">
          <FormattedMessage id="chat.seen" />
        </Text>
      )}
    </Box>
  );
}

import { ActionIcon, Button, CloseButton, FileButton, Group, Text, Textarea } from '@mantine/core';
import type { KeyboardEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { notify } from '@/lib/notify';
import { ATTACHMENT_TYPES, attachmentProblem, MESSAGE_MAX } from '../api/chat';

/** A paperclip drawn as SVG (an emoji depends on the visitor's fonts and shows as a box without them). */
function PaperclipIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M21 11.5 12.4 20a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6l7.9-7.9" />
    </svg>
  );
}

/**
 * The message form of a conversation (issue 13): an attachment (type and size checked, removable),
 * the text (Enter sends, Shift+Enter breaks the line; typing is signalled), Send.
 */
export function Composer(props: {
  /** Display name of the other person. */
  name: string;
  draft: string;
  onDraftChange: (draft: string) => void;
  file: File | null;
  onFileChange: (file: File | null) => void;
  onSubmit: () => void;
  onTyping: () => void;
}) {
  const { name, draft, onDraftChange, file, onFileChange, onSubmit, onTyping } = props;
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      onSubmit();
    }
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {file && (
        <Group gap={4} mb={4} data-testid="attachment-selected">
          <Text size="sm">📎 {file.name}</Text>
          <CloseButton size="sm" aria-label={t('chat.attachment.remove')} onClick={() => onFileChange(null)} />
        </Group>
      )}
      <Group align="flex-end" wrap="nowrap" gap="xs">
        <FileButton
          accept={ATTACHMENT_TYPES.join(',')}
          onChange={(picked) => {
            if (!picked) return;
            const problem = attachmentProblem(picked);
            if (problem) notify('error', t(problem === 'type' ? 'chat.attachment.wrongType' : 'chat.attachment.tooLarge'));
            else onFileChange(picked);
          }}
        >
          {(buttonProps) => (
            <ActionIcon {...buttonProps} variant="default" size={36} aria-label={t('chat.attachment.add')} data-testid="attach-file">
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
            onDraftChange(e.currentTarget.value);
            if (e.currentTarget.value) onTyping();
          }}
          onKeyDown={onKeyDown}
          data-testid="message-input"
        />
        <Button type="submit" disabled={!draft.trim() && !file} data-testid="send-message">
          <FormattedMessage id="chat.send" />
        </Button>
      </Group>
    </form>
  );
}

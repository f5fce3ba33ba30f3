import { Anchor, Group, Image, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useIntl } from 'react-intl';
import { attachmentUrlQuery, type ChatMessage } from '../api/chat';

/** "1.4 MB" / "1,4 MB" for a size in bytes. */
function formatSize(bytes: number, locale: string): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(mb)} MB`;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(Math.max(1, bytes / 1024))} KB`;
}

/**
 * A message's attachment (issue 13): images as a thumbnail that opens the full image, PDFs as a
 * download link with name and size; both through short-lived signed URLs that Storage hands out
 * to members of the conversation only.
 */
export function AttachmentView({ message }: { message: ChatMessage }) {
  const intl = useIntl();
  const path = message.attachment_path!;
  const name = message.attachment_name ?? '';
  const isImage = (message.attachment_type ?? '').startsWith('image/');
  const url = useQuery(attachmentUrlQuery(path, isImage ? undefined : name));
  if (url.isPending) return <Skeleton h={isImage ? 120 : 20} w={isImage ? 160 : 200} />;
  if (url.isError) {
    return (
      <Text size="xs" c="var(--tw-red)">
        {intl.formatMessage({ id: 'chat.attachment.unavailable' })}
      </Text>
    );
  }
  if (isImage) {
    return (
      <Anchor href={url.data} target="_blank" rel="noopener noreferrer" aria-label={intl.formatMessage({ id: 'chat.attachment.open' }, { name })} data-testid="attachment-image">
        <Image src={url.data} alt={name} mah={240} maw={280} fit="contain" radius="sm" />
      </Anchor>
    );
  }
  return (
    <Group gap={6} wrap="nowrap" data-testid="attachment-file">
      <Text aria-hidden>📄</Text>
      <Anchor href={url.data} size="sm" rel="noopener noreferrer" download={name} style={{ wordBreak: 'break-all' }}>
        {name}
      </Anchor>
      {message.attachment_size !== null && (
        <Text size="xs" c="var(--tw-muted)" style={{ flex: 'none' }}>
          {formatSize(message.attachment_size, intl.locale)}
        </Text>
      )}
    </Group>
  );
}

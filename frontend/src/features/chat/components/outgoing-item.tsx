import { Anchor, Box, Group, Text } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import type { Outgoing } from '../hooks/use-outgoing-messages';
import { MessageText } from './message-text';

/** An optimistic message (issue 13): "sending", or "failed" with Retry and Discard. */
export function OutgoingItem({ item: o, onRetry, onDiscard }: { item: Outgoing; onRetry: () => void; onDiscard: () => void }) {
  return (
    <Group justify="flex-end" mt={6}>
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
            <Anchor component="button" type="button" size="xs" onClick={onRetry} data-testid="retry-send">
              <FormattedMessage id="chat.retry" />
            </Anchor>
            <Anchor component="button" type="button" size="xs" c="var(--tw-muted)" onClick={onDiscard}>
              <FormattedMessage id="chat.discard" />
            </Anchor>
          </Group>
        )}
      </Box>
    </Group>
  );
}

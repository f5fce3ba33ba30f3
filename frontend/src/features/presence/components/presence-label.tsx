import { Box, Group, Text } from '@mantine/core';
import { useIntl } from 'react-intl';
import { useLocale } from '@/components/use-locale';
import { formatRelativeTime } from '@/lib/format';
import type { PresenceStatus } from '../presence';

const COLOR: Record<PresenceStatus, string> = {
  online: 'var(--mantine-color-green-7)',
  away: 'var(--mantine-color-yellow-6)',
  offline: 'var(--mantine-color-gray-5)',
};

/**
 * A contact's presence (issue 13): a dot (filled online, ring away, hollow offline: shape as well
 * as colour) and its text; offline with "last seen …" in the page's language when the database
 * handed out a last-seen time (only under the reciprocity rule).
 */
export function PresenceLabel({ status, lastSeenAt, compact = false }: { status: PresenceStatus; lastSeenAt?: string | null; compact?: boolean }) {
  const intl = useIntl();
  const locale = useLocale();
  const text =
    status === 'online'
      ? intl.formatMessage({ id: 'presence.online' })
      : status === 'away'
        ? intl.formatMessage({ id: 'presence.away' })
        : lastSeenAt
          ? intl.formatMessage({ id: 'presence.lastSeen' }, { when: formatRelativeTime(lastSeenAt, locale) })
          : intl.formatMessage({ id: 'presence.offline' });
  return (
    <Group gap={6} wrap="nowrap" data-testid="presence" data-status={status}>
      <Box
        aria-hidden
        w={10}
        h={10}
        style={{
          borderRadius: '50%',
          flex: 'none',
          background: status === 'online' ? COLOR.online : 'transparent',
          border: `2px solid ${COLOR[status]}`,
          boxShadow: status === 'away' ? `inset 0 0 0 2px ${COLOR.away}` : undefined,
        }}
      />
      <Text size="xs" c="var(--tw-muted)" truncate={compact}>
        {text}
      </Text>
    </Group>
  );
}

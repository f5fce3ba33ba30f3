import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useIntl } from 'react-intl';
import { contactRequestCountQuery } from '@/features/contacts';
import { unreadTotalQuery } from '@/features/chat';

/**
 * A count badge for the navigation (issue 13): unread messages (`kind` chat) or pending contact
 * requests (`kind` contacts); nothing when zero. Kept fresh by the live session's Broadcasts.
 */
export default function NavCountBadge({ kind }: { kind: 'chat' | 'contacts' }) {
  const intl = useIntl();
  const query = useQuery(kind === 'chat' ? unreadTotalQuery() : contactRequestCountQuery());
  const count = query.data ?? 0;
  if (count <= 0) return null;
  const label = intl.formatMessage({ id: kind === 'chat' ? 'nav.account.unread' : 'userNav.requestsBadge' }, { count });
  return (
    <Badge size="sm" circle={count < 10} color="red" variant="filled" aria-label={label} title={label} data-testid={`nav-badge-${kind}`}>
      {count > 99 ? '99+' : count}
    </Badge>
  );
}

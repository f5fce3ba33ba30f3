import { Avatar, Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { publicAvatarUrl } from '@/lib/public-api';
import { useLocalizedPath } from './use-locale';

/** Who a card's item belongs to. */
export interface CardOwner {
  name: string | null;
  img: string | null;
}

/**
 * The one card design for projects, portfolios, events, jobs and people (issue 18): a kicker
 * (category or type), the title as the card's link, place and time, a short text, the owner's
 * avatar and name, and one clear action. The whole card is one link target (the title), so
 * keyboard users meet one stop per card.
 * Optional: `to` null for an item without a page (the title is plain text, no action arrow);
 * `heading` makes the title an `<h2>`/`<h3>` (lists under a page heading); `extra` holds
 * controls of their own (remove, publish, connect) that stay clickable above the card link.
 */
export function ContentCard({
  to,
  title,
  kicker,
  meta,
  summary,
  owner,
  action,
  badge,
  testId,
  heading,
  extra,
}: {
  to: string | null;
  title: ReactNode;
  kicker?: ReactNode;
  meta?: ReactNode;
  summary?: ReactNode;
  owner?: CardOwner | null;
  action: ReactNode;
  badge?: ReactNode;
  testId?: string;
  heading?: 'h2' | 'h3';
  extra?: ReactNode;
}) {
  const localize = useLocalizedPath();
  const titleText = to ? (
    <Text component={Link} to={localize(to)} fw={700} fz="lg" lh={1.3} className="tw-card-link" c="var(--mantine-color-text)">
      {title}
    </Text>
  ) : (
    <Text component="span" fw={700} fz="lg" lh={1.3}>
      {title}
    </Text>
  );
  return (
    <Card withBorder shadow="sm" padding="lg" component="article" className="tw-card" data-testid={testId} style={{ height: '100%' }}>
      <Stack gap="xs" style={{ flex: 1 }}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          {kicker ? (
            <Text fz="xs" fw={700} tt="uppercase" c="var(--tw-blue)" style={{ letterSpacing: '0.04em' }}>
              {kicker}
            </Text>
          ) : (
            <span />
          )}
          {badge}
        </Group>
        {heading ? (
          <Text component={heading} m={0} lh={1.3}>
            {titleText}
          </Text>
        ) : (
          titleText
        )}
        {meta && (
          <Text fz="sm" c="var(--tw-muted)">
            {meta}
          </Text>
        )}
        {summary && (
          <Text fz="sm" lineClamp={3}>
            {summary}
          </Text>
        )}
      </Stack>
      <Group justify="space-between" mt="md" wrap="wrap" gap="xs">
        {owner?.name ? (
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Avatar src={publicAvatarUrl(owner.img)} name={owner.name} alt="" size={32} radius="xl" color="brand" />
            <Text fz="sm" truncate>
              {owner.name}
            </Text>
          </Group>
        ) : (
          <span />
        )}
        {to && (
          <Text fz="sm" fw={600} c="var(--tw-blue)" aria-hidden="true" style={{ whiteSpace: 'nowrap' }}>
            {action} →
          </Text>
        )}
      </Group>
      {extra && (
        <Group gap="xs" mt="sm" className="tw-card-extra">
          {extra}
        </Group>
      )}
    </Card>
  );
}

/** A small outlined badge in the card design (price, status). */
export function CardBadge({ children, tone = 'blue' }: { children: ReactNode; tone?: 'blue' | 'teal' | 'grape' | 'gray' }) {
  return (
    <Badge variant="outline" color={`var(--tw-${tone})`} style={{ flexShrink: 0 }}>
      {children}
    </Badge>
  );
}

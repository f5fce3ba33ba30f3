import { Anchor, Avatar, Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import { LocalLink } from '@/components/local-link';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { myContactsQuery } from '@/features/contacts';
import { inboxQuery } from '@/features/chat';
import { unwrap } from '@/lib/api-error';
import { type Locale } from '@site/locale';
import { publicAvatarUrl } from '@/lib/public-api';
import { supabase } from '@/lib/supabase';

interface UpcomingRsvp {
  status: string;
  event: { slug: string; title: string; starts_at: string; city: string | null; is_online: boolean } | null;
}

/** The caller's next events (going or seat held), soonest first, at most 3. */
async function upcomingEvents(userId: string): Promise<UpcomingRsvp[]> {
  const rows = unwrap(
    await supabase
      .from('event_attendees')
      .select('status, event:events(slug, title, starts_at, city, is_online)')
      .eq('user_id', userId)
      .in('status', ['going', 'held'])
      .limit(50),
    'GET',
  ) as UpcomingRsvp[];
  const now = Date.now();
  return rows
    .filter((r) => r.event && Date.parse(r.event.starts_at) > now)
    .sort((a, b) => Date.parse(a.event!.starts_at) - Date.parse(b.event!.starts_at))
    .slice(0, 3);
}

function Panel({
  titleId,
  count,
  more,
  children,
  testId,
}: {
  titleId: string;
  count?: number;
  more: { to: string; id: string };
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card withBorder shadow="xs" padding="lg" data-testid={testId}>
      <Group gap="xs" mb="sm" wrap="nowrap" align="flex-start">
        <Title order={2} fz="h4">
          <FormattedMessage id={titleId} />
        </Title>
        {count !== undefined && count > 0 && (
          <Badge variant="outline" color="var(--tw-blue)" data-testid={`${testId}-count`} style={{ flexShrink: 0 }}>
            {count}
          </Badge>
        )}
      </Group>
      <div style={{ flex: 1 }}>{children}</div>
      <LocalLink to={more.to} fz="sm" fw={600} mt="md">
        <FormattedMessage id={more.id} /> →
      </LocalLink>
    </Card>
  );
}

function Person({ to, name, img, line }: { to: string; name: string; img: string | null; line: ReactNode }) {
  const localize = useLocalizedPath();
  return (
    <Anchor component={Link} to={localize(to)} underline="never" c="inherit">
      <Group gap="sm" wrap="nowrap">
        <Avatar src={publicAvatarUrl(img)} name={name} alt="" radius="xl" color="brand" />
        <div style={{ minWidth: 0 }}>
          <Text fw={600} truncate>
            {name}
          </Text>
          <Text fz="sm" c="var(--tw-muted)" truncate>
            {line}
          </Text>
        </div>
      </Group>
    </Anchor>
  );
}

const Empty = ({ id }: { id: string }) => (
  <Text fz="sm" c="var(--tw-muted)">
    <FormattedMessage id={id} />
  </Text>
);

/**
 * The signed-in home's live parts (issue 18): contact requests waiting for me, unread messages,
 * upcoming events I attend. Contacts and chat are paid features (spec §6): without a plan those
 * panels point to the plans instead. /dashboard shows the messages and events panels beside the
 * matches (issue 19); /user all three.
 */
export function HomeDashboard({
  userId,
  paid,
  locale,
  withRequests = true,
}: {
  userId: string;
  paid: boolean;
  locale: Locale;
  /** false on /dashboard, which lists the requests in its own section. */
  withRequests?: boolean;
}) {
  const requests = useQuery({ ...myContactsQuery('received', '', 1), enabled: paid && withRequests });
  const inbox = useQuery({ ...inboxQuery(1), enabled: paid });
  const events = useQuery({ queryKey: ['events', 'home-upcoming', userId], queryFn: () => upcomingEvents(userId) });
  const when = (iso: string) =>
    new Intl.DateTimeFormat(locale === 'de' ? 'de-DE' : 'en-GB', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'Europe/Berlin',
    }).format(new Date(iso));
  const unread = (inbox.data?.rows ?? []).filter((r) => r.unread > 0);
  const unreadTotal = unread.reduce((n, r) => n + r.unread, 0);

  return (
    <SimpleGrid cols={{ base: 1, md: withRequests ? 3 : 2 }} spacing="lg">
      {withRequests && (
        <Panel
          titleId="home.requests.title"
          count={requests.data?.total}
          more={{ to: `${paths.user.contacts}?tab=received`, id: 'home.requests.all' }}
          testId="home-requests"
        >
          {!paid ? (
            <Empty id="home.paidOnly" />
          ) : requests.isPending ? (
            <Skeleton height={48} />
          ) : requests.data && requests.data.rows.length > 0 ? (
            <Stack gap="sm">
              {requests.data.rows.slice(0, 3).map((r) => (
                <Person
                  key={r.contact_id}
                  to={paths.profile(r.slug)}
                  name={r.display_name}
                  img={r.profile_img}
                  line={r.message || r.headline || r.city || ''}
                />
              ))}
            </Stack>
          ) : (
            <Empty id="home.requests.empty" />
          )}
        </Panel>
      )}
      <Panel titleId="home.messages.title" count={unreadTotal} more={{ to: paths.user.chat, id: 'home.messages.all' }} testId="home-messages">
        {!paid ? (
          <Empty id="home.paidOnly" />
        ) : inbox.isPending ? (
          <Skeleton height={48} />
        ) : unread.length > 0 ? (
          <Stack gap="sm">
            {unread.slice(0, 3).map((r) => (
              <Person
                key={r.conversation_id}
                to={`${paths.user.chat}/${r.conversation_id}`}
                name={r.display_name}
                img={r.profile_img}
                line={r.last_deleted ? '…' : r.last_body}
              />
            ))}
          </Stack>
        ) : (
          <Empty id="home.messages.empty" />
        )}
      </Panel>
      <Panel titleId="home.events.title" more={{ to: paths.user.events, id: 'home.events.all' }} testId="home-events">
        {events.isPending ? (
          <Skeleton height={48} />
        ) : events.data && events.data.length > 0 ? (
          <Stack gap="sm">
            {events.data.map((r) => (
              <div key={r.event!.slug}>
                <LocalLink to={paths.event(r.event!.slug)} fw={600}>
                  {r.event!.title}
                </LocalLink>
                <Text fz="sm" c="var(--tw-muted)">
                  {when(r.event!.starts_at)} · {r.event!.is_online ? 'Online' : r.event!.city}
                </Text>
              </div>
            ))}
          </Stack>
        ) : (
          <Stack gap={4}>
            <Empty id="home.events.empty" />
            <LocalLink to={paths.events} fz="sm">
              <FormattedMessage id="home.events.find" />
            </LocalLink>
          </Stack>
        )}
      </Panel>
    </SimpleGrid>
  );
}

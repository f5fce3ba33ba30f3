import { Anchor, Avatar, Box, Card, Group, List, Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { CardBadge, ContentCard } from '@/components/content-card';
import { LocalButtonLink } from '@/components/local-link';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { CATEGORY_LABEL } from '@/lib/categories';
import { type Locale } from '@site/locale';
import { formatEuro } from '@/lib/format';
import { publicAvatarUrl } from '@/lib/public-api';
import type { LandingSnapshot } from '../api/landing-snapshot';

/**
 * The live parts of the landing page (issue 18): the cards and lists drawn from the landing
 * snapshot. A module of its own, loaded together with the snapshot after the first paint, so the
 * JavaScript the landing page needs for its first paint stays within 150 KB gzip.
 */

interface LiveProps {
  data: LandingSnapshot;
  locale: Locale;
}

function eventTime(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === 'de' ? 'de-DE' : 'en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Europe/Berlin',
  }).format(new Date(iso));
}

/** Project cards: projects looking for people, with their owner, category and city. */
export function ProjectCards({ data }: LiveProps) {
  const intl = useIntl();
  return data.projects.map((p) => (
    <ContentCard
      key={p.slug}
      to={paths.project(p.id, p.slug)}
      title={p.title}
      kicker={p.category ? intl.formatMessage({ id: CATEGORY_LABEL[p.category] ?? 'search.category.other' }) : undefined}
      meta={p.city ?? undefined}
      summary={p.summary}
      owner={p.owner}
      action={<FormattedMessage id="landing.projects.action" />}
    />
  ));
}

/** Event cards: upcoming events with time (Berlin), place or "online", and price or "free". */
export function EventCards({ data, locale }: LiveProps) {
  const intl = useIntl();
  return data.events.map((e) => (
    <ContentCard
      key={e.slug}
      to={paths.event(e.slug)}
      title={e.title}
      kicker={eventTime(e.starts_at, locale)}
      meta={e.is_online ? intl.formatMessage({ id: 'landing.events.online' }) : (e.city ?? undefined)}
      owner={e.owner}
      badge={
        <CardBadge tone={e.is_paid ? 'grape' : 'teal'}>
          {e.is_paid && e.price_cents ? formatEuro(e.price_cents / 100, locale) : intl.formatMessage({ id: 'landing.events.free' })}
        </CardBadge>
      }
      action={<FormattedMessage id="landing.events.action" />}
    />
  ));
}

/** People with face, name, headline and city, linking to their profiles; then the count of companies. */
export function PeopleList({ data }: LiveProps) {
  const localize = useLocalizedPath();
  return data.people.map((p) => (
    <Anchor key={p.slug} component={Link} to={localize(paths.profile(p.slug))} underline="never" c="inherit">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Avatar src={publicAvatarUrl(p.img)} name={p.name} alt="" size={48} radius="xl" color="brand" />
        <Box style={{ minWidth: 0 }}>
          <Text fw={600} truncate>
            {p.name}
          </Text>
          {p.headline && (
            <Text fz="sm" c="var(--tw-muted)" lineClamp={2}>
              {p.headline}
            </Text>
          )}
          {p.city && (
            <Text fz="xs" c="var(--tw-muted)">
              {p.city}
            </Text>
          )}
        </Box>
      </Group>
    </Anchor>
  ));
}

/** The number of companies among the members, when there are any. */
export function CompaniesNote({ data }: LiveProps) {
  if (data.companies <= 0) return null;
  return (
    <Text mt="md" c="var(--tw-muted)">
      <FormattedMessage id="landing.people.companies" values={{ count: data.companies }} />
    </Text>
  );
}

/** The cities with most members, each a link to the search in that city. */
export function CityLinks({ data, locale }: LiveProps) {
  const number = new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-GB');
  return data.cities.map((c) => (
    <LocalButtonLink key={c.name} to={`${paths.search}?city=${encodeURIComponent(c.name)}`} variant="default" radius="xl" size="sm" fw={500}>
      {c.name} · {number.format(c.count)}
    </LocalButtonLink>
  ));
}

/** The three plans with monthly price and their first four features in the page's language. */
export function PlanCards({ data, locale }: LiveProps) {
  return data.plans.map((plan) => (
    <Card
      key={plan.id}
      withBorder
      padding="lg"
      shadow={plan.id === 'premium' ? 'md' : 'xs'}
      style={plan.id === 'premium' ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 } : undefined}
    >
      <Text fw={700} fz="lg">
        {plan.name}
      </Text>
      <Text fz={28} fw={800} mt={4}>
        <FormattedMessage id="landing.plans.perMonth" values={{ price: formatEuro(plan.monthly_cents / 100, locale) }} />
      </Text>
      <List size="sm" mt="sm" spacing={4}>
        {(locale === 'de' ? plan.features_de : plan.features_en).slice(0, 4).map((f) => (
          <List.Item key={f}>{f}</List.Item>
        ))}
      </List>
    </Card>
  ));
}

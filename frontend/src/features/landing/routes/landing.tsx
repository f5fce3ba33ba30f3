import { Anchor, Avatar, Box, Card, Container, Group, List, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, Suspense, use, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { CardBadge, ContentCard } from '@/components/content-card';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { CATEGORY_LABEL } from '@/lib/category-labels';
import { type Locale, PRODUCT_NAME } from '@/lib/constants';
import { formatEuro } from '@/lib/format';
import { publicAvatarUrl } from '@/lib/public-api';
import type { PageProps } from '@/lib/route-def';
import { type LandingResult, type LandingSnapshot, landingSnapshot } from '../api/landing-snapshot';

const CARDS = [
  { title: 'landing.card.students.title', text: 'landing.card.students.text', audience: 'landing.card.students.audience' },
  { title: 'landing.card.professionals.title', text: 'landing.card.professionals.text', audience: 'landing.card.professionals.audience' },
  { title: 'landing.card.founders.title', text: 'landing.card.founders.text', audience: 'landing.card.founders.audience' },
  { title: 'landing.card.teams.title', text: 'landing.card.teams.text', audience: 'landing.card.teams.audience' },
] as const;

const STATS = [
  { key: 'members', id: 'landing.stats.members' },
  { key: 'projects', id: 'landing.stats.projects' },
  { key: 'cities', id: 'landing.stats.cities' },
  { key: 'upcoming_events', id: 'landing.stats.events' },
] as const;

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

function SectionHeader({ id, titleId, values, more }: { id: string; titleId: string; values?: Record<string, string>; more?: { to: string; id: string } }) {
  return (
    <Group justify="space-between" align="flex-end" mb="lg">
      <Title id={id} order={2}>
        <FormattedMessage id={titleId} values={values} />
      </Title>
      {more && (
        <LocalLink to={more.to} fw={600}>
          <FormattedMessage id={more.id} />
        </LocalLink>
      )}
    </Group>
  );
}

/** Renders `children` with the landing data once it is there, `fallback` until then, nothing when it failed. */
function Live({ result, fallback, children }: { result: Promise<LandingResult>; fallback: ReactNode; children: (data: LandingSnapshot) => ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      <LiveData result={result}>{children}</LiveData>
    </Suspense>
  );
}

function LiveData({ result, children }: { result: Promise<LandingResult>; children: (data: LandingSnapshot) => ReactNode }) {
  const outcome = use(result);
  return outcome.ok ? children(outcome.data) : null;
}

/** The notice shown instead of the live parts when the snapshot could not be loaded. */
function LiveError({ result }: { result: Promise<LandingResult> }) {
  const outcome = use(result);
  if (outcome.ok) return null;
  return (
    <Container size="lg" pt="xl">
      <Text c="var(--tw-muted)" role="status">
        <FormattedMessage id="landing.live.error" />
      </Text>
    </Container>
  );
}

/**
 * `/` (landing layout; spec §1, §2, issue 18): the platform alive from the database, loaded
 * after the first paint with plain fetch and React's `use()` (no supabase-js or query library in the landing bundle): numbers,
 * projects looking for people, upcoming events, people, cities and the plans; the four target
 * groups. Testimonials are left out until there are real ones. Space for the live parts is
 * reserved so nothing jumps when they arrive.
 */
export default function LandingRoute({ locale }: PageProps) {
  const intl = useIntl();
  const localize = useLocalizedPath();
  // one request per visit (reused for 5 min), started on mount; every live part waits for it in its own Suspense boundary
  const [snapshot] = useState(() => landingSnapshot(Date.now()));
  const number = (n: number) => new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-GB').format(n);

  return (
    <>
      <Box
        component="section"
        aria-labelledby="banner-title"
        py={{ base: 48, md: 88 }}
        c="white"
        style={{ background: 'linear-gradient(135deg, var(--tw-hero-from), var(--tw-hero-to))' }}
      >
        <Container size="lg">
          <Stack gap="lg" maw={760}>
            <Title id="banner-title" order={1} fz={{ base: 32, md: 52 }} lh={1.1} style={{ letterSpacing: '-0.02em' }}>
              <FormattedMessage id="landing.banner.title" values={{ product: PRODUCT_NAME }} />
            </Title>
            <Text fz="lg" maw={640}>
              <FormattedMessage id="landing.banner.text" values={{ product: PRODUCT_NAME }} />
            </Text>
            <Group>
              <LocalButtonLink to={paths.registration} size="md" variant="white" color="blue.9">
                <FormattedMessage id="landing.banner.cta" />
              </LocalButtonLink>
              <LocalButtonLink to={paths.prices} size="md" variant="outline" color="white" c="white">
                <FormattedMessage id="landing.banner.secondary" />
              </LocalButtonLink>
            </Group>
          </Stack>
          <SimpleGrid cols={{ base: 2, sm: 4 }} mt={48} spacing="lg" component="dl" data-testid="landing-stats" style={{ margin: 0, marginTop: 48 }}>
            {STATS.map((s) => (
              <Box key={s.key}>
                <Text component="dt" fz="sm" style={{ opacity: 0.9 }}>
                  <FormattedMessage id={s.id} />
                </Text>
                <Text component="dd" fz={32} fw={800} m={0} lh={1.2} data-testid={`landing-stat-${s.key}`}>
                  <Live result={snapshot} fallback={<Skeleton height={38} width={80} mt={2} />}>
                    {(data) => number(data.stats[s.key])}
                  </Live>
                </Text>
              </Box>
            ))}
          </SimpleGrid>
        </Container>
      </Box>

      <Suspense fallback={null}>
        <LiveError result={snapshot} />
      </Suspense>

      <Container size="lg" py="xl" component="section" aria-labelledby="projects-title">
        <SectionHeader id="projects-title" titleId="landing.projects.title" more={{ to: `${paths.search}?type=projects`, id: 'landing.projects.all' }} />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" data-testid="landing-projects">
          <Live
            result={snapshot}
            fallback={Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} height={240} radius="lg" />
            ))}
          >
            {(data) =>
              data.projects.map((p) => (
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
              ))
            }
          </Live>
        </SimpleGrid>
      </Container>

      <Box component="section" aria-labelledby="events-title" bg="var(--tw-surface-muted)" py="xl">
        <Container size="lg">
          <SectionHeader id="events-title" titleId="landing.events.title" more={{ to: paths.events, id: 'landing.events.all' }} />
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg" data-testid="landing-events">
            <Live
              result={snapshot}
              fallback={Array.from({ length: 4 }, (_, i) => (
                <Skeleton key={i} height={200} radius="lg" />
              ))}
            >
              {(data) =>
                data.events.map((e) => (
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
                ))
              }
            </Live>
          </SimpleGrid>
        </Container>
      </Box>

      <Container size="lg" py="xl" component="section" aria-labelledby="people-title">
        <SectionHeader id="people-title" titleId="landing.people.title" values={{ product: PRODUCT_NAME }} />
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="lg" data-testid="landing-people">
          <Live
            result={snapshot}
            fallback={Array.from({ length: 8 }, (_, i) => (
              <Skeleton key={i} height={64} radius="md" />
            ))}
          >
            {(data) =>
              data.people.map((p) => (
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
              ))
            }
          </Live>
        </SimpleGrid>
        <Live result={snapshot} fallback={null}>
          {(data) =>
            data.companies > 0 && (
              <Text mt="md" c="var(--tw-muted)">
                <FormattedMessage id="landing.people.companies" values={{ count: data.companies }} />
              </Text>
            )
          }
        </Live>
      </Container>

      <Container size="lg" pb="xl" component="section" aria-labelledby="cities-title">
        <Title id="cities-title" order={2} fz="h3" mb="md">
          <FormattedMessage id="landing.cities.title" />
        </Title>
        <Group gap="xs" data-testid="landing-cities" mih={36}>
          <Live result={snapshot} fallback={null}>
            {(data) =>
              data.cities.map((c) => (
                <LocalButtonLink key={c.name} to={`${paths.search}?city=${encodeURIComponent(c.name)}`} variant="default" radius="xl" size="sm" fw={500}>
                  {c.name} · {number(c.count)}
                </LocalButtonLink>
              ))
            }
          </Live>
        </Group>
      </Container>

      <Container size="lg" py="xl" component="section" aria-labelledby="cards-title">
        <Title id="cards-title" order={2} mb="lg">
          <FormattedMessage id="landing.cards.title" />
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
          {CARDS.map((card) => (
            <Card key={card.title} withBorder padding="lg" component="article" shadow="xs">
              <Text fz="sm" fw={700} c="var(--tw-blue)" tt="uppercase">
                <FormattedMessage id={card.audience} />
              </Text>
              <Title order={3} fz="lg" mt="xs" mb="sm">
                <FormattedMessage id={card.title} />
              </Title>
              <Text fz="sm">
                <FormattedMessage id={card.text} />
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </Container>

      <Box component="section" aria-labelledby="plans-title" bg="var(--tw-surface-muted)" py="xl">
        <Container size="lg">
          <SectionHeader id="plans-title" titleId="landing.plans.title" more={{ to: paths.prices, id: 'landing.plans.compare' }} />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg" data-testid="landing-plans">
            <Live
              result={snapshot}
              fallback={Array.from({ length: 3 }, (_, i) => (
                <Skeleton key={i} height={220} radius="lg" />
              ))}
            >
              {(data) =>
                data.plans.map((plan) => (
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
                ))
              }
            </Live>
          </SimpleGrid>
        </Container>
      </Box>

      <Container size="lg" py="xl" component="section" aria-labelledby="network-title">
        <Card withBorder padding="xl">
          <Title id="network-title" order={2} fz="xl">
            <FormattedMessage id="landing.network.title" />
          </Title>
          <Text mt="sm">
            <FormattedMessage id="landing.network.text" values={{ product: PRODUCT_NAME }} />
          </Text>
          <Group mt="md">
            <LocalButtonLink to={paths.remoteJobs} variant="outline">
              <FormattedMessage id="landing.network.jobs" />
            </LocalButtonLink>
            <LocalButtonLink to={paths.about} variant="subtle">
              <FormattedMessage id="landing.network.about" />
            </LocalButtonLink>
          </Group>
        </Card>
      </Container>
    </>
  );
}

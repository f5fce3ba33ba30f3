import { Box, Card, Container, Group, type MantineRadius, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, startTransition, Suspense, use, useState } from 'react';
import { useAfterFirstPaint } from '@/components/after-first-paint';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { PRODUCT_NAME } from '@/lib/constants';
import type { PageProps } from '@/lib/route-def';
import { type LandingResult, type LandingSnapshot, landingSnapshot } from '../api/landing-snapshot';

type LiveSections = typeof import('../components/live-sections');
/** The snapshot together with the module that draws it; null parts when either could not be loaded. */
type LiveParts = { data: LandingSnapshot; sections: LiveSections } | null;

let sectionsModule: Promise<LiveSections | null> | null = null;

/** Loads the live sections' module once (a failed load, e.g. offline, is tried again on the next visit). */
function loadLiveSections(): Promise<LiveSections | null> {
  sectionsModule ??= import('../components/live-sections').catch(() => {
    sectionsModule = null;
    return null;
  });
  return sectionsModule;
}

/** The snapshot and the live sections' module, requested at the same time (no extra round trip). */
async function liveParts(snapshot: Promise<LandingResult>): Promise<LiveParts> {
  const [result, sections] = await Promise.all([snapshot, loadLiveSections()]);
  return result.ok && sections ? { data: result.data, sections } : null;
}

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

/** Renders a live section drawn by the live sections' module, `fallback` until data and module are there, nothing when either failed. */
function LiveSection({ parts, fallback, children }: { parts: Promise<LiveParts>; fallback: ReactNode; children: (sections: LiveSections, data: LandingSnapshot) => ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      <LiveSectionData parts={parts}>{children}</LiveSectionData>
    </Suspense>
  );
}

function LiveSectionData({ parts, children }: { parts: Promise<LiveParts>; children: (sections: LiveSections, data: LandingSnapshot) => ReactNode }) {
  const loaded = use(parts);
  return loaded ? children(loaded.sections, loaded.data) : null;
}

/** Placeholders of the size of the cards to come, so nothing jumps when they arrive. */
function skeletons(count: number, height: number, radius: MantineRadius) {
  return Array.from({ length: count }, (_, i) => <Skeleton key={i} height={height} radius={radius} />);
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
 * after the first paint with plain fetch and React's `use()` (no supabase-js or query library in the landing bundle; the
 * cards are drawn by components/live-sections, loaded alongside the data): numbers,
 * projects looking for people, upcoming events, people, cities and the plans; the four target
 * groups. Testimonials are left out until there are real ones. Space for the live parts is
 * reserved so nothing jumps when they arrive.
 */
export default function LandingRoute({ locale }: PageProps) {
  // The banner (its paragraph is the largest text: Lighthouse LCP) paints first. Right after that
  // paint, one transition starts the snapshot request (reused for 5 min) and the live sections'
  // module and renders the sections below the fold, which React slices into short tasks; nothing
  // is requested before the first paint (issue 18: data comes after first paint).
  const [live, setLive] = useState<{ snapshot: Promise<LandingResult>; parts: Promise<LiveParts> } | null>(null);
  useAfterFirstPaint(() =>
    startTransition(() => {
      const result = landingSnapshot(Date.now());
      setLive({ snapshot: result, parts: liveParts(result) });
    }),
  );
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
                  {live ? (
                    <Live result={live.snapshot} fallback={<Skeleton height={38} width={80} mt={2} />}>
                      {(data) => number(data.stats[s.key])}
                    </Live>
                  ) : (
                    <Skeleton height={38} width={80} mt={2} />
                  )}
                </Text>
              </Box>
            ))}
          </SimpleGrid>
        </Container>
      </Box>

      {live ? (
        <div className="tw-landing-rest">
          <Suspense fallback={null}>
            <LiveError result={live.snapshot} />
          </Suspense>

          <Container size="lg" py="xl" component="section" aria-labelledby="projects-title">
            <SectionHeader id="projects-title" titleId="landing.projects.title" more={{ to: `${paths.search}?type=projects`, id: 'landing.projects.all' }} />
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" data-testid="landing-projects">
              <LiveSection parts={live.parts} fallback={skeletons(6, 240, 'lg')}>
                {(s, data) => <s.ProjectCards data={data} locale={locale} />}
              </LiveSection>
            </SimpleGrid>
          </Container>

          <Box component="section" aria-labelledby="events-title" bg="var(--tw-surface-muted)" py="xl">
            <Container size="lg">
              <SectionHeader id="events-title" titleId="landing.events.title" more={{ to: paths.events, id: 'landing.events.all' }} />
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg" data-testid="landing-events">
                <LiveSection parts={live.parts} fallback={skeletons(4, 200, 'lg')}>
                  {(s, data) => <s.EventCards data={data} locale={locale} />}
                </LiveSection>
              </SimpleGrid>
            </Container>
          </Box>

          <Container size="lg" py="xl" component="section" aria-labelledby="people-title">
            <SectionHeader id="people-title" titleId="landing.people.title" values={{ product: PRODUCT_NAME }} />
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="lg" data-testid="landing-people">
              <LiveSection parts={live.parts} fallback={skeletons(8, 64, 'md')}>
                {(s, data) => <s.PeopleList data={data} locale={locale} />}
              </LiveSection>
            </SimpleGrid>
            <LiveSection parts={live.parts} fallback={null}>
              {(s, data) => <s.CompaniesNote data={data} locale={locale} />}
            </LiveSection>
          </Container>

          <Container size="lg" pb="xl" component="section" aria-labelledby="cities-title">
            <Title id="cities-title" order={2} fz="h3" mb="md">
              <FormattedMessage id="landing.cities.title" />
            </Title>
            <Group gap="xs" data-testid="landing-cities" mih={36}>
              <LiveSection parts={live.parts} fallback={null}>
                {(s, data) => <s.CityLinks data={data} locale={locale} />}
              </LiveSection>
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
                <LiveSection parts={live.parts} fallback={skeletons(3, 220, 'lg')}>
                  {(s, data) => <s.PlanCards data={data} locale={locale} />}
                </LiveSection>
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
        </div>
      ) : (
        // holds the place of the sections below the fold until they render, so the footer never jumps into view
        <Box mih="100vh" aria-hidden />
      )}
    </>
  );
}

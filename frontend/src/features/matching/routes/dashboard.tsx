import { Avatar, Badge, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { LoadError, LoadingState } from '@/components/query-state';
import { useLocalizedPath } from '@/components/use-locale';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { myContactsQuery } from '@/features/contacts';
import { useOwnProfile } from '@/lib/own-profile';
import { HomeDashboard } from '../components/home-dashboard';
import type { PageProps } from '@/lib/route-def';
import { publicAvatarUrl } from '@/lib/public-api';
import { matchProfileCompleteness } from '../api/completeness';
import { FIELD_IDS } from '../api/message-ids';
import { ownMatchProfileQuery } from '../api/get-match-profiles';
import type { MatchProfileRow } from '../api/match-profile';
import { dashboardMatchesQuery, projectMatchesQuery } from '../api/matches';
import { myProjectsWithOpenRolesQuery } from '../api/open-roles';
import { commitmentId, roleId } from '../components/labels';
import { MatchErrorNotice, MatchResults } from '../components/match-results';
import { ReasonList } from '../components/reason-list';
import { MatchProfileEditor } from '../components/match-profile-editor';
import { TeamGap } from '../components/team-gap';

/** Plans with contacts (spec §6). */
const PAID = new Set(['basic', 'premium', 'enterprise', 'admin']);

function Section({ titleId, testId, children, more }: { titleId: string; testId: string; children: ReactNode; more?: ReactNode }) {
  return (
    <Card withBorder shadow="xs" padding="lg" component="section" data-testid={testId}>
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4">
          <FormattedMessage id={titleId} />
        </Title>
        {more}
      </Group>
      {children}
    </Card>
  );
}

/** Matching profile completeness with the next most useful field (issue 19). */
function CompletenessSection({ profile }: { profile: MatchProfileRow | null }) {
  const intl = useIntl();
  const c = matchProfileCompleteness(profile);
  return (
    <Section titleId="matching.dashboard.completeness" testId="dashboard-completeness">
      <Stack gap="xs">
        <Text fw={600}>
          <FormattedMessage id="matching.completeness" values={{ percent: c.percent }} />
        </Text>
        <Progress value={c.percent} aria-label={intl.formatMessage({ id: 'matching.completenessLabel' })} />
        {c.next && (
          <Text fz="sm">
            <FormattedMessage id="matching.nextField" values={{ field: intl.formatMessage({ id: FIELD_IDS[c.next]! }) }} />
          </Text>
        )}
        <LocalLink to={`${paths.user.settings}#matching`} fz="sm" fw={600}>
          <FormattedMessage id="matching.dashboard.editProfile" /> →
        </LocalLink>
      </Stack>
    </Section>
  );
}

/** The caller's best matches (first page of match_people). */
function MatchesSection({ hasProfile }: { hasProfile: boolean }) {
  const matches = useQuery({ ...dashboardMatchesQuery(), enabled: hasProfile });
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  return (
    <Section
      titleId="matching.dashboard.matches"
      testId="dashboard-matches"
      more={
        <LocalLink to={paths.matches} fz="sm" fw={600}>
          <FormattedMessage id="matching.dashboard.allMatches" /> →
        </LocalLink>
      }
    >
      {!hasProfile && <MatchErrorNotice error={new Error('match_profile_missing')} />}
      {hasProfile && matches.isPending && <LoadingState messageId="matching.loading" compact />}
      {matches.isError && <MatchErrorNotice error={matches.error} />}
      {matches.data && (
        <MatchResults page={matches.data} items={matches.data.items} hidden={hidden} onDeclined={(id) => setHidden((h) => new Set([...h, id]))} />
      )}
    </Section>
  );
}

/** Contact requests waiting for the caller (issue 13's list, first page). */
function RequestsSection({ paid }: { paid: boolean }) {
  const localize = useLocalizedPath();
  const requests = useQuery({ ...myContactsQuery('received', '', 1), enabled: paid });
  return (
    <Section
      titleId="matching.dashboard.requests"
      testId="dashboard-requests"
      more={
        <LocalLink to={paths.user.contacts} fz="sm" fw={600}>
          <FormattedMessage id="matching.dashboard.allRequests" /> →
        </LocalLink>
      }
    >
      {!paid && (
        <Text fz="sm" c="var(--tw-muted)">
          <FormattedMessage id="matching.dashboard.requestsNeedPlan" />
        </Text>
      )}
      {paid && requests.isPending && <LoadingState messageId="matching.loading" compact />}
      {requests.isError && <LoadError messageId="matching.error.generic" onRetry={() => void requests.refetch()} />}
      {requests.data && requests.data.rows.length === 0 && (
        <Text fz="sm" c="var(--tw-muted)">
          <FormattedMessage id="matching.dashboard.noRequests" />
        </Text>
      )}
      <Stack gap="xs">
        {requests.data?.rows.slice(0, 5).map((r) => (
          <Group key={r.contact_id} gap="sm" wrap="nowrap">
            <Avatar src={publicAvatarUrl(r.profile_img)} name={r.display_name} alt="" radius="xl" color="brand" size={32} />
            <div style={{ minWidth: 0 }}>
              <Text component={Link} to={localize(paths.profile(r.slug))} fw={600} fz="sm">
                {r.display_name}
              </Text>
              {r.message && (
                <Text fz="sm" c="var(--tw-muted)" lineClamp={2}>
                  {r.message}
                </Text>
              )}
            </div>
          </Group>
        ))}
      </Stack>
    </Section>
  );
}

/** The caller's projects with unfilled open roles and the people who would fill them. */
function OpenRolesSection({ userId }: { userId: string }) {
  const projects = useQuery(myProjectsWithOpenRolesQuery(userId));
  return (
    <Section titleId="matching.dashboard.openRoles" testId="dashboard-open-roles">
      {projects.isPending && <LoadingState messageId="matching.loading" compact />}
      {projects.isError && <LoadError messageId="matching.error.generic" onRetry={() => void projects.refetch()} />}
      {projects.data && projects.data.length === 0 && (
        <Stack gap="xs" align="flex-start">
          <Text fz="sm" c="var(--tw-muted)">
            <FormattedMessage id="matching.dashboard.noOpenRoles" />
          </Text>
          <LocalLink to={paths.user.projects} fz="sm">
            <FormattedMessage id="matching.dashboard.toProjects" /> →
          </LocalLink>
        </Stack>
      )}
      <Stack>
        {projects.data?.map((p) => (
          <Stack key={p.id} gap="xs">
            <TeamGap projectId={p.id} title={p.title} />
            <LocalLink to={paths.user.project(p.id)} fz="sm">
              <FormattedMessage id="matching.dashboard.editRoles" /> →
            </LocalLink>
          </Stack>
        ))}
      </Stack>
    </Section>
  );
}

/** Open roles of other projects that fit the caller (match_projects). */
function ProjectsForMeSection({ hasProfile }: { hasProfile: boolean }) {
  const intl = useIntl();
  const localize = useLocalizedPath();
  const projects = useQuery({ ...projectMatchesQuery(), enabled: hasProfile });
  if (projects.isError || projects.isPending) return null;
  const data = projects.data;
  return (
    <Section titleId="matching.dashboard.projectsForMe" testId="dashboard-projects-for-me">
      {data.plan === 'free' ? (
        <Text fz="sm">
          <FormattedMessage id="matching.projects.freeCount" values={{ count: data.count }} />
        </Text>
      ) : data.items.length === 0 ? (
        <Text fz="sm" c="var(--tw-muted)">
          <FormattedMessage id="matching.projects.empty" />
        </Text>
      ) : (
        <Stack>
          {data.items.map((p) => (
            <Stack key={p.role_id} gap={4}>
              <Group justify="space-between" wrap="nowrap">
                <Text component={Link} to={localize(paths.project(p.project_id, p.slug))} fw={600}>
                  {p.title}
                </Text>
                <Badge variant="light" color="var(--tw-blue)">
                  <FormattedMessage id="matching.score" values={{ score: p.score }} />
                </Badge>
              </Group>
              <Text fz="sm" c="var(--tw-muted)">
                {[
                  p.role_title,
                  intl.formatMessage({ id: roleId(p.role) }),
                  p.commitment ? intl.formatMessage({ id: commitmentId(p.commitment) }) : null,
                  p.city,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
              <ReasonList reasons={p.reasons} kind="fit" />
            </Stack>
          ))}
        </Stack>
      )}
    </Section>
  );
}

/**
 * /dashboard, the signed-in matching home (issue 19 "Screens", spec §2): my matches (cards with
 * score, reasons, Connect, Not interested), requests waiting for me, my projects' open roles with
 * suggested people, projects that need me, the matching profile's completeness, and (issue 18's
 * signed-in home) unread messages and the upcoming events I attend. Free users
 * see how many matches they would have and the way to a plan; Basic users their weekly quota.
 */
export default function DashboardRoute({ locale }: PageProps) {
  const me = useSession().user?.id;
  const account = useOwnProfile();
  const profile = useQuery(ownMatchProfileQuery());
  if (profile.isPending || account.isPending) return <LoadingState messageId="matching.loading" />;
  if (profile.isError) return <LoadError messageId="matching.error.generic" onRetry={() => void profile.refetch()} />;
  const hasProfile = profile.data !== null;
  const paid = PAID.has(account.data?.user_role ?? 'free');
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>
          <FormattedMessage id="page.dashboard.title" />
        </Title>
        <LocalButtonLink to={`${paths.user.settings}#matching`} variant="default" size="xs">
          <FormattedMessage id="matching.dashboard.editProfile" />
        </LocalButtonLink>
      </Group>
      {hasProfile ? (
        <MatchesSection hasProfile />
      ) : (
        // no matching profile yet: fill it in right here (free users too, who have no /user/settings; spec §6)
        <Section titleId="matching.dashboard.createProfile" testId="dashboard-create-profile">
          <MatchProfileEditor plan={account.data?.user_role ?? 'free'} />
        </Section>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <RequestsSection paid={paid} />
        <CompletenessSection profile={profile.data} />
      </SimpleGrid>
      {me && <HomeDashboard userId={me} paid={paid} locale={locale} withRequests={false} />}
      {me && <OpenRolesSection userId={me} />}
      <ProjectsForMeSection hasProfile={hasProfile} />
    </Stack>
  );
}

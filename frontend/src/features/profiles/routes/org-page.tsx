import { Anchor, Avatar, Badge, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTrackView } from '@/lib/track';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { RichText } from '@/components/rich-text';
import { useLocation } from 'react-router';
import { ContentCard } from '@/components/content-card';
import { EmptyState } from '@/components/empty-state';
import { LocalButtonLink } from '@/components/local-link';
import { LoadError, LoadingState } from '@/components/query-state';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { JobCard } from '@/features/jobs';
import { CATEGORY_LABEL } from '@/lib/categories';
import { formatDate } from '@/lib/format';
import { unmatchedRouteError } from '@/lib/navigation-error';
import type { PageProps } from '@/lib/route-def';
import { publicAvatarUrl } from '@/lib/public-api';
import { safeHref } from '@site/url';
import {
  descriptionFor,
  type MyOrganization,
  myOrganizationsQuery,
  organizationContentQuery,
  organizationLogoUrl,
  organizationQuery,
  publicMembersQuery,
  ROLE_LABEL,
  SIZE_LABEL,
} from '@/features/organizations';

/** A titled section of the organisation page. */
function Section({ titleId, testId, children }: { titleId: string; testId: string; children: ReactNode }) {
  return (
    <Stack component="section" gap="xs" data-testid={testId}>
      <Title order={2} fz="h3">
        <FormattedMessage id={titleId} />
      </Title>
      {children}
    </Stack>
  );
}

const GRID = { component: 'ul', cols: { base: 1, sm: 2 }, p: 0, m: 0, style: { listStyle: 'none' } } as const;

/**
 * `/org/{slug}` (and `/de/org/{slug}`): the public page of an organisation (issue 15): logo, name,
 * description in the page's language, website, industry, size, display address, the members who
 * agreed to be listed, and its projects, jobs and events in the shared card design. Unknown slug →
 * 404 inside the layout. Members see "Post a job"; owners and admins also a link to the settings.
 */
export default function OrganizationPageRoute({ params, locale }: PageProps) {
  const intl = useIntl();
  const { pathname } = useLocation();
  const slug = params.slug ?? '';
  const org = useQuery(organizationQuery(slug));
  // a view of the organisation page, counted only with statistics consent (issue 15 analytics)
  useTrackView('organization', org.data?.id);
  const members = useQuery({ ...publicMembersQuery(slug), enabled: !!org.data });
  const content = useQuery({ ...organizationContentQuery(org.data?.id ?? ''), enabled: !!org.data });
  const userId = useSession().user?.id;
  const mine = useQuery({ ...myOrganizationsQuery(userId ?? ''), enabled: !!userId });

  if (org.isPending) {
    return (
      <Container size="md" py="xl">
        <LoadingState messageId="org.loading" />
      </Container>
    );
  }
  if (org.isError) {
    return (
      <Container size="md" py="xl">
        <LoadError messageId="org.loadFailed" onRetry={() => void org.refetch()} />
      </Container>
    );
  }
  const o = org.data;
  if (!o) throw unmatchedRouteError(pathname);
  const myRole = mine.data?.find((m: MyOrganization) => m.id === o.id)?.role;
  const website = safeHref(o.website);
  const description = descriptionFor(o, locale);
  const logo = organizationLogoUrl(o.logo_path);
  const owner = { name: o.name, img: null };
  const c = content.data;
  const nothingPublished = !!c && c.projects.length + c.jobs.length + c.events.length === 0;

  return (
    <Container size="md" py="xl">
      <Stack gap="lg" data-testid="org-page">
        <Group align="flex-start" wrap="nowrap" gap="md">
          <Avatar src={logo} alt="" size={88} radius="md" color="brand">
            {o.name.slice(0, 2).toUpperCase()}
          </Avatar>
          <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
            <Title order={1} data-testid="org-name">
              {o.name}
            </Title>
            <Group gap="xs">
              {o.industry && <Badge variant="light">{o.industry}</Badge>}
              {o.size && (
                <Badge variant="outline">
                  <FormattedMessage id={SIZE_LABEL[o.size] ?? 'org.size.unknown'} />
                </Badge>
              )}
            </Group>
            {o.display_address && <Text c="var(--tw-muted)">{o.display_address}</Text>}
            {website && (
              <Anchor href={website} target="_blank" rel="noopener noreferrer nofollow" data-testid="org-website">
                {o.website}
              </Anchor>
            )}
          </Stack>
          {myRole && (
            <Stack gap="xs" align="flex-end">
              {(myRole === 'owner' || myRole === 'admin') && (
                <>
                  <LocalButtonLink to={paths.org.settings(o.slug)} variant="light" data-testid="org-settings-link">
                    <FormattedMessage id="org.settings.link" />
                  </LocalButtonLink>
                  <LocalButtonLink to={paths.org.analytics(o.slug)} variant="default" data-testid="org-analytics-link">
                    <FormattedMessage id="org.page.analytics" />
                  </LocalButtonLink>
                  <LocalButtonLink to={paths.org.api(o.slug)} variant="default" data-testid="org-api-link">
                    <FormattedMessage id="org.page.api" />
                  </LocalButtonLink>
                </>
              )}
              <LocalButtonLink to={paths.user.createJob} variant="default" data-testid="org-post-job">
                <FormattedMessage id="org.mine.postJob" />
              </LocalButtonLink>
            </Stack>
          )}
        </Group>
        {description && (
          <RichText text={description} testId="org-description" />
        )}

        <Section titleId="org.members.title" testId="org-members">
          {members.isPending ? (
            <LoadingState messageId="org.loading" compact />
          ) : members.isError ? (
            <LoadError messageId="org.loadFailed" onRetry={() => void members.refetch()} />
          ) : members.data.length === 0 ? (
            <EmptyState compact>
              <FormattedMessage id="org.members.empty" />
            </EmptyState>
          ) : (
            <SimpleGrid {...GRID}>
              {members.data.map((m) => (
                <li key={m.user_id}>
                  <ContentCard
                    to={m.slug ? paths.profile(m.slug) : null}
                    heading="h3"
                    title={m.display_name ?? ''}
                    kicker={<FormattedMessage id={ROLE_LABEL[m.role] ?? 'org.role.member'} />}
                    summary={m.headline}
                    owner={{ name: m.display_name, img: m.profile_img ? (publicAvatarUrl(m.profile_img) ?? null) : null }}
                    action={<FormattedMessage id="org.members.action" />}
                  />
                </li>
              ))}
            </SimpleGrid>
          )}
        </Section>

        {content.isError ? (
          <LoadError messageId="org.loadFailed" onRetry={() => void content.refetch()} />
        ) : content.isPending || !c ? (
          <LoadingState messageId="org.loading" compact />
        ) : nothingPublished ? (
          <EmptyState compact testId="org-content-empty">
            <FormattedMessage id="org.content.empty" />
          </EmptyState>
        ) : (
          <>
            {c.projects.length > 0 && (
              <Section titleId="org.projects.title" testId="org-projects">
                <SimpleGrid {...GRID}>
                  {c.projects.map((p) => (
                    <li key={p.id}>
                      <ContentCard
                        to={paths.project(p.id, p.slug)}
                        heading="h3"
                        title={p.title}
                        kicker={p.category ? intl.formatMessage({ id: CATEGORY_LABEL[p.category] ?? 'search.category.other' }) : undefined}
                        meta={p.city}
                        summary={p.summary}
                        owner={owner}
                        action={<FormattedMessage id="landing.projects.action" />}
                      />
                    </li>
                  ))}
                </SimpleGrid>
              </Section>
            )}
            {c.jobs.length > 0 && (
              <Section titleId="org.jobs.title" testId="org-jobs">
                <SimpleGrid {...GRID}>
                  {c.jobs.map((j) => (
                    <JobCard key={j.id} job={j as Parameters<typeof JobCard>[0]['job']} locale={locale} />
                  ))}
                </SimpleGrid>
              </Section>
            )}
            {c.events.length > 0 && (
              <Section titleId="org.events.title" testId="org-events">
                <SimpleGrid {...GRID}>
                  {c.events.map((e) => (
                    <li key={e.id}>
                      <ContentCard
                        to={paths.event(e.slug)}
                        heading="h3"
                        title={e.title}
                        kicker={e.category ? intl.formatMessage({ id: CATEGORY_LABEL[e.category] ?? 'search.category.other' }) : undefined}
                        meta={[formatDate(e.starts_at, locale), e.is_online ? intl.formatMessage({ id: 'org.events.online' }) : e.city].filter(Boolean).join(' · ')}
                        summary={e.summary}
                        owner={owner}
                        action={<FormattedMessage id="org.events.action" />}
                      />
                    </li>
                  ))}
                </SimpleGrid>
              </Section>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}

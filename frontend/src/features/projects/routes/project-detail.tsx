import { Alert, Badge, Button, Card, Center, Container, Group, Image, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Suspense } from 'react';
import { lazyChunk } from '@/lib/load-chunk';
import { FormattedMessage, useIntl } from 'react-intl';
import { RichText } from '@/components/rich-text';
import { Navigate, useLocation } from 'react-router';
import { LocalLink } from '@/components/local-link';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { isHttpsUrl } from '@site/url';
import { unmatchedRouteError } from '@/lib/navigation-error';
import type { PageProps } from '@/lib/route-def';
import { usePublicProject } from '../api/get-projects';
import { STAGE_LABEL } from '../api/project-schema';
import { CATEGORY_LABEL, PRIVATE_CATEGORY_LABEL } from '@/lib/categories';
import { OrganizationByline } from '@/features/organizations';
import { FavouriteProjectButton } from '../components/favourite-button';
import { useSession } from '@/lib/session';
import { trackItem, useTrackView } from '@/lib/track';

// "Connect" with the owner (issue 13) loads with supabase-js, only for signed-in visitors.
const ConnectButton = lazyChunk(() => import('@/features/contacts').then((m) => ({ default: m.ConnectButton })));

/**
 * `/{id}-{slug}`: public project page (spec §2). Unknown ids, drafts of others and projects of
 * blocked users are not returned by RLS → 404 inside the layout; a wrong slug redirects to the
 * canonical one.
 */
export default function ProjectDetailRoute({ params, locale }: PageProps) {
  const intl = useIntl();
  const { pathname } = useLocation();
  const localize = useLocalizedPath();
  const id = Number(params.id);
  const query = usePublicProject(id);
  const signedIn = useSession().status !== 'signed-out';
  useTrackView('project', query.data?.id);

  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={intl.formatMessage({ id: 'projects.loading' })} />
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Container size="md" py="xl">
        <Alert color="red" role="alert">
          <Group justify="space-between">
            <FormattedMessage id="projects.loadFailed" />
            <Button size="xs" variant="light" onClick={() => query.refetch()}>
              <FormattedMessage id="common.retry" />
            </Button>
          </Group>
        </Alert>
      </Container>
    );
  }
  const project = query.data;
  if (!project) throw unmatchedRouteError(pathname);
  if (project.slug !== params.slug) return <Navigate to={localize(paths.project(project.id, project.slug))} replace />;

  const category = project.is_private
    ? project.private_category && PRIVATE_CATEGORY_LABEL[project.private_category]
    : project.category && CATEGORY_LABEL[project.category];
  const owner = project.owner;

  return (
    <Container size="md" py="xl">
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Title order={1}>{project.title}</Title>
            <OrganizationByline organization={project.organization} />
            {project.published_at && (
              <Text size="sm" c="dimmed">
                <FormattedMessage id="projects.detail.publishedOn" values={{ date: formatDate(project.published_at, locale) }} />
              </Text>
            )}
          </Stack>
          <Stack gap="xs" align="flex-end">
            <FavouriteProjectButton projectId={project.id} />
          </Stack>
        </Group>
        <Group gap="xs">
          {category && (
            <Badge variant="light">
              <FormattedMessage id={category} />
            </Badge>
          )}
          {project.is_private && (
            <Badge variant="outline" color="grape">
              <FormattedMessage id="projects.kind.private" />
            </Badge>
          )}
          <Badge variant="outline">
            <FormattedMessage id={STAGE_LABEL[project.stage]} />
          </Badge>
          {project.city && (
            <Badge variant="outline" color="gray">
              {project.city}
            </Badge>
          )}
        </Group>
        {project.summary && (
          <Text size="lg" data-testid="project-summary">
            {project.summary}
          </Text>
        )}
        {project.images.some(isHttpsUrl) && (
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {project.images
              .filter(isHttpsUrl)
              .map((src, i) => (
                <Image key={src} src={src} radius="sm" alt={intl.formatMessage({ id: 'projects.detail.imageAlt' }, { title: project.title, n: i + 1 })} />
              ))}
          </SimpleGrid>
        )}
        {project.description && <RichText text={project.description} testId="project-description" onLinkClick={() => trackItem('project', project.id, 'external_link_click')} />}
        {project.roles_sought.length > 0 && (
          <Stack gap="xs">
            <Title order={2} size="h4">
              <FormattedMessage id="projects.detail.roles" />
            </Title>
            <Group gap="xs">
              {project.roles_sought.map((role) => (
                <Badge key={role} variant="dot">
                  {role}
                </Badge>
              ))}
            </Group>
          </Stack>
        )}
        <Card withBorder data-testid="owner-card">
          <Title order={2} size="h4" mb="xs">
            <FormattedMessage id="projects.detail.owner" />
          </Title>
          {owner ? (
            <Stack gap={2}>
              <LocalLink to={paths.profile(owner.slug)} fw={600}>
                {`${owner.firstname} ${owner.lastname}`.trim() || owner.slug}
              </LocalLink>
              {owner.headline && <Text size="sm">{owner.headline}</Text>}
              {owner.city && (
                <Text size="sm" c="dimmed">
                  {owner.city}
                </Text>
              )}
              {signedIn && (
                <Suspense fallback={null}>
                  <ConnectButton
                    userId={project.owner_id}
                    name={`${owner.firstname} ${owner.lastname}`.trim() || owner.slug}
                    size="xs"
                    analyticsItem={{ type: 'project', id: project.id }}
                  />
                </Suspense>
              )}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              <FormattedMessage id="projects.detail.ownerHidden" />
            </Text>
          )}
        </Card>
      </Stack>
    </Container>
  );
}

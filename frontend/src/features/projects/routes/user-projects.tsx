import { Button, SimpleGrid, Stack } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { CardBadge, ContentCard } from '@/components/content-card';
import { EmptyState } from '@/components/empty-state';
import { ListPagination } from '@/components/list-pagination';
import { LocalButtonLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { CATEGORY_LABEL } from '@/lib/categories';
import { formatDate } from '@/lib/format';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { limitReached, MY_PROJECTS_PAGE_SIZE, useMyProjects } from '../api/get-projects';
import { NEW_DRAFT_TOKEN, type ProjectRow, STATUS_LABEL } from '../api/project-schema';
import { isPlanLimitError, useProjectMutations } from '../api/save-project';
import { ProjectLimitNotice } from '../components/plan-limit-notice';

/**
 * `/user/projects`: my projects with status, publish/unpublish/delete and the plan limit (spec §2,
 * §5). Drafts do not count towards the limit; at the limit "New project" is disabled and the
 * notice says "3 of 3" with the upgrade link, before any wizard starts (issue 33 §5).
 */
export default function UserProjectsRoute({ locale }: PageProps) {
  const intl = useIntl();
  const [page, setPage] = useState(1);
  const { user, status: sessionStatus } = useSession();
  const userId = user?.id;
  const query = useMyProjects(userId, page);
  const { setStatus, remove } = useProjectMutations();
  const [toDelete, setToDelete] = useState<ProjectRow | null>(null);
  const [toUnpublish, setToUnpublish] = useState<ProjectRow | null>(null);

  const fail = (error?: unknown) =>
    notify('error', intl.formatMessage({ id: isPlanLimitError(error) ? 'projects.limit.publishRefused' : 'projects.saveFailed' }, { limit: query.data?.limit ?? 0 }));
  const publish = (row: ProjectRow) =>
    setStatus.mutate({ id: row.id, status: 'published' }, { onSuccess: () => notify('success', intl.formatMessage({ id: 'projects.published' })), onError: fail });

  const data = query.data;
  const reached = data ? limitReached(data) : false;

  return (
    <Stack>
      <PageHeader
        title={<FormattedMessage id="page.user-projects.title" />}
        description={<FormattedMessage id="projects.intro" />}
        action={
          reached ? (
            <Button disabled data-testid="new-project" aria-describedby="project-limit-explained">
              <FormattedMessage id="projects.new" />
            </Button>
          ) : (
            <LocalButtonLink to={paths.user.createProject(NEW_DRAFT_TOKEN)} data-testid="new-project">
              <FormattedMessage id="projects.new" />
            </LocalButtonLink>
          )
        }
      />
      {data && data.limit !== null && (
        <div id="project-limit-explained">
          <ProjectLimitNotice used={data.used} limit={data.limit} reached={reached} />
        </div>
      )}
      {(query.isPending || sessionStatus === 'restoring') && <LoadingState messageId="projects.loading" />}
      {query.isError && <LoadError messageId="projects.loadFailed" onRetry={() => void query.refetch()} />}
      {data && data.rows.length === 0 && (
        <EmptyState
          testId="projects-empty"
          title={<FormattedMessage id="projects.emptyTitle" />}
          action={
            <LocalButtonLink to={paths.user.createProject(NEW_DRAFT_TOKEN)} variant="light">
              <FormattedMessage id="projects.emptyAction" />
            </LocalButtonLink>
          }
        >
          <FormattedMessage id="projects.empty" />
        </EmptyState>
      )}
      {data && data.rows.length > 0 && (
        <SimpleGrid component="ul" cols={{ base: 1, sm: 2 }} p={0} m={0} style={{ listStyle: 'none' }} aria-label={intl.formatMessage({ id: 'page.user-projects.title' })}>
          {data.rows.map((row) => (
            <li key={row.id} data-testid="my-project">
              <ContentCard
                to={paths.user.project(row.id)}
                heading="h2"
                title={row.title}
                kicker={row.category && CATEGORY_LABEL[row.category] ? <FormattedMessage id={CATEGORY_LABEL[row.category]} /> : undefined}
                meta={[row.city, intl.formatMessage({ id: 'projects.createdOn' }, { date: formatDate(row.created_at, locale) })].filter(Boolean).join(' · ')}
                summary={row.summary}
                badge={
                  <CardBadge tone={row.status === 'published' ? 'teal' : 'gray'}>
                    <FormattedMessage id={STATUS_LABEL[row.status]} />
                  </CardBadge>
                }
                action={<FormattedMessage id="projects.edit" />}
                extra={
                  <>
                    {row.status === 'published' && (
                      <LocalButtonLink to={paths.project(row.id, row.slug)} size="xs" variant="default">
                        <FormattedMessage id="projects.view" />
                      </LocalButtonLink>
                    )}
                    {row.status === 'published' ? (
                      <Button size="xs" variant="default" onClick={() => setToUnpublish(row)}>
                        <FormattedMessage id="projects.unpublish" />
                      </Button>
                    ) : (
                      <Button size="xs" variant="light" loading={setStatus.isPending && setStatus.variables?.id === row.id} onClick={() => publish(row)}>
                        <FormattedMessage id="projects.publish" />
                      </Button>
                    )}
                    <Button size="xs" variant="outline" color="var(--tw-red)" onClick={() => setToDelete(row)}>
                      <FormattedMessage id="projects.delete" />
                    </Button>
                  </>
                }
              />
            </li>
          ))}
        </SimpleGrid>
      )}
      {data && <ListPagination total={data.total} pageSize={MY_PROJECTS_PAGE_SIZE} page={page} onChange={setPage} />}
      <ConfirmDialog
        opened={toDelete !== null}
        title={<FormattedMessage id="projects.deleteConfirmTitle" />}
        message={<FormattedMessage id="projects.deleteConfirm" values={{ title: toDelete?.title ?? '' }} />}
        confirmLabel={<FormattedMessage id="projects.delete" />}
        loading={remove.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() =>
          remove.mutate(toDelete!.id, {
            onSuccess: () => {
              setToDelete(null);
              notify('success', intl.formatMessage({ id: 'projects.deleted' }));
            },
            onError: fail,
          })
        }
      />
      <ConfirmDialog
        opened={toUnpublish !== null}
        title={<FormattedMessage id="projects.unpublishConfirmTitle" />}
        message={<FormattedMessage id="projects.unpublishConfirm" values={{ title: toUnpublish?.title ?? '' }} />}
        confirmLabel={<FormattedMessage id="projects.unpublish" />}
        loading={setStatus.isPending}
        onClose={() => setToUnpublish(null)}
        onConfirm={() =>
          setStatus.mutate(
            { id: toUnpublish!.id, status: 'draft' },
            {
              onSuccess: () => {
                setToUnpublish(null);
                notify('success', intl.formatMessage({ id: 'projects.unpublished' }));
              },
              onError: fail,
            },
          )
        }
      />
    </Stack>
  );
}

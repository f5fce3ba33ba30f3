import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ListPagination } from '@/components/list-pagination';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { LoadError, LoadingState } from '@/components/query-state';
import { useUserId } from '@/components/use-user-id';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { MY_PROJECTS_PAGE_SIZE, useMyProjects } from '../api/get-projects';
import { NEW_DRAFT_TOKEN, type ProjectRow, STATUS_LABEL } from '../api/project-schema';
import { useProjectMutations } from '../api/save-project';
import { ProjectLimitNotice } from '../components/plan-limit-notice';

/** `/user/projects`: my projects with status, publish/unpublish/delete and the plan limit (spec §2, §5). */
export default function UserProjectsRoute({ locale }: PageProps) {
  const intl = useIntl();
  const [page, setPage] = useState(1);
  const userId = useUserId();
  const query = useMyProjects(userId.data, page);
  const { setStatus, remove } = useProjectMutations();
  const [toDelete, setToDelete] = useState<ProjectRow | null>(null);
  const [toUnpublish, setToUnpublish] = useState<ProjectRow | null>(null);

  const fail = () => notify('error', intl.formatMessage({ id: 'projects.saveFailed' }));
  const publish = (row: ProjectRow) =>
    setStatus.mutate({ id: row.id, status: 'published' }, { onSuccess: () => notify('success', intl.formatMessage({ id: 'projects.published' })), onError: fail });

  const data = query.data;
  const reached = data?.limit != null && data.total >= data.limit;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>
          <FormattedMessage id="page.user-projects.title" />
        </Title>
        <LocalButtonLink to={paths.user.createProject(NEW_DRAFT_TOKEN)} data-testid="new-project">
          <FormattedMessage id="projects.new" />
        </LocalButtonLink>
      </Group>
      {data && data.limit !== null && <ProjectLimitNotice used={data.total} limit={data.limit} reached={reached} />}
      {(query.isPending || userId.isPending) && <LoadingState messageId="projects.loading" />}
      {query.isError && <LoadError messageId="projects.loadFailed" onRetry={() => void query.refetch()} />}
      {data && data.rows.length === 0 && (
        <Text c="dimmed" data-testid="projects-empty">
          <FormattedMessage id="projects.empty" />
        </Text>
      )}
      {data && data.rows.length > 0 && (
        <Stack component="ul" gap="sm" p={0} style={{ listStyle: 'none' }} aria-label={intl.formatMessage({ id: 'page.user-projects.title' })}>
          {data.rows.map((row) => (
            <Card component="li" key={row.id} withBorder data-testid="my-project">
              <Group justify="space-between" wrap="wrap">
                <Stack gap={2}>
                  <Group gap="xs">
                    <Text fw={600}>{row.title}</Text>
                    <Badge color={row.status === 'published' ? 'green' : 'gray'} variant="dot">
                      <FormattedMessage id={STATUS_LABEL[row.status]} />
                    </Badge>
                  </Group>
                  <Text size="xs" c="dimmed">
                    <FormattedMessage id="projects.createdOn" values={{ date: formatDate(row.created_at, locale) }} />
                  </Text>
                </Stack>
                <Group gap="xs">
                  {row.status === 'published' && (
                    <LocalLink to={paths.project(row.id, row.slug)} size="sm">
                      <FormattedMessage id="projects.view" />
                    </LocalLink>
                  )}
                  <LocalButtonLink to={paths.user.project(row.id)} size="xs" variant="default">
                    <FormattedMessage id="projects.edit" />
                  </LocalButtonLink>
                  {row.status === 'published' ? (
                    <Button size="xs" variant="default" onClick={() => setToUnpublish(row)}>
                      <FormattedMessage id="projects.unpublish" />
                    </Button>
                  ) : (
                    <Button size="xs" variant="light" loading={setStatus.isPending && setStatus.variables?.id === row.id} onClick={() => publish(row)}>
                      <FormattedMessage id="projects.publish" />
                    </Button>
                  )}
                  <Button size="xs" color="red" variant="light" onClick={() => setToDelete(row)}>
                    <FormattedMessage id="projects.delete" />
                  </Button>
                </Group>
              </Group>
            </Card>
          ))}
        </Stack>
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

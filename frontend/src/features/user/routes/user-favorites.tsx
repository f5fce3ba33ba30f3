import { Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalLink } from '@/components/local-link';
import { useUserId } from '@/components/use-user-id';
import { paths } from '@/config/paths';
import { useFavouriteJobs, useFavouriteProjects, useRemoveFavourite } from '@/features/favorites/api/get-favorites';
import { FavouriteList } from '@/features/favorites/components/favourite-list';
import { notify } from '@/lib/notify';

/** `/user/favorites`: favourite projects and jobs with remove and empty states (spec §2, §3). */
export default function UserFavoritesRoute() {
  const intl = useIntl();
  const userId = useUserId();
  const [projectPage, setProjectPage] = useState(1);
  const [jobPage, setJobPage] = useState(1);
  const projects = useFavouriteProjects(userId.data, projectPage);
  const jobs = useFavouriteJobs(userId.data, jobPage);
  const remove = useRemoveFavourite(userId.data);
  const removeItem = (item: { kind: 'project'; id: number } | { kind: 'job'; id: string }) =>
    remove.mutate(item, {
      onSuccess: () => notify('success', intl.formatMessage({ id: 'favorites.removed' })),
      onError: () => notify('error', intl.formatMessage({ id: 'favorites.removeFailed' })),
    });
  const removing = (kind: string, id: string | number) => remove.isPending && remove.variables?.kind === kind && remove.variables.id === id;

  return (
    <Stack>
      <Title order={1}>
        <FormattedMessage id="page.user-favorites.title" />
      </Title>
      <Title order={2} size="h3">
        <FormattedMessage id="favorites.projects" />
      </Title>
      <FavouriteList
        label={intl.formatMessage({ id: 'favorites.projects' })}
        testId="favourite-project-item"
        emptyId="favorites.projectsEmpty"
        isPending={userId.isPending || (!!userId.data && projects.isPending)}
        isError={projects.isError}
        onRetry={() => projects.refetch()}
        total={projects.data?.total ?? 0}
        page={projectPage}
        onPage={setProjectPage}
        entries={(projects.data?.rows ?? []).map((row) => ({
          key: String(row.project_id),
          removing: removing('project', row.project_id),
          onRemove: () => removeItem({ kind: 'project', id: row.project_id }),
          content: row.project ? (
            <LocalLink to={paths.project(row.project.id, row.project.slug)} fw={600}>
              {row.project.title}
            </LocalLink>
          ) : (
            <Text c="dimmed">
              <FormattedMessage id="favorites.unavailable" />
            </Text>
          ),
        }))}
      />
      <Title order={2} size="h3">
        <FormattedMessage id="favorites.jobs" />
      </Title>
      <FavouriteList
        label={intl.formatMessage({ id: 'favorites.jobs' })}
        testId="favourite-job-item"
        emptyId="favorites.jobsEmpty"
        isPending={userId.isPending || (!!userId.data && jobs.isPending)}
        isError={jobs.isError}
        onRetry={() => jobs.refetch()}
        total={jobs.data?.total ?? 0}
        page={jobPage}
        onPage={setJobPage}
        entries={(jobs.data?.rows ?? []).map((row) => ({
          key: row.job_id,
          removing: removing('job', row.job_id),
          onRemove: () => removeItem({ kind: 'job', id: row.job_id }),
          content: row.job ? (
            <Stack gap={0}>
              <LocalLink to={paths.job(row.job.id)} fw={600}>
                {row.job.title}
              </LocalLink>
              <Text size="sm" c="dimmed">
                {row.job.company}
                {row.job.city ? ` · ${row.job.city}` : ''}
              </Text>
            </Stack>
          ) : (
            <Text c="dimmed">
              <FormattedMessage id="favorites.unavailable" />
            </Text>
          ),
        }))}
      />
    </Stack>
  );
}

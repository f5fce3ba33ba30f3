import { Stack, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { CardBadge, ContentCard } from '@/components/content-card';
import { LocalButtonLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { FavouriteList, useFavouriteJobs, useFavouriteProjects, useRemoveFavourite } from '@/features/favorites';
import { CATEGORY_LABEL } from '@/lib/categories';
import { notify } from '@/lib/notify';

/** `/user/favorites`: favourite projects and jobs as cards (issue 18) with remove and empty states (spec §2, §3). */
export default function UserFavoritesRoute() {
  const intl = useIntl();
  const { user, status: sessionStatus } = useSession();
  const userId = user?.id;
  const [projectPage, setProjectPage] = useState(1);
  const [jobPage, setJobPage] = useState(1);
  const projects = useFavouriteProjects(userId, projectPage);
  const jobs = useFavouriteJobs(userId, jobPage);
  const remove = useRemoveFavourite(userId);
  const removeItem = (item: { kind: 'project'; id: number } | { kind: 'job'; id: string }) =>
    remove.mutate(item, {
      onSuccess: () => notify('success', intl.formatMessage({ id: 'favorites.removed' })),
      onError: () => notify('error', intl.formatMessage({ id: 'favorites.removeFailed' })),
    });
  const removing = (kind: string, id: string | number) => remove.isPending && remove.variables?.kind === kind && remove.variables.id === id;
  const category = (value: string | null | undefined) => (value && CATEGORY_LABEL[value] ? <FormattedMessage id={CATEGORY_LABEL[value]} /> : undefined);
  const unavailable = (remove: ReactNode) => (
    <ContentCard to={null} title={<FormattedMessage id="favorites.unavailable" />} action={null} extra={remove} />
  );
  const findMore = (
    <LocalButtonLink to={paths.search} variant="light" size="xs">
      <FormattedMessage id="favorites.findMore" />
    </LocalButtonLink>
  );

  return (
    <Stack>
      <PageHeader title={<FormattedMessage id="page.user-favorites.title" />} description={<FormattedMessage id="favorites.intro" />} />
      <Title order={2} size="h3">
        <FormattedMessage id="favorites.projects" />
      </Title>
      <FavouriteList
        label={intl.formatMessage({ id: 'favorites.projects' })}
        testId="favourite-project-item"
        emptyId="favorites.projectsEmpty"
        emptyAction={findMore}
        isPending={sessionStatus === 'restoring' || (!!userId && projects.isPending)}
        isError={projects.isError}
        onRetry={() => projects.refetch()}
        total={projects.data?.total ?? 0}
        page={projectPage}
        onPage={setProjectPage}
        entries={(projects.data?.rows ?? []).map((row) => ({
          key: String(row.project_id),
          removing: removing('project', row.project_id),
          onRemove: () => removeItem({ kind: 'project', id: row.project_id }),
          render: (removeButton) => {
            const p = row.project;
            if (!p) return unavailable(removeButton);
            const owner = p.owner ? { name: `${p.owner.firstname} ${p.owner.lastname}`.trim(), img: p.owner.profile_img } : null;
            return (
              <ContentCard
                to={paths.project(p.id, p.slug)}
                heading="h3"
                title={p.title}
                kicker={category(p.category)}
                meta={p.city}
                summary={p.summary}
                owner={owner}
                action={<FormattedMessage id="landing.projects.action" />}
                extra={removeButton}
              />
            );
          },
        }))}
      />
      <Title order={2} size="h3">
        <FormattedMessage id="favorites.jobs" />
      </Title>
      <FavouriteList
        label={intl.formatMessage({ id: 'favorites.jobs' })}
        testId="favourite-job-item"
        emptyId="favorites.jobsEmpty"
        emptyAction={
          <LocalButtonLink to={paths.jobs} variant="light" size="xs">
            <FormattedMessage id="favorites.browseJobs" />
          </LocalButtonLink>
        }
        isPending={sessionStatus === 'restoring' || (!!userId && jobs.isPending)}
        isError={jobs.isError}
        onRetry={() => jobs.refetch()}
        total={jobs.data?.total ?? 0}
        page={jobPage}
        onPage={setJobPage}
        entries={(jobs.data?.rows ?? []).map((row) => ({
          key: row.job_id,
          removing: removing('job', row.job_id),
          onRemove: () => removeItem({ kind: 'job', id: row.job_id }),
          render: (removeButton) => {
            const j = row.job;
            if (!j) return unavailable(removeButton);
            return (
              <ContentCard
                to={paths.job(j.id)}
                heading="h3"
                title={j.title}
                kicker={category(j.category)}
                meta={j.city}
                owner={{ name: j.company, img: null }}
                badge={
                  j.remote && (
                    <CardBadge tone="teal">
                      <FormattedMessage id="jobs.remote" />
                    </CardBadge>
                  )
                }
                action={<FormattedMessage id="card.action.job" />}
                extra={removeButton}
              />
            );
          },
        }))}
      />
    </Stack>
  );
}

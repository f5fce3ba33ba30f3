import { Alert, Badge, Button, Center, Group, Loader, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LocalLink } from '@/components/local-link';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { OpenRolesEditor } from '@/features/matching';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { useSession } from '@/lib/session';
import { useOwnProject } from '../api/get-projects';
import { type ProjectRow, STATUS_LABEL, toFormValues } from '../api/project-schema';
import { useProjectMutations } from '../api/save-project';
import { ProjectFields } from '../components/project-fields';
import { useProjectForm } from '../components/use-project-form';

/**
 * `/user/projects/{id}`: edit all fields of an own project, publish/unpublish, delete with
 * confirmation; its open roles and the team-gap finder (issue 19). Someone else's published
 * project (RLS lets everyone read it) is not offered for editing: the page says it is not yours
 * and links to its public page (issue 33 §4).
 */
export default function UserProjectRoute({ params }: PageProps) {
  const intl = useIntl();
  const id = Number(params.id);
  const project = useOwnProject(id);
  const me = useSession().user?.id;

  if (project.isPending || !me) {
    return (
      <Center py="xl">
        <Loader aria-label={intl.formatMessage({ id: 'projects.loading' })} />
      </Center>
    );
  }
  if (project.isError || !project.data) {
    return (
      <Alert color="red" role="alert" data-testid="project-not-found">
        <FormattedMessage id="projects.notFound" />
      </Alert>
    );
  }
  if (project.data.owner_id !== me) return <NotYourProject row={project.data} />;
  return <ProjectEditor key={project.data.id} row={project.data} />;
}

/** Shown instead of the edit form when the project belongs to another member. */
function NotYourProject({ row }: { row: ProjectRow }) {
  return (
    <Stack>
      <Title order={1}>{row.title}</Title>
      <Alert color="blue" role="status" data-testid="project-not-yours">
        <Stack gap="xs" align="flex-start">
          <FormattedMessage id="projects.notYours" />
          {row.status === 'published' && (
            <LocalLink to={paths.project(row.id, row.slug)}>
              <FormattedMessage id="projects.viewPublic" />
            </LocalLink>
          )}
        </Stack>
      </Alert>
    </Stack>
  );
}

/** The edit form of a loaded project (initial values from the row). */
function ProjectEditor({ row }: { row: ProjectRow }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  const id = row.id;
  const { form, validateGroups } = useProjectForm(toFormValues(row));
  const { update, setStatus, remove } = useProjectMutations();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const fail = () => notify('error', intl.formatMessage({ id: 'projects.saveFailed' }));
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    if (!validateGroups(['basics', 'details', 'location'])) return;
    update.mutate({ id, values: form.getValues() }, { onSuccess: () => notify('success', intl.formatMessage({ id: 'projects.saved' })), onError: fail });
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>
          <FormattedMessage id="page.user-project.title" />
        </Title>
        <Badge color={row.status === 'published' ? 'green' : 'gray'} variant="dot" data-testid="project-status">
          <FormattedMessage id={STATUS_LABEL[row.status]} />
        </Badge>
      </Group>
      {row.status === 'published' && (
        <LocalLink to={paths.project(row.id, row.slug)}>
          <FormattedMessage id="projects.view" />
        </LocalLink>
      )}
      <form onSubmit={save} noValidate aria-label={intl.formatMessage({ id: 'page.user-project.title' })}>
        <Stack>
          <ProjectFields form={form} group="basics" />
          <ProjectFields form={form} group="details" />
          <ProjectFields form={form} group="location" />
          <Group>
            <Button type="submit" loading={update.isPending}>
              <FormattedMessage id="projects.save" />
            </Button>
            <Button
              variant="default"
              loading={setStatus.isPending}
              onClick={() =>
                setStatus.mutate(
                  { id, status: row.status === 'published' ? 'draft' : 'published' },
                  {
                    onSuccess: (r) => notify('success', intl.formatMessage({ id: r.status === 'published' ? 'projects.published' : 'projects.unpublished' })),
                    onError: fail,
                  },
                )
              }
            >
              <FormattedMessage id={row.status === 'published' ? 'projects.unpublish' : 'projects.publish'} />
            </Button>
            <Button color="red" variant="light" onClick={() => setConfirmDelete(true)}>
              <FormattedMessage id="projects.delete" />
            </Button>
          </Group>
        </Stack>
      </form>
      <OpenRolesEditor projectId={id} />
      <ConfirmDialog
        opened={confirmDelete}
        title={<FormattedMessage id="projects.deleteConfirmTitle" />}
        message={<FormattedMessage id="projects.deleteConfirm" values={{ title: row.title }} />}
        confirmLabel={<FormattedMessage id="projects.delete" />}
        loading={remove.isPending}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() =>
          remove.mutate(id, {
            onSuccess: () => {
              notify('success', intl.formatMessage({ id: 'projects.deleted' }));
              navigate(localize(paths.user.projects));
            },
            onError: fail,
          })
        }
      />
    </Stack>
  );
}

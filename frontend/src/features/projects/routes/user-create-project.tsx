import { Alert, Button, Center, Group, Loader, Stack, Stepper } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { useLocalizedPath } from '@/components/use-locale';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { limitReached, useMyProjects, useOwnProject } from '../api/get-projects';
import { EMPTY_PROJECT, NEW_DRAFT_TOKEN, type ProjectFormValues, toFormValues } from '../api/project-schema';
import { isDraftLimitError, isPlanLimitError, useProjectMutations } from '../api/save-project';
import { ProjectLimitNotice } from '../components/plan-limit-notice';
import { type FieldGroup, ProjectFields } from '../components/project-fields';
import { ProjectReview } from '../components/project-review';
import { useProjectForm } from '../components/use-project-form';
import { PageHeader } from '@/components/page-header';

const STEPS: readonly FieldGroup[] = ['basics', 'details', 'location'];
const STEP_LABEL = { basics: 'projects.step.basics', details: 'projects.step.details', location: 'projects.step.location' } as const;

/**
 * `/user/projects/create-project-{id}`: wizard basics → details → location/roles → review.
 * `{id}` is `new` (nothing stored yet) or the numeric id of the draft: leaving the basics step
 * inserts the draft and replaces `new` by its id. Drafts do not count towards the plan limit;
 * publishing does (issue 33 §5): at the limit the notice shows from the first step, and a publish
 * the database refuses (plan_limit_reached) leaves the project a draft with the notice.
 */
export default function UserCreateProjectRoute({ params }: PageProps) {
  const intl = useIntl();
  const draftId = params.id === NEW_DRAFT_TOKEN || !/^\d+$/.test(params.id ?? '') ? null : Number(params.id);
  const draft = useOwnProject(draftId);

  if (draftId !== null && draft.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={intl.formatMessage({ id: 'projects.loading' })} />
      </Center>
    );
  }
  if (draftId !== null && (draft.isError || !draft.data)) {
    return (
      <Alert color="red" role="alert">
        <FormattedMessage id="projects.notFound" />
      </Alert>
    );
  }
  return (
    <Wizard key={draftId ?? NEW_DRAFT_TOKEN} draftId={draftId} initial={draft.data ? toFormValues(draft.data) : EMPTY_PROJECT} initialStep={draft.data ? 1 : 0} />
  );
}

/** The wizard itself; remounted when the draft id replaces the `new` token. */
function Wizard({ draftId, initial, initialStep }: { draftId: number | null; initial: ProjectFormValues; initialStep: number }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  const userId = useSession().user?.id;
  const mine = useMyProjects(userId, 1);
  const { form, validateGroups } = useProjectForm(initial);
  const { create, update, setStatus } = useProjectMutations();
  const [step, setStep] = useState(initialStep);
  const [refused, setRefused] = useState(false);
  const busy = create.isPending || update.isPending || setStatus.isPending;
  const atLimit = refused || (mine.data ? limitReached(mine.data) : false);

  const fail = (error: unknown) => {
    if (isPlanLimitError(error)) setRefused(true);
    else notify('error', intl.formatMessage({ id: isDraftLimitError(error) ? 'projects.limit.draftCap' : 'projects.saveFailed' }));
  };

  const saveAnd = (after: (id: number) => void) => {
    const values = projectValues();
    if (draftId === null) {
      create.mutate(
        { ownerId: userId!, values },
        {
          onSuccess: (row) => {
            navigate(localize(paths.user.createProject(row.id)), { replace: true });
            after(row.id);
          },
          onError: fail,
        },
      );
    } else {
      update.mutate({ id: draftId, values }, { onSuccess: () => after(draftId), onError: fail });
    }
  };
  const projectValues = () => form.getValues();

  const next = () => {
    const group = STEPS[step];
    if (group && !validateGroups([group])) return;
    saveAnd(() => setStep((s) => s + 1));
  };

  const finish = (publish: boolean) => {
    if (!validateGroups(STEPS)) return;
    const id = draftId;
    if (id === null) return;
    const done = () => {
      notify('success', intl.formatMessage({ id: publish ? 'projects.published' : 'projects.draftSaved' }));
      navigate(localize(paths.user.projects));
    };
    update.mutate(
      { id, values: projectValues() },
      {
        onSuccess: () => (publish ? setStatus.mutate({ id, status: 'published' }, { onSuccess: done, onError: fail }) : done()),
        onError: fail,
      },
    );
  };


  return (
    <Stack>
      <PageHeader title={<FormattedMessage id="page.user-create-project.title" />} />
      {atLimit && (
        <ProjectLimitNotice
          used={mine.data?.used ?? 0}
          limit={mine.data?.limit ?? 0}
          reached
          draftHint={refused && draftId !== null ? 'projects.limit.keptAsDraft' : 'projects.limit.draftsDoNotCount'}
        />
      )}
      <Stepper active={step} onStepClick={(s) => (s < step ? setStep(s) : undefined)} allowNextStepsSelect={false}>
        {STEPS.map((g) => (
          <Stepper.Step key={g} label={<FormattedMessage id={STEP_LABEL[g]} />}>
            <ProjectFields form={form} group={g} />
          </Stepper.Step>
        ))}
        <Stepper.Step label={<FormattedMessage id="projects.step.review" />}>
          <ProjectReview values={form.getValues()} />
        </Stepper.Step>
      </Stepper>
      <Group justify="space-between">
        <Button variant="default" disabled={step === 0 || busy} onClick={() => setStep((s) => s - 1)}>
          <FormattedMessage id="projects.back" />
        </Button>
        {step < STEPS.length ? (
          <Button onClick={next} loading={busy} data-testid="wizard-next">
            <FormattedMessage id="projects.next" />
          </Button>
        ) : (
          <Group>
            <Button variant="default" onClick={() => finish(false)} loading={busy}>
              <FormattedMessage id="projects.saveDraft" />
            </Button>
            <Button onClick={() => finish(true)} loading={busy} data-testid="wizard-publish">
              <FormattedMessage id="projects.publish" />
            </Button>
          </Group>
        )}
      </Group>
    </Stack>
  );
}

import { Alert, Button, Group, NativeSelect, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { LocalButtonLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import { useLocalizedPath } from '@/components/use-locale';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { orgErrorId, PublishAsSelect, useMyOrganizations } from '@/features/organizations';
import { CATEGORY_LABEL } from '@/lib/categories';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { zodValidate } from '@/lib/zod-form';
import { EMPLOYMENT_TYPES, emptyJob, type JobFormValues, jobSchema, useCreateJob } from '../api/save-job';
import { EMPLOYMENT_TYPE_LABEL } from '../components/labels';

/**
 * `/user/jobs/create-job`: a member publishes a job ad under one of their organisations (issue 15).
 * "Publish as" lists the caller's organisations (the company name defaults to the chosen one);
 * without an organisation the page explains that jobs come from organisations. The database decides
 * (policy jobs_insert, trigger check_content_organization); refusals show as a message.
 */
export default function UserCreateJobRoute({ locale }: PageProps) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  const { user, status: sessionStatus } = useSession();
  const userId = user?.id;
  const orgs = useMyOrganizations(userId);
  const create = useCreateJob();
  const form = useForm<JobFormValues>({ initialValues: emptyJob(locale), validate: zodValidate(jobSchema) });
  const err = (field: keyof JobFormValues) => {
    const id = form.errors[field];
    return typeof id === 'string' ? t(id) : undefined;
  };
  const header = <PageHeader title={<FormattedMessage id="page.user-create-job.title" />} description={<FormattedMessage id="jobs.form.lead" />} />;

  if (sessionStatus === 'restoring' || orgs.isPending) {
    return (
      <Stack gap="lg">
        {header}
        <LoadingState messageId="org.loading" />
      </Stack>
    );
  }
  if (orgs.isError) {
    return (
      <Stack gap="lg">
        {header}
        <LoadError messageId="org.loadFailed" onRetry={() => void orgs.refetch()} />
      </Stack>
    );
  }
  if (orgs.data.length === 0) {
    return (
      <Stack gap="lg">
        {header}
        <EmptyState
          testId="jobs-form-no-org"
          action={
            <LocalButtonLink to={paths.user.organizations}>
              <FormattedMessage id="page.user-organizations.title" />
            </LocalButtonLink>
          }
        >
          <FormattedMessage id="jobs.form.noOrganization" />
        </EmptyState>
      </Stack>
    );
  }

  const submit = form.onSubmit((values) => {
    if (!userId) return;
    create.mutate(
      { userId: userId, values },
      {
        onSuccess: (id) => {
          notify('success', t('jobs.form.published'));
          void navigate(localize(paths.job(id)));
        },
      },
    );
  });

  return (
    <Stack gap="lg">
      {header}
      <form onSubmit={submit} noValidate aria-label={t('page.user-create-job.title')} data-testid="job-form">
        <Stack>
          {create.isError && (
            <Alert color="red" role="alert" data-testid="job-form-error">
              <FormattedMessage id={orgErrorId(create.error) === 'org.error.generic' ? 'jobs.form.error.save' : orgErrorId(create.error)} />
            </Alert>
          )}
          <PublishAsSelect
            allowSelf={false}
            value={form.values.organizationId}
            error={err('organizationId')}
            onChange={(id) => {
              const org = orgs.data.find((o) => o.id === id);
              const previous = orgs.data.find((o) => o.id === form.values.organizationId);
              form.setFieldValue('organizationId', id);
              if (org && (!form.values.company || form.values.company === previous?.name)) form.setFieldValue('company', org.name);
            }}
          />
          <TextInput label={t('jobs.form.title')} required maxLength={140} {...form.getInputProps('title')} error={err('title')} />
          <TextInput label={t('jobs.form.company')} required maxLength={140} {...form.getInputProps('company')} error={err('company')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NativeSelect
              label={t('jobs.form.employmentType')}
              data={EMPLOYMENT_TYPES.map((value) => ({ value, label: t(EMPLOYMENT_TYPE_LABEL[value]!) }))}
              {...form.getInputProps('employmentType')}
            />
            <NativeSelect
              label={t('jobs.form.category')}
              data={Object.entries(CATEGORY_LABEL).map(([value, id]) => ({ value, label: t(id) }))}
              {...form.getInputProps('category')}
            />
            <TextInput label={t('jobs.filter.city')} maxLength={100} {...form.getInputProps('city')} error={err('city')} />
            <NativeSelect
              label={t('jobs.form.language')}
              data={[
                { value: 'de', label: t('org.invite.language.de') },
                { value: 'en', label: t('org.invite.language.en') },
              ]}
              {...form.getInputProps('language')}
            />
          </SimpleGrid>
          <Switch label={t('jobs.form.remote')} {...form.getInputProps('remote', { type: 'checkbox' })} />
          <Textarea label={t('jobs.form.description')} required autosize minRows={6} {...form.getInputProps('description')} error={err('description')} />
          <TextInput
            label={t('jobs.form.applyUrl')}
            description={t('jobs.form.applyUrlHint')}
            required
            placeholder="https://"
            {...form.getInputProps('applyUrl')}
            error={err('applyUrl')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending} data-testid="job-submit">
              <FormattedMessage id="jobs.form.submit" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

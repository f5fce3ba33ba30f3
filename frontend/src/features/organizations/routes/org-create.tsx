import { Alert, Container, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { LocalButtonLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { useCurrentSubscription } from '@/features/billing';
import { notify } from '@/lib/notify';
import { EMPTY_ORGANIZATION, type OrganizationFormValues } from '../api/organization';
import { orgErrorId } from '../api/organization-errors';
import { createOrganization } from '../api/save-organization';
import { OrganizationForm } from '../components/organization-form';

const LIVE = new Set(['active', 'trialing', 'past_due']);

/**
 * `/org/new`: creates an organisation (issue 15). Only Enterprise subscribers (spec §6) see the
 * form; others see the upgrade path to /prices. The database decides again (create_organization
 * raises enterprise_required), so a stale page shows that message.
 */
export default function OrganizationCreateRoute() {
  const intl = useIntl();
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  const queryClient = useQueryClient();
  const subscription = useCurrentSubscription();
  const [values, setValues] = useState<OrganizationFormValues>(EMPTY_ORGANIZATION);
  const create = useMutation({
    mutationFn: createOrganization,
    onSuccess: async (_id, v) => {
      await queryClient.invalidateQueries({ queryKey: ['organizations'] });
      notify('success', intl.formatMessage({ id: 'org.create.done' }));
      void navigate(localize(paths.org.settings(v.slug.trim())));
    },
  });

  let body;
  if (subscription.isPending) body = <LoadingState messageId="org.loading" />;
  else if (subscription.isError) body = <LoadError messageId="org.loadFailed" onRetry={() => void subscription.refetch()} />;
  else if (!(subscription.data && subscription.data.planId === 'enterprise' && LIVE.has(subscription.data.status))) {
    body = (
      <EmptyState
        title={<FormattedMessage id="org.create.enterpriseTitle" />}
        testId="org-upgrade"
        action={
          <LocalButtonLink to={paths.prices}>
            <FormattedMessage id="org.create.upgrade" />
          </LocalButtonLink>
        }
      >
        <FormattedMessage id="org.create.enterpriseOnly" />
      </EmptyState>
    );
  } else {
    body = (
      <Stack>
        {create.isError && (
          <Alert color="red" role="alert" data-testid="org-error">
            <FormattedMessage id={orgErrorId(create.error)} />
          </Alert>
        )}
        <OrganizationForm
          initial={values}
          withSlug
          pending={create.isPending}
          submitLabel={<FormattedMessage id="org.create.submit" />}
          onSubmit={(v) => {
            setValues(v);
            create.mutate(v);
          }}
        />
      </Stack>
    );
  }
  return (
    <Container size="sm" py="xl">
      <Stack>
        <PageHeader title={<FormattedMessage id="page.org-create.title" />} description={<FormattedMessage id="org.create.lead" />} />
        {body}
      </Stack>
    </Container>
  );
}

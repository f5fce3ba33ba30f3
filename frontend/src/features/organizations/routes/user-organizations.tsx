import { Avatar, Badge, Button, Group, Paper, Stack, Switch } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { notify } from '@/lib/notify';
import { EmptyState } from '@/components/empty-state';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { type MyOrganization, useMyOrganizations } from '../api/get-organizations';
import { organizationLogoUrl, ROLE_LABEL } from '../api/organization';
import { orgErrorId } from '../api/organization-errors';
import { useOwnMembership } from '../api/save-organization';

/**
 * `/user/organizations` ("My organisations", issue 15): the organisations the signed-in user
 * belongs to with their role, links to each public page and, for owners and admins, to its
 * settings; a switch to be listed on the public page, leaving (confirmed); a button to create one
 * (the page itself checks the Enterprise plan).
 */
export default function UserOrganizationsRoute() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const { user, status: sessionStatus } = useSession();
  const userId = user?.id;
  const orgs = useMyOrganizations(userId);
  const own = useOwnMembership(userId ?? '');
  const [leaving, setLeaving] = useState<MyOrganization | null>(null);
  const fail = (error: unknown) => notify('error', t(orgErrorId(error)));
  const create = (
    <LocalButtonLink to={paths.org.create} data-testid="org-create-link">
      <FormattedMessage id="org.mine.create" />
    </LocalButtonLink>
  );
  let body;
  if (sessionStatus === 'restoring' || (orgs.isPending && !!userId)) body = <LoadingState messageId="org.loading" />;
  else if (orgs.isError) body = <LoadError messageId="org.loadFailed" onRetry={() => void orgs.refetch()} />;
  else if (!orgs.data || orgs.data.length === 0) {
    body = (
      <EmptyState testId="org-mine-empty">
        <FormattedMessage id="org.mine.empty" />
      </EmptyState>
    );
  } else {
    body = (
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} data-testid="org-mine">
        {orgs.data.map((org) => (
          <Paper component="li" key={org.id} withBorder p="md" radius="md">
            <Group justify="space-between" wrap="wrap" gap="sm">
              <Group wrap="nowrap" gap="sm" style={{ minWidth: 0 }}>
                <Avatar src={organizationLogoUrl(org.logo_path)} alt="" radius="md" color="brand">
                  {org.name.slice(0, 2).toUpperCase()}
                </Avatar>
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <LocalLink to={paths.org.page(org.slug)} fw={700}>
                    {org.name}
                  </LocalLink>
                  <Badge variant="light" size="sm">
                    <FormattedMessage id={ROLE_LABEL[org.role]} />
                  </Badge>
                </Stack>
              </Group>
              <Group gap="xs">
                <Switch
                  label={t('org.mine.listed')}
                  checked={org.listed}
                  disabled={own.setListed.isPending}
                  onChange={(event) => own.setListed.mutate({ organizationId: org.id, listed: event.currentTarget.checked }, { onError: fail })}
                />
                <LocalButtonLink to={paths.user.createJob} variant="default" size="sm">
                  <FormattedMessage id="org.mine.postJob" />
                </LocalButtonLink>
                {(org.role === 'owner' || org.role === 'admin') && (
                  <LocalButtonLink to={paths.org.settings(org.slug)} variant="light" size="sm">
                    <FormattedMessage id="org.settings.link" />
                  </LocalButtonLink>
                )}
                <Button variant="subtle" color="red" size="sm" onClick={() => setLeaving(org)} aria-label={t('org.mine.leaveOf', { name: org.name })}>
                  <FormattedMessage id="org.mine.leave" />
                </Button>
              </Group>
            </Group>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      <PageHeader title={<FormattedMessage id="page.user-organizations.title" />} description={<FormattedMessage id="org.mine.lead" />} action={create} />
      {body}
      <ConfirmDialog
        opened={leaving !== null}
        onClose={() => setLeaving(null)}
        loading={own.leave.isPending}
        title={t('org.mine.leaveTitle')}
        message={t('org.mine.leaveText', { name: leaving?.name ?? '' })}
        confirmLabel={t('org.mine.leave')}
        onConfirm={() =>
          leaving &&
          own.leave.mutate(leaving.id, {
            onSuccess: () => {
              notify('success', t('org.mine.left', { name: leaving.name }));
              setLeaving(null);
            },
            onError: (error) => {
              fail(error);
              setLeaving(null);
            },
          })
        }
      />
    </Stack>
  );
}

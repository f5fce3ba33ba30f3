import { Avatar, Badge, Group, Paper, Stack } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { EmptyState } from '@/components/empty-state';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import { useUserId } from '@/components/use-user-id';
import { paths } from '@/config/paths';
import { organizationLogoUrl, ROLE_LABEL, useMyOrganizations } from '../api/organizations';

/**
 * `/user/organizations` ("My organisations", issue 15): the organisations the signed-in user
 * belongs to with their role, links to each public page and, for owners and admins, to its
 * settings; a button to create one (the page itself checks the Enterprise plan).
 */
export default function UserOrganizationsRoute() {
  const userId = useUserId();
  const orgs = useMyOrganizations(userId.data);
  const create = (
    <LocalButtonLink to={paths.org.create} data-testid="org-create-link">
      <FormattedMessage id="org.mine.create" />
    </LocalButtonLink>
  );
  let body;
  if (userId.isPending || (orgs.isPending && !!userId.data)) body = <LoadingState messageId="org.loading" />;
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
                <LocalButtonLink to={paths.user.createJob} variant="default" size="sm">
                  <FormattedMessage id="org.mine.postJob" />
                </LocalButtonLink>
                {(org.role === 'owner' || org.role === 'admin') && (
                  <LocalButtonLink to={paths.org.settings(org.slug)} variant="light" size="sm">
                    <FormattedMessage id="org.settings.link" />
                  </LocalButtonLink>
                )}
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
    </Stack>
  );
}

import { Alert, Container, Stack, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import type { PageProps } from '@/lib/route-def';
import { useOrgMembership } from '@/features/organizations';
import { useApiKeys } from '../api/api-keys';
import { ApiKeyCreate } from '../components/api-key-create';
import { ApiKeyTable } from '../components/api-key-table';

/**
 * `/org/{slug}/api` (issue 15 "API access"): owners and admins list, create and revoke the
 * organisation's API keys; members and outsiders get a notice (the database decides: RLS on
 * api_keys, create_api_key/revoke_api_key check the role).
 */
export default function OrgApiRoute({ params }: PageProps) {
  // the default layout leaves the margins to the page (issue 33 §11: none at 1280 px)
  return (
    <Container size="lg" py="xl">
      <OrgApiBody slug={params.slug ?? ''} />
    </Container>
  );
}

function OrgApiBody({ slug }: { slug: string }) {
  const membership = useOrgMembership(slug);
  const org = membership.data ?? null;
  const isAdmin = org !== null && (org.role === 'owner' || org.role === 'admin');
  const keys = useApiKeys(isAdmin ? org.id : undefined);

  if (membership.isPending) return <LoadingState messageId="api-keys.loading" />;
  if (membership.isError) return <LoadError messageId="api-keys.error.load" onRetry={() => void membership.refetch()} />;
  if (!isAdmin) {
    return (
      <Alert color="yellow" role="alert" data-testid="api-keys-forbidden">
        <FormattedMessage id="api-keys.forbidden" />
      </Alert>
    );
  }
  return (
    <Stack maw={960}>
      <PageHeader
        title={<FormattedMessage id="api-keys.title" values={{ name: org.name }} />}
        description={
          <FormattedMessage
            id="api-keys.intro"
            values={{ docs: (chunks) => <LocalLink to="/developers/api">{chunks}</LocalLink> }}
          />
        }
      />
      {!org.enterprise_active && (
        <Alert color="yellow">
          <FormattedMessage id="api-keys.error.enterprise" />
        </Alert>
      )}
      <Title order={2} size="h3">
        <FormattedMessage id="api-keys.create.title" />
      </Title>
      <ApiKeyCreate organizationId={org.id} />
      <Title order={2} size="h3">
        <FormattedMessage id="api-keys.list.title" />
      </Title>
      {keys.isPending ? (
        <LoadingState messageId="api-keys.loading" compact />
      ) : keys.isError ? (
        <LoadError messageId="api-keys.error.load" onRetry={() => void keys.refetch()} />
      ) : (
        <ApiKeyTable organizationId={org.id} keys={keys.data} />
      )}
    </Stack>
  );
}

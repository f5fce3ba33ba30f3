import { Alert, Container, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalLink } from '@/components/local-link';
import { LoadError, LoadingState } from '@/components/query-state';
import { paths } from '@/config/paths';
import { useOrgMembership } from '@/features/organizations';
import type { PageProps } from '@/lib/route-def';
import { AnalyticsView } from '../components/analytics-view';

/**
 * `/org/{slug}/analytics` (issue 15): the organisation's analytics (its page, its listed members'
 * profiles, its projects, jobs and events) for its owners and admins; members and outsiders get a
 * notice (the database decides: analytics_report answers 42501 not_organization_admin).
 */
export default function OrgAnalyticsRoute({ params }: PageProps) {
  // the default layout leaves the margins to the page (issue 33 §11: none at 1280 px)
  return (
    <Container size="lg" py="xl">
      <OrgAnalyticsBody slug={params.slug ?? ''} />
    </Container>
  );
}

function OrgAnalyticsBody({ slug }: { slug: string }) {
  const membership = useOrgMembership(slug);
  const org = membership.data ?? null;
  if (membership.isPending) return <LoadingState messageId="analytics.loading" />;
  if (membership.isError) return <LoadError messageId="analytics.error" onRetry={() => void membership.refetch()} />;
  if (!org || (org.role !== 'owner' && org.role !== 'admin')) {
    return (
      <Alert color="yellow" role="alert" data-testid="org-analytics-forbidden">
        <FormattedMessage id="analytics.org.forbidden" />
      </Alert>
    );
  }
  return (
    <AnalyticsView
      organizationId={org.id}
      heading={
        <>
          <Title order={1}>
            <FormattedMessage id="analytics.org.title" values={{ name: org.name }} />
          </Title>
          <Text c="dimmed">
            <FormattedMessage
              id="analytics.org.intro"
              values={{ link: (chunks) => <LocalLink to={paths.org.page(org.slug)}>{chunks}</LocalLink> }}
            />
          </Text>
        </>
      }
    />
  );
}

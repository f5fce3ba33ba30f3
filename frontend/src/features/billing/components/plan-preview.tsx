import { Card, Group, List, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { contactRequestCountQuery } from '@/features/contacts';
import { dashboardMatchesQuery, ownMatchProfileQuery } from '@/features/matching';

/**
 * How many people match the caller (match_people answers free members with the count only). Asked
 * only when the caller has a matching profile (else match_people answers 404 match_profile_missing);
 * without one, the way to the dashboard, open to free members, which creates it (issue 19).
 */
function MatchCount() {
  const profile = useQuery(ownMatchProfileQuery());
  const matches = useQuery({ ...dashboardMatchesQuery(1), enabled: !!profile.data });
  if (profile.isPending || (profile.data && matches.isPending)) return <Skeleton height={16} width="60%" aria-hidden />;
  if (profile.isError || matches.isError) return null;
  if (!profile.data) {
    return (
      <Text data-testid="preview-matches" data-count="">
        <FormattedMessage id="billing.preview.noMatchProfile" />{' '}
        <LocalLink to={paths.dashboard}>
          <FormattedMessage id="billing.preview.createMatchProfile" />
        </LocalLink>
      </Text>
    );
  }
  return (
    <Text data-testid="preview-matches" data-count={matches.data!.count}>
      <FormattedMessage id="billing.preview.matches" values={{ count: matches.data!.count }} />
    </Text>
  );
}

/** Contact requests other members sent the caller, waiting for an answer (contact_request_count). */
function RequestCount() {
  const requests = useQuery(contactRequestCountQuery());
  if (requests.isPending) return <Skeleton height={16} width="50%" aria-hidden />;
  if (requests.isError) return null;
  return (
    <Text data-testid="preview-requests" data-count={requests.data}>
      <FormattedMessage id="billing.preview.requests" values={{ count: requests.data }} />
    </Text>
  );
}

/**
 * What a plan unlocks for this free member (issue 32 §5: previews rather than a bare wall): how
 * many people match their matching profile and how many contact requests wait for them, from the
 * database's own answers for free members (match_people's count, contact_request_count), with the
 * way to the plans and to the pages free members can open.
 * @param withPlansLink false where the page shows its own way to the plans (the paywall)
 */
export function PlanPreview({ withPlansLink = true }: { withPlansLink?: boolean }) {
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="plan-preview-title" data-testid="plan-preview">
      <Stack gap="sm">
        <Title order={2} fz="h4" id="plan-preview-title">
          <FormattedMessage id="billing.preview.title" />
        </Title>
        <List spacing="xs">
          <List.Item>
            <MatchCount />
          </List.Item>
          <List.Item>
            <RequestCount />
          </List.Item>
        </List>
        <Text fz="sm" c="var(--tw-muted)">
          <FormattedMessage id="billing.preview.unlock" />
        </Text>
        <Group>
          {withPlansLink && (
            <LocalButtonLink to={paths.prices}>
              <FormattedMessage id="subscriptionRequired.cta" />
            </LocalButtonLink>
          )}
          <LocalButtonLink to={paths.dashboard} variant="default">
            <FormattedMessage id="billing.preview.dashboard" />
          </LocalButtonLink>
        </Group>
      </Stack>
    </Card>
  );
}

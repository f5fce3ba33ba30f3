import { Alert, Text } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { PlanLimitNotice } from '@/features/billing';

/**
 * The project limit of the plan (spec §5: Basic 3 projects) with the upgrade path to /prices:
 * below the limit a usage line, at the limit (or when the database refused an insert with
 * plan_limit_reached) billing's shared PlanLimitNotice.
 */
export function ProjectLimitNotice({ used, limit, reached }: { used: number; limit: number; reached: boolean }) {
  if (reached) return <PlanLimitNotice used={used} limit={limit} />;
  return (
    <Alert color="blue" variant="light" role="status" data-testid="plan-limit-notice" title={<FormattedMessage id="projects.limit.title" />}>
      <Text size="sm" mb="xs">
        <FormattedMessage id="projects.limit.usage" values={{ used, limit }} />
      </Text>
      <LocalButtonLink to={paths.prices} size="xs" variant="light">
        <FormattedMessage id="projects.limit.upgrade" />
      </LocalButtonLink>
    </Alert>
  );
}

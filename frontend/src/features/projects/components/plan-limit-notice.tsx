import { Alert, Text } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';

/**
 * Explains the project limit of the plan (spec §5: Basic 3 projects) with the upgrade path to
 * /prices. `reached` switches from the usage line to the refusal text.
 * (Stand-in until billing's shared plan-limit-notice exists.)
 */
export function ProjectLimitNotice({ used, limit, reached }: { used: number; limit: number; reached: boolean }) {
  return (
    <Alert color={reached ? 'orange' : 'blue'} variant="light" role={reached ? 'alert' : 'status'} data-testid="plan-limit-notice" title={<FormattedMessage id={reached ? 'projects.limit.reachedTitle' : 'projects.limit.title'} />}>
      <Text size="sm" mb="xs">
        {reached ? <FormattedMessage id="projects.limit.reached" values={{ limit }} /> : <FormattedMessage id="projects.limit.usage" values={{ used, limit }} />}
      </Text>
      <LocalButtonLink to={paths.prices} size="xs" variant={reached ? 'filled' : 'light'}>
        <FormattedMessage id="projects.limit.upgrade" />
      </LocalButtonLink>
    </Alert>
  );
}

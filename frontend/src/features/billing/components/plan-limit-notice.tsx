import { Alert, Group, Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';

/** Basic's project limit (spec §5, §9: "Basic plan allows up to 3 projects"); the database enforces it. */
export const BASIC_PROJECT_LIMIT = 3;

/**
 * True for the database's plan-limit error: P0001 `plan_limit_reached` (hint `upgrade_plan`)
 * raised when a Basic user inserts a 4th project or a free user any project.
 * @param error a PostgREST error (`{ code, message }`) or an ApiError carrying the code
 */
export function isPlanLimitError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (code === 'P0001' || code === undefined) && typeof message === 'string' && message.includes('plan_limit_reached');
}

/**
 * Explains the project limit of the caller's plan and offers the upgrade (/prices). For the
 * projects feature: show it when {@link isPlanLimitError} matches a failed insert, or up front
 * when the user has reached the limit.
 * @param used projects the user already has (optional; shows "3 of 3 projects")
 * @param limit the plan's project limit (default 3 = Basic); 0 = free plan without projects
 */
export function PlanLimitNotice({ used, limit = BASIC_PROJECT_LIMIT }: { used?: number; limit?: number }) {
  const intl = useIntl();
  return (
    <Alert
      color="yellow"
      role="status"
      title={intl.formatMessage({ id: 'billing.limit.title' })}
      data-testid="plan-limit-notice"
      // the yellow title on the yellow tint is below 4.5:1 (WCAG 1.4.3); ink keeps the tint as the signal
      styles={{ title: { color: 'var(--tw-ink)' } }}
    >
      <Text fz="sm">
        <FormattedMessage id={limit === 0 ? 'billing.limit.free' : 'billing.limit.basic'} values={{ limit }} />
      </Text>
      {used !== undefined && limit > 0 && (
        <Text fz="sm" mt={4}>
          <FormattedMessage id="billing.limit.used" values={{ used, limit }} />
        </Text>
      )}
      <Group mt="sm">
        <LocalButtonLink to={paths.prices} size="xs">
          <FormattedMessage id="billing.limit.upgrade" />
        </LocalButtonLink>
      </Group>
    </Alert>
  );
}

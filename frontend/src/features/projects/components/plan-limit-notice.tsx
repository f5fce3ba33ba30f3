import { Alert, Stack, Text } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { PlanLimitNotice } from '@/features/billing';

/**
 * The project limit of the plan (spec §5: Basic 3 projects) with the upgrade path to /prices:
 * below the limit a usage line, at the limit (or when the database refused to publish with
 * plan_limit_reached) billing's shared PlanLimitNotice plus a line on drafts (they do not count,
 * issue 33 §5).
 * @param used projects that count (all but drafts); limit the plan's limit; reached at or over it
 * @param draftHint message id of the line under the reached notice (default: drafts do not count)
 */
export function ProjectLimitNotice({
  used,
  limit,
  reached,
  draftHint = 'projects.limit.draftsDoNotCount',
}: {
  used: number;
  limit: number;
  reached: boolean;
  draftHint?: string;
}) {
  if (reached)
    return (
      <Stack gap={4}>
        <PlanLimitNotice used={used} limit={limit} />
        {limit > 0 && (
          <Text size="sm" c="var(--tw-muted)" data-testid="plan-limit-drafts">
            <FormattedMessage id={draftHint} />
          </Text>
        )}
      </Stack>
    );
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

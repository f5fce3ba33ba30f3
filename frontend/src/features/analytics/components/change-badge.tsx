import { Badge } from '@mantine/core';
import { useIntl } from 'react-intl';

/**
 * The change against the previous 90 days as a badge: "+12.5 %", "−3 %", "new" (no previous
 * count, some now) or "–" (nothing in both periods).
 * @param change percent, or null without a previous count
 * @param current the count of the current period
 */
export function ChangeBadge({ change, current, testId }: { change: number | null; current: number; testId?: string }) {
  const intl = useIntl();
  if (change === null) {
    return (
      <Badge variant="light" color={current > 0 ? 'teal' : 'gray'} data-testid={testId}>
        {current > 0 ? intl.formatMessage({ id: 'analytics.change.new' }) : '–'}
      </Badge>
    );
  }
  const text = `${change > 0 ? '+' : ''}${intl.formatNumber(change, { maximumFractionDigits: 1 })} %`;
  return (
    <Badge variant="light" color={change > 0 ? 'teal' : change < 0 ? 'red' : 'gray'} data-testid={testId}>
      {text}
    </Badge>
  );
}

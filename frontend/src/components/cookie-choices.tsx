import { Checkbox, Stack } from '@mantine/core';
import { FormattedMessage } from 'react-intl';

/**
 * The categories of the cookie notice's settings view (TDDDG §25): necessary (always on),
 * statistics (the anonymous view and click counts of issue 15) and marketing. Its own chunk: most visitors decide without opening the settings (issue 5).
 * @param statistics / marketing the current choice; onStatistics / onMarketing receive the new value
 */
export function CookieChoices({
  statistics,
  marketing,
  onStatistics,
  onMarketing,
}: {
  statistics: boolean;
  marketing: boolean;
  onStatistics: (checked: boolean) => void;
  onMarketing: (checked: boolean) => void;
}) {
  return (
    <Stack gap={4}>
      <Checkbox checked disabled label={<FormattedMessage id="cookies.necessary" />} />
      <Checkbox
        checked={statistics}
        onChange={(e) => onStatistics(e.currentTarget.checked)}
        label={<FormattedMessage id="cookies.statistics" />}
        description={<FormattedMessage id="cookies.statistics.description" />}
      />
      <Checkbox
        checked={marketing}
        onChange={(e) => onMarketing(e.currentTarget.checked)}
        label={<FormattedMessage id="cookies.marketing" />}
      />
    </Stack>
  );
}

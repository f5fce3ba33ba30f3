import { SegmentedControl } from '@mantine/core';
import { useIntl } from 'react-intl';

/** How a result page shows its results (issue 14): as a list or on the map (`view=map` in the URL). */
export type ResultView = 'list' | 'map';

/** The "List | Map" switch of the search and events pages. */
export function ViewSwitch({ value, onChange }: { value: ResultView; onChange: (view: ResultView) => void }) {
  const intl = useIntl();
  return (
    <SegmentedControl
      size="xs"
      value={value}
      onChange={(v) => onChange(v === 'map' ? 'map' : 'list')}
      aria-label={intl.formatMessage({ id: 'map.view.label' })}
      data={[
        { value: 'list', label: intl.formatMessage({ id: 'map.view.list' }) },
        { value: 'map', label: intl.formatMessage({ id: 'map.view.map' }) },
      ]}
      data-testid="view-switch"
    />
  );
}

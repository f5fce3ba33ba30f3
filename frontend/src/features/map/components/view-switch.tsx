import { Button } from '@mantine/core';
import { useIntl } from 'react-intl';

/** How a result page shows its results (issue 14): as a list or on the map (`view=map` in the URL). */
export type ResultView = 'list' | 'map';

const LABEL: Record<ResultView, string> = { list: 'map.view.list', map: 'map.view.map' };

/**
 * The "List | Map" switch of the search and events pages: two toggle buttons (`aria-pressed`).
 * Not Mantine's SegmentedControl: that control measures itself when it mounts, a forced layout
 * of the whole page in the same task as the results' render (Lighthouse TBT of /search, issue 18);
 * buttons also get the 44 px touch targets (app/global.css).
 */
export function ViewSwitch({ value, onChange }: { value: ResultView; onChange: (view: ResultView) => void }) {
  const intl = useIntl();
  return (
    <Button.Group aria-label={intl.formatMessage({ id: 'map.view.label' })} data-testid="view-switch">
      {(['list', 'map'] as const).map((view) => (
        <Button key={view} size="xs" variant={value === view ? 'filled' : 'default'} aria-pressed={value === view} onClick={() => value !== view && onChange(view)}>
          {intl.formatMessage({ id: LABEL[view] })}
        </Button>
      ))}
    </Button.Group>
  );
}

import { Grid, Text } from '@mantine/core';
import { Suspense, useMemo } from 'react';
import { lazyChunk } from '@/lib/load-chunk';
import { FormattedMessage, useIntl } from 'react-intl';
import { type Locale } from '@site/locale';
import { type Bounds, GERMANY, type MapItem } from '../api/map';
import { MapItemList } from './map-item-list';
import { MapLoading } from './map-loading';

const MapCanvas = lazyChunk(() => import('./map-canvas'));

/**
 * Bounds around points with a margin (10 % and at least 0.2°), or null without points.
 * @param items points in WGS84 degrees
 */
export function boundsAround(items: readonly Pick<MapItem, 'lon' | 'lat'>[]): Bounds | null {
  if (items.length === 0) return null;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const i of items) {
    w = Math.min(w, i.lon);
    e = Math.max(e, i.lon);
    s = Math.min(s, i.lat);
    n = Math.max(n, i.lat);
  }
  const dx = Math.max((e - w) * 0.1, 0.2);
  const dy = Math.max((n - s) * 0.1, 0.2);
  return [Math.max(-180, w - dx), Math.max(-85, s - dy), Math.min(180, e + dx), Math.min(85, n + dy)];
}

/**
 * The "Map" view of a result page (search, events; issue 14): the page's results on the map,
 * fitted to them, with the same results as a list beside it. `unplaced` counts results without a
 * place (online events, portfolios, unknown cities).
 */
export function ResultsMap({ items, unplaced, locale }: { items: readonly MapItem[]; unplaced: number; locale: Locale }) {
  const intl = useIntl();
  const bounds = useMemo(() => boundsAround(items) ?? GERMANY, [items]);
  return (
    <Grid gap="lg" data-testid="results-map">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Suspense fallback={<MapLoading height={480} items={items} bounds={bounds} />}>
          <MapCanvas items={items} initialBounds={bounds} fitTo={bounds} locale={locale} height={480} label={intl.formatMessage({ id: 'map.region' })} />
        </Suspense>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        {unplaced > 0 && (
          <Text fz="sm" c="dimmed" mb="xs" data-testid="results-map-unplaced">
            <FormattedMessage id="map.unplaced" values={{ count: unplaced }} />
          </Text>
        )}
        <MapItemList items={items} locale={locale} label={intl.formatMessage({ id: 'map.list.label' })} />
      </Grid.Col>
    </Grid>
  );
}

import { Box, Group, Loader, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useMemo } from 'react';
import { FormattedMessage } from 'react-intl';
import type { Bounds, MapCell, MapItem } from '../api/map';
import { bubbleSize, ItemClusters, project, type MapMarker } from '../lib/clusters';
import { LAYER_META } from './layer-meta';
import { MarkerPin } from './marker-pin';
import classes from './map-canvas.module.css';

/** Props of the placeholder: its height and, once known, what the map will show where. */
export interface MapLoadingProps {
  height: number | string;
  /** Items already loaded: drawn where the map will draw them while maplibre loads. */
  items?: readonly MapItem[];
  /** Grid cells of wide views (issue 34): drawn as count bubbles. */
  cells?: readonly MapCell[];
  /** The view the map opens with (WGS84 [west, south, east, north]); without it nothing is drawn. */
  bounds?: Bounds;
}

/**
 * The view maplibre shows when it fits `bounds` into a box of `width` × `height` px (whole bounds,
 * centred, Web Mercator, no padding): its zoom, the bounds the whole box shows (`visible`, wider
 * than `bounds` on the side the box has room), and `at(lon, lat)`, a point's position in the box
 * in px (null outside).
 */
export function fittedView(bounds: Bounds, width: number, height: number): { zoom: number; visible: Bounds; at: (lon: number, lat: number) => [number, number] | null } {
  const [w, s, e, n] = bounds;
  const nw = project(w, n, 0);
  const se = project(e, s, 0);
  const zoom = Math.log2(Math.min(width / (se.x - nw.x), height / (se.y - nw.y)));
  const scale = 2 ** zoom;
  const [cx, cy] = [((nw.x + se.x) / 2) * scale, ((nw.y + se.y) / 2) * scale];
  const size = 512 * scale;
  const lonAt = (x: number) => (x / size) * 360 - 180;
  const latAt = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI;
  return {
    zoom,
    visible: [lonAt(cx - width / 2), latAt(cy + height / 2), lonAt(cx + width / 2), latAt(cy - height / 2)],
    at: (lon, lat) => {
      const p = project(lon, lat, zoom);
      const [x, y] = [width / 2 + p.x - cx, height / 2 + p.y - cy];
      // half a pixel of slack: a point on the bounds' edge stays in despite rounding
      return x >= -0.5 && x <= width + 0.5 && y >= -0.5 && y <= height + 0.5 ? [x, y] : null;
    },
  };
}

/**
 * Placeholder of the map's size while maplibre loads (no layout shift). Given `items`, `cells` and
 * `bounds`, it already draws the markers and count bubbles of the map's first view, clustered as the
 * map clusters them (issue 34: on a slow phone the data arrives long before maplibre's large chunk
 * has run). They are pictures, hidden from screen readers: the list beside the map names the
 * same results, and the map's own markers are the buttons.
 */
export function MapLoading({ height, items = [], cells = [], bounds }: MapLoadingProps) {
  const { ref, width, height: boxHeight } = useElementSize();
  const clusters = useMemo(() => (items.length || cells.length ? new ItemClusters(items, cells) : null), [items, cells]);
  const drawn = useMemo(() => {
    if (!clusters || !bounds || !width || !boxHeight) return [];
    const view = fittedView(bounds, width, boxHeight);
    return clusters.markers(view.visible, view.zoom).flatMap((m) => {
      const at = view.at(m.lon, m.lat);
      return at ? [{ marker: m, at }] : [];
    });
  }, [clusters, bounds, width, boxHeight]);
  return (
    <Box
      ref={ref}
      h={height}
      pos="relative"
      bg="var(--tw-surface-muted)"
      style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}
      data-testid="map-loading"
      data-preview-markers={drawn.length > 0 ? 'true' : 'false'}
    >
      <div aria-hidden="true" className={classes.previewLayer}>
        {drawn.map(({ marker, at }) => (
          <PreviewMarker key={marker.key} marker={marker} at={at} />
        ))}
      </div>
      <Group gap="xs" pos="absolute" bottom={12} left={0} right={0} justify="center">
        <Loader size="sm" aria-hidden="true" />
        <Text fz="sm">
          <FormattedMessage id="map.loadingMap" />
        </Text>
      </Group>
    </Box>
  );
}

/** One marker of the placeholder: a cluster's count bubble centred on its point, an item's pin with its tip on it. */
function PreviewMarker({ marker, at }: { marker: MapMarker; at: [number, number] }) {
  if (marker.kind === 'item') {
    return (
      <span className={classes.previewPin} style={{ left: at[0], top: at[1] }} data-preview="pin">
        <MarkerPin layer={marker.item.layer} />
      </span>
    );
  }
  const size = bubbleSize(marker.count);
  return (
    <span className={`${classes.cluster} ${classes.previewCluster}`} style={{ left: at[0], top: at[1], width: size, height: size, borderColor: LAYER_META[marker.layers[0]!].color }} data-preview="cluster" data-count={marker.count}>
      {marker.count}
    </span>
  );
}

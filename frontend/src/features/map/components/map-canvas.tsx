import 'maplibre-gl/dist/maplibre-gl.css';
import { Badge, CloseButton, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { PositionAnchor } from 'maplibre-gl';
import MapGL, { AttributionControl, Marker, NavigationControl, Popup, type MapRef, type ViewStateChangeEvent } from 'react-map-gl/maplibre';
import { LocalLink } from '@/components/local-link';
import { type Locale } from '@site/locale';
import type { Bounds, CityLabel, MapCell, MapItem } from '../api/map';
import { bubbleSize, declutter, ItemClusters, type MapMarker } from '../lib/clusters';
import { MARKER_HEIGHT, MAX_ZOOM, mapStyle } from '../lib/map-style';
import { itemFacts, itemPath, LAYER_META } from './layer-meta';
import { MapLoading } from './map-loading';
import { MarkerPin } from './marker-pin';
import classes from './map-canvas.module.css';

/** Props of the map: what to draw and where to start. */
export interface MapCanvasProps {
  items: readonly MapItem[];
  /** Counts per grid cell of the layers that came as cells (issue 34): drawn as bubbles with their count. */
  cells?: readonly MapCell[];
  /**
   * Called when the user opens a bubble that holds cells, with the cells' area [w, s, e, n]; the map
   * has started to move there. Without it such a bubble zooms in like any cluster.
   */
  onArea?: (area: Bounds) => void;
  /** City labels (gazetteer coordinates); drawn under the markers, hidden from screen readers (the list names the cities). */
  cities?: readonly CityLabel[];
  /** The first view; the map keeps its own view afterwards, unless `fitTo` changes. */
  initialBounds: Bounds;
  /** Bounds to show whenever they change (a new page of results); the move is not the user's. */
  fitTo?: Bounds;
  locale: Locale;
  /** Accessible name of the map region. */
  label: string;
  height: number | string;
  /** Called after every move: the visible bounds, the zoom, and whether the user moved the map. */
  onViewChange?: (bounds: Bounds, zoom: number, byUser: boolean) => void;
}

type Selection = { lon: number; lat: number; items: MapItem[] } | null;

const NO_CELLS: readonly MapCell[] = [];

const boundsOf = (map: MapRef): Bounds => {
  const b = map.getBounds();
  return [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()];
};

/**
 * Popup offsets per anchor MapLibre may choose, in pixels: the popup keeps clear of a marker that
 * rises `above` px over its point (a pin anchored at its tip) and reaches `below` px under it.
 */
function popupOffset(above: number, below: number): Record<PositionAnchor, [number, number]> {
  const side = Math.round((above - below) / 2);
  return {
    center: [0, 0],
    top: [0, below],
    'top-left': [0, below],
    'top-right': [0, below],
    bottom: [0, -above],
    'bottom-left': [0, -above],
    'bottom-right': [0, -above],
    left: [14, -side],
    right: [-14, -side],
  };
}

/** One item's card in a popup: kind, title linking to the detail page, category, city, date or remote. */
function ItemCard({ item, locale }: { item: MapItem; locale: Locale }) {
  const intl = useIntl();
  const to = itemPath(item);
  const meta = LAYER_META[item.layer];
  return (
    <Stack gap={2} data-testid="map-popup-item">
      <Group gap={6}>
        <Badge size="xs" variant="outline" color={meta.color} styles={{ root: { color: meta.color, borderColor: meta.color } }}>
          <FormattedMessage id={meta.one} />
        </Badge>
        {item.remote && (
          <Badge size="xs" variant="outline" color="var(--tw-gray)">
            <FormattedMessage id="map.remote" />
          </Badge>
        )}
      </Group>
      {to ? (
        <LocalLink to={to} fw={700} fz="sm">
          {item.title}
        </LocalLink>
      ) : (
        <Text fw={700} fz="sm">
          {item.title}
        </Text>
      )}
      {item.subtitle && (
        <Text fz="xs" lineClamp={2}>
          {item.subtitle}
        </Text>
      )}
      <Text fz="xs" c="dimmed">
        {itemFacts(item, intl, locale)}
      </Text>
    </Stack>
  );
}

/**
 * The interactive map (issue 14): maplibre through react-map-gl with the local or configured
 * style, HTML markers (focusable buttons, 25 × 41 pins anchored at the tip, spec §9) clustered by
 * supercluster, a popup card per marker, city labels, navigation and attribution controls.
 * Honours reduced motion (no animated moves). Loaded only by routes that show a map.
 */
export default function MapCanvas({ items, cells = NO_CELLS, onArea, cities = [], initialBounds, fitTo, locale, label, height, onViewChange }: MapCanvasProps) {
  const intl = useIntl();
  const reduceMotion = useReducedMotion();
  const mapRef = useRef<MapRef>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<{ bounds: Bounds; zoom: number } | null>(null);
  const [selection, setSelection] = useState<Selection>(null);
  const clusters = useMemo(() => new ItemClusters(items, cells), [items, cells]);
  const markers: MapMarker[] = useMemo(() => (view ? clusters.markers(view.bounds, view.zoom) : []), [clusters, view]);
  const labels = useMemo(() => (view ? declutter(cities, view.zoom) : []), [cities, view]);
  // maplibre makes every marker element a labelled role=button ("Map marker"); ours carry a real
  // button (or are decorative labels) inside, so the wrapper must stay neutral (axe: nested-interactive)
  useEffect(() => {
    for (const el of wrapRef.current?.querySelectorAll('.maplibregl-marker[role]') ?? []) {
      el.removeAttribute('role');
      el.removeAttribute('aria-label');
    }
  });

  const fitKey = fitTo?.join(',');
  useEffect(() => {
    const [w, s, e, n] = fitKey ? fitKey.split(',').map(Number) : [];
    if (w !== undefined && s !== undefined && e !== undefined && n !== undefined) {
      mapRef.current?.fitBounds([[w, s], [e, n]], { padding: 40, maxZoom: 11, duration: 0 });
    }
  }, [fitKey]);
  const [style] = useState(() => mapStyle(new URL(import.meta.env.BASE_URL, window.location.origin).href));

  /** Reads the view after the first render and every move; `byUser` = a drag, wheel or key, not an ease we started. */
  const sync = (byUser: boolean) => {
    const map = mapRef.current;
    if (!map) return;
    const bounds = boundsOf(map);
    const zoom = map.getZoom();
    setView({ bounds, zoom });
    onViewChange?.(bounds, zoom, byUser);
  };

  const openCluster = (m: Extract<MapMarker, { kind: 'cluster' }>) => {
    const map = mapRef.current;
    if (!map) return;
    // counts per cell (issue 34): zoom to the cells and let the page ask for that area
    if (m.area && onArea) {
      const [w, s, e, n] = m.area;
      setSelection(null);
      map.fitBounds([[w, s], [e, n]], { padding: 20, maxZoom: MAX_ZOOM - 1, duration: reduceMotion ? 0 : 500 });
      onArea(m.area);
      return;
    }
    // a place whose items share one position (people in a city) never splits: list them
    if (m.expansionZoom >= MAX_ZOOM || map.getZoom() >= MAX_ZOOM - 1) {
      setSelection({ lon: m.lon, lat: m.lat, items: clusters.clusterItems(m.key) });
      return;
    }
    setSelection(null);
    map.easeTo({ center: [m.lon, m.lat], zoom: m.expansionZoom, duration: reduceMotion ? 0 : 500 });
  };

  return (
    <div ref={wrapRef} className={classes.wrap} style={{ height }} data-testid="map" data-markers-ready={markers.length > 0 ? 'true' : 'false'} data-zoom={view ? view.zoom.toFixed(2) : undefined} role="region" aria-label={label}>
      {view === null && (
        // until maplibre knows its view and draws the markers: where things are, as the placeholder shows them (issue 34)
        <div className={classes.preview}>
          <MapLoading height="100%" items={items} cells={cells} bounds={initialBounds} />
        </div>
      )}
      <MapGL
        ref={mapRef}
        initialViewState={{ bounds: [[initialBounds[0], initialBounds[1]], [initialBounds[2], initialBounds[3]]] }}
        mapStyle={style}
        maxZoom={MAX_ZOOM}
        minZoom={2}
        fadeDuration={reduceMotion ? 0 : 300}
        attributionControl={false}
        dragRotate={false}
        touchPitch={false}
        // the style is inline, so its first styledata comes before the basemap file has loaded:
        // markers show without waiting for the land and borders
        onStyleData={() => view === null && sync(false)}
        onLoad={() => sync(false)}
        onMoveEnd={(e: ViewStateChangeEvent) => sync(!!e.originalEvent)}
        style={{ width: '100%', height: '100%' }}
      >
        <NavigationControl showCompass={false} />
        <AttributionControl compact={false} />
        {labels.map((c) => (
          <Marker key={`city-${c.name}`} longitude={c.lon} latitude={c.lat} anchor="top" offset={[0, 22]} style={{ zIndex: 0, pointerEvents: 'none' }}>
            <span className={classes.city} aria-hidden="true">
              {c.name}
            </span>
          </Marker>
        ))}
        {markers.map((m) =>
          m.kind === 'cluster' ? (
            <Marker key={m.key} longitude={m.lon} latitude={m.lat} anchor="center" style={{ zIndex: 2 }}>
              <UnstyledButton
                className={classes.cluster}
                style={{ width: bubbleSize(m.count), height: bubbleSize(m.count), borderColor: LAYER_META[m.layers[0]!].color }}
                onClick={(e) => {
                  e.stopPropagation();
                  openCluster(m);
                }}
                aria-label={intl.formatMessage({ id: 'map.cluster' }, { count: m.count })}
                data-testid="map-cluster"
                data-count={m.count}
              >
                {m.count}
              </UnstyledButton>
            </Marker>
          ) : (
            <Marker key={m.key} longitude={m.lon} latitude={m.lat} anchor="bottom" style={{ zIndex: 1 }}>
              <UnstyledButton
                className={classes.pin}
                onClick={(e) => {
                  e.stopPropagation();
                  setSelection({ lon: m.lon, lat: m.lat, items: [m.item] });
                }}
                aria-label={intl.formatMessage({ id: 'map.marker' }, { kind: intl.formatMessage({ id: LAYER_META[m.item.layer].one }), title: m.item.title, city: m.item.city ?? '' })}
                data-testid="map-marker"
                data-layer={m.item.layer}
              >
                <MarkerPin layer={m.item.layer} />
              </UnstyledButton>
            </Marker>
          ),
        )}
        {selection && (
          <Popup
            longitude={selection.lon}
            latitude={selection.lat}
            // no fixed anchor: MapLibre puts the card below or beside the marker when there is no
            // room above it, so it is never cut off at the map's edge (issue 33 §11)
            offset={popupOffset(selection.items.length === 1 ? MARKER_HEIGHT : 20, selection.items.length === 1 ? 0 : 20)}
            closeButton={false}
            closeOnClick={false}
            maxWidth="300px"
            onClose={() => setSelection(null)}
          >
            <div className={classes.popup} data-testid="map-popup" onKeyDown={(e) => e.key === 'Escape' && setSelection(null)}>
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap={4}>
                <Text fz="xs" fw={600}>
                  {selection.items.length > 1 && <FormattedMessage id="map.popup.here" values={{ count: selection.items.length }} />}
                </Text>
                <CloseButton size="sm" aria-label={intl.formatMessage({ id: 'map.popup.close' })} onClick={() => setSelection(null)} data-autofocus />
              </Group>
              <Stack gap="sm" className={classes.popupList}>
                {selection.items.map((item) => (
                  <ItemCard key={`${item.layer}-${item.id}`} item={item} locale={locale} />
                ))}
              </Stack>
            </div>
          </Popup>
        )}
      </MapGL>
    </div>
  );
}

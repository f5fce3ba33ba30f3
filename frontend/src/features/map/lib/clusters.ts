import Supercluster from 'supercluster';
import type { Bounds, MapCell, MapItem, MapLayer } from '../api/map';
import { MAX_ZOOM } from './map-style';

/**
 * A marker to draw: one item, or a cluster of several with its count and the zoom that splits it.
 * `area` (issue 34): the cluster holds grid cells of a wide view (counts, not loaded items); a
 * click asks the database for this area ([west, south, east, north], the cells' union).
 */
export type MapMarker =
  | { kind: 'item'; key: string; lon: number; lat: number; item: MapItem }
  | { kind: 'cluster'; key: string; lon: number; lat: number; count: number; expansionZoom: number; layers: MapLayer[]; area?: Bounds };

/** Items per layer in a cluster, and the union of its cells' boxes (flat numbers: supercluster copies cluster properties shallowly; w > e = no cell). */
type ClusterProps = Record<MapLayer, number> & { w: number; s: number; e: number; n: number };

/** A point for supercluster: an item (i) or a cell (c). */
type PointProps = { i: number; c?: undefined } | { c: number; i?: undefined };

const LAYERS: readonly MapLayer[] = ['people', 'projects', 'events', 'jobs'];

/** Cluster radius in pixels: markers closer than this at a zoom merge into one cluster. */
const RADIUS = 48;

/**
 * Clustering of map items (issue 14) and of the grid cells of wide views (issue 34) with
 * supercluster: built once per result, queried per view. A cell weighs its count: a cluster's
 * count is the sum of its items and cell counts. Items at the same place (people share their
 * city's coordinates) stay a cluster up to the max zoom; `clusterItems` lists them for the popup.
 */
export class ItemClusters {
  private readonly index: Supercluster<PointProps, ClusterProps>;

  /**
   * @param items the loaded items (longitude/latitude in degrees)
   * @param cells counts per grid cell of the layers that came as cells (default none)
   */
  constructor(
    private readonly items: readonly MapItem[],
    private readonly cells: readonly MapCell[] = [],
  ) {
    this.index = new Supercluster<PointProps, ClusterProps>({
      radius: RADIUS,
      maxZoom: MAX_ZOOM - 1,
      map: (p) => {
        const cell = p.c === undefined ? undefined : cells[p.c]!;
        const layer = cell ? cell.layer : items[p.i!]!.layer;
        const n = cell ? cell.count : 1;
        const [w, s, e, no] = cell ? cell.bbox : [180, 90, -180, -90];
        return { people: layer === 'people' ? n : 0, projects: layer === 'projects' ? n : 0, events: layer === 'events' ? n : 0, jobs: layer === 'jobs' ? n : 0, w, s, e, n: no };
      },
      reduce: (acc, p) => {
        for (const layer of LAYERS) acc[layer] += p[layer];
        acc.w = Math.min(acc.w, p.w);
        acc.s = Math.min(acc.s, p.s);
        acc.e = Math.max(acc.e, p.e);
        acc.n = Math.max(acc.n, p.n);
      },
    });
    this.index.load([
      ...items.map((item, i) => ({ type: 'Feature' as const, properties: { i }, geometry: { type: 'Point' as const, coordinates: [item.lon, item.lat] } })),
      ...cells.map((cell, c) => ({ type: 'Feature' as const, properties: { c }, geometry: { type: 'Point' as const, coordinates: [cell.lon, cell.lat] } })),
    ]);
  }

  /**
   * Markers inside `bounds` at `zoom` (integer part used, as supercluster does).
   * @returns items and clusters, clusters with their layer mix (most frequent first)
   */
  markers(bounds: Bounds, zoom: number): MapMarker[] {
    const [w, s, e, n] = bounds;
    return this.index.getClusters([w, s, e, n], Math.floor(zoom)).map((f) => {
      const [lon, lat] = f.geometry.coordinates as [number, number];
      const props = f.properties as Partial<Supercluster.ClusterProperties> & Partial<ClusterProps> & Partial<PointProps>;
      if (props.cluster && props.cluster_id !== undefined) {
        const p = props as ClusterProps & Supercluster.ClusterProperties;
        const layers = LAYERS.filter((l) => p[l] > 0).sort((a, b) => p[b] - p[a]);
        return {
          kind: 'cluster',
          key: `c${p.cluster_id}`,
          lon,
          lat,
          count: LAYERS.reduce((sum, l) => sum + p[l], 0),
          expansionZoom: Math.min(this.index.getClusterExpansionZoom(p.cluster_id), MAX_ZOOM),
          layers,
          ...(p.w <= p.e ? { area: [p.w, p.s, p.e, p.n] as const } : {}),
        };
      }
      if (props.c !== undefined) {
        const cell = this.cells[props.c]!;
        return { kind: 'cluster', key: `g${cell.layer}-${props.c}`, lon, lat, count: cell.count, expansionZoom: MAX_ZOOM, layers: [cell.layer], area: cell.bbox };
      }
      const item = this.items[props.i!]!;
      return { kind: 'item', key: `${item.layer}-${item.id}`, lon, lat, item };
    });
  }

  /** The items of a cluster without cells (all of them, for a popup listing a place's items). */
  clusterItems(clusterKey: string): MapItem[] {
    const id = Number(clusterKey.slice(1));
    return this.index.getLeaves(id, Infinity).flatMap((f) => (f.properties.i === undefined ? [] : [this.items[f.properties.i]!]));
  }
}

/** Diameter in px of a cluster's count bubble: 30 px, growing with the count's log up to 48 px. */
export function bubbleSize(count: number): number {
  return 30 + Math.min(18, Math.log2(count) * 3);
}

/** Whether a point lies inside bounds (degrees). */
export function inBounds(lon: number, lat: number, [w, s, e, n]: Bounds): boolean {
  return lon >= w && lon <= e && lat >= s && lat <= n;
}

/** Web Mercator pixel position at a zoom (maplibre's 512 px world at zoom 0). */
export function project(lon: number, lat: number, zoom: number): { x: number; y: number } {
  const size = 512 * 2 ** zoom;
  const phi = (Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 180;
  return { x: ((lon + 180) / 360) * size, y: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size };
}

/**
 * Drops labels that would overlap a label placed before them at this zoom (greedy, in the given
 * order: the most populous city first).
 * @param labels points in degrees, in priority order
 * @param zoom map zoom
 * @param box minimum distance between label anchors in pixels (width, height)
 */
export function declutter<T extends { lon: number; lat: number }>(labels: readonly T[], zoom: number, box: { width: number; height: number } = { width: 96, height: 24 }): T[] {
  const placed: { x: number; y: number }[] = [];
  const out: T[] = [];
  for (const label of labels) {
    const p = project(label.lon, label.lat, zoom);
    if (placed.some((q) => Math.abs(q.x - p.x) < box.width && Math.abs(q.y - p.y) < box.height)) continue;
    placed.push(p);
    out.push(label);
  }
  return out;
}

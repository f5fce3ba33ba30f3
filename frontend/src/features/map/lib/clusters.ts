import Supercluster from 'supercluster';
import type { Bounds, MapItem, MapLayer } from '../api/map';
import { MAX_ZOOM } from './map-style';

/** A marker to draw: one item, or a cluster of several with its count and the zoom that splits it. */
export type MapMarker =
  | { kind: 'item'; key: string; lon: number; lat: number; item: MapItem }
  | { kind: 'cluster'; key: string; lon: number; lat: number; count: number; expansionZoom: number; layers: MapLayer[] };

/** Items per layer in a cluster (flat numbers: supercluster copies cluster properties shallowly). */
type ClusterProps = Record<MapLayer, number>;

const LAYERS: readonly MapLayer[] = ['people', 'projects', 'events', 'jobs'];

/** Cluster radius in pixels: markers closer than this at a zoom merge into one cluster. */
const RADIUS = 48;

/**
 * Clustering of map items (issue 14) with supercluster: built once per result, queried per view.
 * Items at the same place (people share their city's coordinates) stay a cluster up to the max
 * zoom; `clusterChildren` lists them for the popup.
 */
export class ItemClusters {
  private readonly index: Supercluster<{ i: number }, ClusterProps>;

  /** @param items the loaded items (longitude/latitude in degrees) */
  constructor(private readonly items: readonly MapItem[]) {
    this.index = new Supercluster<{ i: number }, ClusterProps>({
      radius: RADIUS,
      maxZoom: MAX_ZOOM - 1,
      map: (p) => {
        const layer = items[p.i]!.layer;
        return { people: layer === 'people' ? 1 : 0, projects: layer === 'projects' ? 1 : 0, events: layer === 'events' ? 1 : 0, jobs: layer === 'jobs' ? 1 : 0 };
      },
      reduce: (acc, p) => {
        for (const layer of LAYERS) acc[layer] += p[layer];
      },
    });
    this.index.load(items.map((item, i) => ({ type: 'Feature', properties: { i }, geometry: { type: 'Point', coordinates: [item.lon, item.lat] } })));
  }

  /**
   * Markers inside `bounds` at `zoom` (integer part used, as supercluster does).
   * @returns items and clusters, clusters with their layer mix (most frequent first)
   */
  markers(bounds: Bounds, zoom: number): MapMarker[] {
    const [w, s, e, n] = bounds;
    return this.index.getClusters([w, s, e, n], Math.floor(zoom)).map((f) => {
      const [lon, lat] = f.geometry.coordinates as [number, number];
      const props = f.properties as Partial<Supercluster.ClusterProperties> & ClusterProps & { i?: number };
      if (props.cluster && props.cluster_id !== undefined) {
        const layers = LAYERS.filter((l) => props[l] > 0).sort((a, b) => props[b] - props[a]);
        return {
          kind: 'cluster',
          key: `c${props.cluster_id}`,
          lon,
          lat,
          count: props.point_count ?? 0,
          expansionZoom: Math.min(this.index.getClusterExpansionZoom(props.cluster_id), MAX_ZOOM),
          layers,
        };
      }
      const item = this.items[props.i!]!;
      return { kind: 'item', key: `${item.layer}-${item.id}`, lon, lat, item };
    });
  }

  /** The items of a cluster (all of them, for a popup listing a place's items). */
  clusterItems(clusterKey: string): MapItem[] {
    const id = Number(clusterKey.slice(1));
    return this.index.getLeaves(id, Infinity).map((f) => this.items[f.properties.i]!);
  }
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

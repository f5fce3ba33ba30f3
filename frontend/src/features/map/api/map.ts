import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { unwrap } from '@/lib/api-error';
import { CATEGORIES } from '@/lib/categories';

/** The four map layers (issue 14), in drawing and list order. */
export const MAP_LAYERS = ['people', 'projects', 'events', 'jobs'] as const;
export type MapLayer = (typeof MAP_LAYERS)[number];

/** Bounds in WGS84 degrees: [west, south, east, north]. */
export type Bounds = readonly [number, number, number, number];

/** Germany with a margin: the map's first view (issue 14). */
export const GERMANY: Bounds = [5.5, 47.2, 15.5, 55.1];

/** Items per layer the map asks for (public.map_items allows 1..1000; 200 keeps a Germany-wide answer near 20 ms and 150 KB, scripts/bench/map.ts). */
export const MAP_MAX_ROWS = 200;

/** Map state as it lives in the URL: `/map?layers=people,events&category=art&from=…&to=…&remote=0&bbox=w,s,e,n`. */
export interface MapParams {
  layers: MapLayer[];
  category: string;
  from: string;
  to: string;
  /** false = remote jobs left out. */
  remote: boolean;
  /** The searched area ("Search this area"), or null for Germany. */
  bbox: Bounds | null;
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** Parses `w,s,e,n` into valid bounds (west < east, south < north, within range), else null. */
export function parseBounds(value: string | null): Bounds | null {
  if (!value) return null;
  const n = value.split(',').map(Number);
  if (n.length !== 4 || n.some((x) => !Number.isFinite(x))) return null;
  const [w, s, e, no] = n as [number, number, number, number];
  if (w < -180 || e > 180 || s < -90 || no > 90 || w >= e || s >= no) return null;
  return [w, s, e, no];
}

/** Reads map parameters from a URL query; unknown or malformed values fall back to the defaults. */
export function parseMapParams(search: URLSearchParams): MapParams {
  const raw = search.get('layers');
  const layers = raw === null ? [...MAP_LAYERS] : MAP_LAYERS.filter((l) => raw.split(',').includes(l));
  const category = search.get('category') ?? '';
  const date = (v: string | null) => (v && isoDate.test(v) ? v : '');
  return {
    layers,
    category: (CATEGORIES as readonly string[]).includes(category) ? category : '',
    from: date(search.get('from')),
    to: date(search.get('to')),
    remote: search.get('remote') !== '0',
    bbox: parseBounds(search.get('bbox')),
  };
}

/** Rounds a coordinate for the URL (5 decimals, about 1 m). */
const coord = (x: number) => String(Math.round(x * 1e5) / 1e5);

/** Inverse of parseMapParams: only non-default values go into the URL. */
export function toMapSearch(p: MapParams): URLSearchParams {
  const out = new URLSearchParams();
  if (p.layers.length !== MAP_LAYERS.length) out.set('layers', p.layers.join(','));
  if (p.category) out.set('category', p.category);
  if (p.from) out.set('from', p.from);
  if (p.to) out.set('to', p.to);
  if (!p.remote) out.set('remote', '0');
  if (p.bbox) out.set('bbox', p.bbox.map(coord).join(','));
  return out;
}

const itemFields = {
  id: z.string(),
  slug: z.optional(z.nullable(z.string())),
  title: z.string(),
  subtitle: z.nullable(z.string()),
  category: z.nullable(z.string()),
  city: z.nullable(z.string()),
  lat: z.number(),
  lon: z.number(),
};

const cellSchema = z.object({ count: z.number(), lat: z.number(), lon: z.number(), bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]) });

const responseSchema = z.object({
  cells: z.object({ people: z.array(cellSchema), projects: z.array(cellSchema), events: z.array(cellSchema), jobs: z.array(cellSchema) }),
  items: z.object({
    people: z.array(z.object(itemFields)),
    projects: z.array(z.object(itemFields)),
    events: z.array(z.object({ ...itemFields, starts_at: z.string(), ends_at: z.string() })),
    jobs: z.array(z.object({ ...itemFields, remote: z.boolean() })),
  }),
  capped: z.boolean(),
  capped_layers: z.array(z.string()),
  cities: z.array(z.object({ name: z.string(), lat: z.number(), lon: z.number(), count: z.number() })),
});

/** One item on the map: a person (city-level), project, event or job (public.map_items). */
export interface MapItem {
  layer: MapLayer;
  id: string;
  slug: string | null;
  title: string;
  subtitle: string | null;
  category: string | null;
  city: string | null;
  /** WGS84 degrees. */
  lat: number;
  lon: number;
  /** Events: start and end (ISO). */
  starts_at?: string;
  ends_at?: string;
  /** Jobs: remote work possible. */
  remote?: boolean;
}

/**
 * A grid cell of a wide view (issue 34): a layer with more items in the view than the map asks
 * for comes as counts per cell instead of items.
 */
export interface MapCell {
  layer: MapLayer;
  /** Items of the layer in the cell (same visibility and filters as the items). */
  count: number;
  /** Mean position of those items (WGS84 degrees): where the bubble is drawn. */
  lat: number;
  lon: number;
  /** The cell: [west, south, east, north] in degrees; a click asks for this area. */
  bbox: Bounds;
}

/** A city label: gazetteer coordinates and the number of loaded items there. */
export type CityLabel = z.infer<typeof responseSchema>['cities'][number];

/** The map's answer: every layer's items in one list (people, projects, events, jobs), the cap signal and city labels. */
export interface MapResponse {
  items: MapItem[];
  /** Layers with more items than MAP_MAX_ROWS in the view: their counts per grid cell (issue 34). */
  cells: MapCell[];
  capped: boolean;
  capped_layers: string[];
  cities: CityLabel[];
}

/** Flattens public.map_items' per-layer answer into one list of items and one of cells, each with their layer. */
export function toMapResponse(raw: z.infer<typeof responseSchema>): MapResponse {
  const items: MapItem[] = [];
  const cells: MapCell[] = [];
  for (const layer of MAP_LAYERS) {
    for (const item of raw.items[layer]) items.push({ ...item, slug: item.slug ?? null, layer });
    for (const cell of raw.cells[layer]) cells.push({ ...cell, layer });
  }
  return { items, cells, capped: raw.capped, capped_layers: raw.capped_layers, cities: raw.cities };
}

/**
 * The zoom at which bounds fill a map about 1000 px wide (maplibre zoom: a 512 px world at zoom 0): what the
 * RPC uses to decide how many city labels to return. Derived from the bounds so the URL alone
 * decides the request.
 */
export function zoomForBounds([west, , east]: Bounds): number {
  return Math.min(18, Math.max(0, Math.log2((360 / (east - west)) * (1000 / 512))));
}

/**
 * Calls `map_items` (GET /rest/v1/rpc/map_items, read-only: hosted Supabase may serve it from a
 * read replica, issue 34) for the URL state.
 * @returns items of the visible layers (at most about MAP_MAX_ROWS per layer, spread over the
 *   area), or for a layer with more than MAP_MAX_ROWS in the area its counts per grid cell
 *   (issue 34), `capped` when some item layer had more, city labels
 * @throws ApiError (22023 for bad bounds, layers, category or dates)
 */
export async function fetchMapItems(p: MapParams): Promise<MapResponse> {
  if (p.layers.length === 0) return { items: [], cells: [], capped: false, capped_layers: [], cities: [] };
  const bounds = p.bbox ?? GERMANY;
  const [west, south, east, north] = bounds;
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase
    .rpc('map_items', {
      west,
      south,
      east,
      north,
      zoom: zoomForBounds(bounds),
      layers: p.layers,
      category: p.category || undefined,
      date_from: p.from || undefined,
      date_to: p.to || undefined,
      include_remote: p.remote,
      max_rows: MAP_MAX_ROWS,
    }, { get: true })
    .retry(false);
  return toMapResponse(responseSchema.parse(unwrap(result, 'GET')));
}

/** Query options for the map; keyed by the normalised URL state. */
export const mapQueryOptions = (p: MapParams) =>
  queryOptions({
    queryKey: ['map', toMapSearch(p).toString()],
    queryFn: () => fetchMapItems(p),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** Hook for the map's items. */
export function useMapItems(p: MapParams) {
  return useQuery(mapQueryOptions(p));
}

/**
 * Coordinates of cities from the gazetteer (public.cities), for results that carry only a city
 * name (the search page's map view).
 * @param names city names as shown (case-insensitive match)
 * @returns lower-cased name → [longitude, latitude]
 * @throws ApiError
 */
export async function fetchCityPositions(names: readonly string[]): Promise<Map<string, [number, number]>> {
  const unique = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
  if (unique.length === 0) return new Map();
  const { supabase } = await import('@/lib/supabase');
  const rows = unwrap(await supabase.from('cities').select('name, latitude, longitude').in('name', unique).retry(false), 'GET') ?? [];
  return new Map(rows.map((r) => [r.name.toLowerCase(), [r.longitude, r.latitude] as [number, number]]));
}

/** Hook for fetchCityPositions; cached per set of names. */
export function useCityPositions(names: readonly string[], enabled = true) {
  const key = [...new Set(names)].sort().join('|');
  return useQuery({ queryKey: ['cities', key], queryFn: () => fetchCityPositions(names), enabled: enabled && key !== '', staleTime: Infinity });
}

/**
 * maplibre, loaded once (issue 34). The map's chunk is large (about 270 KB gzip); react-map-gl
 * would import it only once the map has mounted, after the page's first render. The map route's
 * preload (routes/index.ts) starts it as soon as the route matches, and MapCanvas hands the same
 * promise to react-map-gl (its `mapLib` prop), so the page renders while maplibre downloads.
 * @returns the maplibre module; rejects when its chunk fails to load (offline), and a later call tries again
 */
export function loadMapLib(): Promise<typeof import('maplibre-gl')> {
  loading ??= import('maplibre-gl').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

let loading: Promise<typeof import('maplibre-gl')> | undefined;

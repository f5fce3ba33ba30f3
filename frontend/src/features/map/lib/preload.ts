import type { PreloadContext } from '@/lib/route-def';
import { mapQueryOptions, parseMapParams } from '../api/map';
import { loadMapLib } from './map-lib';

/**
 * The map route's preload (issue 34): as soon as `/map` matches, starts the request for the
 * markers of the URL's view (the query the page then reads), maplibre and the map component, so
 * they load beside the page's module instead of one after the other after its first render.
 * Errors: none thrown; a failed request or chunk shows when the page itself asks again.
 */
export function preloadMap({ queryClient, search }: PreloadContext): void {
  void queryClient.prefetchQuery(mapQueryOptions(parseMapParams(search)));
  loadMapLib().catch(() => undefined);
  import('../components/map-canvas').catch(() => undefined);
}

import type { RouteModule } from '@/lib/route-def';

/** Loaded page modules by route id (filled by the navigation loader before the page renders). */
export const moduleCache = new Map<string, RouteModule>();

/** Data the navigation check hands to the page. */
export interface PageData {
  routeId: string;
  params: Record<string, string>;
}

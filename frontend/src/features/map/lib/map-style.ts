import type { StyleSpecification } from 'maplibre-gl';

/** Map constants of spec §9: marker 25 × 41 px (anchored at the tip), tiles of 256 px, max zoom 18. */
export const MARKER_WIDTH = 25;
export const MARKER_HEIGHT = 41;
export const TILE_SIZE = 256;
export const MAX_ZOOM = 18;

/** Attribution of the local basemap's data (shown in the map's attribution control). */
export const BASEMAP_ATTRIBUTION = 'Natural Earth (public domain) · GeoNames (CC BY 4.0)';

/** Colours of the local style (water, land, borders); light, so markers stand out. */
const WATER = '#cfe3f3';
const LAND = '#f4f1ea';
const GERMANY = '#fbfaf6';
const COUNTRY_LINE = '#8c8c8c';
const STATE_LINE = '#b9b4a8';

/**
 * The map's style (issue 14): VITE_MAP_STYLE_URL when a deployment points at a tile provider
 * (its sources should use tile size 256 and max zoom 18), else the local style that draws water,
 * land, European countries and Germany's federal states from `/map/basemap.json`, a file the app
 * serves itself (vite/basemap/basemap-plugin.ts). The local style has no glyphs and no sprite:
 * labels and markers are HTML, so no request leaves the app's origin.
 * @param origin absolute origin plus base path of the app, e.g. `http://127.0.0.1:5173/`
 */
export function mapStyle(origin: string): string | StyleSpecification {
  const configured = import.meta.env.VITE_MAP_STYLE_URL as string | undefined;
  if (configured) return configured;
  return {
    version: 8,
    sources: {
      basemap: { type: 'geojson', data: new URL('map/basemap.json', origin).href, attribution: BASEMAP_ATTRIBUTION, maxzoom: MAX_ZOOM },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': WATER } },
      { id: 'land', type: 'fill', source: 'basemap', filter: ['==', ['get', 'kind'], 'land'], paint: { 'fill-color': LAND } },
      { id: 'countries', type: 'fill', source: 'basemap', filter: ['==', ['get', 'kind'], 'country'], paint: { 'fill-color': LAND } },
      { id: 'germany', type: 'fill', source: 'basemap', filter: ['==', ['get', 'kind'], 'state'], paint: { 'fill-color': GERMANY } },
      {
        id: 'state-borders',
        type: 'line',
        source: 'basemap',
        filter: ['==', ['get', 'kind'], 'state'],
        paint: { 'line-color': STATE_LINE, 'line-width': ['interpolate', ['linear'], ['zoom'], 4, 0.5, 10, 1.5] },
      },
      {
        id: 'country-borders',
        type: 'line',
        source: 'basemap',
        filter: ['==', ['get', 'kind'], 'country'],
        paint: { 'line-color': COUNTRY_LINE, 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.6, 10, 2] },
      },
    ],
  };
}

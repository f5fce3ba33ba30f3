/**
 * The map's basemap without a tile server (issue 14): one GeoJSON file, `/map/basemap.json`,
 * served by `vite dev`/`vite preview` and emitted into the build. It holds
 * - `land`: the world's land (Natural Earth 1:110m through the npm package world-atlas, public
 *   domain), so zooming out never shows a void;
 * - `country`: European countries at 1:50m (world-atlas), with ISO numeric id and name (Russia, too
 *   large for the file, is land only);
 * - `state`: Germany's 16 federal states (Natural Earth admin-1 1:10m, extracted once into
 *   `de-states.json`, see extract-de-states.py).
 * Every feature has `properties.kind` ('land' | 'country' | 'state') and `name` where known.
 * Coordinates are rounded (2 decimals, about 1 km; the states 3) to keep the file small.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Connect, Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Public path of the generated file (relative to the app's base). */
export const BASEMAP_FILE = 'map/basemap.json';

/** Europe, generously (west, south, east, north in degrees): countries touching it come at 1:50m. */
const EUROPE: readonly [number, number, number, number] = [-25, 30, 45, 72];

function round(geometry: Geometry, decimals: number): Geometry {
  const f = 10 ** decimals;
  const ring = (points: Position[]) => {
    const out: Position[] = [];
    for (const [x, y] of points) {
      const p: Position = [Math.round(x! * f) / f, Math.round(y! * f) / f];
      const last = out[out.length - 1];
      if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
    }
    return out;
  };
  if (geometry.type === 'Polygon') return { type: 'Polygon', coordinates: geometry.coordinates.map(ring) };
  if (geometry.type === 'MultiPolygon') return { type: 'MultiPolygon', coordinates: geometry.coordinates.map((p) => p.map(ring)) };
  return geometry;
}

function bbox(geometry: Geometry): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const walk = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') {
      b[0] = Math.min(b[0], c[0] as number);
      b[1] = Math.min(b[1], c[1] as number);
      b[2] = Math.max(b[2], c[0] as number);
      b[3] = Math.max(b[3], c[1] as number);
    } else if (Array.isArray(c)) c.forEach(walk);
  };
  if ('coordinates' in geometry) walk(geometry.coordinates);
  return b;
}

/** A European country: touches EUROPE and spans less than 60° (Russia, the USA and Greenland come from `land`). */
const inEurope = (g: Geometry) => {
  const [w, s, e, n] = bbox(g);
  return e > EUROPE[0] && w < EUROPE[2] && n > EUROPE[1] && s < EUROPE[3] && e - w < 60;
};

function topoFeatures(file: string, object: string): Feature[] {
  const topology = require(`world-atlas/${file}`) as Topology<{ [k: string]: GeometryCollection<{ name?: string }> }>;
  return (feature(topology, topology.objects[object]!) as FeatureCollection<Geometry, { name?: string }>).features;
}

/** Builds the basemap GeoJSON text (deterministic). */
export function buildBasemap(): string {
  const out: Feature[] = [];
  for (const f of topoFeatures('land-110m.json', 'land')) {
    if (f.geometry) out.push({ type: 'Feature', properties: { kind: 'land' }, geometry: round(f.geometry, 2) });
  }
  for (const f of topoFeatures('countries-50m.json', 'countries')) {
    if (!f.geometry || !inEurope(f.geometry)) continue;
    out.push({ type: 'Feature', id: Number(f.id), properties: { kind: 'country', name: f.properties?.name ?? '' }, geometry: round(f.geometry, 2) });
  }
  const states = JSON.parse(readFileSync(path.join(here, 'de-states.json'), 'utf8')) as FeatureCollection;
  for (const f of states.features) out.push({ ...f, properties: { ...f.properties, kind: 'state' } });
  return JSON.stringify({ type: 'FeatureCollection', features: out });
}

/** Vite plugin: serves `/map/basemap.json` in dev and preview, emits it into the build. */
export function basemapPlugin(): Plugin {
  let cached: string | undefined;
  const text = () => (cached ??= buildBasemap());
  const middleware: Connect.NextHandleFunction = (req, res, next) => {
    if ((req.url ?? '').split('?')[0] !== `/${BASEMAP_FILE}`) return next();
    res.setHeader('Content-Type', 'application/geo+json; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.end(text());
  };
  return {
    name: 'teamwerk-basemap',
    configureServer(server) {
      server.middlewares.use(middleware);
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: BASEMAP_FILE, source: text() });
    },
  };
}

import { describe, expect, it } from 'vitest';
import { GERMANY, type MapItem, parseBounds, parseMapParams, toMapResponse, toMapSearch, zoomForBounds } from '../api/map';
import { declutter, inBounds, ItemClusters } from '../lib/clusters';
import { boundsAround } from '../components/results-map';
import { fittedView } from '../components/map-loading';

const item = (id: string, lon: number, lat: number, layer: MapItem['layer'] = 'projects'): MapItem => ({
  layer, id, slug: `s-${id}`, title: `T ${id}`, subtitle: null, category: null, city: null, lon, lat,
});

describe('map URL state', () => {
  it('round-trips and drops malformed values', () => {
    const p = parseMapParams(new URLSearchParams('layers=events,bogus,people&category=art&from=2026-12-01&to=bad&remote=0&bbox=6.1,50.2,7.3,51.4'));
    expect(p).toEqual({ layers: ['people', 'events'], category: 'art', from: '2026-12-01', to: '', remote: false, bbox: [6.1, 50.2, 7.3, 51.4] });
    expect(toMapSearch(p).toString()).toBe('layers=people%2Cevents&category=art&from=2026-12-01&remote=0&bbox=6.1%2C50.2%2C7.3%2C51.4');
    expect(parseMapParams(new URLSearchParams(''))).toMatchObject({ layers: ['people', 'projects', 'events', 'jobs'], remote: true, bbox: null });
    expect(parseMapParams(new URLSearchParams('layers='))).toMatchObject({ layers: [] });
  });

  it('accepts only real bounds', () => {
    for (const bad of ['1,2,3', '7,50,6,51', '6,51,7,50', '-200,50,7,51', '6,50,7,95', 'a,b,c,d', '6,50,7,Infinity']) expect(parseBounds(bad), bad).toBeNull();
    expect(parseBounds('-10.5,40,20,60')).toEqual([-10.5, 40, 20, 60]);
  });

  it('derives the zoom from the bounds width', () => {
    expect(zoomForBounds(GERMANY)).toBeGreaterThan(5);
    expect(zoomForBounds(GERMANY)).toBeLessThan(7);
    expect(zoomForBounds([6.9, 50.9, 7.0, 51.0])).toBeGreaterThan(zoomForBounds(GERMANY) + 5);
  });
});

describe('clusters', () => {
  const items = [item('a', 6.96, 50.94), item('b', 6.97, 50.95), item('c', 13.4, 52.52, 'events'), item('d', 11.58, 48.14, 'people')];

  it('merges near points at low zoom and splits them when zooming in', () => {
    const clusters = new ItemClusters(items);
    const low = clusters.markers(GERMANY, 5);
    const cluster = low.find((m) => m.kind === 'cluster');
    expect(cluster).toMatchObject({ kind: 'cluster', count: 2, layers: ['projects'] });
    expect(low.filter((m) => m.kind === 'item').map((m) => (m.kind === 'item' ? m.item.id : '')).sort()).toEqual(['c', 'd']);
    if (cluster?.kind !== 'cluster') throw new Error('no cluster');
    expect(cluster.expansionZoom).toBeGreaterThan(5);
    const high = clusters.markers(GERMANY, cluster.expansionZoom);
    expect(high.filter((m) => m.kind === 'item')).toHaveLength(4);
    expect(clusters.clusterItems(cluster.key).map((i) => i.id).sort()).toEqual(['a', 'b']);
  });

  it('weighs grid cells by their count and gives their area for a click (issue 34)', () => {
    const cells = [
      { layer: 'projects' as const, count: 120, lat: 50.94, lon: 6.96, bbox: [6.33, 50.63, 7.03, 51.33] as const },
      { layer: 'people' as const, count: 30, lat: 50.95, lon: 6.97, bbox: [6.33, 50.63, 7.03, 51.33] as const },
    ];
    const clusters = new ItemClusters([item('x', 6.98, 50.96, 'events')], cells);
    const [merged, ...rest] = clusters.markers(GERMANY, 5);
    expect(rest).toEqual([]);
    expect(merged).toMatchObject({ kind: 'cluster', count: 151, layers: ['projects', 'people', 'events'], area: [6.33, 50.63, 7.03, 51.33] });
    expect(clusters.clusterItems(merged!.key).map((i) => i.id)).toEqual(['x']);
    const alone = new ItemClusters([], cells.slice(0, 1)).markers(GERMANY, 5);
    expect(alone).toMatchObject([{ kind: 'cluster', count: 120, layers: ['projects'], area: [6.33, 50.63, 7.03, 51.33] }]);
    // clusters of items only have no area: they split or list their items as before
    expect(new ItemClusters(items).markers(GERMANY, 5).find((m) => m.kind === 'cluster')).not.toHaveProperty('area');
  });

  it('keeps only what lies in the bounds', () => {
    const clusters = new ItemClusters(items);
    const berlin = clusters.markers([13, 52, 14, 53], 10);
    expect(berlin).toHaveLength(1);
    expect(inBounds(13.4, 52.52, [13, 52, 14, 53])).toBe(true);
    expect(inBounds(12.9, 52.52, [13, 52, 14, 53])).toBe(false);
  });
});

describe('labels and fitting', () => {
  it('drops labels that would overlap a more important one', () => {
    const cities = [{ name: 'Köln', lon: 6.95, lat: 50.93 }, { name: 'Leverkusen', lon: 6.98, lat: 51.03 }, { name: 'Berlin', lon: 13.4, lat: 52.52 }];
    expect(declutter(cities, 5).map((c) => c.name)).toEqual(['Köln', 'Berlin']);
    expect(declutter(cities, 11).map((c) => c.name)).toEqual(['Köln', 'Leverkusen', 'Berlin']);
  });

  it('fits bounds around results with a margin', () => {
    expect(boundsAround([])).toBeNull();
    const [w, s, e, n] = boundsAround([{ lon: 6.95, lat: 50.93 }, { lon: 13.4, lat: 52.52 }])!;
    expect(w).toBeLessThan(6.95);
    expect(e).toBeGreaterThan(13.4);
    expect(s).toBeLessThan(50.93);
    expect(n).toBeGreaterThan(52.52);
    expect(boundsAround([{ lon: 7, lat: 50 }])).toEqual([6.8, 49.8, 7.2, 50.2]);
  });
});

describe('the RPC answer', () => {
  it('flattens the per-layer lists in layer order and fills the missing slug of jobs', () => {
    const base = { subtitle: null, category: 'art', city: 'Köln', lat: 50.9, lon: 6.9 };
    const flat = toMapResponse({
      cells: { people: [], projects: [{ count: 250, lat: 50.9, lon: 6.9, bbox: [6.3, 50.6, 7, 51.3] }], events: [], jobs: [] },
      items: {
        people: [{ ...base, id: 'p', slug: 'anna', title: 'Anna' }],
        projects: [],
        events: [{ ...base, id: '7', slug: 'treffen-7', title: 'Treffen', starts_at: '2027-01-01T18:00:00+00:00', ends_at: '2027-01-01T20:00:00+00:00' }],
        jobs: [{ ...base, id: 'dev-1', title: 'Dev', remote: true }],
      },
      capped: true,
      capped_layers: ['people'],
      cities: [],
    });
    expect(flat.items.map((i) => [i.layer, i.id, i.slug])).toEqual([['people', 'p', 'anna'], ['events', '7', 'treffen-7'], ['jobs', 'dev-1', null]]);
    expect(flat.items[2]!.remote).toBe(true);
    expect(flat).toMatchObject({ capped: true, capped_layers: ['people'] });
    expect(flat.cells).toEqual([{ layer: 'projects', count: 250, lat: 50.9, lon: 6.9, bbox: [6.3, 50.6, 7, 51.3] }]);
  });
});

describe("the placeholder's markers (issue 34)", () => {
  const [w, s, e, n] = GERMANY;
  it('fits the bounds as the map does: centred, whole, in Web Mercator', () => {
    // a tall box: Germany's width fills it, its height is centred
    const width = 400;
    const height = 900;
    const { at, zoom } = fittedView(GERMANY, width, height);
    // the zoom at which 10 degrees of longitude span 400 px of maplibre's 512 px world
    expect(zoom).toBeCloseTo(Math.log2((400 / 512) * (360 / (e - w))), 6);
    expect(at(w, (s + n) / 2)![0]).toBeCloseTo(0, 6);
    expect(at(e, (s + n) / 2)![0]).toBeCloseTo(width, 6);
    expect(at((w + e) / 2, n)![1] + at((w + e) / 2, s)![1]).toBeCloseTo(height, 6);
    // Mercator stretches the north: a degree of latitude near 55° spans more than one near 47°
    expect(at(10, 54)![1] - at(10, 55)![1]).toBeGreaterThan((at(10, 47.5)![1] - at(10, 48.5)![1]) * 1.1);
    // Berlin lies in the north-east quarter, Munich in the south
    const berlin = at(13.4, 52.52)!;
    expect(berlin[0]).toBeGreaterThan(width / 2);
    expect(berlin[1]).toBeLessThan(height / 2);
    expect(at(11.58, 48.14)![1]).toBeGreaterThan(height / 2);
  });

  it('shows more than the bounds on the side the box has room, the bounds themselves on the other', () => {
    const { visible } = fittedView(GERMANY, 400, 900);
    expect(visible[0]).toBeCloseTo(w, 6);
    expect(visible[2]).toBeCloseTo(e, 6);
    expect(visible[1]).toBeLessThan(s);
    expect(visible[3]).toBeGreaterThan(n);
    // the box is centred on the bounds in Mercator: as much room above as below, in px
    const { at } = fittedView(GERMANY, 400, 900);
    expect(at(10, n)![1]).toBeCloseTo(900 - at(10, s)![1], 6);
  });

  it('leaves out points outside the box', () => {
    const { at } = fittedView(GERMANY, 400, 400);
    expect(at(2.35, 48.86)).toBeNull();
    expect(at(10, 60)).toBeNull();
  });
});

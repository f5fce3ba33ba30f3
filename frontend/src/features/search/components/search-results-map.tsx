import { useMemo } from 'react';
import { type Locale } from '@site/locale';
import { type MapItem, type MapLayer, ResultsMap, useCityPositions } from '@/features/map';
import type { SearchResult } from '../api/search';

const LAYER: Partial<Record<string, MapLayer>> = { project: 'projects', event: 'events', profile: 'people' };

/**
 * The search page's "Map" view (issue 14): the current page of results at their cities'
 * coordinates (gazetteer; people are shown at city level anyway). Portfolios and results
 * without a known city are counted, not placed.
 */
export function SearchResultsMap({ results, locale }: { results: readonly SearchResult[]; locale: Locale }) {
  const positions = useCityPositions(results.map((r) => r.city ?? ''));
  const items = useMemo(() => {
    const out: MapItem[] = [];
    for (const r of results) {
      const layer = LAYER[r.type];
      const pos = r.city ? positions.data?.get(r.city.trim().toLowerCase()) : undefined;
      if (!layer || !pos) continue;
      out.push({ layer, id: r.id, slug: r.slug, title: r.title, subtitle: null, category: r.category, city: r.city, lon: pos[0], lat: pos[1] });
    }
    return out;
  }, [results, positions.data]);
  if (positions.isPending && results.some((r) => r.city)) return null;
  return <ResultsMap items={items} unplaced={results.length - items.length} locale={locale} />;
}

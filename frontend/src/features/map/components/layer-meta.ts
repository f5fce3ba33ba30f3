import type { IntlShape } from 'react-intl';
import { CATEGORY_LABEL } from '@/lib/categories';
import { type Locale } from '@site/locale';
import { formatEventRange } from '@/lib/format';
import { paths } from '@/config/paths';
import { PRIVATE_CATEGORY_LABEL } from '@/lib/categories';
import type { MapItem, MapLayer } from '../api/map';

/**
 * How each layer looks and reads (issue 14): colour (contrast ≥ 4.5:1 against white, for the
 * symbol and the legend), the symbol inside the pin (so layers differ in shape, not colour alone),
 * and the message ids of its name.
 */
export const LAYER_META: Record<MapLayer, { color: string; symbol: 'circle' | 'square' | 'star' | 'diamond'; label: string; one: string }> = {
  people: { color: '#0b7285', symbol: 'circle', label: 'map.layer.people', one: 'map.kind.person' },
  projects: { color: '#1864ab', symbol: 'square', label: 'map.layer.projects', one: 'map.kind.project' },
  events: { color: '#862e9c', symbol: 'star', label: 'map.layer.events', one: 'map.kind.event' },
  jobs: { color: '#b5400b', symbol: 'diamond', label: 'map.layer.jobs', one: 'map.kind.job' },
};

/** Detail page of an item, or null when it has none (a person without slug). */
export function itemPath(item: MapItem): string | null {
  switch (item.layer) {
    case 'people':
      return item.slug ? paths.profile(item.slug) : null;
    case 'projects':
      return item.slug ? paths.project(Number(item.id), item.slug) : null;
    case 'events':
      return item.slug ? paths.event(item.slug) : null;
    case 'jobs':
      return paths.job(item.id);
  }
}

/** Message id of an item's category (public or private project category), or null. */
export function categoryLabel(category: string | null): string | null {
  if (!category) return null;
  return CATEGORY_LABEL[category] ?? (PRIVATE_CATEGORY_LABEL as Record<string, string>)[category] ?? null;
}

/** The facts line of an item in a popup or the list: category, city and, for events, the dates. */
export function itemFacts(item: MapItem, intl: IntlShape, locale: Locale): string {
  const category = categoryLabel(item.category);
  return [category ? intl.formatMessage({ id: category }) : null, item.city, item.starts_at && item.ends_at ? formatEventRange(item.starts_at, item.ends_at, locale, 'medium') : null]
    .filter(Boolean)
    .join(' · ');
}

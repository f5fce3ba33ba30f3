import { paths } from '@/config/paths';
import type { AnalyticsItemType } from '@/lib/track';
import type { AnalyticsItem, AnalyticsSelection, Metric } from '../api/analytics';

/** Message ids of the metrics and item types (written out, so the message-key test sees them). */
export const METRIC_LABEL: Record<Metric, string> = {
  view: 'analytics.metric.view',
  connect_click: 'analytics.metric.connect_click',
  apply_click: 'analytics.metric.apply_click',
  external_link_click: 'analytics.metric.external_link_click',
  contact_request_received: 'analytics.metric.contact_request_received',
};
export const TYPE_LABEL: Record<AnalyticsItemType, string> = {
  organization: 'analytics.type.organization',
  profile: 'analytics.type.profile',
  project: 'analytics.type.project',
  job: 'analytics.type.job',
  event: 'analytics.type.event',
};

/** Public path of an item of the report (null for types without a page here). */
export function itemPath(item: AnalyticsItem): string | null {
  if (!item.slug) return null;
  switch (item.item_type) {
    case 'profile':
      return paths.profile(item.slug);
    case 'project':
      return `/${item.slug}`;
    case 'job':
      return paths.job(item.slug);
    case 'event':
      return paths.event(item.slug);
    case 'organization':
      return paths.org.page(item.slug);
    default:
      return null;
  }
}

/** The select's value of a selection: `type:id`, '' for all items. */
export const selectionValue = (s: AnalyticsSelection) => (s ? `${s.type}:${s.id}` : '');
/** The selection of a select value (`type:id`; empty or null → all items). */
export const parseSelection = (v: string | null): AnalyticsSelection => {
  if (!v) return null;
  const i = v.indexOf(':');
  return { type: v.slice(0, i) as AnalyticsItemType, id: v.slice(i + 1) };
};

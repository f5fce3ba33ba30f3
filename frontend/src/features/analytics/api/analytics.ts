/**
 * Reading analytics (issue 15): the report and CSV of the signed-in user's items through the
 * RPCs analytics_report / analytics_csv (Premium or better; the database decides with
 * private.analytics_can_read and answers PT402 premium_required below Premium).
 */
import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import { supabase } from '@/lib/supabase';
import type { AnalyticsItemType } from '@/lib/track';

/** The five metrics, in display order. */
export const METRICS = ['view', 'connect_click', 'apply_click', 'external_link_click', 'contact_request_received'] as const;
/** One metric of the report. */
export type Metric = (typeof METRICS)[number];
/** Counts per metric. */
export type MetricCounts = Record<Metric, number>;
/** Change in percent per metric against the previous 90 days; null without a previous count. */
export type MetricChange = Record<Metric, number | null>;

/** One item of the report. */
export interface AnalyticsItem {
  item_type: AnalyticsItemType;
  item_id: string;
  title: string | null;
  /** Path key: profile/event slug, project `id-slug`, job id. */
  slug: string | null;
  totals: MetricCounts;
  previous: MetricCounts;
  change: MetricChange;
}

/** Answer of analytics_report (days are ISO dates, Europe/Berlin). */
export interface AnalyticsReport {
  from: string;
  to: string;
  previous_from: string;
  previous_to: string;
  /** 90 days, oldest first, summed over the selected items. */
  series: Array<{ day: string } & MetricCounts>;
  totals: MetricCounts;
  previous: MetricCounts;
  change: MetricChange;
  items: AnalyticsItem[];
}

/** A selected item, or null for all own items. */
export type AnalyticsSelection = { type: AnalyticsItemType; id: string } | null;

/** Query key root of the analytics feature. */
export const ANALYTICS_KEY = ['analytics'] as const;

const args = (selection: AnalyticsSelection, organizationId: string | null) => ({
  ...(selection ? { p_item_type: selection.type, p_item_id: selection.id } : {}),
  ...(organizationId ? { p_organization_id: organizationId } : {}),
});

/**
 * The report of all own items or one item; with `organizationId`, of that organisation's items
 * (its page, listed members' profiles, its projects, jobs and events; owners and admins only).
 * @throws ApiError: code PT402 (message premium_required) below Premium, 42501 for another's item or
 *   organisation (not_organization_admin), 28000 signed out
 */
export const analyticsReportQuery = (selection: AnalyticsSelection, organizationId: string | null = null) =>
  queryOptions({
    queryKey: [...ANALYTICS_KEY, 'report', organizationId, selection?.type ?? null, selection?.id ?? null],
    queryFn: async (): Promise<AnalyticsReport> =>
      unwrap(await supabase.rpc('analytics_report', args(selection, organizationId)), 'POST') as unknown as AnalyticsReport,
    retry: false,
  });

/**
 * CSV of the selection (of an organisation with `organizationId`): one line per item and day of the
 * last 90 days (RFC 4180, CRLF).
 * @throws ApiError as analyticsReportQuery
 */
export async function fetchAnalyticsCsv(selection: AnalyticsSelection, organizationId: string | null = null): Promise<string> {
  return unwrap(await supabase.rpc('analytics_csv', args(selection, organizationId)), 'POST');
}

/** True when the error is the database's "Premium or better required" refusal. */
export function isPremiumRequired(error: unknown): boolean {
  const e = error as { code?: string; message?: string; status?: number } | null;
  return !!e && (e.code === 'PT402' || e.message === 'premium_required' || e.status === 402);
}

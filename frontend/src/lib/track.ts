/**
 * Counting views and clicks of public items (issue 15 "Analytics"), without supabase-js (public
 * pages keep their JavaScript budget): one POST to `rpc/analytics_track` per item, metric and
 * page load. Only with the visitor's consent to statistics cookies (TDDDG §25; without it no
 * request is made at all) and never for agents that name themselves crawlers. The database
 * decides the rest: one count per visitor (salted daily hash of address and browser), item,
 * metric and day; owners (recognised by the stored session's token) and bots are not counted.
 */
import { useEffect } from 'react';
import { isBot } from '@/lib/bots';
import { CONSENT_CHANGE_EVENT, hasConsent } from '@/lib/consent';
import { SUPABASE_ANON_KEY, SUPABASE_URL } from '@/lib/public-api';

/** What analytics counts (contract of issue 15). */
export type AnalyticsItemType = 'organization' | 'profile' | 'project' | 'job' | 'event';
/** Metrics the browser reports; contact requests received are counted by the database itself. */
export type TrackedMetric = 'view' | 'connect_click' | 'apply_click' | 'external_link_click';

/** Item, metric pairs already sent during this page load (the database de-duplicates per day anyway). */
const sent = new Set<string>();

/** The access token of the stored supabase-js session (`sb-<ref>-auth-token`), or null. */
function storedAccessToken(): string | null {
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith('sb-') || !key.endsWith('-auth-token')) continue;
      const token = (JSON.parse(localStorage.getItem(key) ?? 'null') as { access_token?: unknown } | null)?.access_token;
      return typeof token === 'string' ? token : null;
    }
  } catch {
    return null;
  }
  return null;
}

function post(body: string, token: string | null): Promise<Response> {
  return fetch(`${SUPABASE_URL}/rest/v1/rpc/analytics_track`, {
    method: 'POST',
    keepalive: true,
    headers: { apikey: SUPABASE_ANON_KEY, Authorization: `Bearer ${token ?? SUPABASE_ANON_KEY}`, 'Content-Type': 'application/json' },
    body,
  });
}

/**
 * Reports one view or click of a public item. Fire and forget: never throws, never delays the UI.
 * @param itemType / itemId the item (profile uuid, project/event id, job id as text)
 * @returns false when nothing was sent (no consent, crawler, already sent during this page load)
 */
export function trackItem(itemType: AnalyticsItemType, itemId: string | number, metric: TrackedMetric): boolean {
  const id = String(itemId);
  const key = `${itemType}:${id}:${metric}`;
  if (!id || sent.has(key) || !hasConsent('statistics') || isBot()) return false;
  sent.add(key);
  const body = JSON.stringify({ p_item_type: itemType, p_item_id: id, p_metric: metric, p_statistics_consent: true });
  const token = storedAccessToken();
  void post(body, token)
    // an expired stored token: count as a visitor rather than lose the view
    .then((res) => (res.status === 401 && token ? post(body, null) : res))
    .catch(() => undefined);
  return true;
}

/**
 * Counts a view of the item once its page has loaded (`itemId` undefined while loading), and
 * again when the visitor allows statistics on that page.
 */
export function useTrackView(itemType: AnalyticsItemType, itemId: string | number | undefined | null): void {
  useEffect(() => {
    if (itemId === undefined || itemId === null) return;
    const track = () => void trackItem(itemType, itemId, 'view');
    track();
    window.addEventListener(CONSENT_CHANGE_EVENT, track);
    return () => window.removeEventListener(CONSENT_CHANGE_EVENT, track);
  }, [itemType, itemId]);
}

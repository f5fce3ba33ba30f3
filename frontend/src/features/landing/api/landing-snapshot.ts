import { getPublicRpc } from '@/lib/public-api';

interface Owner {
  slug: string;
  name: string | null;
  img: string | null;
}

/** The answer of `landing_snapshot()` (supabase/schemas/17_landing.sql). */
export interface LandingSnapshot {
  stats: { members: number; projects: number; cities: number; upcoming_events: number };
  projects: { id: number; slug: string; title: string; summary: string; category: string | null; city: string | null; owner: Owner }[];
  events: { slug: string; title: string; category: string; city: string | null; is_online: boolean; is_paid: boolean; price_cents: number | null; starts_at: string; owner: Owner }[];
  people: { slug: string; name: string; img: string | null; headline: string | null; city: string | null }[];
  companies: number;
  cities: { name: string; count: number }[];
  plans: { id: string; name: string; monthly_cents: number; features_en: string[]; features_de: string[] }[];
}

/** The landing data or the fact that it could not be loaded (the page then shows a notice). */
export type LandingResult = { ok: true; data: LandingSnapshot } | { ok: false };

/** How long a loaded snapshot is reused before the next visit of / fetches again (ms; the server refreshes it every 5 min). */
const FRESH_MS = 5 * 60_000;
let cached: { at: number; promise: Promise<LandingResult> } | null = null;

/**
 * The landing snapshot as one shared promise for React's `use()` (issue 18: the live parts of /
 * arrive after the first paint without a data library in the landing bundle). The promise never
 * rejects: a failed request resolves to `{ ok: false }` and is retried on the next call.
 * @param now the current time in ms (callers pass Date.now() from outside render)
 */
export function landingSnapshot(now: number): Promise<LandingResult> {
  if (!cached || now - cached.at > FRESH_MS) {
    const promise = getPublicRpc<LandingSnapshot>('landing_snapshot').then(
      (data): LandingResult => ({ ok: true, data }),
      (): LandingResult => {
        cached = null;
        return { ok: false };
      },
    );
    cached = { at: now, promise };
  }
  return cached.promise;
}

import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
// zod/mini: the search page is public and performance-critical; the functional API tree-shakes (issue 5)
import * as z from 'zod/mini';
import { unwrap } from '@/lib/api-error';
import { isCategory } from '@/lib/categories';

/** The four site-search types of spec §6 (jobs are searched on /jobs). */
export const SEARCH_TYPES = ['project', 'portfolio', 'event', 'profile'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** The ten project categories (enum public.project_category), also used for events and jobs. */

/** Results per page (public.search allows 1..50). */
export const SEARCH_PAGE_SIZE = 10;

/** Search parameters as they live in the URL (`/search?q=…&type=event&city=…&from=…&to=…&page=2`). */
export interface SearchParams {
  q: string;
  types: SearchType[];
  category: string;
  city: string;
  from: string;
  to: string;
  page: number;
  /** List or map view of the results (issue 14). */
  view: 'list' | 'map';
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads search parameters from a URL query; unknown or malformed values are dropped so a
 * hand-edited URL never breaks the page (the RPC would answer 22023 for a bad type).
 */
export function parseSearchParams(search: URLSearchParams): SearchParams {
  const types = (search.get('type') ?? '')
    .split(',')
    .filter((t): t is SearchType => (SEARCH_TYPES as readonly string[]).includes(t));
  const category = search.get('category') ?? '';
  const page = Number.parseInt(search.get('page') ?? '1', 10);
  const date = (v: string | null) => (v && isoDate.test(v) ? v : '');
  return {
    q: (search.get('q') ?? '').slice(0, 200),
    types: [...new Set(types)],
    category: isCategory(category) ? category : '',
    city: (search.get('city') ?? '').slice(0, 100),
    from: date(search.get('from')),
    to: date(search.get('to')),
    page: Number.isFinite(page) && page > 0 ? Math.min(page, 1000) : 1,
    view: search.get('view') === 'map' ? 'map' : 'list',
  };
}

/** Inverse of parseSearchParams: only non-default values go into the URL (stable, shareable). */
export function toSearchParams(p: SearchParams): URLSearchParams {
  const out = new URLSearchParams();
  if (p.q.trim()) out.set('q', p.q.trim());
  if (p.types.length) out.set('type', p.types.join(','));
  if (p.category) out.set('category', p.category);
  if (p.city.trim()) out.set('city', p.city.trim());
  if (p.from) out.set('from', p.from);
  if (p.to) out.set('to', p.to);
  if (p.page > 1) out.set('page', String(p.page));
  if (p.view === 'map') out.set('view', 'map');
  return out;
}

const resultSchema = z.object({
  type: z.string(),
  id: z.string(),
  slug: z.nullable(z.string()),
  title: z.string(),
  title_highlight: z.string(),
  snippet: z.string(),
  category: z.nullable(z.string()),
  city: z.nullable(z.string()),
  date: z.nullable(z.string()),
  premium: z.boolean(),
  /** The listed owner's public face (issue 18; supabase/schemas/15_search.sql); for a person, the person. */
  owner: z.optional(z.nullable(z.object({ name: z.string(), img: z.nullable(z.string()), slug: z.string() }))),
});

const responseSchema = z.object({
  total: z.number(),
  total_capped: z.optional(z.boolean()),
  /** issue 34: the total of a huge result set is the database's estimate ("about 100,000 results"). */
  total_estimated: z.optional(z.boolean()),
  page: z.number(),
  page_size: z.number(),
  facets: z.object({
    types: z.record(z.string(), z.number()),
    categories: z.record(z.string(), z.number()),
    cities: z.array(z.object({ city: z.string(), count: z.number() })),
  }),
  results: z.array(resultSchema),
  /** issue 33 §2: close dictionary words when the words as typed found nothing ("did you mean …"). */
  suggestion: z.optional(z.string()),
});

/** One search hit (title_highlight/snippet: HTML-escaped text with `<mark>` only). */
export type SearchResult = z.infer<typeof resultSchema>;
/** Answer of public.search (spec §6; shape documented on the SQL function). */
export type SearchResponse = z.infer<typeof responseSchema>;

/**
 * Calls the `search` RPC (GET /rest/v1/rpc/search: a read-only call, which hosted Supabase's API
 * load balancer may serve from a read replica, issue 34; arrays go as `{a,b}`).
 * @throws ApiError with status/code (22023 invalid_type, query_too_long)
 */
export async function searchContent(p: SearchParams): Promise<SearchResponse> {
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase
    .rpc('search', {
      q: p.q.trim(),
      types: p.types.length ? p.types : undefined,
      category: p.category || undefined,
      city: p.city.trim() || undefined,
      date_from: p.from || undefined,
      date_to: p.to || undefined,
      page: p.page,
      page_size: SEARCH_PAGE_SIZE,
    }, { get: true })
    .retry(false);
  return responseSchema.parse(unwrap(result, 'GET'));
}

/** Query options for a search; the key is the normalised URL query so shared URLs hit the cache. */
export const searchQueryOptions = (p: SearchParams) =>
  queryOptions({ queryKey: ['search', toSearchParams({ ...p, view: 'list' }).toString()], queryFn: () => searchContent(p), placeholderData: keepPreviousData });

/** Hook for search results (keeps the previous page visible while the next one loads). */
export function useSearch(p: SearchParams, enabled = true) {
  return useQuery({ ...searchQueryOptions(p), enabled });
}

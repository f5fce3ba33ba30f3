import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';

const client = () => import('@/lib/supabase').then((m) => m.supabase);

/** A city of the gazetteer (public.cities: German cities from GeoNames, issue 14), WGS84 degrees. */
export interface GazetteerCity {
  name: string;
  state: string;
  latitude: number;
  longitude: number;
}

/** Suggestions per request of the city field. */
export const CITY_SUGGESTIONS = 8;

/** Removes the pattern characters of LIKE and PostgREST (`%`, `_`, `*`, `\`) from typed text. */
function likeSafe(text: string): string {
  return text.replace(/[%_*\\]/g, '').trim();
}

/**
 * Gazetteer cities whose name starts with `prefix` (case-insensitive), most populous first.
 * Input: typed text (pattern characters are dropped; fewer than 2 characters give []).
 * Output: at most {@link CITY_SUGGESTIONS} cities. Anyone may read the gazetteer (RLS cities_select).
 * @throws ApiError
 */
export async function suggestCities(prefix: string): Promise<GazetteerCity[]> {
  const q = likeSafe(prefix);
  if (q.length < 2) return [];
  const supabase = await client();
  const result = await supabase
    .from('cities')
    .select('name, state, latitude, longitude')
    .ilike('name', `${q}%`)
    .order('population', { ascending: false })
    .limit(CITY_SUGGESTIONS);
  return unwrap(result, 'GET');
}

/**
 * The gazetteer city of exactly this name (case and surrounding spaces ignored, as the database's
 * private.city_point matches it), or null: the position the database gives a project, event or
 * job in that city (trigger private.content_map_position, issue 14).
 * @throws ApiError
 */
export async function findCity(name: string): Promise<GazetteerCity | null> {
  const q = likeSafe(name);
  if (!q) return null;
  const supabase = await client();
  const result = await supabase.from('cities').select('name, state, latitude, longitude').ilike('name', q).limit(1).maybeSingle();
  return unwrap(result, 'GET');
}

/** Hook: suggestions for the typed text (kept while the next ones load). */
export function useCitySuggestions(prefix: string) {
  return useQuery({
    queryKey: ['cities', 'suggest', prefix.trim().toLowerCase()],
    queryFn: () => suggestCities(prefix),
    placeholderData: keepPreviousData,
    staleTime: 60 * 60 * 1000,
  });
}

/** Hook: the gazetteer city of this name, or null (disabled for an empty name). */
export function useGazetteerCity(name: string) {
  const key = name.trim().toLowerCase();
  return useQuery({ queryKey: ['cities', 'one', key], queryFn: () => findCity(name), enabled: key !== '', staleTime: 60 * 60 * 1000 });
}

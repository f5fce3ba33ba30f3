import { useQuery } from '@tanstack/react-query';
import { SUPABASE_ANON_KEY, SUPABASE_URL } from '@/lib/public-api';

/** The OAuth providers the product offers (spec §4: Google, LinkedIn), in the order shown. */
export const OAUTH_PROVIDERS = ['google', 'linkedin_oidc'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/**
 * The providers of OAUTH_PROVIDERS that an Auth `/settings` answer reports enabled (GoTrue's
 * `external.<provider>: true`), in OAUTH_PROVIDERS order.
 * @param settings the parsed JSON of GET /auth/v1/settings (anything else offers none)
 * @returns the providers to offer; empty when none is enabled or the answer is malformed
 */
export function offeredProviders(settings: unknown): OAuthProvider[] {
  const external = (settings as { external?: unknown } | null)?.external;
  if (!external || typeof external !== 'object') return [];
  return OAUTH_PROVIDERS.filter((p) => (external as Record<string, unknown>)[p] === true);
}

/**
 * GET /auth/v1/settings with the public anon key (plain fetch: supabase-js has no call for it).
 * @returns the parsed answer
 * @throws Error with the HTTP status when the answer is not 2xx (or the network failed)
 */
export async function fetchAuthSettings(signal?: AbortSignal): Promise<unknown> {
  const res = await fetch(`${SUPABASE_URL}/auth/v1/settings`, { headers: { apikey: SUPABASE_ANON_KEY }, signal });
  if (!res.ok) throw new Error(`auth settings: HTTP ${res.status}`);
  return res.json();
}

/**
 * The OAuth providers Auth has enabled, loaded when a page with sign-in buttons mounts (the
 * login page is its own chunk, so the landing page never fetches it) and kept for 5 minutes.
 */
export function useOfferedProviders() {
  return useQuery({
    queryKey: ['auth', 'settings', 'oauth-providers'],
    queryFn: async ({ signal }) => offeredProviders(await fetchAuthSettings(signal)),
    staleTime: 5 * 60_000,
  });
}

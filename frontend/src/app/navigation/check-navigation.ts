import { type Locale, localeFromPath, stripLocale, withLocale } from '@site/locale';
import type { RouteDef } from '@/lib/route-def';
import { GUARDS, type Guard, type GuardContext, runGuards } from './guards';
import { routeValidationError, unknownMiddlewareError, unmatchedRouteError } from '@/lib/navigation-error';
import { compilePattern, matchPattern } from './pattern';

/** Session facts the check needs; implemented with supabase-js in session-deps.ts, faked in tests. */
export interface NavigationDeps {
  userId: () => Promise<string | null>;
  hasActiveSubscription: (userId: string) => Promise<boolean>;
  isAdmin: (userId: string) => Promise<boolean>;
}

/** What the check decided. */
export type NavigationOutcome =
  | { kind: 'render'; route: RouteDef; params: Record<string, string>; locale: Locale }
  | { kind: 'redirect'; to: string }
  | { kind: 'external'; url: string };

const EXTERNAL = /^[a-z][a-z0-9+.-]*:\/\//i;

/** True for any path of the user area (`/user`, `/user/...`), with or without `/de`. */
export function isUserAreaPath(plainPath: string): boolean {
  return plainPath === '/user' || plainPath.startsWith('/user/');
}

/**
 * The check that runs before every navigation (spec §2 "Navigation behaviour", §8).
 * Order: user-area login rule → route match + validation → per-route redirect → guards.
 * @param url the URL being entered (pathname decides locale and route)
 * @param candidates routes sharing the matched router entry; `null` when nothing matched
 * @returns render / internal redirect (already locale-prefixed, query kept for login) / external URL
 * @throws NavigationError 'Page not found: {path}' (non-fatal, unmatched), 'Page Not Found: {path}'
 *   (fatal, validation), 'Unknown route middleware' (fatal, unknown guard)
 */
export async function checkNavigation(
  url: URL,
  candidates: readonly RouteDef[] | null,
  deps: NavigationDeps,
  registry: Readonly<Record<string, Guard>> = GUARDS,
): Promise<NavigationOutcome> {
  const locale = localeFromPath(url.pathname);
  const plain = stripLocale(url.pathname);
  let userIdPromise: Promise<string | null> | undefined;
  const userId = () => (userIdPromise ??= deps.userId());

  if (isUserAreaPath(plain) && !(await userId())) {
    return { kind: 'redirect', to: withLocale('/login', locale) };
  }
  if (!candidates) throw unmatchedRouteError(url.pathname);

  let route: RouteDef | undefined;
  let params: Record<string, string> = {};
  for (const candidate of candidates) {
    const matched = matchPattern(compilePattern(candidate.pattern), plain);
    if (matched && (!candidate.validate || candidate.validate(matched, url.searchParams))) {
      route = candidate;
      params = matched;
      break;
    }
  }
  if (!route) throw routeValidationError(url.pathname);

  if (route.redirect !== undefined) {
    const target =
      typeof route.redirect === 'string'
        ? route.redirect
        : await route.redirect({ params, search: url.searchParams, isSignedIn: async () => !!(await userId()) });
    if (target) {
      return EXTERNAL.test(target) ? { kind: 'external', url: target } : { kind: 'redirect', to: withLocale(target, locale) };
    }
  }

  const ctx: GuardContext = {
    path: plain,
    userId,
    hasActiveSubscription: async () => {
      const id = await userId();
      return id ? deps.hasActiveSubscription(id) : false;
    },
    isAdmin: async () => {
      const id = await userId();
      return id ? deps.isAdmin(id) : false;
    },
  };
  const outcome = await runGuards(route.guards ?? [], ctx, registry);
  if (outcome.kind === 'unknown') throw unknownMiddlewareError();
  if (outcome.kind === 'redirect') return { kind: 'redirect', to: withLocale(outcome.to, locale) };
  return { kind: 'render', route, params, locale };
}

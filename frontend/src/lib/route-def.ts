import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { type Locale } from '@site/locale';

/** The five layouts of spec §2. */
export type LayoutName = 'landing' | 'login-register' | 'default' | 'user' | 'admin';

/** Names of the route guards ("route middleware", spec §2/§6). */
export type GuardName = 'auth' | 'payment-required' | 'admin';

/** Props every page component receives: path parameters and the locale of the URL. */
export interface PageProps {
  params: Readonly<Record<string, string>>;
  locale: Locale;
}

/** What a route module exports: its page component as default export. */
export interface RouteModule {
  default: ComponentType<PageProps>;
}

/** Context a route's redirect function may use. */
export interface RedirectContext {
  params: Readonly<Record<string, string>>;
  search: URLSearchParams;
  isSignedIn: () => Promise<boolean>;
}

/**
 * Declaration of one route (plain path; the `/de` twin is derived). Feature folders export these
 * from `features/<x>/routes/index.ts`; the app router turns them into react-router routes.
 */
export interface RouteDef {
  /** Unique id (used for preloading and tests). */
  id: string;
  /**
   * Path pattern without locale prefix. `:name` matches one segment or, inside a segment, the
   * text up to the next literal (e.g. `/:id-:slug`, `/user/projects/create-project-:id`).
   */
  pattern: string;
  layout: LayoutName;
  /** Guards checked in order (a name the registry lacks still fails with 'Unknown route middleware' at run time). */
  guards?: readonly GuardName[];
  /** Validation of the matched parameters; false gives the fatal 'Page Not Found: {path}'. */
  validate?: (params: Readonly<Record<string, string>>, search: URLSearchParams) => boolean;
  /** Redirect before rendering: plain internal path (gets the locale prefix) or external URL; null = stay. */
  redirect?: string | ((ctx: RedirectContext) => Promise<string | null> | string | null);
  /** Listed in the sitemap (static public page). */
  sitemap?: boolean;
  /** Tell search engines not to index (test pages, forms behind links). */
  noindex?: boolean;
  /** Message ids of title and description (written out, so the message-key test sees them). */
  titleKey: string;
  descriptionKey: string;
  /** Loads the page module (code splitting). */
  load: () => Promise<RouteModule>;
  /** Ids of routes a visitor likely opens next; their modules are preloaded 1 s after mount. */
  next?: readonly string[];
  /** Prefetches data of likely next pages (TanStack Query), 1 s after mount (spec §9). */
  prefetch?: (queryClient: QueryClient, locale: Locale) => Promise<unknown>;
  /**
   * Starts fetching the page's own first data (TanStack Query, the query the page then reads) as
   * soon as the navigation admits the page, beside its module instead of after its first render
   * (issue 34: the map's markers). Failures are the page's to show: its query fetches again.
   */
  data?: (queryClient: QueryClient, url: URL) => Promise<unknown>;
}

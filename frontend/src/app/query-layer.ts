import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';

/**
 * The TanStack Query layer, loaded on demand (issue 18: the landing page's JavaScript stays within
 * 150 KB gzip; it renders without TanStack Query, so query-core is not part of it). Every other
 * page loads it together with its module (router.tsx) and its layout renders inside its provider
 * (layouts/layout-route.tsx); the signed-in header part wraps itself in a provider of the same client.
 */
export interface QueryLayerModule {
  /** The one query client (lib/query-client.ts). */
  queryClient: QueryClient;
  /** QueryClientProvider bound to that client. */
  QueryLayer: ComponentType<{ children: ReactNode }>;
}

let loading: Promise<QueryLayerModule> | undefined;
let loaded: QueryLayerModule | undefined;

/** Loads the query layer once; later calls get the same promise. Rejects when the chunk fails to load (offline), and a later call tries again. */
export function loadQueryLayer(): Promise<QueryLayerModule> {
  loading ??= import('./query-layer-impl').then(
    (m) => (loaded = m),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The query layer when it has loaded, else undefined (synchronous, for rendering). */
export function queryLayer(): QueryLayerModule | undefined {
  return loaded;
}

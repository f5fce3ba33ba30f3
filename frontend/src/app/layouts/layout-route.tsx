import { type ReactNode, use } from 'react';
import { Outlet } from 'react-router';
import type { LayoutName } from '@/lib/route-def';
import { loadQueryLayer, queryLayer } from '../query-layer';
import { LayoutFrame } from './layout-frame';

/**
 * Router element of a layout: its frame around the matched page. Every layout but the landing
 * layout renders inside the TanStack Query layer (app/query-layer.ts, issue 18): the navigation
 * loader has loaded it before such a layout first renders; should it not have (an error page), the
 * layout waits for it.
 */
export function LayoutRoute({ layout }: { layout: LayoutName }) {
  const frame = (
    <LayoutFrame layout={layout}>
      <Outlet />
    </LayoutFrame>
  );
  if (layout === 'landing') return frame;
  return <QueryLayerFor>{frame}</QueryLayerFor>;
}

/** Renders `children` inside the query layer, waiting for it to load when it has not yet (Suspense). */
export function QueryLayerFor({ children }: { children: ReactNode }) {
  const layer = queryLayer() ?? use(loadQueryLayer());
  return <layer.QueryLayer>{children}</layer.QueryLayer>;
}

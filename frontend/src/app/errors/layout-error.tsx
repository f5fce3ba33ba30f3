import { useRouteError } from 'react-router';
import type { LayoutName } from '@/lib/route-def';
import { LayoutFrame } from '../layouts/layout-frame';
import { QueryLayerFor } from '../layouts/layout-route';
import { errorInfo } from './error-info';
import { ErrorView } from './error-view';

/**
 * Error boundary of a layout: a non-fatal error shows inside the default layout's frame, a fatal
 * one (route validation, unknown guard) as a bare full page (spec §2, §8).
 */
export function LayoutError({ layout }: { layout: LayoutName }) {
  const error = useRouteError();
  if (errorInfo(error).fatal) {
    return (
      <main id="main">
        <ErrorView error={error} />
      </main>
    );
  }
  // the frame's parts (side navigation, account menu) may use TanStack Query (app/query-layer.ts)
  return (
    <QueryLayerFor>
      <LayoutFrame layout={layout === 'landing' ? 'default' : layout}>
        <ErrorView error={error} />
      </LayoutFrame>
    </QueryLayerFor>
  );
}

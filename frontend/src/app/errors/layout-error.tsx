import { useRouteError } from 'react-router';
import type { LayoutName } from '@/lib/route-def';
import { LayoutFrame } from '../layouts/layout-frame';
import { QueryLayerFor } from '../layouts/layout-route';
import { errorInfo } from './error-info';
import { ErrorView } from './error-view';

/**
 * Error boundary of a layout (spec §2, §8): a non-fatal error shows inside its route's layout; a
 * fatal one (route validation, unknown guard) replaces that layout with the default frame, so the
 * visitor keeps the header and footer to find their way on (issue 33 §11: the 404 of a mistyped
 * address had neither), without the user or admin area's side navigation.
 */
export function LayoutError({ layout }: { layout: LayoutName }) {
  const error = useRouteError();
  const frame = errorInfo(error).fatal || layout === 'landing' ? 'default' : layout;
  // the frame's parts (side navigation, account menu) may use TanStack Query (app/query-layer.ts)
  return (
    <QueryLayerFor>
      <LayoutFrame layout={frame}>
        <ErrorView error={error} />
      </LayoutFrame>
    </QueryLayerFor>
  );
}

import { Outlet } from 'react-router';
import type { LayoutName } from '@/lib/route-def';
import { LayoutFrame } from './layout-frame';

/** Router element of a layout: its frame around the matched page. */
export function LayoutRoute({ layout }: { layout: LayoutName }) {
  return (
    <LayoutFrame layout={layout}>
      <Outlet />
    </LayoutFrame>
  );
}

import { lazyChunk } from '@/lib/load-chunk';
import { AfterFirstPaint } from '@/components/after-first-paint';
import { LoadingState } from '@/components/query-state';

// The page's heading paints first; after that frame the form with its Mantine inputs and the
// response schema load and the query starts (issue 5: mobile Lighthouse performance of /search,
// 0.83 -> 0.91; without waiting for the frame the browser found no moment to paint in between).
const LazySearchView = lazyChunk(() => import('./search-view').then((m) => ({ default: m.SearchView })));

/**
 * The search UI (see SearchView), mounted once the browser painted the page, showing the search
 * loading state until then.
 * @param props the props of SearchView (locale, params, onChange, mode)
 */
export function SearchViewSlot(props: Parameters<typeof LazySearchView>[0]) {
  return (
    <AfterFirstPaint fallback={<LoadingState messageId="search.loading" />}>
      <LazySearchView {...props} />
    </AfterFirstPaint>
  );
}

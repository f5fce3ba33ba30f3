import { type ReactNode, Suspense, useEffect, useState } from 'react';

/**
 * Renders `children` (typically a React.lazy component) only after the browser painted the page
 * once (one animation frame plus a task), inside a Suspense boundary; until then, and while the
 * lazy module loads, `fallback`. Pages use it so their heading paints before heavy parts load
 * (issue 5: mobile Lighthouse performance of /search and /prices).
 */
export function AfterFirstPaint({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, []);
  return painted ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}

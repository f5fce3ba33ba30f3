import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';

/** Longest wait for the browser's first-contentful-paint entry (ms) before running anyway. */
const FCP_WAIT_MS = 3000;

/**
 * Calls `run` after the next animation frame once the page's first paint was presented: at once
 * (next task) when the browser already recorded its first contentful paint, else when a `paint`
 * entry arrives (PerformanceObserver), at the latest after FCP_WAIT_MS. Returns a cancel function.
 */
function whenFirstPaintPresented(run: () => void): () => void {
  let timer = 0;
  let observer: PerformanceObserver | undefined;
  const go = () => {
    observer?.disconnect();
    clearTimeout(timer);
    timer = window.setTimeout(run, 0);
  };
  const frame = requestAnimationFrame(() => {
    if (performance.getEntriesByName('first-contentful-paint').length) return go();
    try {
      observer = new PerformanceObserver(go);
      observer.observe({ type: 'paint' });
    } catch {
      // no paint timing in this browser: the timer below decides
    }
    timer = window.setTimeout(go, FCP_WAIT_MS);
  });
  return () => {
    cancelAnimationFrame(frame);
    observer?.disconnect();
    clearTimeout(timer);
  };
}

/**
 * Runs `callback` once, after the browser presented the page's first paint (on later navigations:
 * after the next frame), so work and requests it starts never delay the first paint (issue 5 and
 * 18: mobile Lighthouse counts a request started before the first paint towards Largest
 * Contentful Paint). Unmounting before then cancels it. The latest `callback` is the one called.
 */
export function useAfterFirstPaint(callback: () => void): void {
  const latest = useRef(callback);
  useEffect(() => {
    latest.current = callback;
  });
  useEffect(() => whenFirstPaintPresented(() => latest.current()), []);
}

/**
 * Renders `children` (typically a React.lazy component) only after the browser painted the page
 * once (useAfterFirstPaint), inside a Suspense boundary; until then, and while the lazy module
 * loads, `fallback`. Pages use it so their heading paints before heavy parts load (issue 5:
 * mobile Lighthouse performance of /search and /prices).
 */
export function AfterFirstPaint({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const [painted, setPainted] = useState(false);
  useAfterFirstPaint(() => setPainted(true));
  return painted ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}

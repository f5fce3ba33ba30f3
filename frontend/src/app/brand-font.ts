import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
// the same emitted file as the @font-face in app/fonts.css (one asset per content hash)
import interLatinUrl from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url';
import { readConsent } from '@/lib/consent';

/**
 * Brand font loading (issue 18: a visual identity with Inter, and Lighthouse mobile at or above
 * the baseline). Decoding and shaping the 48 KB variable font before the first paint costs a
 * phone about 0.3 s of First and Largest Contentful Paint, and swapping it in while a page is
 * shown moves its text (layout shift). So a visit's first page view stays in the system font;
 * once that page has loaded, the Latin file is fetched into the browser cache (network only: it
 * is decoded when a page uses it, so the first view gets no extra main-thread work either), and
 * the next page the visitor opens is drawn in it (a navigation replaces the content anyway).
 * Later visits start with it when the browser cache still has the file (index.html reads the
 * storage key and sets data-tw-font="returning": 'Inter Optional', font-display optional, so
 * never a swap either). */

/** Attribute on <html> that switches `--tw-font-family` to Inter (app/fonts.css). */
export const BRAND_FONT_ATTRIBUTE = 'data-tw-font';
/** localStorage key: Inter was loaded on this browser (value "inter"); read by index.html. */
export const BRAND_FONT_STORAGE_KEY = 'teamwerk-font';

let fontReady = false;

/**
 * Fetches Inter's Latin file into the browser cache `delayMs` after the window's load event,
 * without decoding or using it; remembers it for the next page view and, once the visitor has
 * answered the cookie notice, for the next visit. Call it
 * once, from the entry module (which runs before the load event).
 * @param delayMs milliseconds to wait after the load event (default 1000: past the data the pages
 *   fetch after their first paint, so the font never competes with it)
 * Errors: none; when the file cannot be fetched, the site keeps the system font.
 */
export function loadBrandFont(delayMs = 1000): void {
  const start = () =>
    fetch(interLatinUrl, { priority: 'low' })
      .then((response) => (response.ok ? response.arrayBuffer() : null))
      .then((body) => {
        if (!body) return;
        fontReady = true;
        // nothing is stored on the device before the visitor's choice in the cookie notice
        // (TDDDG §25); until then each visit starts in the system font
        if (readConsent() === null) return;
        try {
          localStorage.setItem(BRAND_FONT_STORAGE_KEY, 'inter');
        } catch {
          // storage blocked: the next visit starts in the system font again
        }
      })
      .catch(() => undefined);
  window.addEventListener('load', () => setTimeout(start, delayMs), { once: true });
}

/**
 * Hook for the root route: when the visitor opens another page (the path changes) and Inter is
 * in the cache, switches the site to it before that page is painted (font-display fallback: the
 * text waits the few milliseconds the cached file takes to decode instead of flashing).
 */
export function useBrandFontOnNavigation(): void {
  const { pathname } = useLocation();
  const firstPath = useRef(pathname);
  useLayoutEffect(() => {
    if (fontReady && pathname !== firstPath.current) document.documentElement.setAttribute(BRAND_FONT_ATTRIBUTE, 'inter');
  }, [pathname]);
}

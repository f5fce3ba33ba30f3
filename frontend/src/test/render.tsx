import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { IntlProvider } from 'react-intl';
import { MemoryRouter, useLocation } from 'react-router';
import de from '@/i18n/de.json';
import en from '@/i18n/en.json';
import { PRODUCT_NAME } from '@/lib/constants';
import { type Locale, localeFromPath } from '@site/locale';

const CATALOGUES: Record<Locale, Record<string, string>> = { en, de };

/** A catalogue as the build makes it: `{product}` filled in (vite/precompile-messages.ts does the same). */
function messages(locale: Locale): Record<string, string> {
  return Object.fromEntries(Object.entries(CATALOGUES[locale]).map(([id, text]) => [id, text.replaceAll('{product}', PRODUCT_NAME)]));
}

/**
 * A message of the catalogue with its simple `{name}` arguments filled in, for assertions
 * (plural and select arguments are not supported: compare those through the screen).
 * @throws Error when the id is missing, so a renamed message fails loudly
 */
export function t(locale: Locale, id: string, values: Record<string, string | number> = {}): string {
  const text = messages(locale)[id];
  if (text === undefined) throw new Error(`no message ${id} in ${locale}`);
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * The input labelled `label` (exactly; Mantine adds ` *` to required fields' labels), as
 * Playwright's `getByLabel(label, { exact: true })` finds it.
 * @throws when there is none or more than one
 */
export function field(label: string): HTMLInputElement {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return screen.getByLabelText(new RegExp(`^${escaped}(\\s*\\*)?$`), { selector: 'input, textarea, select' });
}

/**
 * happy-dom paints nothing, so it records no first contentful paint: parts that wait for it
 * (components/after-first-paint.tsx) would wait their 3 s fallback. Report one, as a browser does.
 */
function reportFirstPaint(): void {
  const original = performance.getEntriesByName.bind(performance);
  if ((performance.getEntriesByName as { stubbed?: boolean }).stubbed) return;
  const stub = (name: string, type?: string) =>
    name === 'first-contentful-paint' ? ([{ name, entryType: 'paint', startTime: 1, duration: 0 }] as unknown as PerformanceEntryList) : original(name, type);
  performance.getEntriesByName = Object.assign(stub, { stubbed: true });
}

/**
 * What happy-dom lacks and Mantine uses: `document.fonts` (Textarea's autosize listens for fonts
 * that finish loading). A FontFaceSet with nothing to load.
 */
function provideFontSet(): void {
  if (document.fonts) return;
  const fonts = Object.assign(new EventTarget(), { ready: Promise.resolve(), status: 'loaded', check: () => true, load: () => Promise.resolve([]) });
  Object.defineProperty(document, 'fonts', { value: fonts, configurable: true });
}

/** What `renderScreen` returns: Testing Library's result and the router's current address. */
export interface ScreenResult extends RenderResult {
  /** Path, query and hash the in-memory router is at now (follows the screen's navigations). */
  location: () => string;
}

/**
 * Renders a screen as the SPA shows it, without a stack: Mantine with the snackbar host, the
 * full message catalogue of the locale (from `path`: `/de…` is German, unless `locale` says
 * otherwise), a fresh TanStack Query client without retries (a failed request shows
 * its error state at once; pass the app's `queryClient` of lib/query-client.ts to test its retry
 * policy) and an in-memory router at `path`. The data layer is mocked at the
 * network edge (MSW, src/test/msw.ts), so the screen's own fetchers and supabase-js run unchanged.
 * @returns Testing Library's render result and `location()`, the router's current address
 */
export function renderScreen(
  ui: ReactElement,
  { locale, path = '/', queryClient: client }: { locale?: Locale; path?: string; queryClient?: QueryClient } = {},
): ScreenResult {
  reportFirstPaint();
  provideFontSet();
  // the snackbars are module state of @mantine/notifications: none is left over from an earlier screen
  notifications.clean();
  notifications.cleanQueue();
  const lang = locale ?? localeFromPath(new URL(path, 'http://localhost').pathname);
  const queryClient = client ?? new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  let current = path;
  function LocationProbe() {
    const { pathname, search, hash } = useLocation();
    current = `${pathname}${search}${hash}`;
    return null;
  }
  const result = render(
    <MantineProvider>
      <Notifications />
      <IntlProvider locale={lang} defaultLocale="en" messages={messages(lang)}>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={[path]}>
            <LocationProbe />
            {ui}
          </MemoryRouter>
        </QueryClientProvider>
      </IntlProvider>
    </MantineProvider>,
  );
  return Object.assign(result, { location: () => current });
}

import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { IntlProvider } from 'react-intl';
import { MemoryRouter } from 'react-router';
import de from '@/i18n/de.json';
import en from '@/i18n/en.json';
import { PRODUCT_NAME } from '@/lib/constants';
import type { Locale } from '@site/locale';

const CATALOGUES: Record<Locale, Record<string, string>> = { en, de };

/** A catalogue as the build makes it: `{product}` filled in (vite/precompile-messages.ts does the same). */
function messages(locale: Locale): Record<string, string> {
  return Object.fromEntries(Object.entries(CATALOGUES[locale]).map(([id, text]) => [id, text.replaceAll('{product}', PRODUCT_NAME)]));
}

/**
 * Renders a screen as the SPA shows it, without a stack: Mantine, the full message catalogue of
 * `locale`, a fresh TanStack Query client without retries (a failed request shows its error state at
 * once) and an in-memory router at `path`. The data layer is mocked at the network edge (MSW,
 * src/test/msw.ts), so the screen's own fetchers and supabase-js run unchanged.
 * @returns Testing Library's render result
 */
export function renderScreen(ui: ReactElement, { locale = 'en', path = '/' }: { locale?: Locale; path?: string } = {}): RenderResult {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <IntlProvider locale={locale} defaultLocale="en" messages={messages(locale)}>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
        </QueryClientProvider>
      </IntlProvider>
    </MantineProvider>,
  );
}

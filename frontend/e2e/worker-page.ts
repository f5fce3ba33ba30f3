import { test as base, type Page } from '@playwright/test';

/**
 * `test` whose `page` is one browser page per worker, for specs that only visit pages and change
 * no state (the public-pages check and axe-core scan of every page in both languages, the other
 * a11y scans).
 *
 * A fresh context per test made each of them download, parse and compile the SPA's JavaScript
 * cold; here the context's HTTP cache and the compiled code carry over, while everything a
 * visitor carries does not: cookies are cleared before each test, local and session storage after
 * it, the viewport is restored, and the console / page-error listeners a test adds are removed (spec files that sign in,
 * click or store anything keep Playwright's own `page`).
 *
 * Input: the project's `baseURL` and `locale` (playwright.config.ts `use`). Output: the same
 * `page` fixture API; failures report per test as before.
 */
export const test = base.extend<object, { workerPage: Page }>({
  workerPage: [
    async ({ browser }, provide, workerInfo) => {
      const { baseURL, locale } = workerInfo.project.use;
      const context = await browser.newContext({ baseURL, locale });
      const page = await context.newPage();
      await provide(page);
      await context.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ workerPage }, provide) => {
    await workerPage.context().clearCookies();
    const viewport = workerPage.viewportSize();
    await provide(workerPage);
    if (viewport) await workerPage.setViewportSize(viewport);
    workerPage.removeAllListeners('console');
    workerPage.removeAllListeners('pageerror');
    await workerPage
      .evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      })
      .catch(() => undefined);
    await workerPage.goto('about:blank');
  },
});

export { expect } from '@playwright/test';

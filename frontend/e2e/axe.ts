import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * The one way the browser tests start an axe-core scan: an `AxeBuilder` for `page` in the
 * builder's legacy mode, which runs `axe.run` in the page itself. The default mode runs each frame
 * partially and then opens a blank page to merge the results (for cross-origin frames), which cost
 * 2 to 5 s per scan here, several times the scan itself; the product's pages have no cross-origin
 * frames, so nothing is left unscanned. Chain `.withTags`, `.withRules`, `.include`, `.exclude` and
 * `.analyze()` as usual.
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true);
}

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PRODUCT_NAME } from '../constants';

// a fresh module per test: the catalogue state (parts loaded, catalogue published) is module state
let i18n: typeof import('../i18n');
beforeEach(async () => {
  vi.resetModules();
  i18n = await import('../i18n');
});

describe('message catalogue loading (issues 5 and 18)', () => {
  it('preloading fetches the full catalogue without handing it to the page on screen', async () => {
    const listener = vi.fn();
    i18n.subscribeMessages(listener);
    await i18n.preloadMessages('de');
    expect(listener).not.toHaveBeenCalled();
    expect(i18n.loadedMessages('de')).toBeUndefined();

    // the next navigation publishes it
    const messages = await i18n.loadMessages('de');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(i18n.loadedMessages('de')).toBe(messages);
    expect(messages['privacy.title']).toBeDefined();
    // compiled with the product name filled in: no `{product}` argument is left for react-intl
    expect(JSON.stringify(messages['about.title'])).toContain(PRODUCT_NAME);
    expect(JSON.stringify(messages['about.title'])).not.toContain('"product"');
  });

  it('the navigation check publishes quietly; a larger catalogue replaces a smaller one, never the reverse', async () => {
    const listener = vi.fn();
    i18n.subscribeMessages(listener);
    const shell = await i18n.loadMessages('en', 'shell');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(i18n.loadedMessages('en')).toBe(shell);

    const full = await i18n.loadMessages('en', 'full', { notify: false });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(i18n.loadedMessages('en')).toBe(full);
    expect(full).not.toBe(shell);

    // asking for less returns what is there, without publishing again
    await expect(i18n.loadMessages('en', 'pages')).resolves.toBe(full);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(i18n.loadedMessages('de')).toBeUndefined();
  });

  it('calls waiting at the same time publish once', async () => {
    const listener = vi.fn();
    i18n.subscribeMessages(listener);
    const [a, b] = await Promise.all([i18n.loadMessages('de'), i18n.loadMessages('de')]);
    expect(a).toBe(b);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

import { describe, expect, it } from 'vitest';
import { readCookie } from '../cookies';
import { initialLocaleRedirect, localeFromPath, preferredLocale, stripLocale, switchLocalePath, withLocale } from '@site/locale';

describe('locale resolution (spec §2, §9)', () => {
  it('reads the locale from the path prefix', () => {
    expect(localeFromPath('/')).toBe('en');
    expect(localeFromPath('/prices')).toBe('en');
    expect(localeFromPath('/de')).toBe('de');
    expect(localeFromPath('/de/prices')).toBe('de');
    expect(localeFromPath('/design')).toBe('en');
    expect(localeFromPath('/delta/de')).toBe('en');
  });

  it('adds and removes the /de prefix', () => {
    expect(withLocale('/', 'de')).toBe('/de');
    expect(withLocale('/prices', 'de')).toBe('/de/prices');
    expect(withLocale('/prices', 'en')).toBe('/prices');
    expect(stripLocale('/de')).toBe('/');
    expect(stripLocale('/de/legal/Datenschutzhinweise')).toBe('/legal/Datenschutzhinweise');
    expect(stripLocale('/design')).toBe('/design');
  });

  it('prefers the cookie over the browser language, then English', () => {
    expect(preferredLocale('de', ['en-US'])).toBe('de');
    expect(preferredLocale('en', ['de-DE', 'de'])).toBe('en');
    expect(preferredLocale(undefined, ['de-AT', 'en'])).toBe('de');
    expect(preferredLocale(undefined, ['fr-FR', 'de'])).toBe('de');
    expect(preferredLocale('xx', ['fr-FR'])).toBe('en');
    expect(preferredLocale(undefined, [])).toBe('en');
  });

  it('redirects a first visit of a plain URL to German only when German is preferred', () => {
    expect(initialLocaleRedirect('/prices', undefined, ['de-DE'])).toBe('/de/prices');
    expect(initialLocaleRedirect('/', 'de', ['en-US'])).toBe('/de');
    expect(initialLocaleRedirect('/prices', 'en', ['de-DE'])).toBeNull();
    expect(initialLocaleRedirect('/prices', undefined, ['en-GB'])).toBeNull();
    // an explicit /de URL is never redirected, even for English speakers
    expect(initialLocaleRedirect('/de/prices', 'en', ['en-US'])).toBeNull();
  });

  it('switching language keeps the page, query and hash', () => {
    expect(switchLocalePath('/prices', '?plan=basic', '#faq', 'de')).toBe('/de/prices?plan=basic#faq');
    expect(switchLocalePath('/de/prices', '', '', 'en')).toBe('/prices');
    expect(switchLocalePath('/de', '', '', 'en')).toBe('/');
    expect(switchLocalePath('/', '', '', 'de')).toBe('/de');
  });

  it('reads cookies by exact name', () => {
    expect(readCookie('teamwerk_locale', 'a=1; teamwerk_locale=de; b=2')).toBe('de');
    expect(readCookie('teamwerk_locale', 'xteamwerk_locale=de')).toBeUndefined();
  });
});

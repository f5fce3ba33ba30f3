import type { Locale } from './constants';

const intlLocale = (locale: Locale): string => (locale === 'de' ? 'de-DE' : 'en-GB');

/**
 * Formats a whole-euro amount for the locale: 19 → "19 €" (de), "€19" (en) (issue 5).
 * @param euros amount in euros (not cents)
 */
export function formatEuro(euros: number, locale: Locale): string {
  return new Intl.NumberFormat(intlLocale(locale), {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: Number.isInteger(euros) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(euros);
}

/** Formats a date (Date or ISO string) as a medium date for the locale, e.g. "21. Nov. 2026". */
export function formatDate(value: Date | string, locale: Locale): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'medium' }).format(date);
}

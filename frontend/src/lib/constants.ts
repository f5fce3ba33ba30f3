/** The product's name, used in titles, texts and e-mails (spec §2 `/ueber-{product}`). */
export const PRODUCT_NAME = 'Teamwerk';

/** Name of the cookie holding the chosen locale and its lifetime (spec §9: 365 days). */
export const LOCALE_COOKIE = 'teamwerk_locale';
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Name of the cookie that stores the cookie-notice choice (TDDDG §25; necessary cookie). */
export const CONSENT_COOKIE = 'teamwerk_consent';

/** Default lifetime of a snackbar (spec §9: 4000 ms). */
export const TOAST_DURATION_MS = 4000;

/** Delay before the data of likely next pages is preloaded (spec §9: 1 s after mount). */
export const PRELOAD_DELAY_MS = 1000;

/**
 * User-supplied URLs (issue 12: "profile links accept javascript: URLs"): an absolute http(s) URL
 * with a host name (or IPv6 literal), an optional port, no user info
 * ("https://bank.example@evil.example"), no whitespace or control characters, at most 2048
 * characters. The database decides on write (check constraints with private.is_http_url and
 * private.is_apply_url); the SPA's forms validate with the same rule and its pages render only
 * links that pass it, so no unchecked value ever becomes an `href` or `src`. The TypeScript copy of
 * the database's rule is the one left here until the database hands it out.
 */
export const MAX_URL_LENGTH = 2048;

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HTTP_URL = new RegExp(
  `^https?://(?:\\[[0-9a-f:.]+\\]|${LABEL}(?:\\.${LABEL})*\\.?)(?::[0-9]{1,5})?(?:[/?#][^\\s\\p{Cc}]*)?$`,
  'iu',
);
/** A plain mailto: address without headers such as ?body= (jobs.apply_url, private.is_apply_url). */
const MAILTO = /^mailto:[a-z0-9._%+-]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;

function matchesHttpUrl(value: string): boolean {
  return value.length <= MAX_URL_LENGTH && HTTP_URL.test(value);
}

/** True for an http(s) URL with a host as the database accepts it. */
export function isHttpUrl(value: unknown): value is string {
  return typeof value === 'string' && matchesHttpUrl(value);
}

/** True for an https URL with a host (images, join links). */
export function isHttpsUrl(value: unknown): value is string {
  return isHttpUrl(value) && /^https:/i.test(value);
}

/**
 * The `href` for a user-supplied link: the value itself when it is an http(s) URL with a host
 * (with `mailto: true` also a plain mailto: address), else `undefined`, so the element renders
 * without a link.
 */
export function safeHref(value: string | null | undefined, options: { mailto?: boolean } = {}): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (matchesHttpUrl(value)) return value;
  if (options.mailto && value.length <= 330 && MAILTO.test(value)) return value;
  return undefined;
}

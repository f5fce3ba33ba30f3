import { isHttpsUrl, isHttpUrl } from '@site/url';
import { z } from 'zod';

/**
 * zod schema of a form field holding a URL: trimmed, http(s) with a host (https only with
 * `httpsOnly`), at most `max` characters (default 500, the forms' column limits).
 * The URL rule itself (isHttpUrl, isHttpsUrl, safeHref) is the shared one of `@site`
 * (supabase/functions/_shared/site/url.ts).
 * @param message message id shown for every violation
 */
export function httpUrlSchema(message: string, options: { max?: number; httpsOnly?: boolean } = {}) {
  const max = options.max ?? 500;
  return z
    .string()
    .trim()
    .max(max, message)
    .refine((value) => (options.httpsOnly ? isHttpsUrl(value) : isHttpUrl(value)), message);
}

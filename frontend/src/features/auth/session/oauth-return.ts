/**
 * The URL this document was opened with, captured when the login page module is first evaluated
 * — before supabase-js (imported after this module) reads the OAuth answer from the fragment or
 * query and clears it. An OAuth return is always a full page load, so the first evaluation is
 * the one that matters.
 */
export const INITIAL_URL: string = typeof window === 'undefined' ? '' : window.location.href;

/** True when `url` carries an OAuth answer (session fragment, PKCE code or error). */
export function isOAuthReturn(url: string): boolean {
  if (!url) return false;
  const parsed = new URL(url);
  return /(^|&)(access_token|error)=/.test(parsed.hash.slice(1)) || parsed.searchParams.has('code') || parsed.searchParams.has('error');
}

let taken = false;

/** The OAuth answer URL of this document for the page at `pathname`, until it was handled (pure read). */
export function pendingOAuthReturn(pathname: string): string | null {
  if (taken || !isOAuthReturn(INITIAL_URL) || new URL(INITIAL_URL).pathname !== pathname) return null;
  return INITIAL_URL;
}

/** Marks the OAuth answer as handled: a later visit of the login page in this document is a normal visit. */
export function markOAuthReturnHandled(): void {
  taken = true;
}

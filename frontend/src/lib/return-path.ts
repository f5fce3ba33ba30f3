/**
 * Where to go after logging in (issue 15: an invitation link opened while logged out comes back
 * to the invitation after login or registration). A page that needs a signed-in visitor stores its
 * own path before sending them to /login or /registration; after the login the visitor goes there.
 * Only internal paths are accepted (one leading slash, no scheme, no `//` host), so the value can
 * never send the visitor to another site.
 */

const KEY = 'teamwerk.returnPath';
/** A stored return path older than this is ignored (one day, in milliseconds). */
const MAX_AGE_MS = 24 * 3600_000;

/** True for an internal path like `/invitations/abc` or `/de/org/x` (no `//`, no backslash, no scheme). */
export function isSafeReturnPath(value: string | null | undefined): value is string {
  return !!value && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\') && !/^\/[a-z][a-z0-9+.-]*:/i.test(value) && value.length <= 512;
}

/** Remembers `path` (with locale prefix) as the place to return to after the next login. */
export function rememberReturnPath(path: string): void {
  if (!isSafeReturnPath(path)) return;
  try {
    localStorage.setItem(KEY, JSON.stringify({ path, at: Date.now() }));
  } catch {
    // storage unavailable (private mode): the visitor lands on the default page
  }
}

/** Forgets the remembered path; the page it points to calls this once the visitor arrived signed in. */
export function forgetReturnPath(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // storage unavailable
  }
}

/**
 * The path to go to after a login: the `next` query parameter when it is a safe internal path,
 * else the remembered one when it is younger than a day. It stays stored (the login form and the
 * session watcher, which both react to the same sign-in, go to the same place) until the target
 * page calls forgetReturnPath or it expires.
 * @param next value of the login page's `next` query parameter, if any
 * @returns the path to navigate to, or null for the default (/user)
 */
export function peekReturnPath(next: string | null): string | null {
  let stored: string | null = null;
  try {
    const raw = localStorage.getItem(KEY);
    if (raw) {
      const parsed = JSON.parse(raw) as { path?: unknown; at?: unknown };
      if (typeof parsed.path === 'string' && typeof parsed.at === 'number' && Date.now() - parsed.at < MAX_AGE_MS) stored = parsed.path;
    }
  } catch {
    stored = null;
  }
  if (isSafeReturnPath(next)) return next;
  return isSafeReturnPath(stored) ? stored : null;
}

/**
 * GoTrue's Postgres-function hooks (`[auth.hook.<name>]` with `uri =
 * "pg-functions://postgres/<schema>/<function>"` in supabase/config.toml): Auth calls the function
 * with a JSON event and reads a JSON answer; `{ error: { http_code, message } }` refuses the
 * action with that status (GoTrue's contract, see `callHook`). Used for `custom_access_token` (every token Auth
 * issues) and `before_user_created` (sign-ups through Auth itself: e-mail, magic link, OAuth,
 * anonymous; not the admin API).
 */
import { AuthApiError, internalError } from './errors.ts';
import type { AuthSettings } from './settings.ts';
import type { Queryable } from './store.ts';

const FN_RE = /^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/;

/**
 * Calls hook function `fn` (`schema.function`) with `event`. Returns its answer object.
 *
 * An answer `{ error: { http_code, message } }` refuses the action the way GoTrue does
 * (supabase/auth `internal/hooks/hookserrors/hookserrors.go` `check`, answered by
 * `internal/api/errors.go` `handleResponseErrorHTTP`): an error without a message is no error;
 * `http_code` 0 or missing becomes 500; the API error carries no error code of its own, so the
 * body says `unknown` (`unexpected_failure` for 500) and no `x-sb-error-code` header is sent.
 * Errors: AuthApiError(http_code, 'unknown' | 'unexpected_failure', message) for a refusal;
 * 500 when the function is misnamed or answers nothing.
 */
export async function callHook(db: Queryable, fn: string, event: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!FN_RE.test(fn)) throw internalError(`invalid hook function name ${fn}`);
  const r = await db.query<{ out: Record<string, unknown> | null }>(`select ${fn}($1::jsonb) as out`, [JSON.stringify(event)]);
  const out = r.rows[0]?.out;
  if (!out || typeof out !== 'object') throw internalError(`hook ${fn} returned nothing`);
  const error = out.error as { http_code?: unknown; message?: unknown } | undefined;
  if (error && typeof error === 'object' && typeof error.message === 'string' && error.message !== '') {
    const code = Number(error.http_code);
    const status = Number.isInteger(code) && code !== 0 ? code : 500;
    throw new AuthApiError(status, status === 500 ? 'unexpected_failure' : 'unknown', error.message, {}, { noErrorCodeHeader: true });
  }
  return out;
}

/** The before_user_created hook, when configured: refuses the new user with its error. */
export async function beforeUserCreated(
  db: Queryable,
  settings: AuthSettings,
  user: { email: string | null; app_metadata: Record<string, unknown>; user_metadata: Record<string, unknown>; is_anonymous?: boolean },
): Promise<void> {
  if (!settings.beforeUserCreatedHook) return;
  await callHook(db, settings.beforeUserCreatedHook, { metadata: { name: 'before-user-created' }, user: { is_anonymous: false, ...user } });
}

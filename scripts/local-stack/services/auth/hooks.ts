/**
 * GoTrue's Postgres-function hooks (`[auth.hook.<name>]` with `uri =
 * "pg-functions://postgres/<schema>/<function>"` in supabase/config.toml): Auth calls the function
 * with a JSON event and reads a JSON answer; `{ error: { http_code, message } }` refuses the
 * action with that status (GoTrue's contract). Used for `custom_access_token` (every token Auth
 * issues) and `before_user_created` (sign-ups through Auth itself: e-mail, magic link, OAuth,
 * anonymous; not the admin API).
 */
import { AuthApiError, internalError } from './errors.ts';
import type { AuthSettings } from './settings.ts';
import type { Queryable } from './store.ts';

const FN_RE = /^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/;

/**
 * Calls hook function `fn` (`schema.function`) with `event`. Returns its answer object.
 * Errors: AuthApiError(http_code, 'hook_rejected', message) when the answer carries `error`;
 * 500 when the function is misnamed or answers nothing.
 */
export async function callHook(db: Queryable, fn: string, event: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!FN_RE.test(fn)) throw internalError(`invalid hook function name ${fn}`);
  const r = await db.query<{ out: Record<string, unknown> | null }>(`select ${fn}($1::jsonb) as out`, [JSON.stringify(event)]);
  const out = r.rows[0]?.out;
  if (!out || typeof out !== 'object') throw internalError(`hook ${fn} returned nothing`);
  const error = out.error as { http_code?: unknown; message?: unknown } | undefined;
  if (error) {
    const status = Number(error.http_code);
    throw new AuthApiError(status >= 400 && status < 600 ? status : 500, 'hook_rejected', String(error.message ?? 'Refused by an Auth hook'));
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

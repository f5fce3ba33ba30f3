/**
 * `update-user` (spec §7 "Function update-user: input userId and updates"; issue 6).
 *
 * POST `{ userId: uuid, updates: { …fields } }` with the caller's access token (or the
 * service_role key). Rights:
 * - a signed-in user on themselves: profile fields (SELF_FIELDS: names, headline, bio, skills,
 *   looking_for, offering, categories, type, address, coordinates and the business map opt-in, visibility, images, social
 *   links, language, slug) — written with the caller's token, so row-level security and the
 *   profile guard trigger decide as well (e.g. a suspended user cannot write). Own e-mail and
 *   password change through Auth (`supabase.auth.updateUser`), not here;
 * - an admin (or the service role) on anyone: additionally `user_role`, `authenticated`
 *   (1 also confirms the address in Auth, so the person can log in; issue 32 §6),
 *   `suspended` (+ `suspension_reason`), `email` (set confirmed) and `password` (strength rules)
 *   through the Auth admin API.
 * → 200 `{ profile: {…}, suspended: boolean }` (the row after the update).
 * Errors: 401 `unauthorized`; 403 `forbidden` (another user's profile), 403 `forbidden_field`
 * (message lists the fields), 403 from the database (42501, its text); 400 `unknown_field`,
 * `validation_failed`, `weak_password`; 400/409 with the server's text for constraint errors
 * (spec §8: update-user errors are rethrown with the server's text); 404 `not_found`; 405; 500.
 */
import { z } from 'zod';
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import { assertStrongPassword, emailSchema } from '../_shared/accounts.ts';
import type { Caller } from '../_shared/supabase.ts';

const text = (max: number) => z.string().max(max).nullable();
const url = z.string().max(500);

/** Profile fields a user may change on their own profile (issue 4 model, spec §3). */
export const SELF_FIELDS = {
  firstname: z.string().trim().max(100),
  lastname: z.string().trim().max(100),
  headline: text(160),
  bio: text(5000),
  skills: z.array(z.string().max(100)).max(50),
  looking_for: text(2000),
  offering: text(2000),
  categories: z.array(z.string()).max(10),
  type: z.enum(['business', 'other']),
  street: text(200),
  house_number: text(20),
  city: text(100),
  state: text(100),
  zipcode: text(20),
  latitude: z.number().min(-90).max(90).nullable(),
  longitude: z.number().min(-180).max(180).nullable(),
  /** Business profiles: the map shows the written coordinates (issue 14); the database ignores it for others. */
  show_exact_location: z.boolean(),
  profile_visibility: z.union([z.literal(0), z.literal(1)]),
  profile_img: url.nullable(),
  logo: url.nullable(),
  gallery: z.array(url).max(20),
  social_links: z.record(z.string(), url),
  preferred_language: z.enum(['de', 'en']),
  slug: z.string().max(100),
} as const;

/** Fields only admins and the service role may change. */
export const ADMIN_FIELDS = {
  user_role: z.enum(['old_user', 'free', 'basic', 'premium', 'enterprise', 'admin']),
  authenticated: z.union([z.literal(0), z.literal(1)]),
  suspended: z.boolean(),
  suspension_reason: z.string().max(1000),
  email: emailSchema,
  password: z.string().min(1).max(200),
} as const;

const ALL_FIELDS: Record<string, z.ZodType> = { ...SELF_FIELDS, ...ADMIN_FIELDS };
const PROFILE_COLUMNS = new Set<string>([...Object.keys(SELF_FIELDS), 'user_role', 'authenticated']);
const RETURNED =
  'id, email, firstname, lastname, authenticated, user_role, profile_visibility, profile_img, type, street, house_number, city, state, zipcode, latitude, longitude, slug, headline, bio, skills, looking_for, offering, categories, logo, gallery, social_links, preferred_language, updated_at';

const Body = z.object({
  userId: z.uuid(),
  updates: z.record(z.string(), z.unknown()),
});

/** Dependencies of update-user. */
export interface UpdateUserDeps {
  /** Who calls (throws HttpError 401 without a valid token). */
  resolveCaller: (req: Request) => Promise<Caller>;
  /** Service-role client (Auth admin API, lookups). */
  admin: SupabaseClient;
  /** A client acting as the caller (their JWT), so RLS applies. */
  asCaller: (accessToken: string) => SupabaseClient;
}

interface PgError {
  code?: string;
  message: string;
  details?: string | null;
  hint?: string | null;
}

/** Maps a PostgREST error to an HttpError carrying the server's text (spec §8). */
function dbError(err: PgError): HttpError {
  const text = [err.message, err.details].filter(Boolean).join(': ');
  if (err.code === '42501') return new HttpError(403, 'forbidden', text);
  if (err.code === '23505') return new HttpError(409, 'conflict', text);
  if (err.code === 'PGRST116') return new HttpError(403, 'forbidden', 'Not allowed to update this profile');
  if (err.code && /^(22|23|PGRST)/.test(err.code)) return new HttpError(400, 'update_failed', text);
  return new HttpError(500, 'update_failed', text);
}

/** Builds the request handler of `update-user` over its dependencies. */
export function createUpdateUserHandler(deps: UpdateUserDeps): (req: Request) => Promise<Response> {
  return withErrors('update-user', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const caller = await deps.resolveCaller(req);
    const { userId, updates } = await readBody(req, Body);
    const keys = Object.keys(updates);
    if (keys.length === 0) throw new HttpError(400, 'validation_failed', 'updates: at least one field is required');
    const unknown = keys.filter((k) => !(k in ALL_FIELDS));
    if (unknown.length) throw new HttpError(400, 'unknown_field', `Unknown fields: ${unknown.join(', ')}`);

    const privileged = caller.kind === 'service_role' || caller.isAdmin;
    if (!privileged) {
      if (caller.userId !== userId.toLowerCase()) throw new HttpError(403, 'forbidden', 'You may only update your own profile');
      const adminOnly = keys.filter((k) => k in ADMIN_FIELDS);
      if (adminOnly.length) throw new HttpError(403, 'forbidden_field', `Not allowed to change: ${adminOnly.join(', ')}`);
    }
    const values: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const key of keys) {
      const parsed = ALL_FIELDS[key]!.safeParse(updates[key]);
      if (parsed.success) values[key] = parsed.data;
      else problems.push(`${key}: ${parsed.error.issues.map((i) => i.message).join(', ')}`);
    }
    if (problems.length) throw new HttpError(400, 'validation_failed', problems.join('; '));
    if (typeof values.password === 'string') assertStrongPassword(values.password);

    const target = await deps.admin.from('profiles').select('id').eq('id', userId).maybeSingle();
    if (target.error) throw dbError(target.error);
    if (!target.data) throw new HttpError(404, 'not_found', 'User not found');

    // Writes with the caller's rights; the service role writes as itself.
    const db = caller.kind === 'service_role' ? deps.admin : deps.asCaller(caller.accessToken);

    if (values.email !== undefined || values.password !== undefined) {
      const attrs: Record<string, unknown> = {};
      if (values.email !== undefined) Object.assign(attrs, { email: values.email, email_confirm: true });
      if (values.password !== undefined) attrs.password = values.password;
      const { error } = await deps.admin.auth.admin.updateUserById(userId, attrs);
      if (error) {
        const code = (error as { code?: string }).code;
        const status = (error as { status?: number }).status ?? 500;
        if (code === 'email_exists') throw new HttpError(409, 'email_exists', error.message);
        throw new HttpError(status >= 400 && status < 500 ? 400 : 500, code ?? 'auth_update_failed', error.message);
      }
    }

    if (values.suspended !== undefined) {
      if (values.suspended) {
        const row = {
          user_id: userId,
          reason: (values.suspension_reason as string | undefined) ?? '',
          suspended_by: caller.kind === 'user' ? caller.userId : null,
        };
        const { error } = await db.from('account_suspensions').upsert(row, { onConflict: 'user_id', ignoreDuplicates: true });
        if (error) throw dbError(error);
      } else {
        const { error } = await db.from('account_suspensions').delete().eq('user_id', userId);
        if (error) throw dbError(error);
      }
    }

    // Self-service fields are written with the caller's rights (column privileges, RLS and the
    // profile guard decide). Role and confirmation have no UPDATE privilege for API roles (issue 12
    // finding 6): they are written by the service role after the admin check above, and audited
    // with the acting admin here because the guard trigger lets the service role pass silently.
    const selfColumns = Object.fromEntries(Object.entries(values).filter(([k]) => k in SELF_FIELDS));
    const adminColumns = Object.fromEntries(Object.entries(values).filter(([k]) => PROFILE_COLUMNS.has(k) && !(k in SELF_FIELDS)));
    if (Object.keys(selfColumns).length > 0) {
      const { error } = await db.from('profiles').update(selfColumns).eq('id', userId).select('id').single();
      if (error) throw dbError(error);
    }
    if (Object.keys(adminColumns).length > 0) {
      const before = await deps.admin.from('profiles').select('user_role, authenticated').eq('id', userId).single();
      if (before.error) throw dbError(before.error);
      const { error } = await deps.admin.from('profiles').update(adminColumns).eq('id', userId);
      if (error) throw dbError(error);
      const audit = await deps.admin.from('audit_log').insert({
        actor_id: caller.kind === 'user' ? caller.userId : null,
        actor_role: caller.kind === 'user' ? 'authenticated' : 'service_role',
        action: 'profile.role_changed',
        target_table: 'profiles',
        target_id: userId,
        details: {
          old_role: before.data.user_role,
          new_role: adminColumns.user_role ?? before.data.user_role,
          old_authenticated: before.data.authenticated,
          new_authenticated: adminColumns.authenticated ?? before.data.authenticated,
        },
      });
      if (audit.error) throw dbError(audit.error);
    }
    // Confirming also confirms the address in Auth, or the password grant would still refuse the
    // account as unconfirmed (issue 32 §6); a no-op when Auth has it confirmed already.
    if (values.authenticated === 1) {
      const { error } = await deps.admin.rpc('confirm_user_email', { p_user_id: userId });
      if (error) throw dbError(error);
    }
    // the answer carries private fields of the target: the caller is the person or an admin
    const { data: profile, error: readError } = await deps.admin.from('profiles').select(RETURNED).eq('id', userId).single();
    if (readError) throw dbError(readError);
    const suspension = await deps.admin.from('account_suspensions').select('user_id').eq('user_id', userId).maybeSingle();
    if (suspension.error) throw dbError(suspension.error);
    return json({ profile, suspended: suspension.data !== null });
  });
}

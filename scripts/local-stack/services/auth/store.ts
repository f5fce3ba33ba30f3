/**
 * Persistence of the auth service over GoTrue's tables (`auth.users`, `auth.identities`,
 * `auth.one_time_tokens`, `auth.audit_log_entries`) and the JSON shapes GoTrue answers with.
 * All functions take a `Queryable` (pool or a client inside a transaction).
 */
import crypto from 'node:crypto';
import type pg from 'pg';

export type Queryable = pg.Pool | pg.PoolClient;

/** A row of `auth.users` as node-postgres returns it. */
export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_token: string | null;
  confirmation_sent_at: Date | null;
  recovery_token: string | null;
  recovery_sent_at: Date | null;
  email_change_token_new: string | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  email_change_token_current: string | null;
  email_change_confirm_status: number | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  phone_change: string | null;
  phone_change_sent_at: Date | null;
  confirmed_at: Date | null;
  reauthentication_sent_at: Date | null;
  banned_until: Date | null;
  deleted_at: Date | null;
  is_anonymous: boolean;
  is_sso_user: boolean;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  email: string | null;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);

/** GoTrue's JSON for an identity (`identity_id` is the row id, `id` the provider's subject). */
export function identityJson(i: IdentityRow): Record<string, unknown> {
  return {
    identity_id: i.id,
    id: i.provider_id,
    user_id: i.user_id,
    identity_data: i.identity_data,
    provider: i.provider,
    last_sign_in_at: iso(i.last_sign_in_at),
    created_at: iso(i.created_at),
    updated_at: iso(i.updated_at),
    ...(i.email ? { email: i.email } : {}),
  };
}

/**
 * GoTrue's JSON for a user (models.User): optional timestamps are left out when unset,
 * `email`/`phone` are `""` when null, tokens and the password hash are never included.
 */
export function userJson(u: UserRow, identities: IdentityRow[]): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: u.id,
    aud: u.aud ?? '',
    role: u.role ?? '',
    email: u.email ?? '',
    email_confirmed_at: iso(u.email_confirmed_at),
    invited_at: iso(u.invited_at),
    phone: u.phone ?? '',
    phone_confirmed_at: iso(u.phone_confirmed_at),
    confirmation_sent_at: iso(u.confirmation_sent_at),
    confirmed_at: iso(u.confirmed_at),
    recovery_sent_at: iso(u.recovery_sent_at),
    new_email: u.email_change || undefined,
    email_change_sent_at: iso(u.email_change_sent_at),
    new_phone: u.phone_change || undefined,
    phone_change_sent_at: iso(u.phone_change_sent_at),
    reauthentication_sent_at: iso(u.reauthentication_sent_at),
    last_sign_in_at: iso(u.last_sign_in_at),
    app_metadata: u.raw_app_meta_data ?? {},
    user_metadata: u.raw_user_meta_data ?? {},
    identities: identities.map(identityJson),
    created_at: iso(u.created_at),
    updated_at: iso(u.updated_at),
    banned_until: iso(u.banned_until),
    deleted_at: iso(u.deleted_at),
    is_anonymous: u.is_anonymous,
  };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

/** Loads a user by id (optionally `for update`), or null. */
export async function findUserById(db: Queryable, id: string, forUpdate = false): Promise<UserRow | null> {
  const r = await db.query<UserRow>(`select * from auth.users where id = $1${forUpdate ? ' for update' : ''}`, [id]);
  return r.rows[0] ?? null;
}

/** Loads the (non-SSO) user with this e-mail address, case-insensitive, or null. */
export async function findUserByEmail(db: Queryable, email: string, forUpdate = false): Promise<UserRow | null> {
  const r = await db.query<UserRow>(
    `select * from auth.users where lower(email) = lower($1) and is_sso_user = false${forUpdate ? ' for update' : ''}`,
    [email],
  );
  return r.rows[0] ?? null;
}

/** The user's identities, oldest first. */
export async function loadIdentities(db: Queryable, userId: string): Promise<IdentityRow[]> {
  const r = await db.query<IdentityRow>('select * from auth.identities where user_id = $1 order by created_at, id', [userId]);
  return r.rows;
}

/** Loads the user and its identities and renders GoTrue's user JSON. */
export async function userWithIdentities(db: Queryable, id: string): Promise<Record<string, unknown> | null> {
  const u = await findUserById(db, id);
  if (!u) return null;
  return userJson(u, await loadIdentities(db, id));
}

export interface NewUser {
  id?: string;
  email: string | null;
  encryptedPassword: string | null;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  emailConfirmedAt?: Date | null;
  invitedAt?: Date | null;
  isAnonymous?: boolean;
}

/** Inserts a row into auth.users (aud/role `authenticated`, like GoTrue's defaults). */
export async function insertUser(db: Queryable, u: NewUser, now: Date): Promise<UserRow> {
  const r = await db.query<UserRow>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, invited_at,
        confirmation_token, recovery_token, email_change_token_new, email_change, email_change_token_current,
        raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, $3, $4, $5,
        '', '', '', '', '', $6, $7, $8, $8, $9)
     returning *`,
    [
      u.id ?? crypto.randomUUID(),
      u.email,
      u.encryptedPassword ?? '',
      u.emailConfirmedAt ?? null,
      u.invitedAt ?? null,
      JSON.stringify(u.appMetadata),
      JSON.stringify(u.userMetadata),
      now,
      u.isAnonymous ?? false,
    ],
  );
  return r.rows[0]!;
}

/** Updates the given columns of auth.users (and updated_at); returns the new row. */
export async function updateUser(db: Queryable, id: string, fields: Record<string, unknown>, now: Date): Promise<UserRow> {
  const cols = Object.keys(fields);
  const sets = cols.map((c, i) => `${c} = $${i + 2}`);
  sets.push(`updated_at = $${cols.length + 2}`);
  const values = cols.map((c) => {
    const v = fields[c];
    return v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v;
  });
  const r = await db.query<UserRow>(`update auth.users set ${sets.join(', ')} where id = $1 returning *`, [id, ...values, now]);
  return r.rows[0]!;
}

/** Inserts an identity (provider_id = the provider's subject). */
export async function insertIdentity(
  db: Queryable,
  userId: string,
  provider: string,
  providerId: string,
  identityData: Record<string, unknown>,
  now: Date,
): Promise<IdentityRow> {
  const data = { ...identityData };
  if (typeof data.email === 'string') data.email = data.email.toLowerCase();
  const r = await db.query<IdentityRow>(
    `insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $6, $6) returning *`,
    [crypto.randomUUID(), providerId, userId, JSON.stringify(data), provider, now],
  );
  return r.rows[0]!;
}

/** Merges `updates` into an identity's identity_data. */
export async function mergeIdentityData(db: Queryable, identityId: string, updates: Record<string, unknown>, now: Date): Promise<void> {
  await db.query('update auth.identities set identity_data = identity_data || $2::jsonb, updated_at = $3 where id = $1', [
    identityId,
    JSON.stringify(updates),
    now,
  ]);
}

/**
 * GoTrue's metadata merge (User.UpdateUserMetaData / UpdateAppMetaData): keys are set,
 * keys with value `null` are removed.
 */
export function mergeMetadata(current: Record<string, unknown> | null, updates: Record<string, unknown>): Record<string, unknown> {
  const out = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(updates)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

export type OneTimeTokenType =
  | 'confirmation_token'
  | 'recovery_token'
  | 'email_change_token_new'
  | 'email_change_token_current'
  | 'reauthentication_token';

/** Upserts the user's one-time token of `type` (one per user and type, as GoTrue). */
export async function saveOneTimeToken(db: Queryable, userId: string, type: OneTimeTokenType, tokenHash: string, relatesTo: string): Promise<void> {
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
     values ($1, $2, $3, $4, $5)
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to, updated_at = now()`,
    [crypto.randomUUID(), userId, type, tokenHash, relatesTo],
  );
}

/** Removes one-time tokens of the user (all, or only the given types). */
export async function clearOneTimeTokens(db: Queryable, userId: string, types?: OneTimeTokenType[]): Promise<void> {
  if (types) await db.query('delete from auth.one_time_tokens where user_id = $1 and token_type = any($2::auth.one_time_token_type[])', [userId, types]);
  else await db.query('delete from auth.one_time_tokens where user_id = $1', [userId]);
}

/** Appends an audit log entry (GoTrue's payload shape: actor, action, log_type, traits). */
export async function audit(
  db: Queryable,
  actor: { id: string; email?: string | null } | null,
  action: string,
  ip: string,
  traits: Record<string, unknown> = {},
  now: Date = new Date(),
): Promise<void> {
  const payload = {
    actor_id: actor?.id ?? '00000000-0000-0000-0000-000000000000',
    actor_username: actor?.email ?? '',
    actor_via_sso: false,
    action,
    log_type: action.startsWith('token') ? 'token' : action === 'login' || action === 'logout' ? 'account' : 'user',
    traits,
  };
  await db.query(
    `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, $3, $4)`,
    [crypto.randomUUID(), JSON.stringify(payload), now, ip.slice(0, 64)],
  );
}

/**
 * Runs `fn` in a transaction on a pooled client; rolls back when it throws. A transaction that
 * Postgres aborts as a deadlock victim (SQLSTATE 40P01) is run again, up to 3 attempts in all, as
 * it left nothing behind (user creation takes the listed-profiles counter row and unique slugs,
 * which concurrent sign-ups can take in the other order).
 */
export async function transaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const result = await fn(client);
      await client.query('commit');
      return result;
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      if ((err as { code?: string }).code !== '40P01' || attempt >= 3) throw err;
    } finally {
      client.release();
    }
    await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
  }
}

/** Random alphanumeric string of `length` characters (GoTrue's SecureAlphanumeric). */
export function secureAlphanumeric(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let out = '';
  while (out.length < length) {
    const b = crypto.randomBytes(length * 2);
    for (const x of b) {
      if (x < 248 && out.length < length) out += alphabet[x % 62];
    }
  }
  return out;
}

/** A numeric one-time password of `length` digits. */
export function generateOtp(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(crypto.randomInt(0, 10));
  return out;
}

/** GoTrue's token hash: hex SHA-224 of `emailOrPhone + otp` (crypto.GenerateTokenHash). */
export function tokenHash(emailOrPhone: string, otp: string): string {
  return crypto.createHash('sha224').update(emailOrPhone + otp).digest('hex');
}

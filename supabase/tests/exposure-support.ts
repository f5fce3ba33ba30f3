/**
 * Fixtures for the exposure tests (issue 12): committed users with the relations the matrix
 * needs, PostgREST requests as each role with JWTs minted from the stack's secret (no Auth round
 * trip, so sign-in rate limits do not interfere), and a small request pool.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import pg from 'pg';
import { stackConfig } from '../../scripts/local-stack/config.ts';

export const config = stackConfig();

/** The seven roles of the exposure matrix. */
export type MatrixRole = 'anon' | 'stranger' | 'contact' | 'blocked' | 'owner' | 'admin' | 'service_role';
export const MATRIX_ROLES: readonly MatrixRole[] = ['anon', 'stranger', 'contact', 'blocked', 'owner', 'admin', 'service_role'];

export interface FixtureUser {
  id: string;
  email: string;
  token: string;
}

export interface Fixtures {
  owner: FixtureUser;
  stranger: FixtureUser;
  contact: FixtureUser;
  blocked: FixtureUser;
  admin: FixtureUser;
  /** Private values stored on the owner's profile (must reach only owner, admin, service_role). */
  secrets: { email: string; street: string; houseNumber: string; zipcode: string; stripeCustomerId: string };
  /** Headers (apikey + Authorization) per role. */
  headers: (role: MatrixRole) => Record<string, string>;
  close: () => Promise<void>;
}

/** HS256 access token for `userId` signed with the stack's JWT secret (1 hour). */
export async function mintToken(userId: string, email: string): Promise<string> {
  return new SignJWT({ sub: userId, role: 'authenticated', aud: 'authenticated', email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(config.jwtSecret));
}

/**
 * Creates five committed users (owner, stranger, accepted contact of owner, someone the owner
 * blocked, admin) directly in the database, with private data on the owner's profile. `close`
 * deletes them again.
 */
export async function createFixtures(tag = randomUUID().slice(0, 8)): Promise<Fixtures> {
  const db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
  const ids: string[] = [];
  const make = async (name: string, role = 'premium'): Promise<FixtureUser> => {
    const email = `exposure-${name}-${tag}@tests.teamwerk.test`;
    const { rows } = await db.query<{ id: string }>(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
         raw_app_meta_data, raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token,
         email_change_token_new, email_change)
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '',
         now(), '{"provider":"email","providers":["email"]}', $2, now(), now(), '', '', '', '')
       returning id`,
      [email, JSON.stringify({ firstname: `Exposure${name}`, lastname: tag })],
    );
    const id = rows[0]!.id;
    ids.push(id);
    if (role === 'premium') {
      // the paid role with the subscription that grants it (the database's payment-required rule reads subscriptions)
      await db.query(
        `insert into public.subscriptions (user_id, plan_id, status, current_period_start, current_period_end,
           stripe_customer_id, stripe_subscription_id, last_synced_at)
         values ($1, 'premium', 'active', now() - interval '1 day', now() + interval '29 days', $2, $3, now())`,
        [id, `cus_exposure_${name}_${tag}`, `sub_exposure_${name}_${tag}`],
      );
    }
    await db.query(`update public.profiles set user_role = $2::public.user_role where id = $1`, [id, role]);
    return { id, email, token: await mintToken(id, email) };
  };
  const owner = await make('owner');
  const stranger = await make('stranger');
  const contact = await make('contact');
  const blocked = await make('blocked');
  const admin = await make('admin', 'admin');
  const secrets = {
    email: owner.email,
    street: `Geheimweg-${tag}`,
    // long enough never to occur by chance in another answer (ids, counts, timestamps)
    houseNumber: `7${tag}`,
    zipcode: `9${tag.replace(/\D/g, '').padEnd(4, '1').slice(0, 4)}`,
    stripeCustomerId: `cus_exposure${tag}`,
  };
  await db.query(
    `update public.profiles set street = $2, house_number = $3, zipcode = $4, stripe_customer_id = $5, city = 'Berlin',
       type = 'other', headline = 'Exposure matrix owner'
     where id = $1`,
    [owner.id, secrets.street, secrets.houseNumber, secrets.zipcode, secrets.stripeCustomerId],
  );
  await db.query(`insert into public.contacts (requester_id, addressee_id, status, responded_at) values ($1, $2, 'accepted', now())`, [
    contact.id, owner.id,
  ]);
  await db.query(`insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [owner.id, blocked.id]);
  const users = { owner, stranger, contact, blocked, admin };
  const headers = (role: MatrixRole): Record<string, string> => {
    if (role === 'anon') return { apikey: config.anonKey, Authorization: `Bearer ${config.anonKey}` };
    if (role === 'service_role') return { apikey: config.serviceRoleKey, Authorization: `Bearer ${config.serviceRoleKey}` };
    return { apikey: config.anonKey, Authorization: `Bearer ${users[role].token}` };
  };
  return {
    ...users,
    secrets,
    headers,
    close: async () => {
      await db.query(`delete from auth.users where id = any($1::uuid[])`, [ids]);
      await db.end();
    },
  };
}

/** One PostgREST answer: HTTP status, parsed body (or text), Postgres error code if any. */
export interface RestAnswer {
  status: number;
  body: unknown;
  code?: string;
  message?: string;
}

/** GET/POST against /rest/v1 with the given headers. */
export async function rest(path: string, headers: Record<string, string>, body?: unknown): Promise<RestAnswer> {
  const res = await fetch(`${config.apiUrl}/rest/v1/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (e.g. an XML answer): keep the text
  }
  const err = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as { code?: string; message?: string }) : {};
  return { status: res.status, body: parsed, code: res.ok ? undefined : err.code, message: res.ok ? undefined : err.message };
}

/** Runs `tasks` with at most `limit` at a time; results in input order. */
export async function pool<T>(tasks: (() => Promise<T>)[], limit = 8): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** True when PostgREST refused for lack of a privilege (as opposed to a business error). */
export function isPrivilegeDenied(a: RestAnswer): boolean {
  return (a.status === 401 || a.status === 403) && a.code === '42501' && /permission denied/i.test(a.message ?? '');
}

/**
 * Database test support: one transaction per test file (rolled back at the end), fixtures
 * created as the postgres owner, and statements run as a PostgREST role inside a savepoint so
 * every cell starts from the same state. Acting as a role mirrors PostgREST exactly:
 * `set local role` + `request.jwt.claims` (auth.uid(), auth.jwt() read them).
 */
import pg from 'pg';
import { stackConfig } from '../../scripts/local-stack/config.ts';

/** Who runs a statement: a signed-in user (by id), anon, the service role, or the owner (postgres). */
export type Actor = { kind: 'anon' } | { kind: 'user'; id: string; email: string } | { kind: 'service_role' } | { kind: 'postgres' };

export const anon: Actor = { kind: 'anon' };
export const serviceRole: Actor = { kind: 'service_role' };
export const postgresOwner: Actor = { kind: 'postgres' };

/** Result of a statement run as an actor: rows affected/returned, or the Postgres error. */
export interface Outcome {
  ok: boolean;
  rowCount: number;
  rows: Record<string, unknown>[];
  code?: string;
  message?: string;
}

let seq = 0;

/** A test transaction on a dedicated connection. */
export class TestDb {
  private constructor(readonly client: pg.Client) {}

  /** Connects as postgres and opens the transaction. */
  static async open(): Promise<TestDb> {
    const client = new pg.Client({ connectionString: stackConfig().dbUrl });
    await client.connect();
    await client.query('begin');
    return new TestDb(client);
  }

  /** Rolls everything back and disconnects. */
  async close(): Promise<void> {
    await this.client.query('rollback').catch(() => undefined);
    await this.client.end();
  }

  /**
   * Runs SQL as postgres (fixtures). Throws on error. A statement chosen as a deadlock victim
   * (40P01; other test files create users at the same time) is rolled back to its savepoint and
   * run again, up to 3 attempts.
   */
  async sql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    for (let attempt = 1; ; attempt++) {
      await this.client.query('savepoint fixture');
      try {
        const rows = (await this.client.query<T>(text, params)).rows;
        await this.client.query('release savepoint fixture');
        return rows;
      } catch (err) {
        await this.client.query('rollback to savepoint fixture');
        if ((err as { code?: string }).code !== '40P01' || attempt >= 3) throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }

  /** Creates a confirmed user (auth.users -> profile trigger) and sets profile fields as postgres. */
  async user(opts: { role?: string; confirmed?: boolean; visible?: boolean; name?: string; lang?: 'de' | 'en'; paid?: boolean; slugFromName?: boolean } = {}): Promise<Actor & { kind: 'user' }> {
    seq += 1;
    const tag = `${process.pid.toString(36)}${Date.now().toString(36)}${seq}`;
    const email = `t${tag}@tests.teamwerk.test`;
    const [first, last] = (opts.name ?? `Test User${seq}`).split(' ');
    // The profile's slug comes from the name and is unique (private.profile_slug). A test file's
    // transaction stays open until the file ends, so two files creating the same name at once
    // would wait for each other on the slug's unique index, a deadlock as soon as each waits for
    // the other (seen in a full run). The user is therefore created under a name of its own and
    // then given the requested one, keeping that slug; tests about slugs ask for the name's slug.
    const createdLast = opts.slugFromName ? (last ?? '') : `${last ?? ''} ${tag}`.trim();
    const [created] = await this.sql<{ id: string }>(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
         raw_app_meta_data, raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token,
         email_change_token_new, email_change)
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '',
         case when $2 then now() else null end, '{"provider":"email","providers":["email"]}', $3, now(), now(), '', '', '', '')
       returning id`,
      [email, opts.confirmed ?? true, JSON.stringify({ firstname: first, lastname: createdLast, preferred_language: opts.lang ?? 'de' })],
    );
    const id = created!.id;
    if (createdLast !== (last ?? '')) {
      await this.sql(`update auth.users set raw_user_meta_data = raw_user_meta_data || jsonb_build_object('lastname', $2::text) where id = $1`, [id, last ?? '']);
    }
    // Paid roles come with the subscription that grants them, as in production (the database's
    // payment-required rule reads subscriptions, spec §6); `paid: false` leaves it out.
    if (['basic', 'premium', 'enterprise'].includes(opts.role ?? '') && opts.paid !== false) {
      await this.sql(
        `insert into public.subscriptions (user_id, plan_id, status, current_period_start, current_period_end,
           stripe_customer_id, stripe_subscription_id, last_synced_at)
         values ($1, $2, 'active', now() - interval '1 day', now() + interval '29 days', $3, $4, now())`,
        [id, opts.role, `cus_test_${tag}`, `sub_test_${tag}`],
      );
    }
    await this.sql(`update public.profiles set user_role = $2::public.user_role, profile_visibility = $3, lastname = $4 where id = $1`, [
      id, opts.role ?? 'free', opts.visible === false ? 0 : 1, last ?? '',
    ]);
    return { kind: 'user', id: id!, email };
  }

  /**
   * Runs `text` as `actor` inside a savepoint that is always rolled back, after optional
   * `prep` SQL run as postgres in the same savepoint. Never throws for SQL errors: they are
   * returned in the outcome.
   */
  async as(actor: Actor, text: string, params: unknown[] = [], prep?: string): Promise<Outcome> {
    await this.client.query('savepoint cell');
    try {
      if (prep) await this.client.query(prep);
      await this.become(actor);
      const r = await this.client.query(text, params);
      return { ok: true, rowCount: r.rowCount ?? 0, rows: r.rows };
    } catch (err) {
      const e = err as { code?: string; message: string };
      return { ok: false, rowCount: 0, rows: [], code: e.code, message: e.message };
    } finally {
      await this.client.query('rollback to savepoint cell');
    }
  }

  /** Like `as`, but keeps the changes (releases the savepoint); for multi-step scenarios. */
  async keep(actor: Actor, text: string, params: unknown[] = []): Promise<Outcome> {
    await this.client.query('savepoint step');
    try {
      await this.become(actor);
      const r = await this.client.query(text, params);
      await this.client.query(`reset role; select set_config('request.jwt.claims', '', true),
        set_config('request.jwt.claim.sub', '', true), set_config('request.jwt.claim.role', '', true)`);
      await this.client.query('release savepoint step');
      return { ok: true, rowCount: r.rowCount ?? 0, rows: r.rows };
    } catch (err) {
      await this.client.query('rollback to savepoint step');
      const e = err as { code?: string; message: string };
      return { ok: false, rowCount: 0, rows: [], code: e.code, message: e.message };
    }
  }

  private async become(actor: Actor): Promise<void> {
    if (actor.kind === 'postgres') return;
    const role = actor.kind === 'user' ? 'authenticated' : actor.kind;
    const claims = actor.kind === 'user'
      ? { sub: actor.id, role, email: actor.email, aud: 'authenticated' }
      : { role };
    await this.client.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
              set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true)`,
      [role, JSON.stringify(claims), actor.kind === 'user' ? actor.id : ''],
    );
  }
}

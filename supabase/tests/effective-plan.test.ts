/**
 * The effective plan (issue 32 §2): one database rule, private.effective_plan, decides which plan
 * counts (a seat in an organisation with a paid Enterprise subscription > the own paid
 * subscription > free); profiles.user_role, the payment-required rule and rpc my_plan (what the
 * SPA shows) follow it. Users, subscriptions and organisations are committed fixtures written as
 * the service would (subscription rows as the billing sync stores them), deleted at the end; the
 * member reads my_plan through PostgREST with their own token.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { anonClient, clientWithToken, config } from '../../scripts/test-support/clients.ts';
import { mintToken } from './exposure-support.ts';

type Plan = 'free' | 'basic' | 'premium' | 'enterprise';
interface TestUser {
  id: string;
  email: string;
  client: SupabaseClient;
  /** public.subscriptions.id of the own subscription (null for free). */
  subscription: string | null;
}
interface MyPlan {
  plan: string;
  source: string;
  organization: { id: string; name: string; slug: string } | null;
  own_subscription: { plan_id: string; status: string; cancel_at_period_end: boolean; amount_cents: number | null; pays_organization: boolean } | null;
  own_plan_redundant: boolean;
}

let db: pg.Client;
const createdUsers: string[] = [];
const createdOrgs: string[] = [];
const tag = randomUUID().slice(0, 8);
let seq = 0;

/** A confirmed user with a paid `plan` subscription (monthly price), signed in through a JWT. */
async function makeUser(plan: Plan): Promise<TestUser> {
  seq += 1;
  const email = `plan-${tag}-${seq}@tests.teamwerk.test`;
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
       raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '', now(),
       '{"provider":"email","providers":["email"]}', $2, now(), now(), '', '', '', '')
     returning id`,
    [email, JSON.stringify({ firstname: `Plan${seq}`, lastname: tag, preferred_language: 'de' })],
  );
  const id = rows[0]!.id;
  createdUsers.push(id);
  let subscription: string | null = null;
  if (plan !== 'free') {
    const sub = await db.query<{ id: string }>(
      `select (public.sync_subscription($1, $2, $3, 'active', null, $4, now() - interval '1 day', now() + interval '29 days')).id`,
      [id, `cus_plan_${tag}_${seq}`, `sub_plan_${tag}_${seq}`, plan],
    );
    subscription = sub.rows[0]!.id;
  }
  return { id, email, client: clientWithToken(await mintToken(id, email)), subscription };
}

/** An organisation paid by `owner`'s Enterprise subscription, `owner` as owner. */
async function makeOrg(owner: TestUser): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.organizations (slug, name, subscription_id, created_by) values ($1, $2, $3, $4) returning id`,
    [`plan-org-${tag}-${seq}`, `Plan Org ${tag}`, owner.subscription, owner.id],
  );
  const id = rows[0]!.id;
  createdOrgs.push(id);
  await db.query(`insert into public.organization_members (organization_id, user_id, role) values ($1, $2, 'owner')`, [id, owner.id]);
  return id;
}

async function join(org: string, u: TestUser): Promise<void> {
  await db.query(`insert into public.organization_members (organization_id, user_id, role) values ($1, $2, 'member')`, [org, u.id]);
}

/** private.effective_plan, the role stored on the profile and the payment-required rule, as the database sees them. */
async function state(u: TestUser): Promise<{ plan: string; source: string; organization_id: string | null; role: string; paid: boolean; match: string }> {
  const { rows } = await db.query(
    `select e.plan, e.source, e.organization_id, (select user_role::text from public.profiles where id = $1) as role,
            private.has_paid_access($1) as paid, private.match_plan($1) as match
     from private.effective_plan($1) e`,
    [u.id],
  );
  return rows[0];
}

async function myPlan(u: TestUser): Promise<MyPlan> {
  const { data, error } = await u.client.rpc('my_plan');
  if (error) throw new Error(`my_plan: ${error.code} ${error.message}`);
  return data as unknown as MyPlan;
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
});
afterAll(async () => {
  if (createdOrgs.length) await db.query(`delete from public.organizations where id = any($1::uuid[])`, [createdOrgs]);
  if (createdUsers.length) await db.query(`delete from auth.users where id = any($1::uuid[])`, [createdUsers]);
  await db?.end();
});

describe('private.effective_plan: organisation seat > own subscription > free', () => {
  test('free and paying accounts have their own plan; my_plan shows it with its source', async () => {
    const free = await makeUser('free');
    expect(await state(free)).toMatchObject({ plan: 'free', source: 'none', organization_id: null, role: 'free', paid: false });
    expect(await myPlan(free)).toEqual({ plan: 'free', source: 'none', organization: null, own_subscription: null, own_plan_redundant: false });

    const premium = await makeUser('premium');
    expect(await state(premium)).toMatchObject({ plan: 'premium', source: 'subscription', role: 'premium', paid: true, match: 'premium' });
    const mine = await myPlan(premium);
    expect(mine).toMatchObject({ plan: 'premium', source: 'subscription', organization: null, own_plan_redundant: false });
    expect(mine.own_subscription).toMatchObject({ plan_id: 'premium', status: 'active', cancel_at_period_end: false, amount_cents: 4900, pays_organization: false });
  });

  test('a Premium member who joins an Enterprise organisation has Enterprise everywhere; the own plan is reported as paid for nothing until it ends', async () => {
    const owner = await makeUser('enterprise');
    const org = await makeOrg(owner);
    const member = await makeUser('premium');
    await join(org, member);

    expect(await state(member)).toMatchObject({ plan: 'enterprise', source: 'organization', organization_id: org, role: 'enterprise', paid: true, match: 'enterprise' });
    const mine = await myPlan(member);
    expect(mine).toMatchObject({
      plan: 'enterprise',
      source: 'organization',
      organization: { id: org, name: `Plan Org ${tag}` },
      own_plan_redundant: true,
    });
    expect(mine.own_subscription).toMatchObject({ plan_id: 'premium', status: 'active', pays_organization: false });

    // the owner's own Enterprise subscription pays the organisation: not redundant
    expect(await myPlan(owner)).toMatchObject({ plan: 'enterprise', source: 'organization', own_plan_redundant: false, own_subscription: { pays_organization: true } });

    // ending the own plan at period end (what the dialog does through cancel-contract and the sync): nothing more to offer
    await db.query(
      `select public.sync_subscription(s.user_id, s.stripe_customer_id, s.stripe_subscription_id, 'active', null, 'premium',
         s.current_period_start, s.current_period_end, true)
       from public.subscriptions s where s.id = $1`,
      [member.subscription],
    );
    expect(await myPlan(member)).toMatchObject({ plan: 'enterprise', source: 'organization', own_plan_redundant: false, own_subscription: { cancel_at_period_end: true } });
    expect((await state(member)).role).toBe('enterprise');
  });

  test('when the organisation no longer pays, the member falls back to the own plan, then to free', async () => {
    const owner = await makeUser('enterprise');
    const org = await makeOrg(owner);
    const member = await makeUser('basic');
    await join(org, member);
    expect((await state(member)).plan).toBe('enterprise');

    await db.query(`update public.subscriptions set status = 'canceled', ended_at = now(), last_synced_at = now() where id = $1`, [owner.subscription]);
    expect(await state(member)).toMatchObject({ plan: 'basic', source: 'subscription', organization_id: null, role: 'basic', paid: true });
    expect(await myPlan(member)).toMatchObject({ plan: 'basic', source: 'subscription', organization: null, own_plan_redundant: false });

    // a period that ended more than a day ago grants nothing (one day of grace, spec §6)
    await db.query(`update public.subscriptions set current_period_end = now() - interval '2 days' where id = $1`, [member.subscription]);
    await db.query(`select private.refresh_user_role($1)`, [member.id]);
    expect(await state(member)).toMatchObject({ plan: 'free', source: 'none', role: 'free', paid: false });
  });

  test('a member without an own subscription gets Enterprise through the seat; admins are reported as such; anonymous callers get nothing', async () => {
    const owner = await makeUser('enterprise');
    const org = await makeOrg(owner);
    const member = await makeUser('free');
    await join(org, member);
    expect(await myPlan(member)).toMatchObject({ plan: 'enterprise', source: 'organization', own_subscription: null, own_plan_redundant: false });

    const admin = await makeUser('free');
    await db.query(`update public.profiles set user_role = 'admin' where id = $1`, [admin.id]);
    expect(await myPlan(admin)).toMatchObject({ plan: 'enterprise', source: 'admin' });

    const { error } = await anonClient().rpc('my_plan');
    expect(error).not.toBeNull();
  });
});

/**
 * Organisations (issue 15) through PostgREST with supabase-js, signed in as real users (access
 * tokens signed with the stack's JWT secret; users, subscriptions and organisations are committed
 * fixtures, deleted again at the end):
 * - only Enterprise subscribers create organisations (PT402 enterprise_required), one per
 *   subscription, unique slugs;
 * - invitations: only the token's SHA-256 is stored, the mail is queued in the invitee's language
 *   with the link, the invited e-mail must be the accepting account's, single use, 7-day expiry;
 * - seats: members + open invitations <= seats (PT402 seat_limit_reached), a seat is taken on
 *   acceptance, acceptance beyond the seats is refused;
 * - row-level security for owner, admin, member, removed member, outsider and anon;
 * - roles: only owners change roles, nobody raises their own, the last and the paying owner stay;
 * - Enterprise features for members while they are members and the subscription is paid;
 * - content under the organisation: members only; it keeps organization_id after removal.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { anonClient, clientWithToken, config, serviceClient } from '../../scripts/test-support/clients.ts';
import { mintToken } from './exposure-support.ts';

type Plan = 'free' | 'basic' | 'premium' | 'enterprise';
interface TestUser {
  id: string;
  email: string;
  client: SupabaseClient;
}

let db: pg.Client;
const createdUsers: string[] = [];
const createdOrgs: string[] = [];
const tag = randomUUID().slice(0, 8);
let seq = 0;

/** A confirmed, visible user on `plan` (with the subscription that grants it), signed in through a JWT. */
async function makeUser(plan: Plan, opts: { lang?: 'de' | 'en'; confirmed?: boolean; name?: string } = {}): Promise<TestUser> {
  seq += 1;
  const email = `org-${tag}-${seq}@tests.teamwerk.test`;
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
       raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '',
       case when $2 then now() end, '{"provider":"email","providers":["email"]}', $3, now(), now(), '', '', '', '')
     returning id`,
    [email, opts.confirmed ?? true, JSON.stringify({ firstname: opts.name ?? `Org${seq}`, lastname: tag, preferred_language: opts.lang ?? 'de' })],
  );
  const id = rows[0]!.id;
  createdUsers.push(id);
  if (plan !== 'free') {
    await db.query(
      `insert into public.subscriptions (user_id, plan_id, status, current_period_start, current_period_end, stripe_customer_id,
         stripe_subscription_id, last_synced_at)
       values ($1, $2, 'active', now() - interval '1 day', now() + interval '29 days', $3, $4, now())`,
      [id, plan, `cus_org_${tag}_${seq}`, `sub_org_${tag}_${seq}`],
    );
  }
  await db.query(`update public.profiles set user_role = $2::public.user_role, profile_visibility = 1, preferred_language = $3 where id = $1`, [
    id, plan, opts.lang ?? 'de',
  ]);
  return { id, email, client: clientWithToken(await mintToken(id, email)) };
}

/** Calls an RPC and returns its data, throwing with code and message on an error. */
async function call<T>(u: TestUser | SupabaseClient, fn: string, args: Record<string, unknown> = {}): Promise<T> {
  const client = 'client' in u ? u.client : u;
  const { data, error } = await client.rpc(fn, args);
  if (error) throw new Error(`${fn}: ${error.code} ${error.message}`);
  return data as T;
}

/** Calls an RPC that must fail; returns [code, message]. */
async function refused(u: TestUser | SupabaseClient, fn: string, args: Record<string, unknown>): Promise<[string | undefined, string | undefined]> {
  const client = 'client' in u ? u.client : u;
  const { error } = await client.rpc(fn, args);
  expect(error, `${fn} should be refused`).not.toBeNull();
  return [error?.code, error?.message];
}

async function createOrg(owner: TestUser, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const id = await call<string>(owner, 'create_organization', { p_name: name, ...extra });
  createdOrgs.push(id);
  return id;
}

/** Invites `email` and returns the invitation id and the token from the queued mail's link. */
async function invite(by: TestUser, org: string, email: string, role = 'member', locale?: string): Promise<{ id: string; token: string }> {
  const id = await call<string>(by, 'invite_to_organization', { p_organization_id: org, p_email: email, p_role: role, p_locale: locale ?? null });
  const { rows } = await db.query<{ path: string }>(
    `select payload ->> 'path' as path from public.email_queue
     where email_type = 'organization_invitation' and lower(email) = lower($1) order by id desc limit 1`,
    [email],
  );
  const m = /^\/invitations\/([A-Za-z0-9_-]+)$/.exec(rows[0]?.path ?? '');
  expect(m, `invitation link of ${email}`).not.toBeNull();
  return { id, token: m![1]! };
}

async function plan(u: TestUser): Promise<{ plan: string; role: string }> {
  const { rows } = await db.query<{ plan: string; role: string }>(
    `select private.match_plan($1) as plan, (select user_role::text from public.profiles where id = $1) as role`,
    [u.id],
  );
  return rows[0]!;
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
});
afterAll(async () => {
  await db.query(`delete from public.jobs where id like $1`, [`org-job-${tag}%`]);
  if (createdOrgs.length) await db.query(`delete from public.organizations where id = any($1::uuid[])`, [createdOrgs]);
  if (createdUsers.length) await db.query(`delete from auth.users where id = any($1::uuid[])`, [createdUsers]);
  await db?.end();
});

describe('creating an organisation', () => {
  test('only Enterprise subscribers create one (PT402 enterprise_required); the creator is owner; 5 seats; one per subscription', async () => {
    for (const p of ['free', 'basic', 'premium'] as const) {
      const u = await makeUser(p);
      expect(await refused(u, 'create_organization', { p_name: `Firma ${p} ${tag}` })).toEqual(['PT402', 'enterprise_required']);
    }
    expect((await refused(anonClient(), 'create_organization', { p_name: 'Anon GmbH' }))[0]).toMatch(/^(42501|28000)$/);

    const owner = await makeUser('enterprise');
    const id = await createOrg(owner, `Müller & Söhne ${tag}`, {
      p_description_de: 'Wir bauen Brücken.', p_description_en: 'We build bridges.', p_website: 'https://mueller.example',
      p_industry: 'Bau', p_size: '11-50', p_street: 'Hauptstraße 5', p_postal_code: '50667', p_city: 'Köln', p_country: 'Deutschland',
    });
    const { data: org } = await anonClient().from('organizations').select('slug, name, display_address, size').eq('id', id).single();
    expect(org).toMatchObject({
      name: `Müller & Söhne ${tag}`,
      display_address: 'Hauptstraße 5, Köln, 50667, Deutschland',
      size: '11-50',
    });
    expect(org!.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(org!.slug).toContain(tag);
    const mine = await call<{ id: string; role: string; seats: number; members: number }[]>(owner, 'my_organizations');
    expect(mine.map((o) => [o.id, o.role, o.seats, o.members])).toEqual([[id, 'owner', 5, 1]]);
    expect(await refused(owner, 'create_organization', { p_name: `Zweite ${tag}` })).toEqual(['PT409', 'subscription_in_use']);
  });

  test('slugs: chosen ones are validated and unique; derived ones get a suffix', async () => {
    const a = await makeUser('enterprise');
    const b = await makeUser('enterprise');
    const c = await makeUser('enterprise');
    await createOrg(a, 'Alpha', { p_slug: `alpha-${tag}` });
    expect(await refused(b, 'create_organization', { p_name: 'Alpha', p_slug: `alpha-${tag}` })).toEqual(['PT409', 'slug_taken']);
    expect(await refused(b, 'create_organization', { p_name: 'Alpha', p_slug: 'Nicht gültig!' })).toEqual(['22023', 'invalid_slug']);
    expect(await refused(b, 'create_organization', { p_name: 'Alpha', p_slug: 'ab' })).toEqual(['22023', 'invalid_slug']);
    // issue 31: top-level paths are no organisation addresses
    for (const reserved of ['admin', 'api', 'login', 'org']) {
      expect(await refused(b, 'create_organization', { p_name: 'Alpha', p_slug: reserved }), reserved).toEqual(['PT409', 'slug_taken']);
    }
    expect(await refused(b, 'create_organization', { p_name: 'Alpha', p_size: '7' })).toEqual(['22023', 'invalid_size']);
    const first = await createOrg(b, `Gamma ${tag}`);
    const second = await createOrg(c, `Gamma ${tag}`);
    const { rows } = await db.query<{ id: string; slug: string }>(`select id, slug from public.organizations where id = any($1::uuid[])`, [[first, second]]);
    const slugs = Object.fromEntries(rows.map((r) => [r.id, r.slug]));
    expect(slugs[first]).toBe(`gamma-${tag}`);
    expect(slugs[second]).toBe(`gamma-${tag}-2`);
  });
});

describe('invitations', () => {
  test('the mail is queued in the invitee\'s language with the link; only the token\'s hash is stored; single use', async () => {
    const owner = await makeUser('enterprise', { lang: 'de' });
    const org = await createOrg(owner, `Einladung ${tag}`);
    const colleague = await makeUser('free', { lang: 'en' });
    const { id, token } = await invite(owner, org, colleague.email.toUpperCase(), 'member');
    expect(token.length).toBeGreaterThanOrEqual(43);

    const { rows: stored } = await db.query<{ token_hash: string; email: string; locale: string; expires_in: number }>(
      `select token_hash, email, locale, extract(epoch from expires_at - created_at)::integer as expires_in
       from public.organization_invitations where id = $1`,
      [id],
    );
    expect(stored[0]).toEqual({ token_hash: createHash('sha256').update(token).digest('hex'), email: colleague.email, locale: 'en', expires_in: 7 * 86400 });
    const { rows: anywhere } = await db.query(`select 1 from public.organization_invitations where token_hash = $1 or email like '%' || $1 || '%'`, [token]);
    expect(anywhere).toEqual([]);
    const { rows: mail } = await db.query<{ lang: string; user_id: string; organization_name: string }>(
      `select lang, user_id, payload ->> 'organization_name' as organization_name from public.email_queue
       where email_type = 'organization_invitation' and email = $1`,
      [colleague.email],
    );
    expect(mail).toEqual([{ lang: 'en', user_id: colleague.id, organization_name: `Einladung ${tag}` }]);

    // the invitation page (anon): organisation, role, state; never the address
    const page = await call<Record<string, unknown>>(anonClient(), 'organization_invitation', { p_token: token });
    expect(page).toMatchObject({ organization_id: org, organization_name: `Einladung ${tag}`, role: 'member', state: 'open', email_matches: null });
    expect(JSON.stringify(page)).not.toContain(colleague.email);
    expect(await call(anonClient(), 'organization_invitation', { p_token: `${token.slice(0, -1)}x` })).toBeNull();

    // another account cannot use it, not even the inviter
    const stranger = await makeUser('premium');
    expect(await refused(stranger, 'accept_organization_invitation', { p_token: token })).toEqual(['42501', 'invitation_email_mismatch']);
    expect(await refused(owner, 'accept_organization_invitation', { p_token: token })).toEqual(['42501', 'invitation_email_mismatch']);
    expect(await call<Record<string, unknown>>(stranger, 'organization_invitation', { p_token: token })).toMatchObject({ email_matches: false });
    expect(await call<Record<string, unknown>>(colleague, 'organization_invitation', { p_token: token })).toMatchObject({ email_matches: true });

    expect(await call<string>(colleague, 'accept_organization_invitation', { p_token: token })).toBe(org);
    expect(await refused(colleague, 'accept_organization_invitation', { p_token: token })).toEqual(['PT409', 'invitation_used']);
    expect(await refused(colleague, 'decline_organization_invitation', { p_token: token })).toEqual(['PT409', 'invitation_used']);
    expect(await call<Record<string, unknown>>(anonClient(), 'organization_invitation', { p_token: token })).toMatchObject({ state: 'accepted' });
    const members = await db.query(`select role::text from public.organization_members where organization_id = $1 and user_id = $2`, [org, colleague.id]);
    expect(members.rows).toEqual([{ role: 'member' }]);
    // the data export (DSGVO Art. 20) carries the membership and the invitation
    const exported = await call<{ organization_memberships: { organization_id: string; role: string }[]; organization_invitations_received: { email: string }[] }>(
      colleague, 'export_my_data');
    expect(exported.organization_memberships.map((m) => [m.organization_id, m.role])).toEqual([[org, 'member']]);
    expect(exported.organization_invitations_received.map((i) => i.email)).toEqual([colleague.email]);
    // a member is not invited again
    expect(await refused(owner, 'invite_to_organization', { p_organization_id: org, p_email: colleague.email, p_role: 'member' }))
      .toEqual(['PT409', 'already_member']);
  });

  test('the mail is delivered by process-email-queue in the invitee\'s language with the /invitations/{token} link (German under /de)', async () => {
    const owner = await makeUser('enterprise', { name: 'Ines' });
    const org = await createOrg(owner, `Postfach ${tag}`);
    const english = await makeUser('free', { lang: 'en' });
    const german = `neu-${tag}@tests.teamwerk.test`; // no account yet: the inviter's language (de)
    const en = await invite(owner, org, english.email);
    const de = await invite(owner, org, german);
    expect((await serviceClient().functions.invoke('process-email-queue', { body: {} })).error).toBeNull();
    const inbox = async (to: string) => {
      for (let i = 0; i < 60; i++) {
        const all = (await (await fetch(`${config.mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`)).json()) as { subject: string; text: string | null }[];
        if (all.length) return all;
        await new Promise((r) => setTimeout(r, 250));
      }
      return [];
    };
    const [enMail] = await inbox(english.email);
    expect(enMail!.subject).toBe(`Invitation: Postfach ${tag} on Teamwerk`);
    expect(enMail!.text).toContain(`invites you to join Postfach ${tag} on Teamwerk as member`);
    expect(enMail!.text).toMatch(new RegExp(`https?://[^\\s/]+/invitations/${en.token}(\\s|$)`));
    const [deMail] = await inbox(german);
    expect(deMail!.subject).toBe(`Einladung: Postfach ${tag} auf Teamwerk`);
    expect(deMail!.text).toContain('als Mitglied beizutreten');
    expect(deMail!.text).toMatch(new RegExp(`https?://[^\\s/]+/de/invitations/${de.token}(\\s|$)`));
  });

  test('an invitation expires after 7 days; declined and revoked ones cannot be accepted', async () => {
    const owner = await makeUser('enterprise');
    const org = await createOrg(owner, `Ablauf ${tag}`);
    const late = await makeUser('free');
    const { id, token } = await invite(owner, org, late.email);
    await db.query(`update public.organization_invitations set expires_at = now() - interval '1 second' where id = $1`, [id]);
    expect(await refused(late, 'accept_organization_invitation', { p_token: token })).toEqual(['PT409', 'invitation_expired']);
    expect(await call<Record<string, unknown>>(anonClient(), 'organization_invitation', { p_token: token })).toMatchObject({ state: 'expired' });

    // a new invitation for the same address replaces the expired one
    const again = await invite(owner, org, late.email);
    expect(await call<null>(late, 'decline_organization_invitation', { p_token: again.token })).toBeNull();
    expect(await refused(late, 'accept_organization_invitation', { p_token: again.token })).toEqual(['PT409', 'invitation_used']);

    const third = await invite(owner, org, late.email);
    await call(owner, 'revoke_organization_invitation', { p_invitation_id: third.id });
    expect(await refused(late, 'accept_organization_invitation', { p_token: third.token })).toEqual(['PT409', 'invitation_used']);
    expect(await refused(owner, 'revoke_organization_invitation', { p_invitation_id: third.id })).toEqual(['PT409', 'invitation_used']);
    expect(await refused(late, 'accept_organization_invitation', { p_token: 'x'.repeat(64) })).toEqual(['PT404', 'invitation_not_found']);
  });

  test('an account with an unconfirmed e-mail cannot accept; after confirming it can', async () => {
    const owner = await makeUser('enterprise');
    const org = await createOrg(owner, `Bestätigt ${tag}`);
    const fresh = await makeUser('free', { confirmed: false });
    const { token } = await invite(owner, org, fresh.email);
    expect(await refused(fresh, 'accept_organization_invitation', { p_token: token })).toEqual(['42501', 'email_unconfirmed']);
    await db.query(`update auth.users set email_confirmed_at = now() where id = $1`, [fresh.id]);
    expect(await call<string>(fresh, 'accept_organization_invitation', { p_token: token })).toBe(org);
  });
});

describe('invitation mails are rate limited', () => {
  test('at most 5 invitations per address in 24 hours (PT429 rate_limited)', async () => {
    const owner = await makeUser('enterprise');
    const org = await createOrg(owner, `Drossel ${tag}`);
    const address = `limit-${tag}@tests.teamwerk.test`;
    for (let i = 0; i < 5; i++) {
      const { id } = await invite(owner, org, address);
      await call(owner, 'revoke_organization_invitation', { p_invitation_id: id });
    }
    expect(await refused(owner, 'invite_to_organization', { p_organization_id: org, p_email: address, p_role: 'member' }))
      .toEqual(['PT429', 'rate_limited']);
  });
});

describe('seats', () => {
  test('members + open invitations stay within the seats; a seat is taken on acceptance; acceptance beyond the seats is refused', async () => {
    const owner = await makeUser('enterprise');
    const org = await createOrg(owner, `Plätze ${tag}`);
    const people = await Promise.all([1, 2, 3, 4, 5].map(() => makeUser('free')));
    const invitations = [];
    for (const p of people.slice(0, 4)) invitations.push(await invite(owner, org, p.email));
    // owner + 4 open invitations = 5 seats: the fifth invitation is refused with a clear message
    const { error } = await owner.client.rpc('invite_to_organization', { p_organization_id: org, p_email: people[4]!.email, p_role: 'member' });
    expect([error?.code, error?.message]).toEqual(['PT402', 'seat_limit_reached']);
    expect(error?.details).toMatch(/All 5 seats are taken \(1 members, 4 open invitations\)/);

    // revoking frees the seat of an open invitation
    await call(owner, 'revoke_organization_invitation', { p_invitation_id: invitations[3]!.id });
    const fifth = await invite(owner, org, people[4]!.email);
    for (const [i, inv] of [invitations[0]!, invitations[1]!, invitations[2]!, fifth].entries()) {
      const who = i < 3 ? people[i]! : people[4]!;
      expect(await call<string>(who, 'accept_organization_invitation', { p_token: inv.token })).toBe(org);
    }
    const mine = await call<{ seats: number; members: number; open_invitations: number }[]>(owner, 'my_organizations');
    expect(mine.map((o) => [o.seats, o.members, o.open_invitations])).toEqual([[5, 5, 0]]);
    expect((await refused(owner, 'invite_to_organization', { p_organization_id: org, p_email: `x-${tag}@tests.teamwerk.test`, p_role: 'member' }))[1])
      .toBe('seat_limit_reached');

    // fewer seats after a downgrade: an open invitation from before cannot be accepted
    await call(owner, 'remove_organization_member', { p_organization_id: org, p_user_id: people[0]!.id });
    const back = await invite(owner, org, people[0]!.email);
    await db.query(`update public.organizations set seats = 4 where id = $1`, [org]);
    expect(await refused(people[0]!, 'accept_organization_invitation', { p_token: back.token })).toEqual(['PT402', 'seat_limit_reached']);
  });

  test('extra seats mirrored from the Stripe subscription raise the seats (sync_subscription_seats, service role only)', async () => {
    const owner = await makeUser('enterprise');
    const org = await createOrg(owner, `Mehr Plätze ${tag}`);
    const { rows } = await db.query<{ stripe_subscription_id: string }>(
      `select stripe_subscription_id from public.subscriptions where user_id = $1`, [owner.id]);
    const stripeId = rows[0]!.stripe_subscription_id;
    expect((await refused(owner, 'sync_subscription_seats', { p_stripe_subscription_id: stripeId, p_extra_seats: 3, p_synced_at: new Date().toISOString() }))[0])
      .toBe('42501');
    const { rows: synced } = await db.query<{ seats: number }>(`select public.sync_subscription_seats($1, 3, now()) as seats`, [stripeId]);
    expect(synced[0]!.seats).toBe(8);
    // an older sync does not overwrite a newer one
    await db.query(`select public.sync_subscription_seats($1, 1, now() - interval '1 hour')`, [stripeId]);
    const mine = await call<{ seats: number }[]>(owner, 'my_organizations');
    expect(mine.map((o) => o.seats)).toEqual([8]);
    expect(await call<Record<string, unknown>>(owner, 'organization_billing', { p_organization_id: org }))
      .toMatchObject({ seats: 8, included_seats: 5, plan_id: 'enterprise', status: 'active', billing_owner: true });
  });
});

describe('row-level security and roles', () => {
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let removed: TestUser;
  let outsider: TestUser;
  let org: string;
  let slug: string;
  let removedJob: string;

  beforeAll(async () => {
    owner = await makeUser('enterprise', { name: 'Olga' });
    admin = await makeUser('free', { name: 'Adam' });
    member = await makeUser('free', { name: 'Mia' });
    removed = await makeUser('free', { name: 'Rolf' });
    outsider = await makeUser('premium', { name: 'Otto' });
    org = await createOrg(owner, `Sicherheit ${tag}`);
    slug = (await db.query<{ slug: string }>(`select slug from public.organizations where id = $1`, [org])).rows[0]!.slug;
    for (const [u, role] of [[admin, 'admin'], [member, 'member'], [removed, 'member']] as const) {
      const { token } = await invite(owner, org, u.email, role);
      await call(u, 'accept_organization_invitation', { p_token: token });
    }
    // the later removed member publishes a job under the organisation first
    removedJob = `org-job-${tag}`;
    const { error } = await removed.client.from('jobs').insert({
      id: removedJob, title: 'Werkstudent Backend', company: 'Sicherheit GmbH', remote: true, employment_type: 'part_time',
      description: 'Text', apply_url: 'https://jobs.example.com/a', posted_by: removed.id, organization_id: org,
    });
    expect(error).toBeNull();
    // issue 31 §4: the database sets posted_at (the list's order); a member cannot pin a job to the top
    const { rows } = await db.query<{ fresh: boolean }>(`select posted_at > now() - interval '1 minute' and posted_at <= now() as fresh from public.jobs where id = $1`, [removedJob]);
    expect(rows).toEqual([{ fresh: true }]);
    const pinned = await removed.client.from('jobs').insert({
      id: `${removedJob}-pinned`, title: 'Immer oben', company: 'Sicherheit GmbH', remote: true, employment_type: 'part_time',
      description: 'Text', apply_url: 'https://jobs.example.com/p', posted_by: removed.id, organization_id: org, posted_at: '2030-01-01T00:00:00Z',
    });
    expect(pinned.error?.code).toBe('42501');
    await call(admin, 'remove_organization_member', { p_organization_id: org, p_user_id: removed.id });
  });

  test('organisations: everyone reads the public page; billing columns are not readable; owners and admins edit', async () => {
    const { data, error } = await anonClient().from('organizations').select('id, slug, name').eq('id', org);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: org, slug, name: `Sicherheit ${tag}` }]);
    for (const col of ['seats', 'subscription_id', 'created_by']) {
      for (const c of [anonClient(), owner.client, outsider.client]) {
        const r = await c.from('organizations').select(col).eq('id', org);
        expect(r.error?.code, `${col} readable`).toBe('42501');
      }
    }
    const edit = async (u: TestUser | null, text: string) => {
      const c = u ? u.client : anonClient();
      const r = await c.from('organizations').update({ description_de: text }).eq('id', org).select('id');
      return r.error ? r.error.code : (r.data ?? []).length;
    };
    expect(await edit(owner, 'Von der Inhaberin')).toBe(1);
    expect(await edit(admin, 'Vom Admin')).toBe(1);
    expect(await edit(member, 'Vom Mitglied')).toBe(0);
    expect(await edit(removed, 'Vom Ehemaligen')).toBe(0);
    expect(await edit(outsider, 'Von außen')).toBe(0);
    expect(await edit(null, 'Anonym')).toBe('42501');
    const { rows } = await db.query(`select description_de from public.organizations where id = $1`, [org]);
    expect(rows).toEqual([{ description_de: 'Vom Admin' }]);
    // no direct insert, no delete, no seat changes through the API
    expect((await owner.client.from('organizations').update({ seats: 500 }).eq('id', org)).error?.code).toBe('42501');
    expect((await owner.client.from('organizations').insert({ slug: `x-${tag}`, name: 'X' })).error?.code).toBe('42501');
    expect((await owner.client.from('organizations').delete().eq('id', org)).error?.code).toBe('42501');
  });

  test('logos: owners and admins upload into the organisation\'s folder of organization-logos; everyone reads it', async () => {
    // a 1×1 PNG, stored through the upload function (it checks the bytes; issue 29)
    const png = new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));
    const upload = async (as: typeof admin.client, wished: string) => {
      const form = new FormData();
      form.set('bucket', 'organization-logos');
      form.set('path', wished);
      form.set('file', new Blob([png], { type: 'image/png' }), 'logo.png');
      return as.functions.invoke<{ path: string }>('upload', { body: form });
    };
    const byMember = await upload(member.client, `${org}/logo-${tag}.png`);
    expect(byMember.error).not.toBeNull();
    const byOutsider = await upload(outsider.client, `${org}/x-${tag}.png`);
    expect(byOutsider.error).not.toBeNull();
    const byAdmin = await upload(admin.client, `${org}/logo-${tag}.png`);
    expect(byAdmin.error).toBeNull();
    const path = byAdmin.data!.path;
    const saved = await admin.client.from('organizations').update({ logo_path: path }).eq('id', org).select('logo_path');
    expect(saved.data).toEqual([{ logo_path: path }]);
    const read = await anonClient().storage.from('organization-logos').download(path);
    expect(read.error).toBeNull();
    expect(new Uint8Array(await read.data!.arrayBuffer())).toEqual(png);
    const removedByOwner = await owner.client.storage.from('organization-logos').remove([path]);
    expect(removedByOwner.error).toBeNull();
    expect(removedByOwner.data?.length).toBe(1);
  });

  test('members: visible to the organisation\'s members only; a removed member loses access at once', async () => {
    const visible = async (u: TestUser) => ((await u.client.from('organization_members').select('user_id').eq('organization_id', org)).data ?? [])
      .map((r) => r.user_id).sort();
    const all = [owner.id, admin.id, member.id].sort();
    expect(await visible(owner)).toEqual(all);
    expect(await visible(admin)).toEqual(all);
    expect(await visible(member)).toEqual(all);
    expect(await visible(removed)).toEqual([]);
    expect(await visible(outsider)).toEqual([]);
    expect((await anonClient().from('organization_members').select('user_id').eq('organization_id', org)).error?.code).toBe('42501');
    expect(await call<unknown[]>(removed, 'my_organizations')).toEqual([]);
    // the member list with names; e-mail addresses only for owners and admins
    type Listed = { user_id: string; role: string; email: string | null };
    const byAdmin = await call<Listed[]>(admin, 'organization_member_list', { p_organization_id: org });
    expect(byAdmin.map((r) => [r.user_id, r.role, r.email])).toEqual([
      [owner.id, 'owner', owner.email], [admin.id, 'admin', admin.email], [member.id, 'member', member.email],
    ]);
    const byMember = await call<Listed[]>(member, 'organization_member_list', { p_organization_id: org });
    expect(byMember.map((r) => [r.user_id, r.email])).toEqual([[owner.id, null], [admin.id, null], [member.id, null]]);
    for (const u of [removed, outsider]) {
      expect(await refused(u, 'organization_member_list', { p_organization_id: org })).toEqual(['42501', 'not_organization_member']);
    }
    // nobody raises their own role through the table
    expect((await member.client.from('organization_members').update({ role: 'owner' }).eq('user_id', member.id)).error?.code).toBe('42501');
    expect((await member.client.from('organization_members').insert({ organization_id: org, user_id: outsider.id })).error?.code).toBe('42501');
    // a removed member can no longer act for the organisation
    expect(await refused(removed, 'invite_to_organization', { p_organization_id: org, p_email: `r-${tag}@tests.teamwerk.test`, p_role: 'member' }))
      .toEqual(['42501', 'not_organization_admin']);
    const job = await removed.client.from('jobs').insert({
      id: `${removedJob}-2`, title: 'Nach dem Austritt', company: 'Sicherheit GmbH', remote: true, employment_type: 'part_time',
      description: 'Text', apply_url: 'https://jobs.example.com/b', posted_by: removed.id, organization_id: org,
    });
    expect(job.error?.code).toBe('42501');
    const edit = await removed.client.from('jobs').update({ title: 'Geändert nach dem Austritt' }).eq('id', removedJob).select('id');
    expect(edit.data).toEqual([]);
  });

  test('invitations (with the e-mail address) are readable by owners and admins only', async () => {
    const pending = await makeUser('free');
    await invite(admin, org, pending.email);
    const read = async (u: TestUser) => ((await u.client.from('organization_invitations').select('email').eq('organization_id', org)).data ?? [])
      .map((r) => r.email);
    expect(await read(owner)).toContain(pending.email);
    expect(await read(admin)).toContain(pending.email);
    expect(await read(member)).toEqual([]);
    expect(await read(removed)).toEqual([]);
    expect(await read(outsider)).toEqual([]);
    expect((await anonClient().from('organization_invitations').select('email')).error?.code).toBe('42501');
    expect((await owner.client.from('organization_invitations').select('token_hash')).error?.code).toBe('42501');
    // members do not invite; admins do not invite owners
    expect(await refused(member, 'invite_to_organization', { p_organization_id: org, p_email: `m-${tag}@tests.teamwerk.test`, p_role: 'member' }))
      .toEqual(['42501', 'not_organization_admin']);
    expect(await refused(admin, 'invite_to_organization', { p_organization_id: org, p_email: `o-${tag}@tests.teamwerk.test`, p_role: 'owner' }))
      .toEqual(['42501', 'owner_role_required']);
  });

  test('the public page lists the members who agree to be listed', async () => {
    const listed = async () => (await call<{ user_id: string; display_name: string }[]>(anonClient(), 'organization_members_public', { p_slug: slug }))
      .map((r) => r.user_id).sort();
    expect(await listed()).toEqual([owner.id, admin.id, member.id].sort());
    const { error } = await member.client.from('organization_members').update({ listed: false }).eq('organization_id', org).eq('user_id', member.id);
    expect(error).toBeNull();
    expect(await listed()).toEqual([owner.id, admin.id].sort());
    // one cannot unlist someone else
    const other = await member.client.from('organization_members').update({ listed: false }).eq('user_id', admin.id).select('user_id');
    expect(other.data).toEqual([]);
    await member.client.from('organization_members').update({ listed: true }).eq('organization_id', org).eq('user_id', member.id);
  });

  test('only owners change roles; nobody raises their own; the paying and the last owner stay owner', async () => {
    expect(await refused(admin, 'set_organization_member_role', { p_organization_id: org, p_user_id: admin.id, p_role: 'owner' }))
      .toEqual(['42501', 'not_organization_owner']);
    expect(await refused(member, 'set_organization_member_role', { p_organization_id: org, p_user_id: member.id, p_role: 'admin' }))
      .toEqual(['42501', 'not_organization_owner']);
    expect(await refused(admin, 'set_organization_member_role', { p_organization_id: org, p_user_id: member.id, p_role: 'admin' }))
      .toEqual(['42501', 'not_organization_owner']);
    expect(await refused(outsider, 'set_organization_member_role', { p_organization_id: org, p_user_id: outsider.id, p_role: 'owner' }))
      .toEqual(['42501', 'not_organization_owner']);
    await call(owner, 'set_organization_member_role', { p_organization_id: org, p_user_id: member.id, p_role: 'admin' });
    await call(owner, 'set_organization_member_role', { p_organization_id: org, p_user_id: member.id, p_role: 'member' });
    expect(await refused(owner, 'set_organization_member_role', { p_organization_id: org, p_user_id: owner.id, p_role: 'admin' }))
      .toEqual(['PT409', 'billing_owner']);
    expect(await refused(owner, 'leave_organization', { p_organization_id: org })).toEqual(['PT409', 'billing_owner']);
    // admins remove members, not owners or admins; nobody removes themselves (leave instead)
    expect(await refused(admin, 'remove_organization_member', { p_organization_id: org, p_user_id: owner.id }))
      .toEqual(['42501', 'not_organization_owner']);
    expect(await refused(member, 'remove_organization_member', { p_organization_id: org, p_user_id: admin.id }))
      .toEqual(['42501', 'not_organization_admin']);
    expect(await refused(admin, 'delete_organization', { p_organization_id: org })).toEqual(['42501', 'not_organization_owner']);
    expect(await refused(admin, 'organization_billing', { p_organization_id: org })).toEqual(['42501', 'not_organization_owner']);

    // a second owner may step down; the last owner may not (organisation without a paying subscription)
    const solo = await makeUser('enterprise');
    const soloOrg = await createOrg(solo, `Allein ${tag}`);
    const partner = await makeUser('free');
    const { token } = await invite(solo, soloOrg, partner.email, 'owner');
    await call(partner, 'accept_organization_invitation', { p_token: token });
    await call(partner, 'set_organization_member_role', { p_organization_id: soloOrg, p_user_id: partner.id, p_role: 'admin' });
    expect(await refused(partner, 'set_organization_member_role', { p_organization_id: soloOrg, p_user_id: partner.id, p_role: 'owner' }))
      .toEqual(['42501', 'not_organization_owner']);
    await db.query(`update public.organizations set subscription_id = null where id = $1`, [soloOrg]);
    expect(await refused(solo, 'set_organization_member_role', { p_organization_id: soloOrg, p_user_id: solo.id, p_role: 'member' }))
      .toEqual(['PT409', 'last_owner']);
    expect(await refused(solo, 'leave_organization', { p_organization_id: soloOrg })).toEqual(['PT409', 'last_owner']);
    await call(partner, 'leave_organization', { p_organization_id: soloOrg });
  });

  test('content published under the organisation: members only; it stays with the organisation after removal', async () => {
    const { data, error } = await member.client.from('projects')
      .insert({ owner_id: member.id, title: 'Gemeinsames Projekt', category: 'technology', organization_id: org }).select('id, organization_id').single();
    expect(error).toBeNull();
    expect(data!.organization_id).toBe(org);
    const foreign = await outsider.client.from('projects')
      .insert({ owner_id: outsider.id, title: 'Fremdes Projekt', category: 'technology', organization_id: org });
    expect([foreign.error?.code, foreign.error?.message]).toEqual(['42501', 'not_organization_member']);
    const { data: job } = await anonClient().from('jobs').select('organization_id, title').eq('id', removedJob).single();
    expect(job).toEqual({ organization_id: org, title: 'Werkstudent Backend' });
    // the organisation's admins manage its jobs; plain members and outsiders do not touch others' jobs
    const byMember = await member.client.from('jobs').update({ title: 'Vom Mitglied' }).eq('id', removedJob).select('id');
    expect(byMember.data).toEqual([]);
    const byAdmin = await admin.client.from('jobs').update({ title: 'Werkstudent Backend (m/w/d)' }).eq('id', removedJob).select('id');
    expect(byAdmin.data).toEqual([{ id: removedJob }]);
    const outsiderJob = await outsider.client.from('jobs').insert({
      id: `${removedJob}-3`, title: 'Fremder Job', company: 'Andere GmbH', remote: true, employment_type: 'full_time',
      description: 'Text', apply_url: 'https://jobs.example.com/c', posted_by: outsider.id, organization_id: org,
    });
    expect(outsiderJob.error?.code).toBe('42501');
    await db.query(`delete from public.projects where id = $1`, [data!.id]);
  });
});

describe('Enterprise features for members', () => {
  test('members get Enterprise while they are members and the organisation\'s subscription is paid', async () => {
    const owner = await makeUser('enterprise');
    const org = await createOrg(owner, `Vorteile ${tag}`);
    const colleague = await makeUser('free');
    expect(await plan(colleague)).toEqual({ plan: 'free', role: 'free' });
    expect(await call<boolean>(colleague, 'has_active_subscription')).toBe(false);
    const { token } = await invite(owner, org, colleague.email);
    await call(colleague, 'accept_organization_invitation', { p_token: token });
    expect(await plan(colleague)).toEqual({ plan: 'enterprise', role: 'enterprise' });
    expect(await call<boolean>(colleague, 'has_active_subscription')).toBe(true);

    // the owner's subscription ends: everyone falls back to their own plan
    await db.query(`update public.subscriptions set status = 'canceled', ended_at = now() where user_id = $1`, [owner.id]);
    expect(await plan(colleague)).toEqual({ plan: 'free', role: 'free' });
    expect(await plan(owner)).toEqual({ plan: 'free', role: 'free' });
    await db.query(`update public.subscriptions set status = 'active', ended_at = null where user_id = $1`, [owner.id]);
    expect(await plan(colleague)).toEqual({ plan: 'enterprise', role: 'enterprise' });

    // removed: back to free at once
    await call(owner, 'remove_organization_member', { p_organization_id: org, p_user_id: colleague.id });
    expect(await plan(colleague)).toEqual({ plan: 'free', role: 'free' });
    expect(await call<boolean>(colleague, 'has_active_subscription')).toBe(false);
  });

  test('a member with an own Premium subscription keeps it after leaving', async () => {
    const owner = await makeUser('enterprise');
    const org = await createOrg(owner, `Premium ${tag}`);
    const premium = await makeUser('premium');
    const { token } = await invite(owner, org, premium.email);
    await call(premium, 'accept_organization_invitation', { p_token: token });
    expect(await plan(premium)).toEqual({ plan: 'enterprise', role: 'enterprise' });
    await call(premium, 'leave_organization', { p_organization_id: org });
    expect(await plan(premium)).toEqual({ plan: 'premium', role: 'premium' });
  });

  test('when the paying owner\'s account is deleted, the longest-standing admin becomes owner and can attach an own subscription', async () => {
    const owner = await makeUser('enterprise');
    const org = await createOrg(owner, `Nachfolge ${tag}`);
    const member = await makeUser('free');
    const admin = await makeUser('free');
    for (const [u, role] of [[member, 'member'], [admin, 'admin']] as const) {
      const { token } = await invite(owner, org, u.email, role);
      await call(u, 'accept_organization_invitation', { p_token: token });
    }
    await db.query(`delete from auth.users where id = $1`, [owner.id]);
    const { rows } = await db.query<{ user_id: string; role: string }>(
      `select user_id, role::text from public.organization_members where organization_id = $1 order by organization_members.role`, [org]);
    expect(rows).toEqual([{ user_id: admin.id, role: 'owner' }, { user_id: member.id, role: 'member' }]);
    // nobody pays any more: no Enterprise for the members until an owner attaches an own subscription
    expect(await plan(member)).toEqual({ plan: 'free', role: 'free' });
    expect(await refused(admin, 'attach_organization_subscription', { p_organization_id: org })).toEqual(['PT402', 'enterprise_required']);
    expect(await refused(member, 'attach_organization_subscription', { p_organization_id: org })).toEqual(['42501', 'not_organization_owner']);
    await db.query(
      `insert into public.subscriptions (user_id, plan_id, status, current_period_start, current_period_end, stripe_customer_id,
         stripe_subscription_id, last_synced_at)
       values ($1, 'enterprise', 'active', now(), now() + interval '30 days', $2, $3, now())`,
      [admin.id, `cus_org_${tag}_succ`, `sub_org_${tag}_succ`],
    );
    await call(admin, 'attach_organization_subscription', { p_organization_id: org });
    expect(await plan(member)).toEqual({ plan: 'enterprise', role: 'enterprise' });
    expect(await call<Record<string, unknown>>(admin, 'organization_billing', { p_organization_id: org }))
      .toMatchObject({ billing_owner: true, enterprise_active: true, seats: 5 });
  });

  test('deleting the organisation: owners only; members lose Enterprise; content stays without organisation', async () => {
    const owner = await makeUser('enterprise');
    const org = await createOrg(owner, `Löschen ${tag}`);
    const colleague = await makeUser('free');
    const { token } = await invite(owner, org, colleague.email);
    await call(colleague, 'accept_organization_invitation', { p_token: token });
    const { data: project } = await colleague.client.from('projects')
      .insert({ owner_id: colleague.id, title: 'Bleibt bestehen', category: 'technology', organization_id: org }).select('id').single();
    expect(await refused(colleague, 'delete_organization', { p_organization_id: org })).toEqual(['42501', 'not_organization_owner']);
    await call(owner, 'delete_organization', { p_organization_id: org });
    const { rows } = await db.query(`select organization_id from public.projects where id = $1`, [project!.id]);
    expect(rows).toEqual([{ organization_id: null }]);
    expect(await plan(colleague)).toEqual({ plan: 'free', role: 'free' });
    expect(await plan(owner)).toEqual({ plan: 'enterprise', role: 'enterprise' });
    await db.query(`delete from public.projects where id = $1`, [project!.id]);
  });
});

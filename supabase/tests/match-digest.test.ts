/**
 * The weekly "new matches" e-mail and the responsiveness tie-break (issue 19; migration
 * supabase/schemas/18_matching.sql), against the real database of the local stack:
 * - a Premium member gets one mail a week naming how many matches are new (never shown to them)
 *   and the best three, in their language; a second run in the same week sends nothing;
 * - once the member has seen their matches on /matches (match_people records them), nothing is
 *   new and no mail goes out;
 * - Basic members get none (the mail is a Premium feature), nor members who switched it off;
 * - at equal score the more responsive person ranks first.
 * The people are made to fit only each other (a must-have on a language nobody else states), so
 * other data in the database does not change the counts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { clientWithToken, superuserDb } from '../../scripts/test-support/clients.ts';
import { mintToken } from './exposure-support.ts';

const tag = randomUUID().slice(0, 8);
const created: string[] = [];
let db: pg.Client;
let seq = 0;

/** A confirmed, listed member on `plan` in Köln with the given matching profile fields. */
async function member(plan: 'basic' | 'premium', name: string, fields: Record<string, unknown>, preferredLanguage = 'de') {
  seq += 1;
  const email = `digest-${tag}-${seq}@tests.teamwerk.test`;
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
       raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '', now(),
       '{"provider":"email","providers":["email"]}', $2, now(), now(), '', '', '', '') returning id`,
    [email, JSON.stringify({ firstname: name, lastname: tag })],
  );
  const id = rows[0]!.id;
  created.push(id);
  await db.query(
    `insert into public.subscriptions (user_id, plan_id, status, current_period_start, current_period_end, stripe_customer_id,
       stripe_subscription_id, last_synced_at)
     values ($1, $2, 'active', now() - interval '1 day', now() + interval '29 days', $3, $4, now())`,
    [id, plan, `cus_digest_${tag}_${seq}`, `sub_digest_${tag}_${seq}`],
  );
  await db.query(
    `update public.profiles set user_role = $2::public.user_role, profile_visibility = 1, city = 'Köln', preferred_language = $3 where id = $1`,
    [id, plan, preferredLanguage],
  );
  const cols = Object.keys(fields);
  await db.query(
    `insert into public.match_profiles (user_id, ${cols.join(', ')}) select $1, ${cols.map((c) => `r.${c}`).join(', ')}
     from jsonb_populate_record(null::public.match_profiles, $2) r`,
    [id, JSON.stringify(fields)],
  );
  return { id, email, name: `${name} ${tag}` };
}

/** A founder seeking a technical partner, and an engineer who fits; `lang` is a must-have of both, so each test's people only meet each other. */
const FOUNDER = (lang: string) => ({ kind: 'founder_with_idea', roles_offered: ['business'], roles_sought: ['technical'], skills_sought: ['backend'], languages: [lang], must_have: ['languages'] });
const ENGINEER = (lang: string) => ({ kind: 'professional', roles_offered: ['technical'], roles_sought: ['business'], skills: ['backend'], languages: [lang], must_have: ['languages'] });

async function digests(userId: string) {
  return (await db.query<{ lang: string; payload: { count: number; top: string; path: string } }>(
    `select lang, payload from public.email_queue where user_id = $1 and email_type = 'match_digest' order by id`,
    [userId],
  )).rows;
}
const run = async (userId: string) => (await db.query<{ n: number }>('select private.send_match_digests(10, $1) as n', [userId])).rows[0]!.n;

beforeAll(async () => {
  db = await superuserDb();
});

afterAll(async () => {
  if (created.length) {
    await db.query('delete from public.email_queue where user_id = any($1)', [created]);
    await db.query('delete from auth.users where id = any($1)', [created]);
  }
  await db.end();
});

describe('weekly new-matches e-mail', () => {
  test('Premium: one mail a week with the count and the best three; nothing new after viewing; Basic and opted-out members get none', async () => {
    const premium = await member('premium', 'Pia', FOUNDER('fi'), 'en');
    const engineers = [await member('basic', 'Emil', ENGINEER('fi')), await member('basic', 'Enno', ENGINEER('fi'))];
    const basic = await member('basic', 'Bea', FOUNDER('fi'));
    const optedOut = await member('premium', 'Olaf', FOUNDER('fi'));
    await db.query('insert into public.user_settings (user_id, email_match_digest) values ($1, false)', [optedOut.id]);

    expect(await run(premium.id)).toBe(1);
    const [mail] = await digests(premium.id);
    expect(mail!.lang).toBe('en');
    expect(mail!.payload.count).toBe(engineers.length);
    for (const e of engineers) expect(mail!.payload.top).toContain(e.name);
    expect(mail!.payload.path).toBe('/matches');

    // once a week: a second run finds the week logged
    expect(await run(premium.id)).toBe(0);
    expect(await digests(premium.id)).toHaveLength(1);

    // Basic has no weekly mail; the switch is respected (the week is still logged)
    expect(await run(basic.id)).toBe(0);
    expect(await run(optedOut.id)).toBe(0);
    expect(await digests(basic.id)).toEqual([]);
    expect(await digests(optedOut.id)).toEqual([]);
    expect((await db.query('select new_matches from private.match_digest_log where user_id = $1', [optedOut.id])).rows).toEqual([{ new_matches: 2 }]);

    // the member opens /matches: both are shown (and recorded); next week nothing is new, no mail
    const client = clientWithToken(await mintToken(premium.id, premium.email));
    const page = await client.rpc('match_people', { p_limit: 50 });
    expect(page.error).toBeNull();
    expect((page.data as { items: { user_id: string }[] }).items.map((i) => i.user_id).sort()).toEqual(engineers.map((e) => e.id).sort());
    await db.query('delete from private.match_digest_log where user_id = $1', [premium.id]);
    expect(await run(premium.id)).toBe(0);
    expect(await digests(premium.id)).toHaveLength(1);
    expect((await db.query('select new_matches from private.match_digest_log where user_id = $1', [premium.id])).rows).toEqual([{ new_matches: 0 }]);
  });

  test('at equal score the more responsive person ranks first', async () => {
    const premium = await member('premium', 'Rita', FOUNDER('is'));
    const [slow, quick] = [await member('basic', 'Sam', ENGINEER('is')), await member('basic', 'Quinn', ENGINEER('is'))];
    await db.query(`update public.match_profiles set owner_responsiveness = case when user_id = $1 then 0.1 else 0.9 end where user_id in ($1, $2)`, [
      slow.id,
      quick.id,
    ]);
    const client = clientWithToken(await mintToken(premium.id, premium.email));
    const page = await client.rpc('match_people', { p_limit: 50 });
    expect(page.error).toBeNull();
    const items = (page.data as { items: { user_id: string; score: number }[] }).items;
    expect(items.map((i) => i.user_id)).toEqual([quick.id, slow.id]);
    expect(items[0]!.score).toBe(items[1]!.score);
    // and the refresh job computes the value from the request log (no history: the neutral 0.5)
    await db.query('select private.refresh_match_responsiveness()');
    expect((await db.query('select private.match_responsiveness($1) as v', [slow.id])).rows[0]!.v).toBe('0.5');
  });
});

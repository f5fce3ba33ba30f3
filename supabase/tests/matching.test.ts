/**
 * Matching (issue 19) through PostgREST with supabase-js, signed in as real users (access tokens
 * signed with the stack's JWT secret; the users, their subscriptions and matching profiles are
 * committed fixtures, deleted again at the end):
 * - the reasons of every match agree with its score (score = min(mine, theirs), each direction
 *   = round(100 × Σ points / Σ max) over its side's reasons, 100 without any wish);
 * - mutual scoring (A's view of B equals B's view of A, mirrored);
 * - every exclusion: oneself, hidden, unconfirmed, suspended, blocked either way, contacts
 *   (accepted and pending), a recent decline of the caller's request, "Not interested" either
 *   way (30 days for the other side), must-haves of both sides;
 * - plan gating: free sees a count and the upgrade, Basic 10 new people per ISO week (the 11th
 *   is refused with PT429 weekly_match_limit) and no filters or weights, Premium filters and
 *   weights, Enterprise saved match profiles and the CSV export;
 * - projects: open roles that fit me, the team-gap finder for the owner only;
 * - row-level security of the new tables as seen through the API;
 * - the engine answers only the reason codes the database declares (public.match_reason_code,
 *   public.fit_reason_code), which the SPA's unit test compares with its own lists.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { clientWithToken, config } from '../../scripts/test-support/clients.ts';
import { mintToken } from './exposure-support.ts';

type Plan = 'free' | 'basic' | 'premium' | 'enterprise';
interface TestUser {
  id: string;
  email: string;
  client: SupabaseClient;
}
interface Reason {
  code: string;
  side: 'you' | 'they';
  criterion: string | null;
  points: number;
  max: number;
  must: boolean;
  [param: string]: unknown;
}
interface MatchItem {
  user_id: string;
  score: number;
  score_mine: number;
  score_theirs: number;
  is_new: boolean;
  reasons: Reason[];
}
interface MatchPage {
  plan: Plan;
  count: number;
  items: MatchItem[];
  next_cursor: string | null;
  quota: { limit: number; used: number; remaining: number; resets_at: string; withheld: number } | null;
  upgrade: { plan: string } | null;
}

let db: pg.Client;
const created: string[] = [];
/** Every reason code the engine answered in this file (person matches, open-role fits). */
const answeredMatchCodes = new Set<string>();
const answeredFitCodes = new Set<string>();
const tag = randomUUID().slice(0, 8);
let seq = 0;

/** A confirmed, visible user on `plan` (with the subscription that grants it) in `city`, signed in through a JWT. */
async function makeUser(plan: Plan, opts: { city?: string | null; confirmed?: boolean; visible?: boolean; name?: string } = {}): Promise<TestUser> {
  seq += 1;
  const email = `match-${tag}-${seq}@tests.teamwerk.test`;
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
       raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '',
       case when $2 then now() end, '{"provider":"email","providers":["email"]}', $3, now(), now(), '', '', '', '')
     returning id`,
    [email, opts.confirmed ?? true, JSON.stringify({ firstname: opts.name ?? `Match${seq}`, lastname: tag })],
  );
  const id = rows[0]!.id;
  created.push(id);
  if (plan !== 'free') {
    await db.query(
      `insert into public.subscriptions (user_id, plan_id, status, current_period_start, current_period_end, stripe_customer_id,
         stripe_subscription_id, last_synced_at)
       values ($1, $2, 'active', now() - interval '1 day', now() + interval '29 days', $3, $4, now())`,
      [id, plan, `cus_match_${tag}_${seq}`, `sub_match_${tag}_${seq}`],
    );
  }
  await db.query(`update public.profiles set user_role = $2::public.user_role, profile_visibility = $3, city = $4 where id = $1`, [
    id, plan, opts.visible === false ? 0 : 1, opts.city === undefined ? 'Köln' : opts.city,
  ]);
  return { id, email, client: clientWithToken(await mintToken(id, email)) };
}

/** Matching profile fields (as the API writes them). */
type ProfileFields = Partial<{
  kind: string; kinds_sought: string[]; roles_offered: string[]; roles_sought: string[]; skills: string[]; skills_sought: string[];
  industries: string[]; idea_stage: string; stages_sought: string[]; commitment: string; available_from: string; remote_ok: boolean;
  radius_km: number; languages: string[]; must_have: string[]; weights: Record<string, number>; ticket_min_eur: number; ticket_max_eur: number;
}>;

/** The founder A looks for: a technical person with Backend and React in the technology industry. */
const FOUNDER: ProfileFields = {
  kind: 'founder_with_idea', roles_offered: ['business'], roles_sought: ['technical'], skills: ['strategy', 'fundraising'],
  skills_sought: ['backend', 'react'], industries: ['technology'], idea_stage: 'prototype', commitment: 'full_time', languages: ['de'],
};
/** A technical person who fits FOUNDER completely (and seeks a business partner). */
const ENGINEER: ProfileFields = {
  kind: 'professional', roles_offered: ['technical'], roles_sought: ['business'], skills: ['backend', 'react', 'python'],
  skills_sought: ['strategy'], industries: ['technology'], commitment: 'full_time', languages: ['de', 'en'],
};

async function matchProfile(u: TestUser, fields: ProfileFields): Promise<string> {
  const cols = Object.keys(fields);
  const { rows } = await db.query<{ id: string }>(
    `insert into public.match_profiles (user_id, ${cols.join(', ')}) select $1, ${cols.map((c) => `r.${c}`).join(', ')}
     from jsonb_populate_record(null::public.match_profiles, $2) r returning id`,
    [u.id, JSON.stringify(fields)],
  );
  return rows[0]!.id;
}

async function matches(u: TestUser, args: Record<string, unknown> = {}): Promise<MatchPage> {
  const { data, error } = await u.client.rpc('match_people', { p_limit: 50, ...args });
  if (error) throw new Error(`${error.code} ${error.message}`);
  for (const item of (data as MatchPage).items) for (const r of item.reasons) answeredMatchCodes.add(r.code);
  return data as MatchPage;
}
const ids = (page: MatchPage) => page.items.map((i) => i.user_id);

/** round(100 × Σ points / Σ max) over one side's reasons, in exact integer arithmetic (points have 2 decimals); 100 without a wish. */
function directionScore(reasons: Reason[], side: 'you' | 'they'): number {
  const mine = reasons.filter((r) => r.side === side);
  const p = mine.reduce((s, r) => s + Math.round(Number(r.points) * 100), 0);
  const m = mine.reduce((s, r) => s + Math.round(Number(r.max) * 100), 0);
  return m === 0 ? 100 : Math.floor((200 * p + m) / (2 * m));
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
});
afterAll(async () => {
  if (created.length) await db.query(`delete from auth.users where id = any($1::uuid[])`, [created]);
  await db?.end();
});

describe('scores and reasons', () => {
  test('every match\'s reasons agree with its score; score = min(mine, theirs)', async () => {
    const a = await makeUser('premium');
    await matchProfile(a, FOUNDER);
    const b = await makeUser('premium');
    await matchProfile(b, { ...ENGINEER, commitment: 'part_time' });
    const c = await makeUser('premium', { city: 'Hamburg' });
    await matchProfile(c, { ...ENGINEER, skills: ['backend'], languages: ['en'], industries: ['health'] });
    const page = await matches(a);
    expect(ids(page)).toEqual(expect.arrayContaining([b.id, c.id]));
    for (const item of page.items) {
      expect(item.score_mine).toBe(directionScore(item.reasons, 'you'));
      expect(item.score_theirs).toBe(directionScore(item.reasons, 'they'));
      expect(item.score).toBe(Math.min(item.score_mine, item.score_theirs));
      expect(item.score).toBeGreaterThanOrEqual(0);
      expect(item.score).toBeLessThanOrEqual(100);
    }
    // ranked best first; b fits better than c in every criterion
    const scores = page.items.map((i) => i.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    const ib = page.items.find((i) => i.user_id === b.id)!;
    const ic = page.items.find((i) => i.user_id === c.id)!;
    expect(ib.score).toBeGreaterThan(ic.score);
    // b's explanation: seeks a technical partner, b offers backend + react; both in Köln; part-time vs full-time
    expect(ib.reasons).toEqual(expect.arrayContaining([
      expect.objectContaining({ code: 'offers_sought_role', side: 'you', role: 'technical', skills: ['backend', 'react', 'python'] }),
      expect.objectContaining({ code: 'has_sought_skills', side: 'you', skills: ['backend', 'react'], missing: [] }),
      expect.objectContaining({ code: 'same_city', side: 'you', city: 'Köln' }),
      expect.objectContaining({ code: 'commitment_mismatch', side: 'you', mine: 'full_time', theirs: 'part_time' }),
      expect.objectContaining({ code: 'offers_sought_role', side: 'they', role: 'business' }),
    ]));
    // c: missing react, 360 km away, no shared language or industry
    expect(ic.reasons).toEqual(expect.arrayContaining([
      expect.objectContaining({ code: 'has_sought_skills', side: 'you', skills: ['backend'], missing: ['react'] }),
      expect.objectContaining({ code: 'too_far', side: 'you', city: 'Hamburg', radius_km: 50 }),
      expect.objectContaining({ code: 'no_shared_language', side: 'you' }),
      expect.objectContaining({ code: 'no_shared_industry', side: 'you' }),
    ]));
    const far = ic.reasons.find((r) => r.code === 'too_far')!;
    expect(far.km as number).toBeGreaterThan(300);
    expect(far.points).toBe(0);
  });

  test('mutual: A\'s view of B mirrors B\'s view of A, and a one-sided fit scores the worse direction', async () => {
    const a = await makeUser('premium');
    await matchProfile(a, FOUNDER);
    const b = await makeUser('premium', { city: 'Bonn' });
    await matchProfile(b, { ...ENGINEER, commitment: 'side_project' });
    // d fits A completely but wants skills A lacks and a different industry
    const d = await makeUser('premium');
    await matchProfile(d, { ...ENGINEER, skills_sought: ['b2b_sales', 'finance', 'law'], industries: ['technology'], kinds_sought: ['investor'] });
    const fromA = (await matches(a)).items;
    const ab = fromA.find((i) => i.user_id === b.id)!;
    const ba = (await matches(b)).items.find((i) => i.user_id === a.id)!;
    expect(ab).toBeDefined();
    expect(ba).toBeDefined();
    expect([ba.score, ba.score_mine, ba.score_theirs]).toEqual([ab.score, ab.score_theirs, ab.score_mine]);
    const ad = fromA.find((i) => i.user_id === d.id)!;
    expect(ad.score_theirs).toBeLessThan(ad.score_mine);
    expect(ad.score).toBe(ad.score_theirs);
    expect(ad.reasons).toEqual(expect.arrayContaining([
      expect.objectContaining({ code: 'lacks_sought_skills', side: 'they', points: 0 }),
      expect.objectContaining({ code: 'not_sought_kind', side: 'they', kind: 'founder_with_idea', sought: ['investor'] }),
    ]));
  });

  test('a side without any wish scores 100 and says so (open_to_all)', async () => {
    const a = await makeUser('premium');
    await matchProfile(a, FOUNDER);
    // no city either: a place is a wish too (the location criterion counts whenever a side has one)
    const open = await makeUser('premium', { city: null });
    await matchProfile(open, { roles_offered: ['technical'], skills: ['backend', 'react'] });
    const item = (await matches(a)).items.find((i) => i.user_id === open.id)!;
    expect(item.score_theirs).toBe(100);
    expect(item.reasons).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'open_to_all', side: 'they', points: 0, max: 0 })]));
  });
});

describe('exclusions', () => {
  test('never oneself, hidden, unconfirmed, suspended, blocked either way, contacts, declines; must-haves of both sides', async () => {
    const a = await makeUser('premium');
    await matchProfile(a, { ...FOUNDER, must_have: ['languages'] });
    const fit = async (opts: Parameters<typeof makeUser>[1] = {}, fields: ProfileFields = ENGINEER) => {
      const u = await makeUser('premium', opts);
      await matchProfile(u, fields);
      return u;
    };
    const control = await fit();
    const hidden = await fit({ visible: false });
    const unconfirmed = await fit({ confirmed: false });
    const suspended = await fit();
    await db.query(`insert into public.account_suspensions (user_id, reason) values ($1, 'test')`, [suspended.id]);
    const blockedByA = await fit();
    await db.query(`insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [a.id, blockedByA.id]);
    const blocksA = await fit();
    await db.query(`insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [blocksA.id, a.id]);
    const contact = await fit();
    await db.query(`insert into public.contacts (requester_id, addressee_id, status, responded_at) values ($1, $2, 'accepted', now())`, [contact.id, a.id]);
    const pending = await fit();
    await db.query(`insert into public.contacts (requester_id, addressee_id) values ($1, $2)`, [a.id, pending.id]);
    const declinedRequest = await fit();
    await db.query(`insert into public.contacts (requester_id, addressee_id, status, responded_at) values ($1, $2, 'declined', now() - interval '3 days')`, [a.id, declinedRequest.id]);
    const oldDeclinedRequest = await fit();
    await db.query(`insert into public.contacts (requester_id, addressee_id, status, responded_at) values ($1, $2, 'declined', now() - interval '31 days')`, [a.id, oldDeclinedRequest.id]);
    const notInterestedInA = await fit();
    await db.query(`insert into public.match_declines (user_id, declined_id, created_at) values ($1, $2, now() - interval '29 days')`, [notInterestedInA.id, a.id]);
    const longAgoNotInterested = await fit();
    await db.query(`insert into public.match_declines (user_id, declined_id, created_at) values ($1, $2, now() - interval '31 days')`, [longAgoNotInterested.id, a.id]);
    const onlyEnglish = await fit({}, { ...ENGINEER, languages: ['en'] });
    const needsGrowthStage = await fit({}, { ...ENGINEER, must_have: ['stage'], stages_sought: ['growth'] });
    const aDeclines = await fit();

    let page = await matches(a);
    const seen = ids(page);
    expect(seen).toEqual(expect.arrayContaining([control.id, oldDeclinedRequest.id, longAgoNotInterested.id, aDeclines.id]));
    const excluded = { self: a, hidden, unconfirmed, suspended, blockedByA, blocksA, contact, pending, declinedRequest, notInterestedInA, onlyEnglish, needsGrowthStage };
    for (const [why, u] of Object.entries(excluded)) expect(seen, why).not.toContain(u.id);

    // "Not interested" from the caller: remembered, through the API
    const { error } = await a.client.from('match_declines').insert({ declined_id: aDeclines.id });
    expect(error).toBeNull();
    page = await matches(a);
    expect(ids(page)).not.toContain(aDeclines.id);
    expect(ids(page)).toContain(control.id);
    // and the declined person does not see the caller either (30 days)
    expect(ids(await matches(aDeclines))).not.toContain(a.id);
    expect(ids(await matches(control))).toContain(a.id);
  });
});

describe('plans (spec §6)', () => {
  test('free: only the number of matches and the upgrade path', async () => {
    const free = await makeUser('free');
    await matchProfile(free, FOUNDER);
    const b = await makeUser('basic');
    await matchProfile(b, ENGINEER);
    const page = await matches(free);
    expect(page.plan).toBe('free');
    expect(page.items).toEqual([]);
    expect(page.count).toBeGreaterThanOrEqual(1);
    expect(page.upgrade?.plan).toBe('basic');
  });

  test('Basic: roles, skills and place only; 10 new people per ISO week, the 11th refused with PT429 weekly_match_limit', async () => {
    const basic = await makeUser('basic');
    await matchProfile(basic, FOUNDER);
    for (let i = 0; i < 12; i++) await matchProfile(await makeUser('basic'), ENGINEER);
    const first = await matches(basic, { p_limit: 10 });
    expect(first.plan).toBe('basic');
    expect(first.items).toHaveLength(10);
    expect(first.items.every((i) => i.is_new)).toBe(true);
    expect(first.quota).toMatchObject({ limit: 10, used: 10, remaining: 0 });
    const criteria = new Set(first.items.flatMap((i) => i.reasons.map((r) => r.criterion)).filter((c) => c !== null));
    expect([...criteria].filter((c) => !['roles', 'skills', 'location'].includes(c!))).toEqual([]);
    expect(criteria.has('skills')).toBe(true);
    for (const item of first.items) expect(item.score).toBe(Math.min(directionScore(item.reasons, 'you'), directionScore(item.reasons, 'they')));
    const { count } = (await db.query(`select count(*)::int as count from public.match_impressions where user_id = $1`, [basic.id])).rows[0]!;
    expect(count).toBe(10);
    expect(first.next_cursor).not.toBeNull();

    // the 11th new person of the week is refused
    const refused = await basic.client.rpc('match_people', { p_limit: 10, p_cursor: first.next_cursor });
    expect(refused.error?.code).toBe('PT429');
    expect(refused.error?.message).toBe('weekly_match_limit');
    const renews = new Date(refused.error!.hint!);
    expect(renews.getTime()).toBeGreaterThan(Date.now());
    expect(renews.getTime() - Date.now()).toBeLessThanOrEqual(7 * 24 * 3600 * 1000 + 2 * 3600 * 1000);
    // people already shown this week come again without counting
    const again = await matches(basic, { p_limit: 10 });
    expect(ids(again)).toEqual(ids(first));
    expect(again.items.every((i) => !i.is_new)).toBe(true);
    expect(again.quota?.withheld).toBe(0);
    // a new week renews the allowance
    await db.query(`update public.match_impressions set first_shown_at = first_shown_at - interval '8 days' where user_id = $1`, [basic.id]);
    const next = await matches(basic, { p_limit: 10, p_cursor: first.next_cursor });
    expect(next.items.length).toBeGreaterThanOrEqual(1);
    expect(next.items.every((i) => i.is_new)).toBe(true);

    // filters and own weights are Premium
    const filtered = await basic.client.rpc('match_people', { p_filters: { kinds: ['professional'] } });
    expect([filtered.error?.code, filtered.error?.message]).toEqual(['PT402', 'premium_required']);
    const weights = await basic.client.from('match_profiles').update({ weights: { languages: 50 } }).eq('user_id', basic.id).select('id');
    expect([weights.error?.code, weights.error?.message]).toEqual(['PT402', 'premium_required']);
  });

  test('Premium: every criterion, filters and own weights', async () => {
    const p = await makeUser('premium');
    await matchProfile(p, FOUNDER);
    const engineer = await makeUser('basic');
    await matchProfile(engineer, ENGINEER);
    const investor = await makeUser('basic');
    await matchProfile(investor, { kind: 'investor', roles_offered: ['investor', 'technical'], skills: ['angel_investing', 'backend'], ticket_min_eur: 25000, ticket_max_eur: 250000 });
    const all = await matches(p);
    expect(ids(all)).toEqual(expect.arrayContaining([engineer.id, investor.id]));
    expect(all.quota).toBeNull();
    const onlyInvestors = await matches(p, { p_filters: { kinds: ['investor'], ticket_min_eur: 100000 } });
    expect(ids(onlyInvestors)).toContain(investor.id);
    expect(ids(onlyInvestors)).not.toContain(engineer.id);
    const bad = await p.client.rpc('match_people', { p_filters: { colour: ['blue'] } });
    expect([bad.error?.code, bad.error?.message]).toEqual(['22023', 'invalid_filter']);

    const { error } = await p.client.from('match_profiles').update({ weights: { languages: 50 } }).eq('user_id', p.id);
    expect(error).toBeNull();
    const item = (await matches(p)).items.find((i) => i.user_id === engineer.id)!;
    expect(item.reasons.find((r) => r.side === 'you' && r.criterion === 'languages')).toMatchObject({ max: 50, points: 50 });
    expect(item.score_mine).toBe(directionScore(item.reasons, 'you'));
  });

  test('Enterprise: saved match profiles with their own criteria, and the CSV export; below Enterprise refused', async () => {
    const e = await makeUser('enterprise');
    await matchProfile(e, FOUNDER);
    const designer = await makeUser('premium');
    await matchProfile(designer, { kind: 'professional', roles_offered: ['design'], skills: ['ui_design', 'ux_design'], roles_sought: ['business'] });
    const saved = await e.client.from('match_profiles').insert({
      is_primary: false, name: 'Designer (m/w/d)', roles_offered: ['business'], roles_sought: ['design'], skills_sought: ['ui_design'],
      weights: { skills: 60 },
    }).select('id').single();
    expect(saved.error).toBeNull();
    const viaSaved = await matches(e, { p_profile_id: saved.data!.id });
    expect(ids(viaSaved)).toContain(designer.id);
    expect(ids(await matches(e))).not.toContain(designer.id);
    const csv = await e.client.rpc('export_matches_csv', { p_profile_id: saved.data!.id });
    expect(csv.error).toBeNull();
    const lines = (csv.data as string).trim().split('\n');
    expect(lines[0]).toBe('rank,name,profile,city,kind,score,score_mine,score_theirs,reasons');
    expect(lines.some((l) => l.includes(`"Match`) && l.includes('offers_sought_role'))).toBe(true);

    const p = await makeUser('premium');
    await matchProfile(p, FOUNDER);
    const notAllowed = await p.client.from('match_profiles').insert({ is_primary: false, name: 'Zweitprofil', roles_offered: ['business'] });
    expect([notAllowed.error?.code, notAllowed.error?.message]).toEqual(['PT402', 'enterprise_required']);
    const noCsv = await p.client.rpc('export_matches_csv', {});
    expect([noCsv.error?.code, noCsv.error?.message]).toEqual(['PT402', 'enterprise_required']);
    const foreign = await p.client.rpc('match_people', { p_profile_id: saved.data!.id });
    expect([foreign.error?.code, foreign.error?.message]).toEqual(['PT404', 'match_profile_not_found']);
  });

  test('without a matching profile: PT404 match_profile_missing; unknown skills are refused', async () => {
    const u = await makeUser('premium');
    const missing = await u.client.rpc('match_people', {});
    expect([missing.error?.code, missing.error?.message]).toEqual(['PT404', 'match_profile_missing']);
    const unknown = await u.client.from('match_profiles').insert({ roles_offered: ['technical'], skills: ['quantum_knitting'] });
    expect([unknown.error?.code, unknown.error?.message]).toEqual(['22023', 'unknown_skill']);
  });
});

describe('projects and the team-gap finder', () => {
  test('people see projects whose open roles need them; owners see who would fill each open role', async () => {
    const owner = await makeUser('premium');
    await matchProfile(owner, FOUNDER);
    const { data: project, error } = await owner.client.from('projects')
      .insert({ owner_id: owner.id, title: `Teamlücke ${tag}`, summary: 'Test', category: 'technology', status: 'published', city: 'Köln', stage: 'prototype' })
      .select('id').single();
    expect(error).toBeNull();
    const tech = await owner.client.from('project_open_roles').insert({ project_id: project!.id, role: 'technical', skills: ['backend', 'react'], commitment: 'full_time' }).select('id').single();
    const filled = await owner.client.from('project_open_roles').insert({ project_id: project!.id, role: 'design', filled: true }).select('id').single();
    expect(tech.error).toBeNull();
    expect(filled.error).toBeNull();

    const engineer = await makeUser('premium');
    await matchProfile(engineer, { ...ENGINEER, stages_sought: ['prototype', 'mvp'] });
    const projects = await engineer.client.rpc('match_projects', { p_limit: 50 });
    expect(projects.error).toBeNull();
    const projectItems = (projects.data as { items: { role_id: number; score: number; reasons: Reason[] }[] }).items;
    for (const item of projectItems) for (const r of item.reasons) answeredFitCodes.add(r.code);
    const hit = projectItems.find((i) => i.role_id === tech.data!.id)!;
    expect(hit).toBeDefined();
    const p = hit.reasons.reduce((s, r) => s + Math.round(r.points * 100), 0);
    const m = hit.reasons.reduce((s, r) => s + Math.round(r.max * 100), 0);
    expect(hit.score).toBe(m === 0 ? 100 : Math.floor((200 * p + m) / (2 * m)));
    expect(hit.reasons).toEqual(expect.arrayContaining([
      expect.objectContaining({ code: 'needs_your_role', role: 'technical' }),
      expect.objectContaining({ code: 'has_role_skills', skills: ['backend', 'react'] }),
      expect.objectContaining({ code: 'same_city', city: 'Köln' }),
      expect.objectContaining({ code: 'stage_fits', stage: 'prototype' }),
    ]));

    const gap = await owner.client.rpc('project_role_candidates', { p_project_id: project!.id });
    expect(gap.error).toBeNull();
    const roles = (gap.data as { roles: { role_id: number; filled: boolean; candidates: { user_id: string }[] }[] }).roles;
    expect(roles.find((r) => r.role_id === filled.data!.id)).toMatchObject({ filled: true, candidates: [] });
    const techGap = roles.find((r) => r.role_id === tech.data!.id)!;
    expect(techGap.candidates.length).toBeGreaterThanOrEqual(1);
    expect(techGap.candidates.length).toBeLessThanOrEqual(5);
    const one = await owner.client.rpc('project_role_candidates', { p_project_id: project!.id, p_role_id: tech.data!.id, p_limit: 50 });
    const oneRoles = (one.data as { roles: { candidates: { user_id: string; score: number; reasons: Reason[] }[] }[] }).roles;
    for (const c of oneRoles.flatMap((r) => r.candidates)) for (const r of c.reasons) answeredFitCodes.add(r.code);
    expect(oneRoles).toHaveLength(1);
    const suggested = oneRoles[0]!.candidates.find((c) => c.user_id === engineer.id)!;
    expect(suggested.reasons).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'has_role_skills', skills: ['backend', 'react'] })]));

    const stranger = await engineer.client.rpc('project_role_candidates', { p_project_id: project!.id });
    expect([stranger.error?.code, stranger.error?.message]).toEqual(['PT403', 'not_project_owner']);
    const insert = await engineer.client.from('project_open_roles').insert({ project_id: project!.id, role: 'product' });
    expect(insert.error).not.toBeNull();
  });
});

describe('row-level security through the API', () => {
  test('matching profiles, declines and impressions are the owner\'s; open roles are public with their project', async () => {
    const a = await makeUser('premium');
    const aProfile = await matchProfile(a, FOUNDER);
    const b = await makeUser('premium');
    await matchProfile(b, ENGINEER);
    await matches(a);
    await a.client.from('match_declines').insert({ declined_id: b.id });

    expect((await a.client.from('match_profiles').select('id, roles_sought').eq('id', aProfile)).data).toHaveLength(1);
    expect((await b.client.from('match_profiles').select('id').eq('id', aProfile)).data).toEqual([]);
    expect((await b.client.from('match_profiles').update({ radius_km: 999 }).eq('id', aProfile).select('id')).data).toEqual([]);
    expect((await b.client.from('match_profiles').delete().eq('id', aProfile).select('id')).data).toEqual([]);
    // engine columns are not readable
    expect((await a.client.from('match_profiles').select('skills_mask').eq('id', aProfile)).error?.code).toBe('42501');

    expect((await a.client.from('match_declines').select('declined_id')).data).toEqual([{ declined_id: b.id }]);
    expect((await b.client.from('match_declines').select('user_id').eq('user_id', a.id)).data).toEqual([]);
    expect((await b.client.from('match_declines').insert({ user_id: a.id, declined_id: b.id })).error?.code).toBe('42501');
    expect((await a.client.from('match_impressions').select('shown_id').eq('shown_id', b.id)).data).toEqual([{ shown_id: b.id }]);
    expect((await b.client.from('match_impressions').select('shown_id').eq('user_id', a.id)).data).toEqual([]);
    expect((await a.client.from('match_impressions').insert({ user_id: a.id, shown_id: b.id })).error?.code).toBe('42501');

    const skills = await b.client.from('skills').select('key, label_en, label_de').eq('key', 'backend');
    expect(skills.data).toEqual([{ key: 'backend', label_en: 'Backend development', label_de: 'Backend-Entwicklung' }]);
  });
});

describe('reason codes: the contract with the SPA', () => {
  test('the engine answers only the codes of public.match_reason_code and public.fit_reason_code', async () => {
    // a pair of its own, so the check never runs on nothing; plus every answer of the tests above
    const a = await makeUser('premium');
    await matchProfile(a, FOUNDER);
    const b = await makeUser('premium', { city: 'Hamburg' });
    await matchProfile(b, { ...ENGINEER, languages: ['en'], must_have: [] });
    await matches(a);
    await matches(b);
    const { rows } = await db.query<{ person: string[]; fit: string[] }>(
      `select enum_range(null::public.match_reason_code)::text[] as person, enum_range(null::public.fit_reason_code)::text[] as fit`,
    );
    const declared = rows[0]!;
    expect([...answeredMatchCodes].filter((c) => !declared.person.includes(c))).toEqual([]);
    expect([...answeredFitCodes].filter((c) => !declared.fit.includes(c))).toEqual([]);
    expect(answeredMatchCodes.size).toBeGreaterThanOrEqual(4);
  });
});

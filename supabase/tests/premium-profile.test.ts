/**
 * Premium profile settings (spec §6, issue 7): accent, tagline, featured project and badge are
 * writable only with role premium/enterprise/admin, the featured project must be the owner's
 * published project, and after a downgrade public_profiles.premium_profile is null.
 * Everything runs in one transaction that is rolled back.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anon, TestDb, type Actor } from './support.ts';

let db: TestDb;
type User = Actor & { kind: 'user' };
let free: User;
let basic: User;
let premium: User;
let other: User;
let ownPublished: number;
let ownDraft: number;
let othersPublished: number;

const project = async (owner: string, status: 'draft' | 'published') => {
  const [row] = await db.sql<{ id: string }>(
    `insert into public.projects (owner_id, title, slug, category, status, published_at)
     values ($1, 'Premium Testprojekt', 'premium-testprojekt', (select (enum_range(null::public.project_category))[1]), $2::public.project_status,
             case when $2 = 'published' then now() end) returning id`,
    [owner, status],
  );
  return Number(row!.id);
};

beforeAll(async () => {
  db = await TestDb.open();
  free = await db.user({ role: 'free', name: 'Frida Frei' });
  basic = await db.user({ role: 'basic', name: 'Bruno Basis' });
  premium = await db.user({ role: 'premium', name: 'Pia Premium', paid: false });
  other = await db.user({ role: 'premium', name: 'Otto Other' });
  ownPublished = await project(premium.id, 'published');
  ownDraft = await project(premium.id, 'draft');
  othersPublished = await project(other.id, 'published');
});
afterAll(async () => db?.close());

const update = (actor: User, sets: string, params: unknown[] = []) =>
  db.as(actor, `update public.profiles set ${sets} where id = $1 returning id`, [actor.id, ...params]);

describe('premium profile settings (spec §6)', () => {
  test.each([
    ['profile_accent', `profile_accent = 'teal'`],
    ['profile_tagline', `profile_tagline = 'Hallo Welt'`],
    ['show_premium_badge', `show_premium_badge = false`],
  ])('free and basic users are refused %s (P0001 premium_required)', async (_col, sets) => {
    for (const user of [free, basic]) {
      const outcome = await update(user, sets);
      expect(outcome.ok).toBe(false);
      expect(outcome.code).toBe('P0001');
      expect(outcome.message).toBe('premium_required');
    }
  });

  test('basic users may still edit their ordinary fields', async () => {
    const outcome = await update(basic, `headline = 'Neue Überschrift'`);
    expect(outcome.ok, outcome.message).toBe(true);
    expect(outcome.rowCount).toBe(1);
  });

  test('a premium user may set all settings and the computed field shows them', async () => {
    const set = await db.keep(premium,
      `update public.profiles set profile_accent = 'violet', profile_tagline = 'Ich baue Teams', show_premium_badge = false,
         featured_project_id = $2 where id = $1`, [premium.id, ownPublished]);
    expect(set.ok, set.message).toBe(true);
    const outcome = await db.as(anon, `select premium_profile as pp from public.public_profiles where id = $1`, [premium.id]);
    expect(outcome.ok, outcome.message).toBe(true);
    expect(outcome.rows[0]!.pp).toEqual({
      accent: 'violet', tagline: 'Ich baue Teams', show_badge: false,
      featured_project: { id: ownPublished, slug: 'premium-testprojekt', title: 'Premium Testprojekt', summary: '' },
    });
  });

  test('palette and length constraints hold (23514)', async () => {
    expect((await update(premium, `profile_accent = 'pink'`)).code).toBe('23514');
    expect((await update(premium, `profile_tagline = $2`, ['x'.repeat(121)])).code).toBe('23514');
    expect((await update(premium, `profile_tagline = $2`, ['x'.repeat(120)])).ok).toBe(true);
  });

  test('the featured project must be the own published project', async () => {
    for (const id of [ownDraft, othersPublished, 987654321]) {
      const outcome = await update(premium, `featured_project_id = $2`, [id]);
      expect(outcome.ok).toBe(false);
      expect(outcome.code).toBe('P0001');
      expect(outcome.message).toBe('featured_project_invalid');
    }
  });

  test('free users may reset settings to their defaults', async () => {
    expect((await update(free, `profile_accent = null, profile_tagline = null, show_premium_badge = true, featured_project_id = null`)).ok).toBe(true);
  });

  test('after a downgrade through refresh_user_role the values stay stored but the computed field is null, also for anon', async () => {
    const set = await db.keep(premium, `update public.profiles set profile_accent = 'orange', profile_tagline = 'Bald weg',
      featured_project_id = $2 where id = $1`, [premium.id, ownPublished]);
    expect(set.ok, set.message).toBe(true);
    const before = await db.as(anon, `select premium_profile as pp from public.public_profiles where id = $1`, [premium.id]);
    expect((before.rows[0]!.pp as { tagline: string }).tagline).toBe('Bald weg');

    // The billing path (sync_subscription -> refresh_user_role) downgrades: no paid subscription left -> free.
    const [refreshed] = await db.sql<{ role: string }>(`select private.refresh_user_role($1)::text as role`, [premium.id]);
    expect(refreshed!.role).toBe('free');
    const after = await db.as(anon, `select premium_profile as pp from public.public_profiles where id = $1`, [premium.id]);
    expect(after.ok, after.message).toBe(true);
    expect(after.rows[0]!.pp).toBeNull();
    const stored = await db.sql<{ profile_accent: string; profile_tagline: string }>(
      `select profile_accent, profile_tagline from public.profiles where id = $1`, [premium.id]);
    expect(stored[0]).toEqual({ profile_accent: 'orange', profile_tagline: 'Bald weg' });
    // Changing them again needs premium; other fields stay editable.
    expect((await update(premium, `profile_tagline = 'Neu'`)).message).toBe('premium_required');
    expect((await update(premium, `headline = 'Weiter da'`)).ok).toBe(true);
  });

  test('a featured project that is unpublished later is left out', async () => {
    await db.sql(`update public.profiles set user_role = 'premium' where id = $1`, [premium.id]);
    const outcome = await db.as(anon, `select premium_profile as pp from public.public_profiles where id = $1`, [premium.id],
      `update public.projects set status = 'archived' where id = ${ownPublished}`);
    expect(outcome.ok, outcome.message).toBe(true);
    expect((outcome.rows[0]!.pp as { featured_project: unknown }).featured_project).toBeNull();
  });
});

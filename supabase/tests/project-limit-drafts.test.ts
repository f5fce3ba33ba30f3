/**
 * The Basic plan limit counts projects, not drafts (issue 33 §5; spec §5: Basic 3 projects):
 * abandoned wizard drafts never block a new project, publishing a draft at the limit is refused
 * by the database (P0001 plan_limit_reached, hint upgrade_plan), drafts are capped
 * (private.project_draft_limit(), P0001 draft_limit_reached) and free members still get none.
 * Everything runs as the member, through row-level security, in one transaction rolled back.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestDb, type Actor } from './support.ts';

let db: TestDb;
type User = Actor & { kind: 'user' };

beforeAll(async () => {
  db = await TestDb.open();
});
afterAll(async () => db?.close());

const insert = (u: User, title: string, status: 'draft' | 'published' = 'draft') =>
  db.keep(u, `insert into public.projects (owner_id, title, category, status) values ($1, $2, 'technology', $3::public.project_status) returning id`, [
    u.id,
    title,
    status,
  ]);
const setStatus = (u: User, id: unknown, status: string) =>
  db.keep(u, `update public.projects set status = $2::public.project_status where id = $1`, [id, status]);

describe('drafts do not count towards the Basic limit (issue 33 §5)', () => {
  test('three published projects plus abandoned drafts: still three projects, and a new draft can be started', async () => {
    const basic = await db.user({ role: 'basic', name: 'Dora Draft' });
    // two wizard drafts abandoned after the first step, then three published projects
    for (const n of [1, 2]) expect((await insert(basic, `Abgebrochener Entwurf ${n}`)).ok).toBe(true);
    for (const n of [1, 2, 3]) {
      const r = await insert(basic, `Veröffentlicht ${n}`, 'published');
      expect(r.ok, r.message).toBe(true);
    }
    // the old rule counted the drafts: the third published project was refused
    const draft = await insert(basic, 'Noch ein Entwurf');
    expect(draft.ok, draft.message).toBe(true);
  });

  test('publishing a draft at 3 of 3 is refused with plan_limit_reached; after unpublishing one it works', async () => {
    const basic = await db.user({ role: 'basic', name: 'Paul Publish' });
    const published: unknown[] = [];
    for (const n of [1, 2, 3]) published.push((await insert(basic, `Projekt ${n}`, 'published')).rows[0]!.id);
    const draftId = (await insert(basic, 'Viertes als Entwurf')).rows[0]!.id;

    const refused = await setStatus(basic, draftId, 'published');
    expect(refused.ok).toBe(false);
    expect(refused.code).toBe('P0001');
    expect(refused.message).toBe('plan_limit_reached');
    const [row] = await db.sql<{ status: string }>(`select status from public.projects where id = $1`, [draftId]);
    expect(row!.status).toBe('draft');

    // inserting a fourth published project directly is refused as well
    const direct = await insert(basic, 'Direkt veröffentlicht', 'published');
    expect(direct.message).toBe('plan_limit_reached');

    // unpublishing frees a slot (back to draft is always allowed), then the draft can go live
    expect((await setStatus(basic, published[0], 'draft')).ok).toBe(true);
    const now = await setStatus(basic, draftId, 'published');
    expect(now.ok, now.message).toBe(true);
    // archived projects count as well: they cannot be used to park projects outside the limit
    expect((await setStatus(basic, published[1], 'archived')).ok).toBe(true);
    expect((await setStatus(basic, published[0], 'published')).message).toBe('plan_limit_reached');
  });

  test('drafts are capped for limited plans (draft_limit_reached), premium has no cap', async () => {
    const basic = await db.user({ role: 'basic', name: 'Carla Cap' });
    const [{ cap }] = (await db.sql<{ cap: number }>(`select private.project_draft_limit() as cap`)) as [{ cap: number }];
    expect(cap).toBeGreaterThanOrEqual(3);
    for (let n = 1; n <= cap; n++) expect((await insert(basic, `Entwurf ${n}`)).ok).toBe(true);
    const over = await insert(basic, 'Entwurf zu viel');
    expect(over.ok).toBe(false);
    expect(over.code).toBe('P0001');
    expect(over.message).toBe('draft_limit_reached');

    const premium = await db.user({ role: 'premium', name: 'Pia Premium' });
    for (let n = 1; n <= cap + 1; n++) expect((await insert(premium, `Premium-Entwurf ${n}`)).ok).toBe(true);
  });

  test('free members still cannot store any project, not even a draft', async () => {
    const free = await db.user({ role: 'free', name: 'Fritz Frei' });
    const r = await insert(free, 'Freier Entwurf');
    expect(r.code).toBe('P0001');
    expect(r.message).toBe('plan_limit_reached');
  });
});

describe('my_project_allowance tells the SPA what the trigger counts (issue 33 §5)', () => {
  test('Basic: published and archived count, drafts do not; Premium unlimited; free 0', async () => {
    const basic = await db.user({ role: 'basic', name: 'Alma Allowance' });
    await insert(basic, 'Entwurf');
    await insert(basic, 'Live', 'published');
    const archived = (await insert(basic, 'Alt', 'published')).rows[0]!.id;
    expect((await setStatus(basic, archived, 'archived')).ok).toBe(true);
    const allowance = async (u: User) => (await db.keep(u, `select * from public.my_project_allowance()`)).rows[0];
    expect(await allowance(basic)).toEqual({ used: 2, project_limit: 3, drafts: 1, draft_limit: 10 });
    const premium = await db.user({ role: 'premium', name: 'Pia Allowance' });
    expect(await allowance(premium)).toEqual({ used: 0, project_limit: null, drafts: 0, draft_limit: null });
    const free = await db.user({ role: 'free', name: 'Fred Allowance' });
    expect(await allowance(free)).toEqual({ used: 0, project_limit: 0, drafts: 0, draft_limit: 0 });
  });
});

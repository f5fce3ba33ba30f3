/**
 * Schema diff with @supabase/pg-delta (Supabase's own diff engine, the one `supabase db diff`
 * uses) under this project's profile.
 *
 * The profile is pg-delta's `supabase` profile with two changes:
 * - no pg_cron handler: our scheduled jobs are data, kept in the data migration
 *   (supabase/migrations/20261121000100_reference_data.sql), not in supabase/schemas, so the
 *   engine must not plan `cron.unschedule` for them;
 * - row-level security policies on `storage.objects` and `realtime.messages` are managed: the
 *   supabase profile leaves out every object in the platform schemas, but these policies are ours
 *   (22_storage.sql, 23_realtime.sql).
 * What pg-delta still does not model here: text search configurations (it reports them as
 * `unmodeled_kind`), and rows (cron jobs, vault secrets, buckets, reference data). scripts/db/diff.ts
 * therefore proves every migration it writes with our own catalog reading (scripts/db/catalog.ts).
 */
import pg from 'pg';
import { plan, renderPlanFiles, resolveProfile, supabaseProfile, type IntegrationProfile, type Plan } from '@supabase/pg-delta';

/** The supabase profile without its pg_cron handler, managing our storage/realtime policies too. */
export const teamwerkProfile: IntegrationProfile = {
  ...supabaseProfile,
  id: 'teamwerk',
  handlers: supabaseProfile.handlers.filter((h) => h.extension !== 'pg_cron'),
  policy: supabaseProfile.policy && {
    ...supabaseProfile.policy,
    id: 'teamwerk',
    filter: [
      { match: { all: [{ kind: 'policy' }, { schema: ['storage', 'realtime'] }] }, action: 'include' },
      ...(supabaseProfile.policy.filter ?? []),
    ],
  },
};

/** The planned difference: the SQL that turns `source` into `desired`, its action count and notes. */
export interface SchemaDiff {
  sql: string;
  actions: number;
  /** Extraction diagnostics worth showing (unmodeled kinds), one line each. */
  notes: string[];
}

/**
 * Plans the DDL that makes the database at `sourceUrl` equal the one at `desiredUrl` (renames off:
 * a rename is a drop and a create, reviewed by a person). Returns the rendered SQL (empty when
 * nothing differs). Errors: rejects when a database cannot be read.
 */
export async function planSchemaDiff(sourceUrl: string, desiredUrl: string): Promise<SchemaDiff> {
  const source = new pg.Pool({ connectionString: sourceUrl, max: 2 });
  const desired = new pg.Pool({ connectionString: desiredUrl, max: 2 });
  try {
    const ctx = await resolveProfile(source, teamwerkProfile);
    const [s, d] = await Promise.all([ctx.extract(source), ctx.extract(desired)]);
    const notes = [...new Set([...s.diagnostics, ...d.diagnostics].filter((x) => x.code === 'unmodeled_kind').map((x) => x.message))];
    const thePlan: Plan = plan(s.factBase, d.factBase, { ...ctx.planOptions, renames: 'off', compact: true });
    if (!thePlan.actions.length) return { sql: '', actions: 0, notes };
    const rendered = renderPlanFiles(thePlan, { allowDrops: true });
    return { sql: rendered.files.map((f) => f.contents.trim()).join('\n\n'), actions: thePlan.actions.length, notes };
  } finally {
    await Promise.all([source.end(), desired.end()]);
  }
}

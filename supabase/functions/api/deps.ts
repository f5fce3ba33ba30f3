/**
 * The `api` function's data access (issue 15): key check through rpc/authenticate_api_key and
 * the organisation's rows through PostgREST as the service role, always filtered by the key's
 * organisation; the public search as anon (what a visitor finds). Database refusals become
 * DbError (mapped to 400/409 by the handler); other failures are thrown as plain errors (500).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { createClient } from '@supabase/supabase-js';
import { type ApiDeps, type ApiKeyInfo, DbError, type Row } from './handler.ts';

/** Columns of each resource as the API returns them. */
export const PROJECT_FIELDS =
  'id, title, slug, summary, description, category, stage, city, roles_sought, status, published_at, created_at, updated_at';
export const EVENT_FIELDS =
  'id, title, slug, summary, description, category, status, starts_at, ends_at, timezone, is_online, venue_name, city, is_paid, price_cents, currency, capacity, going_count, created_at, updated_at';
export const JOB_FIELDS =
  'id, title, company, city, remote, employment_type, category, description, apply_url, salary_min_cents, salary_max_cents, language, posted_at, expires_at, created_at, updated_at';

interface PgError {
  code?: string;
  message: string;
  details?: string | null;
}

function fail(error: PgError): never {
  const code = error.code ?? '';
  if (/^(22|23)/.test(code) || code === 'P0001' || code === '42501') throw new DbError(code, error.details || error.message);
  throw new Error(`database error (${code}): ${error.message}`);
}

const options = { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } };

/** The real dependencies for the stack at `supabaseUrl`. */
export function databaseDeps(supabaseUrl: string, anonKey: string, serviceRoleKey: string): ApiDeps {
  const admin: SupabaseClient = createClient(supabaseUrl, serviceRoleKey, options);
  const anon: SupabaseClient = createClient(supabaseUrl, anonKey, options);
  return {
    serverUrl: `${supabaseUrl.replace(/\/$/, '')}/functions/v1/api/v1`,
    async authenticate(key) {
      const { data, error } = await admin.rpc('authenticate_api_key', { p_key: key });
      if (error) fail(error);
      return (data as ApiKeyInfo | null) ?? null;
    },
    async listProjects(org, afterId, limit) {
      let q = admin.from('projects').select(PROJECT_FIELDS).eq('organization_id', org).eq('status', 'published');
      if (afterId !== null) q = q.gt('id', afterId);
      const { data, error } = await q.order('id', { ascending: true }).limit(limit + 1);
      if (error) fail(error);
      return (data ?? []) as Row[];
    },
    async listEvents(org, afterId, limit) {
      let q = admin.from('events').select(EVENT_FIELDS).eq('organization_id', org).neq('status', 'draft');
      if (afterId !== null) q = q.gt('id', afterId);
      const { data, error } = await q.order('id', { ascending: true }).limit(limit + 1);
      if (error) fail(error);
      return (data ?? []) as Row[];
    },
    async listJobs(org, after, limit) {
      let q = admin.from('jobs').select(JOB_FIELDS).eq('organization_id', org);
      if (after) q = q.or(`created_at.gt."${after.t}",and(created_at.eq."${after.t}",id.gt."${after.id}")`);
      const { data, error } = await q.order('created_at', { ascending: true }).order('id', { ascending: true }).limit(limit + 1);
      if (error) fail(error);
      return (data ?? []) as Row[];
    },
    async getJob(org, id) {
      const { data, error } = await admin.from('jobs').select(JOB_FIELDS).eq('organization_id', org).eq('id', id).maybeSingle();
      if (error) fail(error);
      return (data as Row | null) ?? null;
    },
    async search(q, types, page, pageSize) {
      // GET (a read replica may serve it): an argument left out is sent as no parameter, so no types
      // is undefined, not null (which would travel as the text "null")
      const { data, error } = await anon.rpc('search', { q, types: types ?? undefined, page, page_size: pageSize }, { get: true });
      if (error) fail(error);
      const result = (data ?? {}) as { total?: number; total_estimated?: boolean; results?: Row[] };
      const results = (result.results ?? []).map((r) => ({
        type: r.type,
        id: r.id,
        slug: r.slug,
        title: r.title,
        snippet: r.snippet,
        category: r.category,
        city: r.city,
        date: r.date,
      }));
      return { total: Number(result.total ?? 0), total_estimated: result.total_estimated === true, results };
    },
    async insertJob(org, postedBy, id, job) {
      const { data, error } = await admin
        .from('jobs')
        .insert({ ...job, id, organization_id: org, posted_by: postedBy })
        .select(JOB_FIELDS)
        .single();
      if (error) fail(error);
      return data as Row;
    },
    async updateJob(org, id, patch) {
      const { data, error } = await admin.from('jobs').update(patch).eq('organization_id', org).eq('id', id).select(JOB_FIELDS)
        .maybeSingle();
      if (error) fail(error);
      return (data as Row | null) ?? null;
    },
  };
}

import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { supabase } from '@/lib/supabase';
import type { MatchReason, UpgradeHint } from './matches';
import { type MatchCommitment, MATCHING_KEY, type MatchKind, type MatchRole } from './match-profile';
import { unwrapRpc } from './matching-errors';

/*
 * Open roles of projects and the team-gap finder (issue 19): project_open_roles (RLS: the
 * project's owner writes; trigger: at most 10 per project) and project_role_candidates
 * (supabase/schemas/18_matching.sql).
 */

/** A suggested person for an open role (project_role_candidates). */
export interface RoleCandidate {
  user_id: string;
  slug: string;
  display_name: string;
  profile_img: string | null;
  headline: string | null;
  city: string | null;
  kind: MatchKind | null;
  score: number;
  reasons: MatchReason[];
}

/** An open role with its candidates (project_role_candidates). */
export interface RoleWithCandidates {
  role_id: number;
  role: MatchRole;
  title: string | null;
  skills: string[];
  commitment: MatchCommitment | null;
  filled: boolean;
  count: number;
  candidates: RoleCandidate[];
}

/** Answer of project_role_candidates. */
export interface TeamGap {
  project_id: number;
  plan: string;
  roles: RoleWithCandidates[];
  upgrade: UpgradeHint | null;
}

/** A row of project_open_roles. */
export type OpenRoleRow = Pick<
  Database['public']['Tables']['project_open_roles']['Row'],
  'id' | 'project_id' | 'role' | 'title' | 'skills' | 'commitment' | 'filled'
>;
/** The writable fields of an open role. */
export type OpenRoleInput = Pick<OpenRoleRow, 'role' | 'title' | 'skills' | 'commitment' | 'filled'>;

/** Query options of the team-gap finder of one own project (project_role_candidates). */
export const teamGapQuery = (projectId: number) =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'team-gap', projectId],
    queryFn: async (): Promise<TeamGap> => unwrapRpc(await supabase.rpc('project_role_candidates', { p_project_id: projectId })) as unknown as TeamGap,
    retry: false,
  });

/** Query options of the open roles of a project, in creation order. */
export const openRolesQuery = (projectId: number) =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'open-roles', projectId],
    queryFn: async (): Promise<OpenRoleRow[]> =>
      unwrap(
        await supabase.from('project_open_roles').select('id, project_id, role, title, skills, commitment, filled').eq('project_id', projectId).order('id'),
        'GET',
      ),
  });

/** Query options of the caller's projects that have unfilled open roles (dashboard). */
export const myProjectsWithOpenRolesQuery = (userId: string) =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'my-open-roles', userId],
    queryFn: async (): Promise<{ id: number; title: string }[]> => {
      const rows = unwrap(
        await supabase
          .from('project_open_roles')
          .select('project:projects!inner(id, title, owner_id)')
          .eq('filled', false)
          .eq('project.owner_id', userId)
          .limit(100),
        'GET',
      ) as unknown as { project: { id: number; title: string } }[];
      const seen = new Map<number, string>();
      for (const r of rows) seen.set(r.project.id, r.project.title);
      return [...seen].map(([id, title]) => ({ id, title }));
    },
  });

/**
 * Adds, changes or removes an open role of an own project (RLS: owner only; trigger: at most 10
 * per project, P0001 open_role_limit; 22023 unknown_skill).
 */
export async function saveOpenRole(projectId: number, id: number | null, values: OpenRoleInput): Promise<void> {
  if (id) unwrap(await supabase.from('project_open_roles').update(values).eq('id', id), 'PATCH');
  else unwrap(await supabase.from('project_open_roles').insert({ ...values, project_id: projectId }), 'POST');
}

/** Deletes an open role of an own project. */
export async function deleteOpenRole(id: number): Promise<void> {
  unwrap(await supabase.from('project_open_roles').delete().eq('id', id), 'DELETE');
}

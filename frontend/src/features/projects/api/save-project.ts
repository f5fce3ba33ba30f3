import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, unwrap } from '@/lib/api-error';
import { PROJECT_COLUMNS, type ProjectFormValues, type ProjectRow, type ProjectStatus, toColumns } from './project-schema';

const client = () => import('@/lib/supabase').then((m) => m.supabase);

/**
 * True when an error is the plan limit of the projects trigger (P0001 `plan_limit_reached`,
 * hint `upgrade_plan`; spec §5: Basic 3 projects).
 */
export function isPlanLimitError(error: unknown): boolean {
  return error instanceof ApiError && (error.message === 'plan_limit_reached' || (error.code === 'P0001' && /plan_limit/.test(error.message)));
}

/**
 * True when an error is the draft cap of the projects trigger (P0001 `draft_limit_reached`, hint
 * `discard_drafts`; issue 33 §5: drafts do not count towards the plan limit but are capped).
 */
export function isDraftLimitError(error: unknown): boolean {
  return error instanceof ApiError && error.message === 'draft_limit_reached';
}

/**
 * Inserts a new draft project of the signed-in user.
 * @returns the new row (id for /user/projects/create-project-{id})
 * @throws ApiError; P0001 plan_limit_reached when the plan allows no project at all (free; isPlanLimitError),
 *   P0001 draft_limit_reached when the plan's draft cap is reached (isDraftLimitError)
 */
export async function createProjectDraft(ownerId: string, values: ProjectFormValues): Promise<ProjectRow> {
  const supabase = await client();
  const result = await supabase
    .from('projects')
    .insert({ ...toColumns(values), owner_id: ownerId, slug: '', status: 'draft' })
    .select(PROJECT_COLUMNS)
    .single();
  return unwrap(result, 'POST');
}

/**
 * Updates the fields of a project (RLS: owner or admin).
 * @throws ApiError (404-like empty result is reported as ApiError 404)
 */
export async function updateProject(id: number, values: ProjectFormValues): Promise<ProjectRow> {
  const supabase = await client();
  const result = await supabase.from('projects').update(toColumns(values)).eq('id', id).select(PROJECT_COLUMNS).maybeSingle();
  const row = unwrap(result, 'PATCH');
  if (!row) throw new ApiError('not_found', 404, 'PATCH');
  return row;
}

/**
 * Sets the status (publish: `published`, unpublish: `draft`).
 * @throws ApiError; P0001 plan_limit_reached when publishing at the plan limit (issue 33 §5)
 */
export async function setProjectStatus(id: number, status: ProjectStatus): Promise<ProjectRow> {
  const supabase = await client();
  const result = await supabase.from('projects').update({ status }).eq('id', id).select(PROJECT_COLUMNS).maybeSingle();
  const row = unwrap(result, 'PATCH');
  if (!row) throw new ApiError('not_found', 404, 'PATCH');
  return row;
}

/** Deletes a project (favourites referencing it go with it, on delete cascade). @throws ApiError */
export async function deleteProject(id: number): Promise<void> {
  const supabase = await client();
  unwrap(await supabase.from('projects').delete().eq('id', id), 'DELETE');
}

/** Mutation hooks of the projects feature; each invalidates the project lists. */
export function useProjectMutations() {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: ['projects'] });
  return {
    create: useMutation({ mutationFn: (a: { ownerId: string; values: ProjectFormValues }) => createProjectDraft(a.ownerId, a.values), onSuccess }),
    update: useMutation({ mutationFn: (a: { id: number; values: ProjectFormValues }) => updateProject(a.id, a.values), onSuccess }),
    setStatus: useMutation({ mutationFn: (a: { id: number; status: ProjectStatus }) => setProjectStatus(a.id, a.status), onSuccess }),
    remove: useMutation({ mutationFn: (id: number) => deleteProject(id), onSuccess }),
  };
}

import { z } from 'zod';
import { httpUrlSchema } from '@/lib/safe-url';
import { CATEGORIES, PRIVATE_CATEGORIES } from '@/lib/categories';
import { Checks } from '@/lib/database.checks';
import type { Database } from '@/lib/database.types';

type Enums = Database['public']['Enums'];
export type ProjectCategory = Enums['project_category'];
export type PrivateProjectCategory = Enums['private_project_category'];
export type ProjectStage = Enums['project_stage'];
export type ProjectStatus = Enums['project_status'];

/** Project stages (public.project_stage) with their message ids. */
export const STAGE_LABEL: Readonly<Record<ProjectStage, string>> = {
  idea: 'projects.stage.idea',
  concept: 'projects.stage.concept',
  prototype: 'projects.stage.prototype',
  mvp: 'projects.stage.mvp',
  growth: 'projects.stage.growth',
  established: 'projects.stage.established',
};

/** Project statuses (public.project_status) with their message ids. */
export const STATUS_LABEL: Readonly<Record<ProjectStatus, string>> = {
  draft: 'projects.status.draft',
  published: 'projects.status.published',
  archived: 'projects.status.archived',
};

const STAGES = Object.keys(STAGE_LABEL) as [ProjectStage, ...ProjectStage[]];

const httpsUrl = httpUrlSchema('projects.error.imageUrl', { httpsOnly: true });

const C = Checks.projects;

/**
 * Form values of a project with the limits the CHECK constraints of public.projects state
 * (database.checks.ts); category xor private category is checked here first and again by
 * projects_category_kind. No coordinates: the database derives them from the city (issue 33 §6).
 * Error messages are message ids.
 */
export const projectSchema = z
  .object({
    title: z.string().trim().min(C.title.minLength, 'projects.error.title').max(C.title.maxLength, 'projects.error.title'),
    summary: z.string().trim().max(C.summary.maxLength, 'projects.error.summary'),
    description: z.string().max(C.description.maxLength, 'projects.error.description'),
    isPrivate: z.boolean(),
    category: z.enum(CATEGORIES).nullable(),
    privateCategory: z.enum(PRIVATE_CATEGORIES).nullable(),
    stage: z.enum(STAGES),
    city: z.string().trim().max(C.city.maxLength, 'projects.error.city'),
    rolesSought: z.array(z.string().trim().min(1).max(80, 'projects.error.role')).max(C.roles_sought.maxItems, 'projects.error.roles'),
    images: z.array(httpsUrl).max(C.images.maxItems, 'projects.error.images'),
    /** Organisation the project is published under ('' = the owner themself, issue 15). */
    organizationId: z.string().default(''),
  })
  .superRefine((v, ctx) => {
    if (!v.isPrivate && !v.category) ctx.addIssue({ code: 'custom', path: ['category'], message: 'projects.error.category' });
    if (v.isPrivate && !v.privateCategory) ctx.addIssue({ code: 'custom', path: ['privateCategory'], message: 'projects.error.privateCategory' });
  });

export type ProjectFormValues = z.infer<typeof projectSchema>;

/** Empty form of a new project. */
export const EMPTY_PROJECT: ProjectFormValues = {
  title: '',
  summary: '',
  description: '',
  isPrivate: false,
  category: null,
  privateCategory: null,
  stage: 'idea',
  city: '',
  rolesSought: [],
  images: [],
  organizationId: '',
};

/** A project row as the SPA reads it. */
export type ProjectRow = Omit<Database['public']['Tables']['projects']['Row'], 'owner_listed' | 'owner_premium'>;

/**
 * The project columns API roles may read (supabase/exposure.ts): owner_listed/owner_premium are
 * internal (the latter would tell the owner's plan), so `select=*` is refused.
 */
export const PROJECT_COLUMNS =
  'id, owner_id, title, slug, summary, description, is_private, category, private_category, city, latitude, longitude, roles_sought, stage, images, status, published_at, created_at, updated_at, organization_id' as const;

/** Maps a row to form values. */
export function toFormValues(row: ProjectRow): ProjectFormValues {
  return {
    title: row.title,
    summary: row.summary,
    description: row.description,
    isPrivate: row.is_private,
    category: row.category,
    privateCategory: row.private_category,
    stage: row.stage,
    city: row.city ?? '',
    rolesSought: row.roles_sought,
    images: row.images,
    organizationId: row.organization_id ?? '',
  };
}

/**
 * Maps validated form values to the columns of public.projects (category xor private category,
 * empty city → null, "publish as myself" → organization_id null). Status, owner, slug and the
 * position are not part of it: triggers derive the slug from the title and latitude/longitude
 * from the city (gazetteer, private.content_map_position; issue 33 §6: nobody types coordinates).
 */
export function toColumns(values: ProjectFormValues) {
  return {
    title: values.title.trim(),
    summary: values.summary.trim(),
    description: values.description,
    is_private: values.isPrivate,
    category: values.isPrivate ? null : values.category,
    private_category: values.isPrivate ? values.privateCategory : null,
    stage: values.stage,
    city: values.city.trim() || null,
    roles_sought: values.rolesSought.map((r) => r.trim()).filter(Boolean),
    images: values.images.map((i) => i.trim()).filter(Boolean),
    organization_id: values.organizationId || null,
  };
}

/**
 * Token in /user/projects/create-project-{id} that starts a new draft. Once the basics step is
 * saved, the draft's numeric id replaces it in the URL, so a reload continues the same draft.
 */
export const NEW_DRAFT_TOKEN = 'new';

/**
 * zod schemas of the public HTTP API v1 (issue 15 "API access"): query parameters, the job
 * write bodies and the cursor. The OpenAPI document (openapi.ts) is built from the same schemas,
 * so what is documented is what is validated.
 */
import { z } from 'zod';

/** Scopes a key can carry (public.api_keys.scopes). */
export const SCOPES = ['projects:read', 'jobs:read', 'events:read', 'search:read', 'jobs:write'] as const;
export type Scope = (typeof SCOPES)[number];

/** public.employment_type */
export const EMPLOYMENT_TYPES = [
  'full_time',
  'part_time',
  'contract',
  'freelance',
  'internship',
  'working_student',
  'mini_job',
] as const;
/** public.project_category (a job's category) */
export const CATEGORIES = [
  'education',
  'technology',
  'business',
  'art',
  'community',
  'environment',
  'health',
  'science',
  'social',
  'other',
] as const;

/** `limit` and `cursor` of the list endpoints: limit 1..100 (default 20), cursor opaque. */
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(400).optional(),
});

/** GET /search: q up to 200 characters, optional comma-separated types, cursor, limit 1..50. */
export const SearchQuery = z.object({
  q: z.string().max(200).default(''),
  types: z
    .string()
    .max(100)
    .regex(
      /^(project|portfolio|event|profile|job)(,(project|portfolio|event|profile|job))*$/,
      'comma-separated list of project, portfolio, event, profile, job',
    )
    .optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  cursor: z.string().min(1).max(400).optional(),
});

const httpsOrMailto = z
  .string()
  .max(2000)
  .regex(/^(https:\/\/[^\s]+|mailto:[^\s]+)$/, 'an https:// or mailto: URL');

const jobFields = {
  title: z.string().trim().min(3).max(140).describe('Job title, 3 to 140 characters'),
  company: z.string().trim().min(1).max(140).describe('Company shown on the ad'),
  description: z.string().trim().min(1).max(20000).describe('Plain text description'),
  apply_url: httpsOrMailto.describe('Where to apply: https:// or mailto: URL'),
  employment_type: z.enum(EMPLOYMENT_TYPES),
  category: z.enum(CATEGORIES).describe('Category; default other'),
  city: z.string().trim().min(1).max(100).nullable().describe('City of the workplace; required unless remote'),
  remote: z.boolean().describe('Fully remote possible'),
  salary_min_cents: z.number().int().positive().max(2_000_000_000).nullable().describe(
    'Yearly gross salary lower bound in euro cents',
  ),
  salary_max_cents: z.number().int().positive().max(2_000_000_000).nullable().describe(
    'Yearly gross salary upper bound in euro cents',
  ),
  language: z.enum(['de', 'en']).describe('Language the ad is written in; default de'),
  expires_at: z.iso.datetime({ offset: true }).nullable().describe('The ad disappears from lists after this time (ISO 8601)'),
};

/** POST /jobs body. Rules the database checks too: remote or city; max salary >= min salary. */
export const JobCreate = z
  .strictObject({
    title: jobFields.title,
    company: jobFields.company,
    description: jobFields.description,
    apply_url: jobFields.apply_url,
    employment_type: jobFields.employment_type,
    category: jobFields.category.default('other'),
    city: jobFields.city.optional(),
    remote: jobFields.remote.default(false),
    salary_min_cents: jobFields.salary_min_cents.optional(),
    salary_max_cents: jobFields.salary_max_cents.optional(),
    language: jobFields.language.default('de'),
    expires_at: jobFields.expires_at.optional(),
  })
  .refine((j) => j.remote || (j.city ?? null) !== null, { message: 'city is required unless remote is true', path: ['city'] })
  .refine((j) => j.salary_min_cents == null || j.salary_max_cents == null || j.salary_max_cents >= j.salary_min_cents, {
    message: 'salary_max_cents must be at least salary_min_cents',
    path: ['salary_max_cents'],
  });
export type JobCreate = z.infer<typeof JobCreate>;

/** PATCH /jobs/{id} body: any of the job's fields, at least one. */
export const JobUpdate = z
  .strictObject({
    title: jobFields.title.optional(),
    company: jobFields.company.optional(),
    description: jobFields.description.optional(),
    apply_url: jobFields.apply_url.optional(),
    employment_type: jobFields.employment_type.optional(),
    category: jobFields.category.optional(),
    city: jobFields.city.optional(),
    remote: jobFields.remote.optional(),
    salary_min_cents: jobFields.salary_min_cents.optional(),
    salary_max_cents: jobFields.salary_max_cents.optional(),
    language: jobFields.language.optional(),
    expires_at: jobFields.expires_at.optional(),
  })
  .refine((j) => Object.keys(j).length > 0, { message: 'at least one field' });
export type JobUpdate = z.infer<typeof JobUpdate>;

/** A job id as used in /jobs/{id} (public.jobs.id). */
export const JOB_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Cursor of the id-ordered lists (projects, events) and of the jobs list (created_at, id). */
export const IdCursor = z.strictObject({ id: z.number().int().nonnegative() });
export const JobCursor = z.strictObject({ t: z.iso.datetime({ offset: true }), id: z.string().regex(JOB_ID).max(120) });
export const PageCursor = z.strictObject({ page: z.number().int().min(2).max(100) });

/** Encodes a cursor object as base64url JSON. */
export function encodeCursor(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** Decodes a cursor made by encodeCursor and checks it against `schema`; null when it is not one. */
export function decodeCursor<T extends z.ZodType>(cursor: string, schema: T): z.infer<T> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const bin = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
    const parsed = schema.safeParse(
      JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)))),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

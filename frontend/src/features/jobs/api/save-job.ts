import { slugify } from '@site/slug';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { unwrap } from '@/lib/api-error';
import { supabase } from '@/lib/supabase';
import { EMPLOYMENT_TYPES } from './get-jobs';
import { CATEGORIES } from '@/lib/categories';
import { Checks } from '@/lib/database.checks';

const C = Checks.jobs;

export { EMPLOYMENT_TYPES };

/**
 * Form values of a job ad with the limits the CHECK constraints of public.jobs state (lengths and
 * languages from database.checks.ts; the apply link https:// or mailto: and "remote or a city"
 * are checked here first, by private.is_apply_url and jobs_location in the database).
 * Jobs are published under an organisation (issue 15: members post jobs under its name; the
 * policy jobs_insert requires a membership). Error messages are message ids.
 */
export const jobSchema = z
  .object({
    organizationId: z.string().min(1, 'jobs.form.error.organization'),
    title: z.string().trim().min(C.title.minLength, 'jobs.form.error.title').max(C.title.maxLength, 'jobs.form.error.title'),
    company: z.string().trim().min(C.company.minLength, 'jobs.form.error.company').max(C.company.maxLength, 'jobs.form.error.company'),
    city: z.string().trim().max(C.city.maxLength, 'jobs.form.error.city'),
    remote: z.boolean(),
    employmentType: z.enum(EMPLOYMENT_TYPES),
    category: z.enum(CATEGORIES),
    description: z.string().trim().min(1, 'jobs.form.error.description').max(C.description.maxLength, 'jobs.form.error.description'),
    applyUrl: z
      .string()
      .trim()
      .max(500, 'jobs.form.error.applyUrl')
      .refine((v) => /^https:\/\/[^\s]+\.[^\s]+$/.test(v) || /^mailto:[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), 'jobs.form.error.applyUrl'),
    language: z.enum(C.language.oneOf),
  })
  .superRefine((v, ctx) => {
    if (!v.remote && !v.city) ctx.addIssue({ code: 'custom', path: ['city'], message: 'jobs.form.error.location' });
  });

/** Values of the job form. */
export type JobFormValues = z.infer<typeof jobSchema>;

/** Empty job form (language of the page). */
export const emptyJob = (language: 'de' | 'en'): JobFormValues => ({
  organizationId: '',
  title: '',
  company: '',
  city: '',
  remote: false,
  employmentType: 'full_time',
  category: 'business',
  description: '',
  applyUrl: '',
  language,
});

/** A readable, unique text id for /jobs/{id}: the title as slug plus 6 random hex digits. */
export function jobIdFor(title: string): string {
  const base = slugify(title, 100);
  const suffix = Array.from(crypto.getRandomValues(new Uint8Array(3)), (b) => b.toString(16).padStart(2, '0')).join('');
  return base ? `${base}-${suffix}` : `job-${suffix}`;
}

/**
 * Inserts a job ad under an organisation (RLS jobs_insert: posted_by = caller and a member of the
 * organisation, or a platform admin).
 * @returns the new job's id (for /jobs/{id})
 * @throws ApiError (42501 not_organization_member / RLS refusal, 23514 a check)
 */
export async function createJob(userId: string, v: JobFormValues): Promise<string> {
  const result = await supabase
    .from('jobs')
    .insert({
      id: jobIdFor(v.title),
      organization_id: v.organizationId,
      posted_by: userId,
      title: v.title.trim(),
      company: v.company.trim(),
      city: v.city.trim() || null,
      remote: v.remote,
      employment_type: v.employmentType,
      category: v.category,
      description: v.description.trim(),
      apply_url: v.applyUrl.trim(),
      language: v.language,
    })
    .select('id')
    .single();
  return unwrap(result, 'POST').id;
}

/** Mutation hook around createJob; refreshes job lists and organisation pages. */
export function useCreateJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (a: { userId: string; values: JobFormValues }) => createJob(a.userId, a.values),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['organizations'] });
      await queryClient.invalidateQueries({ queryKey: ['jobs'] });
    },
  });
}

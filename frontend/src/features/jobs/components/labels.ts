/** Message ids of the employment types (public.employment_type). */
export const EMPLOYMENT_TYPE_LABEL: Record<string, string> = {
  full_time: 'jobs.type.full_time',
  part_time: 'jobs.type.part_time',
  contract: 'jobs.type.contract',
  freelance: 'jobs.type.freelance',
  internship: 'jobs.type.internship',
  working_student: 'jobs.type.working_student',
  mini_job: 'jobs.type.mini_job',
};

/**
 * Message ids of the ten content categories (public.category: projects, events, jobs) as shown in
 * filters and badges of search, jobs and events (spec §3).
 */
export const CATEGORY_LABEL: Record<string, string> = {
  education: 'search.category.education',
  technology: 'search.category.technology',
  business: 'search.category.business',
  art: 'search.category.art',
  community: 'search.category.community',
  environment: 'search.category.environment',
  health: 'search.category.health',
  science: 'search.category.science',
  social: 'search.category.social',
  other: 'search.category.other',
};

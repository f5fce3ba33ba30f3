import { Constants, type Database } from './database.types';

type Enums = Database['public']['Enums'];
/** A content category (public.project_category: projects, events, jobs; spec §1). */
export type ProjectCategory = Enums['project_category'];
/** A private-project category (public.private_project_category, spec §1). */
export type PrivateProjectCategory = Enums['private_project_category'];

/** The ten content categories in the database's order (the generated enum, spec §1). */
export const CATEGORIES = Constants.public.Enums.project_category;

/** The ten private-project categories in the database's order (the generated enum, spec §1). */
export const PRIVATE_CATEGORIES = Constants.public.Enums.private_project_category;

/** True for a value of public.project_category. */
export function isCategory(value: string): value is ProjectCategory {
  return (CATEGORIES as readonly string[]).includes(value);
}

/**
 * Message ids of the ten content categories (public.category: projects, events, jobs) as shown in
 * filters, forms and badges of search, projects, jobs and events (spec §3). The profile form's
 * `account.category.*` texts differ ("Art & culture") and stay with the form.
 */
export const CATEGORY_LABEL: Readonly<Record<string, string>> = {
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
} satisfies Record<ProjectCategory, string>;

/** Message ids of the ten private-project categories (spec §1). */
export const PRIVATE_CATEGORY_LABEL: Readonly<Record<PrivateProjectCategory, string>> = {
  socializing: 'projects.privateCategory.socializing',
  movement: 'projects.privateCategory.movement',
  creative: 'projects.privateCategory.creative',
  learning_exchange: 'projects.privateCategory.learningExchange',
  cooking_eating: 'projects.privateCategory.cookingEating',
  family_children: 'projects.privateCategory.familyChildren',
  volunteer: 'projects.privateCategory.volunteer',
  testing_idea: 'projects.privateCategory.testingIdea',
  finding_partners: 'projects.privateCategory.findingPartners',
  gaining_visibility: 'projects.privateCategory.gainingVisibility',
};

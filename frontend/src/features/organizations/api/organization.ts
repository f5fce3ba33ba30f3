import { type Locale } from '@site/locale';
import { isOrganizationSlug, slugify } from '@site/slug';
import { Checks } from '@/lib/database.checks';
import type { Database } from '@/lib/database.types';
import { SUPABASE_URL } from '@/lib/public-api';

/**
 * Organisations (issue 15, spec §6 Enterprise "corporate profiles with multiple users"): reads and
 * writes of public.organizations, organization_members and organization_invitations and the RPCs
 * of supabase/schemas/05_organizations.sql. The database owns every rule (Enterprise only,
 * seats, roles, invitation expiry and single use, RLS); this module only calls it, types its
 * answers and names its errors (ORG_ERROR_IDS).
 */

/** public.organization_role. */
export type OrganizationRole = Database['public']['Enums']['organization_role'];
/** Roles in the order the UI lists them. */
export const ORGANIZATION_ROLES: readonly OrganizationRole[] = ['owner', 'admin', 'member'];
/** Message ids of the roles. */
export const ROLE_LABEL: Readonly<Record<OrganizationRole, string>> = {
  owner: 'org.role.owner',
  admin: 'org.role.admin',
  member: 'org.role.member',
};
/** Company sizes the database accepts (the organizations.size check). */
export const ORGANIZATION_SIZES = Checks.organizations.size.oneOf;
/** Included plus extra seats default (issue 15: 5 included). */
export const INCLUDED_SEATS = 5;

/** The public columns of an organisation (anon may read them). */
export const ORGANIZATION_PUBLIC_COLUMNS =
  'id, slug, name, logo_path, description_en, description_de, website, industry, size, display_address, created_at, updated_at' as const;

/** An organisation as its public page shows it. */
export interface OrganizationPublic {
  id: string;
  slug: string;
  name: string;
  logo_path: string | null;
  description_en: string;
  description_de: string;
  website: string | null;
  industry: string | null;
  size: string | null;
  display_address: string | null;
  created_at: string;
  updated_at: string;
}

/** Editable fields of the organisation form (create and settings). */
export interface OrganizationFormValues {
  name: string;
  slug: string;
  descriptionEn: string;
  descriptionDe: string;
  website: string;
  industry: string;
  size: string;
  street: string;
  postalCode: string;
  city: string;
  country: string;
}

/** Empty organisation form. */
export const EMPTY_ORGANIZATION: OrganizationFormValues = {
  name: '',
  slug: '',
  descriptionEn: '',
  descriptionDe: '',
  website: '',
  industry: '',
  size: '',
  street: '',
  postalCode: '',
  city: '',
  country: 'DE',
};

/** Suggests a slug from a name (ASCII, lowercase, dashes; ä → ae, ß → ss). */
export function slugFromName(name: string): string {
  return slugify(name, 60);
}

/**
 * Checks before sending (slug rule, name length, website https; lengths from the CHECK
 * constraints in database.checks.ts); returns message ids per field. The database decides.
 */
export function validateOrganization(v: OrganizationFormValues, withSlug: boolean): Partial<Record<keyof OrganizationFormValues, string>> {
  const C = Checks.organizations;
  const errors: Partial<Record<keyof OrganizationFormValues, string>> = {};
  if (v.name.trim().length < C.name.minLength || v.name.trim().length > C.name.maxLength) errors.name = 'org.error.name';
  if (withSlug && !isOrganizationSlug(v.slug)) errors.slug = 'org.error.slug';
  if (v.website.trim() && !/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(v.website.trim())) errors.website = 'org.error.website';
  if (v.descriptionEn.length > C.description_en.maxLength) errors.descriptionEn = 'org.error.description';
  if (v.descriptionDe.length > C.description_de.maxLength) errors.descriptionDe = 'org.error.description';
  return errors;
}

/** Maps an organisation row to form values. */
export function toOrganizationForm(row: OrganizationPublic & Partial<Record<'street' | 'postal_code' | 'city' | 'country', string | null>>): OrganizationFormValues {
  return {
    name: row.name,
    slug: row.slug,
    descriptionEn: row.description_en ?? '',
    descriptionDe: row.description_de ?? '',
    website: row.website ?? '',
    industry: row.industry ?? '',
    size: row.size ?? '',
    street: row.street ?? '',
    postalCode: row.postal_code ?? '',
    city: row.city ?? '',
    country: row.country ?? 'DE',
  };
}

/** Public address of an organisation logo (path in the public `organization-logos` bucket, or a full URL). */
export function organizationLogoUrl(path: string | null | undefined): string | null {
  if (!path) return null;
  if (/^https?:\/\//i.test(path)) return path;
  return `${SUPABASE_URL}/storage/v1/object/public/organization-logos/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The description in the page language, falling back to the other language. */
export function descriptionFor(org: Pick<OrganizationPublic, 'description_en' | 'description_de'>, locale: Locale): string {
  const own = locale === 'de' ? org.description_de : org.description_en;
  const other = locale === 'de' ? org.description_en : org.description_de;
  return own?.trim() ? own : (other ?? '');
}

/**
 * A URL slug from free text (ASCII, lowercase, single dashes; ä → ae, ö → oe, ü → ue, ß → ss,
 * other accents dropped), at most `maxLength` characters and never ending in a dash. Used for
 * organisation slugs (issue 15, max 60), job ids (max 100) and the project part of `/{id}-{slug}`
 * in the sitemap. Returns '' when nothing is left.
 */
export function slugify(text: string, maxLength: number): string {
  return text
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/g, '');
}

/** Slug rule of organizations.slug (issue 15): lowercase a-z, 0-9 and dashes, 3..60 characters, no dash at either end. */
export const ORGANIZATION_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,58})[a-z0-9]$/;

/** True for a valid organisation slug (ORGANIZATION_SLUG_PATTERN); false for undefined. */
export function isOrganizationSlug(slug: string | undefined): boolean {
  return ORGANIZATION_SLUG_PATTERN.test(slug ?? '');
}

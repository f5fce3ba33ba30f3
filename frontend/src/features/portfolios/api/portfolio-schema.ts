import { z } from 'zod';
import type { Database } from '@/lib/database.types';
import { httpUrlSchema } from '@/lib/safe-url';
import { Checks } from '@/lib/database.checks';

export type FileAccess = Database['public']['Enums']['file_access'];
export type PortfolioRow = Omit<Database['public']['Tables']['portfolios']['Row'], 'owner_listed' | 'owner_premium'>;

/** The portfolio columns API roles may read (supabase/exposure.ts; owner_listed/owner_premium are internal). */
export const PORTFOLIO_COLUMNS =
  'id, owner_id, title, slug, description_de, description_en, skills, links, images, category, city, file_access, status, published_at, created_at, updated_at' as const;
export type PortfolioFileRow = Database['public']['Tables']['portfolio_files']['Row'];

/** Who may download the supporting files (public.file_access) with message ids. */
export const FILE_ACCESS_LABEL: Readonly<Record<FileAccess, string>> = {
  public: 'portfolios.access.public',
  members: 'portfolios.access.members',
  contacts: 'portfolios.access.contacts',
  private: 'portfolios.access.private',
};

/** Largest supporting file the SPA accepts: 10 MB (the bucket allows 20 MB). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** MIME types of supporting files: PDF, images, office documents (subset of the bucket's allow-list). */
export const ALLOWED_FILE_TYPES: readonly string[] = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
];

/** Why a file is refused before upload, as a message id; null when acceptable. */
export function fileProblem(file: { type: string; size: number }): string | null {
  if (!ALLOWED_FILE_TYPES.includes(file.type)) return 'portfolios.files.badType';
  if (file.size <= 0 || file.size > MAX_FILE_BYTES) return 'portfolios.files.tooLarge';
  return null;
}

const TRANSLIT: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue', ß: 'ss' };

/**
 * Makes a file name safe for an S3 object key (ASCII letters, digits, `.`, `_`, `-`): German
 * umlauts are transliterated ("Präsentation.pdf" → "Praesentation.pdf"), other accents dropped,
 * the rest becomes `-`; at most 100 characters, the extension kept; never empty ("file").
 */
export function sanitiseFileName(name: string): string {
  const clean = (part: string) =>
    part
      .replace(/[äöüÄÖÜß]/g, (c) => TRANSLIT[c]!)
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^-+|-+$/g, '');
  const found = name.lastIndexOf('.');
  const dot = found > 0 && /^[A-Za-z0-9]{1,10}$/.test(name.slice(found + 1)) ? found : -1;
  const ext = dot > 0 ? name.slice(dot + 1) : '';
  const suffix = ext ? `.${ext}` : '';
  const base = clean(dot > 0 ? name.slice(0, dot) : name).slice(0, 100 - suffix.length).replace(/-+$/, '');
  return `${base || 'file'}${suffix}`;
}

const link = z.object({
  label: z.string().trim().min(1, 'portfolios.error.linkLabel').max(100, 'portfolios.error.linkLabel'),
  url: httpUrlSchema('portfolios.error.linkUrl'),
});

const C = Checks.portfolios;

/** Portfolio form with the limits the CHECK constraints of public.portfolios state; error messages are message ids. */
export const portfolioSchema = z.object({
  title: z.string().trim().min(C.title.minLength, 'portfolios.error.title').max(C.title.maxLength, 'portfolios.error.title'),
  descriptionDe: z.string().max(C.description_de.maxLength, 'portfolios.error.description'),
  descriptionEn: z.string().max(C.description_en.maxLength, 'portfolios.error.description'),
  skills: z.array(z.string().trim().min(1).max(60)).max(C.skills.maxItems, 'portfolios.error.skills'),
  links: z.array(link).max(C.links.maxItems, 'portfolios.error.links'),
  images: z.array(httpUrlSchema('portfolios.error.imageUrl', { httpsOnly: true })).max(C.images.maxItems, 'portfolios.error.images'),
  fileAccess: z.enum(['public', 'members', 'contacts', 'private']),
});

export type PortfolioFormValues = z.infer<typeof portfolioSchema>;

/** Empty portfolio form. */
export const EMPTY_PORTFOLIO: PortfolioFormValues = { title: '', descriptionDe: '', descriptionEn: '', skills: [], links: [], images: [], fileAccess: 'members' };

/** Row → form values (links jsonb filtered to {label,url} objects). */
export function toPortfolioValues(row: PortfolioRow): PortfolioFormValues {
  const links = Array.isArray(row.links)
    ? row.links.flatMap((l) =>
        l && typeof l === 'object' && !Array.isArray(l) && typeof l.label === 'string' && typeof l.url === 'string' ? [{ label: l.label, url: l.url }] : [],
      )
    : [];
  return {
    title: row.title,
    descriptionDe: row.description_de,
    descriptionEn: row.description_en,
    skills: row.skills,
    links,
    images: row.images,
    fileAccess: row.file_access,
  };
}

/** Form values → columns of public.portfolios (slug comes from the trigger). */
export function toPortfolioColumns(v: PortfolioFormValues) {
  return {
    title: v.title.trim(),
    description_de: v.descriptionDe,
    description_en: v.descriptionEn,
    skills: v.skills.map((s) => s.trim()).filter(Boolean),
    links: v.links.map((l) => ({ label: l.label.trim(), url: l.url.trim() })),
    images: v.images.map((i) => i.trim()).filter(Boolean),
    file_access: v.fileAccess,
  };
}

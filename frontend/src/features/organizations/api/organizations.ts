import { isOrganizationSlug, type Locale, slugify } from '@site';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { SUPABASE_URL } from '@/lib/public-api';

/** supabase-js, loaded lazily (the public organisation page and the forms' imports stay light). */
const db = () => import('@/lib/supabase').then((m) => m.supabase);

/**
 * Organisations (issue 15, spec §6 Enterprise "corporate profiles with multiple users"): reads and
 * writes of public.organizations, organization_members and organization_invitations and the RPCs
 * of migration 20261129000000_organizations.sql. The database owns every rule (Enterprise only,
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
/** Company sizes the database accepts (organizations.size check). */
export const ORGANIZATION_SIZES = ['1-10', '11-50', '51-200', '201-1000', '1001+'] as const;
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
 * Client-side checks mirroring the database's (slug rule, name length, website https); returns
 * message ids per field. The database repeats every rule.
 */
export function validateOrganization(v: OrganizationFormValues, withSlug: boolean): Partial<Record<keyof OrganizationFormValues, string>> {
  const errors: Partial<Record<keyof OrganizationFormValues, string>> = {};
  if (v.name.trim().length < 2 || v.name.trim().length > 120) errors.name = 'org.error.name';
  if (withSlug && !isOrganizationSlug(v.slug)) errors.slug = 'org.error.slug';
  if (v.website.trim() && !/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(v.website.trim())) errors.website = 'org.error.website';
  if (v.descriptionEn.length > 5000) errors.descriptionEn = 'org.error.description';
  if (v.descriptionDe.length > 5000) errors.descriptionDe = 'org.error.description';
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

const orNull = (value: string) => (value.trim() ? value.trim() : null);

/**
 * Message ids of the errors the organisation RPCs and policies raise (message = code, see the
 * header of migration 20261129000000_organizations.sql), plus `generic`.
 */
export const ORG_ERROR_IDS: Readonly<Record<string, string>> = {
  enterprise_required: 'org.error.enterprise_required',
  seat_limit_reached: 'org.error.seat_limit_reached',
  slug_taken: 'org.error.slug_taken',
  invalid_slug: 'org.error.slug',
  invalid_name: 'org.error.name',
  invalid_email: 'org.error.email',
  invalid_role: 'org.error.invalid',
  invalid_locale: 'org.error.invalid',
  invalid_size: 'org.error.invalid',
  invalid_token: 'org.error.invitation_not_found',
  invitation_not_found: 'org.error.invitation_not_found',
  organization_not_found: 'org.error.not_found',
  member_not_found: 'org.error.not_found',
  not_authenticated: 'org.error.not_allowed',
  not_organization_member: 'org.error.not_allowed',
  not_organization_admin: 'org.error.not_allowed',
  not_organization_owner: 'org.error.not_allowed',
  owner_role_required: 'org.error.not_allowed',
  own_role: 'org.error.own_role',
  invitation_email_mismatch: 'org.error.invitation_email_mismatch',
  email_unconfirmed: 'org.error.email_unconfirmed',
  subscription_in_use: 'org.error.subscription_in_use',
  last_owner: 'org.error.last_owner',
  billing_owner: 'org.error.billing_owner',
  already_member: 'org.error.already_member',
  invitation_pending: 'org.error.already_invited',
  invitation_expired: 'org.error.invitation_expired',
  invitation_used: 'org.error.invitation_used',
  generic: 'org.error.generic',
};

/**
 * Message id for an error of an organisation call: the code in the message when known, a unique
 * violation of the slug as `slug_taken`, other refusals (42501, 28000, 403) as not allowed.
 */
export function orgErrorId(error: unknown): string {
  if (!(error instanceof ApiError)) return ORG_ERROR_IDS.generic!;
  const known = ORG_ERROR_IDS[error.message];
  if (known) return known;
  if (error.code === '23505' && /slug/.test(error.message)) return 'org.error.slug_taken';
  if (error.code === '42501' || error.code === '28000' || error.status === 403) return 'org.error.not_allowed';
  return ORG_ERROR_IDS.generic!;
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

// ---------------------------------------------------------------- reads

/** Query options of one organisation by slug (null when there is none). */
export const organizationQuery = (slug: string) =>
  queryOptions({
    queryKey: ['organizations', 'by-slug', slug],
    queryFn: async (): Promise<OrganizationPublic | null> => {
      const result = await (await db()).from('organizations').select(ORGANIZATION_PUBLIC_COLUMNS).eq('slug', slug).maybeSingle();
      return unwrap(result, 'GET') as OrganizationPublic | null;
    },
  });

/** A listed member as the public page shows them (RPC organization_members_public). */
export interface PublicMember {
  user_id: string;
  slug: string | null;
  display_name: string | null;
  headline: string | null;
  profile_img: string | null;
  role: OrganizationRole;
}

/** Query options of the listed members of an organisation (anon may call). */
export const publicMembersQuery = (slug: string) =>
  queryOptions({
    queryKey: ['organizations', 'public-members', slug],
    queryFn: async (): Promise<PublicMember[]> => unwrap(await (await db()).rpc('organization_members_public', { p_slug: slug }), 'POST') as unknown as PublicMember[],
  });

/** Projects, jobs and events published under an organisation. */
export interface OrganizationContent {
  projects: { id: number; slug: string; title: string; summary: string; category: string | null; city: string | null }[];
  jobs: { id: string; title: string; company: string; city: string | null; remote: boolean; employment_type: string; category: string; posted_at: string }[];
  events: { id: number; slug: string; title: string; summary: string; category: string | null; starts_at: string; city: string | null; is_online: boolean }[];
}

/** Query options of what an organisation published (RLS: only what the visitor may see). */
export const organizationContentQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['organizations', 'content', organizationId],
    queryFn: async (): Promise<OrganizationContent> => {
      const supabase = await db();
      const [projects, jobs, events] = await Promise.all([
        supabase
          .from('projects')
          .select('id, slug, title, summary, category, city')
          .eq('organization_id', organizationId)
          .eq('status', 'published')
          .order('published_at', { ascending: false })
          .limit(24),
        supabase
          .from('jobs')
          .select('id, title, company, city, remote, employment_type, category, posted_at')
          .eq('organization_id', organizationId)
          .order('posted_at', { ascending: false })
          .limit(24),
        supabase
          .from('events')
          .select('id, slug, title, summary, category, starts_at, city, is_online')
          .eq('organization_id', organizationId)
          .in('status', ['published', 'upcoming', 'ongoing'])
          .order('starts_at', { ascending: true })
          .limit(24),
      ]);
      return {
        projects: unwrap(projects, 'GET') as OrganizationContent['projects'],
        jobs: unwrap(jobs, 'GET') as OrganizationContent['jobs'],
        events: unwrap(events, 'GET') as OrganizationContent['events'],
      };
    },
  });

/** One of the caller's organisations with their role and seat usage (RPC my_organizations). */
export type MyOrganization = Database['public']['Functions']['my_organizations']['Returns'][number];

/** Query options of the signed-in user's organisations (RPC my_organizations; `userId` only keys the cache). */
export const myOrganizationsQuery = (userId: string) =>
  queryOptions({
    queryKey: ['organizations', 'mine', userId],
    queryFn: async (): Promise<MyOrganization[]> => unwrap(await (await db()).rpc('my_organizations'), 'POST'),
  });

/** Hook: the signed-in user's organisations (disabled while the user id is unknown). */
export function useMyOrganizations(userId: string | null | undefined) {
  return useQuery({ ...myOrganizationsQuery(userId ?? ''), enabled: !!userId });
}

/** A member as the settings page lists them (RPC organization_member_list; e-mail only for owners and admins). */
export type OrganizationMember = Database['public']['Functions']['organization_member_list']['Returns'][number];

/** An invitation as the settings page lists it. */
export interface OrganizationInvitation {
  id: string;
  email: string;
  role: OrganizationRole;
  locale: string;
  expires_at: string;
  accepted_at: string | null;
  declined_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** What the settings page needs: the editable organisation, the members and the open invitations. */
export interface OrganizationAdminData {
  organization: OrganizationPublic & { street: string | null; postal_code: string | null; city: string | null; country: string | null };
  members: OrganizationMember[];
  invitations: OrganizationInvitation[];
}

/** Query options of the settings data (RLS: owners and admins). */
export const organizationAdminQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['organizations', 'admin', organizationId],
    queryFn: async (): Promise<OrganizationAdminData> => {
      const supabase = await db();
      const [org, members, invitations] = await Promise.all([
        supabase.from('organizations').select(`${ORGANIZATION_PUBLIC_COLUMNS}, street, postal_code, city, country`).eq('id', organizationId).single(),
        supabase.rpc('organization_member_list', { p_organization_id: organizationId }),
        supabase
          .from('organization_invitations')
          .select('id, email, role, locale, expires_at, accepted_at, declined_at, revoked_at, created_at')
          .eq('organization_id', organizationId)
          .is('accepted_at', null)
          .is('declined_at', null)
          .is('revoked_at', null)
          .gt('expires_at', new Date().toISOString())
          .order('created_at', { ascending: false }),
      ]);
      return {
        organization: unwrap(org, 'GET') as unknown as OrganizationAdminData['organization'],
        members: unwrap(members, 'GET') as unknown as OrganizationMember[],
        invitations: unwrap(invitations, 'GET') as unknown as OrganizationInvitation[],
      };
    },
  });

/** What /invitations/{token} shows (RPC organization_invitation; anon and authenticated; no e-mail address). */
export interface InvitationInfo {
  organization_id: string;
  organization_name: string;
  slug: string;
  logo_path: string | null;
  role: OrganizationRole;
  locale: string;
  expires_at: string;
  state: 'open' | 'expired' | 'accepted' | 'declined' | 'revoked';
  /** For a signed-in caller: their confirmed e-mail is the invited one; null for anon. */
  email_matches: boolean | null;
  /** For a signed-in caller: already a member; null for anon. */
  already_member: boolean | null;
}

/** Query options of an invitation by token; null when the token is unknown. */
export const invitationQuery = (token: string, userId: string | null) =>
  queryOptions({
    queryKey: ['organizations', 'invitation', token, userId],
    queryFn: async (): Promise<InvitationInfo | null> =>
      (unwrap(await (await db()).rpc('organization_invitation', { p_token: token }), 'POST') as unknown as InvitationInfo | null) ?? null,
    retry: false,
  });

// ---------------------------------------------------------------- writes

/**
 * Creates an organisation (RPC create_organization; Enterprise subscribers only, the caller
 * becomes its owner).
 * @returns the new organisation's id
 * @throws ApiError enterprise_required, slug_taken, invalid input (22023)
 */
export async function createOrganization(v: OrganizationFormValues): Promise<string> {
  const supabase = await db();
  const result = await supabase.rpc('create_organization', {
    p_name: v.name.trim(),
    p_slug: v.slug.trim(),
    p_description_en: v.descriptionEn.trim(),
    p_description_de: v.descriptionDe.trim(),
    p_website: orNull(v.website),
    p_industry: orNull(v.industry),
    p_size: orNull(v.size),
    p_street: orNull(v.street),
    p_postal_code: orNull(v.postalCode),
    p_city: orNull(v.city),
    p_country: orNull(v.country),
  } as never);
  return unwrap(result, 'POST') as unknown as string;
}

/**
 * Saves the public fields of an organisation (PATCH; RLS and column grants: owners and admins).
 * @throws ApiError; 404 when the row is not writable for the caller
 */
export async function updateOrganization(id: string, v: OrganizationFormValues): Promise<void> {
  const supabase = await db();
  const result = await supabase
    .from('organizations')
    .update({
      name: v.name.trim(),
      description_en: v.descriptionEn.trim(),
      description_de: v.descriptionDe.trim(),
      website: orNull(v.website),
      industry: orNull(v.industry),
      size: orNull(v.size),
      street: orNull(v.street),
      postal_code: orNull(v.postalCode),
      city: orNull(v.city),
      country: orNull(v.country),
    } as never)
    .eq('id', id)
    .select('id')
    .maybeSingle();
  if (!unwrap(result, 'PATCH')) throw new ApiError('not_allowed', 404, 'PATCH');
}

/**
 * Uploads a logo (PNG/JPEG/WebP ≤ 2 MB) to `organization-logos/{organization id}/…` and stores
 * the path on the organisation.
 * @throws ApiError when the upload or the update is refused
 */
export async function uploadOrganizationLogo(id: string, file: File): Promise<void> {
  const ext = file.type === 'image/png' ? 'png' : file.type === 'image/webp' ? 'webp' : 'jpg';
  const path = `${id}/logo-${crypto.randomUUID()}.${ext}`;
  const supabase = await db();
  const upload = await supabase.storage.from('organization-logos').upload(path, file, { contentType: file.type, upsert: false });
  if (upload.error) throw new ApiError(upload.error.message, 400, 'POST');
  const result = await supabase
    .from('organizations')
    .update({ logo_path: path } as never)
    .eq('id', id)
    .select('id')
    .maybeSingle();
  if (!unwrap(result, 'PATCH')) throw new ApiError('not_allowed', 404, 'PATCH');
}

/** Mutations of the settings page; each refreshes the organisation queries. */
export function useOrganizationMutations(organizationId: string) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: ['organizations'] });
  const rpc = async (name: string, args: Record<string, unknown>) => unwrap(await (await db()).rpc(name as never, args as never), 'POST');
  return {
    update: useMutation({ mutationFn: (v: OrganizationFormValues) => updateOrganization(organizationId, v), onSuccess }),
    uploadLogo: useMutation({ mutationFn: (file: File) => uploadOrganizationLogo(organizationId, file), onSuccess }),
    invite: useMutation({
      mutationFn: (a: { email: string; role: OrganizationRole; locale: Locale }) =>
        rpc('invite_to_organization', { p_organization_id: organizationId, p_email: a.email.trim(), p_role: a.role, p_locale: a.locale }),
      onSuccess,
    }),
    revoke: useMutation({ mutationFn: (invitationId: string) => rpc('revoke_organization_invitation', { p_invitation_id: invitationId }), onSuccess }),
    remove: useMutation({ mutationFn: (userId: string) => rpc('remove_organization_member', { p_organization_id: organizationId, p_user_id: userId }), onSuccess }),
    setRole: useMutation({
      mutationFn: (a: { userId: string; role: OrganizationRole }) =>
        rpc('set_organization_member_role', { p_organization_id: organizationId, p_user_id: a.userId, p_role: a.role }),
      onSuccess,
    }),
    leave: useMutation({ mutationFn: () => rpc('leave_organization', { p_organization_id: organizationId }), onSuccess }),
    remove_organization: useMutation({ mutationFn: () => rpc('delete_organization', { p_organization_id: organizationId }), onSuccess }),
  };
}

/**
 * The caller's own membership actions on "My organisations": switch being listed on the public
 * page (organization_members.listed, own row by RLS) and leaving (RPC leave_organization; the
 * last owner cannot leave: last_owner / billing_owner).
 */
export function useOwnMembership(userId: string) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: ['organizations'] });
  return {
    setListed: useMutation({
      mutationFn: async (a: { organizationId: string; listed: boolean }) => {
        const supabase = await db();
        const result = await supabase
          .from('organization_members')
          .update({ listed: a.listed })
          .eq('organization_id', a.organizationId)
          .eq('user_id', userId)
          .select('listed')
          .maybeSingle();
        if (!unwrap(result, 'PATCH')) throw new ApiError('not_organization_member', 404, 'PATCH');
      },
      onSuccess,
    }),
    leave: useMutation({
      mutationFn: async (organizationId: string) => unwrap(await (await db()).rpc('leave_organization', { p_organization_id: organizationId }), 'POST'),
      onSuccess,
    }),
  };
}

/** Accepts an invitation (RPC accept_organization_invitation). @returns the organisation id @throws ApiError */
export async function acceptInvitation(token: string): Promise<string> {
  return unwrap(await (await db()).rpc('accept_organization_invitation', { p_token: token }), 'POST') as unknown as string;
}

/** Declines an invitation (RPC decline_organization_invitation). @throws ApiError */
export async function declineInvitation(token: string): Promise<void> {
  unwrap(await (await db()).rpc('decline_organization_invitation', { p_token: token }), 'POST');
}

/** Answer of RPC organization_billing (owners only; issue 15 seats, migration 20261130000000_seat_purchase.sql). */
export interface OrganizationBilling {
  seats: number;
  included_seats: number;
  extra_seats: number;
  members: number;
  open_invitations: number;
  plan_id: string | null;
  status: string | null;
  billing_period: 'monthly' | 'quarterly' | 'semiannual' | 'yearly' | null;
  /** Price of one extra seat per billing period, in cents (null without a subscription). */
  seat_amount_cents: number | null;
  seat_currency: string | null;
  /** The caller's own subscription pays for the organisation: only they change the seats. */
  billing_owner: boolean | null;
  enterprise_active: boolean;
}

/** Seats and subscription of an organisation for its owners (RPC organization_billing). */
export const organizationBillingQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['organizations', 'billing', organizationId],
    queryFn: async (): Promise<OrganizationBilling> =>
      unwrap(await (await db()).rpc('organization_billing', { p_organization_id: organizationId }), 'POST') as unknown as OrganizationBilling,
  });

/** Message ids of the refusals of the `organization-seats` function (its error codes). */
export const SEAT_ERROR_IDS: Readonly<Record<string, string>> = {
  seats_in_use: 'org.seats.error.in_use',
  not_billing_owner: 'org.seats.error.not_billing_owner',
  enterprise_required: 'org.seats.error.enterprise_required',
  stripe_unavailable: 'org.seats.error.unavailable',
};

/**
 * Changes the organisation's extra seats on its Stripe subscription (Edge Function
 * `organization-seats`; the database checks owner, subscriber and seats in use) and refreshes the
 * organisation queries. Resolves to `{ seats, extraSeats, changed }`; rejects with FunctionCallError.
 */
export function useChangeSeats(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (extraSeats: number) => {
      const { invokeFunction } = await import('@/lib/invoke-function');
      return invokeFunction<{ seats: number; extraSeats: number; changed: boolean }>('organization-seats', { organizationId, extraSeats });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['organizations'] }),
  });
}

/** The caller's organisation with this slug and their role in it; null when they are not a member. */
export interface OrgMembership {
  id: string;
  slug: string;
  name: string;
  role: 'owner' | 'admin' | 'member';
  enterprise_active: boolean;
}

/**
 * The signed-in user's membership of the organisation `slug` (rpc/my_organizations).
 * @throws ApiError when the call fails
 */
export async function getOrgMembership(slug: string): Promise<OrgMembership | null> {
  const { supabase } = await import('@/lib/supabase');
  const rows = unwrap(await supabase.rpc('my_organizations'), 'POST') as OrgMembership[] | null;
  return (rows ?? []).find((o) => o.slug === slug) ?? null;
}

/** Query hook around getOrgMembership. */
export function useOrgMembership(slug: string) {
  return useQuery({ queryKey: ['organizations', 'membership', slug], queryFn: () => getOrgMembership(slug) });
}

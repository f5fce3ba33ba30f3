import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { ORGANIZATION_PUBLIC_COLUMNS, type OrganizationPublic, type OrganizationRole } from './organization';

/** supabase-js, loaded lazily (the public organisation page and the forms' imports stay light). */
const db = () => import('@/lib/supabase').then((m) => m.supabase);

/*
 * Reads of organisations (issue 15): one organisation, its public members and content, the
 * caller's organisations and membership, the owners' and admins' data, an invitation.
 */

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

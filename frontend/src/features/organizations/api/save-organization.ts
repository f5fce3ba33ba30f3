import { type Locale } from '@site/locale';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, unwrap } from '@/lib/api-error';
import { uploadFile } from '@/lib/upload-file';
import type { OrganizationFormValues, OrganizationRole } from './organization';

/** supabase-js, loaded lazily (the public organisation page and the forms' imports stay light). */
const db = () => import('@/lib/supabase').then((m) => m.supabase);

const orNull = (value: string) => (value.trim() ? value.trim() : null);

/*
 * Writes of organisations (issue 15): create, update, logo, members and invitations.
 */

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
 * Uploads a logo (PNG/JPEG/WebP ≤ 2 MB) to `organization-logos/{organization id}/…` through the
 * upload function (which checks the bytes) and stores the path on the organisation.
 * @throws ApiError when the upload or the update is refused
 */
export async function uploadOrganizationLogo(id: string, file: File): Promise<void> {
  const ext = file.type === 'image/png' ? 'png' : file.type === 'image/webp' ? 'webp' : 'jpg';
  const path = `${id}/logo-${crypto.randomUUID()}.${ext}`;
  const supabase = await db();
  const stored = await uploadFile('organization-logos', path, file);
  const result = await supabase
    .from('organizations')
    .update({ logo_path: stored } as never)
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

/** The writes of the settings page, as {@link useOrganizationMutations} returns them. */
export type OrganizationMutations = ReturnType<typeof useOrganizationMutations>;

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

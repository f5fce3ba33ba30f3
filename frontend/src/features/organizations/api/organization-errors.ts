import { ApiError } from '@/lib/api-error';

/**
 * Message ids of the errors the organisation RPCs and policies raise (message = code, see the
 * header of supabase/schemas/05_organizations.sql), plus `generic`.
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

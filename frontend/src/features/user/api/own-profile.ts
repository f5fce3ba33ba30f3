import { invokeFunction } from '@/lib/invoke-function';
import { unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { currentUserId } from '@/lib/own-profile';
import { supabase } from '@/lib/supabase';
import { uploadFile } from '@/lib/upload-file';

/**
 * The map placement of the signed-in user's profile (issue 14): the stored coordinates (the
 * city's, or the business address's with the opt-in) and the opt-in itself. Public columns of
 * the own row. @throws ApiError
 */
export async function fetchOwnMapPlacement(): Promise<{ latitude: number | null; longitude: number | null; show_exact_location: boolean }> {
  const id = await currentUserId();
  return unwrap(await supabase.from('profiles').select('latitude, longitude, show_exact_location').eq('id', id).single(), 'GET');
}

/** Profile fields a user may change on themselves through `update-user` (its SELF_FIELDS). */
export type ProfileUpdates = Partial<
  Pick<
    Database['public']['Tables']['profiles']['Row'],
    | 'firstname'
    | 'lastname'
    | 'headline'
    | 'bio'
    | 'skills'
    | 'looking_for'
    | 'offering'
    | 'categories'
    | 'type'
    | 'street'
    | 'house_number'
    | 'city'
    | 'state'
    | 'zipcode'
    | 'latitude'
    | 'longitude'
    | 'show_exact_location'
    | 'profile_visibility'
    | 'profile_img'
    | 'social_links'
    | 'preferred_language'
  >
>;

/**
 * Saves own profile fields through the `update-user` Edge Function (spec §7; the caller's rights
 * and the database decide). @throws FunctionCallError with the server's text
 */
export async function updateOwnProfile(updates: ProfileUpdates): Promise<void> {
  const userId = await currentUserId();
  await invokeFunction('update-user', { userId, updates });
}

/** Allowed avatar types and the size limit (issue 6: jpeg/png/webp, ≤ 5 MB). */
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** Edge length of the stored square avatar in pixels. */
export const AVATAR_SIZE_PX = 512;

/**
 * Crops the image to its centred square and scales it to 512×512 on a canvas (WebP, JPEG where
 * WebP encoding is missing).
 * @throws Error 'unsupported_type' / 'too_large' / 'decode_failed'
 */
export async function prepareAvatar(file: File): Promise<Blob> {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) throw new Error('unsupported_type');
  if (file.size > AVATAR_MAX_BYTES) throw new Error('too_large');
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new Error('decode_failed');
  }
  const side = Math.min(bitmap.width, bitmap.height);
  const canvas = document.createElement('canvas');
  canvas.width = AVATAR_SIZE_PX;
  canvas.height = AVATAR_SIZE_PX;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('decode_failed');
  ctx.drawImage(bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, AVATAR_SIZE_PX, AVATAR_SIZE_PX);
  bitmap.close();
  const toBlob = (type: string) => new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, 0.88));
  const webp = await toBlob('image/webp');
  if (webp && webp.type === 'image/webp') return webp;
  const jpeg = await toBlob('image/jpeg');
  if (!jpeg) throw new Error('decode_failed');
  return jpeg;
}

/**
 * Uploads a prepared avatar to `avatars/<userId>/…avatar-<time>.<ext>` through the upload function
 * (which checks the bytes) and stores the path in profiles.profile_img (the previous file is removed).
 * @returns the new object path
 */
export async function uploadAvatar(blob: Blob, previousPath: string | null): Promise<string> {
  const userId = await currentUserId();
  const ext = blob.type === 'image/webp' ? 'webp' : 'jpg';
  const path = `${userId}/avatar-${Date.now()}.${ext}`;
  const stored = await uploadFile('avatars', path, blob);
  await updateOwnProfile({ profile_img: stored });
  if (previousPath && previousPath.startsWith(`${userId}/`)) await supabase.storage.from('avatars').remove([previousPath]);
  return stored;
}

/** DSGVO Art. 20: the caller's data as JSON (`export_my_data()` RPC). */
export async function exportMyData(): Promise<unknown> {
  return unwrap(await supabase.rpc('export_my_data'), 'POST');
}

/** What the deletion did to the account's subscriptions (issue 32 §1). */
export interface AccountDeletion {
  deleted: true;
  /** Subscriptions cancelled at Stripe right away (`sub_…`); `pending`: queued, retried until Stripe confirms. */
  subscriptions: { canceled: string[]; pending: boolean };
}

/**
 * DSGVO Art. 17: deletes the caller's account through the `delete-account` function (which calls
 * `delete_my_account(p_email)` with the caller's session; the typed e-mail must match the
 * account's) and cancels its subscriptions at Stripe at once, without refund (issue 32 §1).
 * @throws FunctionCallError, code `email_mismatch` when the address is not the account's
 */
export async function deleteMyAccount(email: string): Promise<AccountDeletion> {
  const { invokeFunction } = await import('@/lib/invoke-function');
  return invokeFunction<AccountDeletion>('delete-account', { email });
}

/**
 * Changes the own e-mail through Auth (PUT /auth/v1/user); the change completes when the links
 * mailed to the current and the new address are both opened. Auth's send-email hook
 * (public.send_email_hook) limits requests per account and mails per address (issue 31 §2).
 * @throws the AuthError: `status` 429 when a limit is reached
 */
export async function changeOwnEmail(email: string): Promise<void> {
  const { error } = await supabase.auth.updateUser({ email }, { emailRedirectTo: `${window.location.origin}/user/settings` });
  if (error) throw error;
}

/** Changes the own password through Auth. */
export async function changeOwnPassword(password: string): Promise<void> {
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw new Error(error.message);
}

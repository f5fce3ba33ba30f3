/**
 * DSGVO Art. 17 self-deletion (`delete_my_account(p_email)`) and admin deletion
 * (`admin_delete_user(p_user_id)`), supabase/schemas/01_profiles.sql, through the API with supabase-js:
 * who may call them, the error shapes, and that the auth user, profile and owned rows are gone.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { stackConfig } from '../../scripts/local-stack/config.ts';

const config = stackConfig();
const PASSWORD = 'Correct-Horse-42';
const options = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
};
const service = createClient(config.apiUrl, config.serviceRoleKey, options);

/** A confirmed user with an optional role, signed in. */
async function user(role?: 'admin'): Promise<{ id: string; email: string; client: SupabaseClient }> {
  const email = `del-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { firstname: 'Del', lastname: 'Test' } });
  expect(created.error).toBeNull();
  const id = created.data.user!.id;
  if (role) expect((await service.from('profiles').update({ user_role: role }).eq('id', id)).error).toBeNull();
  const client = createClient(config.apiUrl, config.anonKey, options);
  expect((await client.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  return { id, email, client };
}

const exists = async (id: string) => ({
  auth: (await service.auth.admin.getUserById(id)).data.user !== null,
  profile: ((await service.from('profiles').select('id').eq('id', id)).data ?? []).length === 1,
});

describe('delete_my_account (DSGVO Art. 17)', () => {
  test('anon cannot call it', async () => {
    const anon = createClient(config.apiUrl, config.anonKey, options);
    const { error } = await anon.rpc('delete_my_account', { p_email: 'x@example.com' });
    expect(error?.code).toBe('42501');
  });

  test('a wrong e-mail is refused (22023 email_mismatch) and nothing is deleted', async () => {
    const me = await user();
    await me.client.from('user_blocks').insert({ blocker_id: me.id, blocked_id: (await user()).id });
    const { error } = await me.client.rpc('delete_my_account', { p_email: 'someone-else@example.com' });
    expect(error).toMatchObject({ code: '22023', message: 'email_mismatch' });
    expect(await exists(me.id)).toEqual({ auth: true, profile: true });
  });

  test('the own e-mail (any case, spaces) deletes auth user, profile and owned rows', async () => {
    const me = await user();
    const other = await user();
    expect((await me.client.from('user_blocks').insert({ blocker_id: me.id, blocked_id: other.id })).error).toBeNull();
    const { error } = await me.client.rpc('delete_my_account', { p_email: `  ${me.email.toUpperCase()} ` });
    expect(error).toBeNull();
    expect(await exists(me.id)).toEqual({ auth: false, profile: false });
    expect((await service.from('user_blocks').select('blocked_id').eq('blocker_id', me.id)).data).toEqual([]);
    expect(await exists(other.id)).toEqual({ auth: true, profile: true });
  });
});

describe('admin_delete_user', () => {
  test('non-admins get 42501 and nothing is deleted', async () => {
    const plain = await user();
    const target = await user();
    const { error } = await plain.client.rpc('admin_delete_user', { p_user_id: target.id });
    expect(error).toMatchObject({ code: '42501', message: 'forbidden' });
    expect(await exists(target.id)).toEqual({ auth: true, profile: true });
  });

  test('an admin deletes another user; not themselves; unknown ids are PT404 (HTTP 404)', async () => {
    const admin = await user('admin');
    const target = await user();
    expect((await admin.client.rpc('admin_delete_user', { p_user_id: target.id })).error).toBeNull();
    expect(await exists(target.id)).toEqual({ auth: false, profile: false });
    const self = await admin.client.rpc('admin_delete_user', { p_user_id: admin.id });
    expect(self.error).toMatchObject({ code: '22023', message: 'cannot_delete_self' });
    const unknown = await admin.client.rpc('admin_delete_user', { p_user_id: '00000000-0000-4000-8000-00000000dead' });
    expect(unknown.error).toMatchObject({ code: 'PT404', message: 'not_found' });
    expect(unknown.status).toBe(404);
  });
});

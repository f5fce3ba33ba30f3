import { expect, type Page } from '@playwright/test';
import { ANON_KEY, apiUrl, grantActiveSubscription, nodeClient, SERVICE_ROLE_KEY } from './support';

export { expectAccessible } from './support';

/** supabase-js keeps the session under `sb-<first host label>-auth-token`. */
export const storageKey = `sb-${new URL(apiUrl).hostname.split('.')[0]}-auth-token`;

/** Service-role client of the test process. */
export const admin = () => nodeClient(SERVICE_ROLE_KEY);

/** A confirmed test user with a role, a signed-in client and its session. */
export async function createUser(role: 'free' | 'basic' | 'premium', label: string) {
  const service = admin();
  const email = `content-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'Correct-Horse-42';
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true, user_metadata: { firstname: 'Content', lastname: label } });
  expect(created.error).toBeNull();
  const userId = created.data.user!.id;
  if (role !== 'free') await grantActiveSubscription(service, userId, role);
  const updated = await service.from('profiles').update({ user_role: role }).eq('id', userId).select('user_role').single();
  expect(updated.error).toBeNull();
  const client = nodeClient(ANON_KEY);
  const signedIn = await client.auth.signInWithPassword({ email, password });
  expect(signedIn.error).toBeNull();
  return { userId, email, client, session: signedIn.data.session! };
}

/** Puts a session into the SPA's localStorage (the UI login is not the subject of these tests). */
export async function storeSession(page: Page, session: unknown) {
  await page.goto('/ueber-teamwerk');
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [storageKey, JSON.stringify(session)]);
}

/** Inserts a project through the service client and returns id + slug. */
export async function seedProject(ownerId: string, title: string, status: 'draft' | 'published' = 'draft') {
  const result = await admin()
    .from('projects')
    .insert({ owner_id: ownerId, title, slug: '', category: 'technology', status, summary: `${title} summary` })
    .select('id, slug')
    .single();
  expect(result.error).toBeNull();
  return result.data as { id: number; slug: string };
}


import { expect, type Page } from '@playwright/test';
import { ANON_KEY, apiUrl, nodeClient, SERVICE_ROLE_KEY } from './support';

/** supabase-js keeps the session under `sb-<first host label>-auth-token`. */
const storageKey = `sb-${new URL(apiUrl).hostname.split('.')[0]}-auth-token`;

/** A fresh user of this test run with a signed-in supabase-js client. */
export interface TestUser {
  id: string;
  email: string;
  session: unknown;
  client: ReturnType<typeof nodeClient>;
}

/** Service-role client (bypasses RLS) for test data. */
export const admin = () => nodeClient(SERVICE_ROLE_KEY);

/** Short random token so test data never collides between runs. */
export const token = () => Math.random().toString(36).slice(2, 8);

/**
 * Creates a confirmed, visible user with the given role through the admin API and signs in.
 * `authenticated = 1` is set so their content is listed and searchable.
 */
export async function createUser(role: 'free' | 'basic' | 'premium', firstname = 'Test'): Promise<TestUser> {
  const service = admin();
  const email = `cb-${role}-${Date.now()}-${token()}@example.com`;
  const password = 'Correct-Horse-42';
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true, user_metadata: { firstname, lastname: 'Tester' } });
  expect(created.error).toBeNull();
  const id = created.data.user!.id;
  if (role !== 'free') {
    // payment-required asks public.has_active_subscription(): a live subscription row
    const now = new Date();
    const subscription = await service.from('subscriptions').insert({
      user_id: id,
      plan_id: role,
      status: 'active',
      stripe_customer_id: `cus_cb_${id.slice(0, 8)}`,
      stripe_subscription_id: `sub_cb_${id.slice(0, 8)}_${now.getTime()}`,
      current_period_start: now.toISOString(),
      current_period_end: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
      last_synced_at: now.toISOString(),
    });
    expect(subscription.error).toBeNull();
  }
  const updated = await service.from('profiles').update({ user_role: role, authenticated: 1, profile_visibility: 1 }).eq('id', id).select('id').single();
  expect(updated.error).toBeNull();
  const client = nodeClient(ANON_KEY);
  const signedIn = await client.auth.signInWithPassword({ email, password });
  expect(signedIn.error).toBeNull();
  if (role !== 'free') expect((await client.rpc('has_active_subscription')).data, 'subscription active').toBe(true);
  return { id, email, session: signedIn.data.session, client };
}

/** Puts a user's session into the browser's localStorage (log in without the UI), or removes it. */
export async function useSession(page: Page, user: TestUser | null): Promise<void> {
  if (page.url() === 'about:blank') await page.goto('/ueber-teamwerk');
  await page.evaluate(
    ([key, value]) => (value ? localStorage.setItem(key!, value) : localStorage.removeItem(key!)),
    [storageKey, user ? JSON.stringify(user.session) : null] as const,
  );
}

/** Inserts a published event for an organiser through the service client. */
export async function insertEvent(organizerId: string, fields: Record<string, unknown>): Promise<{ id: number; slug: string }> {
  const start = new Date(Date.now() + 7 * 24 * 3600_000);
  const result = await admin()
    .from('events')
    .insert({
      organizer_id: organizerId,
      slug: '',
      title: 'Test event',
      status: 'published',
      starts_at: start.toISOString(),
      ends_at: new Date(start.getTime() + 2 * 3600_000).toISOString(),
      city: 'Berlin',
      ...fields,
    })
    .select('id, slug')
    .single();
  expect(result.error).toBeNull();
  return result.data as { id: number; slug: string };
}

/** A form control by its label text, ignoring the required marker (" *"). */
export function field(page: Page, label: string) {
  return page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));
}

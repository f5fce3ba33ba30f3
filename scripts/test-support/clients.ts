/**
 * Official clients wired to the local stack of the current TEAMWERK_STACK_OFFSET, for tests and
 * benchmarks. Node 20 has no global WebSocket, so realtime gets `ws` as its transport.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { stackConfig } from '../local-stack/config.ts';

export const config = stackConfig();

/** supabase-js options for Node: no session persistence, `ws` as realtime transport. */
export const nodeClientOptions = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
};

/** A client with the anon key (a visitor). */
export function anonClient(): SupabaseClient {
  return createClient(config.apiUrl, config.anonKey, nodeClientOptions);
}

/** A client with the service_role key (bypasses RLS). */
export function serviceClient(): SupabaseClient {
  return createClient(config.apiUrl, config.serviceRoleKey, nodeClientOptions);
}

/** A client that sends `accessToken` as its bearer token (e.g. a JWT minted in a test) with `apikey`. */
export function clientWithToken(accessToken: string, apikey = config.anonKey): SupabaseClient {
  return createClient(config.apiUrl, apikey, { ...nodeClientOptions, global: { headers: { Authorization: `Bearer ${accessToken}` } } });
}

/** A superuser `pg` client (for setup and assertions that must not go through RLS). */
export async function superuserDb(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: config.dbUrl });
  await client.connect();
  return client;
}

/** A unique e-mail address under the test domain. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@test.teamwerk.local`;
}

/**
 * Creates a confirmed user through the auth admin API and returns a client signed in as them.
 * Errors: throws when creation or sign-in fails.
 */
export async function signedInClient(
  options: { email?: string; password?: string; userMetadata?: Record<string, unknown> } = {},
): Promise<{ client: SupabaseClient; userId: string; email: string; password: string; accessToken: string }> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'Test-Passw0rd!';
  const admin = serviceClient();
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true, user_metadata: options.userMetadata ?? {} });
  if (created.error) throw created.error;
  const client = anonClient();
  const signedIn = await client.auth.signInWithPassword({ email, password });
  if (signedIn.error || !signedIn.data.session) throw signedIn.error ?? new Error('no session');
  return { client, userId: created.data.user.id, email, password, accessToken: signedIn.data.session.access_token };
}

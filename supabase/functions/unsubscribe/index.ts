/**
 * `unsubscribe` Edge Function (public): see handler.ts for the contract. Without a valid
 * TOKEN_SECRET every request answers 500 `server_misconfigured` (issue 12 §3).
 */
import { createUnsubscribeHandler } from './handler.ts';
import { adminClient } from '../_shared/supabase.ts';
import { requireSecret, withSecrets } from '../_shared/secrets.ts';

Deno.serve(withSecrets(['TOKEN_SECRET'], () => createUnsubscribeHandler({ admin: adminClient(), secret: requireSecret('TOKEN_SECRET') })));

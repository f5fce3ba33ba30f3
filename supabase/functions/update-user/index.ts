/** `update-user` Edge Function (signed-in users, admins, service role): see handler.ts. */
import { createUpdateUserHandler } from './handler.ts';
import { adminClient, callerClient, resolveCaller } from '../_shared/supabase.ts';

Deno.serve(createUpdateUserHandler({ resolveCaller, admin: adminClient(), asCaller: callerClient }));

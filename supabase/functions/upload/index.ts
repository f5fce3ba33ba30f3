/** `upload` Edge Function (signed-in users): see handler.ts for the contract. */
import { createUploadHandler } from './handler.ts';
import { adminClient, callerClient, resolveCaller } from '../_shared/supabase.ts';

Deno.serve(createUploadHandler({ resolveCaller, admin: adminClient(), asCaller: callerClient }));

/** `send-email` Edge Function (service role or admin): see handler.ts for the contract. */
import { createSendEmailHandler } from './handler.ts';
import { requireServiceOrAdmin } from '../_shared/supabase.ts';
import { resendSenderFromEnv } from '../_shared/email/queue.ts';

Deno.serve(createSendEmailHandler({ authorize: requireServiceOrAdmin, sender: resendSenderFromEnv() }));

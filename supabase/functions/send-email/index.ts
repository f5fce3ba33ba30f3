/**
 * `send-email` Edge Function (service role or admin): see handler.ts for the contract.
 * Without a valid RESEND_API_KEY every request answers 500 `server_misconfigured` (issue 12 §3).
 */
import { createSendEmailHandler } from './handler.ts';
import { requireServiceOrAdmin } from '../_shared/supabase.ts';
import { resendSenderFromEnv } from '../_shared/email/queue.ts';
import { withSecrets } from '../_shared/secrets.ts';

Deno.serve(withSecrets(['RESEND_API_KEY'], () => createSendEmailHandler({ authorize: requireServiceOrAdmin, sender: resendSenderFromEnv() })));

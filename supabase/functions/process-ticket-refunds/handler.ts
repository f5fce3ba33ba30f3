/**
 * `process-ticket-refunds` (issue 16): runs the ticket refund queue once. pg_cron calls it every
 * minute with the service_role key; signed-in users may nudge it (the SPA does after an
 * organiser cancels an event) — it only pays back what the database already queued.
 *
 * POST (any body). → 200 `{ claimed, refunded, failed }`.
 * Errors: 401 `unauthorized`; 503 `stripe_unavailable` is never returned: failures stay queued
 * with backoff and are counted in `failed`.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, json, withErrors } from '../_shared/http.ts';
import type { Caller } from '../_shared/supabase.ts';
import type { Stripe } from '../_shared/stripe.ts';
import { processTicketRefunds } from '../_shared/tickets.ts';

/** Dependencies of process-ticket-refunds. */
export interface ProcessRefundsDeps {
  resolveCaller: (req: Request) => Promise<Caller>;
  admin: SupabaseClient;
  stripe: Stripe;
}

/** Builds the request handler of `process-ticket-refunds` over its dependencies. */
export function createProcessRefundsHandler(deps: ProcessRefundsDeps): (req: Request) => Promise<Response> {
  return withErrors('process-ticket-refunds', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const caller = await deps.resolveCaller(req);
    const run = await processTicketRefunds(deps.stripe, deps.admin, caller.kind === 'service_role' ? 50 : 20);
    return json(run);
  });
}

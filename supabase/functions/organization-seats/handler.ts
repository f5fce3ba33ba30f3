/**
 * `organization-seats` (issue 15 "Seats": Enterprise includes 5 seats, more as a quantity on the
 * Stripe subscription). The owner whose Enterprise subscription pays for an organisation buys or
 * gives back extra seats; the quantity is changed on the subscription's extra-seat item.
 *
 * POST `{ organizationId: uuid, extraSeats: 0..995, requestId?: uuid }` with the signed-in owner's
 * access token; `requestId` names one user action (a retry of the same action sends the same one).
 * → 200 `{ seats, extraSeats, changed }`: seats = 5 + extraSeats, as stored after the sync;
 *   `changed` is false when Stripe already had that quantity (a repeated click changes nothing).
 * Rules (the database decides, `public.prepare_seat_change`): only an owner of the organisation
 * who is also the subscriber; a paid Enterprise subscription; never fewer seats than members +
 * open invitations. The seat price is the one of the subscription's billing period
 * (`public.seat_prices`). The subscription is then re-read from Stripe and stored
 * (`syncSubscription`, the same path as the webhook), which sets organizations.seats.
 * The Stripe update carries an idempotency key of one request (subscription + `requestId`, a fresh
 * one when the client sends none): a key names a request, not a transition, so giving seats back
 * and buying them again works any number of times (issue 31 §8). The quantity is absolute, so a
 * repeated request never buys twice; `changed` is true only when Stripe answers with the asked
 * quantity (else 500 `seats_failed`).
 * Errors (`{ error: { code, message } }`): 401 `unauthorized` | `not_authenticated`; 403
 * `forbidden` (service role), `not_organization_owner`, `not_billing_owner`, `account_suspended`;
 * 404 `organization_not_found`; 400 `validation_failed`, `invalid_seats`; 402 `enterprise_required`;
 * 409 `seats_in_use`; 503 `stripe_unavailable` | `sync_failed`; 500 `stripe_not_configured`,
 * `seats_failed`.
 */
import { z } from 'zod';
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import type { Caller } from '../_shared/supabase.ts';
import type { Stripe } from '../_shared/stripe.ts';
import { rpcError } from '../_shared/rpc-error.ts';
import { billingError, seatItem, syncSubscription } from '../_shared/billing-sync.ts';

export const SEATS_FAILED = 'The seats could not be changed. Please try again.';

const Body = z.object({
  organizationId: z.uuid(),
  extraSeats: z.number().int().min(0).max(995),
  requestId: z.uuid().optional(),
});

/** What public.prepare_seat_change answers. */
interface SeatPlan {
  stripe_subscription_id: string;
  seat_price_id: string;
  extra_seats: number;
}

/** Dependencies of organization-seats. */
export interface SeatDeps {
  resolveCaller: (req: Request) => Promise<Caller>;
  /** A client acting as the caller (the RPCs check the caller's rights). */
  callerClient: (accessToken: string) => SupabaseClient;
  /** Service-role client for the subscription sync. */
  admin: SupabaseClient;
  stripe: Stripe;
}

/** Builds the request handler of `organization-seats` over its dependencies. */
export function createOrganizationSeatsHandler(deps: SeatDeps): (req: Request) => Promise<Response> {
  return withErrors('organization-seats', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const caller = await deps.resolveCaller(req);
    if (caller.kind !== 'user') throw new HttpError(403, 'forbidden', 'Only an owner of the organisation can change its seats');
    const body = await readBody(req, Body);
    const db = deps.callerClient(caller.accessToken);

    const prepared = await db.rpc('prepare_seat_change', { p_organization_id: body.organizationId, p_extra_seats: body.extraSeats });
    if (prepared.error) throw rpcError(prepared.error);
    const plan = prepared.data as SeatPlan;

    let changed = false;
    try {
      const sub = await deps.stripe.subscriptions.retrieve(plan.stripe_subscription_id);
      const item = seatItem(sub);
      const current = item?.quantity ?? 0;
      if (current !== body.extraSeats) {
        const items: Stripe.SubscriptionUpdateParams.Item[] = item
          ? [body.extraSeats === 0 ? { id: item.id, deleted: true } : { id: item.id, quantity: body.extraSeats }]
          : [{ price: plan.seat_price_id, quantity: body.extraSeats }];
        const updated = await deps.stripe.subscriptions.update(
          sub.id,
          { items, proration_behavior: 'create_prorations' },
          { idempotencyKey: `organization-seats-${sub.id}-${body.requestId ?? crypto.randomUUID()}` },
        );
        const now = seatItem(updated)?.quantity ?? 0;
        if (now !== body.extraSeats) throw new Error(`Stripe answered ${now} extra seats instead of ${body.extraSeats}`);
        changed = true;
      }
      await syncSubscription(deps.stripe, deps.admin, sub.id, { userId: caller.userId });
    } catch (err) {
      throw billingError(err, 'seats_failed', SEATS_FAILED);
    }

    const billing = await db.rpc('organization_billing', { p_organization_id: body.organizationId });
    if (billing.error) throw rpcError(billing.error);
    const state = billing.data as { seats: number; extra_seats: number };
    return json({ seats: state.seats, extraSeats: state.extra_seats, changed });
  });
}

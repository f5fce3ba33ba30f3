/**
 * `create-portal-session` (issue 7 "Customer portal": card, plan change and cancellation from
 * /user/settings; spec §8 'No payment customer ID found. Please contact support.').
 *
 * POST `{ returnUrl?: string, locale?: 'de'|'en' }` with the signed-in user's access token.
 * → 200 `{ url }`: a Stripe billing portal session for the caller's Stripe customer, shown in
 *   the locale; "back" returns to `returnUrl` (must be on SITE_URL, default
 *   `${SITE_URL}[/de]/user/settings`).
 * Errors (`{ error: { code, message } }`): 401 `unauthorized`; 400 `validation_failed`,
 * `invalid_return_url` (another origin: no open redirect); 404 `no_customer`
 * 'No payment customer ID found. Please contact support.' (no customer stored, or Stripe does not
 * know it); 503 `stripe_unavailable`; 500 `stripe_not_configured` (spec §8 text),
 * 500 `portal_failed`.
 */
import { z } from 'zod';
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import type { Caller } from '../_shared/supabase.ts';
import type { Stripe } from '../_shared/stripe.ts';
import { billingError, isStripeMissing } from '../_shared/billing-sync.ts';

export const NO_CUSTOMER = 'No payment customer ID found. Please contact support.';

const Body = z.object({
  returnUrl: z.string().max(2000).optional(),
  locale: z.enum(['de', 'en']).optional().default('en'),
});

/** Dependencies of create-portal-session. */
export interface PortalDeps {
  resolveCaller: (req: Request) => Promise<Caller>;
  admin: SupabaseClient;
  stripe: Stripe;
  /** SPA origin without trailing slash. */
  siteUrl: string;
  /**
   * The portal configuration (`bpc_…`) that allows exactly the product's plan changes (set by the
   * deploy script as STRIPE_PORTAL_CONFIGURATION, scripts/deploy/stripe-setup.ts); null: the
   * account's default configuration.
   */
  portalConfiguration?: string | null;
}

/** Builds the request handler of `create-portal-session` over its dependencies. */
export function createPortalSessionHandler(deps: PortalDeps): (req: Request) => Promise<Response> {
  return withErrors('create-portal-session', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const caller = await deps.resolveCaller(req);
    if (caller.kind !== 'user') throw new HttpError(403, 'forbidden', 'Only signed-in users have a billing portal');
    const body = await readBody(req, Body);
    const fallback = `${body.locale === 'de' ? `${deps.siteUrl}/de` : deps.siteUrl}/user/settings`;
    let returnUrl = fallback;
    if (body.returnUrl) {
      let target: URL;
      try {
        target = new URL(body.returnUrl, `${deps.siteUrl}/`);
      } catch {
        throw new HttpError(400, 'invalid_return_url', 'returnUrl is not a URL');
      }
      if (target.origin !== new URL(deps.siteUrl).origin) throw new HttpError(400, 'invalid_return_url', 'returnUrl must be on the site');
      returnUrl = target.toString();
    }

    const profile = await deps.admin.from('profiles').select('stripe_customer_id').eq('id', caller.userId).maybeSingle();
    if (profile.error) throw new Error(`profile lookup: ${profile.error.message}`);
    const customerId = (profile.data as { stripe_customer_id: string | null } | null)?.stripe_customer_id;
    if (!customerId) throw new HttpError(404, 'no_customer', NO_CUSTOMER);
    try {
      const session = await deps.stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
        locale: body.locale,
        ...(deps.portalConfiguration ? { configuration: deps.portalConfiguration } : {}),
      });
      return json({ url: session.url });
    } catch (err) {
      if (isStripeMissing(err)) throw new HttpError(404, 'no_customer', NO_CUSTOMER);
      throw billingError(err, 'portal_failed', 'Failed to open the billing portal');
    }
  });
}

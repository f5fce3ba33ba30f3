/**
 * Stripe objects a production deploy keeps in step with the product (issue 29 "One deploy
 * command"): the webhook endpoint of the `stripe-webhook` function, subscribed to exactly the event
 * types the handler reacts to (supabase/functions/stripe-webhook/events.ts), and the customer-portal
 * configuration that allows exactly the plan changes the product supports (Basic ⇄ Premium in every
 * billing period; Enterprise and extra seats are sold only where the product sells them).
 * Products and prices are synced by scripts/stripe/sync-prices.ts.
 */
import type pg from 'pg';
import type Stripe from 'stripe';
import { WEBHOOK_EVENTS } from '../../supabase/functions/stripe-webhook/events.ts';
import { STRIPE_API_VERSION, productId } from '../stripe/sync-prices.ts';

/** Plans a member may switch between in the customer portal. */
export const PORTAL_PLANS = ['basic', 'premium'] as const;

/** Metadata that marks the portal configuration this script manages. */
const PORTAL_MARK = { teamwerk_portal: 'plans' };

/**
 * Makes the webhook endpoint at `url` exist with the product's event types.
 * Output: its id and, when Stripe created it now, its signing secret (Stripe shows it only then).
 * Errors: Stripe errors are thrown unchanged.
 */
export async function ensureWebhookEndpoint(stripe: Stripe, url: string): Promise<{ id: string; created: boolean; secret: string | null }> {
  for await (const endpoint of stripe.webhookEndpoints.list({ limit: 100 })) {
    if (endpoint.url !== url) continue;
    const same = [...endpoint.enabled_events].sort().join() === WEBHOOK_EVENTS.join();
    if (!same || endpoint.status !== 'enabled') {
      await stripe.webhookEndpoints.update(endpoint.id, { enabled_events: [...WEBHOOK_EVENTS] as Stripe.WebhookEndpointUpdateParams.EnabledEvent[], disabled: false });
    }
    return { id: endpoint.id, created: false, secret: null };
  }
  const created = await stripe.webhookEndpoints.create({
    url,
    enabled_events: [...WEBHOOK_EVENTS] as Stripe.WebhookEndpointCreateParams.EnabledEvent[],
    api_version: STRIPE_API_VERSION as Stripe.WebhookEndpointCreateParams.ApiVersion,
    description: 'Teamwerk stripe-webhook Edge Function',
  });
  return { id: created.id, created: true, secret: created.secret ?? null };
}

/**
 * The customer-portal configuration (Stripe billing_portal.configurations) for the price ids of
 * the switchable plans (`pricesByPlan`: plan id → Stripe price ids of its billing periods) and the
 * site's legal pages. Pure.
 */
export function portalConfigurationParams(pricesByPlan: Record<string, string[]>, siteUrl: string): Stripe.BillingPortal.ConfigurationCreateParams {
  return {
    business_profile: { privacy_policy_url: `${siteUrl}/privacy`, terms_of_service_url: `${siteUrl}/terms` },
    default_return_url: `${siteUrl}/user/settings`,
    features: {
      customer_update: { enabled: true, allowed_updates: ['email', 'address', 'tax_id'] },
      invoice_history: { enabled: true },
      payment_method_update: { enabled: true },
      subscription_cancel: { enabled: true, mode: 'at_period_end', proration_behavior: 'none' },
      subscription_update: {
        enabled: true,
        default_allowed_updates: ['price'],
        proration_behavior: 'create_prorations',
        products: PORTAL_PLANS.map((plan) => ({ product: productId(plan), prices: pricesByPlan[plan] ?? [] })),
      },
    },
    metadata: PORTAL_MARK,
  };
}

/**
 * Creates or updates the portal configuration this script manages (found by its metadata).
 * Output: its id (the `STRIPE_PORTAL_CONFIGURATION` secret of create-portal-session).
 * Errors: throws when a switchable plan has no price; Stripe errors unchanged.
 */
export async function ensurePortalConfiguration(stripe: Stripe, params: Stripe.BillingPortal.ConfigurationCreateParams): Promise<string> {
  const products = params.features.subscription_update?.products;
  const missing = Array.isArray(products) ? products.filter((p) => p.prices.length === 0) : [];
  if (missing.length) throw new Error(`no Stripe prices for ${missing.map((p) => p.product).join(', ')}: run the price sync first`);
  for await (const configuration of stripe.billingPortal.configurations.list({ limit: 100, active: true })) {
    if (configuration.metadata?.teamwerk_portal === PORTAL_MARK.teamwerk_portal) {
      await stripe.billingPortal.configurations.update(configuration.id, params);
      return configuration.id;
    }
  }
  return (await stripe.billingPortal.configurations.create(params)).id;
}

/**
 * The portal configuration of the product for the database `db` (public.prices of the
 * PORTAL_PLANS with their Stripe ids, after the price sync): creates or updates it in the Stripe
 * account of `stripe`. Used by the deploy and by the local stack's start, so both get the same
 * configuration. Output: its id (STRIPE_PORTAL_CONFIGURATION). Errors: as ensurePortalConfiguration;
 * database errors unchanged.
 */
export async function ensureProductPortalConfiguration(stripe: Stripe, db: pg.ClientBase | pg.Pool, siteUrl: string): Promise<string> {
  const rows = (await db.query<{ plan_id: string; stripe_price_id: string }>(
    `select plan_id, stripe_price_id from public.prices where active and stripe_price_id is not null and plan_id = any($1) order by plan_id, months`,
    [[...PORTAL_PLANS]],
  )).rows;
  const byPlan: Record<string, string[]> = {};
  for (const r of rows) (byPlan[r.plan_id] ??= []).push(r.stripe_price_id);
  return ensurePortalConfiguration(stripe, portalConfigurationParams(byPlan, siteUrl));
}

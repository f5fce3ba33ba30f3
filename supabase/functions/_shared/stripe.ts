/**
 * The Stripe client for Edge Functions (spec §9: API version 2023-10-16, 2 network retries).
 * Locally STRIPE_API_HOST/PORT/PROTOCOL point the SDK at the stack's Stripe sandbox; in
 * production they are unset and the SDK talks to Stripe. Deno needs the fetch HTTP client and
 * SubtleCrypto for webhook signatures.
 */
import Stripe from 'stripe';
import { env } from './env.ts';
import { requireSecret } from './secrets.ts';

export const STRIPE_API_VERSION = '2023-10-16';
/** Spec §8: the message when Stripe refuses the configured secret key. */
export const STRIPE_NOT_CONFIGURED = 'Stripe is not properly configured with a valid API key.';

export const cryptoProvider = Stripe.createSubtleCryptoProvider();

/**
 * Creates the Stripe client with STRIPE_SECRET_KEY. Issue 12 §3 supersedes spec §8's dummy key:
 * there is no fallback; the functions build the client inside `withSecrets(['STRIPE_SECRET_KEY'], …)`.
 * Errors: throws MisconfiguredError (500 `server_misconfigured`) when the key is missing or short.
 */
export function createStripe(): Stripe {
  const key = requireSecret('STRIPE_SECRET_KEY');
  const host = env('STRIPE_API_HOST');
  const port = env('STRIPE_API_PORT');
  const protocol = env('STRIPE_API_PROTOCOL');
  return new Stripe(key, {
    apiVersion: STRIPE_API_VERSION as Stripe.LatestApiVersion,
    maxNetworkRetries: 2,
    httpClient: Stripe.createFetchHttpClient(),
    ...(host ? { host } : {}),
    ...(port ? { port: Number(port) } : {}),
    ...(protocol === 'http' || protocol === 'https' ? { protocol } : {}),
  });
}

export type { Stripe };

/**
 * The Stripe client for Edge Functions (spec §9: API version 2023-10-16, 2 network retries).
 * Locally STRIPE_API_HOST/PORT/PROTOCOL point the SDK at the stack's Stripe sandbox; in
 * production they are unset and the SDK talks to Stripe. Deno needs the fetch HTTP client and
 * SubtleCrypto for webhook signatures.
 */
import Stripe from 'npm:stripe@^23';
import { env } from './env.ts';

export const STRIPE_API_VERSION = '2023-10-16';
/** Used when STRIPE_SECRET_KEY is missing (spec §8): every call then fails with a clear message. */
export const DUMMY_STRIPE_KEY = 'sk_test_dummy_key_not_configured';
export const STRIPE_NOT_CONFIGURED = 'Stripe is not properly configured with a valid API key.';

export const cryptoProvider = Stripe.createSubtleCryptoProvider();

/** Whether a real (non-dummy) secret key is configured. */
export function stripeConfigured(): boolean {
  const key = env('STRIPE_SECRET_KEY');
  return key !== '' && key !== DUMMY_STRIPE_KEY;
}

/**
 * Creates the Stripe client. A missing secret key logs a critical message and uses a dummy key
 * (spec §8); callers check `stripeConfigured()` before creating customers.
 */
export function createStripe(): Stripe {
  let key = env('STRIPE_SECRET_KEY');
  if (!key) {
    console.error(JSON.stringify({ level: 'critical', message: 'STRIPE_SECRET_KEY is not set; using a dummy key' }));
    key = DUMMY_STRIPE_KEY;
  }
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

/**
 * Creates the Stripe products and prices that match `public.prices` and stores their ids in
 * `prices.stripe_price_id` (issue 7 "Plans and prices"; spec §9: Basic 19 €, Premium 49 €,
 * Enterprise 99 € per month, billed monthly, quarterly, every 6 months or yearly), and likewise
 * the extra organisation seats of `public.seat_prices` (issue 15; see SEAT_ITEM).
 *
 * Idempotent: every plan has the product id `teamwerk_<plan>` and every price row the lookup key
 * `teamwerk_<plan>_<billing_period>`. A rerun finds them and changes nothing. When a row's amount,
 * currency or period no longer matches its Stripe price, a new price is created (Stripe prices
 * are immutable), the lookup key moves to it and the old price is archived; subscriptions on the
 * old price keep running. When the stored id points at a price Stripe does not know (e.g. the
 * sandbox state was reset), the price is found again by lookup key or recreated.
 *
 * Targets:
 * - Local stack (default): the Stripe sandbox of TEAMWERK_STACK_OFFSET and its Postgres.
 * - A real Stripe test account: `STRIPE_SECRET_KEY=sk_test_… SUPABASE_DB_URL=postgres://…
 *   npx tsx scripts/stripe/sync-prices.ts`. STRIPE_API_HOST/PORT/PROTOCOL redirect the SDK
 *   (as for the Edge Functions). Live keys (`sk_live_`) are refused unless `--live` is passed.
 *
 * The local stack calls `syncPrices(config)` after its Stripe sandbox has started, so a fresh
 * stack has price ids without a manual step.
 *
 * Usage: `TEAMWERK_STACK_OFFSET=<n> npx tsx scripts/stripe/sync-prices.ts [--dry-run] [--json]`.
 */
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import Stripe from 'stripe';
import { stackConfig, type StackConfig } from '../local-stack/config.ts';

/** The Stripe API version the product pins (spec §9). */
export const STRIPE_API_VERSION = '2023-10-16';

/** Billing period of a `public.prices` row → Stripe recurring interval (spec §9). */
export const RECURRING: Record<string, { interval: 'month' | 'year'; interval_count: number }> = {
  monthly: { interval: 'month', interval_count: 1 },
  quarterly: { interval: 'month', interval_count: 3 },
  semiannual: { interval: 'month', interval_count: 6 },
  yearly: { interval: 'year', interval_count: 1 },
};

const PERIOD_NAMES: Record<string, string> = {
  monthly: 'monthly',
  quarterly: 'quarterly',
  semiannual: 'every 6 months',
  yearly: 'yearly',
};

/**
 * The pseudo plan id of extra organisation seats (issue 15): product `teamwerk_extra_seat`, lookup
 * keys `teamwerk_extra_seat_<period>`, price metadata `teamwerk_item: extra_seat` (what the billing
 * sync counts as seats, supabase/functions/_shared/billing-sync.ts `extraSeats`).
 */
export const SEAT_ITEM = 'extra_seat';

/** Stripe product id of a plan (custom ids are allowed for products). */
export function productId(planId: string): string {
  return `teamwerk_${planId}`;
}

/** Stripe lookup key of a price row: one per plan and billing period. */
export function lookupKey(planId: string, billingPeriod: string): string {
  return `teamwerk_${planId}_${billingPeriod}`;
}

/** What happened to one price row. */
export type PriceAction = 'unchanged' | 'linked' | 'created' | 'replaced';

export interface SyncedPrice {
  planId: string;
  billingPeriod: string;
  amountCents: number;
  currency: string;
  stripePriceId: string;
  action: PriceAction;
}

export interface SyncPricesResult {
  products: { id: string; action: 'unchanged' | 'created' | 'updated' }[];
  prices: SyncedPrice[];
  /** True when nothing changed in Stripe or in the database. */
  unchanged: boolean;
}

export interface SyncPricesOptions {
  /** Stripe client; default: the sandbox of `config` (sandboxStripe). */
  stripe?: Stripe;
  /** Postgres URL; default `config.dbUrl`. */
  dbUrl?: string;
  /** Report what would change without writing to Stripe or the database. */
  dryRun?: boolean;
  log?: (line: string) => void;
}

interface PriceRow {
  id: number;
  plan_id: string;
  plan_name: string;
  billing_period: string;
  amount_cents: number;
  currency: string;
  stripe_price_id: string | null;
  /** `plan`: a row of public.prices; `seat`: a row of public.seat_prices (issue 15). */
  kind: 'plan' | 'seat';
}

/** A Stripe client for the local stack's sandbox (its key, host, port and protocol from `config`). */
export function sandboxStripe(config: StackConfig): Stripe {
  return new Stripe(config.stripeSecretKey, {
    apiVersion: STRIPE_API_VERSION as Stripe.LatestApiVersion,
    host: config.host,
    port: config.ports.stripe,
    protocol: 'http',
    maxNetworkRetries: 2,
  });
}

/**
 * A Stripe client from the environment like the Edge Functions build it: STRIPE_SECRET_KEY
 * (required), optional STRIPE_API_HOST/PORT/PROTOCOL. Errors: throws without a key, or with a
 * live key unless `allowLive`.
 */
export function envStripe(env: NodeJS.ProcessEnv = process.env, allowLive = false): Stripe {
  const key = env.STRIPE_SECRET_KEY;
  if (!key) throw new Error('STRIPE_SECRET_KEY is not set');
  if (key.startsWith('sk_live_') && !allowLive) throw new Error('refusing a live key without --live');
  const protocol = env.STRIPE_API_PROTOCOL;
  return new Stripe(key, {
    apiVersion: STRIPE_API_VERSION as Stripe.LatestApiVersion,
    maxNetworkRetries: 2,
    ...(env.STRIPE_API_HOST ? { host: env.STRIPE_API_HOST } : {}),
    ...(env.STRIPE_API_PORT ? { port: Number(env.STRIPE_API_PORT) } : {}),
    ...(protocol === 'http' || protocol === 'https' ? { protocol } : {}),
  });
}

function isMissing(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeError && (err.statusCode === 404 || err.code === 'resource_missing');
}

function matches(price: Stripe.Price, row: PriceRow): boolean {
  const want = RECURRING[row.billing_period]!;
  const product = typeof price.product === 'string' ? price.product : price.product.id;
  return (
    price.active &&
    product === productId(row.plan_id) &&
    price.unit_amount === row.amount_cents &&
    price.currency === row.currency &&
    price.recurring?.interval === want.interval &&
    price.recurring?.interval_count === want.interval_count
  );
}

/**
 * Makes Stripe's products/prices match `public.prices` and stores the price ids.
 * Input: the stack config (DB URL and sandbox address; null when options give both a Stripe client
 * and a database URL, as the deploy script does) and options (another Stripe client for a real
 * account, dry run). Output: per product and price what was done; `unchanged` is true
 * on a rerun. Runs under a Postgres advisory lock so concurrent runs do not create duplicates.
 * Errors: Stripe errors (e.g. StripeAuthenticationError for a wrong key) and database errors
 * are thrown unchanged; rows already processed keep their stored ids.
 */
export async function syncPrices(config: StackConfig | null, options: SyncPricesOptions = {}): Promise<SyncPricesResult> {
  if (!config && (!options.stripe || !options.dbUrl)) throw new Error('syncPrices without a stack config needs options.stripe and options.dbUrl');
  const stripe = options.stripe ?? sandboxStripe(config!);
  const log = options.log ?? (() => undefined);
  const db = new pg.Client({ connectionString: options.dbUrl ?? config!.dbUrl });
  await db.connect();
  try {
    await db.query(`select pg_advisory_lock(hashtext('teamwerk.sync_prices'))`);
    const rows = (
      await db.query<PriceRow>(
        `select p.id::int as id, p.plan_id, pl.name as plan_name, p.billing_period::text as billing_period,
                p.amount_cents, p.currency, p.stripe_price_id, 'plan' as kind, pl.rank, p.months
         from public.prices p join public.plans pl on pl.id = p.plan_id
         where p.active and pl.active
         union all
         select 0, '${SEAT_ITEM}', 'Extra seat', sp.billing_period::text, sp.amount_cents, sp.currency, sp.stripe_price_id,
                'seat', 1000, case sp.billing_period when 'monthly' then 1 when 'quarterly' then 3 when 'semiannual' then 6 else 12 end
         from public.seat_prices sp
         where sp.active
         order by rank, months`,
      )
    ).rows;

    const products: SyncPricesResult['products'] = [];
    const plans = new Map(rows.map((r) => [r.plan_id, r.plan_name]));
    for (const [planId, planName] of plans) {
      const id = productId(planId);
      const name = `Teamwerk ${planName}`;
      let product: Stripe.Product | null = null;
      try {
        product = await stripe.products.retrieve(id);
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
      if (!product || (product as unknown as { deleted?: boolean }).deleted) {
        if (!options.dryRun) await stripe.products.create({ id, name, metadata: planId === SEAT_ITEM ? { teamwerk_item: SEAT_ITEM } : { plan_id: planId } });
        products.push({ id, action: 'created' });
        log(`product ${id}: created`);
      } else if (!product.active || product.name !== name) {
        if (!options.dryRun) await stripe.products.update(id, { name, active: true });
        products.push({ id, action: 'updated' });
        log(`product ${id}: updated`);
      } else {
        products.push({ id, action: 'unchanged' });
      }
    }

    const byKey = new Map<string, Stripe.Price>();
    const keys = rows.map((r) => lookupKey(r.plan_id, r.billing_period));
    for (let i = 0; i < keys.length; i += 10) {
      const page = await stripe.prices.list({ lookup_keys: keys.slice(i, i + 10), limit: 100 });
      for (const p of page.data) if (p.lookup_key) byKey.set(p.lookup_key, p);
    }

    const prices: SyncedPrice[] = [];
    for (const row of rows) {
      const key = lookupKey(row.plan_id, row.billing_period);
      const existing = byKey.get(key) ?? null;
      let id: string;
      let action: PriceAction;
      if (existing && matches(existing, row)) {
        id = existing.id;
        action = row.stripe_price_id === id ? 'unchanged' : 'linked';
      } else {
        action = existing ? 'replaced' : 'created';
        if (options.dryRun) {
          id = row.stripe_price_id ?? '(new)';
        } else {
          const created = await stripe.prices.create({
            product: productId(row.plan_id),
            currency: row.currency,
            unit_amount: row.amount_cents,
            recurring: RECURRING[row.billing_period]!,
            lookup_key: key,
            transfer_lookup_key: true,
            tax_behavior: 'inclusive',
            nickname: `${row.plan_name} ${PERIOD_NAMES[row.billing_period] ?? row.billing_period}`,
            metadata: row.kind === 'seat'
              ? { teamwerk_item: SEAT_ITEM, billing_period: row.billing_period }
              : { plan_id: row.plan_id, billing_period: row.billing_period },
          });
          id = created.id;
          if (existing) await stripe.prices.update(existing.id, { active: false });
        }
      }
      if (action !== 'unchanged' && !options.dryRun) {
        if (row.kind === 'seat') await db.query('update public.seat_prices set stripe_price_id = $2 where billing_period = $1', [row.billing_period, id]);
        else await db.query('update public.prices set stripe_price_id = $2 where id = $1', [row.id, id]);
      }
      if (action !== 'unchanged') log(`price ${key}: ${action} ${id}`);
      prices.push({ planId: row.plan_id, billingPeriod: row.billing_period, amountCents: row.amount_cents, currency: row.currency, stripePriceId: id, action });
    }
    return {
      products,
      prices,
      unchanged: products.every((p) => p.action === 'unchanged') && prices.every((p) => p.action === 'unchanged'),
    };
  } finally {
    await db.query(`select pg_advisory_unlock(hashtext('teamwerk.sync_prices'))`).catch(() => undefined);
    await db.end();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const config = stackConfig();
  const stripe = process.env.STRIPE_SECRET_KEY ? envStripe(process.env, args.includes('--live')) : sandboxStripe(config);
  const result = await syncPrices(config, {
    stripe,
    dbUrl: process.env.SUPABASE_DB_URL || config.dbUrl,
    dryRun: args.includes('--dry-run'),
    log: args.includes('--json') ? undefined : (line) => console.log(line),
  });
  if (args.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else console.log(result.unchanged ? 'prices: already in sync' : `prices: ${result.prices.filter((p) => p.action !== 'unchanged').length} updated`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

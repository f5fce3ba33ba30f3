/**
 * The sandbox's Stripe logic: customers, products, prices, payment methods, checkout sessions
 * (subscription and payment mode), subscriptions, invoices, payment intents, charges and refunds,
 * test clocks, billing portal sessions, webhook endpoints and events, plus the billing clock that
 * renews, retries and ends subscriptions and expires checkout sessions.
 *
 * Every method takes already validated parameters (see api.ts) and returns the stored object;
 * errors are StripeError with Stripe's type, code and wording.
 */
import { invalidRequest, noSuch, StripeError, unsupportedParam } from './errors.ts';
import type { Obj, Store } from './store.ts';
import { WebhookDispatcher } from './webhooks.ts';
import { addInterval, DAY, type Interval } from './time.ts';
import { cardBehavior, cardBrand, FAILURES, TEST_PAYMENT_METHODS, type CardInput } from './cards.ts';

/** Who caused an event: the API request (id + idempotency key) or nothing (automatic). */
export interface RequestInfo {
  id: string | null;
  idempotency_key: string | null;
}

export const AUTOMATIC: RequestInfo = { id: null, idempotency_key: null };

/** Dunning rule: retries after 3, 5 and 7 days from the first failure; then the subscription is canceled. */
export const RETRY_DAYS = [3, 5, 7] as const;
/** An `incomplete` subscription expires after 23 hours (Stripe's rule). */
const INCOMPLETE_TTL = 23 * 3600;
/** Checkout sessions expire 24 hours after creation unless `expires_at` says otherwise. */
const SESSION_TTL = 24 * 3600;
/** `expires_at` must lie at least 30 minutes after creation (Stripe's rule). */
const SESSION_MIN_TTL = 30 * 60;
/**
 * Stripe's minimum charge per currency in minor units (a payment-mode session below it is
 * refused); other currencies use 50.
 */
const MIN_CHARGE: Record<string, number> = { usd: 50, eur: 50, chf: 50, gbp: 30, dkk: 250, nok: 300, sek: 300, pln: 200, czk: 1500 };

/** A checkout line item's `price_data`, checked but not stored yet (amounts in cents). */
interface InlinePriceData {
  currency: string;
  unitAmount: number;
  recurring: Obj | null;
  taxBehavior: string;
  /** An existing product id (`price_data[product]`), or null with `productData`. */
  product: string | null;
  productData: Obj | null;
}

export const CHECKOUT_LOCALES = [
  'auto', 'bg', 'cs', 'da', 'de', 'el', 'en', 'en-GB', 'es', 'es-419', 'et', 'fi', 'fil', 'fr', 'fr-CA', 'hr', 'hu',
  'id', 'it', 'ja', 'ko', 'lt', 'lv', 'ms', 'mt', 'nb', 'nl', 'pl', 'pt', 'pt-BR', 'ro', 'ru', 'sk', 'sl', 'sv', 'th',
  'tr', 'vi', 'zh', 'zh-HK', 'zh-TW',
] as const;

export interface EngineOptions {
  apiVersion: string;
  /** Base URL of the sandbox's own pages, e.g. http://127.0.0.1:12111 */
  baseUrl: string;
  log: (message: string, extra?: unknown) => void;
}

type Params = Record<string, unknown>;

function isValidUrl(s: unknown): boolean {
  if (typeof s !== 'string') return false;
  try {
    const u = new URL(s.replace('{CHECKOUT_SESSION_ID}', 'x'));
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Applies a metadata update: null clears all, a null value deletes one key. */
function mergeMetadata(current: Obj | undefined, update: unknown): Record<string, string> {
  if (update === undefined) return { ...(current ?? {}) };
  if (update === null) return {};
  const out: Record<string, string> = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(update as Record<string, string | null>)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

function cleanMetadata(update: unknown): Record<string, string> {
  return mergeMetadata({}, update);
}

export class Engine {
  constructor(
    public store: Store,
    public dispatcher: WebhookDispatcher,
    public opts: EngineOptions,
  ) {}

  // ---------------------------------------------------------------- time

  /** "Now" for a customer: its test clock's frozen_time, else the sandbox clock (unix seconds). */
  nowFor(customerId?: string | null): number {
    const c = this.store.get(customerId);
    const clock = c?.test_clock ? this.store.get(c.test_clock as string) : undefined;
    return clock && !clock.deleted ? (clock.frozen_time as number) : this.store.now();
  }

  // ---------------------------------------------------------------- events

  /**
   * Records an event (snapshot of `obj`) and queues its webhook deliveries to every enabled
   * endpoint subscribed to `type`.
   */
  emit(type: string, obj: Obj, opts: { prev?: Obj; req?: RequestInfo; at?: number } = {}): Obj {
    const data: Obj = { object: this.store.render(obj) };
    if (opts.prev && Object.keys(opts.prev).length > 0) data.previous_attributes = opts.prev;
    const req = opts.req ?? AUTOMATIC;
    const ev: Obj = {
      id: this.store.newId('evt'),
      object: 'event',
      api_version: this.opts.apiVersion,
      created: opts.at ?? this.store.now(),
      data,
      livemode: false,
      pending_webhooks: 0,
      request: { id: req.id, idempotency_key: req.idempotency_key },
      type,
    };
    this.store.addEvent(ev);
    const endpoints = this.store.all('webhook_endpoint').filter((ep) => WebhookDispatcher.matches(ep, type));
    this.dispatcher.enqueue(ev, endpoints);
    return ev;
  }

  /** Top-level fields of `before` that differ from `after` (Stripe's previous_attributes). */
  diff(before: Obj, after: Obj): Obj {
    const prev: Obj = {};
    const a = this.store.render(before);
    const b = this.store.render(after);
    for (const k of Object.keys(a)) if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) prev[k] = a[k];
    return prev;
  }

  /** A deep copy of an object (to compute previous_attributes after a change). */
  snapshot(o: Obj): Obj {
    return structuredClone(o);
  }

  // ---------------------------------------------------------------- lookup helpers

  /** The live object of a type, or 404 resource_missing "No such <kind>: '<id>'" naming `param`. */
  require(kind: string, type: string, id: unknown, param = 'id'): Obj {
    const o = typeof id === 'string' ? this.store.get(id) : undefined;
    if (!o || o.object !== type || o.deleted) throw noSuch(kind, String(id), param);
    return o;
  }

  // ---------------------------------------------------------------- customers

  /** POST /v1/customers. Emits customer.created. Errors: unknown test clock or payment method (404), declining card (402). */
  createCustomer(p: Params, req: RequestInfo): Obj {
    let clockId: string | null = null;
    if (p.test_clock) clockId = this.require('test clock', 'test_helpers.test_clock', p.test_clock, 'test_clock').id as string;
    const now = clockId ? (this.store.get(clockId)!.frozen_time as number) : this.store.now();
    // Validate everything before storing anything.
    const attachPm = p.payment_method ? this.preparePaymentMethod(p.payment_method as string, null, 'payment_method') : null;
    const dpm = (p.invoice_settings as Obj | undefined)?.default_payment_method as string | undefined;
    const attachDefault = dpm && dpm !== p.payment_method ? this.preparePaymentMethod(dpm, null, 'invoice_settings[default_payment_method]') : null;
    const id = this.store.newId('cus');
    const c: Obj = {
      id,
      object: 'customer',
      address: (p.address as Obj) ?? null,
      balance: 0,
      created: now,
      currency: null,
      default_source: null,
      delinquent: false,
      description: p.description ?? null,
      discount: null,
      email: p.email ?? null,
      invoice_prefix: id.slice(4, 12).toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false,
      metadata: cleanMetadata(p.metadata),
      name: p.name ?? null,
      next_invoice_sequence: 1,
      phone: p.phone ?? null,
      preferred_locales: (p.preferred_locales as string[]) ?? [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: clockId,
    };
    this.store.put(c);
    const attached = attachPm ? attachPm(c) : null;
    if (dpm) c.invoice_settings.default_payment_method = (attachDefault ? attachDefault(c) : attached!).id;
    this.emit('customer.created', c, { req, at: now });
    return c;
  }

  /** POST /v1/customers/:id (metadata merges; '' unsets). Emits customer.updated when something changed. */
  updateCustomer(id: string, p: Params, req: RequestInfo): Obj {
    const c = this.require('customer', 'customer', id);
    const newDefault = (p.invoice_settings as Obj | undefined)?.default_payment_method;
    if (newDefault) {
      const pm = this.require('PaymentMethod', 'payment_method', newDefault, 'invoice_settings[default_payment_method]');
      if (pm.customer !== c.id) {
        throw invalidRequest(
          `The customer does not have a payment method with the ID ${pm.id}. The payment method must be attached to the customer.`,
          'invoice_settings[default_payment_method]',
          'resource_missing',
        );
      }
    }
    const before = this.snapshot(c);
    for (const k of ['email', 'name', 'description', 'phone', 'address'] as const) if (k in p) c[k] = p[k] ?? null;
    if ('preferred_locales' in p) c.preferred_locales = p.preferred_locales ?? [];
    if ('metadata' in p) c.metadata = mergeMetadata(c.metadata as Obj, p.metadata);
    if (p.invoice_settings) {
      const is = p.invoice_settings as Obj;
      if ('default_payment_method' in is) {
        c.invoice_settings.default_payment_method = is.default_payment_method ?? null;
      }
    }
    const prev = this.diff(before, c);
    this.store.save();
    if (Object.keys(prev).length) this.emit('customer.updated', c, { prev, req, at: this.nowFor(c.id as string) });
    return c;
  }

  /** DELETE /v1/customers/:id: cancels its subscriptions now, leaves `{id, object, deleted: true}`. */
  deleteCustomer(id: string, req: RequestInfo): Obj {
    const c = this.require('customer', 'customer', id);
    for (const s of this.store.all('subscription')) {
      if (s.customer === c.id && !['canceled', 'incomplete_expired'].includes(s.status as string)) this.cancelSubscription(s.id as string, {}, req);
    }
    const rendered = this.store.render(c);
    this.store.state.objects[id] = { id, object: 'customer', deleted: true, _seq: c._seq, _former: rendered };
    this.store.save();
    this.emit('customer.deleted', rendered, { req });
    return this.store.state.objects[id]!;
  }

  // ---------------------------------------------------------------- payment methods

  /** Creates a card payment method from hosted-form input (not attached yet). */
  createCardPaymentMethod(card: CardInput, billing: { name: string | null; email: string | null }, now: number): Obj {
    const pm: Obj = {
      id: this.store.newId('pm'),
      object: 'payment_method',
      billing_details: { address: null, email: billing.email, name: billing.name, phone: null },
      card: {
        brand: cardBrand(card.number),
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
        country: 'US',
        exp_month: card.expMonth,
        exp_year: card.expYear,
        fingerprint: card.number.slice(-8),
        funding: 'credit',
        last4: card.number.slice(-4),
        networks: { available: [cardBrand(card.number)], preferred: null },
        three_d_secure_usage: { supported: true },
        wallet: null,
      },
      created: now,
      customer: null,
      livemode: false,
      metadata: {},
      type: 'card',
      _behavior: cardBehavior(card.number),
      _charges: 0,
    };
    return this.store.put(pm);
  }

  /**
   * Checks that a payment method (or one of Stripe's magic `pm_card_*` ids) can be attached to a
   * customer, without changing anything. Output: a function that attaches it. Errors: 404 for an
   * unknown id, 400 when attached elsewhere, 402 card_error for a card that declines on attach.
   */
  preparePaymentMethod(pmId: string, customerId: string | null, param: string): (customer: Obj) => Obj {
    const existing = this.store.get(pmId);
    const magic = !existing ? TEST_PAYMENT_METHODS[pmId] : undefined;
    if (!magic && (!existing || existing.object !== 'payment_method')) throw noSuch('PaymentMethod', pmId, param);
    if (existing?.customer && existing.customer !== customerId) {
      throw invalidRequest('The payment method you provided has already been attached to a customer.', param, 'payment_method_unexpected_state');
    }
    const behavior = existing ? (existing._behavior as string) : cardBehavior(magic!);
    if (behavior !== 'succeed' && behavior !== 'fail_after_attach') {
      const f = FAILURES[behavior as keyof typeof FAILURES];
      throw new StripeError(402, 'card_error', f.message.en, { code: f.code, decline_code: f.decline_code, param });
    }
    return (customer: Obj) => {
      const pm =
        existing ??
        this.createCardPaymentMethod(
          { number: magic!, expMonth: 12, expYear: new Date().getUTCFullYear() + 5, cvc: '123' },
          { name: null, email: null },
          this.nowFor(customer.id as string),
        );
      pm.customer = customer.id;
      this.store.save();
      return pm;
    };
  }

  /**
   * POST /v1/payment_methods/:id/detach: the card leaves its customer and stops being the
   * customer's or any subscription's default. Errors: 400 when not attached.
   */
  detachPaymentMethod(id: string, req: RequestInfo): Obj {
    const pm = this.require('PaymentMethod', 'payment_method', id);
    if (!pm.customer) throw invalidRequest('The payment method you provided is not attached to a customer so detachment is impossible.', undefined, 'payment_method_unexpected_state');
    const customer = this.store.get(pm.customer as string);
    pm.customer = null;
    if (customer && customer.invoice_settings?.default_payment_method === id) this.updateCustomer(customer.id as string, { invoice_settings: { default_payment_method: null } }, req);
    for (const sub of this.store.all('subscription').filter((x) => x.default_payment_method === id)) {
      const before = this.snapshot(sub);
      sub.default_payment_method = null;
      this.emit('customer.subscription.updated', sub, { prev: this.diff(before, sub), req, at: this.nowFor(sub.customer as string) });
    }
    this.store.save();
    return pm;
  }

  /** Attaches a payment method to a customer (see preparePaymentMethod for the checks). */
  attachPaymentMethod(pmId: string, customer: Obj, param: string): Obj {
    return this.preparePaymentMethod(pmId, customer.id as string, param)(customer);
  }

  /**
   * Tries to charge `amount` (cents) to a payment method. `first` marks the first invoice of a
   * subscription created by checkout (the 0341 card passes only then).
   */
  charge(pm: Obj | undefined, amount: number, first: boolean): { ok: true } | { ok: false; code: string; decline_code?: string; message: string } {
    if (amount <= 0) return { ok: true };
    if (!pm) return { ok: false, code: 'invoice_no_customer_payment_method', message: 'The customer has no default payment method.' };
    const b = pm._behavior as string;
    pm._charges = ((pm._charges as number) ?? 0) + 1;
    if (b === 'succeed' || (b === 'fail_after_attach' && first)) return { ok: true };
    const f = FAILURES[b as keyof typeof FAILURES];
    return { ok: false, code: f.code, decline_code: f.decline_code, message: f.message.en };
  }

  // ---------------------------------------------------------------- products and prices

  /** POST /v1/products (optional custom `id`, `default_price_data`). Emits product.created (and price.created). */
  createProduct(p: Params, req: RequestInfo): Obj {
    const id = (p.id as string | undefined) ?? this.store.newId('prod');
    if (this.store.get(id)) throw invalidRequest('Product already exists.', 'id', 'resource_already_exists');
    if (p.default_price_data) this.checkPriceData(p.default_price_data as Obj, 'default_price_data');
    const now = this.store.now();
    const prod: Obj = {
      id,
      object: 'product',
      active: p.active ?? true,
      attributes: [],
      created: now,
      default_price: null,
      description: p.description ?? null,
      features: [],
      images: (p.images as string[]) ?? [],
      livemode: false,
      marketing_features: [],
      metadata: cleanMetadata(p.metadata),
      name: p.name,
      package_dimensions: null,
      shippable: null,
      statement_descriptor: p.statement_descriptor ?? null,
      tax_code: p.tax_code ?? null,
      type: 'service',
      unit_label: p.unit_label ?? null,
      updated: now,
      url: p.url ?? null,
    };
    this.store.put(prod);
    this.emit('product.created', prod, { req });
    if (p.default_price_data) {
      const price = this.createPrice({ ...(p.default_price_data as Obj), product: id }, req);
      prod.default_price = price.id;
      this.store.save();
    }
    return prod;
  }

  /** POST /v1/products/:id. Emits product.updated. */
  updateProduct(id: string, p: Params, req: RequestInfo): Obj {
    const prod = this.require('product', 'product', id);
    if (p.default_price) {
      const price = this.require('price', 'price', p.default_price, 'default_price');
      if (price.product !== prod.id) throw invalidRequest('The default price must belong to this product.', 'default_price');
    }
    const before = this.snapshot(prod);
    for (const k of ['active', 'description', 'name', 'statement_descriptor', 'tax_code', 'unit_label', 'url'] as const) {
      if (k in p) prod[k] = p[k] ?? (k === 'active' ? prod.active : null);
    }
    if ('images' in p) prod.images = p.images ?? [];
    if ('metadata' in p) prod.metadata = mergeMetadata(prod.metadata as Obj, p.metadata);
    if ('default_price' in p) prod.default_price = p.default_price ?? null;
    prod.updated = this.store.now();
    this.store.save();
    this.emit('product.updated', prod, { prev: this.diff(before, prod), req });
    return prod;
  }

  /** DELETE /v1/products/:id; 400 while prices of the product exist (as Stripe). */
  deleteProduct(id: string, req: RequestInfo): Obj {
    const prod = this.require('product', 'product', id);
    if (this.store.all('price').some((x) => x.product === id)) {
      throw invalidRequest('This product cannot be deleted because it has one or more user-created prices.', undefined, 'product_has_prices');
    }
    const rendered = this.store.render(prod);
    this.store.state.objects[id] = { id, object: 'product', deleted: true, _seq: prod._seq };
    this.store.save();
    this.emit('product.deleted', rendered, { req });
    return this.store.state.objects[id]!;
  }

  /**
   * Validates price data (currency, amount, recurring, lookup key) without changing anything.
   * `base` prefixes the error's param (e.g. `default_price_data`). Output: normalized fields.
   */
  private checkPriceData(
    p: Params,
    base = '',
  ): { currency: string; unitAmount: number; recurring: Obj | null; lookupKey: string | null; lookupHolder: Obj | null } {
    const name = (k: string) => (base ? `${base}[${k}]` : k);
    const countParam = base ? `${base}[recurring][interval_count]` : 'recurring[interval_count]';
    const currency = String(p.currency).toLowerCase();
    if (!/^[a-z]{3}$/.test(currency)) throw invalidRequest(`Invalid currency: ${p.currency}.`, name('currency'), 'parameter_invalid_string');
    let unitAmount = p.unit_amount as number | undefined | null;
    if ((unitAmount === undefined || unitAmount === null) && typeof p.unit_amount_decimal === 'string') {
      const d = Number(p.unit_amount_decimal);
      if (!Number.isFinite(d)) throw invalidRequest(`Invalid decimal: ${p.unit_amount_decimal}`, name('unit_amount_decimal'), 'parameter_invalid_string');
      unitAmount = Math.round(d);
    }
    if (unitAmount === undefined || unitAmount === null) throw invalidRequest(`Missing required param: ${name('unit_amount')}.`, name('unit_amount'), 'parameter_missing');
    if (unitAmount < 0) throw invalidRequest('This value must be greater than or equal to 0.', name('unit_amount'), 'parameter_invalid_integer');
    let recurring: Obj | null = null;
    if (p.recurring) {
      const r = p.recurring as Obj;
      const count = (r.interval_count as number | undefined | null) ?? 1;
      if (count < 1) throw invalidRequest('This value must be greater than or equal to 1.', countParam, 'parameter_invalid_integer');
      const maxByInterval: Record<string, number> = { day: 1095, week: 156, month: 36, year: 3 };
      if (count > maxByInterval[r.interval as string]!) {
        throw invalidRequest('The maximum billing interval is 3 years (3 years, 36 months, or 156 weeks).', countParam);
      }
      recurring = {
        aggregate_usage: null,
        interval: r.interval,
        interval_count: count,
        meter: null,
        trial_period_days: r.trial_period_days ?? null,
        usage_type: r.usage_type ?? 'licensed',
      };
    }
    const lookupKey = (p.lookup_key as string | null | undefined) ?? null;
    let lookupHolder: Obj | null = null;
    if (lookupKey) {
      lookupHolder = this.store.all('price').find((x) => x.lookup_key === lookupKey) ?? null;
      if (lookupHolder && !p.transfer_lookup_key) {
        throw invalidRequest(`A price (\`${lookupHolder.id}\`) already uses that lookup key.`, name('lookup_key'), 'lookup_key_already_used');
      }
    }
    return { currency, unitAmount, recurring, lookupKey, lookupHolder };
  }

  /** POST /v1/prices: `unit_amount` in cents, `recurring {interval, interval_count}`, unique `lookup_key`. Emits price.created. */
  createPrice(p: Params, req: RequestInfo): Obj {
    if (p.product && p.product_data) throw invalidRequest('You may only specify one of these parameters: product, product_data.', 'product');
    if (!p.product && !p.product_data) throw invalidRequest('Missing required param: product.', 'product', 'parameter_missing');
    if (p.product) this.require('product', 'product', p.product, 'product');
    if (p.product_data && (p.product_data as Obj).id && this.store.get((p.product_data as Obj).id as string)) {
      throw invalidRequest('Product already exists.', 'product_data[id]', 'resource_already_exists');
    }
    const data = this.checkPriceData(p);
    const productId = p.product ? (p.product as string) : (this.createProduct(p.product_data as Obj, req).id as string);
    if (data.lookupHolder) data.lookupHolder.lookup_key = null;
    const price: Obj = {
      id: this.store.newId('price'),
      object: 'price',
      active: p.active ?? true,
      billing_scheme: 'per_unit',
      created: this.store.now(),
      currency: data.currency,
      custom_unit_amount: null,
      livemode: false,
      lookup_key: data.lookupKey,
      metadata: cleanMetadata(p.metadata),
      nickname: p.nickname ?? null,
      product: productId,
      recurring: data.recurring,
      tax_behavior: p.tax_behavior ?? 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: data.recurring ? 'recurring' : 'one_time',
      unit_amount: data.unitAmount,
      unit_amount_decimal: String(data.unitAmount),
    };
    this.store.put(price);
    this.emit('price.created', price, { req });
    return price;
  }

  /** POST /v1/prices/:id (active, nickname, metadata, lookup_key with transfer_lookup_key). Emits price.updated. */
  updatePrice(id: string, p: Params, req: RequestInfo): Obj {
    const price = this.require('price', 'price', id);
    const key = 'lookup_key' in p ? ((p.lookup_key as string | null) ?? null) : undefined;
    const holder = key ? this.store.all('price').find((x) => x.lookup_key === key && x.id !== id) : undefined;
    if (holder && !p.transfer_lookup_key) {
      throw invalidRequest(`A price (\`${holder.id}\`) already uses that lookup key.`, 'lookup_key', 'lookup_key_already_used');
    }
    const before = this.snapshot(price);
    if ('active' in p && p.active !== null) price.active = p.active;
    if ('nickname' in p) price.nickname = p.nickname ?? null;
    if ('tax_behavior' in p && p.tax_behavior) price.tax_behavior = p.tax_behavior;
    if ('metadata' in p) price.metadata = mergeMetadata(price.metadata as Obj, p.metadata);
    if (key !== undefined) {
      if (holder) holder.lookup_key = null;
      price.lookup_key = key;
    }
    this.store.save();
    this.emit('price.updated', price, { prev: this.diff(before, price), req });
    return price;
  }

  // ---------------------------------------------------------------- checkout sessions

  /**
   * Validates a checkout session's line items without storing anything. Input: `line_items` as
   * validated by api.ts and the mode. Output: per item the existing price or the checked
   * `price_data` (created later by createInlinePrice), the quantity, the currency and the total in
   * cents. Errors: 400 with Stripe's wording (see createCheckoutSession), 404 for unknown prices or
   * products.
   */
  private checkLineItems(
    items: Obj[],
    mode: 'payment' | 'subscription',
  ): { lines: { price: Obj | null; data: InlinePriceData | null; quantity: number }[]; currency: string; total: number } {
    const lines: { price: Obj | null; data: InlinePriceData | null; quantity: number }[] = [];
    let currency: string | null = null;
    let total = 0;
    let anyRecurring = false;
    items.forEach((li, i) => {
      const base = `line_items[${i}]`;
      if (li.price && li.price_data) throw invalidRequest('You may only specify one of these parameters: price, price_data.', `${base}[price]`);
      if (!li.price && !li.price_data) throw invalidRequest(`You must specify either \`price\` or \`price_data\` in \`${base}\`.`, `${base}[price]`, 'parameter_missing');
      let price: Obj | null = null;
      let data: InlinePriceData | null = null;
      let param = `${base}[price]`;
      if (li.price) {
        price = this.require('price', 'price', li.price, param);
        if (!price.active) throw invalidRequest('The price specified is inactive. This field only accepts active prices.', param);
      } else {
        param = `${base}[price_data]`;
        // Subscriptions need stored recurring prices (renewals look them up); the sandbox keeps
        // price_data to payment mode.
        if (mode === 'subscription') throw unsupportedParam(param);
        const pd = li.price_data as Obj;
        if (pd.product && pd.product_data) throw invalidRequest('You may only specify one of these parameters: product, product_data.', `${param}[product]`);
        if (!pd.product && !pd.product_data) throw invalidRequest(`Missing required param: ${param}[product_data].`, `${param}[product_data]`, 'parameter_missing');
        if (pd.product) this.require('product', 'product', pd.product, `${param}[product]`);
        const checked = this.checkPriceData(pd, param);
        data = {
          currency: checked.currency,
          unitAmount: checked.unitAmount,
          recurring: checked.recurring,
          taxBehavior: (pd.tax_behavior as string | undefined) ?? 'unspecified',
          product: (pd.product as string | undefined) ?? null,
          productData: (pd.product_data as Obj | undefined) ?? null,
        };
      }
      const recurring = price ? price.recurring : data!.recurring;
      if (recurring && mode === 'payment') {
        throw invalidRequest('You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.', param);
      }
      if (li.quantity === undefined || li.quantity === null) {
        throw invalidRequest(`Quantity is required. Add \`quantity\` to \`${base}\``, `${base}[quantity]`, 'parameter_missing');
      }
      const q = li.quantity as number;
      if (q < 1) throw invalidRequest('This value must be greater than or equal to 1.', `${base}[quantity]`, 'parameter_invalid_integer');
      const itemCurrency = price ? (price.currency as string) : data!.currency;
      if (currency && currency !== itemCurrency) throw invalidRequest('All line items must use the same currency.', param);
      currency = itemCurrency;
      if (recurring) anyRecurring = true;
      total += (price ? (price.unit_amount as number) : data!.unitAmount) * q;
      lines.push({ price, data, quantity: q });
    });
    if (mode === 'subscription' && !anyRecurring) {
      throw invalidRequest('You must provide at least one recurring price in `subscription` mode when using prices.', 'line_items');
    }
    return { lines, currency: currency!, total };
  }

  /**
   * Stores the price (and, with `product_data`, the product) of a checkout line item given as
   * `price_data`. Both are inactive and marked `_inline`: retrievable by id, never listed or
   * searched, and no price.created/product.created events (they are not part of the catalog).
   * Input: data checked by checkLineItems, creation time in unix seconds. Output: the price.
   */
  private createInlinePrice(data: InlinePriceData, now: number): Obj {
    let productId = data.product;
    if (!productId) {
      const pd = data.productData!;
      productId = this.store.newId('prod');
      this.store.put({
        id: productId, object: 'product', active: false, attributes: [], created: now, default_price: null,
        description: pd.description ?? null, features: [], images: (pd.images as string[] | undefined) ?? [], livemode: false,
        marketing_features: [], metadata: cleanMetadata(pd.metadata), name: pd.name, package_dimensions: null, shippable: null,
        statement_descriptor: null, tax_code: pd.tax_code ?? null, type: 'service', unit_label: null, updated: now, url: null,
        _inline: true,
      });
    }
    return this.store.put({
      id: this.store.newId('price'), object: 'price', active: false, billing_scheme: 'per_unit', created: now, currency: data.currency,
      custom_unit_amount: null, livemode: false, lookup_key: null, metadata: {}, nickname: null, product: productId,
      recurring: data.recurring, tax_behavior: data.taxBehavior, tiers_mode: null, transform_quantity: null, type: data.recurring ? 'recurring' : 'one_time',
      unit_amount: data.unitAmount, unit_amount_decimal: String(data.unitAmount), _inline: true,
    });
  }

  /**
   * POST /v1/checkout/sessions in `subscription` or `payment` mode.
   *
   * Input: validated params. Line items name a `price` (payment mode: one-time prices only) or,
   * in payment mode, `price_data` (`currency`, `unit_amount` in cents, `product_data` or
   * `product`, `tax_behavior`), each with a `quantity`. `expires_at` is in unix seconds and must
   * lie 30 minutes to 24 hours after creation, measured on the customer's clock (the sandbox clock
   * for guests); it defaults to 24 hours. Payment mode also takes `payment_intent_data`
   * (metadata, description, receipt_email, statement descriptors) and `customer_creation`.
   *
   * Output: an open, unpaid session whose `url` is the hosted page; `amount_subtotal` and
   * `amount_total` are the sum of unit_amount × quantity in cents. In payment mode
   * `payment_intent` stays null until the hosted page is paid (as on Stripe since 2022-08-01).
   *
   * Errors (400 invalid_request_error with Stripe's wording unless noted): mode `setup`;
   * customer together with customer_email; unknown customer, price or product (404); inactive
   * prices; price and price_data together or neither; missing quantity; mixed currencies; a
   * recurring price in payment mode, none in subscription mode; price_data in subscription mode
   * ("unsupported parameter"); subscription_data in payment mode, payment_intent_data or
   * customer_creation in subscription mode; a payment total below the currency's minimum charge;
   * invalid URLs; expires_at out of range (param `expires_at`).
   */
  createCheckoutSession(p: Params): Obj {
    const mode = p.mode as string;
    if (mode !== 'subscription' && mode !== 'payment') {
      throw invalidRequest(`The sandbox supports only mode=subscription and mode=payment (got mode=${mode}).`, 'mode', 'parameter_invalid_string');
    }
    if (mode === 'payment' && p.subscription_data) throw invalidRequest('You can not pass `subscription_data` in `payment` mode.', 'subscription_data');
    if (mode === 'subscription' && p.payment_intent_data) throw invalidRequest('You can not pass `payment_intent_data` in `subscription` mode.', 'payment_intent_data');
    if (mode === 'subscription' && p.customer_creation) throw invalidRequest('`customer_creation` can only be used in `payment` mode.', 'customer_creation');
    if (p.customer && p.customer_email) throw invalidRequest('You may only specify one of these parameters: customer, customer_email.', 'customer');
    const customer = p.customer ? this.require('customer', 'customer', p.customer, 'customer') : null;
    if (!isValidUrl(p.success_url)) throw invalidRequest('Not a valid URL', 'success_url', 'url_invalid');
    if (p.cancel_url !== undefined && p.cancel_url !== null && !isValidUrl(p.cancel_url)) throw invalidRequest('Not a valid URL', 'cancel_url', 'url_invalid');
    if (typeof p.client_reference_id === 'string' && p.client_reference_id.length > 200) {
      throw invalidRequest('client_reference_id must be at most 200 characters.', 'client_reference_id');
    }
    const items = (p.line_items as Obj[] | undefined) ?? [];
    if (items.length === 0) {
      if (mode === 'payment') throw invalidRequest('Missing required param: line_items.', 'line_items', 'parameter_missing');
      throw invalidRequest('You must provide at least one recurring price in `subscription` mode when using prices.', 'line_items');
    }
    const { lines, currency, total } = this.checkLineItems(items, mode);
    if (mode === 'payment') {
      const min = MIN_CHARGE[currency] ?? 50;
      if (total < min) {
        throw invalidRequest(`The Checkout Session's total amount due must add up to at least ${(min / 100).toFixed(2)} ${currency}.`, 'line_items', 'amount_too_small');
      }
    }
    const now = this.nowFor(customer?.id as string | undefined);
    let expiresAt = now + SESSION_TTL;
    if (p.expires_at !== undefined && p.expires_at !== null) {
      const e = p.expires_at as number;
      if (e < now + SESSION_MIN_TTL) throw invalidRequest('The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.', 'expires_at');
      if (e > now + SESSION_TTL) throw invalidRequest('The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', 'expires_at');
      expiresAt = e;
    }
    // Every check passed: only now store inline prices.
    const lineItems = lines.map((l) => ({
      id: this.store.newId('li'),
      price: (l.price ?? this.createInlinePrice(l.data!, now)).id,
      quantity: l.quantity,
    }));
    const id = this.store.newId('cs');
    const sd = (p.subscription_data as Obj | undefined) ?? {};
    const pid = (p.payment_intent_data as Obj | undefined) ?? {};
    const session: Obj = {
      id,
      object: 'checkout.session',
      after_expiration: null,
      allow_promotion_codes: p.allow_promotion_codes ?? null,
      amount_subtotal: total,
      amount_total: total,
      automatic_tax: { enabled: false, liability: null, status: null },
      billing_address_collection: p.billing_address_collection ?? null,
      cancel_url: p.cancel_url ?? null,
      client_reference_id: p.client_reference_id ?? null,
      client_secret: null,
      consent: null,
      consent_collection: null,
      created: now,
      currency,
      currency_conversion: null,
      custom_fields: [],
      custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
      customer: customer?.id ?? null,
      customer_creation: customer ? null : mode === 'payment' ? ((p.customer_creation as string | undefined) ?? 'if_required') : 'always',
      customer_details: customer ? { email: customer.email, address: null, name: customer.name, phone: null, tax_exempt: 'none', tax_ids: [] } : null,
      customer_email: p.customer_email ?? null,
      expires_at: expiresAt,
      invoice: null,
      invoice_creation:
        mode === 'payment'
          ? { enabled: false, invoice_data: { account_tax_ids: null, custom_fields: null, description: null, footer: null, metadata: {}, rendering_options: null } }
          : null,
      livemode: false,
      locale: p.locale ?? null,
      metadata: cleanMetadata(p.metadata),
      mode,
      payment_intent: null,
      payment_link: null,
      payment_method_collection: (p.payment_method_collection as string | undefined) ?? (mode === 'payment' ? 'if_required' : 'always'),
      payment_method_configuration_details: null,
      payment_method_options: {},
      payment_method_types: (p.payment_method_types as string[] | undefined) ?? ['card'],
      payment_status: 'unpaid',
      phone_number_collection: { enabled: false },
      recovered_from: null,
      setup_intent: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_details: null,
      shipping_options: [],
      status: 'open',
      submit_type: null,
      subscription: null,
      success_url: p.success_url,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted',
      url: `${this.opts.baseUrl}/checkout/${id}`,
      _line_items: lineItems,
      _subscription_data:
        mode === 'subscription' ? { metadata: cleanMetadata(sd.metadata), trial_period_days: sd.trial_period_days ?? null, description: sd.description ?? null } : null,
      _payment_intent_data:
        mode === 'payment'
          ? {
              metadata: cleanMetadata(pid.metadata),
              description: pid.description ?? null,
              receipt_email: pid.receipt_email ?? null,
              statement_descriptor: pid.statement_descriptor ?? null,
              statement_descriptor_suffix: pid.statement_descriptor_suffix ?? null,
            }
          : null,
    };
    this.store.put(session);
    return session;
  }

  /** Returns the session, expiring it first when its expires_at has passed. */
  getCheckoutSession(id: string): Obj {
    const s = this.require('checkout session', 'checkout.session', id);
    this.expireIfDue(s);
    return s;
  }

  /** Expires an open session whose expires_at has passed on its customer's clock (event dated expires_at). */
  private expireIfDue(s: Obj): void {
    if (s.status === 'open' && (s.expires_at as number) <= this.nowFor(s.customer as string | null)) this.expireSession(s, AUTOMATIC, s.expires_at as number);
  }

  /**
   * POST /v1/checkout/sessions/:id/expire (either mode) and automatic expiry. Input: the session,
   * the request, and for automatic expiry the event time (unix seconds; default now). Output: the
   * session with status `expired` and `url: null`; emits checkout.session.expired. Errors: 400
   * checkout_session_not_open for a complete or already expired session.
   */
  expireSession(s: Obj, req: RequestInfo, at?: number): Obj {
    if (s.status !== 'open') {
      throw invalidRequest(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`, undefined, 'checkout_session_not_open');
    }
    s.status = 'expired';
    s.url = null;
    this.store.save();
    this.emit('checkout.session.expired', s, { req, at: at ?? this.nowFor(s.customer as string | null) });
    return s;
  }

  /** The session's line items as a Stripe list (`/v1/checkout/sessions/:id/line_items`). */
  sessionLineItems(s: Obj): Obj {
    const data = (s._line_items as Obj[]).map((li) => {
      const price = this.store.get(li.price as string)!;
      const product = this.store.get(price.product as string);
      const amount = (price.unit_amount as number) * (li.quantity as number);
      return {
        id: li.id,
        object: 'item',
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        currency: price.currency,
        description: product?.name ?? '',
        price: this.store.render(price),
        quantity: li.quantity,
      };
    });
    return { object: 'list', data, has_more: false, url: `/v1/checkout/sessions/${s.id}/line_items` };
  }

  /**
   * Completes a checkout session paid with a card from the hosted page (either mode; see
   * completeSubscriptionCheckout and completePaymentCheckout). Input: the open session, the parsed
   * card and the form's email (null when the session already has one) and name on card. Output:
   * the completed session, or the card failure, in which case nothing was stored or emitted.
   */
  completeCheckout(
    s: Obj,
    card: CardInput,
    form: { email: string | null; name: string },
  ): { ok: true; session: Obj } | { ok: false; failure: keyof typeof FAILURES } {
    return s.mode === 'payment' ? this.completePaymentCheckout(s, card, form) : this.completeSubscriptionCheckout(s, card, form);
  }

  /**
   * Subscription mode: creates (or reuses) the customer, attaches the card, creates the
   * subscription with its first invoice and marks the session complete/paid.
   */
  private completeSubscriptionCheckout(
    s: Obj,
    card: CardInput,
    form: { email: string | null; name: string },
  ): { ok: true; session: Obj } | { ok: false; failure: keyof typeof FAILURES } {
    const behavior = cardBehavior(card.number);
    if (behavior !== 'succeed' && behavior !== 'fail_after_attach') return { ok: false, failure: behavior };
    let customer = s.customer ? this.store.get(s.customer as string) : undefined;
    const email = (customer?.email as string | null) ?? (s.customer_email as string | null) ?? form.email;
    if (!customer || customer.deleted) {
      customer = this.createCustomer({ email, name: form.name }, AUTOMATIC);
    }
    const now = this.nowFor(customer.id as string);
    const pm = this.createCardPaymentMethod(card, { name: form.name, email }, now);
    this.attachPaymentMethod(pm.id as string, customer, 'payment_method');
    const sd = s._subscription_data as Obj;
    const { sub, invoice } = this.createSubscriptionInternal(
      {
        customer,
        items: (s._line_items as Obj[]).map((li) => ({ price: li.price, quantity: li.quantity })),
        metadata: sd.metadata,
        description: sd.description,
        trialDays: sd.trial_period_days,
        paymentMethod: pm,
        first: true,
      },
      AUTOMATIC,
    );
    s.status = 'complete';
    s.payment_status = invoice.amount_due === 0 ? 'no_payment_required' : 'paid';
    s.customer = customer.id;
    s.subscription = sub.id;
    s.invoice = invoice.id;
    s.url = null;
    s.customer_details = { address: null, email, name: form.name || customer.name, phone: null, tax_exempt: 'none', tax_ids: [] };
    this.store.save();
    this.emit('checkout.session.completed', s, { at: now });
    return { ok: true, session: s };
  }

  /**
   * Payment mode: charges `amount_total` (cents) once. The session's customer is used when it
   * has one; otherwise a customer is created only with `customer_creation: 'always'` (Stripe's
   * default `if_required` leaves a guest payment: `customer` stays null and the email lives in
   * `customer_details`). The card becomes a payment method that is not attached to anyone.
   * Stores a succeeded payment intent (metadata, description, receipt_email and statement
   * descriptors from `payment_intent_data`) and its captured charge, sets the session to
   * complete/paid with `payment_intent`, and emits payment_intent.created,
   * payment_intent.succeeded, charge.succeeded and checkout.session.completed, in this order.
   * Every declining test card fails here, 4000 0000 0000 0341 included (it passes only the
   * first invoice of a checkout subscription).
   */
  private completePaymentCheckout(
    s: Obj,
    card: CardInput,
    form: { email: string | null; name: string },
  ): { ok: true; session: Obj } | { ok: false; failure: keyof typeof FAILURES } {
    const behavior = cardBehavior(card.number);
    if (behavior !== 'succeed') return { ok: false, failure: behavior };
    let customer = s.customer ? this.store.get(s.customer as string) : undefined;
    if (customer?.deleted) customer = undefined;
    const email = (customer?.email as string | null | undefined) ?? (s.customer_email as string | null) ?? form.email;
    if (!customer && s.customer_creation === 'always') customer = this.createCustomer({ email, name: form.name }, AUTOMATIC);
    const now = this.nowFor(customer?.id as string | undefined);
    const pm = this.createCardPaymentMethod(card, { name: form.name, email }, now);
    pm._charges = 1;
    const pid = s._payment_intent_data as Obj;
    const { pi, charge } = this.recordCharge({
      amount: s.amount_total as number,
      currency: s.currency as string,
      customer: (customer?.id as string | undefined) ?? null,
      pm,
      invoice: null,
      description: pid.description as string | null,
      metadata: pid.metadata as Record<string, string>,
      receiptEmail: pid.receipt_email as string | null,
      statementDescriptor: pid.statement_descriptor as string | null,
      statementDescriptorSuffix: pid.statement_descriptor_suffix as string | null,
      at: now,
    });
    s.status = 'complete';
    s.payment_status = 'paid';
    s.payment_intent = pi.id;
    s.customer = customer?.id ?? null;
    s.url = null;
    s.customer_details = { address: null, email, name: form.name || ((customer?.name as string | null | undefined) ?? null), phone: null, tax_exempt: 'none', tax_ids: [] };
    this.store.save();
    // payment_intent.created shows the intent as it was before the card was confirmed.
    this.emit(
      'payment_intent.created',
      { ...pi, amount_received: 0, latest_charge: null, payment_method: null, status: 'requires_payment_method' },
      { at: now },
    );
    this.emit('payment_intent.succeeded', pi, { at: now });
    this.emit('charge.succeeded', charge, { at: now });
    this.emit('checkout.session.completed', s, { at: now });
    return { ok: true, session: s };
  }

  // ---------------------------------------------------------------- subscriptions

  private planFrom(price: Obj): Obj {
    return {
      id: price.id,
      object: 'plan',
      active: price.active,
      aggregate_usage: null,
      amount: price.unit_amount,
      amount_decimal: price.unit_amount_decimal,
      billing_scheme: 'per_unit',
      created: price.created,
      currency: price.currency,
      interval: price.recurring?.interval ?? null,
      interval_count: price.recurring?.interval_count ?? null,
      livemode: false,
      metadata: price.metadata,
      meter: null,
      nickname: price.nickname,
      product: price.product,
      tiers_mode: null,
      transform_usage: null,
      trial_period_days: null,
      usage_type: 'licensed',
    };
  }

  /** Rebuilds the subscription's `items`, `plan` and `quantity` from its internal items. */
  private materialize(sub: Obj): void {
    const items = (sub._items as Obj[]).map((it) => {
      const price = this.store.get(it.price as string)!;
      return {
        id: it.id,
        object: 'subscription_item',
        billing_thresholds: null,
        created: it.created,
        current_period_end: sub.current_period_end,
        current_period_start: sub.current_period_start,
        discounts: [],
        metadata: it.metadata ?? {},
        plan: this.planFrom(price),
        price: this.store.render(price),
        quantity: it.quantity,
        subscription: sub.id,
        tax_rates: [],
      };
    });
    sub.items = { object: 'list', data: items, has_more: false, total_count: items.length, url: `/v1/subscription_items?subscription=${sub.id}` };
    sub.plan = items.length === 1 ? items[0]!.plan : null;
    sub.quantity = items.length === 1 ? items[0]!.quantity : null;
  }

  private subInterval(sub: Obj): { interval: Interval; count: number } {
    const price = this.store.get((sub._items as Obj[])[0]!.price as string)!;
    return { interval: price.recurring.interval as Interval, count: price.recurring.interval_count as number };
  }

  /** End of the period that starts at the anchor plus `periods` intervals. */
  private periodEnd(sub: Obj, periodIndex: number): number {
    const { interval, count } = this.subInterval(sub);
    return addInterval(sub.billing_cycle_anchor as number, interval, count * (periodIndex + 1));
  }

  private subAmount(sub: Obj): number {
    return (sub._items as Obj[]).reduce((sum, it) => sum + (this.store.get(it.price as string)!.unit_amount as number) * (it.quantity as number), 0);
  }

  private paymentMethodFor(sub: Obj): Obj | undefined {
    const c = this.store.get(sub.customer as string);
    const id = (sub.default_payment_method as string | null) ?? (c?.invoice_settings?.default_payment_method as string | null);
    return id ? this.store.get(id) : undefined;
  }

  /** Checks that subscription items are recurring, active and share currency and interval. */
  private checkItemPrices(prices: Obj[], paramBase: string): void {
    let first: Obj | null = null;
    prices.forEach((price, i) => {
      if (!price.recurring) throw invalidRequest(`The price \`${price.id}\` is not a recurring price; subscriptions need recurring prices.`, `${paramBase}[${i}][price]`);
      if (!first) first = price;
      else if (
        first.currency !== price.currency ||
        first.recurring.interval !== price.recurring.interval ||
        first.recurring.interval_count !== price.recurring.interval_count
      ) {
        throw invalidRequest('Currency and interval fields must match across all plans on this subscription.', `${paramBase}[${i}][price]`);
      }
    });
  }

  /** Creates an invoice for a subscription period (finalized, status open, not yet paid). */
  private createInvoice(sub: Obj, reason: string, start: number, end: number, at: number, req: RequestInfo): Obj {
    const customer = this.store.get(sub.customer as string)!;
    const id = this.store.newId('in');
    const lines = (sub._items as Obj[]).map((it) => {
      const price = this.store.get(it.price as string)!;
      const product = this.store.get(price.product as string);
      const amount = (price.unit_amount as number) * (it.quantity as number);
      return {
        id: this.store.newId('il'),
        object: 'line_item',
        amount,
        amount_excluding_tax: amount,
        currency: price.currency,
        description: `${it.quantity} × ${product?.name ?? price.id}`,
        discount_amounts: [],
        discountable: true,
        discounts: [],
        invoice: id,
        livemode: false,
        metadata: {},
        period: { end, start },
        plan: this.planFrom(price),
        price: this.store.render(price),
        proration: false,
        quantity: it.quantity,
        subscription: sub.id,
        subscription_item: it.id,
        type: 'subscription',
      };
    });
    const total = reason === 'subscription_create' && sub.status === 'trialing' ? 0 : lines.reduce((s, l) => s + l.amount, 0);
    if (total === 0) for (const l of lines) l.amount = 0;
    const seq = customer.next_invoice_sequence as number;
    customer.next_invoice_sequence = seq + 1;
    const inv: Obj = {
      id,
      object: 'invoice',
      account_country: 'DE',
      account_name: 'Teamwerk (Sandbox)',
      amount_due: total,
      amount_paid: 0,
      amount_remaining: total,
      attempt_count: 0,
      attempted: false,
      auto_advance: true,
      billing_reason: reason,
      charge: null,
      collection_method: 'charge_automatically',
      created: at,
      currency: sub.currency,
      customer: customer.id,
      customer_email: customer.email,
      customer_name: customer.name,
      default_payment_method: null,
      description: null,
      hosted_invoice_url: `${this.opts.baseUrl}/invoices/${id}`,
      invoice_pdf: null,
      lines: { object: 'list', data: lines, has_more: false, total_count: lines.length, url: `/v1/invoices/${id}/lines` },
      livemode: false,
      metadata: {},
      next_payment_attempt: null,
      number: `${customer.invoice_prefix}-${String(seq).padStart(4, '0')}`,
      paid: false,
      paid_out_of_band: false,
      payment_intent: null,
      period_end: end,
      period_start: start,
      status: 'open',
      status_transitions: { finalized_at: at, marked_uncollectible_at: null, paid_at: null, voided_at: null },
      subscription: sub.id,
      subtotal: total,
      tax: null,
      test_clock: customer.test_clock ?? null,
      total,
      _first_failure_at: null,
    };
    this.store.put(inv);
    this.emit('invoice.created', inv, { req, at });
    this.emit('invoice.finalized', inv, { req, at });
    return inv;
  }

  /** Attempts to pay an open invoice; emits invoice.paid/payment_succeeded or payment_failed. */
  private attemptInvoice(inv: Obj, pm: Obj | undefined, at: number, first: boolean, req: RequestInfo): boolean {
    const result = this.charge(pm, inv.amount_due as number, first);
    inv.attempt_count = (inv.attempt_count as number) + 1;
    inv.attempted = true;
    if (result.ok) {
      inv.status = 'paid';
      inv.paid = true;
      inv.amount_paid = inv.amount_due;
      inv.amount_remaining = 0;
      inv.next_payment_attempt = null;
      inv.default_payment_method = pm?.id ?? null;
      inv.status_transitions.paid_at = at;
      if ((inv.amount_paid as number) > 0) this.recordPayment(inv, pm, at);
      this.store.save();
      this.emit('invoice.paid', inv, { req, at });
      this.emit('invoice.payment_succeeded', inv, { req, at });
      return true;
    }
    if (!inv._first_failure_at) inv._first_failure_at = at;
    const retryIndex = (inv.attempt_count as number) - 1;
    inv.next_payment_attempt = retryIndex < RETRY_DAYS.length ? (inv._first_failure_at as number) + RETRY_DAYS[retryIndex]! * DAY : null;
    inv.last_finalization_error = null;
    inv._last_failure = result;
    this.store.save();
    this.emit('invoice.payment_failed', inv, { req, at });
    return false;
  }

  /**
   * The money movement of a paid invoice: a succeeded payment intent and its charge (API
   * 2023-10-16 puts both ids on the invoice). Refunds (POST /v1/refunds) act on the charge.
   */
  private recordPayment(inv: Obj, pm: Obj | undefined, at: number): void {
    const { pi, charge } = this.recordCharge({
      amount: inv.amount_paid as number,
      currency: inv.currency as string,
      customer: inv.customer as string,
      pm,
      invoice: inv.id as string,
      description: `Invoice ${inv.number as string}`,
      metadata: {},
      receiptEmail: null,
      at,
    });
    inv.charge = charge.id;
    inv.payment_intent = pi.id;
  }

  /**
   * Stores a succeeded card payment: a payment intent and its captured charge, shaped as API
   * 2023-10-16 returns them (the charge copies the intent's metadata and description, as Stripe
   * does; `refunds` is not included, as in that version). Input: `amount` in cents, lowercase
   * `currency`, the customer id or null for a guest, the card payment method, the invoice id or
   * null, and `at` in unix seconds. Output: both stored objects; no events (callers emit).
   */
  private recordCharge(a: {
    amount: number;
    currency: string;
    customer: string | null;
    pm: Obj | undefined;
    invoice: string | null;
    description: string | null;
    metadata: Record<string, string>;
    receiptEmail: string | null;
    statementDescriptor?: string | null;
    statementDescriptorSuffix?: string | null;
    at: number;
  }): { pi: Obj; charge: Obj } {
    const piId = this.store.newId('pi');
    const chId = this.store.newId('ch');
    const card = a.pm?.card as Obj | undefined;
    const billing = (a.pm?.billing_details as Obj | undefined) ?? { email: null, name: null, phone: null };
    const charge = this.store.put({
      id: chId,
      object: 'charge',
      amount: a.amount,
      amount_captured: a.amount,
      amount_refunded: 0,
      application: null,
      application_fee: null,
      application_fee_amount: null,
      balance_transaction: null,
      billing_details: {
        address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
        email: billing.email ?? null,
        name: billing.name ?? null,
        phone: billing.phone ?? null,
      },
      calculated_statement_descriptor: (a.statementDescriptor ?? 'TEAMWERK').toUpperCase(),
      captured: true,
      created: a.at,
      currency: a.currency,
      customer: a.customer,
      description: a.description,
      disputed: false,
      failure_balance_transaction: null,
      failure_code: null,
      failure_message: null,
      fraud_details: {},
      invoice: a.invoice,
      livemode: false,
      metadata: { ...a.metadata },
      on_behalf_of: null,
      outcome: { network_status: 'approved_by_network', reason: null, risk_level: 'normal', risk_score: 20, seller_message: 'Payment complete.', type: 'authorized' },
      paid: true,
      payment_intent: piId,
      payment_method: a.pm?.id ?? null,
      payment_method_details: card
        ? {
            card: {
              amount_authorized: a.amount, brand: card.brand, checks: card.checks, country: card.country, exp_month: card.exp_month, exp_year: card.exp_year,
              fingerprint: card.fingerprint, funding: card.funding, last4: card.last4, network: card.brand, three_d_secure: null, wallet: null,
            },
            type: 'card',
          }
        : null,
      receipt_email: a.receiptEmail,
      receipt_number: null,
      receipt_url: null,
      refunded: false,
      review: null,
      shipping: null,
      source_transfer: null,
      statement_descriptor: a.statementDescriptor ?? null,
      statement_descriptor_suffix: a.statementDescriptorSuffix ?? null,
      status: 'succeeded',
      transfer_data: null,
      transfer_group: null,
    });
    const pi = this.store.put({
      id: piId,
      object: 'payment_intent',
      amount: a.amount,
      amount_capturable: 0,
      amount_details: { tip: {} },
      amount_received: a.amount,
      application: null,
      application_fee_amount: null,
      automatic_payment_methods: null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic',
      client_secret: `${piId}_secret_${this.store.newId('x').slice(2)}`,
      confirmation_method: 'automatic',
      created: a.at,
      currency: a.currency,
      customer: a.customer,
      description: a.description,
      invoice: a.invoice,
      last_payment_error: null,
      latest_charge: chId,
      livemode: false,
      metadata: { ...a.metadata },
      next_action: null,
      on_behalf_of: null,
      payment_method: a.pm?.id ?? null,
      payment_method_configuration_details: null,
      payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
      payment_method_types: ['card'],
      processing: null,
      receipt_email: a.receiptEmail,
      review: null,
      setup_future_usage: null,
      shipping: null,
      source: null,
      statement_descriptor: a.statementDescriptor ?? null,
      statement_descriptor_suffix: a.statementDescriptorSuffix ?? null,
      status: 'succeeded',
      transfer_data: null,
      transfer_group: null,
    });
    return { pi, charge };
  }

  // ---------------------------------------------------------------- refunds

  /**
   * POST /v1/refunds: refunds a charge (named directly or through its payment intent), by default
   * what is left of it. Emits charge.refunded and refund.created.
   * Errors (Stripe's wording and codes): neither charge nor payment_intent (parameter_missing),
   * unknown ids (404 resource_missing), nothing left (charge_already_refunded), more than is left
   * (amount_too_large).
   */
  createRefund(p: Params, req: RequestInfo): Obj {
    let charge: Obj;
    if (p.charge) charge = this.require('charge', 'charge', p.charge, 'charge');
    else if (p.payment_intent) {
      const pi = this.require('payment_intent', 'payment_intent', p.payment_intent, 'payment_intent');
      charge = this.require('charge', 'charge', pi.latest_charge, 'payment_intent');
    } else {
      throw invalidRequest('One of the following params should be provided for this request: payment_intent or charge.', undefined, 'parameter_missing');
    }
    const remaining = (charge.amount_captured as number) - (charge.amount_refunded as number);
    if (remaining <= 0) throw invalidRequest(`Charge ${charge.id as string} has already been refunded.`, undefined, 'charge_already_refunded');
    const amount = (p.amount as number | undefined) ?? remaining;
    if (amount <= 0) throw invalidRequest('Invalid positive integer', 'amount', 'parameter_invalid_integer');
    if (amount > remaining) {
      throw invalidRequest(`Refund amount (€${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge (€${(remaining / 100).toFixed(2)})`, 'amount', 'amount_too_large');
    }
    const at = this.nowFor(charge.customer as string);
    const before = this.snapshot(charge);
    const refund = this.store.put({
      id: this.store.newId('re'), object: 'refund', amount, balance_transaction: null, charge: charge.id, created: at,
      currency: charge.currency, metadata: cleanMetadata(p.metadata), payment_intent: charge.payment_intent,
      reason: (p.reason as string | undefined) ?? null, status: 'succeeded',
    });
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = (charge.amount_refunded as number) >= (charge.amount_captured as number);
    this.store.save();
    this.emit('charge.refunded', charge, { prev: this.diff(before, charge), req, at });
    this.emit('refund.created', refund, { req, at });
    return refund;
  }

  /**
   * Creates a subscription, its first invoice and tries to pay it.
   * `first` lets the 0341 card pay this first invoice (checkout); via the API it does not.
   */
  createSubscriptionInternal(
    args: {
      customer: Obj;
      items: { price: unknown; quantity?: unknown; metadata?: unknown }[];
      metadata?: unknown;
      description?: unknown;
      trialDays?: unknown;
      trialEnd?: number | null;
      paymentMethod?: Obj;
      first: boolean;
      paymentBehavior?: string;
    },
    req: RequestInfo,
  ): { sub: Obj; invoice: Obj } {
    const customer = args.customer;
    const now = this.nowFor(customer.id as string);
    const prices = args.items.map((it, i) => {
      const price = this.require('price', 'price', it.price, `items[${i}][price]`);
      if (!price.active) throw invalidRequest('The price specified is inactive. This field only accepts active prices.', `items[${i}][price]`);
      return price;
    });
    this.checkItemPrices(prices, 'items');
    const id = this.store.newId('sub');
    let trialEnd: number | null = null;
    if (typeof args.trialDays === 'number' && args.trialDays > 0) trialEnd = now + args.trialDays * DAY;
    if (typeof args.trialEnd === 'number' && args.trialEnd > now) trialEnd = args.trialEnd;
    const sub: Obj = {
      id,
      object: 'subscription',
      application: null,
      application_fee_percent: null,
      automatic_tax: { enabled: false, liability: null },
      billing_cycle_anchor: trialEnd ?? now,
      billing_thresholds: null,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: 'charge_automatically',
      created: now,
      currency: prices[0]!.currency,
      current_period_end: 0,
      current_period_start: now,
      customer: customer.id,
      days_until_due: null,
      default_payment_method: args.paymentMethod?.id ?? null,
      default_source: null,
      default_tax_rates: [],
      description: args.description ?? null,
      discount: null,
      discounts: [],
      ended_at: null,
      items: null,
      latest_invoice: null,
      livemode: false,
      metadata: cleanMetadata(args.metadata),
      next_pending_invoice_item_invoice: null,
      on_behalf_of: null,
      pause_collection: null,
      payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
      pending_invoice_item_interval: null,
      pending_setup_intent: null,
      pending_update: null,
      plan: null,
      quantity: null,
      schedule: null,
      start_date: now,
      status: trialEnd ? 'trialing' : 'incomplete',
      test_clock: customer.test_clock ?? null,
      transfer_data: null,
      trial_end: trialEnd,
      trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
      trial_start: trialEnd ? now : null,
      _items: args.items.map((it, i) => ({
        id: this.store.newId('si'),
        price: prices[i]!.id,
        quantity: (it.quantity as number | undefined) ?? 1,
        metadata: cleanMetadata(it.metadata),
        created: now,
      })),
      _period_index: 0,
    };
    sub.current_period_end = trialEnd ?? this.periodEnd(sub, 0);
    this.store.put(sub);
    this.materialize(sub);
    const invoice = this.createInvoice(sub, 'subscription_create', now, sub.current_period_end as number, now, req);
    sub.latest_invoice = invoice.id;
    if (sub.status === 'trialing') {
      this.attemptInvoice(invoice, args.paymentMethod ?? this.paymentMethodFor(sub), now, args.first, req);
    } else if (args.paymentBehavior === 'default_incomplete') {
      // Left incomplete until the invoice is paid (POST /v1/invoices/:id/pay).
    } else {
      const paid = this.attemptInvoice(invoice, args.paymentMethod ?? this.paymentMethodFor(sub), now, args.first, req);
      if (paid) sub.status = 'active';
    }
    this.materialize(sub);
    this.store.save();
    this.emit('customer.subscription.created', sub, { req, at: now });
    return { sub, invoice };
  }

  /** POST /v1/subscriptions (API creation; the product itself uses checkout). */
  createSubscription(p: Params, req: RequestInfo): Obj {
    const customer = this.require('customer', 'customer', p.customer, 'customer');
    const items = (p.items as Obj[] | undefined) ?? [];
    if (items.length === 0) throw invalidRequest('Missing required param: items.', 'items', 'parameter_missing');
    const prices = items.map((it, i) => {
      if (!it.price) throw invalidRequest(`Missing required param: items[${i}][price].`, `items[${i}][price]`, 'parameter_missing');
      const price = this.require('price', 'price', it.price, `items[${i}][price]`);
      if (!price.active) throw invalidRequest('The price specified is inactive. This field only accepts active prices.', `items[${i}][price]`);
      return price;
    });
    this.checkItemPrices(prices, 'items');
    const paymentBehavior = (p.payment_behavior as string | undefined) ?? 'allow_incomplete';
    const attach = p.default_payment_method ? this.preparePaymentMethod(p.default_payment_method as string, customer.id as string, 'default_payment_method') : null;
    const trialEnd = p.trial_end === 'now' ? null : (p.trial_end as number | undefined);
    const hasTrial = (typeof p.trial_period_days === 'number' && p.trial_period_days > 0) || (typeof trialEnd === 'number' && trialEnd > this.nowFor(customer.id as string));
    if (paymentBehavior === 'error_if_incomplete' && !hasTrial) {
      // Stripe creates nothing when the first payment of such a subscription fails.
      const pmId = (p.default_payment_method as string | undefined) ?? (customer.invoice_settings?.default_payment_method as string | null);
      const behavior = pmId ? ((this.store.get(pmId)?._behavior as string | undefined) ?? cardBehavior(TEST_PAYMENT_METHODS[pmId] ?? '')) : null;
      if (behavior !== 'succeed') {
        const f = behavior ? FAILURES[behavior as keyof typeof FAILURES] : undefined;
        throw new StripeError(402, 'card_error', f?.message.en ?? 'The customer has no default payment method.', {
          code: f?.code ?? 'invoice_no_customer_payment_method',
          decline_code: f?.decline_code,
        });
      }
    }
    const pm = attach ? attach(customer) : undefined;
    const { sub } = this.createSubscriptionInternal(
      {
        customer,
        items: items as { price: unknown; quantity?: unknown; metadata?: unknown }[],
        metadata: p.metadata,
        description: p.description,
        trialDays: p.trial_period_days,
        trialEnd: trialEnd ?? null,
        paymentMethod: pm,
        first: false,
        paymentBehavior,
      },
      req,
    );
    return sub;
  }

  /** The subscription (404 when unknown). */
  getSubscription(id: string): Obj {
    return this.require('subscription', 'subscription', id);
  }

  /**
   * POST /v1/subscriptions/:id: items (by id: change price/quantity or delete; without id: add),
   * cancel_at_period_end, cancel_at, metadata, default_payment_method, trial_end=now. A price with
   * another interval restarts the period and bills it now; proration is ignored. Emits
   * customer.subscription.updated with previous_attributes.
   */
  updateSubscription(id: string, p: Params, req: RequestInfo): Obj {
    const sub = this.getSubscription(id);
    const at = this.nowFor(sub.customer as string);
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      const allowed = new Set(['metadata', 'cancellation_details', 'expand']);
      const bad = Object.keys(p).find((k) => !allowed.has(k));
      if (bad) throw invalidRequest('A canceled subscription can only update its cancellation_details and metadata.', bad);
    }
    // Checks that can fail come before any change.
    const attachPm =
      typeof p.default_payment_method === 'string' ? this.preparePaymentMethod(p.default_payment_method, sub.customer as string, 'default_payment_method') : null;
    if (typeof p.cancel_at === 'number' && p.cancel_at <= at) throw invalidRequest('cancel_at must be in the future.', 'cancel_at');
    const before = this.snapshot(sub);
    const oldInterval = this.subInterval(sub);
    if (p.items) {
      const next = (sub._items as Obj[]).map((x) => ({ ...x }));
      (p.items as Obj[]).forEach((it, i) => {
        if (it.id) {
          const idx = next.findIndex((x) => x.id === it.id);
          if (idx === -1) throw noSuch('subscription item', String(it.id), `items[${i}][id]`);
          if (it.deleted) {
            next.splice(idx, 1);
            return;
          }
          if (it.price) {
            const price = this.require('price', 'price', it.price, `items[${i}][price]`);
            if (!price.active) throw invalidRequest('The price specified is inactive. This field only accepts active prices.', `items[${i}][price]`);
            next[idx]!.price = price.id;
          }
          if (it.quantity !== undefined && it.quantity !== null) next[idx]!.quantity = it.quantity;
          if ('metadata' in it) next[idx]!.metadata = mergeMetadata(next[idx]!.metadata as Obj, it.metadata);
        } else {
          if (!it.price) throw invalidRequest(`Missing required param: items[${i}][price].`, `items[${i}][price]`, 'parameter_missing');
          const price = this.require('price', 'price', it.price, `items[${i}][price]`);
          if (next.some((x) => x.price === price.id)) {
            throw invalidRequest(`Cannot add multiple subscription items with the same price: ${price.id}. Pass items[${i}][id] to change an existing item.`, `items[${i}][price]`);
          }
          next.push({ id: this.store.newId('si'), price: price.id, quantity: it.quantity ?? 1, metadata: cleanMetadata(it.metadata), created: at });
        }
      });
      if (next.length === 0) throw invalidRequest('A subscription must have at least one active plan.', 'items');
      this.checkItemPrices(next.map((x) => this.store.get(x.price as string)!), 'items');
      sub._items = next;
    }
    if ('metadata' in p) sub.metadata = mergeMetadata(sub.metadata as Obj, p.metadata);
    if ('description' in p) sub.description = p.description ?? null;
    if (p.cancellation_details) {
      const cd = p.cancellation_details as Obj;
      sub.cancellation_details = { ...sub.cancellation_details, ...('comment' in cd ? { comment: cd.comment } : {}), ...('feedback' in cd ? { feedback: cd.feedback } : {}) };
    }
    if (p.default_payment_method === null) sub.default_payment_method = null;
    else if (attachPm) sub.default_payment_method = attachPm(this.store.get(sub.customer as string)!).id;
    if (p.cancel_at_period_end !== undefined && p.cancel_at_period_end !== null) {
      if (p.cancel_at_period_end) {
        sub.cancel_at_period_end = true;
        sub.cancel_at = sub.current_period_end;
        sub.canceled_at = at;
        sub.cancellation_details = { ...sub.cancellation_details, reason: 'cancellation_requested' };
      } else {
        sub.cancel_at_period_end = false;
        sub.cancel_at = null;
        sub.canceled_at = null;
        sub.cancellation_details = { ...sub.cancellation_details, reason: null };
      }
    }
    if ('cancel_at' in p && p.cancel_at_period_end === undefined) {
      if (p.cancel_at === null) {
        sub.cancel_at = null;
        sub.canceled_at = null;
        sub.cancel_at_period_end = false;
      } else {
        const t = p.cancel_at as number;
        sub.cancel_at = t;
        sub.canceled_at = at;
        sub.cancel_at_period_end = t === sub.current_period_end;
      }
    }
    if (p.trial_end === 'now' && sub.status === 'trialing') {
      sub.trial_end = at;
      sub.current_period_end = at;
    }
    // Price change with a different interval starts a new period now and bills it at once
    // (Stripe resets the billing cycle); same interval keeps the period. Proration is ignored.
    const newInterval = this.subInterval(sub);
    let billedNow = false;
    if (p.items && (newInterval.interval !== oldInterval.interval || newInterval.count !== oldInterval.count) && ['active', 'past_due', 'trialing'].includes(sub.status as string)) {
      sub.billing_cycle_anchor = at;
      sub._period_index = 0;
      sub.current_period_start = at;
      sub.current_period_end = this.periodEnd(sub, 0);
      if (sub.cancel_at_period_end) sub.cancel_at = sub.current_period_end;
      billedNow = true;
    }
    this.materialize(sub);
    if (billedNow) {
      const inv = this.createInvoice(sub, 'subscription_update', sub.current_period_start as number, sub.current_period_end as number, at, req);
      sub.latest_invoice = inv.id;
      const paid = this.attemptInvoice(inv, this.paymentMethodFor(sub), at, false, req);
      sub.status = paid ? 'active' : 'past_due';
    }
    if (sub.status === 'trialing' && (sub.trial_end as number) <= at) this.runDue();
    this.store.save();
    const prev = this.diff(before, sub);
    this.emit('customer.subscription.updated', sub, { prev, req, at });
    return sub;
  }

  /** DELETE /v1/subscriptions/:id: ends the subscription now (status canceled). */
  cancelSubscription(id: string, p: Params, req: RequestInfo): Obj {
    const sub = this.getSubscription(id);
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      throw invalidRequest(`This subscription has already been canceled: '${id}'.`, undefined, 'resource_missing');
    }
    const at = this.nowFor(sub.customer as string);
    const cd = (p.cancellation_details as Obj | undefined) ?? {};
    sub.status = 'canceled';
    sub.canceled_at = at;
    sub.ended_at = at;
    sub.cancel_at = null;
    sub.cancel_at_period_end = false;
    sub.cancellation_details = { comment: cd.comment ?? sub.cancellation_details?.comment ?? null, feedback: cd.feedback ?? sub.cancellation_details?.feedback ?? null, reason: 'cancellation_requested' };
    this.stopDunning(sub);
    this.store.save();
    this.emit('customer.subscription.deleted', sub, { req, at });
    return sub;
  }

  private stopDunning(sub: Obj): void {
    const inv = this.store.get(sub.latest_invoice as string);
    if (inv && inv.status === 'open') inv.next_payment_attempt = null;
  }

  /**
   * The next invoice of a subscription without creating it (POST /v1/invoices/create_preview and
   * the older GET /v1/invoices/upcoming): the coming period's charges, `billing_reason: 'upcoming'`.
   * Errors: 400 invoice_upcoming_none when nothing renews (canceled or cancel_at_period_end).
   */
  previewInvoice(p: Params): Obj {
    const customer = p.customer ? this.require('customer', 'customer', p.customer, 'customer') : null;
    const sub = p.subscription
      ? this.require('subscription', 'subscription', p.subscription, 'subscription')
      : this.store.all('subscription').find((x) => x.customer === customer?.id && !['canceled', 'incomplete_expired'].includes(x.status as string));
    if (!customer && !sub) throw invalidRequest('Missing required param: customer.', 'customer', 'parameter_missing');
    if (customer && sub && sub.customer !== customer.id) throw invalidRequest('The subscription does not belong to this customer.', 'subscription');
    const owner = customer ?? this.store.get(sub!.customer as string)!;
    if (!sub || ['canceled', 'incomplete_expired'].includes(sub.status as string) || sub.cancel_at_period_end || (sub.cancel_at && (sub.cancel_at as number) <= (sub.current_period_end as number))) {
      throw invalidRequest(`No upcoming invoices for customer: ${owner.id}`, undefined, 'invoice_upcoming_none');
    }
    const start = sub.current_period_end as number;
    const { interval, count } = this.subInterval(sub);
    const end = addInterval(start, interval, count);
    const lines = (sub._items as Obj[]).map((it) => {
      const price = this.store.get(it.price as string)!;
      const amount = (price.unit_amount as number) * (it.quantity as number);
      return {
        id: `il_tmp_${it.id as string}`,
        object: 'line_item',
        amount,
        currency: price.currency,
        description: `${it.quantity} × ${(this.store.get(price.product as string)?.name as string | undefined) ?? price.id}`,
        period: { start, end },
        price: this.store.render(price),
        proration: false,
        quantity: it.quantity,
        subscription: sub.id,
        subscription_item: it.id,
        type: 'subscription',
      };
    });
    const total = lines.reduce((a, l) => a + l.amount, 0);
    return {
      id: `upcoming_in_${(sub.id as string).slice(4)}`,
      object: 'invoice',
      amount_due: total,
      amount_paid: 0,
      amount_remaining: total,
      attempt_count: 0,
      attempted: false,
      billing_reason: 'upcoming',
      collection_method: 'charge_automatically',
      created: start,
      currency: sub.currency,
      customer: owner.id,
      customer_email: owner.email,
      lines: { object: 'list', data: lines, has_more: false, total_count: lines.length, url: '/v1/invoices/upcoming/lines' },
      livemode: false,
      metadata: {},
      next_payment_attempt: start,
      paid: false,
      period_end: start,
      period_start: sub.current_period_start,
      status: 'draft',
      subscription: sub.id,
      subtotal: total,
      test_clock: owner.test_clock ?? null,
      total,
    };
  }

  /** POST /v1/invoices/:id/pay: pays an open invoice now with the given or default card. */
  payInvoice(id: string, p: Params, req: RequestInfo): Obj {
    const inv = this.require('invoice', 'invoice', id);
    if (inv.status === 'paid') throw invalidRequest('Invoice is already paid', undefined, 'invoice_not_open');
    if (inv.status !== 'open') throw invalidRequest(`Invoice is ${inv.status}; only open invoices can be paid.`, undefined, 'invoice_not_open');
    const sub = this.store.get(inv.subscription as string);
    const customer = this.store.get(inv.customer as string)!;
    const pm = p.payment_method ? this.attachPaymentMethod(p.payment_method as string, customer, 'payment_method') : sub ? this.paymentMethodFor(sub) : undefined;
    const at = this.nowFor(customer.id as string);
    const paid = this.attemptInvoice(inv, pm, at, false, req);
    if (sub && sub.latest_invoice === inv.id && sub.status !== 'canceled') {
      const before = this.snapshot(sub);
      if (paid) sub.status = 'active';
      else if (sub.status === 'active') sub.status = 'past_due';
      this.store.save();
      const prev = this.diff(before, sub);
      if (Object.keys(prev).length) this.emit('customer.subscription.updated', sub, { prev, req, at });
    }
    if (!paid) {
      const f = inv._last_failure as Obj;
      throw new StripeError(402, 'card_error', f.message as string, { code: f.code as string, decline_code: f.decline_code as string | undefined });
    }
    return inv;
  }

  /**
   * Sets a new default card for a customer (billing portal): it becomes the customer's invoice
   * default and every live subscription's default; an open invoice of a past_due subscription is
   * retried at once with it.
   */
  replaceCard(customerId: string, card: CardInput, name: string, req: RequestInfo): { ok: true } | { ok: false; failure: keyof typeof FAILURES } {
    const behavior = cardBehavior(card.number);
    if (behavior !== 'succeed' && behavior !== 'fail_after_attach') return { ok: false, failure: behavior };
    const customer = this.require('customer', 'customer', customerId);
    const at = this.nowFor(customerId);
    const pm = this.createCardPaymentMethod(card, { name, email: customer.email as string | null }, at);
    this.attachPaymentMethod(pm.id as string, customer, 'payment_method');
    this.updateCustomer(customerId, { invoice_settings: { default_payment_method: pm.id } }, req);
    for (const sub of this.store.all('subscription').filter((s) => s.customer === customerId && !['canceled', 'incomplete_expired'].includes(s.status as string))) {
      const before = this.snapshot(sub);
      sub.default_payment_method = pm.id;
      const inv = this.store.get(sub.latest_invoice as string);
      if ((sub.status === 'past_due' || sub.status === 'incomplete') && inv && inv.status === 'open') {
        if (this.attemptInvoice(inv, pm, at, false, req)) sub.status = 'active';
      }
      this.store.save();
      this.emit('customer.subscription.updated', sub, { prev: this.diff(before, sub), req, at });
    }
    return { ok: true };
  }

  // ---------------------------------------------------------------- billing clock

  /** Next moment something happens to a subscription (unix s), or null. */
  private nextDue(sub: Obj): { at: number; kind: 'expire_incomplete' | 'cancel' | 'retry' | 'renew' } | null {
    const status = sub.status as string;
    if (status === 'incomplete') return { at: (sub.created as number) + INCOMPLETE_TTL, kind: 'expire_incomplete' };
    if (!['active', 'trialing', 'past_due'].includes(status)) return null;
    const candidates: { at: number; kind: 'cancel' | 'retry' | 'renew'; order: number }[] = [];
    if (sub.cancel_at) candidates.push({ at: sub.cancel_at as number, kind: 'cancel', order: 0 });
    const inv = this.store.get(sub.latest_invoice as string);
    if (status === 'past_due' && inv && inv.status === 'open' && inv.next_payment_attempt) {
      candidates.push({ at: inv.next_payment_attempt as number, kind: 'retry', order: 1 });
    }
    candidates.push({ at: sub.current_period_end as number, kind: 'renew', order: 2 });
    candidates.sort((a, b) => a.at - b.at || a.order - b.order);
    const c = candidates[0]!;
    return { at: c.at, kind: c.kind };
  }

  /**
   * Processes everything due up to each customer's "now", oldest first: cancellations at
   * period end (customer.subscription.deleted), renewals (new period, invoice paid or failed →
   * past_due), dunning retries, expiry of incomplete subscriptions and of checkout sessions.
   */
  runDue(): void {
    for (let guard = 0; guard < 5000; guard++) {
      let best: { sub: Obj; at: number; kind: string } | null = null;
      for (const sub of this.store.all('subscription')) {
        const d = this.nextDue(sub);
        if (!d || d.at > this.nowFor(sub.customer as string)) continue;
        if (!best || d.at < best.at) best = { sub, ...d };
      }
      if (!best) break;
      this.process(best.sub, best.kind, best.at);
    }
    for (const s of this.store.all('checkout.session')) this.expireIfDue(s);
  }

  private process(sub: Obj, kind: string, at: number): void {
    const before = this.snapshot(sub);
    if (kind === 'expire_incomplete') {
      sub.status = 'incomplete_expired';
      sub.ended_at = at;
      this.stopDunning(sub);
      const inv = this.store.get(sub.latest_invoice as string);
      if (inv && inv.status === 'open') {
        inv.status = 'void';
        inv.status_transitions.voided_at = at;
      }
      this.store.save();
      this.emit('customer.subscription.deleted', sub, { at });
      return;
    }
    if (kind === 'cancel') {
      sub.status = 'canceled';
      sub.ended_at = at;
      sub.canceled_at = sub.canceled_at ?? at;
      this.stopDunning(sub);
      this.store.save();
      this.emit('customer.subscription.deleted', sub, { at });
      return;
    }
    const pm = this.paymentMethodFor(sub);
    if (kind === 'retry') {
      const inv = this.store.get(sub.latest_invoice as string)!;
      const paid = this.attemptInvoice(inv, pm, at, false, AUTOMATIC);
      if (paid) {
        sub.status = 'active';
      } else if (inv.next_payment_attempt === null) {
        // Last retry failed: Stripe's "cancel the subscription" dunning setting.
        sub.status = 'canceled';
        sub.canceled_at = at;
        sub.ended_at = at;
        sub.cancellation_details = { ...sub.cancellation_details, reason: 'payment_failed' };
        this.store.save();
        this.emit('customer.subscription.deleted', sub, { at });
        return;
      }
      this.store.save();
      const prev = this.diff(before, sub);
      if (Object.keys(prev).length) this.emit('customer.subscription.updated', sub, { prev, at });
      return;
    }
    // renew
    this.stopDunning(sub);
    const wasTrial = sub.status === 'trialing';
    const start = sub.current_period_end as number;
    if (wasTrial) {
      sub.billing_cycle_anchor = start;
      sub._period_index = 0;
    } else {
      sub._period_index = (sub._period_index as number) + 1;
    }
    sub.current_period_start = start;
    sub.current_period_end = this.periodEnd(sub, sub._period_index as number);
    this.materialize(sub);
    const inv = this.createInvoice(sub, 'subscription_cycle', start, sub.current_period_end as number, at, AUTOMATIC);
    sub.latest_invoice = inv.id;
    const paid = this.attemptInvoice(inv, pm, at, false, AUTOMATIC);
    sub.status = paid ? 'active' : 'past_due';
    this.store.save();
    this.emit('customer.subscription.updated', sub, { prev: this.diff(before, sub), at });
  }

  // ---------------------------------------------------------------- test clocks

  /** POST /v1/test_helpers/test_clocks (`frozen_time` unix s). */
  createTestClock(p: Params): Obj {
    const now = this.store.now();
    const clock: Obj = {
      id: this.store.newId('clock'),
      object: 'test_helpers.test_clock',
      created: now,
      deletes_after: now + 30 * DAY,
      frozen_time: p.frozen_time,
      livemode: false,
      name: p.name ?? null,
      status: 'ready',
      status_details: {},
    };
    return this.store.put(clock);
  }

  /** Moves a test clock forward and runs everything that falls due for its customers. */
  advanceTestClock(id: string, p: Params): Obj {
    const clock = this.require('test clock', 'test_helpers.test_clock', id);
    const t = p.frozen_time as number;
    if (t <= (clock.frozen_time as number)) {
      throw invalidRequest('The frozen_time must be after the current frozen_time of the test clock.', 'frozen_time');
    }
    clock.frozen_time = t;
    this.runDue();
    this.store.save();
    return clock;
  }

  /** DELETE /v1/test_helpers/test_clocks/:id: removes the clock with its customers and subscriptions (no events). */
  deleteTestClock(id: string): Obj {
    const clock = this.require('test clock', 'test_helpers.test_clock', id);
    for (const c of this.store.all('customer').filter((x) => x.test_clock === id)) {
      for (const s of this.store.all('subscription').filter((x) => x.customer === c.id)) delete this.store.state.objects[s.id as string];
      this.store.state.objects[c.id as string] = { id: c.id, object: 'customer', deleted: true, _seq: c._seq };
    }
    this.store.state.objects[id] = { id, object: clock.object, deleted: true, _seq: clock._seq };
    this.store.save();
    return this.store.state.objects[id]!;
  }

  // ---------------------------------------------------------------- billing portal

  /**
   * POST /v1/billing_portal/sessions: `url` points at the sandbox's portal page for the customer.
   * `configuration` (a `bpc_` id) decides what the page offers; without it the account's default
   * configuration. Errors: 404 unknown customer or configuration; 400 inactive configuration.
   */
  createPortalSession(p: Params): Obj {
    const customer = this.require('customer', 'customer', p.customer, 'customer');
    if (p.return_url !== undefined && p.return_url !== null && !isValidUrl(p.return_url)) throw invalidRequest('Not a valid URL', 'return_url', 'url_invalid');
    const configuration = p.configuration
      ? this.require('configuration', 'billing_portal.configuration', p.configuration, 'configuration')
      : this.defaultPortalConfiguration();
    if (!configuration.active) throw invalidRequest(`The configuration '${configuration.id as string}' is not active.`, 'configuration');
    const id = this.store.newId('bps');
    const s: Obj = {
      id,
      object: 'billing_portal.session',
      configuration: configuration.id,
      created: this.store.now(),
      customer: customer.id,
      flow: null,
      livemode: false,
      locale: p.locale ?? null,
      on_behalf_of: null,
      return_url: p.return_url ?? null,
      url: `${this.opts.baseUrl}/billing_portal/${id}`,
    };
    return this.store.put(s);
  }

  // ---------------------------------------------------------------- billing portal configurations

  /**
   * The account's default portal configuration (`is_default: true`), created on first use with the
   * settings a new Stripe account's portal starts with: invoice history, card update and
   * cancellation at period end; no plan switching (Stripe offers switches only for the products
   * a configuration lists).
   */
  defaultPortalConfiguration(): Obj {
    const existing = this.store.all('billing_portal.configuration').find((c) => c.is_default);
    if (existing) return existing;
    return this.createPortalConfiguration(
      {
        features: {
          invoice_history: { enabled: true },
          payment_method_update: { enabled: true },
          subscription_cancel: { enabled: true, mode: 'at_period_end' },
        },
      },
      true,
    );
  }

  /** Checks the products and prices a `subscription_update` lists (Stripe: each price must be a recurring price of its product). */
  private checkPortalProducts(products: unknown): Obj[] {
    if (!Array.isArray(products)) return [];
    return (products as Obj[]).map((entry, i) => {
      const product = this.require('product', 'product', entry.product, `features[subscription_update][products][${i}][product]`);
      const prices = (entry.prices as string[] | undefined) ?? [];
      prices.forEach((priceId, j) => {
        const price = this.require('price', 'price', priceId, `features[subscription_update][products][${i}][prices][${j}]`);
        if (price.product !== product.id) {
          throw invalidRequest(`The price ${priceId} does not belong to the product ${product.id as string}.`, `features[subscription_update][products][${i}][prices][${j}]`);
        }
        if (!price.recurring) throw invalidRequest(`The price ${priceId} is not a recurring price.`, `features[subscription_update][products][${i}][prices][${j}]`);
      });
      const q = (entry.adjustable_quantity as Obj | undefined) ?? {};
      return {
        adjustable_quantity: { enabled: Boolean(q.enabled), maximum: (q.maximum as number | undefined) ?? null, minimum: (q.minimum as number | undefined) ?? 1 },
        prices,
        product: product.id,
      };
    });
  }

  /** The full `features` object of a configuration: `update` merged over `current` (Stripe's defaults where neither says). */
  private portalFeatures(current: Obj | null, update: Obj | undefined): Obj {
    const base: Obj = current ?? {
      customer_update: { allowed_updates: [], enabled: false },
      invoice_history: { enabled: false },
      payment_method_update: { enabled: false, payment_method_configuration: null },
      subscription_cancel: {
        cancellation_reason: { enabled: false, feedback_options: null, options: [] },
        enabled: false,
        mode: 'at_period_end',
        proration_behavior: 'none',
      },
      subscription_pause: { enabled: false },
      subscription_update: {
        billing_cycle_anchor: null,
        default_allowed_updates: [],
        enabled: false,
        products: [],
        proration_behavior: 'none',
        schedule_at_period_end: { conditions: [] },
        trial_update_behavior: 'end_trial',
      },
    };
    const out = structuredClone(base);
    for (const [feature, value] of Object.entries(update ?? {})) {
      if (value === null || value === undefined) continue;
      const merged: Obj = { ...(out[feature] as Obj) };
      for (const [k, v] of Object.entries(value as Obj)) {
        if (v === undefined) continue;
        if (feature === 'subscription_update' && k === 'products') merged.products = this.checkPortalProducts(v);
        else if (v !== null && typeof v === 'object' && !Array.isArray(v)) merged[k] = { ...((merged[k] as Obj | null) ?? {}), ...(v as Obj) };
        else merged[k] = v ?? (Array.isArray(merged[k]) ? [] : null);
      }
      out[feature] = merged;
    }
    return out;
  }

  /**
   * POST /v1/billing_portal/configurations (`features` required; business_profile,
   * default_return_url, login_page, metadata, name). `isDefault` only for the account default.
   * Errors: 404 unknown product or price in `subscription_update.products`; 400 a price of another
   * product or a one-time price.
   */
  createPortalConfiguration(p: Params, isDefault = false): Obj {
    if (p.default_return_url !== undefined && p.default_return_url !== null && !isValidUrl(p.default_return_url)) {
      throw invalidRequest('Not a valid URL', 'default_return_url', 'url_invalid');
    }
    const now = this.store.now();
    const bp = (p.business_profile as Obj | undefined) ?? {};
    const c: Obj = {
      id: this.store.newId('bpc'),
      object: 'billing_portal.configuration',
      active: true,
      application: null,
      business_profile: { headline: bp.headline ?? null, privacy_policy_url: bp.privacy_policy_url ?? null, terms_of_service_url: bp.terms_of_service_url ?? null },
      created: now,
      default_return_url: p.default_return_url ?? null,
      features: this.portalFeatures(null, p.features as Obj | undefined),
      is_default: isDefault,
      livemode: false,
      login_page: { enabled: Boolean((p.login_page as Obj | undefined)?.enabled), url: null },
      metadata: cleanMetadata(p.metadata),
      name: p.name ?? null,
      updated: now,
    };
    return this.store.put(c);
  }

  /**
   * POST /v1/billing_portal/configurations/:id: merges the given fields (nested `features` fields
   * one by one, lists replaced). Errors: 404 unknown configuration; 400 deactivating the default.
   */
  updatePortalConfiguration(id: string, p: Params): Obj {
    const c = this.require('configuration', 'billing_portal.configuration', id);
    if (p.active === false && c.is_default) throw invalidRequest('You cannot deactivate the default configuration.', 'active');
    if (p.default_return_url !== undefined && p.default_return_url !== null && !isValidUrl(p.default_return_url)) {
      throw invalidRequest('Not a valid URL', 'default_return_url', 'url_invalid');
    }
    const features = p.features ? this.portalFeatures(c.features as Obj, p.features as Obj) : null;
    if (features) c.features = features;
    if (typeof p.active === 'boolean') c.active = p.active;
    if (p.business_profile) c.business_profile = { ...(c.business_profile as Obj), ...(p.business_profile as Obj) };
    if ('default_return_url' in p) c.default_return_url = p.default_return_url ?? null;
    if (p.login_page) c.login_page = { enabled: Boolean((p.login_page as Obj).enabled), url: null };
    if ('metadata' in p) c.metadata = mergeMetadata(c.metadata as Obj, p.metadata);
    if ('name' in p) c.name = p.name ?? null;
    c.updated = this.store.now();
    this.store.save();
    return c;
  }

  /**
   * What a portal session's configuration allows for `sub` (the hosted page follows it): the
   * prices the subscription may switch to (Stripe: only a one-item subscription whose product the
   * configuration lists, to the prices listed there, same currency), and whether cancelling,
   * the card update and the invoice history are shown.
   */
  portalOptions(
    session: Obj,
    sub: Obj | null,
  ): { prices: Obj[]; cancel: false | 'at_period_end' | 'immediately'; card: boolean; invoices: boolean } {
    const cfg = this.store.get(session.configuration as string) ?? this.defaultPortalConfiguration();
    const f = cfg.features as Obj;
    const update = f.subscription_update as Obj;
    let prices: Obj[] = [];
    const items = (sub?.items?.data as Obj[] | undefined) ?? [];
    if (sub && update.enabled && items.length === 1) {
      const current = items[0]!.price as Obj;
      const entries = (update.products as Obj[] | null) ?? [];
      if (entries.some((e) => e.product === current.product)) {
        prices = entries
          .flatMap((e) => e.prices as string[])
          .map((pid) => this.store.get(pid))
          .filter((x): x is Obj => Boolean(x && x.active && x.recurring && x.currency === current.currency));
        if (!prices.some((x) => x.id === current.id)) prices.unshift(current);
      }
    }
    return {
      prices,
      // the portal offers the configured cancellation mode only (Stripe API reference, customer
      // portal configuration: features.subscription_cancel.mode, "immediately" or "at_period_end")
      cancel: (f.subscription_cancel as Obj).enabled ? ((f.subscription_cancel as Obj).mode === 'immediately' ? 'immediately' : 'at_period_end') : false,
      card: Boolean((f.payment_method_update as Obj).enabled),
      invoices: Boolean((f.invoice_history as Obj).enabled),
    };
  }

  // ---------------------------------------------------------------- webhook endpoints

  /** POST /v1/webhook_endpoints (`url`, `enabled_events`, `*` = all). Every endpoint signs with `secret`. */
  createWebhookEndpoint(p: Params, secret: string, fixedId?: string): Obj {
    if (!isValidUrl(p.url)) throw invalidRequest('Invalid URL: URL must be publicly accessible or use http(s)://', 'url', 'url_invalid');
    const events = (p.enabled_events as string[] | undefined) ?? [];
    if (events.length === 0) throw invalidRequest('Missing required param: enabled_events.', 'enabled_events', 'parameter_missing');
    const ep: Obj = {
      id: fixedId ?? this.store.newId('we'),
      object: 'webhook_endpoint',
      api_version: p.api_version ?? null,
      application: null,
      created: this.store.now(),
      description: p.description ?? null,
      enabled_events: events,
      livemode: false,
      metadata: cleanMetadata(p.metadata),
      secret,
      status: p.disabled ? 'disabled' : 'enabled',
      url: p.url,
    };
    return this.store.put(ep);
  }

  /** POST /v1/webhook_endpoints/:id (url, enabled_events, description, metadata, disabled). */
  updateWebhookEndpoint(id: string, p: Params): Obj {
    const ep = this.require('webhook endpoint', 'webhook_endpoint', id);
    if ('url' in p) {
      if (!isValidUrl(p.url)) throw invalidRequest('Invalid URL: URL must be publicly accessible or use http(s)://', 'url', 'url_invalid');
      ep.url = p.url;
    }
    if (p.enabled_events) ep.enabled_events = p.enabled_events;
    if ('description' in p) ep.description = p.description ?? null;
    if ('metadata' in p) ep.metadata = mergeMetadata(ep.metadata as Obj, p.metadata);
    if (p.disabled !== undefined && p.disabled !== null) ep.status = p.disabled ? 'disabled' : 'enabled';
    this.store.save();
    return ep;
  }

  /** Re-delivers an event (sandbox-specific resend) to all matching endpoints or one endpoint. */
  resendEvent(id: string, endpointId: string | undefined): Obj {
    const ev = this.require('event', 'event', id);
    let endpoints: Obj[];
    if (endpointId) endpoints = [this.require('webhook endpoint', 'webhook_endpoint', endpointId, 'webhook_endpoint')];
    else endpoints = this.store.all('webhook_endpoint').filter((ep) => WebhookDispatcher.matches(ep, ev.type as string));
    this.dispatcher.enqueue(ev, endpoints);
    return ev;
  }
}

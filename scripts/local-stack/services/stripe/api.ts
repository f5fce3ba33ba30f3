/**
 * The `/v1` route table: parameter schemas per endpoint, lists with Stripe's cursor pagination,
 * search, and `expand[]`.
 */
import { invalidRequest, noSuch, unrecognizedUrl, unsupportedParam } from './errors.ts';
import { ADDRESS, LIST_PARAMS, RECURRING, SEARCH_PARAMS, validate, type Spec } from './params.ts';
import { matches, parseQuery } from './search.ts';
import { CHECKOUT_LOCALES, type Engine, type RequestInfo } from './engine.ts';
import type { Obj } from './store.ts';

type Params = Record<string, unknown>;

export interface ApiContext {
  engine: Engine;
  params: Params;
  match: string[];
  req: RequestInfo;
  webhookSecret: string;
}

interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: RegExp;
  fields: Record<string, Spec>;
  required?: readonly string[];
  handler: (c: ApiContext) => Obj;
}

/**
 * Real Stripe parameters the sandbox does not implement, per path prefix: rejected with a message
 * that says so, instead of pretending they are unknown to Stripe.
 */
const UNSUPPORTED: [RegExp, readonly string[]][] = [
  [
    /^\/v1\/checkout\/sessions$/,
    ['adaptive_pricing', 'after_expiration', 'currency', 'custom_fields', 'discounts', 'invoice_creation', 'optional_items', 'payment_method_configuration',
      'payment_method_data', 'payment_method_options', 'permissions', 'redirect_on_completion', 'return_url', 'saved_payment_method_options', 'setup_intent_data',
      'shipping_address_collection', 'shipping_options', 'submit_type', 'wallet_options'],
  ],
  [/^\/v1\/customers(\/[^/]+)?$/, ['cash_balance', 'coupon', 'invoice_prefix', 'next_invoice_sequence', 'promotion_code', 'source', 'tax', 'tax_id_data', 'default_source']],
  [
    /^\/v1\/subscriptions(\/[^/]+)?$/,
    ['add_invoice_items', 'application_fee_percent', 'automatic_tax', 'backdate_start_date', 'billing_cycle_anchor_config', 'billing_thresholds', 'coupon', 'days_until_due',
      'default_source', 'default_tax_rates', 'discounts', 'invoice_settings', 'on_behalf_of', 'pause_collection', 'pending_invoice_item_interval', 'promotion_code',
      'transfer_data', 'trial_from_plan', 'trial_settings'],
  ],
  [/^\/v1\/prices$/, ['currency_options', 'custom_unit_amount', 'tiers', 'tiers_mode', 'transform_quantity']],
];

/** Parameters of a billing portal configuration (create and update; Stripe API 2023-10-16 shapes). */
const PORTAL_CONFIGURATION_FIELDS: Record<string, Spec> = {
  business_profile: { object: { headline: 'string', privacy_policy_url: 'string', terms_of_service_url: 'string' } },
  default_return_url: 'string',
  login_page: { object: { enabled: 'boolean' }, required: ['enabled'] },
  metadata: 'map',
  name: 'string',
  features: {
    object: {
      customer_update: {
        object: { allowed_updates: { array: { enum: ['address', 'email', 'name', 'phone', 'shipping', 'tax_id'] } }, enabled: 'boolean' },
        required: ['enabled'],
      },
      invoice_history: { object: { enabled: 'boolean' }, required: ['enabled'] },
      payment_method_update: { object: { enabled: 'boolean', payment_method_configuration: 'string' }, required: ['enabled'] },
      subscription_cancel: {
        object: {
          cancellation_reason: { object: { enabled: 'boolean', options: { array: 'string' }, feedback_options: { array: 'string' } }, required: ['enabled', 'options'] },
          enabled: 'boolean',
          mode: { enum: ['at_period_end', 'immediately'] },
          proration_behavior: { enum: ['always_invoice', 'create_prorations', 'none'] },
        },
        required: ['enabled'],
      },
      subscription_pause: { object: { enabled: 'boolean', duration: 'unsupported' } },
      subscription_update: {
        object: {
          billing_cycle_anchor: { enum: ['now', 'unchanged'] },
          default_allowed_updates: { array: { enum: ['price', 'promotion_code', 'quantity'] } },
          enabled: 'boolean',
          products: {
            array: {
              object: {
                product: 'string',
                prices: { array: 'string' },
                adjustable_quantity: { object: { enabled: 'boolean', maximum: 'integer', minimum: 'integer' }, required: ['enabled'] },
              },
              required: ['product', 'prices'],
            },
          },
          proration_behavior: { enum: ['always_invoice', 'create_prorations', 'none'] },
          schedule_at_period_end: 'unsupported',
          trial_update_behavior: { enum: ['continue_trial', 'end_trial'] },
        },
        required: ['enabled'],
      },
    },
  },
};

const ID = '([A-Za-z0-9_]+)';
const r = (method: Route['method'], path: string, fields: Record<string, Spec>, handler: Route['handler'], required?: readonly string[]): Route => ({
  method,
  pattern: new RegExp(`^${path.replace(/:id/g, ID)}$`),
  fields,
  handler,
  required,
});

// ------------------------------------------------------------------ lists, search, expand

function createdFilter(value: unknown, actual: number): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'number') return actual === value;
  const f = value as { gt?: number; gte?: number; lt?: number; lte?: number };
  return (
    (f.gt === undefined || f.gt === null || actual > f.gt) &&
    (f.gte === undefined || f.gte === null || actual >= f.gte) &&
    (f.lt === undefined || f.lt === null || actual < f.lt) &&
    (f.lte === undefined || f.lte === null || actual <= f.lte)
  );
}

/**
 * A Stripe list `{object:'list', data, has_more, url}` of `items` (newest first) with `limit`
 * (1–100, default 10), `starting_after`/`ending_before` cursors and the `created` filter.
 */
function list(engine: Engine, url: string, items: Obj[], p: Params): Obj {
  const limit = (p.limit as number | undefined | null) ?? 10;
  if (limit < 1 || limit > 100) throw invalidRequest('This value must be between 1 and 100 (inclusive).', 'limit', 'parameter_invalid_integer');
  let rows = items.filter((o) => createdFilter(p.created, o.created as number));
  let hasMore: boolean;
  // Cursors work by position in the global order (`_seq`), so a cursor object filtered out of
  // this list still pages correctly, as on Stripe.
  const cursorSeq = (id: unknown, param: string): number => {
    const o = rows.find((r) => r.id === id) ?? engine.store.get(id as string);
    if (!o || typeof o._seq !== 'number') throw noSuch('object', String(id), param);
    return o._seq;
  };
  if (p.starting_after) {
    const seq = cursorSeq(p.starting_after, 'starting_after');
    rows = rows.filter((o) => (o._seq as number) < seq);
    hasMore = rows.length > limit;
    rows = rows.slice(0, limit);
  } else if (p.ending_before) {
    const seq = cursorSeq(p.ending_before, 'ending_before');
    rows = rows.filter((o) => (o._seq as number) > seq);
    hasMore = rows.length > limit;
    rows = rows.slice(Math.max(0, rows.length - limit));
  } else {
    hasMore = rows.length > limit;
    rows = rows.slice(0, limit);
  }
  return { object: 'list', data: rows.map((o) => engine.store.render(o)), has_more: hasMore, url };
}

/** Search results `{object:'search_result', data, has_more, next_page, url}`; `page` is an offset cursor. */
function search(engine: Engine, type: string, resource: string, fields: readonly string[], p: Params): Obj {
  const q = parseQuery(String(p.query ?? ''), resource, fields);
  const limit = (p.limit as number | undefined | null) ?? 10;
  if (limit < 1 || limit > 100) throw invalidRequest('This value must be between 1 and 100 (inclusive).', 'limit', 'parameter_invalid_integer');
  const offset = p.page ? Number.parseInt(Buffer.from(String(p.page), 'base64url').toString('utf8'), 10) || 0 : 0;
  // Prices and products made inline from checkout `price_data` are not part of the catalog.
  const all = engine.store.all(type).filter((o) => !o._inline && matches(q, o));
  const rows = all.slice(offset, offset + limit);
  const hasMore = all.length > offset + limit;
  return {
    object: 'search_result',
    data: rows.map((o) => engine.store.render(o)),
    has_more: hasMore,
    next_page: hasMore ? Buffer.from(String(offset + limit)).toString('base64url') : null,
    total_count: all.length,
    url: `/v1/${resource}/search`,
  };
}

/** Replaces ids on the given dotted paths by the objects (max 4 levels, Stripe's limit). */
export function expand(engine: Engine, root: Obj, paths: string[]): void {
  for (const path of paths) {
    const segs = path.split('.');
    if (segs.length > 4) throw invalidRequest(`You cannot expand more than 4 levels of a property. Property: ${path}`, 'expand');
    walk(engine, root, segs, path);
  }
}

function walk(engine: Engine, node: unknown, segs: string[], full: string): void {
  if (segs.length === 0 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) walk(engine, n, segs, full);
    return;
  }
  const o = node as Obj;
  const [seg, ...rest] = segs as [string, ...string[]];
  if ((o.object === 'list' || o.object === 'search_result') && seg === 'data') {
    walk(engine, o.data, rest, full);
    return;
  }
  if (o.object === 'checkout.session' && seg === 'line_items' && !o.line_items) {
    const s = engine.store.get(o.id as string);
    if (s) o.line_items = engine.sessionLineItems(s);
  }
  if (!(seg in o)) throw invalidRequest(`This property cannot be expanded (${full}).`, 'expand');
  let v = o[seg];
  if (typeof v === 'string') {
    const target = engine.store.get(v);
    if (!target) throw invalidRequest(`This property cannot be expanded (${full}).`, 'expand');
    v = target.deleted ? { id: target.id, object: target.object, deleted: true } : engine.store.render(target);
    o[seg] = v;
  }
  walk(engine, v, rest, full);
}

// ------------------------------------------------------------------ schemas

const METADATA: Spec = 'map';
const CUSTOMER_FIELDS: Record<string, Spec> = {
  address: ADDRESS,
  description: 'string',
  email: 'string',
  invoice_settings: {
    object: { default_payment_method: 'string', custom_fields: 'any', footer: 'string', rendering_options: 'any' },
  },
  metadata: METADATA,
  name: 'string',
  phone: 'string',
  preferred_locales: { array: 'string' },
  shipping: 'any',
  tax_exempt: { enum: ['none', 'exempt', 'reverse'] },
};
const PRODUCT_FIELDS: Record<string, Spec> = {
  active: 'boolean',
  description: 'string',
  images: { array: 'string' },
  metadata: METADATA,
  name: 'string',
  statement_descriptor: 'string',
  tax_code: 'string',
  unit_label: 'string',
  url: 'string',
  shippable: 'boolean',
  marketing_features: 'any',
};
const PRICE_DATA: Spec = {
  object: { currency: 'string', unit_amount: 'integer', unit_amount_decimal: 'string', recurring: RECURRING, tax_behavior: { enum: ['inclusive', 'exclusive', 'unspecified'] } },
  required: ['currency'],
};
/** `line_items[n][price_data]` of a checkout session (payment mode; a new inactive price and product). */
const CHECKOUT_PRICE_DATA: Spec = {
  object: {
    currency: 'string',
    product: 'string',
    product_data: {
      object: { name: 'string', description: 'string', images: { array: 'string' }, metadata: METADATA, tax_code: 'string' },
      required: ['name'],
    },
    recurring: RECURRING,
    tax_behavior: { enum: ['inclusive', 'exclusive', 'unspecified'] },
    unit_amount: 'integer',
    unit_amount_decimal: 'string',
  },
  required: ['currency'],
};
const CHECKOUT_LINE_ITEM: Spec = {
  object: {
    price: 'string',
    price_data: CHECKOUT_PRICE_DATA,
    quantity: 'integer',
    adjustable_quantity: 'unsupported',
    dynamic_tax_rates: 'unsupported',
    tax_rates: 'unsupported',
  },
};
/** `payment_intent_data` of a checkout session in payment mode (copied onto the payment intent). */
const CHECKOUT_PAYMENT_INTENT_DATA: Spec = {
  object: {
    description: 'string',
    metadata: METADATA,
    receipt_email: 'string',
    statement_descriptor: 'string',
    statement_descriptor_suffix: 'string',
    application_fee_amount: 'unsupported',
    capture_method: 'unsupported',
    on_behalf_of: 'unsupported',
    setup_future_usage: 'unsupported',
    shipping: 'unsupported',
    transfer_data: 'unsupported',
    transfer_group: 'unsupported',
  },
};
const SUB_ITEM: Spec = {
  object: { id: 'string', price: 'string', quantity: 'integer', metadata: METADATA, deleted: 'boolean', clear_usage: 'boolean' },
};
const CANCELLATION_DETAILS: Spec = {
  object: {
    comment: 'string',
    feedback: { enum: ['customer_service', 'low_quality', 'missing_features', 'other', 'switched_service', 'too_complex', 'too_expensive', 'unused'] },
  },
};
const SUB_STATUS = ['active', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'trialing', 'paused', 'all', 'ended'] as const;
const RANGE = LIST_PARAMS.created!;

function emailCheck(p: Params): void {
  if (typeof p.email === 'string' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(p.email)) {
    throw invalidRequest(`Invalid email address: ${p.email}`, 'email', 'email_invalid');
  }
}

function matchType(pattern: string, type: string): boolean {
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

// ------------------------------------------------------------------ routes

const ROUTES: Route[] = [
  // customers
  r('POST', '/v1/customers', { ...CUSTOMER_FIELDS, payment_method: 'string', test_clock: 'string', balance: 'integer' }, ({ engine, params, req }) => {
    emailCheck(params);
    return engine.createCustomer(params, req);
  }),
  r('GET', '/v1/customers', { ...LIST_PARAMS, email: 'string', test_clock: 'string' }, ({ engine, params }) => {
    let rows = engine.store.all('customer');
    if (params.email) rows = rows.filter((c) => c.email === params.email);
    if (params.test_clock) rows = rows.filter((c) => c.test_clock === params.test_clock);
    return list(engine, '/v1/customers', rows, params);
  }),
  r('GET', '/v1/customers/search', SEARCH_PARAMS, ({ engine, params }) => search(engine, 'customer', 'customers', ['email', 'name', 'phone', 'metadata', 'created'], params), ['query']),
  r('GET', '/v1/customers/:id', {}, ({ engine, match }) => {
    const c = engine.store.get(match[0]);
    if (!c || c.object !== 'customer') throw noSuch('customer', match[0]!);
    return c.deleted ? { id: c.id, object: 'customer', deleted: true } : c;
  }),
  r('POST', '/v1/customers/:id', CUSTOMER_FIELDS, ({ engine, params, match, req }) => {
    emailCheck(params);
    return engine.updateCustomer(match[0]!, params, req);
  }),
  r('DELETE', '/v1/customers/:id', {}, ({ engine, match, req }) => engine.deleteCustomer(match[0]!, req)),
  r('GET', '/v1/customers/:id/payment_methods', { ...LIST_PARAMS, type: 'string' }, ({ engine, params, match }) => {
    engine.require('customer', 'customer', match[0]);
    const rows = engine.store.all('payment_method').filter((pm) => pm.customer === match[0] && (!params.type || pm.type === params.type));
    return list(engine, `/v1/customers/${match[0]}/payment_methods`, rows, params);
  }),
  r('GET', '/v1/payment_methods', { ...LIST_PARAMS, customer: 'string', type: 'string' }, ({ engine, params }) => {
    if (params.customer) engine.require('customer', 'customer', params.customer, 'customer');
    const rows = engine.store.all('payment_method').filter((pm) => (!params.customer || pm.customer === params.customer) && (!params.type || pm.type === params.type));
    return list(engine, '/v1/payment_methods', rows, params);
  }),
  r('GET', '/v1/payment_methods/:id', {}, ({ engine, match }) => engine.require('PaymentMethod', 'payment_method', match[0])),
  r('POST', '/v1/payment_methods/:id/attach', { customer: 'string' }, ({ engine, params, match }) => {
    const customer = engine.require('customer', 'customer', params.customer, 'customer');
    return engine.attachPaymentMethod(match[0]!, customer, 'payment_method');
  }, ['customer']),
  r('POST', '/v1/payment_methods/:id/detach', {}, ({ engine, match, req }) => engine.detachPaymentMethod(match[0]!, req)),

  // products
  r('POST', '/v1/products', { ...PRODUCT_FIELDS, id: 'string', default_price_data: PRICE_DATA }, ({ engine, params, req }) => engine.createProduct(params, req), ['name']),
  r('GET', '/v1/products', { ...LIST_PARAMS, active: 'boolean', ids: { array: 'string' }, url: 'string', shippable: 'boolean' }, ({ engine, params }) => {
    let rows = engine.store.all('product').filter((x) => !x._inline);
    if (typeof params.active === 'boolean') rows = rows.filter((x) => x.active === params.active);
    if (Array.isArray(params.ids) && params.ids.length) rows = rows.filter((x) => (params.ids as string[]).includes(x.id as string));
    if (params.url) rows = rows.filter((x) => x.url === params.url);
    return list(engine, '/v1/products', rows, params);
  }),
  r('GET', '/v1/products/search', SEARCH_PARAMS, ({ engine, params }) => search(engine, 'product', 'products', ['active', 'name', 'description', 'metadata', 'url', 'shippable', 'created'], params), ['query']),
  r('GET', '/v1/products/:id', {}, ({ engine, match }) => engine.require('product', 'product', match[0])),
  r('POST', '/v1/products/:id', { ...PRODUCT_FIELDS, default_price: 'string' }, ({ engine, params, match, req }) => engine.updateProduct(match[0]!, params, req)),
  r('DELETE', '/v1/products/:id', {}, ({ engine, match, req }) => engine.deleteProduct(match[0]!, req)),

  // prices
  r(
    'POST',
    '/v1/prices',
    {
      active: 'boolean',
      billing_scheme: { enum: ['per_unit'] },
      currency: 'string',
      lookup_key: 'string',
      metadata: METADATA,
      nickname: 'string',
      product: 'string',
      product_data: { object: { name: 'string', id: 'string', active: 'boolean', metadata: METADATA, statement_descriptor: 'string', tax_code: 'string', unit_label: 'string' }, required: ['name'] },
      recurring: RECURRING,
      tax_behavior: { enum: ['inclusive', 'exclusive', 'unspecified'] },
      transfer_lookup_key: 'boolean',
      unit_amount: 'integer',
      unit_amount_decimal: 'string',
    },
    ({ engine, params, req }) => engine.createPrice(params, req),
    ['currency'],
  ),
  r(
    'GET',
    '/v1/prices',
    {
      ...LIST_PARAMS,
      active: 'boolean',
      currency: 'string',
      lookup_keys: { array: 'string' },
      product: 'string',
      type: { enum: ['one_time', 'recurring'] },
      recurring: { object: { interval: { enum: ['day', 'week', 'month', 'year'] }, usage_type: { enum: ['licensed', 'metered'] }, meter: 'string' } },
    },
    ({ engine, params }) => {
      let rows = engine.store.all('price').filter((x) => !x._inline);
      if (typeof params.active === 'boolean') rows = rows.filter((x) => x.active === params.active);
      if (params.product) rows = rows.filter((x) => x.product === params.product);
      if (params.currency) rows = rows.filter((x) => x.currency === String(params.currency).toLowerCase());
      if (params.type) rows = rows.filter((x) => x.type === params.type);
      if (Array.isArray(params.lookup_keys) && params.lookup_keys.length) {
        if (params.lookup_keys.length > 10) throw invalidRequest('You may pass at most 10 lookup_keys.', 'lookup_keys');
        rows = rows.filter((x) => (params.lookup_keys as string[]).includes(x.lookup_key as string));
      }
      const rec = params.recurring as Obj | undefined;
      if (rec?.interval) rows = rows.filter((x) => x.recurring?.interval === rec.interval);
      if (rec?.usage_type) rows = rows.filter((x) => x.recurring?.usage_type === rec.usage_type);
      return list(engine, '/v1/prices', rows, params);
    },
  ),
  r('GET', '/v1/prices/search', SEARCH_PARAMS, ({ engine, params }) => search(engine, 'price', 'prices', ['active', 'currency', 'lookup_key', 'product', 'type', 'metadata', 'created'], params), ['query']),
  r('GET', '/v1/prices/:id', {}, ({ engine, match }) => engine.require('price', 'price', match[0])),
  r(
    'POST',
    '/v1/prices/:id',
    { active: 'boolean', lookup_key: 'string', metadata: METADATA, nickname: 'string', tax_behavior: { enum: ['inclusive', 'exclusive', 'unspecified'] }, transfer_lookup_key: 'boolean' },
    ({ engine, params, match, req }) => engine.updatePrice(match[0]!, params, req),
  ),

  // checkout sessions
  r(
    'POST',
    '/v1/checkout/sessions',
    {
      allow_promotion_codes: 'boolean',
      automatic_tax: { object: { enabled: 'boolean' } },
      billing_address_collection: { enum: ['auto', 'required'] },
      cancel_url: 'string',
      client_reference_id: 'string',
      consent_collection: 'any',
      customer: 'string',
      customer_email: 'string',
      customer_update: 'any',
      expires_at: 'integer',
      customer_creation: { enum: ['always', 'if_required'] },
      line_items: { array: CHECKOUT_LINE_ITEM },
      locale: { enum: CHECKOUT_LOCALES },
      metadata: METADATA,
      mode: { enum: ['payment', 'setup', 'subscription'] },
      payment_intent_data: CHECKOUT_PAYMENT_INTENT_DATA,
      payment_method_collection: { enum: ['always', 'if_required'] },
      payment_method_types: { array: { enum: ['card'] } },
      phone_number_collection: { object: { enabled: 'boolean' } },
      custom_text: 'any',
      subscription_data: { object: { metadata: METADATA, trial_period_days: 'integer', description: 'string' } },
      success_url: 'string',
      tax_id_collection: { object: { enabled: 'boolean' } },
      ui_mode: { enum: ['hosted'] },
    },
    ({ engine, params }) => engine.createCheckoutSession(params),
    ['mode', 'success_url'],
  ),
  r(
    'GET',
    '/v1/checkout/sessions',
    { ...LIST_PARAMS, customer: 'string', status: { enum: ['open', 'complete', 'expired'] }, subscription: 'string', payment_intent: 'string', customer_details: { object: { email: 'string' } } },
    ({ engine, params }) => {
      engine.runDue();
      let rows = engine.store.all('checkout.session');
      if (params.customer) rows = rows.filter((x) => x.customer === params.customer);
      if (params.status) rows = rows.filter((x) => x.status === params.status);
      if (params.subscription) rows = rows.filter((x) => x.subscription === params.subscription);
      if (params.payment_intent) rows = rows.filter((x) => x.payment_intent === params.payment_intent);
      const email = (params.customer_details as Obj | undefined)?.email;
      if (email) rows = rows.filter((x) => x.customer_details?.email === email);
      return list(engine, '/v1/checkout/sessions', rows, params);
    },
  ),
  r('GET', '/v1/checkout/sessions/:id', {}, ({ engine, match }) => engine.getCheckoutSession(match[0]!)),
  r('GET', '/v1/checkout/sessions/:id/line_items', LIST_PARAMS, ({ engine, match, params }) => {
    const s = engine.getCheckoutSession(match[0]!);
    const items = engine.sessionLineItems(s);
    return list(engine, items.url as string, (items.data as Obj[]).map((x, i) => ({ ...x, created: s.created, _seq: -i })), params);
  }),
  r('POST', '/v1/checkout/sessions/:id/expire', {}, ({ engine, match, req }) => engine.expireSession(engine.getCheckoutSession(match[0]!), req)),

  // subscriptions
  r(
    'POST',
    '/v1/subscriptions',
    {
      customer: 'string',
      items: { array: SUB_ITEM },
      default_payment_method: 'string',
      description: 'string',
      metadata: METADATA,
      payment_behavior: { enum: ['allow_incomplete', 'default_incomplete', 'error_if_incomplete', 'pending_if_incomplete'] },
      proration_behavior: { enum: ['always_invoice', 'create_prorations', 'none'] },
      collection_method: { enum: ['charge_automatically'] },
      off_session: 'boolean',
      trial_end: { union: ['integer', { enum: ['now'] }] },
      trial_period_days: 'integer',
    },
    ({ engine, params, req }) => engine.createSubscription(params, req),
    ['customer'],
  ),
  r(
    'GET',
    '/v1/subscriptions',
    {
      ...LIST_PARAMS,
      customer: 'string',
      price: 'string',
      status: { enum: SUB_STATUS },
      test_clock: 'string',
      collection_method: { enum: ['charge_automatically', 'send_invoice'] },
      current_period_start: RANGE,
      current_period_end: RANGE,
    },
    ({ engine, params }) => {
      engine.runDue();
      let rows = engine.store.all('subscription');
      const status = (params.status as string | undefined) ?? null;
      if (!status) rows = rows.filter((x) => x.status !== 'canceled');
      else if (status === 'ended') rows = rows.filter((x) => x.status === 'canceled' || x.status === 'incomplete_expired');
      else if (status !== 'all') rows = rows.filter((x) => x.status === status);
      if (params.customer) rows = rows.filter((x) => x.customer === params.customer);
      if (params.test_clock) rows = rows.filter((x) => x.test_clock === params.test_clock);
      if (params.price) rows = rows.filter((x) => (x._items as Obj[]).some((it) => it.price === params.price));
      rows = rows.filter((x) => createdFilter(params.current_period_start, x.current_period_start as number) && createdFilter(params.current_period_end, x.current_period_end as number));
      return list(engine, '/v1/subscriptions', rows, params);
    },
  ),
  r('GET', '/v1/subscriptions/search', SEARCH_PARAMS, ({ engine, params }) => {
    engine.runDue();
    return search(engine, 'subscription', 'subscriptions', ['status', 'metadata', 'created', 'canceled_at'], params);
  }, ['query']),
  r('GET', '/v1/subscriptions/:id', {}, ({ engine, match }) => {
    engine.runDue();
    return engine.getSubscription(match[0]!);
  }),
  r(
    'POST',
    '/v1/subscriptions/:id',
    {
      items: { array: SUB_ITEM },
      cancel_at_period_end: 'boolean',
      cancel_at: 'integer',
      cancellation_details: CANCELLATION_DETAILS,
      default_payment_method: 'string',
      description: 'string',
      metadata: METADATA,
      payment_behavior: { enum: ['allow_incomplete', 'default_incomplete', 'error_if_incomplete', 'pending_if_incomplete'] },
      proration_behavior: { enum: ['always_invoice', 'create_prorations', 'none'] },
      proration_date: 'integer',
      billing_cycle_anchor: { enum: ['now', 'unchanged'] },
      off_session: 'boolean',
      trial_end: { union: ['integer', { enum: ['now'] }] },
    },
    ({ engine, params, match, req }) => {
      engine.runDue();
      return engine.updateSubscription(match[0]!, params, req);
    },
  ),
  r('DELETE', '/v1/subscriptions/:id', { invoice_now: 'boolean', prorate: 'boolean', cancellation_details: CANCELLATION_DETAILS }, ({ engine, params, match, req }) => {
    engine.runDue();
    return engine.cancelSubscription(match[0]!, params, req);
  }),

  // invoices
  r(
    'GET',
    '/v1/invoices',
    { ...LIST_PARAMS, customer: 'string', subscription: 'string', status: { enum: ['draft', 'open', 'paid', 'uncollectible', 'void'] }, collection_method: { enum: ['charge_automatically', 'send_invoice'] }, due_date: RANGE },
    ({ engine, params }) => {
      engine.runDue();
      let rows = engine.store.all('invoice');
      if (params.customer) rows = rows.filter((x) => x.customer === params.customer);
      if (params.subscription) rows = rows.filter((x) => x.subscription === params.subscription);
      if (params.status) rows = rows.filter((x) => x.status === params.status);
      return list(engine, '/v1/invoices', rows, params);
    },
  ),
  r('POST', '/v1/invoices/create_preview', { customer: 'string', subscription: 'string' }, ({ engine, params }) => {
    engine.runDue();
    return engine.previewInvoice(params);
  }),
  r('GET', '/v1/invoices/upcoming', { customer: 'string', subscription: 'string' }, ({ engine, params }) => {
    engine.runDue();
    return engine.previewInvoice(params);
  }),
  r('GET', '/v1/invoices/search', SEARCH_PARAMS, ({ engine, params }) => search(engine, 'invoice', 'invoices', ['customer', 'status', 'subscription', 'total', 'number', 'metadata', 'created'], params), ['query']),
  r('GET', '/v1/invoices/:id', {}, ({ engine, match }) => {
    engine.runDue();
    return engine.require('invoice', 'invoice', match[0]);
  }),
  r('POST', '/v1/invoices/:id/pay', { payment_method: 'string', off_session: 'boolean' }, ({ engine, params, match, req }) => engine.payInvoice(match[0]!, params, req)),

  // charges, payment intents, refunds (paid invoices and checkout sessions in payment mode)
  r('GET', '/v1/charges', { ...LIST_PARAMS, customer: 'string', payment_intent: 'string' }, ({ engine, params }) => {
    let rows = engine.store.all('charge');
    if (params.customer) rows = rows.filter((x) => x.customer === params.customer);
    if (params.payment_intent) rows = rows.filter((x) => x.payment_intent === params.payment_intent);
    return list(engine, '/v1/charges', rows, params);
  }),
  r('GET', '/v1/charges/:id', {}, ({ engine, match }) => engine.require('charge', 'charge', match[0])),
  r('GET', '/v1/payment_intents', { ...LIST_PARAMS, customer: 'string' }, ({ engine, params }) => {
    let rows = engine.store.all('payment_intent');
    if (params.customer) rows = rows.filter((x) => x.customer === params.customer);
    return list(engine, '/v1/payment_intents', rows, params);
  }),
  r('GET', '/v1/payment_intents/:id', {}, ({ engine, match }) => engine.require('payment_intent', 'payment_intent', match[0])),
  r(
    'POST',
    '/v1/refunds',
    {
      charge: 'string',
      payment_intent: 'string',
      amount: 'integer',
      reason: { enum: ['duplicate', 'fraudulent', 'requested_by_customer'] },
      metadata: METADATA,
    },
    ({ engine, params, req }) => engine.createRefund(params, req),
  ),
  r('GET', '/v1/refunds', { ...LIST_PARAMS, charge: 'string', payment_intent: 'string' }, ({ engine, params }) => {
    let rows = engine.store.all('refund');
    if (params.charge) rows = rows.filter((x) => x.charge === params.charge);
    if (params.payment_intent) rows = rows.filter((x) => x.payment_intent === params.payment_intent);
    return list(engine, '/v1/refunds', rows, params);
  }),
  r('GET', '/v1/refunds/:id', {}, ({ engine, match }) => engine.require('refund', 'refund', match[0])),

  // billing portal
  r(
    'POST',
    '/v1/billing_portal/sessions',
    { customer: 'string', return_url: 'string', locale: { enum: CHECKOUT_LOCALES }, configuration: 'string', on_behalf_of: 'string' },
    ({ engine, params }) => engine.createPortalSession(params),
    ['customer'],
  ),

  // billing portal configurations (what the hosted portal page offers)
  r('POST', '/v1/billing_portal/configurations', PORTAL_CONFIGURATION_FIELDS, ({ engine, params }) => engine.createPortalConfiguration(params), ['features']),
  r('GET', '/v1/billing_portal/configurations', { ...LIST_PARAMS, active: 'boolean', is_default: 'boolean' }, ({ engine, params }) => {
    let rows = engine.store.all('billing_portal.configuration');
    if (typeof params.active === 'boolean') rows = rows.filter((c) => c.active === params.active);
    if (typeof params.is_default === 'boolean') rows = rows.filter((c) => c.is_default === params.is_default);
    return list(engine, '/v1/billing_portal/configurations', rows, params);
  }),
  r('GET', '/v1/billing_portal/configurations/:id', {}, ({ engine, match }) => engine.require('configuration', 'billing_portal.configuration', match[0])),
  r('POST', '/v1/billing_portal/configurations/:id', { ...PORTAL_CONFIGURATION_FIELDS, active: 'boolean' }, ({ engine, params, match }) =>
    engine.updatePortalConfiguration(match[0]!, params),
  ),

  // test clocks
  r('POST', '/v1/test_helpers/test_clocks', { frozen_time: 'integer', name: 'string' }, ({ engine, params }) => engine.createTestClock(params), ['frozen_time']),
  r('GET', '/v1/test_helpers/test_clocks', LIST_PARAMS, ({ engine, params }) => list(engine, '/v1/test_helpers/test_clocks', engine.store.all('test_helpers.test_clock'), params)),
  r('GET', '/v1/test_helpers/test_clocks/:id', {}, ({ engine, match }) => engine.require('test clock', 'test_helpers.test_clock', match[0])),
  r('DELETE', '/v1/test_helpers/test_clocks/:id', {}, ({ engine, match }) => engine.deleteTestClock(match[0]!)),
  r('POST', '/v1/test_helpers/test_clocks/:id/advance', { frozen_time: 'integer' }, ({ engine, params, match }) => engine.advanceTestClock(match[0]!, params), ['frozen_time']),

  // webhook endpoints
  r(
    'POST',
    '/v1/webhook_endpoints',
    { url: 'string', enabled_events: { array: 'string' }, description: 'string', metadata: METADATA, api_version: 'string', connect: 'boolean' },
    ({ engine, params, webhookSecret }) => engine.createWebhookEndpoint(params, webhookSecret),
    ['url', 'enabled_events'],
  ),
  r('GET', '/v1/webhook_endpoints', LIST_PARAMS, ({ engine, params }) => {
    const l = list(engine, '/v1/webhook_endpoints', engine.store.all('webhook_endpoint'), params);
    for (const ep of l.data as Obj[]) delete ep.secret;
    return l;
  }),
  r('GET', '/v1/webhook_endpoints/:id', {}, ({ engine, match }) => {
    const ep = engine.store.render(engine.require('webhook endpoint', 'webhook_endpoint', match[0]));
    delete ep.secret;
    return ep;
  }),
  r('POST', '/v1/webhook_endpoints/:id', { url: 'string', enabled_events: { array: 'string' }, description: 'string', metadata: METADATA, disabled: 'boolean' }, ({ engine, params, match }) => {
    const ep = engine.store.render(engine.updateWebhookEndpoint(match[0]!, params));
    delete ep.secret;
    return ep;
  }),
  r('DELETE', '/v1/webhook_endpoints/:id', {}, ({ engine, match }) => {
    const ep = engine.require('webhook endpoint', 'webhook_endpoint', match[0]);
    engine.store.state.objects[ep.id as string] = { id: ep.id, object: 'webhook_endpoint', deleted: true, _seq: ep._seq };
    engine.store.save();
    return engine.store.state.objects[ep.id as string]!;
  }),

  // events
  r('GET', '/v1/events', { ...LIST_PARAMS, type: 'string', types: { array: 'string' }, delivery_success: 'boolean' }, ({ engine, params }) => {
    let rows = engine.store.all('event');
    if (params.type) rows = rows.filter((e) => matchType(params.type as string, e.type as string));
    const types = params.types as string[] | undefined;
    if (types && types.length) rows = rows.filter((e) => types.some((t) => matchType(t, e.type as string)));
    if (typeof params.delivery_success === 'boolean') {
      const failedIds = new Set(engine.store.state.deliveries.filter((d) => d.status !== 'succeeded').map((d) => d.event));
      rows = rows.filter((e) => (params.delivery_success ? !failedIds.has(e.id as string) : failedIds.has(e.id as string)));
    }
    return list(engine, '/v1/events', rows, params);
  }),
  r('GET', '/v1/events/:id', {}, ({ engine, match }) => engine.require('event', 'event', match[0])),
  // Sandbox-specific: Stripe offers "resend" only in its dashboard and CLI.
  r('POST', '/v1/events/:id/resend', { webhook_endpoint: 'string' }, ({ engine, params, match }) => engine.resendEvent(match[0]!, params.webhook_endpoint as string | undefined)),
];

/** Validates and runs a `/v1` request. Output: the JSON body (status 200). Errors: StripeError. */
export function dispatch(
  engine: Engine,
  method: string,
  path: string,
  raw: Params,
  req: RequestInfo,
  webhookSecret: string,
): Obj {
  const route = ROUTES.find((x) => x.method === method && x.pattern.test(path));
  if (!route) throw unrecognizedUrl(method, path);
  const match = route.pattern.exec(path)!.slice(1);
  if (method === 'POST') {
    for (const [re, names] of UNSUPPORTED) {
      if (!re.test(path)) continue;
      const bad = Object.keys(raw).find((k) => names.includes(k));
      if (bad) throw unsupportedParam(bad);
    }
  }
  const params = validate(route.fields, raw, route.required ?? []);
  const result = route.handler({ engine, params, match, req, webhookSecret });
  const out = result.object === 'list' || result.object === 'search_result' ? result : engine.store.render(result);
  const paths = (params.expand as string[] | undefined) ?? [];
  if (paths.length) expand(engine, out, paths);
  return out;
}

/**
 * The sandbox's hosted pages (German and English): checkout (`/checkout/<cs id>`), billing portal
 * (`/billing_portal/<bps id>`) and hosted invoice (`/invoices/<in id>`). Real HTML forms that
 * POST back to the sandbox, so browsers and plain HTTP clients drive them alike.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml, readBody, sendHtml } from '../../http.ts';
import { parseForm } from './form.ts';
import { FAILURES, INPUT_ERRORS, parseCardInput } from './cards.ts';
import { AUTOMATIC, type Engine } from './engine.ts';
import { StripeError } from './errors.ts';
import type { Obj } from './store.ts';

export type Lang = 'de' | 'en';

const T = {
  en: {
    testMode: 'Test mode',
    subscribeTo: 'Subscribe to',
    totalToday: 'Total due today',
    then: 'Then',
    email: 'Email',
    cardNumber: 'Card number',
    expiry: 'Expiry date (MM / YY)',
    cvc: 'CVC',
    name: 'Name on card',
    pay: 'Pay and subscribe',
    payOnce: 'Pay',
    total: 'Total',
    back: 'Back',
    testCards: 'Sandbox test cards: 4242 4242 4242 4242 (succeeds), 4000 0000 0000 0002 (declined), 4000 0000 0000 0341 (fails on renewal). Any future expiry date, any CVC.',
    testCardsPayment: 'Sandbox test cards: 4242 4242 4242 4242 (succeeds), 4000 0000 0000 0002 (declined). Any future expiry date, any CVC.',
    complete: 'This checkout session is complete. Thank you!',
    continue: 'Continue',
    expired: 'This checkout session has expired.',
    notFound: 'This page does not exist or has expired.',
    portalTitle: 'Manage your subscription',
    planNotAllowed: 'This plan cannot be chosen here.',
    returnTo: 'Return to',
    currentPlan: 'Current plan',
    status: 'Status',
    renewsOn: 'Renews on',
    endsOn: 'Cancels on',
    endedOn: 'Ended on',
    changePlan: 'Change plan',
    choosePlan: 'New plan',
    updatePlan: 'Change plan',
    cancel: 'Cancel subscription',
    atPeriodEnd: 'At the end of the billing period',
    now: 'Immediately',
    renew: 'Renew subscription',
    paymentMethod: 'Payment method',
    noCard: 'No card on file.',
    expires: 'expires',
    updateCard: 'Update card',
    invoices: 'Invoice history',
    noSubscription: 'You have no active subscription.',
    planChanged: 'Your plan was changed.',
    willEnd: 'Your subscription will end at the end of the billing period.',
    canceled: 'Your subscription was canceled.',
    renewed: 'Your subscription will continue.',
    cardUpdated: 'Your card was updated.',
    invoice: 'Invoice',
    amountDue: 'Amount due',
    paidStatus: { draft: 'Draft', open: 'Open', paid: 'Paid', void: 'Void', uncollectible: 'Uncollectible' } as Record<string, string>,
    subStatus: {
      active: 'Active', past_due: 'Past due', unpaid: 'Unpaid', canceled: 'Canceled', incomplete: 'Incomplete',
      incomplete_expired: 'Expired', trialing: 'Trial', paused: 'Paused',
    } as Record<string, string>,
  },
  de: {
    testMode: 'Testmodus',
    subscribeTo: 'Abonnieren:',
    totalToday: 'Heute fällig',
    then: 'Danach',
    email: 'E-Mail',
    cardNumber: 'Kartennummer',
    expiry: 'Ablaufdatum (MM / JJ)',
    cvc: 'Prüfziffer (CVC)',
    name: 'Name auf der Karte',
    pay: 'Zahlungspflichtig abonnieren',
    payOnce: 'Zahlungspflichtig bestellen',
    total: 'Gesamtbetrag',
    back: 'Zurück',
    testCards: 'Testkarten der Sandbox: 4242 4242 4242 4242 (erfolgreich), 4000 0000 0000 0002 (abgelehnt), 4000 0000 0000 0341 (scheitert bei der Verlängerung). Beliebiges künftiges Ablaufdatum, beliebige Prüfziffer.',
    testCardsPayment: 'Testkarten der Sandbox: 4242 4242 4242 4242 (erfolgreich), 4000 0000 0000 0002 (abgelehnt). Beliebiges künftiges Ablaufdatum, beliebige Prüfziffer.',
    complete: 'Diese Bezahlung ist abgeschlossen. Vielen Dank!',
    continue: 'Weiter',
    expired: 'Diese Checkout-Sitzung ist abgelaufen.',
    notFound: 'Diese Seite existiert nicht oder ist abgelaufen.',
    portalTitle: 'Abonnement verwalten',
    planNotAllowed: 'Dieser Tarif kann hier nicht gewählt werden.',
    returnTo: 'Zurück zu',
    currentPlan: 'Aktueller Tarif',
    status: 'Status',
    renewsOn: 'Verlängert sich am',
    endsOn: 'Endet am',
    endedOn: 'Beendet am',
    changePlan: 'Tarif wechseln',
    choosePlan: 'Neuer Tarif',
    updatePlan: 'Tarif ändern',
    cancel: 'Abonnement kündigen',
    atPeriodEnd: 'Zum Ende des Abrechnungszeitraums',
    now: 'Sofort',
    renew: 'Abonnement fortsetzen',
    paymentMethod: 'Zahlungsmethode',
    noCard: 'Keine Karte hinterlegt.',
    expires: 'gültig bis',
    updateCard: 'Karte aktualisieren',
    invoices: 'Rechnungsverlauf',
    noSubscription: 'Sie haben kein aktives Abonnement.',
    planChanged: 'Ihr Tarif wurde geändert.',
    willEnd: 'Ihr Abonnement endet zum Ende des Abrechnungszeitraums.',
    canceled: 'Ihr Abonnement wurde gekündigt.',
    renewed: 'Ihr Abonnement wird fortgesetzt.',
    cardUpdated: 'Ihre Karte wurde aktualisiert.',
    invoice: 'Rechnung',
    amountDue: 'Fälliger Betrag',
    paidStatus: { draft: 'Entwurf', open: 'Offen', paid: 'Bezahlt', void: 'Storniert', uncollectible: 'Uneinbringlich' } as Record<string, string>,
    subStatus: {
      active: 'Aktiv', past_due: 'Überfällig', unpaid: 'Unbezahlt', canceled: 'Gekündigt', incomplete: 'Unvollständig',
      incomplete_expired: 'Abgelaufen', trialing: 'Testphase', paused: 'Pausiert',
    } as Record<string, string>,
  },
} as const;

/** Page language: the session's locale, else (locale auto/none) the browser's Accept-Language. */
export function pageLang(locale: unknown, req: IncomingMessage): Lang {
  if (typeof locale === 'string' && locale !== 'auto') return locale.startsWith('de') ? 'de' : 'en';
  return /^\s*de\b/i.test(String(req.headers['accept-language'] ?? '')) ? 'de' : 'en';
}

/** An amount in minor units formatted for the language, e.g. 1900 eur → "19,00 €" / "€19.00". */
export function formatAmount(cents: number, currency: string, lang: Lang): string {
  return new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-IE', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

/** "per month", "every 3 months" / "pro Monat", "alle 3 Monate". */
export function formatInterval(interval: string, count: number, lang: Lang): string {
  const en: Record<string, [string, string]> = { day: ['day', 'days'], week: ['week', 'weeks'], month: ['month', 'months'], year: ['year', 'years'] };
  const de: Record<string, [string, string]> = { day: ['Tag', 'Tage'], week: ['Woche', 'Wochen'], month: ['Monat', 'Monate'], year: ['Jahr', 'Jahre'] };
  const w = (lang === 'de' ? de : en)[interval] ?? [interval, interval];
  if (count === 1) return lang === 'de' ? `pro ${w[0]}` : `per ${w[0]}`;
  return lang === 'de' ? `alle ${count} ${w[1]}` : `every ${count} ${w[1]}`;
}

function formatDate(ts: number, lang: Lang): string {
  return new Date(ts * 1000).toLocaleDateString(lang === 'de' ? 'de-DE' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

function layout(lang: Lang, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f6f8fa;color:#1a1f36}
main{max-width:880px;margin:0 auto;padding:24px;display:grid;gap:24px}
@media(min-width:760px){main.two{grid-template-columns:1fr 1fr}}
section{background:#fff;border-radius:8px;padding:20px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:1.3rem;margin:0 0 12px}h2{font-size:1.05rem;margin:16px 0 8px}
label{display:block;font-size:.9rem;margin:12px 0 4px}
input,select{width:100%;box-sizing:border-box;padding:10px;border:1px solid #cfd7df;border-radius:6px;font-size:1rem}
input[type=radio]{width:auto}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
button{margin-top:16px;width:100%;padding:12px;border:0;border-radius:6px;background:#635bff;color:#fff;font-size:1rem;cursor:pointer}
button.secondary{background:#fff;color:#635bff;border:1px solid #635bff}
.error{background:#fdecea;color:#8a1c1c;border-radius:6px;padding:10px;margin-top:12px}
.notice{background:#e6f4ea;color:#1e4620;border-radius:6px;padding:10px}
.badge{display:inline-block;background:#ffde92;color:#5c3b00;border-radius:4px;padding:2px 6px;font-size:.75rem;font-weight:600}
.muted{color:#5c6b7a;font-size:.85rem}.amount{font-size:2rem;font-weight:600}
table{width:100%;border-collapse:collapse}td,th{text-align:left;padding:6px 4px;border-bottom:1px solid #eef1f4;font-size:.9rem}
a{color:#635bff}
</style>
</head>
<body>
${body}
</body>
</html>`;
}

function businessName(): string {
  return process.env.STRIPE_SANDBOX_BUSINESS_NAME || 'Teamwerk';
}

// ------------------------------------------------------------------ checkout

interface CheckoutForm {
  email?: string;
  name?: string;
  cardNumber?: string;
  cardExpiry?: string;
  cardCvc?: string;
}

/** The line items' product descriptions (`product_data[description]`) as muted paragraphs. */
function descriptions(engine: Engine, items: Obj[]): string {
  return items
    .map((i) => engine.store.get((i.price as Obj).product as string)?.description as string | null | undefined)
    .filter((d): d is string => !!d)
    .map((d) => `<p class="muted" data-testid="description">${escapeHtml(d)}</p>`)
    .join('');
}

function checkoutPage(engine: Engine, s: Obj, lang: Lang, form: CheckoutForm, error: string | null): string {
  const t = T[lang];
  // Payment mode (one-time purchase): no "Subscribe to", no interval, a "Pay" button.
  const payment = s.mode === 'payment';
  const items = engine.sessionLineItems(s).data as Obj[];
  const first = items[0]!;
  const price = first.price as Obj;
  const productNames = items.map((i) => i.description as string).join(', ');
  const recurring = price.recurring as Obj | null;
  const amount = formatAmount(s.amount_total as number, s.currency as string, lang);
  const needsEmail = !s.customer && !s.customer_email;
  const email = (s.customer_details?.email as string | undefined) ?? (s.customer_email as string | null) ?? form.email ?? '';
  const action = `/checkout/${encodeURIComponent(s.id as string)}/pay`;
  const back = s.cancel_url
    ? `<a href="${escapeHtml(s.cancel_url as string)}" id="cancel-link">← ${t.back}</a>`
    : '';
  const body = `<main class="two">
<section aria-labelledby="summary">
  ${back}
  <p><strong>${escapeHtml(businessName())}</strong> <span class="badge">${t.testMode}</span></p>
  <h1 id="summary">${payment ? '' : `${t.subscribeTo} `}${escapeHtml(productNames)}</h1>
  <p class="amount" data-testid="amount">${escapeHtml(amount)}</p>
  ${payment ? descriptions(engine, items) : ''}
  ${recurring ? `<p class="muted">${escapeHtml(formatInterval(recurring.interval as string, recurring.interval_count as number, lang))}</p>` : ''}
  <table>${items
    .map((i) => `<tr><td>${escapeHtml(i.description as string)} × ${i.quantity}</td><td>${escapeHtml(formatAmount(i.amount_total as number, i.currency as string, lang))}</td></tr>`)
    .join('')}
  <tr><th>${payment ? t.total : t.totalToday}</th><th>${escapeHtml(amount)}</th></tr></table>
</section>
<section>
  <form method="post" action="${action}" novalidate>
    <label for="email">${t.email}</label>
    ${needsEmail
      ? `<input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(email)}">`
      : `<input id="email" type="email" value="${escapeHtml(email)}" readonly>`}
    <label for="cardNumber">${t.cardNumber}</label>
    <input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required value="${escapeHtml(form.cardNumber ?? '')}">
    <div class="row">
      <div><label for="cardExpiry">${t.expiry}</label>
      <input id="cardExpiry" name="cardExpiry" autocomplete="cc-exp" placeholder="MM / YY" required value="${escapeHtml(form.cardExpiry ?? '')}"></div>
      <div><label for="cardCvc">${t.cvc}</label>
      <input id="cardCvc" name="cardCvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required value="${escapeHtml(form.cardCvc ?? '')}"></div>
    </div>
    <label for="billingName">${t.name}</label>
    <input id="billingName" name="billingName" autocomplete="cc-name" required value="${escapeHtml(form.name ?? '')}">
    ${error ? `<div class="error" role="alert" id="error-message">${escapeHtml(error)}</div>` : ''}
    <button type="submit" id="submit">${payment ? t.payOnce : t.pay}</button>
  </form>
  <p class="muted">${payment ? t.testCardsPayment : t.testCards}</p>
</section>
</main>`;
  return layout(lang, payment ? productNames : `${t.subscribeTo} ${productNames}`, body);
}

function messagePage(lang: Lang, text: string, link?: { href: string; label: string }): string {
  return layout(
    lang,
    text,
    `<main><section><p role="status">${escapeHtml(text)}</p>${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''}</section></main>`,
  );
}

function successUrl(s: Obj): string {
  return (s.success_url as string).replace(/\{CHECKOUT_SESSION_ID\}/g, s.id as string);
}

async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const raw = (await readBody(req, 64 * 1024)).toString('utf8');
  const parsed = parseForm(raw);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') out[k] = v;
  return out;
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'content-length': 0 });
  res.end();
}

async function handleCheckout(engine: Engine, req: IncomingMessage, res: ServerResponse, id: string, action: string | undefined): Promise<void> {
  const stored = engine.store.get(id);
  if (!stored || stored.object !== 'checkout.session') {
    const lang = pageLang(undefined, req);
    sendHtml(res, 404, messagePage(lang, T[lang].notFound));
    return;
  }
  const s = engine.getCheckoutSession(id);
  const lang = pageLang(s.locale, req);
  const t = T[lang];
  if (s.status === 'complete') {
    req.resume();
    // A repeated submit goes where the first one went; a visit shows that the session is done.
    if (req.method === 'POST') redirect(res, successUrl(s));
    else sendHtml(res, 200, messagePage(lang, t.complete, { href: successUrl(s), label: t.continue }));
    return;
  }
  if (s.status === 'expired') {
    req.resume();
    sendHtml(res, 410, messagePage(lang, t.expired, s.cancel_url ? { href: s.cancel_url as string, label: t.back } : undefined));
    return;
  }
  if (req.method === 'GET' && !action) {
    sendHtml(res, 200, checkoutPage(engine, s, lang, {}, null));
    return;
  }
  if (req.method !== 'POST' || action !== 'pay') {
    sendHtml(res, 405, messagePage(lang, t.notFound));
    return;
  }
  const f = await readForm(req);
  // A second submit that raced the first (double click) must not pay twice.
  if (s.status !== 'open') {
    if (s.status === 'complete') redirect(res, successUrl(s));
    else sendHtml(res, 410, messagePage(lang, t.expired));
    return;
  }
  const form: CheckoutForm = { email: f.email, name: f.billingName, cardNumber: f.cardNumber, cardExpiry: f.cardExpiry, cardCvc: f.cardCvc };
  const fail = (status: number, message: string) => sendHtml(res, status, checkoutPage(engine, s, lang, form, message));
  const needsEmail = !s.customer && !s.customer_email;
  if (needsEmail && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(f.email ?? '')) return fail(400, INPUT_ERRORS.invalid_email[lang]);
  const parsed = parseCardInput(f.cardNumber ?? '', f.cardExpiry ?? '', f.cardCvc ?? '', engine.nowFor(s.customer as string | null));
  if (!parsed.ok) return fail(400, INPUT_ERRORS[parsed.error][lang]);
  const name = (f.billingName ?? '').trim();
  if (!name) return fail(400, INPUT_ERRORS.missing_name[lang]);
  const result = engine.completeCheckout(s, parsed.card, { email: needsEmail ? f.email!.trim() : null, name });
  if (!result.ok) return fail(402, FAILURES[result.failure].message[lang]);
  redirect(res, successUrl(result.session));
}

// ------------------------------------------------------------------ billing portal

function portalPage(engine: Engine, ps: Obj, lang: Lang, notice: string | null, error: string | null, cardForm: CheckoutForm): string {
  const t = T[lang];
  const base = `/billing_portal/${encodeURIComponent(ps.id as string)}`;
  const customer = engine.store.get(ps.customer as string)!;
  const subs = engine.store.all('subscription').filter((x) => x.customer === customer.id && !['canceled', 'incomplete_expired'].includes(x.status as string));
  const productName = (pid: string) => (engine.store.get(pid)?.name as string | undefined) ?? pid;
  const priceLabel = (p: Obj) =>
    `${productName(p.product as string)}: ${formatAmount(p.unit_amount as number, p.currency as string, lang)} ${formatInterval(p.recurring.interval as string, p.recurring.interval_count as number, lang)}`;
  const subHtml = subs.length
    ? subs
        .map((sub) => {
          const item = (sub.items.data as Obj[])[0]!;
          const price = item.price as Obj;
          const sid = encodeURIComponent(sub.id as string);
          const when = sub.cancel_at
            ? `${t.endsOn} ${formatDate(sub.cancel_at as number, lang)}`
            : `${t.renewsOn} ${formatDate(sub.current_period_end as number, lang)}`;
          // what the session's configuration allows (engine.portalOptions): Stripe's portal lists
          // only the configured products' prices and no switch at all for other subscriptions
          const allowed = engine.portalOptions(ps, sub);
          const options = allowed.prices
            .map((p) => `<option value="${escapeHtml(p.id as string)}"${p.id === price.id ? ' selected' : ''}>${escapeHtml(priceLabel(p))}</option>`)
            .join('');
          return `<section aria-labelledby="plan-${sid}">
  <h2 id="plan-${sid}">${t.currentPlan}</h2>
  <p data-testid="current-plan"><strong>${escapeHtml(priceLabel(price))}</strong></p>
  <p>${t.status}: <span data-testid="subscription-status">${escapeHtml(t.subStatus[sub.status as string] ?? (sub.status as string))}</span> · ${escapeHtml(when)}</p>
  ${
    allowed.prices.length > 1
      ? `<form method="post" action="${base}/subscriptions/${sid}/plan">
    <label for="price-${sid}">${t.choosePlan}</label>
    <select id="price-${sid}" name="price">${options}</select>
    <button type="submit">${t.updatePlan}</button>
  </form>`
      : ''
  }
  ${
    sub.cancel_at_period_end
      ? `<form method="post" action="${base}/subscriptions/${sid}/renew"><button type="submit" class="secondary">${t.renew}</button></form>`
      : ''
  }
  ${
    allowed.cancel
      ? `<form method="post" action="${base}/subscriptions/${sid}/cancel">
    <p>${allowed.cancel === 'immediately' ? t.now : t.atPeriodEnd}</p>
    <button type="submit" class="secondary">${t.cancel}</button>
  </form>`
      : ''
  }
</section>`;
        })
        .join('\n')
    : `<section><p>${t.noSubscription}</p></section>`;
  const pmId = (customer.invoice_settings?.default_payment_method as string | null) ?? (subs[0]?.default_payment_method as string | null);
  const pm = pmId ? engine.store.get(pmId) : undefined;
  const card = pm?.card as Obj | undefined;
  const invoices = engine.store.all('invoice').filter((i) => i.customer === customer.id);
  const features = engine.portalOptions(ps, null);
  const body = `<main>
<section>
  ${ps.return_url ? `<p><a href="${escapeHtml(ps.return_url as string)}" id="return-link">← ${t.returnTo} ${escapeHtml(businessName())}</a></p>` : ''}
  <h1>${t.portalTitle} <span class="badge">${t.testMode}</span></h1>
  <p class="muted">${escapeHtml((customer.email as string | null) ?? '')}</p>
  ${notice ? `<p class="notice" role="status" id="notice">${escapeHtml(notice)}</p>` : ''}
</section>
${subHtml}
${features.card ? `<section aria-labelledby="pm">
  <h2 id="pm">${t.paymentMethod}</h2>
  <p data-testid="card">${card ? `${escapeHtml(String(card.brand).toUpperCase())} •••• ${escapeHtml(card.last4 as string)}, ${t.expires} ${String(card.exp_month).padStart(2, '0')}/${card.exp_year}` : t.noCard}</p>
  <form method="post" action="${base}/payment_method" novalidate>
    <label for="cardNumber">${t.cardNumber}</label>
    <input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" required value="${escapeHtml(cardForm.cardNumber ?? '')}">
    <div class="row">
      <div><label for="cardExpiry">${t.expiry}</label><input id="cardExpiry" name="cardExpiry" autocomplete="cc-exp" placeholder="MM / YY" required value="${escapeHtml(cardForm.cardExpiry ?? '')}"></div>
      <div><label for="cardCvc">${t.cvc}</label><input id="cardCvc" name="cardCvc" inputmode="numeric" autocomplete="cc-csc" required value="${escapeHtml(cardForm.cardCvc ?? '')}"></div>
    </div>
    <label for="billingName">${t.name}</label>
    <input id="billingName" name="billingName" autocomplete="cc-name" required value="${escapeHtml(cardForm.name ?? '')}">
    ${error ? `<div class="error" role="alert" id="error-message">${escapeHtml(error)}</div>` : ''}
    <button type="submit">${t.updateCard}</button>
  </form>
</section>` : ''}
${features.invoices ? `<section aria-labelledby="inv">
  <h2 id="inv">${t.invoices}</h2>
  <table>${invoices
    .map(
      (i) =>
        `<tr><td>${escapeHtml(formatDate(i.created as number, lang))}</td><td>${escapeHtml(formatAmount(i.amount_due as number, i.currency as string, lang))}</td><td>${escapeHtml(t.paidStatus[i.status as string] ?? (i.status as string))}</td><td><a href="/invoices/${encodeURIComponent(i.id as string)}">${escapeHtml((i.number as string) ?? '')}</a></td></tr>`,
    )
    .join('')}</table>
</section>` : ''}
</main>`;
  return layout(lang, t.portalTitle, body);
}

const NOTICES = { plan: 'planChanged', cancel_end: 'willEnd', cancel_now: 'canceled', renew: 'renewed', card: 'cardUpdated' } as const;

async function handlePortal(engine: Engine, req: IncomingMessage, res: ServerResponse, id: string, rest: string[]): Promise<void> {
  const ps = engine.store.get(id);
  if (!ps || ps.object !== 'billing_portal.session') {
    const lang = pageLang(undefined, req);
    sendHtml(res, 404, messagePage(lang, T[lang].notFound));
    return;
  }
  engine.runDue();
  const lang = pageLang(ps.locale, req);
  const t = T[lang];
  const base = `/billing_portal/${encodeURIComponent(id)}`;
  if (req.method === 'GET' && rest.length === 0) {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const key = url.searchParams.get('done') as keyof typeof NOTICES | null;
    const notice = key && NOTICES[key] ? t[NOTICES[key]] : null;
    sendHtml(res, 200, portalPage(engine, ps, lang, notice, null, {}));
    return;
  }
  if (req.method !== 'POST') {
    sendHtml(res, 405, messagePage(lang, t.notFound));
    return;
  }
  const f = await readForm(req);
  if (rest.length === 1 && rest[0] === 'payment_method') {
    if (!engine.portalOptions(ps, null).card) return sendHtml(res, 404, messagePage(lang, t.notFound));
    const cardForm: CheckoutForm = { name: f.billingName, cardNumber: f.cardNumber, cardExpiry: f.cardExpiry, cardCvc: f.cardCvc };
    const parsed = parseCardInput(f.cardNumber ?? '', f.cardExpiry ?? '', f.cardCvc ?? '', engine.nowFor(ps.customer as string));
    if (!parsed.ok) return sendHtml(res, 400, portalPage(engine, ps, lang, null, INPUT_ERRORS[parsed.error][lang], cardForm));
    const name = (f.billingName ?? '').trim();
    if (!name) return sendHtml(res, 400, portalPage(engine, ps, lang, null, INPUT_ERRORS.missing_name[lang], cardForm));
    const r = engine.replaceCard(ps.customer as string, parsed.card, name, AUTOMATIC);
    if (!r.ok) return sendHtml(res, 402, portalPage(engine, ps, lang, null, FAILURES[r.failure].message[lang], cardForm));
    return redirect(res, `${base}?done=card`);
  }
  if (rest.length === 3 && rest[0] === 'subscriptions') {
    const sub = engine.store.get(rest[1]);
    if (!sub || sub.object !== 'subscription' || sub.customer !== ps.customer) {
      sendHtml(res, 404, messagePage(lang, t.notFound));
      return;
    }
    try {
      const allowed = engine.portalOptions(ps, sub);
      if (rest[2] === 'plan') {
        const item = (sub.items.data as Obj[])[0]!;
        if (f.price && !allowed.prices.some((p) => p.id === f.price)) {
          return sendHtml(res, 400, portalPage(engine, ps, lang, null, t.planNotAllowed, {}));
        }
        if (f.price && f.price !== (item.price as Obj).id) {
          engine.updateSubscription(sub.id as string, { items: [{ id: item.id, price: f.price }], proration_behavior: 'none' }, AUTOMATIC);
        }
        return redirect(res, `${base}?done=plan`);
      }
      if (rest[2] === 'cancel') {
        if (!allowed.cancel) return sendHtml(res, 404, messagePage(lang, t.notFound));
        if (allowed.cancel === 'immediately') {
          engine.cancelSubscription(sub.id as string, {}, AUTOMATIC);
          return redirect(res, `${base}?done=cancel_now`);
        }
        engine.updateSubscription(sub.id as string, { cancel_at_period_end: true }, AUTOMATIC);
        return redirect(res, `${base}?done=cancel_end`);
      }
      if (rest[2] === 'renew') {
        engine.updateSubscription(sub.id as string, { cancel_at_period_end: false }, AUTOMATIC);
        return redirect(res, `${base}?done=renew`);
      }
    } catch (e) {
      if (e instanceof StripeError) return sendHtml(res, e.status, portalPage(engine, ps, lang, null, e.message, {}));
      throw e;
    }
  }
  sendHtml(res, 404, messagePage(lang, t.notFound));
}

// ------------------------------------------------------------------ hosted invoice

function handleInvoice(engine: Engine, req: IncomingMessage, res: ServerResponse, id: string): void {
  const inv = engine.store.get(id);
  const lang = pageLang(undefined, req);
  const t = T[lang];
  if (!inv || inv.object !== 'invoice') {
    sendHtml(res, 404, messagePage(lang, t.notFound));
    return;
  }
  const rows = (inv.lines.data as Obj[])
    .map((l) => `<tr><td>${escapeHtml(l.description as string)}</td><td>${escapeHtml(formatDate(l.period.start as number, lang))} – ${escapeHtml(formatDate(l.period.end as number, lang))}</td><td>${escapeHtml(formatAmount(l.amount as number, l.currency as string, lang))}</td></tr>`)
    .join('');
  sendHtml(
    res,
    200,
    layout(
      lang,
      `${t.invoice} ${inv.number}`,
      `<main><section><h1>${t.invoice} ${escapeHtml(inv.number as string)} <span class="badge">${t.testMode}</span></h1>
<p>${escapeHtml(businessName())} · ${escapeHtml((inv.customer_email as string | null) ?? '')}</p>
<table>${rows}<tr><th>${t.amountDue}</th><th></th><th>${escapeHtml(formatAmount(inv.amount_due as number, inv.currency as string, lang))}</th></tr></table>
<p>${t.status}: <strong>${escapeHtml(t.paidStatus[inv.status as string] ?? (inv.status as string))}</strong></p></section></main>`,
    ),
  );
}

/**
 * Serves the hosted pages. Input: a request whose path starts with /checkout/, /billing_portal/
 * or /invoices/. Output: true when handled (HTML answer sent), false otherwise.
 */
export async function handlePage(engine: Engine, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
  const parts = pathname.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  if (parts[0] === 'checkout' && parts[1] && parts.length <= 3) {
    await handleCheckout(engine, req, res, parts[1], parts[2]);
    return true;
  }
  if (parts[0] === 'billing_portal' && parts[1]) {
    await handlePortal(engine, req, res, parts[1], parts.slice(2));
    return true;
  }
  if (parts[0] === 'invoices' && parts[1] && parts.length === 2 && req.method === 'GET') {
    handleInvoice(engine, req, res, parts[1]);
    return true;
  }
  return false;
}

/** The sandbox's start page: what it is and where things are. */
export function indexPage(baseUrl: string): string {
  return layout(
    'en',
    'Stripe sandbox',
    `<main><section><h1>Teamwerk Stripe sandbox <span class="badge">Test mode</span></h1>
<p>A local stand-in for the Stripe API subset Teamwerk uses. Point the <code>stripe</code> SDK at
<code>${escapeHtml(baseUrl)}</code> with <code>host</code>/<code>port</code>/<code>protocol</code>.
See <code>scripts/local-stack/services/stripe/README.md</code>.</p></section></main>`,
  );
}

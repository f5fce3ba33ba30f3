// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SiteFooter } from '@/components/site-footer';
import type { Tables } from '@/lib/database.types';
import { startSession } from '@/lib/session';
import { FUNCTIONS_URL, functionError, mockNetwork, REST_URL, restRows } from '@/test/msw';
import { renderScreen, t } from '@/test/render';
import { MEMBER, signInAs } from '@/test/session';
import CancelSubscriptionRoute from '../routes/cancel-subscription';
import PaymentSuccessRoute from '../routes/payment-success';
import PricesRoute from '../routes/prices';
import SignupRoute from '../routes/signup';
import SubscriptionRequiredRoute from '../routes/subscription-required';

/**
 * The billing screens without a stack (spec §4, §6, §8, §9; issue 7; §312k BGB): /prices with its
 * periods, savings and order buttons in both languages, the paywall's plan list, the payment return
 * pages' messages for each answer of verify-payment, and the cancellation form's validation and
 * receipt. PostgREST and the functions are answered by MSW with the shapes of database.types.ts
 * and the functions' error contract; the journeys through Stripe stay in the browser tests.
 */
const server = mockNetwork();
/** The first request loads supabase-js (a dynamic import), which takes a moment on a busy machine. */
const WAIT = { timeout: 10_000 };
afterEach(cleanup);
beforeEach(() => localStorage.clear());

type PlanRow = Pick<Tables<'plans'>, 'id' | 'name' | 'rank' | 'contact_sales' | 'project_limit'>;
type PriceRow = Pick<Tables<'prices'>, 'id' | 'plan_id' | 'billing_period' | 'months' | 'amount_cents' | 'currency' | 'stripe_price_id'>;

/** public.plans and public.prices as the reference data migration fills them (20261121000100_reference_data.sql). */
const PLANS: PlanRow[] = [
  { id: 'basic', name: 'Basic', rank: 1, contact_sales: false, project_limit: 3 },
  { id: 'premium', name: 'Premium', rank: 2, contact_sales: false, project_limit: null },
  { id: 'enterprise', name: 'Enterprise', rank: 3, contact_sales: true, project_limit: null },
];
const CENTS: Record<string, number[]> = { basic: [1900, 5400, 10200, 19000], premium: [4900, 13900, 26400, 49000], enterprise: [9900, 28200, 53400, 99000] };
const PERIODS = [
  ['monthly', 1],
  ['quarterly', 3],
  ['semiannual', 6],
  ['yearly', 12],
] as const;
const PRICES: PriceRow[] = PLANS.flatMap((plan, p) =>
  PERIODS.map(([period, months], i) => ({
    id: p * 4 + i + 1,
    plan_id: plan.id,
    billing_period: period,
    months,
    amount_cents: CENTS[plan.id]![i]!,
    currency: 'eur',
    stripe_price_id: `price_${plan.id}_${period}`,
  })),
);
const priceHandlers = () => [restRows('plans', PLANS), restRows('prices', PRICES)];
const byTestId = (id: string) => screen.getByTestId(id).textContent;

describe('/prices', () => {
  it('periods, savings, VAT and order buttons in English; Enterprise leads to the contact form', async () => {
    server.use(...priceHandlers());
    renderScreen(<PricesRoute params={{}} locale="en" />, { path: '/prices' });
    expect((await screen.findByTestId('price-basic', {}, WAIT)).textContent).toBe('€19');
    expect(byTestId('price-premium')).toBe('€49');
    expect(byTestId('price-enterprise')).toBe('€99');
    expect(screen.getAllByText('incl. VAT')).toHaveLength(3);
    expect(screen.queryByTestId('saving-basic')).toBeNull();
    expect(byTestId('order-basic')).toBe('Order now, subject to payment');

    const periods = screen.getByTestId('billing-period');
    fireEvent.click(within(periods).getByText('Quarterly'));
    await waitFor(() => expect(byTestId('price-basic')).toBe('€54'));
    expect(byTestId('saving-basic')).toBe('Save 5% vs. monthly');
    expect(screen.queryByTestId('free-months-basic')).toBeNull();

    fireEvent.click(within(periods).getByText('6 months'));
    await waitFor(() => expect(byTestId('price-premium')).toBe('€264'));
    expect(byTestId('saving-premium')).toBe('Save 10% vs. monthly');
    expect(byTestId('monthly-equivalent-premium')).toBe('equals €44 per month');

    fireEvent.click(within(periods).getByText('Yearly'));
    await waitFor(() => expect(byTestId('price-basic')).toBe('€190'));
    expect(byTestId('saving-basic')).toBe('Save 17% vs. monthly');
    for (const plan of ['basic', 'premium', 'enterprise']) expect(byTestId(`free-months-${plan}`)).toBe('2 months free');

    expect(screen.getByTestId('order-enterprise').getAttribute('href')).toBe('/contact?topic=enterprise');
  });

  it('German: end prices incl. MwSt., "2 Monate gratis", "zahlungspflichtig bestellen"', async () => {
    server.use(...priceHandlers());
    renderScreen(<PricesRoute params={{}} locale="de" />, { path: '/de/prices?period=yearly' });
    expect((await screen.findByTestId('price-premium', {}, WAIT)).textContent).toMatch(/^490\s€$/);
    expect(byTestId('free-months-premium')).toBe('2 Monate gratis');
    expect(byTestId('saving-premium')).toMatch(/^17\s%\sgespart ggü\. monatlich$/);
    expect(byTestId('monthly-equivalent-premium')).toMatch(/^entspricht 40,83\s€ pro Monat$/);
    expect(screen.getAllByText('inkl. MwSt.')).toHaveLength(3);
    expect(byTestId('order-premium')).toBe('Jetzt zahlungspflichtig bestellen');
  });

  it('a logged-out choice is remembered and leads to the login (de)', async () => {
    server.use(...priceHandlers());
    const view = renderScreen(<PricesRoute params={{}} locale="de" />, { path: '/de/prices' });
    const order = await screen.findByTestId('order-premium', {}, WAIT);
    await waitFor(() => expect(order.hasAttribute('disabled')).toBe(false));
    fireEvent.click(within(screen.getByTestId('billing-period')).getByText('Vierteljährlich'));
    fireEvent.click(order);
    await waitFor(() => expect(view.location()).toBe('/de/login'));
    expect([localStorage.getItem('selectedPlan'), localStorage.getItem('pricePlan')]).toEqual(['premium', 'quarterly']);
  });

  it('"Already have an account? Log in" is offered to visitors, in both languages', async () => {
    for (const locale of ['en', 'de'] as const) {
      server.use(...priceHandlers());
      renderScreen(<PricesRoute params={{}} locale={locale} />, { path: locale === 'de' ? '/de/prices' : '/prices' });
      await screen.findByTestId('price-basic', {}, WAIT);
      expect(screen.getByTestId('prices-have-account').textContent).toContain(t(locale, 'prices.haveAccount'));
      expect(within(screen.getByTestId('prices-have-account')).getByRole('link', { name: t(locale, 'prices.login') }).getAttribute('href')).toBe(locale === 'de' ? '/de/login' : '/login');
      cleanup();
    }
  });
});

describe('/subscription-required', () => {
  it('explains the plans with their monthly prices and links to /prices (de)', async () => {
    server.use(...priceHandlers());
    renderScreen(<SubscriptionRequiredRoute params={{}} locale="de" />, { path: '/de/subscription-required' });
    await waitFor(() => expect(screen.getByTestId('required-plan-premium').textContent).toMatch(/Premium49\s€ pro Monat/), WAIT);
    expect(screen.getByRole('link', { name: 'Tarife ansehen' }).getAttribute('href')).toBe('/de/prices');
  });
});

describe('payment return pages (spec §8)', () => {
  /** verify-payment's answer for a paid session (supabase/functions/verify-payment). */
  const VERIFIED = {
    customerId: 'cus_test_1',
    subscriptionId: 'sub_test_1',
    priceId: 'price_basic_monthly',
    customerEmail: 'member@example.com',
    periodStart: '2026-11-27T10:00:00Z',
    periodEnd: '2026-12-27T10:00:00Z',
    status: 'active',
    planId: 'basic',
    userRole: 'basic',
  };

  it('/payment/success and /signup name the missing session id in both languages, without a retry', async () => {
    // no request at all: MSW has no handler, and an unhandled request fails the test
    renderScreen(<PaymentSuccessRoute params={{}} locale="en" />, { path: '/payment/success' });
    expect(screen.getByTestId('payment-failed').textContent).toMatch(/Session ID is missing\. Please contact support if the problem persists\./);
    cleanup();
    renderScreen(<SignupRoute params={{}} locale="en" />, { path: '/signup' });
    expect(screen.getByTestId('payment-failed').textContent).toMatch(/No session ID found\. Please try again or contact support\./);
    // the heading no longer says "Activating …" beside the failure (issue 33 §11)
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Your subscription is not active yet');
    cleanup();
    renderScreen(<PaymentSuccessRoute params={{}} locale="de" />, { path: '/de/payment/success' });
    expect(screen.getByTestId('payment-failed').textContent).toMatch(/Die Sitzungs-ID fehlt\./);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Ihr Abonnement ist noch nicht aktiv');
    expect(screen.queryByTestId('payment-retry')).toBeNull();
  });

  it('an unknown session: "could not verify" (en) and the error named on /de/signup', async () => {
    server.use(http.post(`${FUNCTIONS_URL}/verify-payment`, () => functionError(404, 'not_found', 'Checkout session not found')));
    renderScreen(<PaymentSuccessRoute params={{}} locale="en" />, { path: '/payment/success?session_id=cs_test_unknown000' });
    expect((await screen.findByTestId('payment-failed', {}, WAIT)).textContent).toContain("We couldn't verify your payment. Please try again or contact support.");
    cleanup();
    renderScreen(<SignupRoute params={{}} locale="de" />, { path: '/de/signup?session_id=cs_test_unknown000' });
    expect((await screen.findByTestId('payment-failed', {}, WAIT)).textContent).toContain('Bei der Prüfung Ihrer Zahlung ist ein Fehler aufgetreten:');
  });

  it('Stripe down: "try again later", and the retry confirms', async () => {
    let calls = 0;
    server.use(
      http.post(`${FUNCTIONS_URL}/verify-payment`, () => {
        calls += 1;
        return calls === 1 ? functionError(503, 'stripe_unavailable', 'Stripe is not reachable') : HttpResponse.json(VERIFIED);
      }),
      http.post(`${REST_URL}/rpc/has_active_subscription`, () => HttpResponse.json(true)),
    );
    renderScreen(<PaymentSuccessRoute params={{}} locale="en" />, { path: '/payment/success?session_id=cs_test_paid' });
    expect((await screen.findByTestId('payment-failed', {}, WAIT)).textContent).toContain('An error occurred during verification. Please try again later.');
    fireEvent.click(screen.getByTestId('payment-retry'));
    expect((await screen.findByTestId('payment-confirmed', {}, WAIT)).textContent).toContain('Subscription activated');
    expect(screen.getByTestId('step-updating').getAttribute('data-state')).toBe('done');
    expect(calls).toBe(2);
  });

  it('/signup says the subscription is active once it is, in both languages', async () => {
    server.use(
      http.post(`${FUNCTIONS_URL}/verify-payment`, () => HttpResponse.json(VERIFIED)),
      http.post(`${REST_URL}/rpc/has_active_subscription`, () => HttpResponse.json(true)),
    );
    for (const locale of ['en', 'de'] as const) {
      renderScreen(<SignupRoute params={{}} locale={locale} />, { path: `${locale === 'de' ? '/de' : ''}/signup?session_id=cs_test_paid_${locale}` });
      await screen.findByTestId('payment-confirmed', {}, WAIT);
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(t(locale, 'billing.verify.title.done'));
      expect(screen.getByRole('heading', { level: 1 }).textContent).not.toBe(t(locale, 'billing.verify.title.signup'));
      cleanup();
    }
  });

  it('verified, but the database grants no plan: the profile-update step fails with a retry (de)', async () => {
    server.use(
      http.post(`${FUNCTIONS_URL}/verify-payment`, () => HttpResponse.json({ ...VERIFIED, planId: 'premium', status: 'canceled' })),
      http.post(`${REST_URL}/rpc/has_active_subscription`, () => HttpResponse.json(false)),
    );
    renderScreen(<SignupRoute params={{}} locale="de" />, { path: '/de/signup?session_id=cs_test_ended' });
    expect((await screen.findByTestId('payment-failed', {}, WAIT)).textContent).toContain('Die automatische Aktualisierung ist fehlgeschlagen. Bitte versuchen Sie es erneut.');
    expect(screen.getByTestId('step-verifying').getAttribute('data-state')).toBe('done');
    expect(screen.getByTestId('step-updating').getAttribute('data-state')).toBe('failed');
    expect(screen.getByTestId('payment-retry')).toBeTruthy();
  });
});

describe('Verträge hier kündigen (§312k BGB)', () => {
  it('the footer links to it', () => {
    renderScreen(<SiteFooter />, { path: '/de/impressum' });
    expect(screen.getByRole('link', { name: 'Verträge hier kündigen' }).getAttribute('href')).toBe('/de/cancel-subscription');
  });

  it('works logged out, validates and confirms (de)', async () => {
    let sent: Record<string, unknown> | null = null;
    server.use(
      http.post(`${FUNCTIONS_URL}/cancel-contract`, async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ received: true, requestId: 'KND-2026-0042', confirmation: 'email' }, { status: 202 });
      }),
    );
    renderScreen(<CancelSubscriptionRoute params={{}} locale="de" />, { path: '/de/cancel-subscription' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Verträge hier kündigen');
    const submit = screen.getByRole('button', { name: 'Jetzt kündigen' });
    fireEvent.click(submit);
    expect(await screen.findByText('Bitte geben Sie Ihren Namen ein (höchstens 200 Zeichen).')).toBeTruthy();
    expect(screen.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Vor- und Nachname/), { target: { value: 'Erika Mustermann' } });
    fireEvent.change(screen.getByLabelText(/E-Mail-Adresse Ihres Kontos/), { target: { value: 'kuendigung@example.com' } });
    fireEvent.click(screen.getByLabelText('Einem bestimmten Datum'));
    fireEvent.change(await screen.findByLabelText(/^Datum/), { target: { value: '2020-01-01' } });
    fireEvent.click(submit);
    expect(await screen.findByText('Das Datum darf nicht in der Vergangenheit liegen.')).toBeTruthy();
    expect(sent).toBeNull();
    fireEvent.click(screen.getByLabelText('Nächstmöglichen Zeitpunkt (Ende des aktuellen Abrechnungszeitraums)'));
    fireEvent.click(submit);
    expect((await screen.findByTestId('cancellation-received', {}, WAIT)).textContent).toContain('Wir haben Ihre Kündigung erhalten.');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Kündigung eingegangen');
    expect(sent).toMatchObject({ name: 'Erika Mustermann', email: 'kuendigung@example.com', requestedDate: 'asap', locale: 'de' });
  });
});

// last in the file: the SPA's session (lib/session.ts) is module state and stays signed in
describe('/prices signed in', () => {
  it('"Already have an account? Log in" is for visitors only: a member gets the order buttons and no log-in', async () => {
    // a free member without a subscription
    signInAs();
    startSession();
    for (const locale of ['en', 'de'] as const) {
      // the own subscription is asked for with the member's id: the session is restored, not still restoring
      let asked = '';
      server.use(
        ...priceHandlers(),
        restRows('subscriptions', (query) => {
          asked = query.get('user_id') ?? '';
          return [];
        }),
      );
      renderScreen(<PricesRoute params={{}} locale={locale} />, { path: locale === 'de' ? '/de/prices' : '/prices' });
      const order = await screen.findByTestId('order-basic', {}, WAIT);
      await waitFor(() => expect(order.hasAttribute('disabled')).toBe(false));
      await waitFor(() => expect(asked).toBe(`eq.${MEMBER.id}`), WAIT);
      expect(screen.queryByTestId('prices-have-account')).toBeNull();
      expect(screen.queryByText(t(locale, 'prices.haveAccount'))).toBeNull();
      expect(screen.queryByRole('link', { name: t(locale, 'nav.login') })).toBeNull();
      cleanup();
    }
  });
});

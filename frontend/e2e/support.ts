import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { expect, type Page } from '@playwright/test';
import ws from 'ws';
import { axe } from './axe';
import de from '../src/i18n/de.json' with { type: 'json' };
import en from '../src/i18n/en.json' with { type: 'json' };
import { stackConfig } from '../../scripts/local-stack/config.ts';

export const PRODUCT = 'Teamwerk';
/** The local stack of TEAMWERK_STACK_OFFSET: ports and the keys generated for its data folder (issue 12 §3). */
export const stack = stackConfig();
export const offset = stack.offset;
/** Gateway of the local stack of this offset, unless VITE_SUPABASE_URL says otherwise. */
export const apiUrl = process.env.VITE_SUPABASE_URL ?? stack.apiUrl;
export const ANON_KEY = process.env.VITE_SUPABASE_ANON_KEY ?? stack.anonKey;
export const SERVICE_ROLE_KEY = process.env.SUPABASE_SERVICE_ROLE_KEY ?? stack.serviceRoleKey;

type Catalogue = Record<string, string>;
export const messages: Record<'en' | 'de', Catalogue> = { en, de };

/** A public page: plain path and the message id of its title (spec §2). */
export interface PublicPage {
  path: string;
  titleKey: string;
}

/**
 * Every public route that renders without parameters or sign-in, plus samples of parameterised
 * ones: published records of the deterministic demo data (supabase/seed.sql).
 */
export const PUBLIC_PAGES: PublicPage[] = [
  { path: '/', titleKey: 'page.landing.title' },
  { path: '/login', titleKey: 'page.login.title' },
  { path: '/password-reset', titleKey: 'page.password-reset.title' },
  { path: '/password-update', titleKey: 'page.password-update.title' },
  { path: '/registration', titleKey: 'page.registration.title' },
  { path: '/registration/success', titleKey: 'page.registration-success.title' },
  { path: '/prices', titleKey: 'page.prices.title' },
  { path: '/search', titleKey: 'page.search.title' },
  { path: '/unified-search', titleKey: 'page.unified-search.title' },
  { path: '/signup', titleKey: 'page.signup.title' },
  { path: '/confirm', titleKey: 'page.confirm.title' },
  { path: '/confirm-email', titleKey: 'page.confirm-email.title' },
  { path: '/contact', titleKey: 'page.contact.title' },
  { path: '/impressum', titleKey: 'page.impressum.title' },
  { path: '/newsletter', titleKey: 'page.newsletter.title' },
  { path: '/newsletter-thankyou', titleKey: 'page.newsletter-thankyou.title' },
  { path: '/our-guidelines', titleKey: 'page.guidelines.title' },
  { path: '/ueber-teamwerk', titleKey: 'page.about.title' },
  { path: '/working-remote-jobs', titleKey: 'page.remote-jobs.title' },
  { path: '/subscription-required', titleKey: 'page.subscription-required.title' },
  { path: '/portfolio/create', titleKey: 'page.portfolio-create.title' },
  { path: '/payment/success', titleKey: 'page.payment-success.title' },
  { path: '/cancel-subscription', titleKey: 'page.cancel-subscription.title' },
  { path: '/events', titleKey: 'page.events.title' },
  { path: '/map', titleKey: 'page.map.title' },
  { path: '/events/networking-evening-for-creatives-berlin-12', titleKey: 'page.event.title' },
  { path: '/jobs', titleKey: 'page.jobs.title' },
  { path: '/jobs/lab-technician-biotech-gruenfeld-237', titleKey: 'page.job.title' },
  { path: '/u/sophie-braun', titleKey: 'page.profile.title' },
  { path: '/1-marktplatz-fuer-gebrauchte-laborgeraete', titleKey: 'page.project-detail.title' },
  { path: '/legal/widerufsbelehrung', titleKey: 'page.withdrawal.title' },
  { path: '/legal/Datenschutzhinweise', titleKey: 'page.privacy.title' },
  { path: '/legal/nutzungsvereinbarung', titleKey: 'page.terms.title' },
  { path: '/legal/anbieterkennzeichnung', titleKey: 'page.provider.title' },
  { path: '/admin/login', titleKey: 'page.admin-login.title' },
];

/** `/prices` → `/de/prices`, `/` → `/de`. */
export const dePath = (path: string) => (path === '/' ? '/de' : `/de${path}`);

/** The document title a page must have in a locale. */
export function expectedTitle(page: PublicPage, locale: 'en' | 'de'): string {
  const title = messages[locale][page.titleKey]!.replace('{product}', PRODUCT);
  return page.path === '/' ? title : `${title} | ${PRODUCT}`;
}

/** Collects console errors and uncaught exceptions of a page. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

/** Fails with a clear message when the local stack of this offset is not running. */
export async function expectStackUp(): Promise<void> {
  const res = await fetch(`${apiUrl}/rest/v1/`, { headers: { apikey: ANON_KEY } }).catch(() => null);
  expect(res?.ok, `local stack not reachable at ${apiUrl} (TEAMWERK_STACK_OFFSET=${offset} npm run stack:start)`).toBe(true);
}

/** supabase-js client for the test process (Node 20 needs `ws` for realtime). */
export function nodeClient(key: string): SupabaseClient {
  return createClient(apiUrl, key, { auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: ws as unknown as typeof globalThis.WebSocket } });
}

/** Fails on serious or critical axe-core violations of the current page (WCAG 2.1 AA). */
export async function expectAccessible(page: Page, label: string) {
  // snackbars come from the shell's notify() (their close button is labelled there)
  const results = await axe(page).exclude('.mantine-Notification-root').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, label).toEqual([]);
}

/**
 * Gives a test user a live paid subscription row, which is what the payment-required guard asks
 * for through public.has_active_subscription() (spec §6), without going through checkout.
 * @param service a service-role client; planId basic, premium or enterprise; period 30 days from now
 */
export async function grantActiveSubscription(service: SupabaseClient, userId: string, planId: string): Promise<void> {
  const now = new Date();
  const subscription = await service.from('subscriptions').insert({
    user_id: userId,
    plan_id: planId,
    status: 'active',
    stripe_customer_id: `cus_e2e_${userId.slice(0, 8)}`,
    stripe_subscription_id: `sub_e2e_${userId.slice(0, 8)}_${now.getTime()}`,
    current_period_start: now.toISOString(),
    current_period_end: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
    last_synced_at: now.toISOString(),
  });
  expect(subscription.error).toBeNull();
}

/**
 * Runs the e-mail queue once now (process-email-queue, as pg_cron does every minute), so a test
 * that reads the mailbox does not wait for the next minute. Errors: the request's status when not 2xx.
 */
export async function runEmailQueue(): Promise<void> {
  const res = await fetch(`${apiUrl}/functions/v1/process-email-queue`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${SERVICE_ROLE_KEY}`, apikey: SERVICE_ROLE_KEY, 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(res.ok, `process-email-queue answered ${res.status}`).toBe(true);
}

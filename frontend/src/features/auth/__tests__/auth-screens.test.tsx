// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_URL, FUNCTIONS_URL, functionError, mockNetwork } from '@/test/msw';
import { field, renderScreen, t } from '@/test/render';
import ConfirmEmailRoute from '../routes/confirm-email';
import LoginRoute from '../routes/login';
import PasswordUpdateRoute from '../routes/password-update';
import RegistrationRoute from '../routes/registration';

/**
 * The sign-in screens without a stack (spec §4, §5, §8; issue 6, issue 33 §8): the login form shows
 * each refusal of `login-check` once, in the form, in the page's language; a legacy account goes
 * to /password-update; confirmation links the function refuses offer a new link; the OAuth buttons
 * follow Auth's settings; the German registration names its password rules. The answers are the
 * functions' and Auth's as their own tests pin them (supabase/functions/login-check/handler_test.ts,
 * complete-password-reset/forged_token_test.ts, _shared/tokens_test.ts); the journeys through
 * the mailbox stay in e2e/accounts-auth.spec.ts.
 */
const server = mockNetwork();
const WAIT = { timeout: 10_000 };
afterEach(cleanup);
beforeEach(() => localStorage.clear());

/** login-check's refusals (supabase/functions/login-check/handler.ts LOGIN_MESSAGES, status and code). */
const REFUSALS = {
  en: {
    'suspended@teamwerk.test': [403, 'suspended', 'Your account has been suspended. Please contact support.'],
    'unconfirmed@teamwerk.test': [403, 'email_not_confirmed', 'Email is not confirmed. Please check your email.'],
    'basic@teamwerk.test': [400, 'invalid_credentials', 'Invalid login credentials'],
    'olduser@teamwerk.test': [409, 'password_update_required', 'Please set a new password.'],
  },
  de: {
    'suspended@teamwerk.test': [403, 'suspended', 'Ihr Konto wurde gesperrt. Bitte kontaktieren Sie den Support.'],
    'unconfirmed@teamwerk.test': [403, 'email_not_confirmed', 'E-Mail ist nicht bestätigt. Prüfen Sie Ihre E-Mail.'],
    'basic@teamwerk.test': [400, 'invalid_credentials', 'Ungültige Anmeldedaten.'],
    'olduser@teamwerk.test': [409, 'password_update_required', 'Bitte legen Sie ein neues Passwort fest.'],
  },
} as const;

/** Auth's settings with Google and LinkedIn enabled, as the stack's config.toml has them. */
const SETTINGS = { external: { email: true, google: true, linkedin_oidc: true, github: false }, disable_signup: false, mailer_autoconfirm: false };

/** login-check answering with REFUSALS in the request's language; Auth's settings as given. */
function loginCheck(settings: object = SETTINGS) {
  return [
    http.post(`${FUNCTIONS_URL}/login-check`, async ({ request }) => {
      const body = (await request.json()) as { email: keyof (typeof REFUSALS)['en']; locale: 'en' | 'de' };
      const [status, code, message] = REFUSALS[body.locale][body.email];
      return functionError(status, code, message);
    }),
    http.get(`${AUTH_URL}/settings`, () => HttpResponse.json(settings)),
  ];
}

function loginAt(path: string) {
  return renderScreen(
    <Routes>
      <Route path="/login" element={<LoginRoute />} />
      <Route path="/de/login" element={<LoginRoute />} />
      <Route path="/password-update" element={<PasswordUpdateRoute />} />
      <Route path="/de/password-update" element={<PasswordUpdateRoute />} />
    </Routes>,
    { path },
  );
}

for (const [locale, prefix] of [
  ['en', ''],
  ['de', '/de'],
] as const) {
  it(`login rules with their exact messages, each once and in the form (${locale})`, async () => {
    server.use(...loginCheck());
    const view = loginAt(`${prefix}/login`);
    const login = async (email: string) => {
      fireEvent.change(field(t(locale, 'auth.field.email')), { target: { value: email } });
      fireEvent.change(field(t(locale, 'auth.field.password')), { target: { value: 'Teamwerk!2026' } });
      fireEvent.click(screen.getByRole('button', { name: t(locale, 'auth.login.submit') }));
    };
    for (const email of ['suspended@teamwerk.test', 'unconfirmed@teamwerk.test', 'basic@teamwerk.test'] as const) {
      await login(email);
      await waitFor(() => expect(screen.getByTestId('login-error').textContent).toBe(REFUSALS[locale][email][2]), WAIT);
    }
    // each error is shown once, in the form: no snackbar repeats it (issue 33 §8)
    expect(screen.getAllByText(REFUSALS[locale]['basic@teamwerk.test'][2])).toHaveLength(1);
    expect(document.querySelectorAll('.mantine-Notification-root')).toHaveLength(0);
    await login('olduser@teamwerk.test');
    await waitFor(() => expect(view.location()).toBe(`${prefix}/password-update`), WAIT);
    expect((await screen.findByTestId('password-update-explain')).textContent).toBe(t(locale, 'auth.update.needLink'));
  });
}

describe('a locked account (issue 12 finding 9, issue 29 §2)', () => {
  // login-check answers 429 over_request_rate_limit after ten wrong passwords, even for the right
  // one (supabase/functions/login-check/handler_test.ts); the page says so in its language
  for (const [locale, prefix, message] of [
    ['en', '', 'Too many sign-in attempts. For your security, please wait 15 minutes and try again, or reset your password.'],
    ['de', '/de', 'Zu viele Anmeldeversuche. Zu Ihrer Sicherheit warten Sie bitte 15 Minuten und versuchen es dann erneut, oder setzen Sie Ihr Passwort zurück.'],
  ] as const) {
    it(`gets the rate-limit message on the login page (${locale})`, async () => {
      server.use(
        http.post(`${FUNCTIONS_URL}/login-check`, () => functionError(429, 'over_request_rate_limit', 'Too many sign-in attempts for this account. Please try again in 15 minutes.')),
        http.get(`${AUTH_URL}/settings`, () => HttpResponse.json(SETTINGS)),
      );
      const view = loginAt(`${prefix}/login`);
      fireEvent.change(field(t(locale, 'auth.field.email')), { target: { value: 'rita.rate@example.com' } });
      fireEvent.change(field(t(locale, 'auth.field.password')), { target: { value: 'Correct-Horse-42' } });
      fireEvent.click(screen.getByRole('button', { name: t(locale, 'auth.login.submit') }));
      await waitFor(() => expect(screen.getByTestId('login-error').textContent).toBe(message), WAIT);
      expect(view.location()).toBe(`${prefix}/login`);
    });
  }
});

describe('confirmation links confirm-email refuses (400 token_expired)', () => {
  it('expired, forged and altered links say so and offer a new one (en, de)', async () => {
    const tokens: string[] = [];
    server.use(
      http.post(`${FUNCTIONS_URL}/confirm-email`, async ({ request }) => {
        tokens.push(((await request.json()) as { token: string }).token);
        return functionError(400, 'token_expired', 'This link has expired or is invalid');
      }),
    );
    renderScreen(<ConfirmEmailRoute />, { path: '/confirm-email?token=expired.token' });
    await waitFor(() => expect(screen.getByTestId('confirm-result').textContent).toBe('This link has expired or is invalid.'), WAIT);
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe('/confirm');
    cleanup();
    renderScreen(<ConfirmEmailRoute />, { path: '/de/confirm-email?token=forged.token' });
    await waitFor(() => expect(screen.getByTestId('confirm-result').textContent).toBe('Dieser Link ist abgelaufen oder ungültig.'), WAIT);
    cleanup();
    renderScreen(<ConfirmEmailRoute />, { path: '/confirm-email?token=payload.alteredAA' });
    await waitFor(() => expect(screen.getByTestId('confirm-result').textContent).toBe('This link has expired or is invalid.'), WAIT);
    expect(tokens).toEqual(['expired.token', 'forged.token', 'payload.alteredAA']);
  });
});

describe('OAuth buttons', () => {
  it('the login page offers only the providers Auth reports enabled', async () => {
    server.use(...loginCheck());
    loginAt('/login');
    expect(await screen.findByRole('button', { name: 'Sign in with Google' }, WAIT)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in with LinkedIn' })).toBeTruthy();
    cleanup();
    // Auth's answer with Google switched off: no Google button
    server.use(...loginCheck({ ...SETTINGS, external: { ...SETTINGS.external, google: false } }));
    loginAt('/login');
    expect(await screen.findByRole('button', { name: 'Sign in with LinkedIn' }, WAIT)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in with Google' })).toBeNull();
  });
});

describe('registration', () => {
  it('the German form names its password rules and refuses a weak password before sending', async () => {
    renderScreen(<RegistrationRoute />, { path: '/de/registration' });
    fireEvent.change(field('Passwort'), { target: { value: 'kurz' } });
    await waitFor(() => expect(screen.getByTestId('password-rules').textContent).toContain('mindestens 8 Zeichen'));
    fireEvent.click(screen.getByRole('button', { name: 'Registrieren' }));
    expect(await screen.findByText('Das Passwort erfüllt nicht alle Regeln.')).toBeTruthy();
    expect(within(screen.getByTestId('password-rules')).getAllByText(/.+/).length).toBeGreaterThan(0);
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '@/lib/query-client';
import { mockNetwork, REST_URL } from '@/test/msw';
import { field, renderScreen, t } from '@/test/render';
import ContactRoute from '../routes/contact';

/**
 * /contact without a stack (spec §2, §9; issue 12 §8; issue 33 §8): a topic preset from the link
 * (/prices' Enterprise button), the German validation, a POST that fails is sent exactly once and
 * said in a snackbar, and the database's 429 (supabase/tests/mail-limits.test.ts) is said once,
 * above the form, which keeps what was typed. Storing a message stays in e2e/stack.spec.ts.
 */
const server = mockNetwork();
const WAIT = { timeout: 10_000 };
afterEach(cleanup);

/** Fills the German form as a visitor does. */
function fillGerman(subject = 'Noch eine Frage') {
  fireEvent.change(field('Name'), { target: { value: 'Erika Mustermann' } });
  fireEvent.change(field('E-Mail-Adresse'), { target: { value: 'erika@example.com' } });
  fireEvent.change(field('Betreff'), { target: { value: subject } });
  fireEvent.change(field('Nachricht'), { target: { value: 'Gibt es einen Rabatt für Studierende?' } });
  fireEvent.click(screen.getByRole('checkbox', { name: /Ich bin einverstanden/ }));
}

describe('/contact', () => {
  it('takes its topic from the link: /contact?topic=enterprise', () => {
    renderScreen(<ContactRoute params={{}} locale="en" />, { path: '/contact?topic=enterprise' });
    expect((field('Topic') as unknown as HTMLSelectElement).value).toBe('enterprise');
  });

  it('validates the German form before sending anything', async () => {
    renderScreen(<ContactRoute params={{}} locale="de" />, { path: '/de/contact' });
    fireEvent.click(screen.getByRole('button', { name: 'Nachricht senden' }));
    expect(await screen.findByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeTruthy();
  });

  it('a failing POST is sent once (never retried, spec §9) and said in a snackbar', async () => {
    let posts = 0;
    server.use(
      http.post(`${REST_URL}/contact_messages`, () => {
        posts += 1;
        return HttpResponse.json({ message: 'unavailable' }, { status: 503 });
      }),
    );
    // the app's own query client: its retry policy decides
    renderScreen(<ContactRoute params={{}} locale="en" />, { path: '/contact', queryClient });
    fireEvent.change(field('Name'), { target: { value: 'Max Mustermann' } });
    fireEvent.change(field('E-mail address'), { target: { value: 'max@example.com' } });
    fireEvent.change(field('Subject'), { target: { value: 'Retry check' } });
    fireEvent.change(field('Message'), { target: { value: 'This message must be sent exactly once.' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /I agree/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText(t('en', 'contact.failure'), {}, WAIT)).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(posts).toBe(1);
  });

  it('the rate limit (429) is said once, above the form, which keeps what was typed (de)', async () => {
    let posts = 0;
    server.use(
      http.post(`${REST_URL}/contact_messages`, () => {
        posts += 1;
        return HttpResponse.json({ code: 'PT429', message: 'rate_limited', details: null, hint: null }, { status: 429 });
      }),
    );
    renderScreen(<ContactRoute params={{}} locale="de" />, { path: '/de/contact' });
    fillGerman();
    fireEvent.click(screen.getByRole('button', { name: 'Nachricht senden' }));
    await waitFor(() => expect(screen.getByTestId('contact-rate-limited').textContent).toBe(t('de', 'contact.rateLimited')), WAIT);
    expect(screen.queryByTestId('contact-sent')).toBeNull();
    expect(screen.getAllByText(t('de', 'contact.rateLimited'))).toHaveLength(1);
    expect(document.querySelectorAll('.mantine-Notification-root')).toHaveLength(0);
    expect(field('Betreff').value).toBe('Noch eine Frage');
    expect(posts).toBe(1);
  });
});

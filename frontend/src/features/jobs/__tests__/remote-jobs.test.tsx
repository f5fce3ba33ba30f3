// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '@/lib/query-client';
import { mockNetwork, REST_URL } from '@/test/msw';
import { renderScreen } from '@/test/render';
import RemoteJobsRoute from '../routes/remote-jobs';

/**
 * /working-remote-jobs without a stack (spec §2): the list, the empty state and the error with
 * its retry, as the browser test of the page sees them, with PostgREST answered by MSW; the app's
 * retry policy on a failing GET.
 */
const server = mockNetwork();
/** The first request loads supabase-js (a dynamic import), which takes a moment on a busy machine. */
const WAIT = { timeout: 10_000 };
afterEach(cleanup);

const JOB = {
  id: 'frontend-dev-berlin',
  title: 'Frontend developer (m/w/d)',
  company: 'Solarrad GmbH',
  city: 'Berlin',
  employment_type: 'full_time',
  category: 'technology',
  posted_at: '2026-11-20T10:00:00Z',
  language: 'de',
};

describe('remote jobs page', () => {
  it('lists the remote jobs with title, company, city, type and category, newest first as asked', async () => {
    let query = '';
    server.use(
      http.get(`${REST_URL}/jobs`, ({ request }) => {
        query = new URL(request.url).search;
        return HttpResponse.json([JOB]);
      }),
    );
    renderScreen(<RemoteJobsRoute params={{}} locale="en" />, { path: '/working-remote-jobs' });
    const link = await screen.findByRole('link', { name: JOB.title }, WAIT);
    expect(link.getAttribute('href')).toBe(`/jobs/${JOB.id}`);
    const list = screen.getByTestId('remote-jobs-list');
    expect(list.textContent).toContain('Solarrad GmbH');
    expect(list.textContent).toContain('Berlin');
    expect(list.textContent).toContain('Full time');
    expect(list.textContent).toContain('Technology');
    const params = new URLSearchParams(query);
    expect(params.get('remote')).toBe('eq.true');
    expect(params.get('order')).toBe('posted_at.desc');
    expect(params.get('limit')).toBe('50');
  });

  it('says so when there are none', async () => {
    server.use(http.get(`${REST_URL}/jobs`, () => HttpResponse.json([])));
    renderScreen(<RemoteJobsRoute params={{}} locale="de" />, { path: '/de/working-remote-jobs' });
    expect((await screen.findByTestId('remote-jobs-empty', {}, WAIT)).textContent).not.toBe('');
  });

  it('shows the error with a retry that loads the list again', async () => {
    let calls = 0;
    server.use(
      http.get(`${REST_URL}/jobs`, () => {
        calls += 1;
        return calls === 1 ? HttpResponse.json({ message: 'boom' }, { status: 500 }) : HttpResponse.json([JOB]);
      }),
    );
    renderScreen(<RemoteJobsRoute params={{}} locale="en" />, { path: '/working-remote-jobs' });
    const error = await screen.findByTestId('remote-jobs-error', {}, WAIT);
    expect(error.textContent).toContain('The jobs could not be loaded.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: JOB.title }, WAIT)).toBeTruthy();
    expect(calls).toBe(2);
  });

  it("with the app's query client a failing GET is asked exactly twice (one retry, spec §9), then the error shows", async () => {
    let calls = 0;
    server.use(
      http.get(`${REST_URL}/jobs`, () => {
        calls += 1;
        return HttpResponse.json({ message: 'unavailable' }, { status: 503 });
      }),
    );
    renderScreen(<RemoteJobsRoute params={{}} locale="en" />, { path: '/working-remote-jobs', queryClient });
    expect(await screen.findByTestId('remote-jobs-error', {}, WAIT)).toBeTruthy();
    // nothing else asks again meanwhile
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(calls).toBe(2);
  });
});

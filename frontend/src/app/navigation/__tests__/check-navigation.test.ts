import { describe, expect, it, vi } from 'vitest';
import { NavigationError } from '@/lib/navigation-error';
import type { GuardName, RouteDef } from '@/lib/route-def';
import { checkNavigation, type NavigationDeps } from '../check-navigation';
import { GUARDS, runGuards, type GuardContext } from '../guards';

const load = async () => ({ default: () => null });
const def = (over: Partial<RouteDef> & Pick<RouteDef, 'id' | 'pattern'>): RouteDef => ({
  layout: 'default',
  titleKey: 't',
  descriptionKey: 'd',
  load,
  ...over,
});

/** Fake session facts: who is signed in and with which role. */
function deps(user: { id: string; role: string } | null): NavigationDeps & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    userId: async () => {
      calls.push('userId');
      return user?.id ?? null;
    },
    hasActiveSubscription: async (id) => {
      calls.push(`sub:${id}`);
      return !!user && ['basic', 'premium', 'enterprise', 'admin'].includes(user.role);
    },
    isAdmin: async (id) => {
      calls.push(`admin:${id}`);
      return user?.role === 'admin';
    },
  };
}

const url = (path: string) => new URL(`http://127.0.0.1${path}`);
const userHome = def({ id: 'user-home', pattern: '/user', layout: 'user', guards: ['auth', 'payment-required'] });
const feedback = def({ id: 'user-feedback', pattern: '/user/feedback', layout: 'user', guards: ['auth'] });
const admin = def({ id: 'admin', pattern: '/admin', layout: 'admin', guards: ['admin'] });
const detail = def({
  id: 'project-detail',
  pattern: '/:id-:slug',
  validate: (p) => /^\d+$/.test(p.id ?? '') && /^[a-z0-9-]+$/.test(p.slug ?? ''),
});

async function thrown(promise: Promise<unknown>): Promise<NavigationError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof NavigationError) return error;
    throw error;
  }
  throw new Error('expected a NavigationError');
}

describe('checkNavigation (spec §2 navigation behaviour, §8 messages)', () => {
  it('sends a logged-out visitor of any /user path to /login, keeping the locale', async () => {
    expect(await checkNavigation(url('/user'), [userHome], deps(null))).toEqual({ kind: 'redirect', to: '/login' });
    expect(await checkNavigation(url('/de/user/feedback'), [feedback], deps(null))).toEqual({ kind: 'redirect', to: '/de/login' });
    // even an unknown /user path (no route matched) goes to /login first
    expect(await checkNavigation(url('/user/does-not-exist'), null, deps(null))).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('lets a paying user into /user and renders with params and locale', async () => {
    const outcome = await checkNavigation(url('/de/user'), [userHome], deps({ id: 'u1', role: 'premium' }));
    expect(outcome).toMatchObject({ kind: 'render', locale: 'de', params: {} });
    expect(outcome.kind === 'render' && outcome.route.id).toBe('user-home');
  });

  it('sends a signed-in free user of a payment-required route to /subscription-required', async () => {
    expect(await checkNavigation(url('/user'), [userHome], deps({ id: 'u1', role: 'free' }))).toEqual({
      kind: 'redirect',
      to: '/subscription-required',
    });
  });

  it('lets a free user into /user/feedback (auth only, spec §6)', async () => {
    const outcome = await checkNavigation(url('/user/feedback'), [feedback], deps({ id: 'u1', role: 'free' }));
    expect(outcome.kind).toBe('render');
  });

  it('admin guard: admins pass, others go to /admin/login', async () => {
    expect((await checkNavigation(url('/admin'), [admin], deps({ id: 'a', role: 'admin' }))).kind).toBe('render');
    expect(await checkNavigation(url('/admin'), [admin], deps({ id: 'u', role: 'premium' }))).toEqual({
      kind: 'redirect',
      to: '/admin/login',
    });
    expect(await checkNavigation(url('/de/admin'), [admin], deps(null))).toEqual({ kind: 'redirect', to: '/de/admin/login' });
  });

  it('unmatched paths raise the non-fatal "Page not found: {path}"', async () => {
    const error = await thrown(checkNavigation(url('/nothing/here'), null, deps(null)));
    expect(error.message).toBe('Page not found: /nothing/here');
    expect(error.status).toBe(404);
    expect(error.fatal).toBe(false);
  });

  it('a validation failure raises the fatal "Page Not Found: {path}"', async () => {
    const error = await thrown(checkNavigation(url('/abc-project'), [detail], deps(null)));
    expect(error.message).toBe('Page Not Found: /abc-project');
    expect(error.status).toBe(404);
    expect(error.fatal).toBe(true);
    const ok = await checkNavigation(url('/de/42-my-project'), [detail], deps(null));
    expect(ok).toMatchObject({ kind: 'render', params: { id: '42', slug: 'my-project' }, locale: 'de' });
  });

  it('a route naming an unknown guard fails with "Unknown route middleware" before any guard runs', async () => {
    const route = def({ id: 'x', pattern: '/x', guards: ['auth', 'no-such-guard' as GuardName] });
    const d = deps({ id: 'u', role: 'premium' });
    const error = await thrown(checkNavigation(url('/x'), [route], d));
    expect(error.message).toBe('Unknown route middleware');
    expect(error.fatal).toBe(true);
    expect(d.calls).toEqual([]);
  });

  it('per-route redirects go to internal paths (locale kept) or external URLs', async () => {
    const internal = def({ id: 'old', pattern: '/old', redirect: '/prices' });
    const external = def({ id: 'ext', pattern: '/docs', redirect: 'https://example.org/docs' });
    const dynamic = def({
      id: 'dashboard',
      pattern: '/dashboard',
      redirect: async ({ isSignedIn }) => ((await isSignedIn()) ? '/user' : '/login'),
    });
    expect(await checkNavigation(url('/de/old'), [internal], deps(null))).toEqual({ kind: 'redirect', to: '/de/prices' });
    expect(await checkNavigation(url('/docs'), [external], deps(null))).toEqual({ kind: 'external', url: 'https://example.org/docs' });
    expect(await checkNavigation(url('/dashboard'), [dynamic], deps(null))).toEqual({ kind: 'redirect', to: '/login' });
    expect(await checkNavigation(url('/de/dashboard'), [dynamic], deps({ id: 'u', role: 'free' }))).toEqual({
      kind: 'redirect',
      to: '/de/user',
    });
  });

  it('picks the candidate whose pattern and validation match (create-project-{id} vs {id})', async () => {
    const create = def({ id: 'create', pattern: '/user/projects/create-project-:id', layout: 'user', guards: ['auth'] });
    const show = def({ id: 'show', pattern: '/user/projects/:id', layout: 'user', guards: ['auth'], validate: (p) => /^\d+$/.test(p.id ?? '') });
    const user = deps({ id: 'u', role: 'premium' });
    const a = await checkNavigation(url('/user/projects/create-project-7'), [create, show], user);
    const b = await checkNavigation(url('/user/projects/7'), [create, show], user);
    expect(a.kind === 'render' && [a.route.id, a.params.id]).toEqual(['create', '7']);
    expect(b.kind === 'render' && [b.route.id, b.params.id]).toEqual(['show', '7']);
    const error = await thrown(checkNavigation(url('/user/projects/abc'), [create, show], user));
    expect(error.message).toBe('Page Not Found: /user/projects/abc');
  });
});

describe('runGuards', () => {
  const ctx = (over: Partial<GuardContext>): GuardContext => ({
    path: '/user',
    userId: async () => 'u',
    hasActiveSubscription: async () => true,
    isAdmin: async () => false,
    ...over,
  });

  it('runs guards in order and stops at the first redirect', async () => {
    const second = vi.fn(async () => null);
    const outcome = await runGuards(['first', 'second'], ctx({}), { first: async () => '/stop', second });
    expect(outcome).toEqual({ kind: 'redirect', to: '/stop' });
    expect(second).not.toHaveBeenCalled();
  });

  it('reports an unknown name without running anything', async () => {
    const auth = vi.fn(GUARDS.auth!);
    expect(await runGuards(['auth', 'nope'], ctx({}), { auth })).toEqual({ kind: 'unknown', name: 'nope' });
    expect(auth).not.toHaveBeenCalled();
  });

  it('does not treat inherited object keys as guards', async () => {
    expect(await runGuards(['toString'], ctx({}))).toEqual({ kind: 'unknown', name: 'toString' });
  });

  it('payment-required: logged out → /login, unpaid → /subscription-required, paid → pass', async () => {
    expect(await runGuards(['payment-required'], ctx({ userId: async () => null }))).toEqual({ kind: 'redirect', to: '/login' });
    expect(await runGuards(['payment-required'], ctx({ hasActiveSubscription: async () => false }))).toEqual({
      kind: 'redirect',
      to: '/subscription-required',
    });
    expect(await runGuards(['payment-required'], ctx({}))).toEqual({ kind: 'pass' });
  });
});

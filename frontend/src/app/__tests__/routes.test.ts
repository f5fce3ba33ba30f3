import { describe, expect, it } from 'vitest';
import { PUBLIC_PAGE_PATHS } from '@site/sitemap';
import { paths } from '@/config/paths';
import { compilePattern, matchPattern } from '../navigation/pattern';
import { GUARDS } from '../navigation/guards';
import { requiresPaidPlan } from '../navigation/paid-paths';
import { ROUTES } from '../routes';

/** Every path of spec §2 with a sample value for each parameter. */
const SPEC_PATHS = [
  '/', '/login', '/password-reset', '/password-update', '/registration', '/registration/success', '/prices', '/search',
  '/unified-search', '/signup', '/register', '/confirm', '/confirm-email', '/contact', '/impressum', '/newsletter',
  '/newsletter-thankyou', '/our-guidelines', '/ueber-teamwerk', '/working-remote-jobs', '/subscription-required',
  '/portfolio/create', '/payment/success', '/events', '/events/summer-meetup', '/jobs', '/jobs/frontend-dev', '/u/anna-schmidt',
  '/12-solar-bikes', '/legal/widerufsbelehrung', '/legal/Datenschutzhinweise', '/legal/nutzungsvereinbarung',
  '/legal/anbieterkennzeichnung', '/dashboard', '/user', '/user/chat', '/user/contacts', '/user/feedback', '/user/settings',
  '/user/favorites', '/user/portfolios', '/user/events', '/user/events/create-event', '/user/projects', '/user/projects/5',
  '/user/projects/create-project-5', '/user/create-portfolio', '/user/edit-portfolio/5', '/admin', '/admin/users',
  '/admin/login', '/cancel-subscription',
];

/** spec §6: exactly these are payment-required. */
const PAYMENT_REQUIRED = [
  '/user', '/user/chat', '/user/contacts', '/user/settings', '/user/favorites', '/user/portfolios', '/user/events',
  '/user/events/create-event', '/user/projects', '/user/projects/create-project-5', '/user/create-portfolio',
];

function resolve(path: string) {
  for (const route of ROUTES) {
    const params = matchPattern(compilePattern(route.pattern), path);
    if (params && (!route.validate || route.validate(params, new URLSearchParams()))) return route;
  }
  return undefined;
}

describe('route table (spec §2, §6)', () => {
  it('has a route for every path of the spec', () => {
    expect(SPEC_PATHS.filter((p) => !resolve(p))).toEqual([]);
  });

  it('has unique ids and only registered guards', () => {
    const ids = ROUTES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const route of ROUTES) for (const guard of route.guards ?? []) expect(Object.hasOwn(GUARDS, guard), `${route.id}:${guard}`).toBe(true);
  });

  it('protects exactly the spec §6 paths with payment-required and every /user path with auth', () => {
    const userPaths = SPEC_PATHS.filter((p) => p === '/user' || p.startsWith('/user/'));
    for (const p of userPaths) {
      const route = resolve(p)!;
      expect(route.guards ?? [], p).toContain('auth');
      expect((route.guards ?? []).includes('payment-required'), p).toBe(PAYMENT_REQUIRED.includes(p));
      expect(route.layout, p).toBe('user');
    }
  });

  it('gives every signed-in member /user/account outside the payment guard (issue 32 §5), in both locales', () => {
    const route = resolve(paths.user.account)!;
    expect(route.id).toBe('user-account');
    expect(route.guards).toEqual(['auth']);
    expect(route.layout).toBe('user');
    expect(route.noindex).toBe(true);
    expect(requiresPaidPlan(paths.user.account)).toBe(false);
    expect(requiresPaidPlan(paths.user.settings)).toBe(true);
    expect(requiresPaidPlan(paths.user.chat)).toBe(true);
    expect(requiresPaidPlan(paths.dashboard)).toBe(false);
  });

  it('assigns the layouts of spec §2', () => {
    expect(resolve('/')!.layout).toBe('landing');
    for (const p of ['/login', '/password-reset', '/password-update', '/registration', '/registration/success', '/admin/login']) {
      expect(resolve(p)!.layout, p).toBe('login-register');
    }
    expect(resolve('/admin')!.layout).toBe('admin');
    expect(resolve('/admin/users')!.layout).toBe('admin');
    expect(resolve('/12-solar-bikes')!.layout).toBe('default');
    expect(resolve('/admin/users')!.guards).toEqual(['admin']);
  });

  it('marks exactly the sitemap pages of the shared sitemap module', () => {
    const marked = ROUTES.filter((r) => r.sitemap).map((r) => r.pattern).sort();
    expect(marked).toEqual([...PUBLIC_PAGE_PATHS].sort());
  });

  it('paths.ts builds paths that resolve to routes', () => {
    const built = [
      paths.home, paths.prices, paths.about, paths.remoteJobs, paths.legal.privacy, paths.legal.withdrawal,
      paths.event('x'), paths.job('y'), paths.profile('z'), paths.project(3, 'abc'), paths.user.createProject(4),
      paths.user.project(4), paths.user.editPortfolio(2), paths.admin.login, paths.cancelSubscription,
    ];
    expect(built.filter((p) => !resolve(p))).toEqual([]);
  });
});

describe('compilePattern', () => {
  it('maps partial segments to one router path and extracts parameters', () => {
    expect(compilePattern('/:id-:slug').routerPath).toBe('/:_s0');
    expect(compilePattern('/user/projects/create-project-:id').routerPath).toBe('/user/projects/:_s2');
    expect(matchPattern(compilePattern('/:id-:slug'), '/12-my-long-slug')).toEqual({ id: '12', slug: 'my-long-slug' });
    expect(matchPattern(compilePattern('/events/:slug'), '/events/a%20b')).toEqual({ slug: 'a b' });
    expect(matchPattern(compilePattern('/events/:slug'), '/events/a/b')).toBeNull();
    expect(matchPattern(compilePattern('/prices'), '/prices/')).toEqual({});
  });
});

import type { Locale } from '@/lib/constants';
import { withLocale } from '@/lib/locale';

/**
 * Every path of the SPA, without locale prefix (spec §2). Build a link with
 * `localizePath(paths.prices, locale)` or the `useLocalizedPath()` hook; that is the one place the
 * `/de` prefix is applied.
 */
export const paths = {
  home: '/',
  login: '/login',
  passwordReset: '/password-reset',
  passwordUpdate: (token?: string) => (token ? `/password-update?token=${encodeURIComponent(token)}` : '/password-update'),
  registration: '/registration',
  registrationSuccess: '/registration/success',
  prices: '/prices',
  search: '/search',
  unifiedSearch: '/unified-search',
  signup: (sessionId?: string) => (sessionId ? `/signup?session_id=${encodeURIComponent(sessionId)}` : '/signup'),
  register: '/register',
  confirm: '/confirm',
  confirmEmail: (token?: string) => (token ? `/confirm-email?token=${encodeURIComponent(token)}` : '/confirm-email'),
  contact: '/contact',
  contactTopic: (topic: string) => `/contact?topic=${encodeURIComponent(topic)}`,
  impressum: '/impressum',
  newsletter: '/newsletter',
  newsletterThankYou: '/newsletter-thankyou',
  guidelines: '/our-guidelines',
  about: '/ueber-teamwerk',
  remoteJobs: '/working-remote-jobs',
  subscriptionRequired: '/subscription-required',
  portfolioCreate: '/portfolio/create',
  paymentSuccess: '/payment/success',
  cancelSubscription: '/cancel-subscription',
  dashboard: '/dashboard',
  matches: '/matches',
  events: '/events',
  map: '/map',
  event: (slug: string) => `/events/${encodeURIComponent(slug)}`,
  jobs: '/jobs',
  job: (id: string | number) => `/jobs/${encodeURIComponent(String(id))}`,
  profile: (slug: string) => `/u/${encodeURIComponent(slug)}`,
  project: (id: number, slug: string) => `/${id}-${encodeURIComponent(slug)}`,
  /** Organisations (issue 15). */
  org: {
    create: '/org/new',
    page: (slug: string) => `/org/${encodeURIComponent(slug)}`,
    settings: (slug: string) => `/org/${encodeURIComponent(slug)}/settings`,
    analytics: (slug: string) => `/org/${encodeURIComponent(slug)}/analytics`,
    api: (slug: string) => `/org/${encodeURIComponent(slug)}/api`,
  },
  invitation: (token: string) => `/invitations/${encodeURIComponent(token)}`,
  legal: {
    withdrawal: '/legal/widerufsbelehrung',
    privacy: '/legal/Datenschutzhinweise',
    terms: '/legal/nutzungsvereinbarung',
    provider: '/legal/anbieterkennzeichnung',
  },
  user: {
    home: '/user',
    chat: '/user/chat',
    conversation: (id: string) => `/user/chat/${encodeURIComponent(id)}`,
    contacts: '/user/contacts',
    feedback: '/user/feedback',
    settings: '/user/settings',
    favorites: '/user/favorites',
    analytics: '/user/analytics',
    portfolios: '/user/portfolios',
    events: '/user/events',
    createEvent: '/user/events/create-event',
    organizations: '/user/organizations',
    createJob: '/user/jobs/create-job',
    projects: '/user/projects',
    project: (id: number | string) => `/user/projects/${encodeURIComponent(String(id))}`,
    createProject: (id: number | string) => `/user/projects/create-project-${encodeURIComponent(String(id))}`,
    createPortfolio: '/user/create-portfolio',
    editPortfolio: (id: number | string) => `/user/edit-portfolio/${encodeURIComponent(String(id))}`,
  },
  admin: {
    home: '/admin',
    users: '/admin/users',
    login: '/admin/login',
  },
  testError: (status: number) => `/test/error?status=${status}`,
} as const;

/** Applies the locale prefix to a plain path (`/prices` → `/de/prices` for de). */
export function localizePath(path: string, locale: Locale): string {
  return withLocale(path, locale);
}

import { landingRoutes } from '@/features/landing/routes';
import { authRoutes } from '@/features/auth/routes';
import { matchingRoutes } from '@/features/matching/routes';
import { billingRoutes } from '@/features/billing/routes';
import { searchRoutes } from '@/features/search/routes';
import { contactRoutes } from '@/features/contact/routes';
import { legalRoutes } from '@/features/legal/routes';
import { newsletterRoutes } from '@/features/newsletter/routes';
import { aboutRoutes } from '@/features/about/routes';
import { jobsRoutes } from '@/features/jobs/routes';
import { eventsRoutes } from '@/features/events/routes';
import { mapRoutes } from '@/features/map/routes';
import { profilesRoutes } from '@/features/profiles/routes';
import { projectsRoutes } from '@/features/projects/routes';
import { portfoliosRoutes } from '@/features/portfolios/routes';
import { userRoutes } from '@/features/user/routes';
import { analyticsRoutes } from '@/features/analytics/routes';
import { chatRoutes } from '@/features/chat/routes';
import { contactsRoutes } from '@/features/contacts/routes';
import { adminRoutes } from '@/features/admin/routes';
import { devRoutes } from '@/features/dev/routes';
import { apiAccessRoutes } from '@/features/api-access/routes';
import { organizationsRoutes } from '@/features/organizations/routes';
import type { RouteDef } from '@/lib/route-def';

/** Every route of spec §2 (plain paths; the router adds the `/de` twins). */
export const ROUTES: readonly RouteDef[] = [
  ...landingRoutes,
  ...authRoutes,
  ...matchingRoutes,
  ...billingRoutes,
  ...searchRoutes,
  ...contactRoutes,
  ...legalRoutes,
  ...newsletterRoutes,
  ...aboutRoutes,
  ...jobsRoutes,
  ...eventsRoutes,
  ...mapRoutes,
  ...profilesRoutes,
  ...projectsRoutes,
  ...portfoliosRoutes,
  ...userRoutes,
  ...analyticsRoutes,
  ...chatRoutes,
  ...contactsRoutes,
  ...adminRoutes,
  ...organizationsRoutes,
  ...devRoutes,
  ...apiAccessRoutes,
];

/** Route definitions by id. */
export const ROUTE_BY_ID: ReadonlyMap<string, RouteDef> = new Map(ROUTES.map((route) => [route.id, route]));

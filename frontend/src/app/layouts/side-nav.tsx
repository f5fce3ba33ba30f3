import { Box, Button, Menu, NavLink, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { lazyChunk } from '@/lib/load-chunk';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { paidAccessQuery } from '@/lib/paid-access';
import { useSession } from '@/lib/session';
import { requiresPaidPlan } from '../navigation/paid-paths';

const USER_NAV = [
  { to: paths.user.home, id: 'userNav.overview' },
  { to: paths.dashboard, id: 'userNav.dashboard' },
  { to: paths.matches, id: 'userNav.matches' },
  { to: paths.user.projects, id: 'userNav.projects' },
  { to: paths.user.portfolios, id: 'userNav.portfolios' },
  { to: paths.user.events, id: 'userNav.events' },
  { to: paths.user.analytics, id: 'userNav.analytics' },
  { to: paths.user.organizations, id: 'userNav.organizations' },
  { to: paths.user.contacts, id: 'userNav.contacts' },
  { to: paths.user.chat, id: 'userNav.chat' },
  { to: paths.user.favorites, id: 'userNav.favorites' },
  { to: paths.user.settings, id: 'userNav.settings' },
  { to: paths.user.account, id: 'userNav.account' },
  { to: paths.user.feedback, id: 'userNav.feedback' },
] as const;

/**
 * The user area's entries the signed-in user can open: free members do not get the pages behind
 * the payment-required guard (issue 32 §5, spec §6); until the database has answered, only the
 * open ones are listed.
 */
function useUserNav(): readonly { to: string; id: string }[] {
  const userId = useSession().user?.id;
  const paid = useQuery({ ...paidAccessQuery(userId ?? ''), enabled: !!userId }).data === true;
  return paid ? USER_NAV : USER_NAV.filter((item) => !requiresPaidPlan(item.to));
}

// Count badges of the user area (chat, contacts) load with the signed-in code only.
const NavCountBadge = lazyChunk(() => import('./nav-count-badge'));
const BADGES: Partial<Record<string, 'chat' | 'contacts'>> = { [paths.user.chat]: 'chat', [paths.user.contacts]: 'contacts' };

const ADMIN_NAV = [
  { to: paths.admin.home, id: 'adminNav.overview' },
  { to: paths.admin.users, id: 'adminNav.users' },
] as const;

/**
 * The user and admin areas' navigation: a side list from the `sm` breakpoint, a menu button on
 * phones (issue 18: no second copy of the navigation taking the first screen).
 */
export function SideNav({ area }: { area: 'user' | 'admin' }) {
  const userNav = useUserNav();
  const items: readonly { to: string; id: string }[] = area === 'admin' ? ADMIN_NAV : userNav;
  const labelId = area === 'admin' ? 'adminNav.label' : 'userNav.label';
  const intl = useIntl();
  const localize = useLocalizedPath();
  const { pathname } = useLocation();
  const current =
    items.find((item) => pathname === localize(item.to) || (item.to !== items[0]!.to && pathname.startsWith(`${localize(item.to)}/`))) ?? items[0]!;
  return (
    <Box component="nav" aria-label={intl.formatMessage({ id: labelId })} w={{ base: '100%', sm: 220 }}>
      <Box hiddenFrom="sm">
        <Menu position="bottom-start" width="target">
          <Menu.Target>
            <Button variant="default" fullWidth justify="space-between" rightSection="▾" data-testid="area-menu">
              <FormattedMessage id={current.id} />
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {items.map((item) => (
              <Menu.Item key={item.to} component={Link} to={localize(item.to)} fw={item === current ? 700 : undefined}>
                <FormattedMessage id={item.id} />
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Box>
      <Stack gap={2} visibleFrom="sm">
        {items.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={localize(item.to)}
            active={pathname === localize(item.to) || (BADGES[item.to] !== undefined && pathname.startsWith(`${localize(item.to)}/`))}
            label={<FormattedMessage id={item.id} />}
            rightSection={
              BADGES[item.to] ? (
                <Suspense fallback={null}>
                  <NavCountBadge kind={BADGES[item.to]!} />
                </Suspense>
              ) : undefined
            }
          />
        ))}
      </Stack>
    </Box>
  );
}


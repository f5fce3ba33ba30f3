import { Avatar, Box, Button, Divider, Group, Indicator, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { QueryClientProvider, queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { signOut } from '@/lib/sign-out';
import { unreadTotalQuery } from '@/features/chat';
import { LiveSession } from './live-session';
import { type OwnProfile } from '@/lib/own-profile';
import { publicAvatarUrl } from '@/lib/public-api';
import { unwrap } from '@/lib/api-error';
import { notify } from '@/lib/notify';
import { queryClient as sharedQueryClient } from '@/lib/query-client';
import { supabase } from '@/lib/supabase';
import { LocalLink } from '@/components/local-link';
import { useLocalizedPath } from '@/components/use-locale';
import { paidAccessQuery } from '@/lib/paid-access';
import { requiresPaidPlan } from '../navigation/paid-paths';

/**
 * The signed-in half of the site header (spec §2), loaded lazily: only visitors with a stored
 * session load this module and supabase-js with it, so the landing page stays light.
 */

/** What the header shows of the signed-in user. */
export interface AccountSummary {
  /** Display name (spec §3: first plus last name, otherwise the e-mail), computed by the database. */
  name: string;
  /** Public URL of the profile image in the `avatars` bucket, or null. */
  imageUrl: string | null;
  /** profiles.user_role = 'admin', the same fact the `admin` guard checks (spec §6). */
  isAdmin: boolean;
}

/**
 * Query options of the header's account summary of `userId`. The key starts with `own-profile`,
 * so saving the profile or avatar (which invalidates `['own-profile']`) refreshes the header too.
 * @throws ApiError when the profile cannot be read
 */
export const accountSummaryQuery = (userId: string) =>
  queryOptions({
    queryKey: ['own-profile', 'header-summary', userId],
    queryFn: async (): Promise<AccountSummary> => {
      const row = unwrap(
        await supabase
          .rpc('my_profile')
          .select('email, profile_img, user_role, display_name')
          .single()
          .overrideTypes<Pick<OwnProfile, 'email' | 'profile_img' | 'user_role' | 'display_name'>, { merge: false }>(),
        'GET',
      );
      return {
        name: row.display_name || row.email,
        imageUrl: publicAvatarUrl(row.profile_img),
        isAdmin: row.user_role === 'admin',
      };
    },
  });

/**
 * Sign-out of the header (spec §4/§5): the shared `signOut()` (Auth, storage, cookies,
 * fresh-login flag, other tabs), then /login replacing the history entry, like SignOutButton.
 */
function useHeaderSignOut(): { busy: boolean; run: () => Promise<void> } {
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const error = await signOut();
    if (error) notify('error', error);
    // cached data of the signed-out user is reset by the auth listener in lib/supabase.ts
    void navigate(localize(paths.login), { replace: true });
  };
  return { busy, run };
}

/** An entry of the account menu: where it leads and its label. */
interface AccountEntry {
  to: string;
  id: string;
}

/**
 * The account menu's page entries for `userId`: paying members (and admins) get their area, chat,
 * settings and account; free members only what they can open, the matching dashboard and the
 * account page (issue 32 §5; the routes' payment-required guard decides, spec §6). While the
 * database has not answered, only the entries open to everyone are offered.
 */
function useAccountEntries(userId: string): AccountEntry[] {
  const paid = useQuery(paidAccessQuery(userId)).data === true;
  const entries: AccountEntry[] = [
    { to: paths.user.home, id: 'nav.account.myArea' },
    { to: paths.dashboard, id: 'userNav.dashboard' },
    { to: paths.user.chat, id: 'userNav.chat' },
    { to: paths.user.settings, id: 'userNav.settings' },
    { to: paths.user.account, id: 'userNav.account' },
  ];
  return entries.filter((entry) => (paid ? entry.to !== paths.dashboard : !requiresPaidPlan(entry.to)));
}

function AccountAvatar({ summary, size }: { summary: AccountSummary | undefined; size: number }) {
  return <Avatar src={summary?.imageUrl ?? null} name={summary?.name} color="blue" size={size} alt="" radius="xl" />;
}

/** Desktop account menu (spec §2 header): avatar + name; the entries of useAccountEntries, Admin (admins), Sign out. */
export function AccountMenu({ userId }: { userId: string }) {
  const intl = useIntl();
  const localize = useLocalizedPath();
  const summary = useQuery(accountSummaryQuery(userId));
  const signOutAction = useHeaderSignOut();
  const name = summary.isPending ? '' : (summary.data?.name ?? intl.formatMessage({ id: 'nav.account.fallbackName' }));
  const unread = useQuery(unreadTotalQuery()).data ?? 0;
  const unreadLabel = unread > 0 ? intl.formatMessage({ id: 'nav.account.unread' }, { count: unread }) : '';
  const entries = useAccountEntries(userId);
  return (
    <>
    <LiveSession userId={userId} />
    <Menu position="bottom-end" width={220} withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton
          data-testid="account-menu"
          visibleFrom="sm"
          aria-label={`${intl.formatMessage({ id: 'nav.account.menu' }, { name })}${unreadLabel ? `, ${unreadLabel}` : ''}`}
          px={6}
          py={2}
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        >
          <Group gap={8} wrap="nowrap">
            <Indicator
              disabled={unread === 0}
              label={unread > 99 ? '99+' : unread}
              size={18}
              color="red"
              offset={4}
              data-testid="account-unread-badge"
            >
              <AccountAvatar summary={summary.data} size={32} />
            </Indicator>
            <Text fw={500} size="sm" truncate maw={160} c="var(--tw-ink)">
              {name}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {entries.map((entry) => (
          <Menu.Item
            key={entry.to}
            component={Link}
            to={localize(entry.to)}
            rightSection={
              entry.to === paths.user.chat && unread > 0 ? (
                <Text size="xs" fw={700} c="var(--tw-red)" data-testid="account-menu-unread">
                  {unread}
                </Text>
              ) : null
            }
          >
            <FormattedMessage id={entry.id} />
          </Menu.Item>
        ))}
        {summary.data?.isAdmin && (
          <Menu.Item component={Link} to={localize(paths.admin.home)}>
            <FormattedMessage id="nav.account.admin" />
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item onClick={() => void signOutAction.run()} disabled={signOutAction.busy}>
          <FormattedMessage id="auth.signOut" />
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
    </>
  );
}

/** The same entries for the mobile navigation drawer (links plus a sign-out button). */
export function AccountDrawerLinks({ userId, onNavigate }: { userId: string; onNavigate: () => void }) {
  const intl = useIntl();
  const summary = useQuery(accountSummaryQuery(userId));
  const signOutAction = useHeaderSignOut();
  const entries = useAccountEntries(userId);
  const name = summary.isPending ? '' : (summary.data?.name ?? intl.formatMessage({ id: 'nav.account.fallbackName' }));
  const link = (to: string, id: string) => (
    <LocalLink to={to} onClick={onNavigate}>
      <FormattedMessage id={id} />
    </LocalLink>
  );
  return (
    <Stack gap="sm">
      <Divider />
      <Group gap={8} wrap="nowrap">
        <AccountAvatar summary={summary.data} size={28} />
        <Box>
          <Text size="xs" c="dimmed">
            <FormattedMessage id="nav.account.signedInAs" />
          </Text>
          <Text fw={500} size="sm">
            {name}
          </Text>
        </Box>
      </Group>
      {entries.map((entry) => (
        <LocalLink key={entry.to} to={entry.to} onClick={onNavigate}>
          <FormattedMessage id={entry.id} />
        </LocalLink>
      ))}
      {summary.data?.isAdmin && link(paths.admin.home, 'nav.account.admin')}
      <Button variant="default" loading={signOutAction.busy} onClick={() => void signOutAction.run()} style={{ alignSelf: 'flex-start' }}>
        <FormattedMessage id="auth.signOut" />
      </Button>
    </Stack>
  );
}

/**
 * The account menu or the drawer entries of the signed-in user `userId` (the header takes it from
 * useSession).
 */
export function AccountSlot(props: AccountSlotProps) {
  // the landing page renders without the query layer (app/query-layer.ts): this part brings its own provider of the same client
  return (
    <QueryClientProvider client={sharedQueryClient}>
      {props.variant === 'menu' ? (
        <AccountMenu userId={props.userId} />
      ) : (
        <AccountDrawerLinks userId={props.userId} onNavigate={props.onNavigate ?? (() => undefined)} />
      )}
    </QueryClientProvider>
  );
}

/** Props of AccountSlot. */
interface AccountSlotProps {
  userId: string;
  variant: 'menu' | 'drawer';
  onNavigate?: () => void;
}

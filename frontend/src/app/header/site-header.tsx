import { Box, Burger, Container, Group, Stack, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { lazyChunk } from '@/lib/load-chunk';
import { FormattedMessage, useIntl } from 'react-intl';
import { paths } from '@/config/paths';
import { PRODUCT_NAME } from '@/lib/constants';
import { ColorSchemeToggle } from '@/components/color-scheme-toggle';
import { LanguageSwitch } from '@/components/language-switch';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { type SessionState, useSession } from '@/lib/session';

// The signed-in part loads lazily (with supabase-js): signed-out visitors of the landing page never load it.
const AccountSlot = lazyChunk(() => import('./account-menu').then((m) => ({ default: m.AccountSlot })));

const NAV = [
  { to: paths.prices, id: 'nav.prices' },
  { to: paths.remoteJobs, id: 'nav.remoteJobs' },
  { to: paths.events, id: 'nav.events' },
  { to: paths.map, id: 'nav.map' },
  { to: paths.search, id: 'nav.search' },
  { to: paths.about, id: 'nav.about' },
] as const;

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <>
      {NAV.map((item) => (
        <LocalLink key={item.to} to={item.to} c="var(--tw-ink)" fw={500} onClick={onNavigate}>
          <FormattedMessage id={item.id} />
        </LocalLink>
      ))}
    </>
  );
}

/** Neutral stand-in while the stored session is restored: neither "Log in" nor a name (no flash). */
function SessionPending() {
  return (
    <Box w={150} h={36} visibleFrom="sm" data-testid="header-session-pending" role="status">
      <VisuallyHidden>
        <FormattedMessage id="nav.account.pending" />
      </VisuallyHidden>
    </Box>
  );
}

function LoginLinks() {
  return (
    <>
      <LocalButtonLink to={paths.login} variant="subtle" visibleFrom="sm">
        <FormattedMessage id="nav.login" />
      </LocalButtonLink>
      <LocalButtonLink to={paths.registration} visibleFrom="sm">
        <FormattedMessage id="nav.register" />
      </LocalButtonLink>
    </>
  );
}

function DrawerLoginLinks({ onNavigate }: { onNavigate: () => void }) {
  return (
    <>
      <LocalLink to={paths.login} onClick={onNavigate}>
        <FormattedMessage id="nav.login" />
      </LocalLink>
      <LocalLink to={paths.registration} onClick={onNavigate}>
        <FormattedMessage id="nav.register" />
      </LocalLink>
    </>
  );
}

/** Login/registration for visitors, the account menu for signed-in users (spec §2 header). */
function SessionActions({ session }: { session: SessionState }) {
  if (session.status === 'signed-out') return <LoginLinks />;
  if (!session.user) return <SessionPending />;
  return (
    <Suspense fallback={<SessionPending />}>
      <AccountSlot userId={session.user.id} variant="menu" />
    </Suspense>
  );
}

/** The same choice inside the mobile navigation drawer. */
function DrawerSessionLinks({ session, onNavigate }: { session: SessionState; onNavigate: () => void }) {
  if (session.status === 'signed-out') return <DrawerLoginLinks onNavigate={onNavigate} />;
  if (!session.user) return null;
  return (
    <Suspense fallback={null}>
      <AccountSlot userId={session.user.id} variant="drawer" onNavigate={onNavigate} />
    </Suspense>
  );
}

/**
 * Top bar: product name, main navigation, language switch, and either login/registration or the
 * signed-in user's account menu (spec §2). The state follows the session of this and other tabs
 * (useSession); while a stored session is restored a neutral placeholder is shown.
 */
export function SiteHeader({ minimal = false }: { minimal?: boolean }) {
  const intl = useIntl();
  const [opened, { toggle, close }] = useDisclosure(false);
  const session = useSession();
  return (
    <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }} bg="var(--mantine-color-body)">
      <Container size="lg">
        <Group justify="space-between" wrap="nowrap">
          <LocalLink to={paths.home} fw={800} fz="xl" c="var(--tw-blue)" underline="never" aria-label={intl.formatMessage({ id: 'nav.home' })}>
            {PRODUCT_NAME}
          </LocalLink>
          {!minimal && (
            <Group component="nav" gap="lg" visibleFrom="md" aria-label={intl.formatMessage({ id: 'nav.main' })}>
              <NavLinks />
            </Group>
          )}
          <Group gap="xs" wrap="nowrap">
            <LanguageSwitch />
            <ColorSchemeToggle />
            {!minimal && (
              <>
                <SessionActions session={session} />
                <Burger
                  opened={opened}
                  onClick={toggle}
                  hiddenFrom="md"
                  aria-label={intl.formatMessage({ id: 'nav.menu' })}
                  aria-expanded={opened}
                  aria-controls="mobile-nav"
                />
              </>
            )}
          </Group>
        </Group>
      </Container>
      {!minimal && opened && (
        <Container size="lg" hiddenFrom="md" py="sm">
          <Stack component="nav" id="mobile-nav" aria-label={intl.formatMessage({ id: 'nav.mobile' })}>
            <NavLinks onNavigate={close} />
            <DrawerSessionLinks session={session} onNavigate={close} />
          </Stack>
        </Container>
      )}
    </Box>
  );
}

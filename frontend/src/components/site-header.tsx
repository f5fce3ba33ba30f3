import { Box, Burger, Container, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { FormattedMessage, useIntl } from 'react-intl';
import { paths } from '@/config/paths';
import { PRODUCT_NAME } from '@/lib/constants';
import { LanguageSwitch } from './language-switch';
import { LocalButtonLink, LocalLink } from './local-link';

const NAV = [
  { to: paths.prices, id: 'nav.prices' },
  { to: paths.remoteJobs, id: 'nav.remoteJobs' },
  { to: paths.events, id: 'nav.events' },
  { to: paths.search, id: 'nav.search' },
  { to: paths.about, id: 'nav.about' },
] as const;

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <>
      {NAV.map((item) => (
        <LocalLink key={item.to} to={item.to} c="dark.8" fw={500} onClick={onNavigate}>
          <FormattedMessage id={item.id} />
        </LocalLink>
      ))}
    </>
  );
}

/** Top bar: product name, main navigation, language switch, login/registration (spec §2). */
export function SiteHeader({ minimal = false }: { minimal?: boolean }) {
  const intl = useIntl();
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }} bg="white">
      <Container size="lg">
        <Group justify="space-between" wrap="nowrap">
          <LocalLink to={paths.home} fw={800} fz="xl" c="blue.9" underline="never" aria-label={intl.formatMessage({ id: 'nav.home' })}>
            {PRODUCT_NAME}
          </LocalLink>
          {!minimal && (
            <Group component="nav" gap="lg" visibleFrom="md" aria-label={intl.formatMessage({ id: 'nav.main' })}>
              <NavLinks />
            </Group>
          )}
          <Group gap="sm" wrap="nowrap">
            <LanguageSwitch />
            {!minimal && (
              <>
                <LocalButtonLink to={paths.login} variant="subtle" visibleFrom="sm">
                  <FormattedMessage id="nav.login" />
                </LocalButtonLink>
                <LocalButtonLink to={paths.registration} visibleFrom="sm">
                  <FormattedMessage id="nav.register" />
                </LocalButtonLink>
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
            <LocalLink to={paths.login} onClick={close}>
              <FormattedMessage id="nav.login" />
            </LocalLink>
            <LocalLink to={paths.registration} onClick={close}>
              <FormattedMessage id="nav.register" />
            </LocalLink>
          </Stack>
        </Container>
      )}
    </Box>
  );
}

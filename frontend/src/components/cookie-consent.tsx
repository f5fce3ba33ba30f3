import { Box, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Suspense, useState, useSyncExternalStore } from 'react';
import { lazyChunk } from '@/lib/load-chunk';
import { FormattedMessage } from 'react-intl';
import { paths } from '@/config/paths';
import { readConsent, writeConsent } from '@/lib/consent';
import { LocalLink } from './local-link';

// the settings view's checkboxes load when the visitor opens it (not part of the landing page's JavaScript, issue 5)
const CookieChoices = lazyChunk(() => import('./cookie-choices').then((m) => ({ default: m.CookieChoices })));

const listeners = new Set<() => void>();
let forcedOpen = false;
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const emit = () => listeners.forEach((l) => l());

/** Opens the cookie notice again (footer "Cookie settings"). */
export function openCookieSettings(): void {
  forcedOpen = true;
  emit();
}

/**
 * Cookie notice (TDDDG §25): until the visitor decides, only necessary cookies are set; the
 * choice is stored for 365 days and can be changed from the footer.
 */
export function CookieNotice() {
  const open = useSyncExternalStore(subscribe, () => forcedOpen || readConsent() === null, () => false);
  const [details, setDetails] = useState(false);
  const [statistics, setStatistics] = useState(() => readConsent()?.statistics ?? false);
  const [marketing, setMarketing] = useState(() => readConsent()?.marketing ?? false);
  if (!open) return null;
  const decide = (choice: { statistics: boolean; marketing: boolean }) => {
    writeConsent(choice);
    forcedOpen = false;
    emit();
  };
  return (
    <Box
      component="section"
      aria-labelledby="cookie-notice-title"
      data-testid="cookie-notice"
      style={{ position: 'fixed', insetInline: 0, bottom: 0, zIndex: 200 }}
      p="sm"
    >
      <Container size="md">
        <Paper shadow="lg" p="md" withBorder>
          <Stack gap="xs">
            <Title order={2} fz="lg" id="cookie-notice-title">
              <FormattedMessage id="cookies.title" />
            </Title>
            <Text fz="sm">
              <FormattedMessage id="cookies.text" />{' '}
              <LocalLink to={paths.legal.privacy} fz="sm">
                <FormattedMessage id="cookies.privacyLink" />
              </LocalLink>
            </Text>
            {details && (
              <Suspense fallback={null}>
                <CookieChoices statistics={statistics} marketing={marketing} onStatistics={setStatistics} onMarketing={setMarketing} />
              </Suspense>
            )}
            <Group gap="xs">
              <Button onClick={() => decide({ statistics: true, marketing: true })}>
                <FormattedMessage id="cookies.acceptAll" />
              </Button>
              <Button variant="outline" onClick={() => decide({ statistics: false, marketing: false })}>
                <FormattedMessage id="cookies.necessaryOnly" />
              </Button>
              {details ? (
                <Button variant="subtle" onClick={() => decide({ statistics, marketing })}>
                  <FormattedMessage id="cookies.saveChoice" />
                </Button>
              ) : (
                <Button variant="subtle" onClick={() => setDetails(true)}>
                  <FormattedMessage id="cookies.settings" />
                </Button>
              )}
            </Group>
          </Stack>
        </Paper>
      </Container>
    </Box>
  );
}

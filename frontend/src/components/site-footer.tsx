import { Anchor, Box, Container, Group, Stack, Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { paths } from '@/config/paths';
import { PRODUCT_NAME } from '@/lib/constants';
import { openCookieSettings } from './cookie-consent';
import { LocalLink } from './local-link';

const LEGAL = [
  { to: paths.impressum, id: 'footer.impressum' },
  { to: paths.legal.privacy, id: 'footer.privacy' },
  { to: paths.legal.terms, id: 'footer.terms' },
  { to: paths.legal.withdrawal, id: 'footer.withdrawal' },
  { to: paths.legal.provider, id: 'footer.provider' },
] as const;

const MORE = [
  { to: paths.contact, id: 'footer.contact' },
  { to: paths.newsletter, id: 'footer.newsletter' },
  { to: paths.guidelines, id: 'footer.guidelines' },
  { to: paths.about, id: 'footer.about' },
  { to: paths.prices, id: 'footer.prices' },
  // password, data export and deletion for every member, with or without a plan (issue 32 §5)
  { to: paths.user.account, id: 'footer.account' },
] as const;

/** Footer with the legal pages, the cancellation link (§312k BGB) and the cookie settings. */
export function SiteFooter() {
  const intl = useIntl();
  return (
    <Box component="footer" py="xl" mt="xl" bg="var(--tw-surface-muted)" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Container size="lg">
        <Stack gap="md">
          <Group component="nav" gap="lg" aria-label={intl.formatMessage({ id: 'footer.legalNav' })}>
            {LEGAL.map((item) => (
              <LocalLink key={item.to} to={item.to} c="var(--tw-ink)" fz="sm">
                <FormattedMessage id={item.id} />
              </LocalLink>
            ))}
            <LocalLink to={paths.cancelSubscription} c="var(--tw-ink)" fz="sm" fw={700} data-testid="cancel-contracts-link">
              <FormattedMessage id="footer.cancelContracts" />
            </LocalLink>
          </Group>
          <Group component="nav" gap="lg" aria-label={intl.formatMessage({ id: 'footer.moreNav' })}>
            {MORE.map((item) => (
              <LocalLink key={item.to} to={item.to} c="var(--tw-ink)" fz="sm">
                <FormattedMessage id={item.id} />
              </LocalLink>
            ))}
            <Anchor component="button" type="button" c="var(--tw-ink)" fz="sm" onClick={openCookieSettings}>
              <FormattedMessage id="footer.cookieSettings" />
            </Anchor>
          </Group>
          <Text fz="sm" c="var(--tw-ink)">
            <FormattedMessage id="footer.copyright" values={{ year: new Date().getFullYear(), product: PRODUCT_NAME }} />
          </Text>
        </Stack>
      </Container>
    </Box>
  );
}

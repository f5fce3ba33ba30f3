import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { isBot } from '@/lib/bots';
import { PRODUCT_NAME } from '@/lib/constants';
import { errorInfo } from './error-info';

/**
 * The error page body: 404 → 'Page Not Found', other statuses → 'Internal Server Error', unless
 * the error carries its own message (spec §2). Bots get nothing shown; the error is only logged.
 */
export function ErrorView({ error }: { error: unknown }) {
  const intl = useIntl();
  const localize = useLocalizedPath();
  const info = errorInfo(error);
  const bot = isBot();
  useEffect(() => {
    if (bot) console.error('[error seen by bot]', info.status, error);
    else if (info.status >= 500) console.warn('[error page]', info.status, error);
  }, [bot, info.status, error]);
  const fallback = intl.formatMessage({ id: info.status === 404 ? 'error.notFound' : 'error.internal' });
  const heading = info.messageId ? intl.formatMessage({ id: info.messageId }, info.values) : (info.message ?? fallback);
  return (
    <Container size="sm" py={64} data-testid="error-page" data-status={info.status}>
      <title>{`${bot ? PRODUCT_NAME : heading} | ${PRODUCT_NAME}`}</title>
      <meta name="robots" content="noindex" />
      {!bot && (
        <Stack align="center" ta="center">
          <Text fz={64} fw={800} c="var(--tw-blue)" aria-hidden="true">
            {info.status}
          </Text>
          <Title order={1}>{heading}</Title>
          <Text>
            <FormattedMessage id={info.status === 404 ? 'error.notFoundHint' : 'error.internalHint'} />
          </Text>
          <Button component={Link} to={localize(paths.home)}>
            <FormattedMessage id="error.backHome" />
          </Button>
        </Stack>
      )}
    </Container>
  );
}

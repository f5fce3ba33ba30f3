import { Alert, Button, Loader, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { FunctionCallError, invokeFunction } from '@/lib/invoke-function';

/** /confirm-email?token: confirms the address (issue 6); expired, forged or missing tokens offer a new link. */
export default function ConfirmEmailRoute() {
  const intl = useIntl();
  const token = useSearchParams()[0].get('token') ?? '';
  const query = useQuery({
    queryKey: ['confirm-email', token],
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
    queryFn: () => invokeFunction<{ confirmed: boolean; already_confirmed: boolean }>('confirm-email', { token }),
  });
  const expired = token === '' || (query.error instanceof FunctionCallError && query.error.code === 'token_expired');
  return (
    <Stack maw={560} mx="auto" py="xl" px="md">
      <Title order={1}>
        <FormattedMessage id="page.confirm-email.title" />
      </Title>
      {token !== '' && query.isPending && <Loader aria-label={intl.formatMessage({ id: 'auth.loading' })} />}
      {query.data && (
        <>
          <Alert color="green" role="status" data-testid="confirm-result">
            <FormattedMessage id={query.data.already_confirmed ? 'auth.confirmEmail.already' : 'auth.confirmEmail.success'} />
          </Alert>
          <LocalButtonLink to={paths.login}>
            <FormattedMessage id="auth.confirmEmail.toLogin" />
          </LocalButtonLink>
        </>
      )}
      {expired && (
        <>
          <Alert color="red" role="alert" data-testid="confirm-result">
            <FormattedMessage id="auth.confirmEmail.expired" />
          </Alert>
          <LocalButtonLink to={paths.confirm} variant="outline">
            <FormattedMessage id="auth.confirmEmail.newLink" />
          </LocalButtonLink>
        </>
      )}
      {query.isError && !expired && (
        <>
          <Alert color="red" role="alert">
            {query.error.message}
          </Alert>
          <Button variant="outline" onClick={() => void query.refetch()}>
            <FormattedMessage id="common.retry" />
          </Button>
        </>
      )}
    </Stack>
  );
}

import { Alert, Button, Container, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import type { PageProps } from '@/lib/route-def';
import { type CancellationConfirmation, useConfirmCancellation } from '../api/cancel-contract';
import { BillingFunctionError } from '../api/invoke-function';

/** Message of a confirmation answer (the end date in the page's language, Europe/Berlin). */
function outcomeMessage(answer: CancellationConfirmation, formatDate: (d: Date) => string): { id: string; values?: Record<string, string> } {
  if (answer.status === 'no_subscription') return { id: 'billing.cancel.confirm.noSubscription' };
  if (answer.status === 'failed') return { id: 'billing.cancel.confirm.failed' };
  return answer.effectiveAt
    ? { id: 'billing.cancel.confirm.scheduled', values: { date: formatDate(new Date(answer.effectiveAt)) } }
    : { id: 'billing.cancel.confirm.scheduledNoDate' };
}

/** Message of a refusal: expired/forged, already used, or anything else (retry). */
function errorMessageId(error: unknown): string {
  if (error instanceof BillingFunctionError && error.code === 'token_expired') return 'billing.cancel.confirm.expired';
  if (error instanceof BillingFunctionError && error.code === 'token_used') return 'billing.cancel.confirm.used';
  return 'billing.cancel.confirm.error';
}

/**
 * `/cancel-subscription/confirm?token=…` (issue 12 finding 2): the account holder confirms a
 * cancellation sent through the public form. Opening the link does nothing by itself (mail
 * scanners open links too); the holder's click posts the token to confirm-cancellation.
 */
export default function CancelSubscriptionConfirmRoute(_props: PageProps) {
  const intl = useIntl();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useConfirmCancellation();
  const formatDate = (d: Date) => intl.formatDate(d, { dateStyle: 'long', timeZone: 'Europe/Berlin' });

  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="billing.cancel.confirm.title" />
        </Title>
        {!token ? (
          <Alert color="yellow" role="alert" data-testid="cancel-confirm-missing">
            <FormattedMessage id="billing.cancel.confirm.missing" />
          </Alert>
        ) : mutation.isSuccess ? (
          <Alert color="green" role="status" data-testid="cancel-confirmed">
            {(() => {
              const m = outcomeMessage(mutation.data, formatDate);
              return <FormattedMessage id={m.id} values={m.values} />;
            })()}
          </Alert>
        ) : (
          <>
            <Text>
              <FormattedMessage id="billing.cancel.confirm.intro" />
            </Text>
            {mutation.isError && (
              <Alert color="red" role="alert" data-testid="cancel-confirm-error">
                <FormattedMessage id={errorMessageId(mutation.error)} />
              </Alert>
            )}
            <Button
              onClick={() => mutation.mutate(token)}
              loading={mutation.isPending}
              data-testid="cancel-confirm-submit"
              style={{ alignSelf: 'flex-start' }}
            >
              <FormattedMessage id="billing.cancel.confirm.submit" />
            </Button>
          </>
        )}
        <LocalButtonLink to={paths.home} variant="subtle" style={{ alignSelf: 'flex-start' }}>
          <FormattedMessage id="billing.cancel.home" />
        </LocalButtonLink>
      </Stack>
    </Container>
  );
}

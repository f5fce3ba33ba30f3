import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { useLocale } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useCreatePortalSession } from '../api/create-portal-session';
import { useCurrentSubscription } from '../api/get-subscription';
import { BillingFunctionError } from '../api/invoke-function';
import { PLAN_NAME_ID, STATUS_NAME_ID } from '../labels';
import { withLocale } from '@site/locale';

const STATUS_COLOR: Readonly<Record<string, string>> = { active: 'green', trialing: 'blue', past_due: 'red', canceled: 'gray' };

/**
 * "Subscription" section of /user/settings (issue 7 "Customer portal"): current plan, status,
 * end of the billing period, a notice when the subscription ends at period end, a warning when
 * a renewal failed (past_due), and "Manage subscription" → Stripe billing portal (card, plan
 * change, cancellation). Without a subscription it links to /prices.
 */
export function SubscriptionPanel() {
  const intl = useIntl();
  const locale = useLocale();
  const subscription = useCurrentSubscription();
  const portal = useCreatePortalSession();

  const openPortal = () =>
    portal.mutate(
      { locale, returnUrl: `${window.location.origin}${withLocale(paths.user.settings, locale)}` },
      {
        onSuccess: ({ url }) => window.location.assign(url),
        onError: (error) =>
          notify(
            'error',
            intl.formatMessage({
              id: error instanceof BillingFunctionError && error.code === 'no_customer' ? 'billing.portal.noCustomer' : 'billing.portal.failed',
            }),
          ),
      },
    );

  const sub = subscription.data;
  const live = sub && ['active', 'trialing', 'past_due'].includes(sub.status);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="subscription-panel-title" data-testid="subscription-panel">
      <Stack gap="sm">
        <Title order={2} fz="lg" id="subscription-panel-title">
          <FormattedMessage id="billing.panel.title" />
        </Title>
        {subscription.isPending ? (
          <Skeleton height={60} aria-hidden />
        ) : subscription.isError ? (
          <Alert color="red" role="alert">
            <Group justify="space-between">
              <FormattedMessage id="billing.panel.loadFailed" />
              <Button size="xs" variant="light" onClick={() => void subscription.refetch()}>
                <FormattedMessage id="common.retry" />
              </Button>
            </Group>
          </Alert>
        ) : !sub || !live ? (
          <>
            <Text data-testid="subscription-none">
              <FormattedMessage id={sub ? 'billing.panel.ended' : 'billing.panel.none'} />
            </Text>
            <Group>
              <LocalButtonLink to={paths.prices}>
                <FormattedMessage id="billing.panel.seePlans" />
              </LocalButtonLink>
              {sub && (
                <Button variant="subtle" onClick={openPortal} loading={portal.isPending}>
                  <FormattedMessage id="billing.panel.manage" />
                </Button>
              )}
            </Group>
          </>
        ) : (
          <>
            <Group gap="sm">
              <Text fw={700} data-testid="subscription-plan">
                {PLAN_NAME_ID[sub.planId] ? intl.formatMessage({ id: PLAN_NAME_ID[sub.planId] }) : sub.planId}
              </Text>
              <Badge variant="dot" color={STATUS_COLOR[sub.status] ?? 'gray'} data-testid="subscription-status" data-status={sub.status}>
                {STATUS_NAME_ID[sub.status] ? intl.formatMessage({ id: STATUS_NAME_ID[sub.status] }) : sub.status}
              </Badge>
            </Group>
            {sub.currentPeriodEnd && (
              <Text fz="sm" data-testid="subscription-period-end">
                <FormattedMessage
                  id={sub.cancelAtPeriodEnd ? 'billing.panel.endsOn' : 'billing.panel.renewsOn'}
                  values={{ date: formatDate(sub.currentPeriodEnd, locale) }}
                />
              </Text>
            )}
            {sub.cancelAtPeriodEnd && (
              <Alert color="yellow" data-testid="subscription-cancel-notice">
                <FormattedMessage id="billing.panel.cancelNotice" />
              </Alert>
            )}
            {sub.status === 'past_due' && (
              <Alert color="red" role="alert" data-testid="subscription-past-due">
                <FormattedMessage id="billing.panel.pastDue" />
              </Alert>
            )}
            <Group>
              <Button onClick={openPortal} loading={portal.isPending} data-testid="manage-subscription">
                <FormattedMessage id="billing.panel.manage" />
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}

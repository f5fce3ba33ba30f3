import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { useLocale } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useCreatePortalSession } from '../api/create-portal-session';
import { useCurrentSubscription } from '../api/get-subscription';
import { useMyPlan } from '../api/get-my-plan';
import { EndOwnPlanDialog, useOwnPlanValues } from './end-own-plan';
import type { MyPlan } from '../api/get-my-plan';
import { BillingFunctionError } from '../api/invoke-function';
import { PLAN_NAME_ID, STATUS_NAME_ID } from '../labels';
import { withLocale } from '@site/locale';

const STATUS_COLOR: Readonly<Record<string, string>> = { active: 'green', trialing: 'blue', past_due: 'red', canceled: 'gray' };

/**
 * The effective plan (rpc my_plan, issue 32 §2) at the top of the panel: "Your plan: Enterprise
 * through {organisation}" when a seat gives it, and, while an own subscription is still charged
 * for nothing, the offer to end it (EndOwnPlanDialog).
 */
function EffectivePlan({ plan }: { plan: MyPlan }) {
  const intl = useIntl();
  const values = useOwnPlanValues(plan);
  const [open, setOpen] = useState(false);
  const name = intl.formatMessage({ id: PLAN_NAME_ID[plan.plan] ?? 'account.plan.free' });
  return (
    <>
      <Text data-testid="effective-plan" data-plan={plan.plan} data-source={plan.source}>
        <FormattedMessage
          id={plan.source === 'organization' ? 'billing.panel.planThroughOrganization' : 'account.home.plan'}
          values={{ plan: name, organization: plan.organization?.name ?? '' }}
        />
      </Text>
      {plan.own_plan_redundant && (
        <Alert color="yellow" data-testid="own-plan-redundant">
          <Stack gap="xs" align="flex-start">
            <FormattedMessage id="billing.ownPlan.redundant" values={values} />
            <Button size="xs" variant="light" color="red" onClick={() => setOpen(true)} data-testid="end-own-plan">
              <FormattedMessage id="billing.ownPlan.end" values={values} />
            </Button>
          </Stack>
        </Alert>
      )}
      <EndOwnPlanDialog plan={plan} opened={open} onDone={() => setOpen(false)} />
    </>
  );
}

/**
 * "Subscription" section of /user/settings (issue 7 "Customer portal"): the effective plan (issue
 * 32 §2), then the own subscription: plan, status,
 * end of the billing period, a notice when the subscription ends at period end, a warning when
 * a renewal failed (past_due), and "Manage subscription" → Stripe billing portal (card, plan
 * change, cancellation). Without a subscription it links to /prices.
 */
export function SubscriptionPanel() {
  const intl = useIntl();
  const locale = useLocale();
  const subscription = useCurrentSubscription();
  const myPlan = useMyPlan();
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
        {myPlan.data && myPlan.data.plan !== 'free' && <EffectivePlan plan={myPlan.data} />}
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
            {myPlan.data?.source === 'organization' && (
              <Text fz="sm" c="dimmed">
                <FormattedMessage id="billing.panel.ownSubscription" />
              </Text>
            )}
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

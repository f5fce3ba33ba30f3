import { Alert, Badge, Button, Card, Group, List, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, Title, useMatches } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useSearchParams } from 'react-router';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { formatEuro } from '@/lib/format';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { createCheckoutSession } from '../api/create-checkout-session';
import { createPortalSession } from '../api/create-portal-session';
import { type PlanId, type PlanWithPrices, usePlans } from '../api/get-prices';
import { useCurrentSubscription } from '../api/get-subscription';
import { BillingFunctionError } from '../api/invoke-function';
import { readPendingCheckout, rememberPendingCheckout, resumePendingCheckout } from '../api/resume-checkout';
import { PLANS } from '../plans';
import { BILLING_PERIODS, type BillingPeriod, freeMonths, isBillingPeriod, savingPercent } from '../pricing';
import { withLocale } from '@site/locale';
import { getSessionUser, useSession } from '@/lib/session';

const PLAN_NAME = { basic: 'prices.plan.basic', premium: 'prices.plan.premium', enterprise: 'prices.plan.enterprise' } as const;
const PERIOD_LABEL = {
  monthly: 'prices.period.monthly',
  quarterly: 'prices.period.quarterly',
  semiannual: 'prices.period.semiannual',
  yearly: 'prices.period.yearly',
} as const;
const PER_PERIOD = {
  monthly: 'prices.per.monthly',
  quarterly: 'prices.per.quarterly',
  semiannual: 'prices.per.semiannual',
  yearly: 'prices.per.yearly',
} as const;
/**
 * The order buttons carry the legally required wording ("Jetzt zahlungspflichtig bestellen", § 312j
 * BGB), which must be read in full: it wraps instead of being cut off (issue 33 §7).
 */
const WRAPPING_BUTTON = { root: { height: 'auto', minHeight: 'var(--button-height)', paddingBlock: 6 }, label: { whiteSpace: 'normal', overflow: 'visible', textAlign: 'center' } } as const;

/**
 * The body of `/prices`: the three plans with prices from public.prices, a billing-period switch with the
 * saving against monthly, end prices incl. VAT, and the checkout start (spec §4, §6, §9; issue 7).
 * Logged out, the choice is remembered (selectedPlan, pricePlan) and the user logs in first; a
 * signed-in user who comes back here with a remembered choice continues to checkout.
 */
export function PriceTable({ locale }: PageProps) {
  const intl = useIntl();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const requested = search.get('period');
  const [period, setPeriod] = useState<BillingPeriod>(isBillingPeriod(requested) ? requested : 'monthly');
  const plans = usePlans();
  const subscription = useCurrentSubscription();
  const currentPlan = subscription.data && ['active', 'trialing', 'past_due'].includes(subscription.data.status) ? subscription.data.planId : null;
  const [busyPlan, setBusyPlan] = useState<PlanId | null>(null);
  const signedOut = useSession().status === 'signed-out';
  // four German period names ("Vierteljährlich") do not fit side by side on a phone (issue 33 §7)
  const periodOrientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', xs: 'horizontal' });

  const failed = () => notify('error', intl.formatMessage({ id: 'billing.checkout.failed' }));

  useEffect(() => {
    if (!readPendingCheckout()) return;
    let cancelled = false;
    void getSessionUser().then(async (user) => {
      if (cancelled || !user) return;
      if (!(await resumePendingCheckout())) navigate(withLocale(paths.user.home, locale));
    });
    return () => {
      cancelled = true;
    };
  }, [locale, navigate]);

  const openPortal = async (planId: PlanId) => {
    setBusyPlan(planId);
    try {
      const { url } = await createPortalSession(locale, `${window.location.origin}${withLocale(paths.prices, locale)}`);
      window.location.assign(url);
    } catch {
      notify('error', intl.formatMessage({ id: 'billing.portal.failed' }));
      setBusyPlan(null);
    }
  };

  const order = async (planId: PlanId) => {
    setBusyPlan(planId);
    try {
      if (!(await getSessionUser())) {
        rememberPendingCheckout({ planId, billingPeriod: period });
        navigate(withLocale(paths.login, locale));
        return;
      }
      const { url } = await createCheckoutSession({ planId, billingPeriod: period }, locale);
      window.location.assign(url);
    } catch (error) {
      if (error instanceof BillingFunctionError && error.code === 'already_subscribed') {
        notify('info', intl.formatMessage({ id: 'billing.checkout.alreadySubscribed' }));
        try {
          const { url } = await createPortalSession(locale, `${window.location.origin}${withLocale(paths.user.settings, locale)}`);
          window.location.assign(url);
          return;
        } catch {
          // fall through
        }
      }
      failed();
      setBusyPlan(null);
    }
  };

  return (
    <>
      <Group justify="center" mb="xl">
        <SegmentedControl
          aria-label={intl.formatMessage({ id: 'prices.period.label' })}
          data-testid="billing-period"
          orientation={periodOrientation}
          value={period}
          onChange={(value) => isBillingPeriod(value) && setPeriod(value)}
          data={BILLING_PERIODS.map((value) => ({ value, label: intl.formatMessage({ id: PERIOD_LABEL[value] }) }))}
        />
      </Group>
      {plans.isError ? (
        <Alert color="red" role="alert" title={intl.formatMessage({ id: 'prices.loadFailed' })}>
          <Button mt="sm" variant="light" onClick={() => void plans.refetch()}>
            <FormattedMessage id="common.retry" />
          </Button>
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          {PLANS.map((plan) => {
            const row = plans.data?.find((p) => p.id === plan.id);
            return (
              <Card
                key={plan.id}
                withBorder
                padding="xl"
                component="article"
                aria-labelledby={`plan-${plan.id}`}
                data-testid={`plan-${plan.id}`}
                style={plan.highlighted ? { borderColor: 'var(--mantine-color-blue-8)', borderWidth: 2 } : undefined}
              >
                <Stack gap="sm" style={{ height: '100%' }}>
                  <Group gap="xs" mih={22}>
                    {plan.highlighted && (
                      <Badge color="blue.9" variant="filled">
                        <FormattedMessage id="prices.popular" />
                      </Badge>
                    )}
                    {currentPlan === plan.id && (
                      <Badge color="teal.9" variant="filled" data-testid={`current-plan-${plan.id}`}>
                        <FormattedMessage id="prices.currentPlan" />
                      </Badge>
                    )}
                  </Group>
                  <Title order={2} fz="xl" id={`plan-${plan.id}`}>
                    <FormattedMessage id={PLAN_NAME[plan.id]} />
                  </Title>
                  <PlanPriceBlock plan={row} planId={plan.id} period={period} loading={plans.isPending} locale={locale} />
                  {plan.includesKey && (
                    <Text fw={600} fz="sm">
                      <FormattedMessage id={plan.includesKey} />
                    </Text>
                  )}
                  <List spacing={4} fz="sm" style={{ flex: 1 }}>
                    {plan.featureKeys.map((key) => (
                      <List.Item key={key}>
                        <FormattedMessage id={key} />
                      </List.Item>
                    ))}
                  </List>
                  {plan.id === 'enterprise' ? (
                    <LocalButtonLink to={paths.contactTopic('enterprise')} variant="outline" fullWidth styles={WRAPPING_BUTTON} data-testid="order-enterprise">
                      <FormattedMessage id="prices.contactUs" />
                    </LocalButtonLink>
                  ) : currentPlan ? (
                    <Button
                      variant="outline"
                      fullWidth
                      styles={WRAPPING_BUTTON}
                      data-testid={`order-${plan.id}`}
                      loading={busyPlan === plan.id}
                      disabled={busyPlan !== null && busyPlan !== plan.id}
                      onClick={() => void openPortal(plan.id)}
                    >
                      <FormattedMessage id={currentPlan === plan.id ? 'billing.panel.manage' : 'prices.changePlan'} />
                    </Button>
                  ) : (
                    <Button
                      variant={plan.highlighted ? 'filled' : 'outline'}
                      fullWidth
                      styles={WRAPPING_BUTTON}
                      data-testid={`order-${plan.id}`}
                      loading={busyPlan === plan.id}
                      disabled={plans.isPending || !row?.prices[period]?.stripePriceId || (busyPlan !== null && busyPlan !== plan.id)}
                      onClick={() => void order(plan.id)}
                    >
                      <FormattedMessage id="prices.order" />
                    </Button>
                  )}
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
      <Text ta="center" mt="lg" fz="sm">
        <FormattedMessage id="prices.cancelAnytime" />
      </Text>
      {signedOut && (
        // only for visitors: a signed-in member already has the account (issue 33 §11)
        <Text ta="center" mt="xs" fz="sm" data-testid="prices-have-account">
          <FormattedMessage id="prices.haveAccount" />{' '}
          <LocalButtonLink to={paths.login} variant="subtle" size="compact-sm">
            <FormattedMessage id="prices.login" />
          </LocalButtonLink>
        </Text>
      )}
    </>
  );
}

/** Price of one plan in the chosen period: total, monthly equivalent, saving and "2 months free". */
function PlanPriceBlock({
  plan,
  planId,
  period,
  loading,
  locale,
}: {
  plan: PlanWithPrices | undefined;
  planId: PlanId;
  period: BillingPeriod;
  loading: boolean;
  locale: PageProps['locale'];
}) {
  const intl = useIntl();
  if (loading) return <Skeleton height={72} aria-hidden />;
  const price = plan?.prices[period];
  const monthly = plan?.prices.monthly;
  if (!price || !monthly) {
    return (
      <Text c="dimmed" fz="sm">
        <FormattedMessage id="prices.unavailable" />
      </Text>
    );
  }
  const saving = savingPercent(price.amountCents, price.months, monthly.amountCents);
  const free = freeMonths(price.amountCents, price.months, monthly.amountCents);
  return (
    <Stack gap={4}>
      <Text>
        <Text component="span" fz={36} fw={800} data-testid={`price-${planId}`}>
          {formatEuro(price.amountCents / 100, locale)}
        </Text>{' '}
        <FormattedMessage id={PER_PERIOD[period]} />
      </Text>
      {price.months > 1 && (
        <Text fz="sm" data-testid={`monthly-equivalent-${planId}`}>
          <FormattedMessage
            id="prices.monthlyEquivalent"
            values={{ amount: formatEuro(Math.round(price.amountCents / price.months) / 100, locale) }}
          />
        </Text>
      )}
      <Text fz="sm">
        <FormattedMessage id="prices.vatIncluded" />
      </Text>
      <Group gap="xs" mih={22}>
        {saving > 0 && (
          <Badge color="var(--tw-teal)" variant="outline" data-testid={`saving-${planId}`}>
            <FormattedMessage id="prices.saving" values={{ percent: intl.formatNumber(saving / 100, { style: 'percent' }) }} />
          </Badge>
        )}
        {free > 0 && (
          <Badge color="teal.9" variant="filled" data-testid={`free-months-${planId}`}>
            <FormattedMessage id="prices.freeMonths" values={{ count: free }} />
          </Badge>
        )}
      </Group>
    </Stack>
  );
}

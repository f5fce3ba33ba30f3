import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocale } from '@/components/use-locale';
import { formatDate, formatEuro } from '@/lib/format';
import { useSession } from '@/lib/session';
import { cancelContract } from '../api/cancel-contract';
import type { MyPlan } from '../api/get-my-plan';
import { PLAN_NAME_ID } from '../labels';

/** Message ids of the billing periods. */
const PERIOD_ID: Readonly<Record<string, string>> = {
  monthly: 'prices.period.monthly',
  quarterly: 'prices.period.quarterly',
  semiannual: 'prices.period.semiannual',
  yearly: 'prices.period.yearly',
};

/** Values of the "own plan" texts: organisation, plan name, price per period, end of the paid period. */
export function useOwnPlanValues(plan: MyPlan): Record<string, string> {
  const intl = useIntl();
  const locale = useLocale();
  const own = plan.own_subscription;
  return {
    organization: plan.organization?.name ?? '',
    plan: own ? intl.formatMessage({ id: PLAN_NAME_ID[own.plan_id] ?? 'prices.plan.basic' }) : '',
    price: own?.amount_cents != null ? formatEuro(own.amount_cents / 100, locale) : '',
    period: own?.billing_period ? intl.formatMessage({ id: PERIOD_ID[own.billing_period] ?? 'prices.period.monthly' }) : '',
    date: own?.current_period_end ? formatDate(own.current_period_end, locale) : '',
  };
}

/**
 * Says what happens to a member's own plan once an organisation seat gives them Enterprise
 * (issue 32 §2), for the invitation page of `organizationName` before joining. Renders nothing without a live own
 * subscription that pays no organisation and is not already ending.
 */
export function OwnPlanNotice({ plan, organizationName }: { plan: MyPlan; organizationName: string }) {
  const values = { ...useOwnPlanValues(plan), organization: organizationName };
  const own = plan.own_subscription;
  if (!own || own.pays_organization || own.cancel_at_period_end) return null;
  return (
    <Alert color="blue" role="status" data-testid="own-plan-notice">
      <FormattedMessage id="billing.ownPlan.beforeJoin" values={values} />
    </Alert>
  );
}

/**
 * The offer to end an own plan that an organisation seat makes unnecessary (issue 32 §2). Product
 * rule, stated in the dialog: the own subscription is cancelled at the end of the paid period
 * through the §312k cancellation path (cancel-contract, signed in: the caller's own contract; a
 * receipt is mailed); it stays active until then, nothing more is charged and nothing is refunded.
 * `onDone` runs after ending or keeping.
 */
export function EndOwnPlanDialog({ plan, opened, onDone }: { plan: MyPlan; opened: boolean; onDone: () => void }) {
  const intl = useIntl();
  const locale = useLocale();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const values = useOwnPlanValues(plan);
  const own = plan.own_subscription;
  const end = useMutation({
    mutationFn: () =>
      cancelContract({
        name: user?.email ?? '',
        email: user?.email ?? '',
        plan: (own?.plan_id ?? null) as 'basic' | 'premium' | 'enterprise' | null,
        reason: intl.formatMessage({ id: 'billing.ownPlan.reason' }, values),
        requestedDate: 'asap',
        locale,
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['billing'] });
      onDone();
    },
  });
  return (
    <Modal opened={opened} onClose={onDone} title={intl.formatMessage({ id: 'billing.ownPlan.title' }, values)} centered>
      <Stack data-testid="end-own-plan-dialog">
        <Text>
          <FormattedMessage id="billing.ownPlan.body" values={values} />
        </Text>
        <Text fw={600}>
          <FormattedMessage id="billing.ownPlan.rule" values={values} />
        </Text>
        {end.isError && (
          <Alert color="red" role="alert">
            <FormattedMessage id="billing.ownPlan.failed" />
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} disabled={end.isPending} data-testid="end-own-plan-keep">
            <FormattedMessage id="billing.ownPlan.keep" />
          </Button>
          <Button color="red" onClick={() => end.mutate()} loading={end.isPending} data-testid="end-own-plan-confirm">
            <FormattedMessage id="billing.ownPlan.end" values={values} />
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

import { Alert, Button, Group, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { NumberField } from '@/components/number-field';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { type Locale } from '@site/locale';
import { FunctionCallError } from '@/lib/function-call-error';
import { formatEuro } from '@/lib/format';
import { notify } from '@/lib/notify';
import { organizationBillingQuery, SEAT_ERROR_IDS, useChangeSeats } from '../api/organization-seats';

/** Highest number of extra seats one organisation can buy (public.prepare_seat_change). */
const MAX_EXTRA_SEATS = 995;

/**
 * Buying and giving back extra seats (issue 15: Enterprise includes 5 seats, more as a quantity on
 * the Stripe subscription), for owners on /org/{slug}/settings. The owner whose subscription pays
 * sees the seats included and bought, the price of one extra seat for the subscription's billing
 * period and a number field; the change is confirmed in a dialog that names the new number and
 * the new price per period, then sent to the `organization-seats` function. Other owners see who
 * can change the seats. The field never goes below the seats in use; the database refuses it anyway.
 */
export function SeatPurchase({ organizationId, locale }: { organizationId: string; locale: Locale }) {
  const intl = useIntl();
  const billing = useQuery(organizationBillingQuery(organizationId));
  const change = useChangeSeats(organizationId);
  const [wanted, setWanted] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);

  if (billing.isPending) return <Skeleton height={72} />;
  if (billing.isError) return null;
  const b = billing.data;
  if (!b.billing_owner || !b.enterprise_active || b.seat_amount_cents === null || !b.billing_period) {
    return (
      <Text fz="sm" c="var(--tw-muted)" data-testid="org-seats-owner-only">
        <FormattedMessage id="org.seats.ownerOnly" />
      </Text>
    );
  }
  const inUse = b.members + b.open_invitations;
  const min = Math.max(0, inUse - b.included_seats);
  const extra = wanted ?? b.extra_seats;
  const period = intl.formatMessage({ id: `prices.per.${b.billing_period}` });
  const seatPrice = formatEuro(b.seat_amount_cents / 100, locale);
  const total = formatEuro((b.seat_amount_cents * extra) / 100, locale);
  const valid = Number.isInteger(extra) && extra >= min && extra <= MAX_EXTRA_SEATS;

  const submit = () => {
    change.mutate(extra, {
      onSuccess: (answer) => {
        setConfirming(false);
        setWanted(null);
        notify('success', intl.formatMessage({ id: 'org.seats.changed' }, { seats: answer.seats }));
      },
      onError: (error) => {
        setConfirming(false);
        const id = error instanceof FunctionCallError ? SEAT_ERROR_IDS[error.code] : undefined;
        notify('error', intl.formatMessage({ id: id ?? 'org.seats.error.generic' }));
      },
    });
  };

  return (
    <Stack gap="sm" data-testid="org-seat-purchase">
      <Text fz="sm" data-testid="org-seats-breakdown">
        <FormattedMessage id="org.seats.breakdown" values={{ included: b.included_seats, extra: b.extra_seats, price: seatPrice, period }} />
      </Text>
      <Group align="flex-end" wrap="wrap">
        <NumberField
          label={intl.formatMessage({ id: 'org.seats.extraLabel' })}
          description={intl.formatMessage({ id: 'org.seats.extraHint' }, { min })}
          min={min}
          max={MAX_EXTRA_SEATS}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          value={extra}
          onChange={(value) => setWanted(typeof value === 'number' ? value : null)}
          error={valid ? undefined : intl.formatMessage({ id: 'org.seats.extraInvalid' }, { min, max: MAX_EXTRA_SEATS })}
          w={220}
          data-testid="org-seats-extra"
        />
        <Button onClick={() => setConfirming(true)} disabled={!valid || extra === b.extra_seats} data-testid="org-seats-change">
          <FormattedMessage id="org.seats.change" />
        </Button>
      </Group>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={intl.formatMessage({ id: 'org.seats.confirmTitle' })}
        centered
        closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'common.close' }) }}
      >
        <Stack>
          <Text data-testid="org-seats-confirm-text">
            <FormattedMessage id="org.seats.confirmText" values={{ seats: b.included_seats + extra, extra, total, period }} />
          </Text>
          <Alert color="gray" variant="light">
            <FormattedMessage id="org.seats.proration" />
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              <FormattedMessage id="common.cancel" />
            </Button>
            <Button onClick={submit} loading={change.isPending} data-testid="org-seats-confirm">
              <FormattedMessage id="org.seats.confirm" />
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

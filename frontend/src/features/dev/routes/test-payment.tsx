import { Alert, Button, Container, Group, NativeSelect, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatEuro } from '@/lib/format';
import type { PageProps } from '@/lib/route-def';
import { callFunction, currentUser, listDevPrices } from '../api/dev-billing';

/**
 * `/test/payment` (developer only): starts Checkout for any price and opens the billing portal,
 * showing the raw outcome with the spec §8 test-page messages ('You must be logged in',
 * 'No payment customer ID found. Please contact support.', 'Failed to create checkout session').
 */
export default function TestPaymentRoute({ locale }: PageProps) {
  const intl = useIntl();
  const prices = useQuery({ queryKey: ['dev', 'prices'], queryFn: listDevPrices });
  const [priceId, setPriceId] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const checkout = async () => {
    setMessage(null);
    const user = await currentUser();
    if (!user) return setMessage(intl.formatMessage({ id: 'dev.mustLogin' }));
    const price = prices.data?.find((p) => p.stripePriceId === priceId);
    if (!price) return;
    setBusy(true);
    try {
      const { url } = await callFunction<{ url: string }>('create-checkout-session', {
        userId: user.id,
        email: user.email,
        name: user.email,
        priceId,
        planType: price.planId,
        locale,
      });
      window.location.assign(url);
    } catch {
      setMessage(intl.formatMessage({ id: 'dev.checkoutFailed' }));
      setBusy(false);
    }
  };

  const portal = async () => {
    setMessage(null);
    if (!(await currentUser())) return setMessage(intl.formatMessage({ id: 'dev.mustLogin' }));
    setBusy(true);
    try {
      const { url } = await callFunction<{ url: string }>('create-portal-session', { locale, returnUrl: window.location.href });
      window.location.assign(url);
    } catch {
      setMessage(intl.formatMessage({ id: 'billing.portal.noCustomer' }));
      setBusy(false);
    }
  };

  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="dev.payment.title" />
        </Title>
        {message && (
          <Alert color="red" role="alert" data-testid="dev-message">
            {message}
          </Alert>
        )}
        <NativeSelect
          label={intl.formatMessage({ id: 'dev.plan' })}
          value={priceId}
          onChange={(event) => setPriceId(event.currentTarget.value)}
          data={[
            { value: '', label: '—' },
            ...(prices.data ?? [])
              .filter((p) => p.stripePriceId)
              .map((p) => ({ value: p.stripePriceId!, label: `${p.planId} · ${p.billingPeriod} · ${formatEuro(p.amountCents / 100, locale)}` })),
          ]}
        />
        <Group>
          <Button onClick={() => void checkout()} disabled={!priceId} loading={busy}>
            <FormattedMessage id="dev.payment.checkout" />
          </Button>
          <Button variant="outline" onClick={() => void portal()} loading={busy}>
            <FormattedMessage id="billing.panel.manage" />
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}

import { Container, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatEuro } from '@/lib/format';
import type { PageProps } from '@/lib/route-def';
import { listDevPrices } from '../api/dev-billing';

/** `/test/dropdown` (developer only): every active price in one plan dropdown. */
export default function TestDropdownRoute({ locale }: PageProps) {
  const intl = useIntl();
  const prices = useQuery({ queryKey: ['dev', 'prices'], queryFn: listDevPrices });
  const [value, setValue] = useState('');
  const chosen = prices.data?.find((p) => String(p.id) === value);
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="dev.dropdown.title" />
        </Title>
        <NativeSelect
          label={intl.formatMessage({ id: 'dev.plan' })}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          data={[
            { value: '', label: '—' },
            ...(prices.data ?? []).map((p) => ({ value: String(p.id), label: `${p.planId} · ${p.billingPeriod} · ${formatEuro(p.amountCents / 100, locale)}` })),
          ]}
        />
        {chosen && <Text ff="monospace">{chosen.stripePriceId ?? '—'}</Text>}
      </Stack>
    </Container>
  );
}

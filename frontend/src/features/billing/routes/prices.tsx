import { Container, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { lazyChunk } from '@/lib/load-chunk';
import { FormattedMessage } from 'react-intl';
import { AfterFirstPaint } from '@/components/after-first-paint';
import type { PageProps } from '@/lib/route-def';

// the plans with their prices and the checkout logic load after the heading painted (issue 5:
// mobile Lighthouse performance of /prices)
const PriceTable = lazyChunk(() => import('../components/price-table').then((m) => ({ default: m.PriceTable })));

/**
 * `/prices`: heading and intro, then the price table (components/price-table.tsx: the three plans
 * with prices from public.prices, billing periods, checkout start; spec §4, §6, §9; issue 7).
 */
export default function PricesRoute({ locale, params }: PageProps) {
  return (
    <Container size="lg" py="xl">
      <Stack gap="xs" mb="lg" ta="center" align="center">
        <Title order={1}>
          <FormattedMessage id="prices.title" />
        </Title>
        <Text maw={640}>
          <FormattedMessage id="prices.intro" />
        </Text>
      </Stack>
      <AfterFirstPaint
        fallback={
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg" aria-hidden>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={420} radius="md" />
            ))}
          </SimpleGrid>
        }
      >
        <PriceTable locale={locale} params={params} />
      </AfterFirstPaint>
    </Container>
  );
}

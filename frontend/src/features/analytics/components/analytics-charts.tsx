import { AreaChart, BarChart } from '@mantine/charts';
import { Card, Group, SimpleGrid, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { type AnalyticsReport, type Metric, METRICS } from '../api/analytics';
import { METRIC_LABEL } from './analytics-labels';
import { ChangeBadge } from './change-badge';

/** A titled card holding one chart, announced to screen readers as an image with the title as its name. */
function ChartCard({ titleId, testId, children }: { titleId: string; testId: string; children: ReactNode }) {
  const intl = useIntl();
  return (
    <Card withBorder>
      <Title order={2} fz="h4" mb="sm">
        <FormattedMessage id={titleId} />
      </Title>
      <div data-testid={testId} aria-label={intl.formatMessage({ id: titleId })} role="img">
        {children}
      </div>
    </Card>
  );
}

/**
 * The totals and charts of a report (issue 15): one card per metric with its total and change,
 * views per day as an area chart, the clicks per day as stacked bars (90 days, Europe/Berlin).
 * @param data the report of all items or of the selected one
 */
export function AnalyticsCharts({ data }: { data: AnalyticsReport }) {
  const intl = useIntl();
  const metricLabel = (m: Metric) => intl.formatMessage({ id: METRIC_LABEL[m] });
  const dayLabel = (day: string) => intl.formatDate(`${day}T12:00:00Z`, { day: '2-digit', month: '2-digit', timeZone: 'Europe/Berlin' });
  const chartData = data.series.map((d) => ({ ...d, label: dayLabel(d.day) }));
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
        {METRICS.map((m) => (
          <Card key={m} withBorder padding="sm">
            <Text size="sm" c="dimmed">
              {metricLabel(m)}
            </Text>
            <Group gap="xs" align="baseline">
              <Text fz="xl" fw={700} data-testid={`analytics-total-${m}`}>
                {intl.formatNumber(data.totals[m])}
              </Text>
              <ChangeBadge change={data.change[m]} current={data.totals[m]} />
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      <ChartCard titleId="analytics.chart.views" testId="analytics-chart-views">
        <AreaChart
          h={240}
          data={chartData}
          dataKey="label"
          series={[{ name: 'view', label: metricLabel('view'), color: 'teal.6' }]}
          curveType="monotone"
          withDots={false}
          tickLine="x"
        />
      </ChartCard>
      <ChartCard titleId="analytics.chart.clicks" testId="analytics-chart-clicks">
        <BarChart
          h={220}
          data={chartData}
          dataKey="label"
          type="stacked"
          withLegend
          series={[
            { name: 'connect_click', label: metricLabel('connect_click'), color: 'blue.6' },
            { name: 'apply_click', label: metricLabel('apply_click'), color: 'violet.6' },
            { name: 'external_link_click', label: metricLabel('external_link_click'), color: 'orange.6' },
            { name: 'contact_request_received', label: metricLabel('contact_request_received'), color: 'pink.6' },
          ]}
          tickLine="x"
        />
      </ChartCard>
    </>
  );
}

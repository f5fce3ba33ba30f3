import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import { Alert, Anchor, Badge, Button, Card, Group, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { LoadingState } from '@/components/query-state';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import {
  type AnalyticsItem,
  analyticsReportQuery,
  type AnalyticsSelection,
  fetchAnalyticsCsv,
  isPremiumRequired,
  type Metric,
  METRICS,
} from '../api/analytics';
import type { AnalyticsItemType } from '@/lib/track';

/** Message ids of the metrics and item types (written out, so the message-key test sees them). */
const METRIC_LABEL: Record<Metric, string> = {
  view: 'analytics.metric.view',
  connect_click: 'analytics.metric.connect_click',
  apply_click: 'analytics.metric.apply_click',
  external_link_click: 'analytics.metric.external_link_click',
  contact_request_received: 'analytics.metric.contact_request_received',
};
const TYPE_LABEL: Record<AnalyticsItemType, string> = {
  organization: 'analytics.type.organization',
  profile: 'analytics.type.profile',
  project: 'analytics.type.project',
  job: 'analytics.type.job',
  event: 'analytics.type.event',
};

/** Public path of an item of the report (null for types without a page here). */
function itemPath(item: AnalyticsItem): string | null {
  if (!item.slug) return null;
  switch (item.item_type) {
    case 'profile':
      return paths.profile(item.slug);
    case 'project':
      return `/${item.slug}`;
    case 'job':
      return paths.job(item.slug);
    case 'event':
      return paths.event(item.slug);
    case 'organization':
      return paths.org.page(item.slug);
    default:
      return null;
  }
}

const selectionValue = (s: AnalyticsSelection) => (s ? `${s.type}:${s.id}` : '');
const parseSelection = (v: string | null): AnalyticsSelection => {
  if (!v) return null;
  const i = v.indexOf(':');
  return { type: v.slice(0, i) as AnalyticsItemType, id: v.slice(i + 1) };
};

/** "+12.5 %", "−3 %", "new" (no previous count, some now) or "–" (nothing in both periods). */
function ChangeBadge({ change, current, testId }: { change: number | null; current: number; testId?: string }) {
  const intl = useIntl();
  if (change === null) {
    return (
      <Badge variant="light" color={current > 0 ? 'teal' : 'gray'} data-testid={testId}>
        {current > 0 ? intl.formatMessage({ id: 'analytics.change.new' }) : '–'}
      </Badge>
    );
  }
  const text = `${change > 0 ? '+' : ''}${intl.formatNumber(change, { maximumFractionDigits: 1 })} %`;
  return (
    <Badge variant="light" color={change > 0 ? 'teal' : change < 0 ? 'red' : 'gray'} data-testid={testId}>
      {text}
    </Badge>
  );
}

/**
 * The analytics report (issue 15): views and clicks per day over the last 90 days (charts), per
 * item with totals and the change against the previous 90 days, and a CSV download; for the
 * signed-in user's own items, or with `organizationId` for an organisation's (its owners and
 * admins). Below Premium the upgrade path shows (the database answers PT402). Only aggregated
 * counts exist: who viewed is never stored.
 * @param heading the page's heading (title and intro)
 */
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

export function AnalyticsView({ organizationId = null, heading }: { organizationId?: string | null; heading: ReactNode }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [selected, setSelected] = useState<AnalyticsSelection>(null);
  const all = useQuery(analyticsReportQuery(null, organizationId));
  const report = useQuery(analyticsReportQuery(selected, organizationId));
  const csv = useMutation({
    mutationFn: () => fetchAnalyticsCsv(selected, organizationId),
    onSuccess: (text) => {
      const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `analytics-${report.data?.to ?? 'export'}.csv`;
      a.click();
      URL.revokeObjectURL(url);
    },
    onError: () => notify('error', t('analytics.csv.error')),
  });
  const metricLabel = (m: Metric) => t(METRIC_LABEL[m]);
  const typeLabel = (type: AnalyticsItemType) => t(TYPE_LABEL[type]);

  if (all.isPending) {
    return (
      <Stack>
        {heading}
        <LoadingState messageId="analytics.loading" />
      </Stack>
    );
  }
  if (all.isError) {
    return (
      <Stack>
        {heading}
        {isPremiumRequired(all.error) ? (
          <Alert color="blue" variant="light" data-testid="analytics-upgrade" title={t('analytics.upgrade.title')}>
            <Stack gap="xs" align="flex-start">
              <Text>
                <FormattedMessage id="analytics.upgrade.text" />
              </Text>
              <LocalButtonLink to={paths.prices}>
                <FormattedMessage id="analytics.upgrade.cta" />
              </LocalButtonLink>
            </Stack>
          </Alert>
        ) : (
          <Alert color="red" role="alert">
            <Group justify="space-between">
              <FormattedMessage id="analytics.error" />
              <Button size="xs" variant="light" onClick={() => void all.refetch()}>
                <FormattedMessage id="common.retry" />
              </Button>
            </Group>
          </Alert>
        )}
      </Stack>
    );
  }

  const items = all.data.items;
  const data = report.data ?? (selected ? null : all.data);
  const dayLabel = (day: string) => intl.formatDate(`${day}T12:00:00Z`, { day: '2-digit', month: '2-digit', timeZone: 'Europe/Berlin' });
  const chartData = (data?.series ?? []).map((d) => ({ ...d, label: dayLabel(d.day) }));
  const options = [
    { value: '', label: t('analytics.select.all') },
    ...items.map((i) => ({ value: selectionValue({ type: i.item_type, id: i.item_id }), label: `${typeLabel(i.item_type)}: ${i.title ?? i.item_id}` })),
  ];

  return (
    <Stack>
      {heading}
      <Group align="flex-end" justify="space-between">
        <Select
          label={t('analytics.select.label')}
          data={options}
          value={selectionValue(selected)}
          onChange={(v) => setSelected(parseSelection(v))}
          allowDeselect={false}
          searchable
          miw={280}
          data-testid="analytics-select"
        />
        <Button variant="light" loading={csv.isPending} onClick={() => csv.mutate()} data-testid="analytics-csv">
          <FormattedMessage id="analytics.csv.download" />
        </Button>
      </Group>
      {data && (
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="analytics.period"
            values={{ date: intl.formatDate(`${data.to}T12:00:00Z`, { dateStyle: 'medium', timeZone: 'Europe/Berlin' }) }}
          />
        </Text>
      )}
      {!data ? (
        <LoadingState messageId="analytics.loading" />
      ) : (
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
      )}
      <Title order={2} fz="h4">
        <FormattedMessage id="analytics.items.title" />
      </Title>
      {items.length === 0 ? (
        <Text c="dimmed">
          <FormattedMessage id="analytics.items.empty" />
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover data-testid="analytics-items">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <FormattedMessage id="analytics.items.item" />
                </Table.Th>
                <Table.Th>
                  <FormattedMessage id="analytics.items.type" />
                </Table.Th>
                {METRICS.map((m) => (
                  <Table.Th key={m} ta="right">
                    {metricLabel(m)}
                  </Table.Th>
                ))}
                <Table.Th ta="right">
                  <FormattedMessage id="analytics.items.change" />
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => {
                const path = itemPath(item);
                const value = selectionValue({ type: item.item_type, id: item.item_id });
                return (
                  <Table.Tr key={value} data-testid="analytics-item" data-item={value}>
                    <Table.Td>
                      <Stack gap={0}>
                        {path ? <LocalLink to={path}>{item.title ?? item.item_id}</LocalLink> : <Text>{item.title ?? item.item_id}</Text>}
                        <Anchor component="button" type="button" size="xs" onClick={() => setSelected({ type: item.item_type, id: item.item_id })}>
                          <FormattedMessage id="analytics.items.show" />
                        </Anchor>
                      </Stack>
                    </Table.Td>
                    <Table.Td>{typeLabel(item.item_type)}</Table.Td>
                    {METRICS.map((m) => (
                      <Table.Td key={m} ta="right" data-testid={`analytics-item-${m}`}>
                        {intl.formatNumber(item.totals[m])}
                      </Table.Td>
                    ))}
                    <Table.Td ta="right">
                      <ChangeBadge change={item.change.view} current={item.totals.view} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Text size="xs" c="dimmed">
        <FormattedMessage id="analytics.privacy" />
      </Text>
    </Stack>
  );
}

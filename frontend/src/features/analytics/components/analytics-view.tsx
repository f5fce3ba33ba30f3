import '@mantine/charts/styles.css';
import { Alert, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { LoadingState } from '@/components/query-state';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import type { AnalyticsItemType } from '@/lib/track';
import { analyticsReportQuery, type AnalyticsSelection, fetchAnalyticsCsv, isPremiumRequired } from '../api/analytics';
import { AnalyticsCharts } from './analytics-charts';
import { AnalyticsItemsTable } from './analytics-items-table';
import { parseSelection, selectionValue, TYPE_LABEL } from './analytics-labels';

/**
 * The analytics report (issue 15): views and clicks per day over the last 90 days (charts), per
 * item with totals and the change against the previous 90 days, and a CSV download; for the
 * signed-in user's own items, or with `organizationId` for an organisation's (its owners and
 * admins). Below Premium the upgrade path shows (the database answers PT402). Only aggregated
 * counts exist: who viewed is never stored.
 * @param heading the page's heading (title and intro)
 */
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
      {!data ? <LoadingState messageId="analytics.loading" /> : <AnalyticsCharts data={data} />}
      <Title order={2} fz="h4">
        <FormattedMessage id="analytics.items.title" />
      </Title>
      {items.length === 0 ? (
        <Text c="dimmed">
          <FormattedMessage id="analytics.items.empty" />
        </Text>
      ) : (
        <AnalyticsItemsTable items={items} onSelect={setSelected} />
      )}
      <Text size="xs" c="dimmed">
        <FormattedMessage id="analytics.privacy" />
      </Text>
    </Stack>
  );
}

import { Anchor, Stack, Table, Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalLink } from '@/components/local-link';
import { type AnalyticsItem, type AnalyticsSelection, METRICS } from '../api/analytics';
import { itemPath, METRIC_LABEL, selectionValue, TYPE_LABEL } from './analytics-labels';
import { ChangeBadge } from './change-badge';

/**
 * The items of the report as a table (issue 15): link to each item's page, its type, the totals
 * per metric and the change of views; "Show" selects the item for the charts above.
 * @param items the report's items (all own items, or the organisation's)
 * @param onSelect selects one item
 */
export function AnalyticsItemsTable({ items, onSelect }: { items: AnalyticsItem[]; onSelect: (selection: AnalyticsSelection) => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  return (
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
                {t(METRIC_LABEL[m])}
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
                    <Anchor component="button" type="button" size="xs" onClick={() => onSelect({ type: item.item_type, id: item.item_id })}>
                      <FormattedMessage id="analytics.items.show" />
                    </Anchor>
                  </Stack>
                </Table.Td>
                <Table.Td>{t(TYPE_LABEL[item.item_type])}</Table.Td>
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
  );
}

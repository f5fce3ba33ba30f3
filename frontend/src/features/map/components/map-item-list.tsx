import { Badge, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { EmptyState } from '@/components/empty-state';
import { ListPagination } from '@/components/list-pagination';
import { LocalLink } from '@/components/local-link';
import { type Locale } from '@site/locale';
import type { MapItem } from '../api/map';
import { itemFacts, itemPath, LAYER_META } from './layer-meta';
import classes from './map-item-list.module.css';

/** Items per page of the list beside the map. */
export const MAP_LIST_PAGE_SIZE = 20;

/**
 * The map's items as a list (issue 14: keyboard and screen reader users get the same results):
 * kind, title linking to the detail page, category, city and date, paged.
 */
export function MapItemList({ items, locale, label }: { items: readonly MapItem[]; locale: Locale; label: string }) {
  const intl = useIntl();
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(items.length / MAP_LIST_PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = items.slice((current - 1) * MAP_LIST_PAGE_SIZE, current * MAP_LIST_PAGE_SIZE);
  if (items.length === 0) {
    return (
      <EmptyState compact testId="map-list-empty">
        <FormattedMessage id="map.list.empty" />
      </EmptyState>
    );
  }
  return (
    <Stack gap="sm">
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={label} data-testid="map-list">
        {shown.map((item) => {
          const to = itemPath(item);
          const meta = LAYER_META[item.layer];
                  return (
            <li key={`${item.layer}-${item.id}`} data-testid="map-list-item" data-layer={item.layer}>
              <Stack gap={0}>
                <Group gap={6} wrap="nowrap">
                  <Badge size="xs" variant="outline" className={classes.kind} data-layer={item.layer} styles={{ root: { color: 'var(--kind)', borderColor: 'var(--kind)', flexShrink: 0 } }}>
                    <FormattedMessage id={meta.one} />
                  </Badge>
                  {to ? (
                    <LocalLink to={to} fz="sm" fw={600} lineClamp={1}>
                      {item.title}
                    </LocalLink>
                  ) : (
                    <Text fz="sm" fw={600} lineClamp={1}>
                      {item.title}
                    </Text>
                  )}
                </Group>
                <Text fz="xs" c="dimmed">
                  {itemFacts(item, intl, locale)}
                </Text>
              </Stack>
            </li>
          );
        })}
      </Stack>
      <ListPagination total={items.length} pageSize={MAP_LIST_PAGE_SIZE} page={current} onChange={setPage} />
    </Stack>
  );
}

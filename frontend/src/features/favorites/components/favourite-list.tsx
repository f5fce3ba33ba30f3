import { Button, SimpleGrid, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { EmptyState } from '@/components/empty-state';
import { ListPagination } from '@/components/list-pagination';
import { LoadError, LoadingState } from '@/components/query-state';
import { FAVORITES_PAGE_SIZE } from '../api/get-favorites';

/** One entry of a favourites list. */
export interface FavouriteEntry {
  key: string;
  /** The entry's card (components/content-card); `remove` is the remove button for the card's `extra` slot. */
  render: (remove: ReactNode) => ReactNode;
  onRemove: () => void;
  removing: boolean;
}

/**
 * A favourites list in the shared card design (issue 18) with loading, error (retry), empty and
 * paginated states. Each entry is an `<li data-testid={testId}>`; the empty state's message has
 * `data-testid={testId}-empty`.
 * @param emptyId message id shown when the list is empty
 * @param emptyAction optional next step of the empty state (e.g. a link to search)
 */
export function FavouriteList(props: {
  label: string;
  testId: string;
  emptyId: string;
  emptyAction?: ReactNode;
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
  entries: FavouriteEntry[];
  total: number;
  page: number;
  onPage: (page: number) => void;
}) {
  if (props.isPending) return <LoadingState messageId="favorites.loading" compact />;
  if (props.isError) return <LoadError messageId="favorites.loadFailed" onRetry={props.onRetry} />;
  if (props.entries.length === 0) {
    return (
      <EmptyState compact testId={`${props.testId}-empty`} action={props.emptyAction}>
        <FormattedMessage id={props.emptyId} />
      </EmptyState>
    );
  }
  return (
    <Stack>
      <SimpleGrid component="ul" cols={{ base: 1, sm: 2 }} p={0} m={0} style={{ listStyle: 'none' }} aria-label={props.label}>
        {props.entries.map((entry) => (
          <li key={entry.key} data-testid={props.testId}>
            {entry.render(
              <Button size="xs" variant="outline" color="var(--tw-red)" loading={entry.removing} onClick={entry.onRemove}>
                <FormattedMessage id="favorites.remove" />
              </Button>,
            )}
          </li>
        ))}
      </SimpleGrid>
      <ListPagination total={props.total} pageSize={FAVORITES_PAGE_SIZE} page={props.page} onChange={props.onPage} />
    </Stack>
  );
}

import { Alert, Button, Card, Center, Group, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ListPagination } from '@/components/list-pagination';
import { FAVORITES_PAGE_SIZE } from '../api/get-favorites';

/** One entry of a favourites list. */
export interface FavouriteEntry {
  key: string;
  content: ReactNode;
  onRemove: () => void;
  removing: boolean;
}

/**
 * A favourites list with loading, error (retry), empty and paginated states.
 * @param emptyId message id shown when the list is empty
 */
export function FavouriteList(props: {
  label: string;
  testId: string;
  emptyId: string;
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
  entries: FavouriteEntry[];
  total: number;
  page: number;
  onPage: (page: number) => void;
}) {
  const intl = useIntl();
  if (props.isPending) {
    return (
      <Center py="md">
        <Loader size="sm" aria-label={intl.formatMessage({ id: 'favorites.loading' })} />
      </Center>
    );
  }
  if (props.isError) {
    return (
      <Alert color="red" role="alert">
        <Group justify="space-between">
          <FormattedMessage id="favorites.loadFailed" />
          <Button size="xs" variant="light" onClick={props.onRetry}>
            <FormattedMessage id="common.retry" />
          </Button>
        </Group>
      </Alert>
    );
  }
  if (props.entries.length === 0) {
    return (
      <Text c="dimmed" data-testid={`${props.testId}-empty`}>
        <FormattedMessage id={props.emptyId} />
      </Text>
    );
  }
  return (
    <Stack>
      <Stack component="ul" gap="xs" p={0} style={{ listStyle: 'none' }} aria-label={props.label}>
        {props.entries.map((entry) => (
          <Card component="li" key={entry.key} withBorder padding="sm" data-testid={props.testId}>
            <Group justify="space-between">
              <div>{entry.content}</div>
              <Button size="xs" variant="light" color="red" loading={entry.removing} onClick={entry.onRemove}>
                <FormattedMessage id="favorites.remove" />
              </Button>
            </Group>
          </Card>
        ))}
      </Stack>
      <ListPagination total={props.total} pageSize={FAVORITES_PAGE_SIZE} page={props.page} onChange={props.onPage} />
    </Stack>
  );
}

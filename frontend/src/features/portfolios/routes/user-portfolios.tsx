import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ListPagination } from '@/components/list-pagination';
import { LoadError, LoadingState } from '@/components/query-state';
import { LocalButtonLink } from '@/components/local-link';
import { useUserId } from '@/components/use-user-id';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { PORTFOLIOS_PAGE_SIZE, useMyPortfolios, usePortfolioMutations } from '../api/portfolios';
import { FILE_ACCESS_LABEL, type PortfolioRow } from '../api/portfolio-schema';

/** `/user/portfolios`: my portfolios with status, file access, edit and delete (spec §2). */
export default function UserPortfoliosRoute({ locale }: PageProps) {
  const intl = useIntl();
  const userId = useUserId();
  const [page, setPage] = useState(1);
  const query = useMyPortfolios(userId.data, page);
  const { remove } = usePortfolioMutations();
  const [toDelete, setToDelete] = useState<PortfolioRow | null>(null);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>
          <FormattedMessage id="page.user-portfolios.title" />
        </Title>
        <LocalButtonLink to={paths.user.createPortfolio}>
          <FormattedMessage id="portfolios.new" />
        </LocalButtonLink>
      </Group>
      {(userId.isPending || query.isPending) && <LoadingState messageId="portfolios.loading" />}
      {query.isError && <LoadError messageId="portfolios.loadFailed" onRetry={() => void query.refetch()} />}
      {query.data?.rows.length === 0 && (
        <Text c="dimmed" data-testid="portfolios-empty">
          <FormattedMessage id="portfolios.empty" />
        </Text>
      )}
      {query.data && query.data.rows.length > 0 && (
        <Stack component="ul" gap="sm" p={0} style={{ listStyle: 'none' }} aria-label={intl.formatMessage({ id: 'page.user-portfolios.title' })}>
          {query.data.rows.map((row) => (
            <Card component="li" key={row.id} withBorder data-testid="my-portfolio">
              <Group justify="space-between">
                <Stack gap={2}>
                  <Group gap="xs">
                    <Text fw={600}>{row.title}</Text>
                    <Badge variant="dot" color={row.status === 'published' ? 'green' : 'gray'}>
                      <FormattedMessage id={row.status === 'published' ? 'portfolios.status.published' : 'portfolios.status.draft'} />
                    </Badge>
                    <Badge variant="outline">
                      <FormattedMessage id={FILE_ACCESS_LABEL[row.file_access]} />
                    </Badge>
                  </Group>
                  <Text size="xs" c="dimmed">
                    <FormattedMessage id="portfolios.updatedOn" values={{ date: formatDate(row.updated_at, locale) }} />
                  </Text>
                </Stack>
                <Group gap="xs">
                  <LocalButtonLink to={paths.user.editPortfolio(row.id)} size="xs" variant="default">
                    <FormattedMessage id="portfolios.edit" />
                  </LocalButtonLink>
                  <Button size="xs" color="red" variant="light" onClick={() => setToDelete(row)}>
                    <FormattedMessage id="portfolios.delete" />
                  </Button>
                </Group>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      {query.data && <ListPagination total={query.data.total} pageSize={PORTFOLIOS_PAGE_SIZE} page={page} onChange={setPage} />}
      <ConfirmDialog
        opened={toDelete !== null}
        title={<FormattedMessage id="portfolios.deleteTitle" />}
        message={<FormattedMessage id="portfolios.deleteConfirm" values={{ title: toDelete?.title ?? '' }} />}
        confirmLabel={<FormattedMessage id="portfolios.delete" />}
        loading={remove.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() =>
          remove.mutate(toDelete!.id, {
            onSuccess: () => {
              setToDelete(null);
              notify('success', intl.formatMessage({ id: 'portfolios.deleted' }));
            },
            onError: () => notify('error', intl.formatMessage({ id: 'portfolios.saveFailed' })),
          })
        }
      />
    </Stack>
  );
}

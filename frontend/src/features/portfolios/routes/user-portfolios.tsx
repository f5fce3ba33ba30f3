import { Button, SimpleGrid, Stack } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { CardBadge, ContentCard } from '@/components/content-card';
import { EmptyState } from '@/components/empty-state';
import { ListPagination } from '@/components/list-pagination';
import { LoadError, LoadingState } from '@/components/query-state';
import { LocalButtonLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { CATEGORY_LABEL } from '@/lib/categories';
import { formatDate } from '@/lib/format';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { PORTFOLIOS_PAGE_SIZE, useMyPortfolios, usePortfolioMutations } from '../api/portfolios';
import { FILE_ACCESS_LABEL, type PortfolioRow } from '../api/portfolio-schema';

/** `/user/portfolios`: my portfolios with status, file access, edit and delete (spec §2). */
export default function UserPortfoliosRoute({ locale }: PageProps) {
  const intl = useIntl();
  const { user, status: sessionStatus } = useSession();
  const userId = user?.id;
  const [page, setPage] = useState(1);
  const query = useMyPortfolios(userId, page);
  const { remove } = usePortfolioMutations();
  const [toDelete, setToDelete] = useState<PortfolioRow | null>(null);
  return (
    <Stack>
      <PageHeader
        title={<FormattedMessage id="page.user-portfolios.title" />}
        description={<FormattedMessage id="portfolios.intro" />}
        action={
          <LocalButtonLink to={paths.user.createPortfolio}>
            <FormattedMessage id="portfolios.new" />
          </LocalButtonLink>
        }
      />
      {(sessionStatus === 'restoring' || query.isPending) && <LoadingState messageId="portfolios.loading" />}
      {query.isError && <LoadError messageId="portfolios.loadFailed" onRetry={() => void query.refetch()} />}
      {query.data?.rows.length === 0 && (
        <EmptyState
          testId="portfolios-empty"
          title={<FormattedMessage id="portfolios.emptyTitle" />}
          action={
            <LocalButtonLink to={paths.user.createPortfolio} variant="light">
              <FormattedMessage id="portfolios.emptyAction" />
            </LocalButtonLink>
          }
        >
          <FormattedMessage id="portfolios.empty" />
        </EmptyState>
      )}
      {query.data && query.data.rows.length > 0 && (
        <SimpleGrid component="ul" cols={{ base: 1, sm: 2 }} p={0} m={0} style={{ listStyle: 'none' }} aria-label={intl.formatMessage({ id: 'page.user-portfolios.title' })}>
          {query.data.rows.map((row) => (
            <li key={row.id} data-testid="my-portfolio">
              <ContentCard
                to={paths.user.editPortfolio(row.id)}
                heading="h2"
                title={row.title}
                kicker={row.category && CATEGORY_LABEL[row.category] ? <FormattedMessage id={CATEGORY_LABEL[row.category]} /> : undefined}
                meta={[row.city, intl.formatMessage({ id: 'portfolios.updatedOn' }, { date: formatDate(row.updated_at, locale) })].filter(Boolean).join(' · ')}
                summary={<FormattedMessage id="portfolios.card.files" values={{ access: intl.formatMessage({ id: FILE_ACCESS_LABEL[row.file_access] }) }} />}
                badge={
                  <CardBadge tone={row.status === 'published' ? 'teal' : 'gray'}>
                    <FormattedMessage id={row.status === 'published' ? 'portfolios.status.published' : 'portfolios.status.draft'} />
                  </CardBadge>
                }
                action={<FormattedMessage id="portfolios.edit" />}
                extra={
                  <Button size="xs" variant="outline" color="var(--tw-red)" onClick={() => setToDelete(row)}>
                    <FormattedMessage id="portfolios.delete" />
                  </Button>
                }
              />
            </li>
          ))}
        </SimpleGrid>
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

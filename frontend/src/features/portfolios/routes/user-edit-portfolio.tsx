import { Alert, Badge, Button, Center, Divider, Group, Loader, Stack, Title } from '@mantine/core';
import { useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSession } from '@/lib/session';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { usePortfolio, usePortfolioMutations } from '../api/portfolios';
import { toPortfolioColumns, toPortfolioValues } from '../api/portfolio-schema';
import { PortfolioFilesPanel } from '../components/portfolio-files-panel';
import { PortfolioForm } from '../components/portfolio-form';

/** `/user/edit-portfolio/{id}`: edit fields, publish/unpublish, manage supporting files (owner only). */
export default function UserEditPortfolioRoute({ params }: PageProps) {
  const intl = useIntl();
  const id = /^\d+$/.test(params.id ?? '') ? Number(params.id) : 0;
  const { user, status: sessionStatus } = useSession();
  const userId = user?.id;
  const query = usePortfolio(id);
  const { update } = usePortfolioMutations();
  const initial = useMemo(() => (query.data ? toPortfolioValues(query.data) : undefined), [query.data]);

  if (id > 0 && (query.isPending || sessionStatus === 'restoring')) {
    return (
      <Center py="xl">
        <Loader aria-label={intl.formatMessage({ id: 'portfolios.loading' })} />
      </Center>
    );
  }
  const row = query.data;
  if (!row || row.owner_id !== userId) {
    return (
      <Alert color="red" role="alert" data-testid="portfolio-not-found">
        <FormattedMessage id="portfolios.notFound" />
      </Alert>
    );
  }
  const fail = () => notify('error', intl.formatMessage({ id: 'portfolios.saveFailed' }));
  const published = row.status === 'published';
  return (
    <Stack maw={720}>
      <Group justify="space-between">
        <Title order={1}>
          <FormattedMessage id="page.user-edit-portfolio.title" />
        </Title>
        <Group gap="xs">
          <Badge variant="dot" color={published ? 'green' : 'gray'} data-testid="portfolio-status">
            <FormattedMessage id={published ? 'portfolios.status.published' : 'portfolios.status.draft'} />
          </Badge>
          <Button
            size="xs"
            variant="default"
            loading={update.isPending && update.variables?.patch.status !== undefined}
            onClick={() =>
              update.mutate(
                { id, patch: { status: published ? 'draft' : 'published' } },
                { onSuccess: () => notify('success', intl.formatMessage({ id: published ? 'portfolios.unpublished' : 'portfolios.published' })), onError: fail },
              )
            }
          >
            <FormattedMessage id={published ? 'portfolios.unpublish' : 'portfolios.publish'} />
          </Button>
        </Group>
      </Group>
      <PortfolioForm
        initial={initial}
        busy={update.isPending && update.variables?.patch.status === undefined}
        submitId="portfolios.save"
        onSubmit={(values) => update.mutate({ id, patch: toPortfolioColumns(values) }, { onSuccess: () => notify('success', intl.formatMessage({ id: 'portfolios.saved' })), onError: fail })}
      />
      <Divider />
      <PortfolioFilesPanel portfolioId={id} ownerId={row.owner_id} access={row.file_access} canEdit />
    </Stack>
  );
}

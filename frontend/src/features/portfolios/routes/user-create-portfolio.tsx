import { Stack } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { useLocalizedPath } from '@/components/use-locale';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { isPaymentRequired } from '@/lib/api-error';
import { notify } from '@/lib/notify';
import { usePortfolioMutations } from '../api/portfolios';
import { PortfolioForm } from '../components/portfolio-form';
import { PageHeader } from '@/components/page-header';

/** `/user/create-portfolio`: new draft portfolio; files are added on the edit page it leads to. */
export default function UserCreatePortfolioRoute() {
  const intl = useIntl();
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  const userId = useSession().user?.id;
  const { create } = usePortfolioMutations();
  return (
    <Stack maw={720}>
      <PageHeader title={<FormattedMessage id="page.user-create-portfolio.title" />} description={<FormattedMessage id="portfolios.createHint" />} />
      <PortfolioForm
        busy={create.isPending}
        submitId="portfolios.create"
        onSubmit={(values) =>
          userId &&
          create.mutate(
            { ownerId: userId, values },
            {
              onSuccess: (row) => {
                notify('success', intl.formatMessage({ id: 'portfolios.created' }));
                navigate(localize(paths.user.editPortfolio(row.id)));
              },
              onError: (e) => notify('error', intl.formatMessage({ id: isPaymentRequired(e) ? 'subscriptionRequired.error' : 'portfolios.saveFailed' })),
            },
          )
        }
      />
    </Stack>
  );
}

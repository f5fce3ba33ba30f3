import { Alert, Button, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { PageHeader } from '@/components/page-header';
import { PlanPreview } from '@/features/billing';
import { useOwnProfile } from '@/lib/own-profile';
import { paidAccessQuery } from '@/lib/paid-access';
import { AccountSection } from '../components/account-section';

/**
 * /user/account (and /de/user/account): every signed-in member's account page, outside the
 * payment guard that /user/settings keeps (spec §6): e-mail and password change, data export and
 * account deletion (issue 32 §5; DSGVO Art. 15, 17, 20), the same section the settings show.
 * Members without a plan also see what a plan would unlock for them.
 */
export default function UserAccountRoute() {
  const intl = useIntl();
  const profile = useOwnProfile();
  const paid = useQuery({ ...paidAccessQuery(profile.data?.id ?? ''), enabled: !!profile.data });
  return (
    <Stack>
      <PageHeader title={<FormattedMessage id="page.user-account.title" />} description={<FormattedMessage id="account.page.lead" />} />
      {profile.isPending && <Loader aria-label={intl.formatMessage({ id: 'auth.loading' })} />}
      {profile.isError && (
        <Alert color="red" role="alert">
          {profile.error.message}{' '}
          <Button variant="subtle" size="compact-sm" onClick={() => void profile.refetch()}>
            <FormattedMessage id="common.retry" />
          </Button>
        </Alert>
      )}
      {paid.data === false && <PlanPreview />}
      {profile.data && <AccountSection email={profile.data.email} />}
    </Stack>
  );
}

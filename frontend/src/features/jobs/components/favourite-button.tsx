import { Alert, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import { useFavouriteJob } from '../api/favourite-job';
import { useSession } from '@/lib/session';

/** Favourite toggle of a job; asks to log in when logged out (issue 8 favourites). */
export function FavouriteJobButton({ jobId }: { jobId: string }) {
  const intl = useIntl();
  const session = useSession();
  const userId = session.user?.id ?? null;
  const ready = session.status !== 'restoring';
  const { state, toggle } = useFavouriteJob(jobId, userId);
  const [askLogin, setAskLogin] = useState(false);
  const favourite = state.data === true;
  const click = () => {
    if (!userId) {
      setAskLogin(true);
      return;
    }
    toggle.mutate(!favourite, {
      onSuccess: () => notify('success', intl.formatMessage({ id: favourite ? 'jobs.favourite.removed' : 'jobs.favourite.added' })),
      onError: () => notify('error', intl.formatMessage({ id: 'jobs.favourite.error' })),
    });
  };
  return (
    <Stack gap="xs" align="flex-start">
      <Button variant={favourite ? 'filled' : 'outline'} aria-pressed={favourite} onClick={click} loading={!ready || toggle.isPending || (userId !== null && state.isPending)} data-testid="job-favourite">
        <FormattedMessage id={favourite ? 'jobs.favourite.remove' : 'jobs.favourite.add'} />
      </Button>
      {askLogin && !userId && (
        <Alert color="blue" role="alert" data-testid="job-favourite-login">
          <Stack gap="xs" align="flex-start">
            <Text>
              <FormattedMessage id="jobs.favourite.login" />
            </Text>
            <LocalButtonLink to={paths.login} size="xs">
              <FormattedMessage id="jobs.favourite.loginButton" />
            </LocalButtonLink>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

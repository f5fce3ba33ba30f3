import { Alert, Button } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalLink } from '@/components/local-link';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import { useFavouriteProject } from '../api/favourite-project';

/**
 * Toggles a project in the favourites (spec §3, §5). Logged out it asks to log in instead of
 * writing anything; while a toggle runs the button is disabled, so a double click cannot race.
 */
export function FavouriteProjectButton({ projectId }: { projectId: number }) {
  const intl = useIntl();
  const userId = useSession().user?.id;
  const { state, toggle } = useFavouriteProject(userId, projectId);
  const [askLogin, setAskLogin] = useState(false);
  const isFavourite = state.data === true;

  const onClick = () => {
    if (!userId) {
      setAskLogin(true);
      return;
    }
    if (toggle.isPending) return;
    toggle.mutate(!isFavourite, {
      onSuccess: (now) => notify('success', intl.formatMessage({ id: now ? 'projects.favourite.added' : 'projects.favourite.removed' })),
      onError: () => notify('error', intl.formatMessage({ id: 'projects.favourite.failed' })),
    });
  };

  return (
    <>
      <Button
        variant={isFavourite ? 'filled' : 'outline'}
        onClick={onClick}
        loading={toggle.isPending || (!!userId && state.isPending)}
        aria-pressed={isFavourite}
        data-testid="favourite-project"
      >
        <FormattedMessage id={isFavourite ? 'projects.favourite.remove' : 'projects.favourite.add'} />
      </Button>
      {askLogin && (
        <Alert color="blue" role="alert" data-testid="favourite-login">
          <FormattedMessage
            id="projects.favourite.loginRequired"
            values={{ link: (chunks) => <LocalLink to={paths.login}>{chunks}</LocalLink> }}
          />
        </Alert>
      )}
    </>
  );
}

import { Group, Stack } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { SignOutButton } from '@/features/auth';

/** /admin: administration start page (spec §2). */
export default function AdminHomeRoute() {
  return (
    <Stack>
      <PageHeader
        title={<FormattedMessage id="page.admin.title" values={{ product: 'Teamwerk' }} />}
        description={<FormattedMessage id="admin.home.intro" />}
        action={<SignOutButton />}
      />
      <Group>
        <LocalButtonLink to={paths.admin.users}>
          <FormattedMessage id="page.admin-users.title" />
        </LocalButtonLink>
      </Group>
    </Stack>
  );
}

import { Group, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { SignOutButton } from '@/features/auth/components/sign-out-button';

/** /admin: administration start page (spec §2). */
export default function AdminHomeRoute() {
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>
          <FormattedMessage id="page.admin.title" values={{ product: 'Teamwerk' }} />
        </Title>
        <SignOutButton />
      </Group>
      <Text>
        <FormattedMessage id="admin.home.intro" />
      </Text>
      <Group>
        <LocalButtonLink to={paths.admin.users}>
          <FormattedMessage id="page.admin-users.title" />
        </LocalButtonLink>
      </Group>
    </Stack>
  );
}

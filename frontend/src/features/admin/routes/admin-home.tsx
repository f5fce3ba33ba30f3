import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { SignOutButton } from '@/features/auth';

/** Every admin page with its title and what it is for (issue 33 §9: /admin links to all of them). */
const ADMIN_PAGES = [
  { to: paths.admin.users, title: 'page.admin-users.title', text: 'admin.home.usersText', testId: 'admin-link-users' },
  { to: paths.admin.messages, title: 'page.admin-messages.title', text: 'admin.home.messagesText', testId: 'admin-link-messages' },
  { to: paths.admin.feedback, title: 'page.admin-feedback.title', text: 'admin.home.feedbackText', testId: 'admin-link-feedback' },
] as const;

/** /admin: administration start page with a card per admin page (spec §2; issue 33 §9). */
export default function AdminHomeRoute() {
  return (
    <Stack>
      <PageHeader
        title={<FormattedMessage id="page.admin.title" values={{ product: 'Teamwerk' }} />}
        description={<FormattedMessage id="admin.home.intro" />}
        action={<SignOutButton />}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {ADMIN_PAGES.map((p) => (
          <Card key={p.to} component="li" withBorder padding="lg">
            <Stack gap="sm" h="100%" justify="space-between">
              <Stack gap={4}>
                <Title order={2} fz="h4">
                  <FormattedMessage id={p.title} />
                </Title>
                <Text fz="sm" c="var(--tw-muted)">
                  <FormattedMessage id={p.text} />
                </Text>
              </Stack>
              <LocalButtonLink to={p.to} data-testid={p.testId} variant="light">
                <FormattedMessage id={p.title} />
              </LocalButtonLink>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

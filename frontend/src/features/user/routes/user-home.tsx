import { Alert, Avatar, Button, Card, Group, Loader, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { SignOutButton } from '@/features/auth/components/sign-out-button';
import { avatarUrl, useOwnProfile } from '../api/own-profile';
import { profileCompleteness } from '../components/profile-completeness';

const PLAN_IDS: Record<string, string> = {
  old_user: 'account.plan.free',
  free: 'account.plan.free',
  basic: 'account.plan.basic',
  premium: 'account.plan.premium',
  enterprise: 'account.plan.enterprise',
  admin: 'account.plan.admin',
};

const QUICK_LINKS = [
  { to: paths.user.projects, id: 'userNav.projects' },
  { to: paths.user.portfolios, id: 'userNav.portfolios' },
  { to: paths.user.events, id: 'userNav.events' },
  { to: paths.user.contacts, id: 'userNav.contacts' },
  { to: paths.user.chat, id: 'userNav.chat' },
  { to: paths.user.settings, id: 'userNav.settings' },
] as const;

/** /user: personal start page: greeting, plan, quick links, profile completeness (issue 6). */
export default function UserHomeRoute() {
  const intl = useIntl();
  const profile = useOwnProfile();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>
          <FormattedMessage id="page.user-home.title" />
        </Title>
        <SignOutButton />
      </Group>
      {profile.isPending && <Loader aria-label={intl.formatMessage({ id: 'auth.loading' })} />}
      {profile.isError && (
        <Alert color="red" role="alert">
          {profile.error.message}{' '}
          <Button variant="subtle" size="compact-sm" onClick={() => void profile.refetch()}>
            <FormattedMessage id="common.retry" />
          </Button>
        </Alert>
      )}
      {profile.data && (
        <>
          <Group>
            <Avatar variant="filled" src={avatarUrl(profile.data.profile_img)} alt="" size="lg" radius="xl" />
            <div>
              <Text fz="xl" fw={600} data-testid="greeting">
                <FormattedMessage id="account.home.greeting" values={{ name: profile.data.display_name ?? profile.data.firstname }} />
              </Text>
              <Text c="gray.7">
                <FormattedMessage
                  id="account.home.plan"
                  values={{ plan: intl.formatMessage({ id: PLAN_IDS[profile.data.user_role] ?? 'account.plan.free' }) }}
                />{' '}
                <LocalLink to={paths.prices}>
                  <FormattedMessage id="account.home.changePlan" />
                </LocalLink>
              </Text>
            </div>
          </Group>
          <Card withBorder>
            <Stack gap="xs">
              <Text fw={600}>
                <FormattedMessage id="account.home.completeness" values={{ percent: profileCompleteness(profile.data) }} />
              </Text>
              <Progress value={profileCompleteness(profile.data)} aria-label={intl.formatMessage({ id: 'account.home.completenessLabel' })} />
              <Group>
                <LocalButtonLink to={paths.user.settings} size="xs" variant="outline">
                  <FormattedMessage id="account.home.editProfile" />
                </LocalButtonLink>
                <LocalLink to={paths.profile(profile.data.slug)}>
                  <FormattedMessage id="account.home.viewProfile" />
                </LocalLink>
              </Group>
            </Stack>
          </Card>
          <SimpleGrid cols={{ base: 2, sm: 3 }}>
            {QUICK_LINKS.map((link) => (
              <LocalButtonLink key={link.to} to={link.to} variant="default">
                <FormattedMessage id={link.id} />
              </LocalButtonLink>
            ))}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}

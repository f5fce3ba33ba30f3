import { Alert, Avatar, Button, Card, Group, List, Loader, Progress, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { SignOutButton } from '@/features/auth';
import type { PageProps } from '@/lib/route-def';
import { useOwnProfile } from '@/lib/own-profile';
import { publicAvatarUrl } from '@/lib/public-api';
import { HomeDashboard } from '@/features/matching';
import { useMyPlan } from '@/features/billing';
import { missingProfileSteps, profileCompleteness } from '../components/profile-completeness';
import { PageHeader } from '@/components/page-header';

const PLAN_IDS: Record<string, string> = {
  old_user: 'account.plan.free',
  free: 'account.plan.free',
  basic: 'account.plan.basic',
  premium: 'account.plan.premium',
  enterprise: 'account.plan.enterprise',
  admin: 'account.plan.admin',
};

const PAID = new Set(['basic', 'premium', 'enterprise', 'admin']);

/**
 * /user, the signed-in home (issue 6, issue 18): greeting and plan, what to do next (the most
 * useful missing profile fields, a plan for free users), contact requests waiting, unread
 * messages and upcoming events (HomeDashboard), profile completeness.
 */
export default function UserHomeRoute({ locale }: PageProps) {
  const intl = useIntl();
  const profile = useOwnProfile();
  // the plan shown is the database's effective plan (rpc my_plan, issue 32 §2); admins keep their label
  const myPlan = useMyPlan();
  const planId = profile.data?.user_role === 'admin' ? 'admin' : (myPlan.data?.plan ?? profile.data?.user_role ?? 'free');
  return (
    <Stack>
      <PageHeader title={<FormattedMessage id="page.user-home.title" />} action={<SignOutButton />} />
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
            <Avatar variant="filled" src={publicAvatarUrl(profile.data.profile_img)} alt="" size="lg" radius="xl" />
            <div>
              <Text fz="xl" fw={600} data-testid="greeting">
                <FormattedMessage id="account.home.greeting" values={{ name: profile.data.display_name ?? profile.data.firstname }} />
              </Text>
              <Text c="var(--tw-muted)" data-testid="home-plan" data-plan={planId}>
                <FormattedMessage id="account.home.plan" values={{ plan: intl.formatMessage({ id: PLAN_IDS[planId] ?? 'account.plan.free' }) }} />{' '}
                <LocalLink to={paths.prices}>
                  <FormattedMessage id="account.home.changePlan" />
                </LocalLink>
              </Text>
            </div>
          </Group>
          {(missingProfileSteps(profile.data).length > 0 || !PAID.has(profile.data.user_role)) && (
            <Card withBorder shadow="xs" padding="lg" data-testid="home-next">
              <Title order={2} fz="h4" mb="xs">
                <FormattedMessage id="home.next.title" />
              </Title>
              <List spacing={6}>
                {!PAID.has(profile.data.user_role) && (
                  <List.Item>
                    <LocalLink to={paths.prices}>
                      <FormattedMessage id="home.next.plan" />
                    </LocalLink>
                  </List.Item>
                )}
                {missingProfileSteps(profile.data)
                  .slice(0, 3)
                  .map((id) => (
                    <List.Item key={id}>
                      <LocalLink to={paths.user.settings}>
                        <FormattedMessage id={id} />
                      </LocalLink>
                    </List.Item>
                  ))}
              </List>
            </Card>
          )}
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
          <HomeDashboard userId={profile.data.id} paid={PAID.has(profile.data.user_role)} locale={locale} />
        </>
      )}
    </Stack>
  );
}

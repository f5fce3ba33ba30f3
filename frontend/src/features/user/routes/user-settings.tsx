import { Alert, Button, Loader, Stack } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useOwnProfile } from '@/lib/own-profile';
import { AccountSection } from '../components/account-section';
import { AvatarUpload } from '../components/avatar-upload';
import { BlockedUsers } from '../components/blocked-users';
import { BusinessMapLocation } from '../components/business-map-location';
import { PremiumProfileSettings } from '../components/premium-profile-settings';
import { PrivacyNotificationSettings } from '../components/privacy-notification-settings';
import { ProfileForm } from '../components/profile-form';
import { MatchProfileEditor, SavedMatchProfiles } from '@/features/matching';
import { SubscriptionPanel } from '@/features/billing';
import { PageHeader } from '@/components/page-header';

/** /user/settings: profile fields, matching profile (issue 19), avatar, address, social links, language, visibility, subscription, notifications, blocked users (issue 8), and the account section /user/account shows too: e-mail, password, export, deletion (issues 6, 32 §5). */
export default function UserSettingsRoute() {
  const intl = useIntl();
  const profile = useOwnProfile();
  return (
    <Stack>
      <PageHeader title={<FormattedMessage id="page.user-settings.title" />} />
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
          <AvatarUpload path={profile.data.profile_img} />
          <ProfileForm key={profile.data.updated_at} profile={profile.data} />
          {profile.data.type === 'business' && <BusinessMapLocation />}
          <MatchProfileEditor plan={profile.data.user_role} />
          {(profile.data.user_role === 'enterprise' || profile.data.user_role === 'admin') && <SavedMatchProfiles />}
          <PremiumProfileSettings key={`premium-${profile.data.updated_at}`} profile={profile.data} />
          <SubscriptionPanel />
          <PrivacyNotificationSettings />
          <BlockedUsers />
          <AccountSection email={profile.data.email} />
        </>
      )}
    </Stack>
  );
}

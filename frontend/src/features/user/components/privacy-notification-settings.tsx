import { Card, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { LoadError } from '@/components/query-state';
import { notify } from '@/lib/notify';
import { saveUserSettings, USER_SETTINGS_KEY, type UserSettings, userSettingsQuery } from '../api/user-settings';

const SWITCHES: { key: keyof UserSettings; label: string; hint: string }[] = [
  { key: 'show_online_status', label: 'settings.onlineStatus', hint: 'settings.onlineStatus.hint' },
  { key: 'email_contact_requests', label: 'settings.emailContactRequests', hint: 'settings.emailContactRequests.hint' },
  { key: 'email_messages', label: 'settings.emailMessages', hint: 'settings.emailMessages.hint' },
  { key: 'email_event_updates', label: 'settings.emailEventUpdates', hint: 'settings.emailEventUpdates.hint' },
  { key: 'email_match_digest', label: 'settings.emailMatchDigest', hint: 'settings.emailMatchDigest.hint' },
];

/**
 * /user/settings section "Privacy and notifications" (issue 13): "Show my online status" and the
 * e-mail switches for contact requests and messages; each switch saves at once. Anchor
 * `#notifications` (the e-mails' unsubscribe link points here).
 */
export function PrivacyNotificationSettings() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const settings = useQuery(userSettingsQuery());
  const save = useMutation({
    mutationFn: (changes: Partial<UserSettings>) => saveUserSettings(changes),
    onSuccess: (saved) => {
      queryClient.setQueryData(USER_SETTINGS_KEY, saved);
      notify('success', intl.formatMessage({ id: 'settings.saved' }));
    },
    onError: () => notify('error', intl.formatMessage({ id: 'settings.saveFailed' })),
  });
  return (
    <Card withBorder id="notifications" component="section" aria-labelledby="privacy-notifications-title">
      <Stack gap="sm">
        <Title order={2} fz="h4" id="privacy-notifications-title">
          <FormattedMessage id="settings.privacyNotifications" />
        </Title>
        {settings.isError && <LoadError messageId="settings.loadFailed" onRetry={() => void settings.refetch()} />}
        {SWITCHES.map((s) => (
          <Switch
            key={s.key}
            label={<FormattedMessage id={s.label} />}
            description={<Text size="xs" c="var(--tw-muted)" component="span">{intl.formatMessage({ id: s.hint })}</Text>}
            checked={(save.isPending && save.variables?.[s.key] !== undefined ? save.variables[s.key] : settings.data?.[s.key]) ?? true}
            disabled={!settings.data || save.isPending}
            onChange={(e) => save.mutate({ [s.key]: e.currentTarget.checked })}
            data-testid={`setting-${s.key}`}
          />
        ))}
      </Stack>
    </Card>
  );
}

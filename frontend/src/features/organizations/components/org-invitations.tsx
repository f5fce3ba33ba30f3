import { Alert, Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { EmptyState } from '@/components/empty-state';
import { type Locale } from '@site/locale';
import { formatDate } from '@/lib/format';
import { notify } from '@/lib/notify';
import type { OrganizationInvitation } from '../api/get-organizations';
import { ORGANIZATION_ROLES, type OrganizationRole, ROLE_LABEL } from '../api/organization';
import { orgErrorId } from '../api/organization-errors';
import type { OrganizationMutations } from '../api/save-organization';
import { SettingsBlock } from './settings-block';

/**
 * The invitations block of /org/{slug}/settings (issue 15): inviting by e-mail with a role (only
 * owners invite owners) and the language of the invitation mail, refused while every seat is
 * taken; below it the pending invitations with role and expiry, each revocable.
 * @param locale the page's language, the invitation language preselected
 * @param seatsFull whether members and open invitations fill the seats (then no invitation is sent)
 * @param onRevoke asks to revoke an invitation (the page confirms first)
 */
export function OrgInvitations({
  invitations,
  isOwner,
  locale,
  seatsFull,
  mutations: m,
  onRevoke,
}: {
  invitations: OrganizationInvitation[];
  isOwner: boolean;
  locale: Locale;
  seatsFull: boolean;
  mutations: OrganizationMutations;
  onRevoke: (invitation: OrganizationInvitation) => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [inviteEmail, setInviteEmail] = useState('');
  const [inviteRole, setInviteRole] = useState<OrganizationRole>('member');
  const [inviteLocale, setInviteLocale] = useState<Locale>(locale);

  const submitInvite = (event: FormEvent) => {
    event.preventDefault();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(inviteEmail.trim())) {
      notify('error', t('org.error.email'));
      return;
    }
    m.invite.mutate(
      { email: inviteEmail, role: inviteRole, locale: inviteLocale },
      {
        onSuccess: () => {
          notify('success', t('org.invite.sent', { email: inviteEmail.trim() }));
          setInviteEmail('');
        },
        onError: (error) => notify('error', t(orgErrorId(error))),
      },
    );
  };

  return (
    <SettingsBlock titleId="org.invite.title" testId="org-invitations">
      <form onSubmit={submitInvite} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('org.invite.email')}
            type="email"
            required
            autoComplete="off"
            value={inviteEmail}
            onChange={(event) => setInviteEmail(event.currentTarget.value)}
            data-testid="org-invite-email"
          />
          <Group grow wrap="wrap" align="flex-end">
            <NativeSelect
              label={t('org.invite.role')}
              value={inviteRole}
              onChange={(event) => setInviteRole(event.currentTarget.value as OrganizationRole)}
              data={ORGANIZATION_ROLES.filter((role) => role !== 'owner' || isOwner).map((role) => ({ value: role, label: t(ROLE_LABEL[role]) }))}
              data-testid="org-invite-role"
            />
            <NativeSelect
              label={t('org.invite.language')}
              value={inviteLocale}
              onChange={(event) => setInviteLocale(event.currentTarget.value as Locale)}
              data={[
                { value: 'de', label: t('org.invite.language.de') },
                { value: 'en', label: t('org.invite.language.en') },
              ]}
              data-testid="org-invite-language"
            />
          </Group>
          <Group justify="flex-end">
            <Button type="submit" loading={m.invite.isPending} disabled={seatsFull} data-testid="org-invite-submit">
              <FormattedMessage id="org.invite.submit" />
            </Button>
          </Group>
          {seatsFull && (
            <Alert color="yellow" role="status">
              <FormattedMessage id="org.error.seat_limit_reached" />
            </Alert>
          )}
        </Stack>
      </form>
      <Title order={3} fz="h4">
        <FormattedMessage id="org.invite.pending" />
      </Title>
      {invitations.length === 0 ? (
        <EmptyState compact testId="org-invitations-empty">
          <FormattedMessage id="org.invite.none" />
        </EmptyState>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {invitations.map((inv) => (
            <Paper component="li" key={inv.id} withBorder p="sm" radius="md" data-testid="org-invitation">
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {inv.email}
                  </Text>
                  <Text fz="sm" c="var(--tw-muted)">
                    <FormattedMessage id="org.invite.details" values={{ role: t(ROLE_LABEL[inv.role]), date: formatDate(inv.expires_at, locale) }} />
                  </Text>
                </Stack>
                <Button variant="subtle" color="red" onClick={() => onRevoke(inv)} aria-label={t('org.invite.revokeOf', { email: inv.email })}>
                  <FormattedMessage id="org.invite.revoke" />
                </Button>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </SettingsBlock>
  );
}

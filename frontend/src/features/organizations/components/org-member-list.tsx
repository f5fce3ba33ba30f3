import { Avatar, Badge, Button, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { type Locale } from '@site/locale';
import { formatDate } from '@/lib/format';
import { notify } from '@/lib/notify';
import { publicAvatarUrl } from '@/lib/public-api';
import type { OrganizationMember } from '../api/get-organizations';
import { ORGANIZATION_ROLES, type OrganizationRole, ROLE_LABEL } from '../api/organization';
import { orgErrorId } from '../api/organization-errors';
import type { OrganizationMutations } from '../api/save-organization';
import { SettingsBlock } from './settings-block';

/** The name a member is shown and announced by: display name, else slug, else e-mail. */
const memberName = (m: OrganizationMember) => m.display_name || m.slug || m.email || '';

/**
 * The members block of /org/{slug}/settings (issue 15): each member with avatar, profile link,
 * e-mail and joining date; owners change the roles of others (a select per member, saved at
 * once), owners remove anyone else and admins remove members. A list, not a table, so it works
 * on phones.
 * @param userId the signed-in user (who can neither change their own role nor remove themselves here)
 * @param onRemove asks to remove a member (the page confirms first)
 */
export function OrgMemberList({
  members,
  userId,
  isOwner,
  locale,
  mutations: m,
  onRemove,
}: {
  members: OrganizationMember[];
  userId: string | undefined;
  isOwner: boolean;
  locale: Locale;
  mutations: OrganizationMutations;
  onRemove: (member: OrganizationMember, name: string) => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const fail = (error: unknown) => notify('error', t(orgErrorId(error)));
  return (
    <SettingsBlock titleId="org.members.manage" testId="org-member-list">
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
        {members.map((member) => {
          const name = memberName(member);
          const self = member.user_id === userId;
          return (
            <Paper component="li" key={member.user_id} withBorder p="sm" radius="md" data-testid="org-member">
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Group wrap="nowrap" gap="sm" style={{ minWidth: 0 }}>
                  <Avatar src={publicAvatarUrl(member.profile_img)} alt="" radius="xl" />
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    {member.slug ? (
                      <LocalLink to={paths.profile(member.slug)} fw={600}>
                        {name}
                      </LocalLink>
                    ) : (
                      <Text fw={600}>{name}</Text>
                    )}
                    {member.email && (
                      <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
                        {member.email}
                      </Text>
                    )}
                    <Text fz="sm" c="var(--tw-muted)">
                      <FormattedMessage id="org.members.joined" values={{ date: formatDate(member.joined_at, locale) }} />
                    </Text>
                  </Stack>
                </Group>
                <Group gap="xs" wrap="wrap">
                  {isOwner && !self ? (
                    <NativeSelect
                      aria-label={t('org.members.roleOf', { name })}
                      value={member.role}
                      data={ORGANIZATION_ROLES.map((role) => ({ value: role, label: t(ROLE_LABEL[role]) }))}
                      disabled={m.setRole.isPending}
                      onChange={(event) =>
                        m.setRole.mutate(
                          { userId: member.user_id, role: event.currentTarget.value as OrganizationRole },
                          { onSuccess: () => notify('success', t('org.members.roleSaved', { name })), onError: fail },
                        )
                      }
                      data-testid="org-member-role"
                    />
                  ) : (
                    <Badge variant="light" data-testid="org-member-role-badge">
                      <FormattedMessage id={ROLE_LABEL[member.role]} />
                    </Badge>
                  )}
                  {!self && (isOwner || member.role === 'member') && (
                    <Button variant="subtle" color="red" onClick={() => onRemove(member, name)} aria-label={t('org.members.removeOf', { name })}>
                      <FormattedMessage id="org.members.remove" />
                    </Button>
                  )}
                </Group>
              </Group>
            </Paper>
          );
        })}
      </Stack>
    </SettingsBlock>
  );
}

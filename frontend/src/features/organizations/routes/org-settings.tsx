import { Alert, Avatar, Badge, Button, Container, FileButton, Group, NativeSelect, Paper, Progress, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyState } from '@/components/empty-state';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import { useLocalizedPath } from '@/components/use-locale';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { type Locale } from '@site/locale';
import { formatDate } from '@/lib/format';
import { notify } from '@/lib/notify';
import { publicAvatarUrl } from '@/lib/public-api';
import type { PageProps } from '@/lib/route-def';
import { myOrganizationsQuery, organizationAdminQuery, type OrganizationMember } from '../api/get-organizations';
import { ORGANIZATION_ROLES, organizationLogoUrl, type OrganizationRole, ROLE_LABEL, toOrganizationForm } from '../api/organization';
import { orgErrorId } from '../api/organization-errors';
import { useOrganizationMutations } from '../api/save-organization';
import { OrganizationForm } from '../components/organization-form';
import { SeatPurchase } from '../components/seat-purchase';

/** A titled block of the settings page. */
function Block({ titleId, testId, children }: { titleId: string; testId: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" data-testid={testId}>
      <Stack>
        <Title order={2} fz="h3">
          <FormattedMessage id={titleId} />
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** What a confirmation dialog is open for. */
type Pending = { kind: 'remove'; member: OrganizationMember; name: string } | { kind: 'revoke'; id: string; email: string } | { kind: 'delete' } | null;

const memberName = (m: OrganizationMember) => m.display_name || m.slug || m.email || '';

/**
 * `/org/{slug}/settings`: organisation management for owners and admins (issue 15): the public
 * fields and logo, the members with their roles (owners change roles; owners and admins remove,
 * after a confirmation), invitations by e-mail with role and language (pending list, revoke),
 * seats used / available with buying extra seats (the paying owner, SeatPurchase), and deleting
 * the organisation (owners, confirmed). Lists, not tables, so
 * it works on phones; every control is a button or input reachable by keyboard. Members without
 * rights see a notice; RLS decides what they could read or change anyway.
 */
export default function OrganizationSettingsRoute({ params, locale }: PageProps) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  const slug = params.slug ?? '';
  const { user, status: sessionStatus } = useSession();
  const userId = user?.id;
  const mine = useQuery({ ...myOrganizationsQuery(userId ?? ''), enabled: !!userId });
  const membership = mine.data?.find((o) => o.slug === slug);
  const orgId = membership?.id ?? '';
  const isAdmin = membership?.role === 'owner' || membership?.role === 'admin';
  const isOwner = membership?.role === 'owner';
  const admin = useQuery({ ...organizationAdminQuery(orgId), enabled: !!orgId && isAdmin });
  const m = useOrganizationMutations(orgId);
  const [pending, setPending] = useState<Pending>(null);
  const [inviteEmail, setInviteEmail] = useState('');
  const [inviteRole, setInviteRole] = useState<OrganizationRole>('member');
  const [inviteLocale, setInviteLocale] = useState<Locale>(locale);

  const header = (
    <PageHeader
      title={<FormattedMessage id="page.org-settings.title" />}
      description={membership?.name}
      action={
        membership ? (
          <LocalButtonLink to={paths.org.page(slug)} variant="light">
            <FormattedMessage id="org.settings.viewPage" />
          </LocalButtonLink>
        ) : undefined
      }
    />
  );
  const frame = (body: ReactNode) => (
    <Container size="md" py="xl">
      <Stack gap="lg">
        {header}
        {body}
      </Stack>
    </Container>
  );

  if (sessionStatus === 'restoring' || mine.isPending) return frame(<LoadingState messageId="org.loading" />);
  if (mine.isError) return frame(<LoadError messageId="org.loadFailed" onRetry={() => void mine.refetch()} />);
  if (!membership || !isAdmin) {
    return frame(
      <Alert color="yellow" role="status" data-testid="org-settings-denied">
        <FormattedMessage id="org.settings.denied" />
      </Alert>,
    );
  }
  if (admin.isPending) return frame(<LoadingState messageId="org.loading" />);
  if (admin.isError) return frame(<LoadError messageId="org.loadFailed" onRetry={() => void admin.refetch()} />);
  const { organization, members, invitations } = admin.data;
  // seats hold members and open invitations (issue 15: an invitation beyond the seats is refused)
  const seatsUsed = membership.members + membership.open_invitations;
  const seats = membership.seats;

  const fail = (error: unknown) => notify('error', t(orgErrorId(error)));
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
        onError: fail,
      },
    );
  };
  const confirm = () => {
    if (!pending) return;
    const done = () => setPending(null);
    if (pending.kind === 'remove') {
      m.remove.mutate(pending.member.user_id, { onSuccess: () => (notify('success', t('org.members.removed', { name: pending.name })), done()), onError: (e) => (fail(e), done()) });
    } else if (pending.kind === 'revoke') {
      m.revoke.mutate(pending.id, { onSuccess: () => (notify('success', t('org.invite.revoked')), done()), onError: (e) => (fail(e), done()) });
    } else {
      m.remove_organization.mutate(undefined, {
        onSuccess: () => {
          done();
          notify('success', t('org.delete.done'));
          void navigate(localize(paths.user.organizations));
        },
        onError: (e) => (fail(e), done()),
      });
    }
  };

  return frame(
    <>
      <Block titleId="org.settings.profile" testId="org-settings-profile">
        <Group>
          <Avatar src={organizationLogoUrl(organization.logo_path)} alt="" size={64} radius="md" color="brand">
            {organization.name.slice(0, 2).toUpperCase()}
          </Avatar>
          <FileButton
            accept="image/png,image/jpeg,image/webp"
            onChange={(file) => {
              if (!file) return;
              if (file.size > 2 * 1024 * 1024) {
                notify('error', t('org.logo.tooLarge'));
                return;
              }
              m.uploadLogo.mutate(file, { onSuccess: () => notify('success', t('org.logo.saved')), onError: fail });
            }}
          >
            {(props) => (
              <Button variant="default" loading={m.uploadLogo.isPending} {...props}>
                <FormattedMessage id="org.logo.upload" />
              </Button>
            )}
          </FileButton>
        </Group>
        <OrganizationForm
          key={organization.updated_at}
          initial={toOrganizationForm(organization)}
          withSlug={false}
          pending={m.update.isPending}
          submitLabel={<FormattedMessage id="org.settings.save" />}
          onSubmit={(v) => m.update.mutate(v, { onSuccess: () => notify('success', t('org.settings.saved')), onError: fail })}
        />
      </Block>

      <Block titleId="org.seats.title" testId="org-seats">
        <Text data-testid="org-seats-text">
          <FormattedMessage id="org.seats.used" values={{ used: seatsUsed, limit: seats }} />
        </Text>
        <Text fz="sm" c="var(--tw-muted)">
          <FormattedMessage id="org.seats.detail" values={{ count: membership.members, n: membership.open_invitations }} />
        </Text>
        <Progress value={seats > 0 ? Math.min(100, (seatsUsed / seats) * 100) : 100} aria-label={t('org.seats.title')} />
        {isOwner && <SeatPurchase organizationId={orgId} locale={locale} />}
      </Block>

      <Block titleId="org.members.manage" testId="org-member-list">
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
                      <Button variant="subtle" color="red" onClick={() => setPending({ kind: 'remove', member, name })} aria-label={t('org.members.removeOf', { name })}>
                        <FormattedMessage id="org.members.remove" />
                      </Button>
                    )}
                  </Group>
                </Group>
              </Paper>
            );
          })}
        </Stack>
      </Block>

      <Block titleId="org.invite.title" testId="org-invitations">
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
              <Button type="submit" loading={m.invite.isPending} disabled={seatsUsed >= seats} data-testid="org-invite-submit">
                <FormattedMessage id="org.invite.submit" />
              </Button>
            </Group>
            {seatsUsed >= seats && (
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
                      <FormattedMessage
                        id="org.invite.details"
                        values={{ role: t(ROLE_LABEL[inv.role]), date: formatDate(inv.expires_at, locale) }}
                      />
                    </Text>
                  </Stack>
                  <Button variant="subtle" color="red" onClick={() => setPending({ kind: 'revoke', id: inv.id, email: inv.email })} aria-label={t('org.invite.revokeOf', { email: inv.email })}>
                    <FormattedMessage id="org.invite.revoke" />
                  </Button>
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
      </Block>

      {isOwner && (
        <Block titleId="org.delete.title" testId="org-delete">
          <Text>
            <FormattedMessage id="org.delete.text" />
          </Text>
          <Group>
            <Button color="red" variant="outline" onClick={() => setPending({ kind: 'delete' })} data-testid="org-delete-button">
              <FormattedMessage id="org.delete.button" />
            </Button>
          </Group>
        </Block>
      )}

      <ConfirmDialog
        opened={pending !== null}
        onClose={() => setPending(null)}
        loading={m.remove.isPending || m.revoke.isPending || m.remove_organization.isPending}
        onConfirm={confirm}
        title={
          pending?.kind === 'remove'
            ? t('org.members.removeTitle')
            : pending?.kind === 'revoke'
              ? t('org.invite.revokeTitle')
              : t('org.delete.title')
        }
        message={
          pending?.kind === 'remove'
            ? t('org.members.removeText', { name: pending.name })
            : pending?.kind === 'revoke'
              ? t('org.invite.revokeText', { email: pending.email })
              : t('org.delete.confirmText', { name: organization.name })
        }
        confirmLabel={
          pending?.kind === 'remove' ? t('org.members.remove') : pending?.kind === 'revoke' ? t('org.invite.revoke') : t('org.delete.button')
        }
      />
    </>,
  );
}

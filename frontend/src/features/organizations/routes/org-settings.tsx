import { Alert, Button, Container, Group, Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LocalButtonLink } from '@/components/local-link';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import { useLocalizedPath } from '@/components/use-locale';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { myOrganizationsQuery, organizationAdminQuery, type OrganizationMember } from '../api/get-organizations';
import { orgErrorId } from '../api/organization-errors';
import { useOrganizationMutations } from '../api/save-organization';
import { OrgInvitations } from '../components/org-invitations';
import { OrgMemberList } from '../components/org-member-list';
import { OrgProfileSettings } from '../components/org-profile-settings';
import { SeatPurchase } from '../components/seat-purchase';
import { SettingsBlock } from '../components/settings-block';

/** What a confirmation dialog is open for. */
type Pending = { kind: 'remove'; member: OrganizationMember; name: string } | { kind: 'revoke'; id: string; email: string } | { kind: 'delete' } | null;

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
      <OrgProfileSettings organization={organization} mutations={m} />

      <SettingsBlock titleId="org.seats.title" testId="org-seats">
        <Text data-testid="org-seats-text">
          <FormattedMessage id="org.seats.used" values={{ used: seatsUsed, limit: seats }} />
        </Text>
        <Text fz="sm" c="var(--tw-muted)">
          <FormattedMessage id="org.seats.detail" values={{ count: membership.members, n: membership.open_invitations }} />
        </Text>
        <Progress value={seats > 0 ? Math.min(100, (seatsUsed / seats) * 100) : 100} aria-label={t('org.seats.title')} />
        {isOwner && <SeatPurchase organizationId={orgId} locale={locale} />}
      </SettingsBlock>

      <OrgMemberList
        members={members}
        userId={userId}
        isOwner={isOwner}
        locale={locale}
        mutations={m}
        onRemove={(member, name) => setPending({ kind: 'remove', member, name })}
      />

      <OrgInvitations
        invitations={invitations}
        isOwner={isOwner}
        locale={locale}
        seatsFull={seatsUsed >= seats}
        mutations={m}
        onRevoke={(inv) => setPending({ kind: 'revoke', id: inv.id, email: inv.email })}
      />

      {isOwner && (
        <SettingsBlock titleId="org.delete.title" testId="org-delete">
          <Text>
            <FormattedMessage id="org.delete.text" />
          </Text>
          <Group>
            <Button color="red" variant="outline" onClick={() => setPending({ kind: 'delete' })} data-testid="org-delete-button">
              <FormattedMessage id="org.delete.button" />
            </Button>
          </Group>
        </SettingsBlock>
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

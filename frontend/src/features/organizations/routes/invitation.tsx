import { Alert, Avatar, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocation, useNavigate } from 'react-router';
import { LocalButtonLink } from '@/components/local-link';
import { LoadError, LoadingState } from '@/components/query-state';
import { useLocalizedPath } from '@/components/use-locale';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import type { PageProps } from '@/lib/route-def';
import { forgetReturnPath, rememberReturnPath } from '@/lib/return-path';
import { invitationQuery } from '../api/get-organizations';
import { organizationLogoUrl, ROLE_LABEL } from '../api/organization';
import { orgErrorId } from '../api/organization-errors';
import { acceptInvitation, declineInvitation } from '../api/save-organization';
import { EndOwnPlanDialog, OwnPlanNotice, useMyPlan } from '@/features/billing';

/** Message ids of the states an invitation can no longer be answered in. */
const CLOSED_STATE: Readonly<Record<string, string>> = {
  expired: 'org.invitation.expired',
  accepted: 'org.invitation.used',
  declined: 'org.invitation.used',
  revoked: 'org.invitation.revoked',
};

/**
 * `/invitations/{token}` (and `/de/...`): the invitation link of the e-mail (issue 15). Shows the
 * organisation and the offered role. Signed in: Accept (takes a seat; the database refuses when
 * none is left or the link expired) or Decline. Logged out: links to log in or register; the page
 * remembers itself, so the login comes back here (lib/return-path.ts).
 */
export default function InvitationRoute({ params }: PageProps) {
  const intl = useIntl();
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const token = params.token ?? '';
  const { user, status: sessionStatus } = useSession();
  const userId = user?.id;
  const invitation = useQuery({ ...invitationQuery(token, userId ?? null), enabled: sessionStatus !== 'restoring' });
  // arrived signed in (back from login or registration): the remembered return path is used up
  useEffect(() => {
    if (userId) forgetReturnPath();
  }, [userId]);
  // issue 32 §2: joining says what happens to an own plan and then offers to end it
  const myPlan = useMyPlan();
  const [offerEnd, setOfferEnd] = useState(false);
  const goToOrganization = () => {
    if (invitation.data) void navigate(localize(paths.org.page(invitation.data.slug)));
  };
  const accept = useMutation({
    mutationFn: () => acceptInvitation(token),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['organizations'] });
      notify('success', intl.formatMessage({ id: 'org.invitation.accepted' }));
      const plan = (await myPlan.refetch()).data;
      if (plan?.own_plan_redundant) setOfferEnd(true);
      else goToOrganization();
    },
  });
  const decline = useMutation({
    mutationFn: () => declineInvitation(token),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['organizations', 'invitation', token] });
      notify('info', intl.formatMessage({ id: 'org.invitation.declined' }));
    },
  });

  let body;
  if (invitation.isPending || sessionStatus === 'restoring') body = <LoadingState messageId="org.loading" />;
  else if (invitation.isError) body = <LoadError messageId={orgErrorId(invitation.error)} onRetry={() => void invitation.refetch()} />;
  else if (!invitation.data) {
    body = (
      <Alert color="gray" data-testid="invitation-unknown">
        <FormattedMessage id="org.invitation.unknown" />
      </Alert>
    );
  } else {
    const inv = invitation.data;
    const closed = inv.already_member ? 'org.invitation.alreadyMember' : inv.state !== 'open' ? (CLOSED_STATE[inv.state] ?? 'org.invitation.used') : null;
    const remember = () => rememberReturnPath(pathname);
    body = (
      <Paper withBorder p="lg" radius="md" data-testid="invitation">
        <Stack>
          <Group wrap="nowrap">
            <Avatar src={organizationLogoUrl(inv.logo_path)} alt="" size={64} radius="md" color="brand">
              {inv.organization_name.slice(0, 2).toUpperCase()}
            </Avatar>
            <Stack gap={2}>
              <Text fw={700} fz="xl" data-testid="invitation-org">
                {inv.organization_name}
              </Text>
              <Text data-testid="invitation-role">
                <FormattedMessage id="org.invitation.role" values={{ role: intl.formatMessage({ id: ROLE_LABEL[inv.role] ?? 'org.role.member' }) }} />
              </Text>
            </Stack>
          </Group>
          {closed ? (
            <Alert color="yellow" role="status" data-testid="invitation-closed">
              <FormattedMessage id={closed} />
            </Alert>
          ) : userId ? (
            <>
              {inv.email_matches === false && (
                <Alert color="yellow" role="status" data-testid="invitation-mismatch">
                  <FormattedMessage id="org.error.invitation_email_mismatch" />
                </Alert>
              )}
              {myPlan.data && !accept.isSuccess && <OwnPlanNotice plan={myPlan.data} organizationName={inv.organization_name} />}
              {(accept.isError || decline.isError) && (
                <Alert color="red" role="alert" data-testid="invitation-error">
                  <FormattedMessage id={orgErrorId(accept.error ?? decline.error)} />
                </Alert>
              )}
              <Group>
                <Button onClick={() => accept.mutate()} loading={accept.isPending} disabled={decline.isPending} data-testid="invitation-accept">
                  <FormattedMessage id="org.invitation.accept" />
                </Button>
                <Button variant="default" onClick={() => decline.mutate()} loading={decline.isPending} disabled={accept.isPending} data-testid="invitation-decline">
                  <FormattedMessage id="org.invitation.decline" />
                </Button>
              </Group>
            </>
          ) : (
            <Stack gap="xs">
              <Text>
                <FormattedMessage id="org.invitation.loginFirst" />
              </Text>
              <Group>
                <LocalButtonLink to={`${paths.login}?next=${encodeURIComponent(pathname)}`} onClick={remember} data-testid="invitation-login">
                  <FormattedMessage id="org.invitation.login" />
                </LocalButtonLink>
                <LocalButtonLink to={paths.registration} variant="default" onClick={remember} data-testid="invitation-register">
                  <FormattedMessage id="org.invitation.register" />
                </LocalButtonLink>
              </Group>
            </Stack>
          )}
        </Stack>
      </Paper>
    );
  }
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="page.invitation.title" />
        </Title>
        {body}
      </Stack>
      {/* outside the invitation card: after joining, the card shows the "already a member" state */}
      {myPlan.data && (
        <EndOwnPlanDialog
          plan={myPlan.data}
          opened={offerEnd}
          onDone={() => {
            setOfferEnd(false);
            goToOrganization();
          }}
        />
      )}
    </Container>
  );
}

import { Avatar, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { LocalButtonLink } from '@/components/local-link';
import { LoadError, LoadingState } from '@/components/query-state';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { publicAvatarUrl } from '@/lib/public-api';
import { teamGapQuery } from '../api/open-roles';
import { commitmentId, roleId } from './labels';
import { ReasonList } from './reason-list';

/**
 * The team-gap finder of one own project (issue 19): which open roles are still missing and who
 * would fill them (project_role_candidates), with score and reasons per person. Filled roles are
 * listed as filled. Free plans see the counts and the way to a plan.
 */
export function TeamGap({ projectId, title }: { projectId: number; title?: string }) {
  const intl = useIntl();
  const localize = useLocalizedPath();
  const gap = useQuery(teamGapQuery(projectId));
  if (gap.isPending) return <LoadingState messageId="matching.loading" compact />;
  if (gap.isError) return <LoadError messageId="matching.error.generic" onRetry={() => void gap.refetch()} />;
  const roles = gap.data.roles;
  return (
    <Stack gap="sm" data-testid="team-gap">
      {title && (
        <Title order={3} fz="h5">
          {title}
        </Title>
      )}
      {roles.length === 0 && (
        <Text fz="sm" c="var(--tw-muted)">
          <FormattedMessage id="matching.teamGap.noRoles" />
        </Text>
      )}
      {roles.map((r) => (
        <Card key={r.role_id} withBorder padding="md" data-testid="team-gap-role" data-role={r.role}>
          <Group justify="space-between" mb="xs">
            <Text fw={600}>
              {r.title ? `${r.title} · ` : ''}
              {intl.formatMessage({ id: roleId(r.role) })}
              {r.commitment ? ` · ${intl.formatMessage({ id: commitmentId(r.commitment) })}` : ''}
            </Text>
            {r.filled ? (
              <Badge variant="outline" color="var(--tw-teal)">
                <FormattedMessage id="matching.teamGap.filled" />
              </Badge>
            ) : (
              <Badge variant="outline" color="var(--tw-blue)" data-testid="team-gap-count">
                <FormattedMessage id="matching.teamGap.count" values={{ count: r.count }} />
              </Badge>
            )}
          </Group>
          {!r.filled && gap.data.plan === 'free' && r.count > 0 && (
            <Group>
              <Text fz="sm">
                <FormattedMessage id="matching.teamGap.upgrade" />
              </Text>
              <LocalButtonLink to={paths.prices} size="xs" variant="light">
                <FormattedMessage id="matching.upgrade.cta" />
              </LocalButtonLink>
            </Group>
          )}
          <Stack gap="sm">
            {r.candidates.map((c) => (
              <Stack key={c.user_id} gap={4} data-testid="team-gap-candidate" data-user={c.slug}>
                <Group justify="space-between" wrap="nowrap">
                  <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                    <Avatar src={publicAvatarUrl(c.profile_img)} name={c.display_name} alt="" size={28} radius="xl" color="brand" />
                    <Text component={Link} to={localize(paths.profile(c.slug))} fw={600} fz="sm" truncate>
                      {c.display_name}
                    </Text>
                  </Group>
                  <Badge variant="light" color="var(--tw-blue)">
                    <FormattedMessage id="matching.score" values={{ score: c.score }} />
                  </Badge>
                </Group>
                <ReasonList reasons={c.reasons} kind="fit" />
              </Stack>
            ))}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

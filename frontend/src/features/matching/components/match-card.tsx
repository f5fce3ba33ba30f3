import { Avatar, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { ConnectButton } from '@/features/contacts';
import { notify } from '@/lib/notify';
import { publicAvatarUrl } from '@/lib/public-api';
import { declineMatch, type MatchItem } from '../api/matches';
import { matchingErrorId } from '../api/matching-errors';
import { kindId } from './labels';
import { ReasonList } from './reason-list';

/**
 * One match (issue 19 "cards with score, reasons, Connect, Not interested"): the person, the mutual
 * score and both directions, the reasons, Connect (the contacts feature's request dialog) and
 * "Not interested" (records a decline, then `onDeclined` removes the card).
 */
export function MatchCard({ item, onDeclined }: { item: MatchItem; onDeclined: (userId: string) => void }) {
  const intl = useIntl();
  const localize = useLocalizedPath();
  const decline = useMutation({
    mutationFn: () => declineMatch(item.user_id),
    onSuccess: () => {
      notify('success', intl.formatMessage({ id: 'matching.declined' }, { name: item.display_name }));
      onDeclined(item.user_id);
    },
    onError: (err) => notify('error', intl.formatMessage({ id: matchingErrorId(err) })),
  });
  return (
    <Card withBorder shadow="sm" padding="lg" component="article" data-testid="match-card" data-user={item.slug}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Avatar src={publicAvatarUrl(item.profile_img)} name={item.display_name} alt="" radius="xl" color="brand" />
            <div style={{ minWidth: 0 }}>
              <Text component={Link} to={localize(paths.profile(item.slug))} fw={700} className="tw-card-link" c="var(--mantine-color-text)">
                {item.display_name}
              </Text>
              <Text fz="sm" c="var(--tw-muted)" truncate>
                {[item.kind ? intl.formatMessage({ id: kindId(item.kind) }) : null, item.city, item.headline].filter(Boolean).join(' · ')}
              </Text>
            </div>
          </Group>
          <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
            <Badge size="lg" variant="filled" color="var(--tw-blue)" data-testid="match-score">
              <FormattedMessage id="matching.score" values={{ score: item.score }} />
            </Badge>
            {item.is_new && (
              <Badge size="xs" variant="outline" color="var(--tw-teal)">
                <FormattedMessage id="matching.new" />
              </Badge>
            )}
          </Stack>
        </Group>
        <Text fz="xs" c="var(--tw-muted)">
          <FormattedMessage id="matching.scoreSides" values={{ mine: item.score_mine, theirs: item.score_theirs }} />
        </Text>
        <ReasonList reasons={item.reasons} kind="match" testId="match-reasons" limit={3} />
        <Group gap="xs">
          <ConnectButton userId={item.user_id} name={item.display_name} size="xs" />
          <Button size="xs" variant="default" loading={decline.isPending} onClick={() => decline.mutate()} data-testid="match-decline">
            <FormattedMessage id="matching.notInterested" />
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

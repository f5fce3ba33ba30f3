import { Alert, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import type { MatchItem, MatchPage } from '../api/matches';
import { MatchingError, matchingErrorId } from '../api/matching-errors';
import { MatchCard } from './match-card';

/**
 * What the match RPC refused, as a message with the way forward (issue 19): no matching profile
 * yet (→ settings), Basic's weekly limit reached (date the allowance renews, → /prices), a plan
 * needed (→ /prices), anything else as a generic error.
 */
export function MatchErrorNotice({ error }: { error: unknown }) {
  const intl = useIntl();
  const id = matchingErrorId(error);
  if (id === 'matching.error.match_profile_missing') {
    return (
      <Alert color="blue" variant="light" data-testid="match-profile-missing">
        <Stack gap="xs" align="flex-start">
          <Text>
            <FormattedMessage id="matching.profileMissing" />
          </Text>
          <LocalButtonLink to={`${paths.user.settings}#matching`} size="xs">
            <FormattedMessage id="matching.profileMissing.cta" />
          </LocalButtonLink>
        </Stack>
      </Alert>
    );
  }
  if (id === 'matching.error.weekly_match_limit') {
    const hint = error instanceof MatchingError ? error.hint : undefined;
    return (
      <Alert color="orange" variant="light" role="alert" data-testid="match-weekly-limit">
        <Stack gap="xs" align="flex-start">
          <Text>
            <FormattedMessage
              id="matching.weeklyLimit"
              values={{ date: hint ? intl.formatDate(hint, { dateStyle: 'long', timeZone: 'Europe/Berlin' }) : '–' }}
            />
          </Text>
          <LocalButtonLink to={paths.prices} size="xs" variant="light">
            <FormattedMessage id="matching.upgrade.premium" />
          </LocalButtonLink>
        </Stack>
      </Alert>
    );
  }
  return (
    <Alert color="red" role="alert">
      <FormattedMessage id={id} />
    </Alert>
  );
}

/**
 * A page of matches (issue 19): free plans see how many matches they would have and the upgrade
 * path; Basic sees its weekly quota; everyone with a plan sees the cards. `hidden` = ids declined
 * on this page (removed without refetching).
 */
export function MatchResults({
  page,
  items,
  hidden,
  onDeclined,
}: {
  page: MatchPage;
  items: MatchItem[];
  hidden: ReadonlySet<string>;
  onDeclined: (id: string) => void;
}) {
  const intl = useIntl();
  if (page.plan === 'free') {
    return (
      <Alert color="blue" variant="light" data-testid="match-upgrade">
        <Stack gap="xs" align="flex-start">
          <Text fw={600} data-testid="match-count">
            <FormattedMessage id="matching.free.count" values={{ count: page.count }} />
          </Text>
          <Text>
            <FormattedMessage id="matching.free.text" />
          </Text>
          <LocalButtonLink to={paths.prices} size="xs">
            <FormattedMessage id="matching.upgrade.cta" />
          </LocalButtonLink>
        </Stack>
      </Alert>
    );
  }
  const visible = items.filter((i) => !hidden.has(i.user_id));
  return (
    <Stack>
      {page.quota && (
        <Text fz="sm" c="var(--tw-muted)" data-testid="match-quota">
          <FormattedMessage
            id="matching.quota"
            values={{
              remaining: page.quota.remaining,
              limit: page.quota.limit,
              date: intl.formatDate(page.quota.resets_at, { dateStyle: 'long', timeZone: 'Europe/Berlin' }),
            }}
          />
        </Text>
      )}
      {visible.length === 0 ? (
        <Text c="var(--tw-muted)" data-testid="match-empty">
          <FormattedMessage id="matching.empty" />
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {visible.map((item) => (
            <MatchCard key={item.user_id} item={item} onDeclined={onDeclined} />
          ))}
        </SimpleGrid>
      )}
      {page.upgrade?.plan === 'premium' && (
        <Group gap="xs">
          <Text fz="sm">
            <FormattedMessage id="matching.basic.upgrade" />
          </Text>
          <LocalButtonLink to={paths.prices} size="xs" variant="light">
            <FormattedMessage id="matching.upgrade.premium" />
          </LocalButtonLink>
        </Group>
      )}
    </Stack>
  );
}

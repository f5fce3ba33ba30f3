import { Button, Collapse, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { useDisclosure, useId } from '@mantine/hooks';
import { FormattedMessage, useIntl } from 'react-intl';
import type { MatchReason } from '../api/matches';
import { describeFitReason, describeMatchReason, reasonTone } from '../api/reasons';
import { useMatchLabels } from './labels';

const ICON: Record<ReturnType<typeof reasonTone>, { mark: string; color: string; rank: number }> = {
  good: { mark: '✓', color: 'var(--tw-teal)', rank: 0 },
  partial: { mark: '~', color: 'var(--tw-blue)', rank: 1 },
  neutral: { mark: '•', color: 'var(--tw-gray)', rank: 2 },
  bad: { mark: '✗', color: 'var(--tw-red)', rank: 3 },
};

/**
 * The reasons in the order a reader wants them (issue 33 §12): what fits first (fitting, then
 * partly fitting, each by the points it gives), then neutral notes, what does not fit last.
 * Stable for equal reasons.
 */
export function orderReasons(reasons: MatchReason[]): MatchReason[] {
  return reasons
    .map((r, i) => ({ r, i }))
    .sort((a, b) => ICON[reasonTone(a.r)].rank - ICON[reasonTone(b.r)].rank || b.r.points - a.r.points || a.i - b.i)
    .map((x) => x.r);
}

/**
 * The explanation of a match or an open-role fit (issue 19): one line per structured reason,
 * marked as fitting (✓), partly fitting (~) or not fitting (✗), "must have" noted.
 * With `limit` (match cards, issue 33 §12) only the best `limit` reasons show (orderReasons) and a
 * "Show all" button (aria-expanded, aria-controls) opens the rest; the rest stays in the page.
 * @param kind 'match' = private.match_reasons codes, 'fit' = private.role_fit_reasons codes
 */
export function ReasonList({ reasons, kind, testId, limit }: { reasons: MatchReason[]; kind: 'match' | 'fit'; testId?: string; limit?: number }) {
  const intl = useIntl();
  const labels = useMatchLabels();
  const [open, { toggle }] = useDisclosure(false);
  const restId = useId();
  const shown = reasons.filter((r) => !(kind === 'match' && r.code === 'open_to_all' && reasons.length > 1));
  const ordered = limit ? orderReasons(shown) : shown;
  const top = limit ? ordered.slice(0, limit) : ordered;
  const rest = limit ? ordered.slice(limit) : [];
  const items = (list: MatchReason[], offset: number) =>
    list.map((r, i) => {
      const text = kind === 'match' ? describeMatchReason(r, labels) : describeFitReason(r, labels);
      const tone = ICON[reasonTone(r)];
      return (
        <List.Item
          key={`${r.side ?? ''}-${r.code}-${offset + i}`}
          data-reason={r.code}
          icon={
            <ThemeIcon size={18} radius="xl" variant="light" color={tone.color} aria-hidden="true">
              <Text fz={11} fw={700} component="span">
                {tone.mark}
              </Text>
            </ThemeIcon>
          }
        >
          {intl.formatMessage({ id: text.id }, text.values)}
          {r.must && (
            <Text component="span" fz="xs" c="var(--tw-muted)">
              {' '}
              ({intl.formatMessage({ id: 'matching.mustHave' })})
            </Text>
          )}
        </List.Item>
      );
    });
  if (rest.length === 0) {
    return (
      <List spacing={4} size="sm" data-testid={testId} center>
        {items(top, 0)}
      </List>
    );
  }
  return (
    <Stack gap={4} data-testid={testId}>
      <List spacing={4} size="sm" center data-testid="reasons-top">
        {items(top, 0)}
      </List>
      {/* display: none rather than React Activity: the closed reasons stay in the page (find in page, tests) */}
      <Collapse expanded={open} id={restId} keepMounted keepMountedMode="display-none">
        <List spacing={4} size="sm" center data-testid="reasons-rest">
          {items(rest, top.length)}
        </List>
      </Collapse>
      <Button
        variant="subtle"
        size="compact-xs"
        style={{ alignSelf: 'flex-start' }}
        aria-expanded={open}
        aria-controls={restId}
        onClick={toggle}
        data-testid="reasons-toggle"
      >
        <FormattedMessage id={open ? 'matching.reasons.showFewer' : 'matching.reasons.showAll'} values={{ count: ordered.length }} />
      </Button>
    </Stack>
  );
}

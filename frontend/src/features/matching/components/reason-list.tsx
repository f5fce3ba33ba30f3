import { List, Text, ThemeIcon } from '@mantine/core';
import { useIntl } from 'react-intl';
import type { MatchReason } from '../api/matching';
import { describeFitReason, describeMatchReason, reasonTone } from '../api/reasons';
import { useMatchLabels } from './labels';

const ICON: Record<ReturnType<typeof reasonTone>, { mark: string; color: string }> = {
  good: { mark: '✓', color: 'var(--tw-teal)' },
  partial: { mark: '~', color: 'var(--tw-blue)' },
  bad: { mark: '✗', color: 'var(--tw-red)' },
  neutral: { mark: '•', color: 'var(--tw-gray)' },
};

/**
 * The explanation of a match or an open-role fit (issue 19): one line per structured reason,
 * marked as fitting (✓), partly fitting (~) or not fitting (✗), "must have" noted.
 * @param kind 'match' = private.match_reasons codes, 'fit' = private.role_fit_reasons codes
 */
export function ReasonList({ reasons, kind, testId }: { reasons: MatchReason[]; kind: 'match' | 'fit'; testId?: string }) {
  const intl = useIntl();
  const labels = useMatchLabels();
  return (
    <List spacing={4} size="sm" data-testid={testId} center>
      {reasons
        .filter((r) => !(kind === 'match' && r.code === 'open_to_all' && reasons.length > 1))
        .map((r, i) => {
          const text = kind === 'match' ? describeMatchReason(r, labels) : describeFitReason(r, labels);
          const tone = ICON[reasonTone(r)];
          return (
            <List.Item
              key={`${r.side ?? ''}-${r.code}-${i}`}
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
        })}
    </List>
  );
}

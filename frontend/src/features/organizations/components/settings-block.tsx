import { Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';

/**
 * A titled block of the organisation settings page (a section with a level-2 heading).
 * @param titleId message id of the heading
 * @param testId the section's test id
 */
export function SettingsBlock({ titleId, testId, children }: { titleId: string; testId: string; children: ReactNode }) {
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

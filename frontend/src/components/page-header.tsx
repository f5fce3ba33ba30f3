import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The one page header of the feature pages (issue 18): the page's only `<h1>`, an optional short
 * description under it and an optional primary action (a button or button link) on the right; on
 * narrow screens the action wraps below the title.
 * @param title text of the `<h1>` (already translated, e.g. a `<FormattedMessage>`)
 * @param description optional lead text (muted colour with enough contrast in both schemes)
 * @param action optional primary action of the page
 * @param testId optional `data-testid` of the header element
 */
export function PageHeader({ title, description, action, testId }: { title: ReactNode; description?: ReactNode; action?: ReactNode; testId?: string }) {
  return (
    <Group component="header" justify="space-between" align="flex-end" gap="sm" wrap="wrap" data-testid={testId}>
      <Stack gap={4} style={{ minWidth: 0, flex: '1 1 16rem' }}>
        <Title order={1}>{title}</Title>
        {description && <Text c="var(--tw-muted)">{description}</Text>}
      </Stack>
      {action}
    </Group>
  );
}

import { Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

/** The default picture of an empty state: an empty tray (inline SVG, decorative). */
function EmptyTray() {
  return (
    <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M4 13h3l2 3h6l2-3h3" />
      <path d="M4 13l2.5-7h11L20 13v5a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2z" />
    </svg>
  );
}

/**
 * The one empty state of lists and pages (issue 18): a decorative picture, an optional title,
 * the message and an optional next step (a button or button link). The `data-testid` sits on the
 * message itself, so a test reads exactly the message text.
 * @param children the message (already translated)
 * @param title optional short heading above the message (a paragraph, not a heading element,
 *   so it never breaks the page's heading order)
 * @param icon optional picture instead of the empty tray (decorative, hidden from screen readers)
 * @param action optional next step
 * @param testId optional `data-testid` of the message
 * @param compact less padding, for a section inside a page
 */
export function EmptyState({
  children,
  title,
  icon,
  action,
  testId,
  compact = false,
}: {
  children: ReactNode;
  title?: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
  testId?: string;
  compact?: boolean;
}) {
  return (
    <Paper withBorder radius="md" p={compact ? 'md' : 'xl'} style={{ borderStyle: 'dashed' }} className="tw-empty">
      <Stack align="center" gap="xs" ta="center">
        <ThemeIcon size={compact ? 40 : 52} radius="xl" variant="light" color="brand" aria-hidden="true">
          {icon ?? <EmptyTray />}
        </ThemeIcon>
        {title && (
          <Text fw={700} fz="lg">
            {title}
          </Text>
        )}
        <Text c="var(--tw-muted)" maw="36rem" data-testid={testId}>
          {children}
        </Text>
        {action}
      </Stack>
    </Paper>
  );
}

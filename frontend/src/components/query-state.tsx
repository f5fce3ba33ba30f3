import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { FormattedMessage } from 'react-intl';

/**
 * The loading state of a list or detail page: a spinner with a visible text, announced politely to
 * screen readers (role status).
 * @param messageId message id of the text, e.g. `search.loading`
 * @param compact smaller padding for sections inside a page
 */
export function LoadingState({ messageId, compact = false }: { messageId: string; compact?: boolean }) {
  return (
    <Group role="status" aria-live="polite" py={compact ? 'xs' : 'md'} gap="sm">
      <Loader size="sm" />
      <Text>
        <FormattedMessage id={messageId} />
      </Text>
    </Group>
  );
}

/**
 * The error state of a query whose retries (spec §9) failed: the message and a retry button.
 * @param messageId message id of the error text
 * @param onRetry refetches the query
 * @param testId optional `data-testid` of the alert
 */
export function LoadError({ messageId, onRetry, testId }: { messageId: string; onRetry: () => void; testId?: string }) {
  return (
    <Alert color="red" role="alert" data-testid={testId}>
      <Stack gap="xs" align="flex-start">
        <Text>
          <FormattedMessage id={messageId} />
        </Text>
        <Button size="xs" variant="outline" color="var(--tw-red)" onClick={onRetry}>
          <FormattedMessage id="common.retry" />
        </Button>
      </Stack>
    </Alert>
  );
}

import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { notify } from '@/lib/notify';
import { type ApiKeyRow, useApiKeyMutations } from '../api/api-keys';

function When({ value }: { value: string | null }) {
  if (!value) return <FormattedMessage id="api-keys.never" />;
  return <FormattedDate value={value} dateStyle="medium" timeStyle="short" />;
}

/**
 * The organisation's keys: name, prefix, scopes, created, last used, state; active keys can be
 * revoked after a confirmation (issue 15).
 */
export function ApiKeyTable({ organizationId, keys }: { organizationId: string; keys: readonly ApiKeyRow[] }) {
  const intl = useIntl();
  const { revoke } = useApiKeyMutations(organizationId);
  const [pending, setPending] = useState<ApiKeyRow | null>(null);
  if (keys.length === 0) {
    return (
      <Text c="dimmed" data-testid="api-keys-empty">
        <FormattedMessage id="api-keys.empty" />
      </Text>
    );
  }
  return (
    <>
      <Table.ScrollContainer minWidth={720}>
        <Table striped verticalSpacing="xs" data-testid="api-keys-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th><FormattedMessage id="api-keys.col.name" /></Table.Th>
              <Table.Th><FormattedMessage id="api-keys.col.prefix" /></Table.Th>
              <Table.Th><FormattedMessage id="api-keys.col.scopes" /></Table.Th>
              <Table.Th><FormattedMessage id="api-keys.col.created" /></Table.Th>
              <Table.Th><FormattedMessage id="api-keys.col.last-used" /></Table.Th>
              <Table.Th><FormattedMessage id="api-keys.col.actions" /></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keys.map((k) => (
              <Table.Tr key={k.id} data-testid={`api-key-row-${k.id}`}>
                <Table.Td>{k.name}</Table.Td>
                <Table.Td>
                  <code>{k.prefix}…</code>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {k.scopes.map((s) => (
                      <Badge key={s} variant="light" size="sm" tt="none">
                        {s}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td><When value={k.created_at} /></Table.Td>
                <Table.Td><When value={k.last_used_at} /></Table.Td>
                <Table.Td>
                  {k.revoked_at ? (
                    <Badge color="gray" variant="outline">
                      <FormattedMessage id="api-keys.revoked" />
                    </Badge>
                  ) : (
                    <Button size="xs" color="red" variant="outline" onClick={() => setPending(k)} aria-label={intl.formatMessage({ id: 'api-keys.revoke.aria' }, { name: k.name })}>
                      <FormattedMessage id="api-keys.revoke" />
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDialog
        opened={pending !== null}
        title={<FormattedMessage id="api-keys.revoke.title" />}
        message={<FormattedMessage id="api-keys.revoke.message" values={{ name: pending?.name ?? '' }} />}
        confirmLabel={<FormattedMessage id="api-keys.revoke" />}
        loading={revoke.isPending}
        onClose={() => setPending(null)}
        onConfirm={() =>
          pending &&
          revoke.mutate(pending.id, {
            onSuccess: () => {
              setPending(null);
              notify('success', intl.formatMessage({ id: 'api-keys.revoke.done' }));
            },
            onError: () => notify('error', intl.formatMessage({ id: 'api-keys.error.revoke' })),
          })
        }
      />
    </>
  );
}

import { Alert, Container, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { formatDate } from '@/lib/format';
import type { PageProps } from '@/lib/route-def';
import { currentUser, listOwnSubscriptions } from '../api/dev-billing';

/** `/test/subscriptions` (developer only): the caller's rows of public.subscriptions as synced from Stripe. */
export default function TestSubscriptionsRoute({ locale }: PageProps) {
  const user = useQuery({ queryKey: ['dev', 'user'], queryFn: currentUser });
  const rows = useQuery({ queryKey: ['dev', 'subscriptions'], queryFn: listOwnSubscriptions, enabled: !!user.data });
  return (
    <Container size="lg" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="dev.subscriptions.title" />
        </Title>
        {user.isSuccess && !user.data && (
          <Alert color="red" role="alert">
            <FormattedMessage id="dev.mustLogin" />
          </Alert>
        )}
        {rows.isError && (
          <Alert color="red" role="alert">
            {rows.error.message}
          </Alert>
        )}
        {rows.data && rows.data.length === 0 && (
          <Text>
            <FormattedMessage id="billing.panel.none" />
          </Text>
        )}
        {rows.data && rows.data.length > 0 && (
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>subscription</Table.Th>
                <Table.Th>plan</Table.Th>
                <Table.Th>period</Table.Th>
                <Table.Th>status</Table.Th>
                <Table.Th>current_period_end</Table.Th>
                <Table.Th>cancel_at_period_end</Table.Th>
                <Table.Th>last_synced_at</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.data.map((row) => (
                <Table.Tr key={row.stripe_subscription_id}>
                  <Table.Td ff="monospace">{row.stripe_subscription_id}</Table.Td>
                  <Table.Td>{row.plan_id}</Table.Td>
                  <Table.Td>{row.billing_period}</Table.Td>
                  <Table.Td>{row.status}</Table.Td>
                  <Table.Td>{row.current_period_end ? formatDate(row.current_period_end, locale) : '—'}</Table.Td>
                  <Table.Td>{String(row.cancel_at_period_end)}</Table.Td>
                  <Table.Td>{row.last_synced_at}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Container>
  );
}

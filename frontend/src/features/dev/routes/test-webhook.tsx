import { Alert, Button, Container, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage } from 'react-intl';
import { currentUser, listStripeEvents } from '../api/dev-billing';

/** `/test/webhook` (developer only): the webhook ledger (stripe_events) as far as RLS shows it to the caller. */
export default function TestWebhookRoute() {
  const user = useQuery({ queryKey: ['dev', 'user'], queryFn: currentUser });
  const events = useQuery({ queryKey: ['dev', 'stripe-events'], queryFn: listStripeEvents, enabled: !!user.data });
  return (
    <Container size="lg" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="dev.webhook.title" />
        </Title>
        <Button variant="light" onClick={() => void events.refetch()} loading={events.isFetching} style={{ alignSelf: 'flex-start' }}>
          <FormattedMessage id="common.retry" />
        </Button>
        {user.isSuccess && !user.data && (
          <Alert color="red" role="alert">
            <FormattedMessage id="dev.mustLogin" />
          </Alert>
        )}
        {events.isError && (
          <Alert color="red" role="alert">
            {events.error.message}
          </Alert>
        )}
        {events.data && events.data.length === 0 && <Text>—</Text>}
        {events.data && events.data.length > 0 && (
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>id</Table.Th>
                <Table.Th>type</Table.Th>
                <Table.Th>received_at</Table.Th>
                <Table.Th>processed_at</Table.Th>
                <Table.Th>error</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {events.data.map((event) => (
                <Table.Tr key={event.id}>
                  <Table.Td ff="monospace">{event.id}</Table.Td>
                  <Table.Td>{event.type}</Table.Td>
                  <Table.Td>{event.received_at}</Table.Td>
                  <Table.Td>{event.processed_at ?? '—'}</Table.Td>
                  <Table.Td>{event.error ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Container>
  );
}

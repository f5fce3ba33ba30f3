import { Alert, Badge, Card, Code, Container, CopyButton, Button, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import { type OpenApiOperation, useOpenApiDocument } from '../api/api-keys';
import { curlExample } from '../components/curl-example';

/** Description of each operation in the reader's language (the document's summaries are English). */
const OPERATION_TEXT: Record<string, string> = {
  listProjects: 'api-docs.op.listProjects',
  listJobs: 'api-docs.op.listJobs',
  createJob: 'api-docs.op.createJob',
  getJob: 'api-docs.op.getJob',
  updateJob: 'api-docs.op.updateJob',
  listEvents: 'api-docs.op.listEvents',
  search: 'api-docs.op.search',
};

const METHOD_COLOR: Record<string, string> = { get: 'blue', post: 'green', patch: 'orange', put: 'orange', delete: 'red' };

function Operation({ server, path, method, op }: { server: string; path: string; method: string; op: OpenApiOperation }) {
  const intl = useIntl();
  const descriptionId = OPERATION_TEXT[op.operationId];
  const description = descriptionId ? intl.formatMessage({ id: descriptionId }) : (op.summary ?? '');
  const curl = curlExample(server, path, method, op);
  return (
    <Card withBorder padding="md" data-testid={`api-op-${op.operationId}`}>
      <Stack gap="xs">
        <Group gap="xs">
          <Badge color={METHOD_COLOR[method] ?? 'gray'} variant="filled" tt="uppercase">
            {method}
          </Badge>
          <Code fz="sm">{path}</Code>
          {op['x-scope'] && (
            <Badge variant="light" tt="none">
              <FormattedMessage id="api-docs.scope" values={{ scope: op['x-scope'] }} />
            </Badge>
          )}
        </Group>
        <Text>{description}</Text>
        {op.parameters && op.parameters.length > 0 && (
          <Table withTableBorder fz="sm" maw={640}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th><FormattedMessage id="api-docs.param.name" /></Table.Th>
                <Table.Th><FormattedMessage id="api-docs.param.in" /></Table.Th>
                <Table.Th><FormattedMessage id="api-docs.param.required" /></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {op.parameters.map((p) => (
                <Table.Tr key={`${p.in}-${p.name}`}>
                  <Table.Td><Code>{p.name}</Code></Table.Td>
                  <Table.Td>{p.in}</Table.Td>
                  <Table.Td><FormattedMessage id={p.required ? 'api-docs.yes' : 'api-docs.no'} /></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Text size="sm" fw={600}>
          <FormattedMessage id="api-docs.example" />
        </Text>
        <Code block data-testid="curl-example">
          {curl}
        </Code>
        <CopyButton value={curl}>
          {({ copied, copy }) => (
            <Button size="xs" variant="subtle" onClick={copy} style={{ alignSelf: 'flex-start' }}>
              <FormattedMessage id={copied ? 'api-keys.copied' : 'api-docs.copy'} />
            </Button>
          )}
        </CopyButton>
      </Stack>
    </Card>
  );
}

/**
 * `/developers/api` (issue 15): the HTTP API's documentation, rendered from the OpenAPI 3.1
 * document the `api` function serves, with a curl example per endpoint; texts in English and German.
 */
export default function DevelopersApiRoute() {
  const doc = useOpenApiDocument();
  // the default layout leaves the margins to the page (issue 33 §11: none at 1280 px)
  return (
    <Container size="lg" py="xl">
      <Stack maw={960}>
        <PageHeader title={<FormattedMessage id="page.developers-api.title" />} description={<FormattedMessage id="api-docs.intro" />} />
        <List spacing={4}>
          <List.Item><FormattedMessage id="api-docs.auth" values={{ header: <Code>Authorization: Bearer twk_…</Code> }} /></List.Item>
          <List.Item><FormattedMessage id="api-docs.paging" /></List.Item>
          <List.Item><FormattedMessage id="api-docs.errors" /></List.Item>
          <List.Item><FormattedMessage id="api-docs.rate-limit" /></List.Item>
          <List.Item><FormattedMessage id="api-docs.keys" /></List.Item>
        </List>
        {doc.isPending ? (
          <LoadingState messageId="api-docs.loading" />
        ) : doc.isError ? (
          <LoadError messageId="api-docs.error" onRetry={() => void doc.refetch()} />
        ) : (
          <>
            <Alert variant="light">
              <FormattedMessage id="api-docs.base-url" values={{ url: <Code>{doc.data.servers[0]?.url ?? ''}</Code>, version: doc.data.info.version }} />{' '}
              <a href={`${doc.data.servers[0]?.url ?? ''}/openapi.json`}>openapi.json</a>
            </Alert>
            <Title order={2} size="h3">
              <FormattedMessage id="api-docs.endpoints" />
            </Title>
            {Object.entries(doc.data.paths).flatMap(([path, ops]) =>
              Object.entries(ops).map(([method, op]) => (
                <Operation key={`${method} ${path}`} server={doc.data.servers[0]?.url ?? ''} path={path} method={method} op={op} />
              )),
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}

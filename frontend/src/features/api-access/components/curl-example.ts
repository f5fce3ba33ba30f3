import type { OpenApiOperation } from '../api/api-keys';

/** Example bodies of the write operations (valid against the API's schemas). */
const EXAMPLE_BODIES: Record<string, unknown> = {
  createJob: {
    title: 'Backend Developer (m/f/d)',
    company: 'Example GmbH',
    description: 'We are looking for …',
    apply_url: 'https://example.com/jobs/backend',
    employment_type: 'full_time',
    city: 'Berlin',
    remote: true,
  },
  updateJob: { title: 'Senior Backend Developer (m/f/d)', expires_at: '2027-03-31T23:59:59Z' },
};

/** Example query strings of the read operations. */
const EXAMPLE_QUERIES: Record<string, string> = {
  listProjects: '?limit=20',
  listJobs: '?limit=20',
  listEvents: '?limit=20',
  search: '?q=robotik&types=project,job&limit=10',
};

/**
 * A curl command line for one operation (issue 15 documentation page): the key comes from the
 * shell variable TEAMWERK_API_KEY; `{id}` becomes an example job id.
 * @param server the document's server URL (…/functions/v1/api/v1)
 * @param method lower-case HTTP method as in the document
 */
export function curlExample(server: string, path: string, method: string, op: OpenApiOperation): string {
  const url = `${server}${path.replace('{id}', 'backend-developer-1a2b3c4d')}${EXAMPLE_QUERIES[op.operationId] ?? ''}`;
  const lines = [`curl -X ${method.toUpperCase()} '${url}'`, `  -H "Authorization: Bearer $TEAMWERK_API_KEY"`];
  const body = EXAMPLE_BODIES[op.operationId];
  if (body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  -d '${JSON.stringify(body)}'`);
  }
  return lines.join(' \\\n');
}

/**
 * The OpenAPI 3.1 document of the HTTP API v1 (issue 15), served at GET /v1/openapi.json and
 * rendered by the SPA's /developers/api page. Request bodies and parameters come from the zod
 * schemas the handler validates with (schemas.ts); responses are described by hand.
 * Input: the server URL clients use (…/functions/v1/api/v1). Output: a plain JSON object.
 */
import { z } from 'zod';
import { CATEGORIES, EMPLOYMENT_TYPES, JobCreate, JobUpdate, SCOPES } from './schemas.ts';

function bodySchema(schema: z.ZodType): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

const ts = { type: 'string', format: 'date-time' };
const nullable = (s: Record<string, unknown>) => ({ ...s, type: [s.type as string, 'null'] });

const Project = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    slug: { type: 'string' },
    summary: { type: 'string' },
    description: { type: 'string' },
    category: nullable({ type: 'string' }),
    stage: { type: 'string' },
    city: nullable({ type: 'string' }),
    roles_sought: { type: 'array', items: { type: 'string' } },
    status: { type: 'string', enum: ['published'] },
    published_at: nullable(ts),
    created_at: ts,
    updated_at: ts,
  },
};

const Job = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'Readable id, e.g. senior-backend-developer-1a2b3c4d' },
    title: { type: 'string' },
    company: { type: 'string' },
    city: nullable({ type: 'string' }),
    remote: { type: 'boolean' },
    employment_type: { type: 'string', enum: [...EMPLOYMENT_TYPES] },
    category: { type: 'string', enum: [...CATEGORIES] },
    description: { type: 'string' },
    apply_url: { type: 'string' },
    salary_min_cents: nullable({ type: 'integer' }),
    salary_max_cents: nullable({ type: 'integer' }),
    language: { type: 'string', enum: ['de', 'en'] },
    posted_at: ts,
    expires_at: nullable(ts),
    created_at: ts,
    updated_at: ts,
  },
};

const Event = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    slug: { type: 'string' },
    summary: { type: 'string' },
    description: { type: 'string' },
    category: { type: 'string' },
    status: { type: 'string', enum: ['published', 'upcoming', 'ongoing', 'finished', 'cancelled'] },
    starts_at: ts,
    ends_at: ts,
    timezone: { type: 'string' },
    is_online: { type: 'boolean' },
    venue_name: nullable({ type: 'string' }),
    city: nullable({ type: 'string' }),
    is_paid: { type: 'boolean' },
    price_cents: nullable({ type: 'integer' }),
    currency: { type: 'string' },
    capacity: nullable({ type: 'integer' }),
    going_count: { type: 'integer' },
    created_at: ts,
    updated_at: ts,
  },
};

const SearchHit = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: ['project', 'portfolio', 'event', 'profile', 'job'] },
    id: { type: ['string', 'integer'] },
    slug: nullable({ type: 'string' }),
    title: { type: 'string' },
    snippet: { type: 'string', description: 'HTML-escaped text excerpt' },
    category: nullable({ type: 'string' }),
    city: nullable({ type: 'string' }),
    date: nullable(ts),
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const listOf = (name: string) => ({
  type: 'object',
  required: ['data', 'next_cursor'],
  properties: {
    data: { type: 'array', items: ref(name) },
    next_cursor: { type: ['string', 'null'], description: 'Pass as ?cursor= for the next page; null on the last page' },
  },
});
const err = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });
const ok = (description: string, schema: unknown) => ({ description, content: { 'application/json': { schema } } });
const common = {
  '400': err('Invalid parameter or body'),
  '401': err('Missing, unknown or revoked API key'),
  '403': err('The key lacks the scope'),
  '429': {
    description: 'More than 60 requests in a minute with this key',
    headers: { 'Retry-After': { description: 'Seconds until the window ends', schema: { type: 'integer' } } },
    content: { 'application/json': { schema: ref('Error') } },
  },
};
const listParams = [
  {
    name: 'limit',
    in: 'query',
    required: false,
    description: 'Page size, 1 to 100',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
  { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page', schema: { type: 'string' } },
];
const jobId = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' } };

/** The document; `serverUrl` is the API base (…/functions/v1/api/v1). */
export function buildOpenApi(serverUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Teamwerk API',
      version: '1.0.0',
      description:
        'Read the projects, jobs and events of your organisation, search the platform, and create and update your jobs. ' +
        'Authenticate with an API key of your organisation: `Authorization: Bearer <key>`. Limit: 60 requests per minute per key. ' +
        'Errors: `{ "error": { "code", "message" } }`.',
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    paths: {
      '/projects': {
        get: {
          operationId: 'listProjects',
          summary: "List the organisation's published projects",
          'x-scope': 'projects:read',
          parameters: listParams,
          responses: { '200': ok('A page of projects, ordered by id', listOf('Project')), ...common },
        },
      },
      '/jobs': {
        get: {
          operationId: 'listJobs',
          summary: "List the organisation's jobs (expired ones included)",
          'x-scope': 'jobs:read',
          parameters: listParams,
          responses: { '200': ok('A page of jobs, ordered by creation time', listOf('Job')), ...common },
        },
        post: {
          operationId: 'createJob',
          summary: 'Create a job of the organisation',
          'x-scope': 'jobs:write',
          requestBody: { required: true, content: { 'application/json': { schema: ref('JobCreate') } } },
          responses: { '201': ok('The created job', { type: 'object', properties: { data: ref('Job') } }), ...common },
        },
      },
      '/jobs/{id}': {
        get: {
          operationId: 'getJob',
          summary: 'One job of the organisation',
          'x-scope': 'jobs:read',
          parameters: [jobId],
          responses: {
            '200': ok('The job', { type: 'object', properties: { data: ref('Job') } }),
            '404': err('No such job of the organisation'),
            ...common,
          },
        },
        patch: {
          operationId: 'updateJob',
          summary: 'Update a job of the organisation',
          'x-scope': 'jobs:write',
          parameters: [jobId],
          requestBody: { required: true, content: { 'application/json': { schema: ref('JobUpdate') } } },
          responses: {
            '200': ok('The updated job', { type: 'object', properties: { data: ref('Job') } }),
            '404': err('No such job of the organisation'),
            ...common,
          },
        },
      },
      '/events': {
        get: {
          operationId: 'listEvents',
          summary: "List the organisation's events (drafts excluded)",
          'x-scope': 'events:read',
          parameters: listParams,
          responses: { '200': ok('A page of events, ordered by id', listOf('Event')), ...common },
        },
      },
      '/search': {
        get: {
          operationId: 'search',
          summary: 'Public search over projects, portfolios, events, profiles and jobs',
          'x-scope': 'search:read',
          parameters: [
            {
              name: 'q',
              in: 'query',
              required: false,
              description: 'Search words (up to 200 characters)',
              schema: { type: 'string', maxLength: 200 },
            },
            {
              name: 'types',
              in: 'query',
              required: false,
              description: 'Comma-separated: project, portfolio, event, profile, job',
              schema: { type: 'string' },
            },
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 50, default: 20 } },
            listParams[1],
          ],
          responses: {
            '200': ok('A page of hits', {
              type: 'object',
              properties: {
                data: { type: 'array', items: ref('SearchHit') },
                total: { type: 'integer', description: 'Number of hits; an estimate when total_estimated is true (huge result sets)' },
                total_estimated: { type: 'boolean' },
                next_cursor: { type: ['string', 'null'] },
              },
            }),
            ...common,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: `API key of an organisation; scopes: ${SCOPES.join(', ')}` },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
        Project,
        Job,
        Event,
        SearchHit,
        JobCreate: bodySchema(JobCreate),
        JobUpdate: bodySchema(JobUpdate),
      },
    },
  };
}

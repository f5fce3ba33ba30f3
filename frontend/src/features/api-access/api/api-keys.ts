import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';

/** Scopes of an API key (public.api_keys.scopes, issue 15) in display order. */
export const API_SCOPES = ['projects:read', 'jobs:read', 'events:read', 'search:read', 'jobs:write'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** One key as owners and admins see it (never the secret or its hash). */
export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/**
 * The organisation's API keys, newest first, revoked ones included (RLS: owners and admins only).
 * @throws ApiError
 */
export async function listApiKeys(organizationId: string): Promise<ApiKeyRow[]> {
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase
    .from('api_keys')
    .select('id, name, prefix, scopes, created_at, last_used_at, revoked_at')
    .eq('organization_id', organizationId)
    .order('created_at', { ascending: false });
  return unwrap(result, 'GET') ?? [];
}

/** Query hook around listApiKeys. */
export function useApiKeys(organizationId: string | undefined) {
  return useQuery({
    queryKey: ['api-access', 'keys', organizationId],
    queryFn: () => listApiKeys(organizationId!),
    enabled: organizationId !== undefined,
  });
}

/** Answer of rpc/create_api_key: `key` is the secret, shown once. */
export interface CreatedApiKey {
  id: string;
  key: string;
  prefix: string;
  name: string;
  scopes: string[];
}

/**
 * Creates a key (rpc/create_api_key: owners/admins, active Enterprise subscription).
 * @throws ApiError (403 not allowed, 402 Enterprise needed, 400 invalid name or scopes)
 */
export async function createApiKey(organizationId: string, name: string, scopes: readonly string[]): Promise<CreatedApiKey> {
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase.rpc('create_api_key', { p_organization_id: organizationId, p_name: name, p_scopes: [...scopes] });
  return unwrap(result, 'POST') as unknown as CreatedApiKey;
}

/**
 * Revokes a key at once (rpc/revoke_api_key).
 * @throws ApiError (404 when not a key of an organisation the caller administers)
 */
export async function revokeApiKey(id: string): Promise<void> {
  const { supabase } = await import('@/lib/supabase');
  unwrap(await supabase.rpc('revoke_api_key', { p_id: id }), 'POST');
}

/** Mutations for create and revoke; both refresh the key list. */
export function useApiKeyMutations(organizationId: string | undefined) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['api-access', 'keys', organizationId] });
  const create = useMutation({
    mutationFn: (a: { name: string; scopes: readonly string[] }) => createApiKey(organizationId!, a.name, a.scopes),
    onSuccess: refresh,
  });
  const revoke = useMutation({ mutationFn: (id: string) => revokeApiKey(id), onSuccess: refresh });
  return { create, revoke };
}

/** A minimal view of the OpenAPI 3.1 document the `api` function serves. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown> };
}

/** One operation of the document. */
export interface OpenApiOperation {
  operationId: string;
  summary?: string;
  'x-scope'?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: { type?: string; default?: unknown } }[];
  requestBody?: unknown;
  responses?: Record<string, { description?: string }>;
}

/**
 * Loads the OpenAPI document from GET /functions/v1/api/v1/openapi.json (no key needed).
 * @throws Error with the HTTP status
 */
export async function getOpenApiDocument(): Promise<OpenApiDocument> {
  const { SUPABASE_URL } = await import('@/lib/public-api');
  const res = await fetch(`${SUPABASE_URL}/functions/v1/api/v1/openapi.json`, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`openapi.json: HTTP ${res.status}`);
  return (await res.json()) as OpenApiDocument;
}

/** Query hook around getOpenApiDocument. */
export function useOpenApiDocument() {
  return useQuery({ queryKey: ['api-access', 'openapi'], queryFn: getOpenApiDocument, staleTime: 5 * 60_000 });
}

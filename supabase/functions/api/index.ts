/**
 * `api` Edge Function (issue 15 "API access"): the organisations' versioned HTTP API at
 * /functions/v1/api/v1/... . Wiring only; routes and rules live in handler.ts, data access in
 * deps.ts. Deployed with `verify_jwt = false`: callers authenticate with an API key
 * (`Authorization: Bearer twk_…`), which the function checks itself.
 */
import { requireEnv } from '../_shared/env.ts';
import { publicKey, serviceKey } from '../_shared/keys.ts';
import { databaseDeps } from './deps.ts';
import { handleApi } from './handler.ts';

const deps = databaseDeps(requireEnv('SUPABASE_URL'), publicKey(), serviceKey());

Deno.serve((request: Request) => handleApi(request, deps));

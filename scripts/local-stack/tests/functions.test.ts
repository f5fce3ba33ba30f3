/**
 * Contract tests of the Edge Functions runner (issue 2 item 6), through the gateway with the
 * official `@supabase/supabase-js` client (`functions.invoke`) and plain fetch:
 * - `health` (verify_jwt = false in config.toml) answers with and without a JWT;
 * - a function not listed in config.toml gets the CLI default verify_jwt = true: missing,
 *   forged and expired JWTs are answered 401 as the Supabase platform does, before the function;
 * - the hosted env (SUPABASE_URL, keys, DB URL, RESEND_BASE_URL …) reaches the function;
 * - `npm:` imports resolve from the repository's node_modules (no registry at run time);
 * - unknown functions 404, a throwing function 500 while the runner stays up, large bodies
 *   stream through, and a changed function file is picked up without restarting the stack.
 *
 * The probe function is written to supabase/functions/<temporary name>/ and removed afterwards.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../config.ts';
import { anonClient, clientWithToken, config, serviceClient, uniqueEmail } from '../../test-support/clients.ts';

const functionsUrl = `${config.apiUrl}/functions/v1`;
const probeName = `contract-probe-${randomUUID().slice(0, 8)}`;
const probeDir = path.join(ROOT_DIR, 'supabase', 'functions', probeName);
const brokenName = `${probeName}-broken`;
const brokenDir = path.join(ROOT_DIR, 'supabase', 'functions', brokenName);

function probeSource(version: string): string {
  return `// Temporary function written by scripts/local-stack/tests/functions.test.ts.
import { z } from 'npm:zod@^4';

const VERSION = '${version}';
const Greeting = z.object({ greeting: z.string().min(1) });

Deno.serve(async (req: Request) => {
  const url = new URL(req.url);
  if (url.pathname.endsWith('/throw')) throw new Error('boom from the contract probe');
  if (url.pathname.endsWith('/exit')) Deno.exit(3);
  if (url.pathname.endsWith('/background')) {
    const to = url.searchParams.get('to') ?? '';
    const runtime = (globalThis as unknown as { EdgeRuntime: { waitUntil(p: Promise<unknown>): void } }).EdgeRuntime;
    runtime.waitUntil((async () => {
      await new Promise((r) => setTimeout(r, 300));
      await fetch(\`\${Deno.env.get('RESEND_BASE_URL')}/emails\`, {
        method: 'POST',
        headers: { authorization: \`Bearer \${Deno.env.get('RESEND_API_KEY')}\`, 'content-type': 'application/json' },
        body: JSON.stringify({ from: 'probe@teamwerk.de', to, subject: 'background', text: 'sent after the response' }),
      });
    })());
    return Response.json({ accepted: true }, { status: 202 });
  }
  if (url.pathname.endsWith('/length')) {
    const bytes = new Uint8Array(await req.arrayBuffer());
    return Response.json({ length: bytes.byteLength, last: bytes[bytes.byteLength - 1] ?? null });
  }
  if (url.pathname.endsWith('/env')) {
    const names = ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY', 'SUPABASE_DB_URL', 'TOKEN_SECRET',
      'RESEND_BASE_URL', 'RESEND_API_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_HOST',
      'STRIPE_API_PORT', 'STRIPE_API_PROTOCOL', 'SITE_URL'];
    return Response.json(Object.fromEntries(names.map((n) => [n, Deno.env.get(n) ?? null])));
  }
  let parsed: unknown = null;
  if (req.method === 'POST') {
    const result = Greeting.safeParse(await req.json().catch(() => null));
    parsed = result.success ? result.data : { error: result.error.issues[0]?.message ?? 'invalid' };
  }
  return Response.json({
    version: VERSION,
    method: req.method,
    path: url.pathname,
    query: url.search,
    authorization: req.headers.get('authorization'),
    parsed,
  });
});
`;
}

async function signed(claims: Record<string, unknown>, secret: string, expiresAt: number): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(expiresAt - 3600)
    .setExpirationTime(expiresAt)
    .sign(new TextEncoder().encode(secret));
}

const now = () => Math.floor(Date.now() / 1000);

/** Calls the probe until it answers 200 (the runner may be reloading after the file appeared). */
async function waitForProbe(expectVersion: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const res = await fetch(`${functionsUrl}/${probeName}`, { headers: { authorization: `Bearer ${config.anonKey}` } }).catch(() => null);
    if (res?.status === 200) {
      const body = (await res.json()) as { version: string };
      if (body.version === expectVersion) return;
      last = body.version;
    } else if (res) {
      last = `${res.status}`;
      await res.body?.cancel();
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`probe did not answer version ${expectVersion} (last: ${last})`);
}

beforeAll(async () => {
  await mkdir(probeDir, { recursive: true });
  await writeFile(path.join(probeDir, 'index.ts'), probeSource('v1'));
  await waitForProbe('v1');
}, 60_000);

afterAll(async () => {
  await rm(probeDir, { recursive: true, force: true });
  await rm(brokenDir, { recursive: true, force: true });
});

describe('functions.invoke', () => {
  it('invokes health with the anon key (no user session)', async () => {
    const { data, error } = await anonClient().functions.invoke('health');
    expect(error).toBeNull();
    expect(data).toMatchObject({ status: 'ok', function: 'health' });
  });

  it('invokes health with a user JWT and without any Authorization or apikey (verify_jwt = false)', async () => {
    const userJwt = await signed({ sub: randomUUID(), role: 'authenticated', aud: 'authenticated' }, config.jwtSecret, now() + 600);
    const { data, error } = await clientWithToken(userJwt).functions.invoke('health', { method: 'GET' });
    expect(error).toBeNull();
    expect(data).toMatchObject({ status: 'ok' });

    const bare = await fetch(`${functionsUrl}/health`);
    expect(bare.status).toBe(200);
    expect(await bare.json()).toMatchObject({ status: 'ok' });
  });

  it('passes method, sub path, query, JSON body and Authorization to a verify_jwt function', async () => {
    const { data, error } = await serviceClient().functions.invoke(`${probeName}/sub/path?x=1&y=zwei`, {
      body: { greeting: 'Moin' },
    });
    expect(error).toBeNull();
    expect(data).toEqual({
      version: 'v1',
      method: 'POST',
      path: `/${probeName}/sub/path`,
      query: '?x=1&y=zwei',
      authorization: `Bearer ${config.serviceRoleKey}`,
      parsed: { greeting: 'Moin' },
    });
  });

  it('resolves npm: imports (zod) offline: invalid input is reported by the function', async () => {
    const { data, error } = await anonClient().functions.invoke(probeName, { body: { greeting: '' } });
    expect(error).toBeNull();
    expect((data as { parsed: { error: string } }).parsed.error).toMatch(/>=1|at least|too small/i);
  });

  it('gives functions the hosted env plus the secrets generated for this data folder', async () => {
    const { data, error } = await anonClient().functions.invoke(`${probeName}/env`, { method: 'GET' });
    expect(error).toBeNull();
    expect(data).toMatchObject({
      SUPABASE_URL: config.apiUrl,
      SUPABASE_ANON_KEY: config.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
      SUPABASE_DB_URL: config.dbUrl,
      TOKEN_SECRET: config.tokenSecret,
      RESEND_BASE_URL: config.mailboxUrl,
      RESEND_API_KEY: config.resendApiKey,
      STRIPE_SECRET_KEY: config.stripeSecretKey,
      STRIPE_WEBHOOK_SECRET: config.stripeWebhookSecret,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(config.ports.stripe),
      STRIPE_API_PROTOCOL: 'http',
      SITE_URL: config.siteUrl,
    });
    const env = data as Record<string, string | null>;
    expect(env.RESEND_API_KEY).toMatch(/^re_/);
    expect(env.STRIPE_SECRET_KEY).toMatch(/^sk_test_/);
    expect(env.STRIPE_WEBHOOK_SECRET).toMatch(/^whsec_/);
  });
});

describe('verify_jwt', () => {
  it('answers a request without Authorization with 401 Missing authorization header', async () => {
    const res = await fetch(`${functionsUrl}/${probeName}`, { method: 'POST', headers: { apikey: config.anonKey }, body: '{}' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 401, message: 'Missing authorization header' });
  });

  it('answers a JWT signed with another secret with 401 Invalid JWT (supabase-js sees FunctionsHttpError)', async () => {
    const forged = await signed({ sub: randomUUID(), role: 'service_role' }, 'another-secret-another-secret-another-secret', now() + 600);
    const { data, error } = await clientWithToken(forged).functions.invoke(probeName, { body: { greeting: 'x' } });
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const response = (error as FunctionsHttpError).context as Response;
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 401, message: 'Invalid JWT' });
  });

  it('answers an expired JWT and a malformed bearer with 401 Invalid JWT', async () => {
    const expired = await signed({ sub: randomUUID(), role: 'authenticated' }, config.jwtSecret, now() - 60);
    for (const token of [expired, 'not-a-jwt', `${config.anonKey}x`]) {
      const res = await fetch(`${functionsUrl}/${probeName}`, { headers: { apikey: config.anonKey, authorization: `Bearer ${token}` } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: 401, message: 'Invalid JWT' });
    }
  });

  it('cannot be bypassed through dot segments after a public function name', async () => {
    for (const rawPath of [`/functions/v1/health/../${probeName}`, `/functions/v1/health/%2e%2e/${probeName}`]) {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port: config.ports.gateway, path: rawPath, headers: { apikey: config.anonKey } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(401);
      expect(JSON.parse(body)).toEqual({ code: 401, message: 'Missing authorization header' });
    }
  });

  it('lets a valid user JWT through', async () => {
    const userJwt = await signed({ sub: randomUUID(), role: 'authenticated', aud: 'authenticated' }, config.jwtSecret, now() + 600);
    const { data, error } = await clientWithToken(userJwt).functions.invoke(probeName, { method: 'GET' });
    expect(error).toBeNull();
    expect((data as { authorization: string }).authorization).toBe(`Bearer ${userJwt}`);
  });
});

describe('runtime behaviour', () => {
  it('answers unknown functions and shared folders with 404 NOT_FOUND', async () => {
    for (const name of ['does-not-exist', '_shared', '..%2Fetc']) {
      const res = await fetch(`${functionsUrl}/${name}`, { headers: { authorization: `Bearer ${config.anonKey}`, apikey: config.anonKey } });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: 'NOT_FOUND', message: 'Requested function was not found' });
    }
    const { error } = await anonClient().functions.invoke('does-not-exist');
    expect(error).toBeInstanceOf(FunctionsHttpError);
    expect(((error as FunctionsHttpError).context as Response).status).toBe(404);
  });

  it('answers a throwing function with 500 and keeps serving', async () => {
    const res = await fetch(`${functionsUrl}/${probeName}/throw`, { headers: { authorization: `Bearer ${config.anonKey}` } });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: 'EDGE_FUNCTION_ERROR' });
    const { data, error } = await anonClient().functions.invoke('health');
    expect(error).toBeNull();
    expect(data).toMatchObject({ status: 'ok' });
  });

  it('answers Deno.exit in a function with 500 instead of stopping the runtime', async () => {
    const res = await fetch(`${functionsUrl}/${probeName}/exit`, { headers: { authorization: `Bearer ${config.anonKey}` } });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: 'EDGE_FUNCTION_ERROR' });
    const after = await fetch(`${functionsUrl}/${probeName}`, { headers: { authorization: `Bearer ${config.anonKey}` } });
    expect(after.status).toBe(200);
  });

  it('answers a function that fails at load time with 503 BOOT_ERROR; other functions keep working', async () => {
    await mkdir(brokenDir, { recursive: true });
    await writeFile(path.join(brokenDir, 'index.ts'), "throw new Error('boot failure');\nDeno.serve(() => new Response('never'));\n");
    // let the runner reload for the new folder first, so the functions below load after the failed one
    await new Promise((r) => setTimeout(r, 1500));
    const res = await fetch(`${functionsUrl}/${brokenName}`, { headers: { authorization: `Bearer ${config.anonKey}` } });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'BOOT_ERROR' });
    const { data, error } = await anonClient().functions.invoke('health');
    expect(error).toBeNull();
    expect(data).toMatchObject({ status: 'ok' });
    const probe = await fetch(`${functionsUrl}/${probeName}`, { headers: { authorization: `Bearer ${config.anonKey}` } });
    expect(probe.status).toBe(200);
  });

  it('runs EdgeRuntime.waitUntil work after the response (a mail reaches the mailbox via RESEND_BASE_URL)', async () => {
    const to = uniqueEmail('background');
    const res = await fetch(`${functionsUrl}/${probeName}/background?to=${encodeURIComponent(to)}`, {
      headers: { authorization: `Bearer ${config.anonKey}` },
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: true });
    const inbox = async () =>
      (await (await fetch(`${config.mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`)).json()) as { subject: string }[];
    expect(await inbox()).toEqual([]);
    const deadline = Date.now() + 10_000;
    let messages = await inbox();
    while (messages.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      messages = await inbox();
    }
    expect(messages).toEqual([expect.objectContaining({ subject: 'background' })]);
  });

  it('streams a 5 MiB request body to the function', async () => {
    const body = new Uint8Array(5 * 1024 * 1024).fill(7);
    body[body.length - 1] = 42;
    const res = await fetch(`${functionsUrl}/${probeName}/length`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.anonKey}`, 'content-type': 'application/octet-stream' },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ length: body.length, last: 42 });
  });

  it('serves the new code after the function file changes', async () => {
    await writeFile(path.join(probeDir, 'index.ts'), probeSource('v2'));
    await waitForProbe('v2');
    const { data, error } = await anonClient().functions.invoke(probeName, { method: 'GET' });
    expect(error).toBeNull();
    expect((data as { version: string }).version).toBe('v2');
  }, 30_000);
});

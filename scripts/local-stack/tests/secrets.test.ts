/**
 * Issue 12 §3 "no secret in the source": the local stack's secrets are generated per data folder
 * (scripts/local-stack/secrets.ts), the repository holds none of them nor the former in-source
 * values, and the running stack accepts only its own.
 *
 * - Two fresh data folders get different secrets; the file is 0600; re-reading gives the same
 *   values; a second store never replaces the first; the anon and service_role keys are HS256
 *   JWTs of the folder's JWT secret (verified with jose) with role, iss, iat and exp.
 * - Every file git tracks or would add (`git ls-files --cached --others --exclude-standard`) is
 *   free of the former in-source secrets and of this stack's generated ones.
 * - The running stack (gateway, Stripe sandbox, mailbox) refuses the former keys and takes its own.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errors, jwtVerify } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../config.ts';
import { config } from '../../test-support/clients.ts';

const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

/**
 * The secrets that used to be written in the source (public since then) and their tell-tale
 * prefixes, base64-encoded so that this file does not contain them itself: the JWT secret, the
 * `supabase start` demo keys (header + `{"iss":"supabase-demo`), the Stripe sandbox key and
 * webhook secret, the Resend key, the token secret and its constant's name.
 */
const FORMER_SECRETS = [
  'c3VwZXItc2VjcmV0LWp3dA==',
  'ZXlKaGJHY2lPaUpJVXpJMU5pSXNJblI1Y0NJNklrcFhWQ0o5LmV5SnBjM01pT2lKemRYQmhZbUZ6WlMxa1pXMXY=',
  'c2tfdGVzdF90ZWFtd2Vyaw==',
  'd2hzZWNfdGVhbXdlcms=',
  'cmVfdGVhbXdlcms=',
  'dGVhbXdlcmstbG9jYWwtdG9rZW4tc2VjcmV0',
  'TE9DQUxfVE9LRU5fU0VDUkVU',
].map(decode);

/** Full former values the running stack must refuse. */
const FORMER_ANON_KEY = decode(
  'ZXlKaGJHY2lPaUpJVXpJMU5pSXNJblI1Y0NJNklrcFhWQ0o5LmV5SnBjM01pT2lKemRYQmhZbUZ6WlMxa1pXMXZJaXdpY205c1pTSTZJbUZ1YjI0aUxDSmxlSEFpT2pFNU9ETTRNVEk1T1RaOS5DUlhQMUE3V09lb0plWHhqTm5pNDNrZFF3Z25XTlJlaWxETWJsWVRuX0kw',
);
const FORMER_SERVICE_ROLE_KEY = decode(
  'ZXlKaGJHY2lPaUpJVXpJMU5pSXNJblI1Y0NJNklrcFhWQ0o5LmV5SnBjM01pT2lKemRYQmhZbUZ6WlMxa1pXMXZJaXdpY205c1pTSTZJbk5sY25acFkyVmZjbTlzWlNJc0ltVjRjQ0k2TVRrNE16Z3hNams1Tm4wLkVHSU05NlJBWngzNWxKemRKc3lILXFRd3Y4SGRwN2ZzbjNXMFlwTjgxSVU=',
);
const FORMER_STRIPE_KEY = decode('c2tfdGVzdF90ZWFtd2Vya19sb2NhbF9zYW5kYm94');
const FORMER_RESEND_KEY = decode('cmVfdGVhbXdlcmtfbG9jYWw=');

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stack-secrets-'));
  tempDirs.push(dir);
  return path.join(dir, 'data');
}

describe('secrets per data folder', () => {
  it('two fresh data folders get their own secrets, stored 0600 and stable', async () => {
    const { loadOrCreateSecrets, readSecrets, secretsFile } = await import('../secrets.ts');
    const [dirA, dirB] = [tempDataDir(), tempDataDir()];
    expect(readSecrets(dirA)).toBeNull();
    const a = loadOrCreateSecrets(dirA);
    const b = loadOrCreateSecrets(dirB);

    for (const key of ['jwtSecret', 'anonKey', 'serviceRoleKey', 'tokenSecret', 'stripeSecretKey', 'stripeWebhookSecret', 'resendApiKey'] as const) {
      expect(a[key], key).not.toBe(b[key]);
    }
    for (const s of [a, b]) {
      expect(s.jwtSecret.length).toBeGreaterThanOrEqual(40);
      expect(s.tokenSecret.length).toBeGreaterThanOrEqual(32);
      expect(s.stripeSecretKey).toMatch(/^sk_test_\w{24,}$/);
      expect(s.stripeWebhookSecret).toMatch(/^whsec_\w{32,}$/);
      expect(s.resendApiKey).toMatch(/^re_\w{17,}$/);
    }
    for (const dir of [dirA, dirB]) expect(fs.statSync(secretsFile(dir)).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecrets(dirA)).toEqual(a);
  });

  it('a second store keeps the first secrets (concurrent first reads agree)', async () => {
    const { generateSecrets, readSecrets, storeSecrets } = await import('../secrets.ts');
    const dir = tempDataDir();
    const first = generateSecrets();
    expect(storeSecrets(dir, first)).toEqual(first);
    expect(storeSecrets(dir, generateSecrets())).toEqual(first);
    expect(readSecrets(dir)).toEqual(first);
    expect(fs.readdirSync(dir)).toEqual(['secrets.json']);
  });

  it('the anon and service_role keys are HS256 JWTs of the folder’s secret with role, iss, iat and exp', async () => {
    const { loadOrCreateSecrets } = await import('../secrets.ts');
    const own = loadOrCreateSecrets(tempDataDir());
    const other = loadOrCreateSecrets(tempDataDir());
    const key = new TextEncoder().encode(own.jwtSecret);
    const now = Math.floor(Date.now() / 1000);
    for (const [token, role] of [[own.anonKey, 'anon'], [own.serviceRoleKey, 'service_role']] as const) {
      const { payload, protectedHeader } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
      expect(payload.role).toBe(role);
      expect(payload.iss).toBe('supabase');
      expect(Math.abs((payload.iat ?? 0) - now)).toBeLessThan(120);
      expect(payload.exp).toBeGreaterThan(now + 5 * 365 * 24 * 3600);
      await expect(jwtVerify(token, new TextEncoder().encode(other.jwtSecret))).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
    }
  });

  it('the stack config carries the data folder’s secrets', async () => {
    const { readSecrets } = await import('../secrets.ts');
    const stored = readSecrets(config.dataDir);
    expect(stored).not.toBeNull();
    expect({
      jwtSecret: config.jwtSecret,
      anonKey: config.anonKey,
      serviceRoleKey: config.serviceRoleKey,
      tokenSecret: config.tokenSecret,
      stripeSecretKey: config.stripeSecretKey,
      stripeWebhookSecret: config.stripeWebhookSecret,
      resendApiKey: config.resendApiKey,
    }).toEqual({ ...stored, createdAt: undefined });
    expect(fs.statSync(config.secretsFile).mode & 0o777).toBe(0o600);
  });
});

describe('the repository holds no secret', () => {
  it('no file git tracks or would add contains a former in-source secret or one of this stack’s', () => {
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT_DIR, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
      .split('\0')
      .filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    const current = [config.jwtSecret, config.anonKey, config.serviceRoleKey, config.tokenSecret, config.stripeSecretKey, config.stripeWebhookSecret, config.resendApiKey]
      .filter((s): s is string => typeof s === 'string' && s.length > 0);
    const needles = [...FORMER_SECRETS.map((s) => ({ what: `former secret ${s.slice(0, 12)}…`, s })), ...current.map((s) => ({ what: `this stack's secret ${s.slice(0, 12)}…`, s }))];
    const hits: string[] = [];
    for (const file of files) {
      const abs = path.join(ROOT_DIR, file);
      if (!fs.existsSync(abs) || !fs.statSync(abs).isFile()) continue;
      const text = fs.readFileSync(abs, 'latin1');
      for (const { what, s } of needles) if (text.includes(s)) hits.push(`${file}: ${what}`);
    }
    expect(hits).toEqual([]);
  });
});

describe('the running stack accepts only its own keys', () => {
  it('gateway: the former demo keys are refused, the generated ones accepted', async () => {
    for (const key of [FORMER_ANON_KEY, FORMER_SERVICE_ROLE_KEY]) {
      const res = await fetch(`${config.apiUrl}/rest/v1/prices?select=id&limit=1`, { headers: { apikey: key, Authorization: `Bearer ${key}` } });
      expect(res.status).toBe(401);
    }
    for (const key of [config.anonKey, config.serviceRoleKey]) {
      const res = await fetch(`${config.apiUrl}/rest/v1/prices?select=id&limit=1`, { headers: { apikey: key, Authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
    }
  });

  it('Stripe sandbox and mailbox: the former keys are refused, the generated ones accepted', async () => {
    const stripeAs = (key: string) => fetch(`${config.stripeUrl}/v1/customers?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
    expect((await stripeAs(FORMER_STRIPE_KEY)).status).toBe(401);
    expect((await stripeAs(config.stripeSecretKey)).status).toBe(200);

    const mailAs = (key: string) => fetch(`${config.mailboxUrl}/emails`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'noreply@teamwerk.de', to: ['secrets-test@test.teamwerk.local'], subject: 'key check', text: 'key check' }),
    });
    expect((await mailAs(FORMER_RESEND_KEY)).status).toBe(403);
    expect((await mailAs(config.resendApiKey)).status).toBe(200);
  });
});

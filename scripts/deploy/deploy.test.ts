/**
 * The deploy script's input checks and its production config (issue 29 "One deploy command"):
 * the example env file passes a dry run; a missing or malformed input is named and the run exits
 * non-zero; the production config.toml carries the production values and no secret.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { main } from './deploy.ts';
import { DeployInputs } from './inputs.ts';
import { productionConfigToml } from './production-config.ts';

const EXAMPLE = 'supabase/deploy.env.example';
let errors: string[];
let logs: string[];

beforeEach(() => {
  errors = [];
  logs = [];
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void logs.push(a.join(' ')));
});
afterEach(() => vi.restoreAllMocks());

/** The example file with `changes` applied (`null` removes a line), written to a temporary file. */
function envFile(changes: Record<string, string | null>): string {
  const lines = fs.readFileSync(EXAMPLE, 'utf8').split('\n').filter((l) => {
    const key = l.split('=')[0]!;
    return !(key in changes && changes[key] === null);
  }).map((l) => {
    const key = l.split('=')[0]!;
    return key in changes && changes[key] !== null ? `${key}=${changes[key]}` : l;
  });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-test-')), 'deploy.env');
  fs.writeFileSync(file, lines.join('\n'));
  return file;
}

describe('npm run deploy -- --dry-run', () => {
  test('the example inputs pass and every step is printed, secrets redacted', async () => {
    expect(await main(['--dry-run', '--env-file', EXAMPLE])).toBe(0);
    const out = logs.join('\n');
    for (const step of ['db push', 'config push', 'security_sb_forwarded_for_enabled', 'private_only', 'webhook endpoint', 'customer portal', 'TOKEN_SECRET', 'functions deploy', 'npm run build -w frontend', 'functions/v1/health']) {
      expect(out).toContain(step);
    }
    const example = parseEnv(fs.readFileSync(EXAMPLE, 'utf8'));
    for (const secret of ['TOKEN_SECRET', 'STRIPE_SECRET_KEY', 'RESEND_API_KEY', 'SUPABASE_ACCESS_TOKEN', 'GOOGLE_CLIENT_SECRET', 'CAPTCHA_SECRET']) {
      expect(out, secret).not.toContain(example[secret]);
    }
    expect(errors).toEqual([]);
  });

  test('a missing and a malformed input are named, and the run fails', async () => {
    const file = envFile({ TOKEN_SECRET: null, STRIPE_SECRET_KEY: 'pk_test_wrong', SITE_URL: 'http://teamwerk.example', GOOGLE_CLIENT_SECRET: '' });
    expect(await main(['--dry-run', '--env-file', file])).toBe(1);
    const out = errors.join('\n');
    expect(out).toContain('TOKEN_SECRET: is missing');
    expect(out).toMatch(/STRIPE_SECRET_KEY: must be a Stripe secret key/);
    expect(out).toMatch(/SITE_URL: must be an https:\/\/ URL/);
    expect(out).toMatch(/GOOGLE_CLIENT_SECRET: is required together with GOOGLE_CLIENT_ID/);
    expect(logs.join('\n')).not.toContain('config push');
  });

  test('a real run needs a well-formed project ref', async () => {
    expect(await main(['--env-file', EXAMPLE])).toBe(1);
    expect(errors.join('\n')).toContain('--project-ref: is missing');
    expect(await main(['--project-ref', 'Not-A-Ref', '--env-file', EXAMPLE])).toBe(1);
    expect(errors.join('\n')).toContain('is no project ref');
  });
});

describe('production config.toml', () => {
  const inputs = DeployInputs.parse(parseEnv(fs.readFileSync(EXAMPLE, 'utf8')));
  const toml = productionConfigToml(fs.readFileSync('supabase/config.toml', 'utf8'), inputs);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed TOML document, inspected field by field
  const config = parse(toml) as { auth: Record<string, any>; db: Record<string, any> };

  test('production site and redirect URLs, SMTP through Resend, providers on only with credentials, the cron Vault secrets', () => {
    expect(config.auth.site_url).toBe('https://teamwerk.example');
    expect(config.auth.additional_redirect_urls).toEqual(expect.arrayContaining(['https://teamwerk.example/**', 'https://www.teamwerk.example']));
    expect(JSON.stringify(config.auth)).not.toMatch(/127\.0\.0\.1|localhost/);
    expect(config.auth.email.smtp).toMatchObject({ enabled: true, host: 'smtp.resend.com', pass: 'env(RESEND_API_KEY)', admin_email: 'noreply@teamwerk.example' });
    expect(config.auth.external.google.enabled).toBe(true);
    expect(config.auth.external.linkedin_oidc.enabled).toBe(false);
    expect(config.auth.hook.custom_access_token.enabled).toBe(true);
    expect(config.auth.hook.send_email).toMatchObject({ enabled: true, uri: 'pg-functions://postgres/public/send_email_hook' });
    expect(config.db.vault).toEqual({ project_url: 'env(PROJECT_URL)', service_role_key: 'env(CRON_SERVICE_KEY)' });
  });

  test('holds no secret value', () => {
    for (const value of [inputs.RESEND_API_KEY, inputs.GOOGLE_CLIENT_SECRET!, inputs.TOKEN_SECRET, inputs.STRIPE_SECRET_KEY]) expect(toml).not.toContain(value);
  });
});

/**
 * The local stack's secrets (issue 12 §3): generated once per data folder, never written in the
 * source. `supabase start` and hosted projects have their own; this stack makes its own.
 *
 * `<dataDir>/secrets.json` (mode 0600, JSON) holds:
 * - `jwtSecret`: the HS256 secret of every JWT (auth, PostgREST, storage, realtime, the gateway's
 *   apikey check, the functions' verify_jwt), 64 random base64url characters;
 * - `anonKey`, `serviceRoleKey`: JWTs signed with it (HS256, claims `role` anon / service_role,
 *   `iss` 'supabase', `iat` = creation, `exp` = creation + 10 years), as Supabase issues them
 *   (the legacy JWT-based API keys; the opaque `sb_publishable_…` / `sb_secret_…` keys are
 *   derived from `jwtSecret` by `opaqueApiKeys`, so older secrets files keep working);
 * - `tokenSecret`: TOKEN_SECRET of the Edge Functions (confirm/reset tokens), 64 characters;
 * - `stripeSecretKey` (`sk_test_…`) and `stripeWebhookSecret` (`whsec_…`) of the Stripe sandbox;
 * - `resendApiKey` (`re_…`): the key the mailbox accepts on its Resend API;
 * - `createdAt` (ISO time).
 *
 * The file is created on the first `stackConfig()` (or stack start) for a data folder;
 * `npm run stack:reset` deletes the data folder and so the next start gets new secrets.
 * Several processes may ask at once: the file appears atomically (hard link of a complete
 * temporary file), so every reader gets the same secrets.
 */
import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Validity of the generated anon and service_role keys: 10 years (seconds). */
export const API_KEY_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;
/** Issuer claim of the generated keys (the one hosted Supabase keys carry). */
export const API_KEY_ISSUER = 'supabase';

const SecretsSchema = z.object({
  jwtSecret: z.string().min(40),
  anonKey: z.string().regex(/^[\w-]+\.[\w-]+\.[\w-]+$/),
  serviceRoleKey: z.string().regex(/^[\w-]+\.[\w-]+\.[\w-]+$/),
  tokenSecret: z.string().min(32),
  stripeSecretKey: z.string().regex(/^sk_test_\w{24,}$/),
  stripeWebhookSecret: z.string().regex(/^whsec_\w{32,}$/),
  resendApiKey: z.string().regex(/^re_\w{17,}$/),
  createdAt: z.string(),
});

/** The secrets of one data folder (see the module comment). */
export type StackSecrets = z.infer<typeof SecretsSchema>;

/**
 * The opaque API keys of a data folder (Supabase's newer key kind: `sb_publishable_…` stands for
 * the anon role, `sb_secret_…` for service_role; the gateway swaps them for the JWTs, as the
 * CLI's Kong does, supabase/cli `internal/start/templates/kong.yml` + `start.go` BearerToken).
 * Derived from `jwtSecret` with HMAC-SHA256, so they need no field of their own. Pure.
 */
export function opaqueApiKeys(jwtSecret: string): { publishableKey: string; secretKey: string } {
  const derive = (label: string) => createHmac('sha256', jwtSecret).update(label).digest('base64url').slice(0, 32);
  return { publishableKey: `sb_publishable_${derive('publishable')}`, secretKey: `sb_secret_${derive('secret')}` };
}

/** Path of the secrets file of a data folder. */
export function secretsFile(dataDir: string): string {
  return path.join(dataDir, 'secrets.json');
}

/**
 * Signs the anon and service_role keys with jose (HS256). jose only signs asynchronously and
 * `stackConfig()` is synchronous, so this runs jose in a short-lived child process of the same
 * runtime (Node, or `deno eval` when called from Deno tests); the secret goes over stdin.
 * Errors: throws when the child fails.
 */
function signApiKeys(jwtSecret: string, iat: number): { anonKey: string; serviceRoleKey: string } {
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
  const script = `
    import { readFileSync } from 'node:fs';
    import { SignJWT } from 'jose';
    const { secret, iat, exp, iss } = JSON.parse(readFileSync(0, 'utf8'));
    const key = new TextEncoder().encode(secret);
    const sign = (role) => new SignJWT({ role }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(iss).setIssuedAt(iat).setExpirationTime(exp).sign(key);
    process.stdout.write(JSON.stringify({ anonKey: await sign('anon'), serviceRoleKey: await sign('service_role') }));
  `;
  const input = JSON.stringify({ secret: jwtSecret, iat, exp: iat + API_KEY_LIFETIME_SECONDS, iss: API_KEY_ISSUER });
  const [command, args] = deno ? [deno.execPath(), ['eval', '--ext=js', script]] : [process.execPath, ['--input-type=module', '--eval', script]];
  const out = execFileSync(command, args, {
    cwd: REPO_ROOT,
    input,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 30_000,
  });
  return JSON.parse(out) as { anonKey: string; serviceRoleKey: string };
}

/** New random secrets (see the module comment); `now` in milliseconds since the epoch. */
export function generateSecrets(now = Date.now()): StackSecrets {
  const jwtSecret = randomBytes(48).toString('base64url');
  const iat = Math.floor(now / 1000);
  return {
    jwtSecret,
    ...signApiKeys(jwtSecret, iat),
    tokenSecret: randomBytes(48).toString('base64url'),
    stripeSecretKey: `sk_test_${randomBytes(24).toString('hex')}`,
    stripeWebhookSecret: `whsec_${randomBytes(24).toString('hex')}`,
    resendApiKey: `re_${randomBytes(16).toString('hex')}`,
    createdAt: new Date(now).toISOString(),
  };
}

/**
 * Reads the secrets of `dataDir`; null when the folder has none yet.
 * Errors: throws when the file exists but is not a valid secrets file.
 */
export function readSecrets(dataDir: string): StackSecrets | null {
  const file = secretsFile(dataDir);
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let parsed: ReturnType<typeof SecretsSchema.safeParse>;
  try {
    parsed = SecretsSchema.safeParse(JSON.parse(raw));
  } catch {
    parsed = SecretsSchema.safeParse(null);
  }
  if (!parsed.success) {
    throw new Error(`${file} is not a valid secrets file (${parsed.error.issues[0]?.message}); delete it or run npm run stack:reset`);
  }
  return parsed.data;
}

/**
 * Stores `secrets` for `dataDir` unless the folder already has secrets (then nothing changes).
 * Output: the secrets the folder has afterwards (the given ones, or those stored before).
 */
export function storeSecrets(dataDir: string, secrets: StackSecrets): StackSecrets {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = secretsFile(dataDir);
  const tmp = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.chmodSync(tmp, 0o600);
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return readSecrets(dataDir)!;
}

/**
 * The secrets of `dataDir`, generated and stored (mode 0600) when the folder has none yet.
 * Synchronous. Errors: throws on an invalid secrets file or when generating fails.
 */
export function loadOrCreateSecrets(dataDir: string): StackSecrets {
  return readSecrets(dataDir) ?? storeSecrets(dataDir, generateSecrets());
}

/**
 * Local stack configuration: ports, keys, paths.
 *
 * The keys and secrets are generated once per data folder (`<dataDir>/secrets.json`, see
 * secrets.ts; issue 12 §3): nothing secret lives in the source. `npm run stack:status` prints
 * them; the same variable names work against `supabase start` or a hosted project with their
 * values.
 *
 * `TEAMWERK_STACK_OFFSET` (integer, default 0) shifts every port by that amount and gives the
 * stack its own data folder, so several stacks can run side by side (e.g. one per developer
 * session or test worker). Ports stay on 127.0.0.1 only.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOrCreateSecrets, opaqueApiKeys, secretsFile } from './secrets.ts';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface StackConfig {
  offset: number;
  host: '127.0.0.1';
  dataDir: string;
  ports: {
    gateway: number;
    db: number;
    mailbox: number;
    stripe: number;
    postgrest: number;
    postgrestAdmin: number;
    functions: number;
  };
  db: { user: string; password: string; database: string };
  /** postgres superuser URL (what `supabase status` calls DB URL). */
  dbUrl: string;
  apiUrl: string;
  mailboxUrl: string;
  stripeUrl: string;
  /** HS256 secret of every JWT of the stack (generated per data folder). */
  jwtSecret: string;
  /** anon and service_role keys, signed with `jwtSecret`. */
  anonKey: string;
  serviceRoleKey: string;
  /** The opaque API keys (`sb_publishable_…` for anon, `sb_secret_…` for service_role). */
  publishableKey: string;
  secretKey: string;
  /** TOKEN_SECRET of the Edge Functions (confirm/reset tokens). */
  tokenSecret: string;
  /** The Stripe sandbox's secret key (`sk_test_…`) and webhook signing secret (`whsec_…`). */
  stripeSecretKey: string;
  stripeWebhookSecret: string;
  /** The key the mailbox accepts on its Resend API (`re_…`). */
  resendApiKey: string;
  /** `<dataDir>/secrets.json` (mode 0600), where the secrets above live. */
  secretsFile: string;
  /** Where the SPA runs (site_url for auth redirects). */
  siteUrl: string;
  stateFile: string;
  logFile: string;
}

/**
 * Builds the config for the stack instance selected by TEAMWERK_STACK_OFFSET. Synchronous; reads
 * the data folder's secrets and creates them when the folder has none yet.
 * Errors: throws when the offset moves a port out of range or the secrets file is invalid.
 */
export function stackConfig(env: NodeJS.ProcessEnv = process.env): StackConfig {
  const offset = Number.parseInt(env.TEAMWERK_STACK_OFFSET ?? '0', 10) || 0;
  const p = (n: number) => n + offset;
  const dataDir = path.join(ROOT_DIR, '.stack', offset === 0 ? 'default' : `offset-${offset}`);
  const ports = {
    gateway: p(54321),
    db: p(54322),
    mailbox: p(54324),
    stripe: p(12111),
    postgrest: p(54330),
    postgrestAdmin: p(54331),
    functions: p(54332),
  };
  const highest = Math.max(...Object.values(ports), p(5173));
  if (offset < -12000 || highest > 65535) {
    throw new Error(`TEAMWERK_STACK_OFFSET=${offset} moves ports out of range (highest ${highest} > 65535); use at most 11000`);
  }
  const secrets = loadOrCreateSecrets(dataDir);
  const db = { user: 'postgres', password: 'postgres', database: 'postgres' };
  const host = '127.0.0.1' as const;
  return {
    offset,
    host,
    dataDir,
    ports,
    db,
    dbUrl: `postgresql://${db.user}:${db.password}@${host}:${ports.db}/${db.database}`,
    apiUrl: `http://${host}:${ports.gateway}`,
    mailboxUrl: `http://${host}:${ports.mailbox}`,
    stripeUrl: `http://${host}:${ports.stripe}`,
    jwtSecret: secrets.jwtSecret,
    anonKey: secrets.anonKey,
    serviceRoleKey: secrets.serviceRoleKey,
    ...opaqueApiKeys(secrets.jwtSecret),
    tokenSecret: secrets.tokenSecret,
    stripeSecretKey: secrets.stripeSecretKey,
    stripeWebhookSecret: secrets.stripeWebhookSecret,
    resendApiKey: secrets.resendApiKey,
    secretsFile: secretsFile(dataDir),
    siteUrl: env.SITE_URL ?? `http://${host}:${p(5173)}`,
    stateFile: path.join(dataDir, 'state.json'),
    logFile: path.join(dataDir, 'stack.log'),
  };
}

/**
 * Local stack configuration: ports, keys, paths.
 *
 * The keys are the well-known `supabase start` defaults, so the same `.env` works against this
 * stack, `supabase start` and (with other values) a hosted project.
 *
 * `TEAMWERK_STACK_OFFSET` (integer, default 0) shifts every port by that amount and gives the
 * stack its own data folder, so several stacks can run side by side (e.g. one per developer
 * session or test worker). Ports stay on 127.0.0.1 only.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The `supabase start` JWT secret (HS256). */
export const JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
/** `supabase start` demo anon key (role anon, exp 2032). */
export const ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';
/** `supabase start` demo service_role key (role service_role, exp 2032). */
export const SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';
/** Stripe sandbox test secret key and webhook signing secret. */
export const STRIPE_SECRET_KEY = 'sk_test_teamwerk_local_sandbox';
export const STRIPE_WEBHOOK_SECRET = 'whsec_teamwerk_local_sandbox_secret';
/** Resend API key accepted by the mailbox. */
export const RESEND_API_KEY = 're_teamwerk_local';

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
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  /** Where the SPA runs (site_url for auth redirects). */
  siteUrl: string;
  stateFile: string;
  logFile: string;
}

/** Builds the config for the stack instance selected by TEAMWERK_STACK_OFFSET. */
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
    jwtSecret: JWT_SECRET,
    anonKey: ANON_KEY,
    serviceRoleKey: SERVICE_ROLE_KEY,
    siteUrl: env.SITE_URL ?? `http://${host}:${p(5173)}`,
    stateFile: path.join(dataDir, 'state.json'),
    logFile: path.join(dataDir, 'stack.log'),
  };
}

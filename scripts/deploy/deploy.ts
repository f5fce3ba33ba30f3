/**
 * `npm run deploy -- --project-ref <ref> --env-file <file> [--dry-run]`: the whole path of a
 * production deploy to a hosted Supabase project (issue 29 "One deploy command"), in order:
 *
 *  1. validate every input (inputs.ts; a missing or malformed one is named, exit 1)
 *  2. fetch the project's API keys (Management API): the publishable key for the SPA, the secret key
 *     for pg_cron's calls and IP forwarding
 *  3. the sender domain of EMAIL_FROM is verified in Resend (else every product mail bounces)
 *  4. `supabase db push`: the Vault secrets `project_url` and `service_role_key` of the pg_cron jobs
 *     (`[db.vault]` of the production config; without them the jobs fail loudly and
 *     /functions/v1/health answers 503), then the migrations
 *  5. `supabase config push` with the production config.toml (production-config.ts)
 *  6. Auth and Realtime settings config.toml cannot carry (Management API): IP address forwarding
 *     (Sb-Forwarded-For from login-check), private-only Realtime channels
 *  7. Stripe: products and prices (scripts/stripe/sync-prices.ts), the webhook endpoint and the
 *     customer-portal configuration (stripe-setup.ts)
 *  8. `supabase secrets set` (function secrets; required ones refuse to deploy when missing)
 *  9. `supabase functions deploy` (every function, with the import map deno.json)
 * 10. the SPA build (`frontend/dist`) with VITE_SUPABASE_URL and the publishable key
 * 11. `GET /functions/v1/health` must answer 200
 *
 * `--dry-run` validates every input and prints every step (secrets redacted) without touching the
 * network or the project; CI runs it with `supabase/deploy.env.example`. The Supabase CLI runs in a
 * temporary workdir whose `supabase/config.toml` is the production config (secrets as `env(NAME)`,
 * resolved from the environment given to the CLI) and whose migrations and functions link to the
 * repository's.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import Stripe from 'stripe';
import { PROJECT_REF, readDeployInputs, type DeployInputs } from './inputs.ts';
import { productionConfigToml, sender } from './production-config.ts';
import { ensureProductPortalConfiguration, ensureWebhookEndpoint, PORTAL_PLANS } from './stripe-setup.ts';
import { STRIPE_API_VERSION, syncPrices } from '../stripe/sync-prices.ts';
import { supabaseCliBinary } from '../local-stack/migrate.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MANAGEMENT_API = 'https://api.supabase.com/v1';

/** What a step needs at run time; filled as steps run (keys come from step 2, the webhook secret from step 7). */
interface DeployState {
  ref: string;
  inputs: DeployInputs;
  workdir: string;
  apiUrl: string;
  publishableKey: string | null;
  secretKey: string | null;
  webhookSecret: string | null;
  portalConfiguration: string | null;
}

interface Step {
  title: string;
  /** What the step does, as printed by the dry run (no secret values). */
  describe: (s: DeployState) => string[];
  run: (s: DeployState) => Promise<void>;
}

/** Redacts a secret for printing: its first characters and its length. */
function redact(value: string): string {
  return `${value.slice(0, Math.min(6, value.length))}… (${value.length} characters)`;
}

/** Calls the Management API. Errors: throws with the status and body on a non-2xx answer. */
async function management(s: DeployState, method: string, pathname: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${MANAGEMENT_API}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${s.inputs.SUPABASE_ACCESS_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : null;
}

/** Runs the Supabase CLI in the deploy workdir with the secrets config.toml refers to. Errors: throws on a non-zero exit. */
function cli(s: DeployState, args: string[]): void {
  const result = spawnSync(supabaseCliBinary(), [...args, '--workdir', s.workdir], {
    stdio: 'inherit',
    env: { ...process.env, ...cliEnv(s), SUPABASE_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error(`supabase ${args[0]} ${args[1] ?? ''} exited with ${result.status ?? result.signal}`);
}

/** The environment of the CLI: the access token and every secret the production config names as env(). */
function cliEnv(s: DeployState): Record<string, string> {
  const i = s.inputs;
  const env: Record<string, string> = {
    SUPABASE_ACCESS_TOKEN: i.SUPABASE_ACCESS_TOKEN,
    RESEND_API_KEY: i.RESEND_API_KEY,
    PROJECT_URL: s.apiUrl,
    CRON_SERVICE_KEY: s.secretKey ?? '',
  };
  for (const k of ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'LINKEDIN_CLIENT_ID', 'LINKEDIN_CLIENT_SECRET'] as const) env[k] = i[k] ?? '';
  return env;
}

/** The function secrets (name → value); `null` values are required secrets that are still unknown. */
function functionSecrets(s: DeployState): Record<string, string | null> {
  const i = s.inputs;
  return {
    SITE_URL: i.SITE_URL,
    TOKEN_SECRET: i.TOKEN_SECRET,
    STRIPE_SECRET_KEY: i.STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: s.webhookSecret ?? i.STRIPE_WEBHOOK_SECRET ?? null,
    STRIPE_PORTAL_CONFIGURATION: s.portalConfiguration,
    RESEND_API_KEY: i.RESEND_API_KEY,
    EMAIL_FROM: i.EMAIL_FROM,
    ...(i.CAPTCHA_PROVIDER ? { CAPTCHA_PROVIDER: i.CAPTCHA_PROVIDER, CAPTCHA_SECRET: i.CAPTCHA_SECRET ?? null } : {}),
  };
}

/** The domain of the sender address (EMAIL_FROM). */
function senderDomain(s: DeployState): string {
  return sender(s.inputs.EMAIL_FROM).address.split('@')[1]!.toLowerCase();
}

function stripeClient(s: DeployState): Stripe {
  return new Stripe(s.inputs.STRIPE_SECRET_KEY, { apiVersion: STRIPE_API_VERSION as Stripe.LatestApiVersion, maxNetworkRetries: 2 });
}

const STEPS: Step[] = [
  {
    title: 'API keys of the project',
    describe: (s) => [`GET ${MANAGEMENT_API}/projects/${s.ref}/api-keys?reveal=true → the publishable key (SPA) and the secret key (pg_cron, Sb-Forwarded-For)`],
    run: async (s) => {
      const keys = (await management(s, 'GET', `/projects/${s.ref}/api-keys?reveal=true`)) as { type?: string; api_key?: string }[];
      s.publishableKey = keys.find((k) => k.type === 'publishable')?.api_key ?? null;
      s.secretKey = keys.find((k) => k.type === 'secret')?.api_key ?? null;
      if (!s.publishableKey || !s.secretKey) throw new Error('the project has no publishable or no secret API key: create them under Project Settings → API Keys');
    },
  },
  {
    title: 'Resend sender domain',
    describe: (s) => [`GET https://api.resend.com/domains: the domain of EMAIL_FROM (${senderDomain(s)}) must be verified, or every product mail bounces`],
    run: async (s) => {
      const res = await fetch('https://api.resend.com/domains', { headers: { authorization: `Bearer ${s.inputs.RESEND_API_KEY}` } });
      if (!res.ok) throw new Error(`Resend answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      const domains = ((await res.json()) as { data?: { name: string; status: string }[] }).data ?? [];
      const domain = domains.find((d) => d.name === senderDomain(s));
      if (domain?.status !== 'verified') throw new Error(`the sender domain ${senderDomain(s)} is ${domain ? domain.status : 'not set up'} in Resend`);
    },
  },
  {
    title: 'Vault secrets and database migrations',
    describe: (s) => [
      `supabase db push --remote=postgresql://…@${new URL(s.inputs.SUPABASE_DB_URL).host}/… --include-all`,
      `  Vault ([db.vault]): project_url = ${s.apiUrl}, service_role_key = <the secret key from step 1>`,
      '  then supabase/migrations',
    ],
    run: async (s) => cli(s, ['db', 'push', `--remote=${s.inputs.SUPABASE_DB_URL}`, '--include-all', '--yes']),
  },
  {
    title: 'Auth, API and storage configuration (config.toml)',
    describe: (s) => [`supabase config push --remote=${s.ref} with this supabase/config.toml:`, ...productionConfig(s).split('\n').map((l) => `    ${l}`)],
    run: async (s) => cli(s, ['config', 'push', `--remote=${s.ref}`, '--yes']),
  },
  {
    title: 'Settings config.toml cannot carry',
    describe: (s) => [
      `PATCH ${MANAGEMENT_API}/projects/${s.ref}/config/auth {"security_sb_forwarded_for_enabled":true}`,
      `PATCH ${MANAGEMENT_API}/projects/${s.ref}/config/realtime {"private_only":true}`,
    ],
    run: async (s) => {
      await management(s, 'PATCH', `/projects/${s.ref}/config/auth`, { security_sb_forwarded_for_enabled: true });
      await management(s, 'PATCH', `/projects/${s.ref}/config/realtime`, { private_only: true });
    },
  },
  {
    title: 'Stripe: prices, webhook endpoint, customer portal',
    describe: (s) => [
      `sync public.prices and public.seat_prices to Stripe (${s.inputs.STRIPE_SECRET_KEY.startsWith('sk_live_') ? 'live' : 'test'} mode)`,
      `webhook endpoint ${s.apiUrl}/functions/v1/stripe-webhook (created when missing; its signing secret becomes STRIPE_WEBHOOK_SECRET)`,
      `customer portal: switches between ${PORTAL_PLANS.join(' and ')} in every billing period, cancel at period end`,
    ],
    run: async (s) => {
      const stripe = stripeClient(s);
      await syncPrices(null, { stripe, dbUrl: s.inputs.SUPABASE_DB_URL, log: (line) => console.log(`    ${line}`) });
      const endpoint = await ensureWebhookEndpoint(stripe, `${s.apiUrl}/functions/v1/stripe-webhook`);
      s.webhookSecret = endpoint.secret;
      const db = new pg.Client({ connectionString: s.inputs.SUPABASE_DB_URL });
      await db.connect();
      try {
        s.portalConfiguration = await ensureProductPortalConfiguration(stripe, db, s.inputs.SITE_URL);
      } finally {
        await db.end();
      }
    },
  },
  {
    title: 'Function secrets',
    describe: (s) => Object.entries(functionSecrets(s)).map(([k, v]) => `${k} = ${v === null ? '<from the Stripe step>' : k === 'SITE_URL' || k === 'EMAIL_FROM' ? v : redact(v)}`),
    run: async (s) => {
      const secrets = functionSecrets(s);
      const missing = Object.entries(secrets).filter(([, v]) => !v).map(([k]) => k);
      if (missing.length) throw new Error(`refusing to deploy without ${missing.join(', ')} (STRIPE_WEBHOOK_SECRET: the endpoint existed, so put its signing secret into the env file)`);
      const file = path.join(s.workdir, 'functions.env');
      fs.writeFileSync(file, Object.entries(secrets).map(([k, v]) => `${k}=${v}`).join('\n'), { mode: 0o600 });
      try {
        cli(s, ['secrets', 'set', `--remote=${s.ref}`, '--env-file', file]);
      } finally {
        fs.rmSync(file, { force: true });
      }
    },
  },
  {
    title: 'Edge Functions',
    describe: (s) => [`supabase functions deploy --remote=${s.ref} --use-api --import-map deno.json (${functionNames().length} functions: ${functionNames().join(', ')})`],
    run: async (s) => cli(s, ['functions', 'deploy', `--remote=${s.ref}`, '--use-api', '--import-map', path.join(ROOT, 'deno.json'), '--yes']),
  },
  {
    title: 'SPA build',
    describe: (s) => [
      `VITE_SUPABASE_URL=${s.apiUrl} VITE_SUPABASE_ANON_KEY=<the publishable key> VITE_SITE_URL=${s.inputs.SITE_URL}${s.inputs.VITE_MAP_STYLE_URL ? ` VITE_MAP_STYLE_URL=${s.inputs.VITE_MAP_STYLE_URL}` : ''} TEAMWERK_COMPANY_FILE=${s.inputs.COMPANY_FILE} npm run build -w frontend`,
      'serve frontend/dist from a static host: fallback to index.html; rewrite /sitemap.xml, /index-sitemap.xml, /en-sitemap.xml, /de-sitemap.xml and /robots.txt to the sitemap function',
    ],
    run: async (s) => {
      const env = { ...process.env, VITE_SUPABASE_URL: s.apiUrl, VITE_SUPABASE_ANON_KEY: s.publishableKey!, VITE_SITE_URL: s.inputs.SITE_URL, TEAMWERK_COMPANY_FILE: s.inputs.COMPANY_FILE, ...(s.inputs.VITE_MAP_STYLE_URL ? { VITE_MAP_STYLE_URL: s.inputs.VITE_MAP_STYLE_URL } : {}) };
      const result = spawnSync('npm', ['run', 'build', '-w', 'frontend'], { cwd: ROOT, stdio: 'inherit', env });
      if (result.status !== 0) throw new Error('the SPA build failed');
    },
  },
  {
    title: 'Health check',
    describe: (s) => [`GET ${s.apiUrl}/functions/v1/health must answer 200 (database, e-mail queue, cron and its Vault secrets)`],
    run: async (s) => {
      const res = await fetch(`${s.apiUrl}/functions/v1/health`, { headers: { apikey: s.publishableKey!, authorization: `Bearer ${s.secretKey!}` } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`health answered ${res.status}: ${body.slice(0, 500)}`);
    },
  },
];

/** The Edge Functions in the repository (folders with an index.ts, `_shared` excluded). */
function functionNames(): string[] {
  const dir = path.join(ROOT, 'supabase/functions');
  return fs.readdirSync(dir).filter((f) => !f.startsWith('_') && fs.existsSync(path.join(dir, f, 'index.ts'))).sort();
}

function productionConfig(s: DeployState): string {
  return productionConfigToml(fs.readFileSync(path.join(ROOT, 'supabase/config.toml'), 'utf8'), s.inputs);
}

/** A temporary Supabase workdir: the production config.toml, links to the repository's migrations, schemas and functions. */
function makeWorkdir(s: DeployState): void {
  const target = path.join(s.workdir, 'supabase');
  fs.mkdirSync(target, { recursive: true });
  fs.writeFileSync(path.join(target, 'config.toml'), productionConfig(s));
  for (const entry of ['migrations', 'schemas', 'functions']) {
    const source = path.join(ROOT, 'supabase', entry);
    if (fs.existsSync(source)) fs.symlinkSync(source, path.join(target, entry), 'dir');
  }
  for (const file of ['deno.json', 'package.json']) {
    if (fs.existsSync(path.join(ROOT, file))) fs.symlinkSync(path.join(ROOT, file), path.join(s.workdir, file));
  }
}

interface Args {
  projectRef: string | null;
  envFile: string | null;
  dryRun: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { projectRef: null, envFile: null, dryRun: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (!v) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--dry-run') args.dryRun = true;
    else if (a.startsWith('--project-ref')) args.projectRef = value();
    else if (a.startsWith('--env-file')) args.envFile = value();
    else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

/**
 * Runs the deploy. Output: the exit code (0 done, 1 invalid input or a failed step). Prints what
 * it does; in a dry run nothing else happens.
 */
export async function main(argv: string[]): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (err) {
    console.error(`deploy: ${(err as Error).message}`);
    return 1;
  }
  const envFile = args.envFile ?? 'supabase/deploy.env';
  const problems: string[] = [];
  // the example file has a made-up ref; a dry run of it needs none
  const ref = args.projectRef ?? (args.dryRun ? 'abcdefghijklmnopqrst' : null);
  if (!ref) problems.push('--project-ref: is missing');
  else if (!PROJECT_REF.test(ref)) problems.push(`--project-ref: "${ref}" is no project ref (20 lower-case letters)`);
  if (!fs.existsSync(envFile)) problems.push(`--env-file: ${envFile} does not exist (copy supabase/deploy.env.example)`);
  const read = fs.existsSync(envFile) ? readDeployInputs(envFile) : null;
  if (read && !read.ok) problems.push(...read.problems);
  if (problems.length || !read?.ok || !ref) {
    console.error(`deploy: ${problems.length} input problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    return 1;
  }
  const state: DeployState = {
    ref,
    inputs: read.inputs,
    workdir: args.dryRun ? '(temporary workdir)' : fs.mkdtempSync(path.join(os.tmpdir(), 'teamwerk-deploy-')),
    apiUrl: `https://${ref}.supabase.co`,
    publishableKey: null,
    secretKey: null,
    webhookSecret: null,
    portalConfiguration: null,
  };
  console.log(`${args.dryRun ? 'Dry run: deploy' : 'Deploying'} Teamwerk to project ${ref} (${state.apiUrl}) for ${read.inputs.SITE_URL}; inputs from ${envFile} are valid.`);
  if (!args.dryRun) makeWorkdir(state);
  try {
    for (const [index, step] of STEPS.entries()) {
      console.log(`\n${index + 1}/${STEPS.length} ${step.title}`);
      for (const line of step.describe(state)) console.log(`  ${line}`);
      if (!args.dryRun) await step.run(state);
    }
  } catch (err) {
    console.error(`\ndeploy failed: ${(err as Error).message}`);
    return 1;
  } finally {
    if (!args.dryRun) fs.rmSync(state.workdir, { recursive: true, force: true });
  }
  console.log(args.dryRun ? '\nDry run complete: every input is valid; nothing was changed.' : '\nDeployed.');
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(await main(process.argv.slice(2)));
}

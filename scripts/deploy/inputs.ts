/**
 * The inputs of a production deploy (issue 29 "One deploy command"), read from an env file
 * (`KEY=value` lines, `#` comments; Node's util.parseEnv) and validated with zod.
 * `supabase/deploy.env.example` holds made-up values for every input.
 *
 * Required: the Supabase personal access token (CLI + Management API), the database URL (the
 * session pooler URL of the project, for `db push` and the price sync), the site URL, the
 * function secrets TOKEN_SECRET, STRIPE_SECRET_KEY, RESEND_API_KEY, EMAIL_FROM.
 * Optional: more redirect URLs, STRIPE_WEBHOOK_SECRET (needed only when the webhook endpoint exists
 * already: Stripe shows a secret only when it creates the endpoint), OAuth credentials (a provider
 * without both is switched off), captcha, the map style of the SPA.
 */
import fs from 'node:fs';
import { parseEnv } from 'node:util';
import { z } from 'zod';

/** A project ref: 20 lower-case letters (as the Supabase CLI checks it). */
export const PROJECT_REF = /^[a-z]{20}$/;

const httpsUrl = z
  .string()
  .url()
  .refine((v) => v.startsWith('https://'), 'must be an https:// URL')
  .transform((v) => v.replace(/\/+$/, ''));
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (v === '' || v === undefined ? undefined : v), schema.optional());

/** Schema of the env file. Error messages name the input. */
export const DeployInputs = z
  .object({
    SUPABASE_ACCESS_TOKEN: z.string().regex(/^sbp_[A-Za-z0-9]{40}$/, 'must be a Supabase personal access token (sbp_ and 40 characters)'),
    SUPABASE_DB_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\/[^:/\s]+:[^@\s]+@[^/\s]+\/\S+$/, 'must be postgresql://<user>:<password>@<host>:<port>/<database> (the session pooler URL)'),
    SITE_URL: httpsUrl,
    ADDITIONAL_REDIRECT_URLS: optional(z.string().transform((v, ctx) => {
      const urls = v.split(',').map((u) => u.trim()).filter(Boolean);
      for (const u of urls) {
        if (!/^https:\/\/[^\s,]+$/.test(u)) ctx.addIssue({ code: 'custom', message: `"${u}" is no https:// URL` });
      }
      return urls;
    })),
    TOKEN_SECRET: z.string().min(32, 'must have at least 32 characters'),
    STRIPE_SECRET_KEY: z.string().regex(/^sk_(live|test)_[A-Za-z0-9]{10,}$/, 'must be a Stripe secret key (sk_live_… or sk_test_…)'),
    STRIPE_WEBHOOK_SECRET: optional(z.string().regex(/^whsec_[A-Za-z0-9]{10,}$/, 'must be a Stripe webhook signing secret (whsec_…)')),
    RESEND_API_KEY: z.string().regex(/^re_[A-Za-z0-9_]{10,}$/, 'must be a Resend API key (re_…)'),
    EMAIL_FROM: z.string().regex(/^[^<>]+<[^@\s<>]+@[^@\s<>]+\.[a-z]{2,}>$/i, 'must be "Name <address@domain>" (a domain verified in Resend)'),
    GOOGLE_CLIENT_ID: optional(z.string().min(10)),
    GOOGLE_CLIENT_SECRET: optional(z.string().min(10)),
    LINKEDIN_CLIENT_ID: optional(z.string().min(6)),
    LINKEDIN_CLIENT_SECRET: optional(z.string().min(10)),
    CAPTCHA_PROVIDER: optional(z.enum(['turnstile', 'hcaptcha'])),
    CAPTCHA_SECRET: optional(z.string().min(10)),
    VITE_MAP_STYLE_URL: optional(httpsUrl),
    /** The company data file of the legal pages (frontend/src/config/company.ts); the SPA build validates it. */
    COMPANY_FILE: z.string().trim().min(1, 'must name the JSON file with the company data of the legal pages'),
  })
  .superRefine((v, ctx) => {
    const live = v.STRIPE_SECRET_KEY.startsWith('sk_live_');
    if (live && v.SITE_URL.includes('example')) ctx.addIssue({ code: 'custom', path: ['STRIPE_SECRET_KEY'], message: 'is a live key for an example site' });
  });

/** Inputs that only come together (an OAuth client id and its secret, a captcha provider and its secret). */
const PAIRS = [['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'], ['LINKEDIN_CLIENT_ID', 'LINKEDIN_CLIENT_SECRET'], ['CAPTCHA_PROVIDER', 'CAPTCHA_SECRET']] as const;

/** Problems of inputs that must come in pairs, checked on the raw values (also when other inputs are wrong). */
function pairProblems(raw: Record<string, string | undefined>): string[] {
  const set = (k: string) => Boolean(raw[k]?.trim());
  return PAIRS.filter(([a, b]) => set(a) !== set(b)).map(([a, b]) => (set(a) ? `${b}: is required together with ${a}` : `${a}: is required together with ${b}`));
}

export type DeployInputs = z.infer<typeof DeployInputs>;

/**
 * Reads and validates `file`. Output: the inputs, or the list of problems, each naming its input
 * (`NAME: message`). Errors: throws when the file cannot be read.
 */
export function readDeployInputs(file: string): { ok: true; inputs: DeployInputs } | { ok: false; problems: string[] } {
  const raw = parseEnv(fs.readFileSync(file, 'utf8'));
  const parsed = DeployInputs.safeParse(raw);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.code === 'invalid_type' && raw[String(i.path[0])] === undefined ? 'is missing' : i.message}`)),
    ...pairProblems(raw),
  ];
  return parsed.success && problems.length === 0 ? { ok: true, inputs: parsed.data } : { ok: false, problems };
}

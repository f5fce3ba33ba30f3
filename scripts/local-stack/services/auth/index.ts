/**
 * The stack's GoTrue-compatible Auth service, mounted by the gateway at `/auth/v1`.
 *
 * Implements what supabase-js v2 (auth-js) calls: /signup, /token (password, refresh_token
 * with rotation and reuse detection, pkce), /user (GET, PUT), /logout, /recover, /verify
 * (GET link, POST OTP/token_hash), /otp, /resend, /authorize + the local OAuth provider page
 * + /callback, /settings, /health, and the admin API (/admin/users, /admin/users/:id,
 * /admin/generate_link, /invite). Tables: GoTrue's `auth` schema (bootstrap/10-auth.sql).
 * Configuration: see settings.ts (AUTH_* environment variables).
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { ROOT_DIR, type StackConfig } from '../../config.ts';
import type { HttpService, StackContext } from '../../types.ts';
import { sendJson } from '../../http.ts';
import { adminRoutes } from './admin.ts';
import { AuthApiError, OAuthStyleError, sendAuthError } from './errors.ts';
import { authorize, callback, linkIdentity, localProviderDecision, localProviderPage, unlinkIdentity } from './oauth.ts';
import { IntervalLimiter, WindowLimiter } from './ratelimit.ts';
import { makeCtx, type AuthDeps, type Ctx } from './request.ts';
import { getUser, health, logout, otp, recover, resend, settingsRoute, signup, token, updateUserRoute } from './routes.ts';
import { authSettings, type AuthSettings } from './settings.ts';
import { verifyGet, verifyPost } from './verify.ts';

type Route = (ctx: Ctx) => void | Promise<void>;

const ROUTES: Record<string, Partial<Record<string, Route>>> = {
  '/health': { GET: health },
  '/settings': { GET: settingsRoute },
  '/signup': { POST: signup },
  '/token': { POST: token },
  '/user': { GET: getUser, PUT: updateUserRoute },
  '/logout': { POST: logout },
  '/recover': { POST: recover },
  '/otp': { POST: otp },
  '/magiclink': { POST: otp },
  '/resend': { POST: resend },
  '/verify': { GET: verifyGet, POST: verifyPost },
  '/authorize': { GET: authorize },
  '/local-oauth': { GET: localProviderPage, POST: localProviderDecision },
  '/callback': { GET: callback, POST: callback },
  '/user/identities/authorize': { GET: linkIdentity },
  // Symmetric (HS256) signing: GoTrue publishes no keys.
  '/.well-known/jwks.json': { GET: (ctx) => sendJson(ctx.res, 200, { keys: [] }) },
};

/**
 * Builds the request handler over explicit dependencies (pool, mailer, settings, clock), so
 * tests can mount it on their own server. Never throws: every failure is answered with
 * GoTrue's error shape (unexpected ones as 500 unexpected_failure, logged).
 */
export function createAuthHandler(deps: AuthDeps): (req: IncomingMessage, res: ServerResponse, subpath: string) => Promise<void> {
  return async (req, res, subpath) => {
    const ctx = makeCtx(deps, req, res, subpath);
    try {
      const handlers = ROUTES[ctx.subpath];
      if (handlers) {
        const route = handlers[ctx.method === 'HEAD' ? 'GET' : ctx.method];
        if (!route) throw new AuthApiError(405, 'method_not_allowed', 'Method Not Allowed');
        await route(ctx);
        return;
      }
      const identity = /^\/user\/identities\/([^/]+)$/.exec(ctx.subpath);
      if (identity && ctx.method === 'DELETE') {
        await unlinkIdentity(ctx, identity[1]!);
        return;
      }
      if (await adminRoutes(ctx)) return;
      throw new AuthApiError(404, 'not_found', 'Not Found');
    } catch (caught) {
      let err = caught;
      // A concurrent insert of the same address loses on the unique index: GoTrue's 422.
      if ((err as { code?: string; constraint?: string })?.code === '23505' && (err as { constraint?: string }).constraint === 'users_email_partial_key') {
        err = new AuthApiError(422, 'email_exists', 'A user with this email address has already been registered');
      }
      if (!(err instanceof AuthApiError) && !(err instanceof OAuthStyleError)) {
        deps.log('auth', `${ctx.method} ${ctx.subpath} failed: ${(err as Error)?.stack ?? String(err)}`);
      }
      if (!req.readableEnded) req.resume();
      if (!res.headersSent) sendAuthError(req, res, err);
      else res.destroy();
    }
  };
}

/** The parsed `supabase/config.toml` (empty when absent or unparsable, which is logged). */
function readProjectToml(log: StackContext['log']): Record<string, unknown> {
  const file = path.join(ROOT_DIR, 'supabase', 'config.toml');
  if (!fs.existsSync(file)) return {};
  try {
    return parseToml(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    log('auth', `ignoring supabase/config.toml: ${(err as Error).message}`);
    return {};
  }
}

/**
 * The settings the stack's auth service runs with: `config`, the project's
 * supabase/config.toml [auth] and AUTH_* variables of `env` (see settings.ts).
 */
export function projectAuthSettings(config: StackConfig, env: NodeJS.ProcessEnv = process.env, log: StackContext['log'] = () => undefined): AuthSettings {
  return authSettings(config, env, readProjectToml(log));
}

/**
 * Creates the auth service for the stack: settings from ctx.config, supabase/config.toml
 * [auth] and AUTH_* env (see settings.ts), then `overrides`.
 */
export async function createAuthService(ctx: StackContext, overrides: Partial<AuthSettings> = {}): Promise<HttpService> {
  const settings = { ...projectAuthSettings(ctx.config, process.env, ctx.log), ...overrides };
  const deps: AuthDeps = {
    pool: ctx.pool,
    mailer: ctx.mailer,
    settings,
    now: () => new Date(),
    limiter: new WindowLimiter(settings.rateLimits.windowSeconds * 1000),
    emailLimiter: new IntervalLimiter(settings.rateLimits.emailSentPerHour, 3600_000),
    log: ctx.log,
  };
  const handle = createAuthHandler(deps);
  return {
    handle,
    async close() {},
  };
}


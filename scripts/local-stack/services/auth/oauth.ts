/**
 * OAuth sign-in through a local provider page, so "Sign in with Google/LinkedIn" works
 * offline with GoTrue's real protocol:
 *   GET /authorize?provider=…&redirect_to=…[&code_challenge=…&code_challenge_method=…]
 *     → 302 to /local-oauth?state=… (or `{url}` with skip_http_redirect=true)
 *   GET /local-oauth?state=… → HTML page: e-mail + name, "Continue" / "Cancel"
 *   POST /local-oauth → 302 to /callback?code=…&state=… (or ?error=access_denied…)
 *   GET /callback → creates/links the user and identity, then 302 to redirect_to with the
 *     session in the fragment (implicit) or `?code=` (PKCE); errors as GoTrue's
 *     redirectErrors: `error`, `error_description` (and `error_code`) in query and fragment.
 * State and provider code are HS256 JWTs signed with the stack's JWT secret.
 */
import crypto from 'node:crypto';
import { escapeHtml, sendHtml, sendJson } from '../../http.ts';
import { JwtError, signJwt, verifyJwt } from '../../jwt.ts';
import { AuthApiError, OAuthStyleError, badRequest, forbidden, unprocessable, validationFailed } from './errors.ts';
import { createFlowState, validatePkceParams } from './flows.ts';
import { decodeBody, isUuid, referrer, requireAuthentication, str, type Ctx } from './request.ts';
import { sessionRedirect } from './verify.ts';
import {
  audit,
  findUserByEmail,
  insertIdentity,
  insertUser,
  loadIdentities,
  mergeMetadata,
  transaction,
  updateUser,
  type IdentityRow,
  type UserRow,
} from './store.ts';
import { isBanned, issueSession } from './tokens.ts';
import { beforeUserCreated } from './hooks.ts';

const PROVIDER_LABELS: Record<string, string> = {
  google: 'Google',
  linkedin_oidc: 'LinkedIn',
  linkedin: 'LinkedIn',
  github: 'GitHub',
  apple: 'Apple',
  azure: 'Microsoft',
  facebook: 'Facebook',
};

interface OAuthState {
  provider: string;
  referrer: string;
  flow_state_id: string;
  scopes: string;
  link_user_id: string;
}

async function readState(ctx: Ctx, raw: string | null): Promise<OAuthState> {
  if (!raw) throw badRequest('bad_oauth_state', 'OAuth state parameter missing');
  try {
    const claims = await verifyJwt(raw, ctx.deps.settings.jwtSecret);
    if (claims.typ !== 'local_oauth_state') throw new JwtError('invalid', 'wrong token type');
    return {
      provider: String(claims.provider ?? ''),
      referrer: String(claims.referrer ?? ctx.deps.settings.siteUrl),
      flow_state_id: String(claims.flow_state_id ?? ''),
      scopes: String(claims.scopes ?? ''),
      link_user_id: String(claims.link_user_id ?? ''),
    };
  } catch {
    throw badRequest('bad_oauth_state', 'OAuth callback with invalid state');
  }
}

/**
 * Builds the local provider URL for `provider` (GoTrue's GetExternalProviderRedirectURL):
 * validates the provider and PKCE params, stores a flow state for PKCE, signs the state.
 * `linkUserId` marks a linkIdentity flow (the identity goes to that user).
 */
async function providerRedirectUrl(ctx: Ctx, linkUserId: string | null): Promise<string> {
  const s = ctx.deps.settings;
  const provider = ctx.query.get('provider') ?? '';
  if (!s.externalProviders.includes(provider)) {
    throw validationFailed(`Unsupported provider: provider ${provider || '(missing)'} could not be found`);
  }
  const challenge = ctx.query.get('code_challenge') ?? '';
  const method = ctx.query.get('code_challenge_method') ?? '';
  validatePkceParams(method, challenge);
  const redirectTo = referrer(s, ctx.query.get('redirect_to'));
  let flowStateId = '';
  if (challenge !== '') {
    const fs = await createFlowState(ctx.deps.pool, { providerType: provider, authMethod: 'oauth', challenge, challengeMethod: method, userId: null, now: ctx.now });
    flowStateId = fs.id;
  }
  const state = await signJwt(
    { typ: 'local_oauth_state', provider, referrer: redirectTo, flow_state_id: flowStateId, scopes: ctx.query.get('scopes') ?? '', link_user_id: linkUserId ?? '' },
    s.jwtSecret,
    600,
  );
  return `${s.externalUrl}/local-oauth?${new URLSearchParams({ state, provider }).toString()}`;
}

function answerRedirect(ctx: Ctx, url: string): void {
  if (ctx.query.get('skip_http_redirect') === 'true') {
    sendJson(ctx.res, 200, { url });
    return;
  }
  ctx.res.writeHead(302, { location: url, 'content-length': '0' });
  ctx.res.end();
}

/** GET /authorize */
export async function authorize(ctx: Ctx): Promise<void> {
  answerRedirect(ctx, await providerRedirectUrl(ctx, null));
}

function requireManualLinking(ctx: Ctx): void {
  if (!ctx.deps.settings.enableManualLinking) throw new AuthApiError(404, 'manual_linking_disabled', 'Manual linking is disabled');
}

/** GET /user/identities/authorize (linkIdentity): like /authorize, for the signed-in user. */
export async function linkIdentity(ctx: Ctx): Promise<void> {
  const { user } = await requireAuthentication(ctx);
  requireManualLinking(ctx);
  answerRedirect(ctx, await providerRedirectUrl(ctx, user.id));
}

/**
 * DELETE /user/identities/:identity_id (unlinkIdentity) → 200 {}.
 * Errors: 404 validation_failed (not a UUID), 422 single_identity_not_deletable,
 * 422 identity_not_found (not one of the user's identities).
 */
export async function unlinkIdentity(ctx: Ctx, identityId: string): Promise<void> {
  const { user } = await requireAuthentication(ctx);
  requireManualLinking(ctx);
  if (!isUuid(identityId)) throw new AuthApiError(404, 'validation_failed', 'identity_id must be an UUID');
  await transaction(ctx.deps.pool, async (db) => {
    const identities = await loadIdentities(db, user.id);
    if (identities.length <= 1) throw unprocessable('single_identity_not_deletable', 'User must have at least 1 identity after unlinking');
    const target = identities.find((i) => i.id === identityId);
    if (!target) throw unprocessable('identity_not_found', "Identity doesn't exist");
    await audit(db, user, 'identity_unlinked', ctx.ip, { identity_id: target.id, provider: target.provider, provider_id: target.provider_id }, ctx.now);
    await db.query('delete from auth.identities where id = $1', [target.id]);
    const rest = identities.filter((i) => i.id !== target.id);
    const providers = [...new Set(rest.map((i) => i.provider))];
    const appMeta = mergeMetadata(user.raw_app_meta_data, { providers });
    if (appMeta.provider === target.provider && !providers.includes(target.provider)) appMeta.provider = providers[0];
    await updateUser(db, user.id, { raw_app_meta_data: appMeta }, ctx.now);
  });
  sendJson(ctx.res, 200, {});
}

/** GET /local-oauth?state=… : the local provider's consent page. */
export async function localProviderPage(ctx: Ctx): Promise<void> {
  const state = await readState(ctx, ctx.query.get('state'));
  const label = PROVIDER_LABELS[state.provider] ?? state.provider;
  const known = await ctx.deps.pool.query<{ email: string; name: string | null }>(
    `select i.email, i.identity_data->>'full_name' as name from auth.identities i
     where i.provider = $1 and i.email is not null order by i.last_sign_in_at desc nulls last limit 20`,
    [state.provider],
  );
  const options = known.rows.map((r) => `<option value="${escapeHtml(r.email)}">${escapeHtml(r.name ?? '')}</option>`).join('');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in with ${escapeHtml(label)} (local test provider)</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
.actions{display:flex;gap:.5rem;margin-top:1.25rem}button{padding:.6rem 1.2rem;font-size:1rem}
.note{color:#555;font-size:.9rem}</style></head>
<body><main>
<h1>Sign in with ${escapeHtml(label)}</h1>
<p class="note">Local test provider of the Teamwerk stack: no real ${escapeHtml(label)} account is used.
Enter the account the provider should report back.</p>
<form method="post" action="${escapeHtml(ctx.deps.settings.externalUrl)}/local-oauth">
<input type="hidden" name="state" value="${escapeHtml(ctx.query.get('state') ?? '')}">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" list="known-accounts" autocomplete="email">
<datalist id="known-accounts">${options}</datalist>
<label for="name">Name</label>
<input id="name" name="name" type="text" autocomplete="name">
<div class="actions">
<button type="submit" name="decision" value="continue">Continue</button>
<button type="submit" name="decision" value="cancel" formnovalidate>Cancel</button>
</div>
</form>
</main></body></html>`;
  sendHtml(ctx.res, 200, html);
}

/** POST /local-oauth (form): the provider's answer, redirected to /callback like a real provider. */
export async function localProviderDecision(ctx: Ctx): Promise<void> {
  const body = await decodeBody(ctx, 'LocalOAuthForm', { state: 'string', email: 'string', name: 'string', decision: 'string' });
  const rawState = str(body, 'state');
  const state = await readState(ctx, rawState);
  const callback = new URL(`${ctx.deps.settings.externalUrl}/callback`);
  callback.searchParams.set('state', rawState);
  if (str(body, 'decision') === 'cancel') {
    callback.searchParams.set('error', 'access_denied');
    callback.searchParams.set('error_description', 'The user denied the request');
  } else {
    const email = str(body, 'email').trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      callback.searchParams.set('error', 'invalid_request');
      callback.searchParams.set('error_description', 'A valid e-mail address is required');
    } else {
      const code = await signJwt(
        { typ: 'local_oauth_code', provider: state.provider, email, name: str(body, 'name').trim() },
        ctx.deps.settings.jwtSecret,
        300,
      );
      callback.searchParams.set('code', code);
    }
  }
  ctx.res.writeHead(302, { location: callback.toString(), 'content-length': '0' });
  ctx.res.end();
}

function errorRedirect(ctx: Ctx, base: string, err: unknown): void {
  const u = new URL(base);
  const oauthMap: Record<number, string> = { 400: 'invalid_request', 401: 'unauthorized_client', 403: 'access_denied', 500: 'server_error', 503: 'temporarily_unavailable' };
  if (err instanceof OAuthStyleError) {
    u.searchParams.set('error', err.error);
    u.searchParams.set('error_description', err.description);
  } else if (err instanceof AuthApiError) {
    const name = err.errorCode === 'user_banned' || err.errorCode === 'signup_disabled' ? 'access_denied' : (oauthMap[err.status] ?? 'server_error');
    u.searchParams.set('error', name);
    u.searchParams.set('error_description', err.message);
    u.searchParams.set('error_code', err.errorCode);
  } else {
    u.searchParams.set('error', 'server_error');
    u.searchParams.set('error_description', 'Unexpected failure');
  }
  const hq = new URLSearchParams();
  for (const k of ['error', 'error_description', 'error_code']) {
    const v = u.searchParams.get(k);
    if (v) hq.set(k, v);
  }
  hq.set('sb', '');
  hq.sort();
  u.searchParams.sort();
  u.hash = hq.toString();
  ctx.res.writeHead(302, { location: u.toString(), 'content-length': '0' });
  ctx.res.end();
}

/** The provider subject for a local account: stable per provider and e-mail. */
function providerSubject(provider: string, email: string): string {
  const digest = crypto.createHash('sha256').update(`${provider}:${email}`).digest();
  return BigInt(`0x${digest.subarray(0, 9).toString('hex')}`).toString().padStart(21, '1').slice(0, 21);
}

/** GET|POST /callback?code=…&state=… or ?error=…&state=… */
export async function callback(ctx: Ctx): Promise<void> {
  const s = ctx.deps.settings;
  let params = ctx.query;
  if (ctx.method === 'POST') {
    const body = await decodeBody(ctx, 'CallbackForm', { state: 'string', code: 'string', error: 'string', error_description: 'string' });
    params = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)]));
  }
  let state: OAuthState;
  try {
    state = await readState(ctx, params.get('state'));
  } catch (err) {
    errorRedirect(ctx, s.siteUrl, err);
    return;
  }
  const base = state.referrer;
  try {
    const providerError = params.get('error');
    if (providerError) throw new OAuthStyleError(400, providerError, params.get('error_description') ?? '');
    const code = params.get('code');
    if (!code) throw badRequest('bad_oauth_callback', 'OAuth callback with missing authorization code');
    let claims;
    try {
      claims = await verifyJwt(code, s.jwtSecret);
    } catch {
      throw badRequest('bad_oauth_callback', 'OAuth callback with invalid authorization code');
    }
    if (claims.typ !== 'local_oauth_code' || claims.provider !== state.provider) {
      throw badRequest('bad_oauth_callback', 'OAuth callback with invalid authorization code');
    }
    const provider = state.provider;
    const email = String(claims.email ?? '');
    const name = String(claims.name ?? '') || email.split('@')[0]!;
    const sub = providerSubject(provider, email);
    const identityData: Record<string, unknown> = {
      iss: `${s.externalUrl}/local-oauth/${provider}`,
      sub,
      name,
      full_name: name,
      email,
      email_verified: true,
      phone_verified: false,
      provider_id: sub,
    };
    const location = await transaction(ctx.deps.pool, async (db) => {
      const existing = (await db.query<IdentityRow>('select * from auth.identities where provider = $1 and provider_id = $2', [provider, sub])).rows[0];
      let user: UserRow | null;
      if (state.link_user_id) {
        // linkIdentity (GoTrue's linkIdentityToUser): the identity joins the signed-in user.
        if (existing) {
          throw unprocessable('identity_already_exists', existing.user_id === state.link_user_id ? 'Identity is already linked' : 'Identity is already linked to another user');
        }
        user = (await db.query<UserRow>('select * from auth.users where id = $1 for update', [state.link_user_id])).rows[0] ?? null;
        if (!user) throw forbidden('user_not_found', 'User not found');
        await insertIdentity(db, user.id, provider, sub, identityData, ctx.now);
        await audit(db, user, 'identity_linked', ctx.ip, { provider }, ctx.now);
      } else if (existing) {
        user = (await db.query<UserRow>('select * from auth.users where id = $1 for update', [existing.user_id])).rows[0] ?? null;
        await db.query('update auth.identities set identity_data = $2, last_sign_in_at = $3, updated_at = $3 where id = $1', [existing.id, JSON.stringify(identityData), ctx.now]);
      } else {
        user = await findUserByEmail(db, email, true);
        if (!user) {
          if (s.disableSignup) throw new AuthApiError(422, 'signup_disabled', 'Signups not allowed for this instance');
          await beforeUserCreated(db, s, { email, app_metadata: { provider, providers: [provider] }, user_metadata: identityData });
          user = await insertUser(db, { email, encryptedPassword: '', appMetadata: { provider, providers: [provider] }, userMetadata: identityData }, ctx.now);
          await audit(db, user, 'user_signedup', ctx.ip, { provider }, ctx.now);
        }
        await insertIdentity(db, user.id, provider, sub, identityData, ctx.now);
        await audit(db, user, 'identity_linked', ctx.ip, { provider }, ctx.now);
      }
      if (!user) throw forbidden('user_not_found', 'User not found');
      if (isBanned(user, ctx.now)) throw forbidden('user_banned', 'User is banned');
      const providers = [...new Set((await loadIdentities(db, user.id)).map((i) => i.provider))];
      const appMetadata = mergeMetadata(user.raw_app_meta_data, { provider: (user.raw_app_meta_data?.provider as string | undefined) ?? provider, providers });
      user = state.link_user_id
        ? await updateUser(db, user.id, { raw_app_meta_data: appMetadata }, ctx.now)
        : await updateUser(
            db,
            user.id,
            {
              raw_app_meta_data: appMetadata,
              raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, identityData),
              email_confirmed_at: user.email_confirmed_at ?? ctx.now,
            },
            ctx.now,
          );
      const providerToken = `local-${provider}-${crypto.randomBytes(16).toString('hex')}`;
      if (state.flow_state_id) {
        const r = await db.query<{ auth_code: string }>(
          `update auth.flow_state set user_id = $2, provider_access_token = $3, auth_code_issued_at = $4, updated_at = $4
           where id = $1 returning auth_code`,
          [state.flow_state_id, user.id, providerToken, ctx.now],
        );
        const authCode = r.rows[0]?.auth_code;
        if (!authCode) throw new AuthApiError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
        await audit(db, user, 'login', ctx.ip, { provider }, ctx.now);
        const u = new URL(base);
        u.searchParams.set('code', authCode);
        return u.toString();
      }
      await audit(db, user, 'login', ctx.ip, { provider }, ctx.now);
      const session = await issueSession(db, s, user, 'oauth', ctx);
      session.provider_token = providerToken;
      return sessionRedirect(base, session, {});
    });
    ctx.res.writeHead(302, { location, 'content-length': '0' });
    ctx.res.end();
  } catch (err) {
    if (err instanceof AuthApiError || err instanceof OAuthStyleError) {
      errorRedirect(ctx, base, err);
      return;
    }
    throw err;
  }
}

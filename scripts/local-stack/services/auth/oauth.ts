/**
 * OAuth sign-in with the providers config.toml enables (`[auth.external.<name>] enabled`), with
 * GoTrue's protocol and rules:
 *   GET /authorize?provider=…&redirect_to=…[&code_challenge=…&code_challenge_method=…]
 *     → 400 validation_failed "Unsupported provider: …" for unknown or disabled providers
 *       (supabase/auth `internal/api/external.go` GetExternalProviderRedirectURL + Provider,
 *       `internal/conf/configuration.go` OAuthProviderConfiguration.ValidateOAuth);
 *     → 302 to the development sign-in page /local-oauth?state=… (or `{url}` with
 *       skip_http_redirect=true) when the provider has no real credentials (its `env(…)` unset);
 *       with real credentials the stack refuses (501): it cannot reach the real provider.
 *   GET /local-oauth?state=… → the development sign-in page, marked as such ("Development
 *     sign-in page — not Google"): e-mail, name and "the provider reports this address as
 *     verified" (unchecked), Continue / Cancel. It reports exactly what is typed, nothing else.
 *   POST /local-oauth → 302 to /callback?code=…&state=… (or ?error=access_denied…), as a provider
 *   GET /callback → GoTrue's account linking (linking.ts) or, for linkIdentity, the identity
 *     joins the signed-in user; then 302 to redirect_to with the session in the fragment
 *     (implicit) or `?code=` (PKCE); errors as GoTrue's redirectErrors: `error`,
 *     `error_description` and `error_code` in query and fragment.
 * State and provider code are HS256 JWTs signed with the stack's JWT secret (GoTrue stores a
 * flow state and uses its id as the state).
 */
import crypto from 'node:crypto';
import { escapeHtml, sendHtml, sendJson } from '../../http.ts';
import { JwtError, signJwt, verifyJwt } from '../../jwt.ts';
import { AuthApiError, OAuthStyleError, badRequest, unprocessable, validationFailed } from './errors.ts';
import { createFlowState, updateAppMetadataProviders, validatePkceParams } from './flows.ts';
import { createAccountFromExternalIdentity, type ExternalUserData } from './linking.ts';
import { decodeBody, isUuid, referrer, requireAuthentication, str, type Ctx } from './request.ts';
import { KNOWN_PROVIDERS, type AuthSettings } from './settings.ts';
import { sessionRedirect } from './verify.ts';
import { audit, insertIdentity, loadIdentities, mergeMetadata, transaction, updateUser, type IdentityRow, type Queryable, type UserRow } from './store.ts';
import { issueSession } from './tokens.ts';

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
 * The provider `raw` names, checked as GoTrue's Provider + ValidateOAuth do (name lower-cased):
 * `custom:…` → "custom OAuth providers are disabled", unknown → "Provider <name> could not be
 * found", not enabled in config.toml → "provider is not enabled", each as 400 validation_failed
 * "Unsupported provider: …". An enabled provider with real credentials is refused with 501
 * (the stack talks to no real provider). Returns the provider name.
 */
export function checkProvider(s: AuthSettings, raw: string): string {
  const name = raw.toLowerCase();
  const unsupported = (reason: string) => validationFailed(`Unsupported provider: ${reason}`);
  if (name.startsWith('custom:')) throw unsupported('custom OAuth providers are disabled');
  if (!KNOWN_PROVIDERS.includes(name)) throw unsupported(`Provider ${name} could not be found`);
  const p = s.externalProviders[name];
  if (!p?.enabled) throw unsupported('provider is not enabled');
  if (p.hasCredentials) {
    throw new AuthApiError(
      501,
      'local_stack_unsupported',
      `The local stack cannot sign in with the real ${PROVIDER_LABELS[name] ?? name}: its client_id and secret are set. Unset them to use the development sign-in page, or run supabase start.`,
    );
  }
  return name;
}

/**
 * Builds the development sign-in page URL for `provider` (GoTrue's
 * GetExternalProviderRedirectURL): checks the provider (checkProvider) and the PKCE params,
 * stores a flow state for PKCE, signs the state. `linkUserId` marks a linkIdentity flow (the
 * identity goes to that user).
 */
async function providerRedirectUrl(ctx: Ctx, linkUserId: string | null): Promise<string> {
  const s = ctx.deps.settings;
  const provider = checkProvider(s, ctx.query.get('provider') ?? '');
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

/** The page's heading: it says what it is, so nobody takes it for the provider. */
export function developmentPageTitle(provider: string): string {
  return `Development sign-in page — not ${PROVIDER_LABELS[provider] ?? provider}`;
}

/**
 * GET /local-oauth?state=… : the development sign-in page standing in for the provider. Marked
 * as a development page (title, banner, heading); the tester types the e-mail and name the
 * provider should report and ticks whether the provider reports the address as verified
 * (unchecked by default). No account of the stack is listed or suggested.
 */
export async function localProviderPage(ctx: Ctx): Promise<void> {
  const state = await readState(ctx, ctx.query.get('state'));
  const label = PROVIDER_LABELS[state.provider] ?? state.provider;
  const title = developmentPageTitle(state.provider);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem}
.banner{background:#fff3bf;border:2px solid #e67700;color:#5c3c00;padding:.75rem 1rem;border-radius:.4rem;font-weight:600}
label{display:block;margin:.75rem 0 .25rem}input[type=email],input[type=text]{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
.check{display:flex;gap:.5rem;align-items:flex-start;margin-top:1rem}.check label{margin:0}
.actions{display:flex;gap:.5rem;margin-top:1.25rem}button{padding:.6rem 1.2rem;font-size:1rem}
.note{color:#555;font-size:.9rem}</style></head>
<body>
<div class="banner" role="note" data-testid="development-banner">${escapeHtml(title)}. This page belongs to the Teamwerk local stack, not to ${escapeHtml(label)}: no ${escapeHtml(label)} account is used or checked.</div>
<main>
<h1>${escapeHtml(title)}</h1>
<p class="note">Enter the account ${escapeHtml(label)} should report back. Auth links it to an existing account only when ${escapeHtml(label)} reports the address as verified, as hosted Supabase does.</p>
<form method="post" action="${escapeHtml(ctx.deps.settings.externalUrl)}/local-oauth">
<input type="hidden" name="state" value="${escapeHtml(ctx.query.get('state') ?? '')}">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="off" required>
<label for="name">Name</label>
<input id="name" name="name" type="text" autocomplete="off">
<div class="check"><input id="email_verified" name="email_verified" type="checkbox" value="true">
<label for="email_verified">${escapeHtml(label)} reports this address as verified</label></div>
<div class="actions">
<button type="submit" name="decision" value="continue">Continue</button>
<button type="submit" name="decision" value="cancel" formnovalidate>Cancel</button>
</div>
</form>
</main></body></html>`;
  sendHtml(ctx.res, 200, html);
}

/**
 * POST /local-oauth (form: state, email, name, email_verified=true when ticked, decision): the
 * provider's answer, redirected to /callback like a real provider (a code carrying exactly
 * what was typed), or `error=access_denied` for Cancel, `error=invalid_request` without a valid
 * e-mail address.
 */
export async function localProviderDecision(ctx: Ctx): Promise<void> {
  const body = await decodeBody(ctx, 'LocalOAuthForm', { state: 'string', email: 'string', name: 'string', email_verified: 'string', decision: 'string' });
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
        { typ: 'local_oauth_code', provider: state.provider, email, name: str(body, 'name').trim(), email_verified: str(body, 'email_verified') === 'true' },
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
    // GoTrue's getErrorQueryString (internal/api/external.go)
    const denied = ['signup_disabled', 'user_banned', 'provider_email_needs_verification'].includes(err.errorCode);
    const name = denied ? 'access_denied' : (oauthMap[err.status] ?? 'server_error');
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

/**
 * GoTrue's linkIdentityToUser (supabase/auth `internal/api/identity.go`): the identity joins the
 * signed-in user; 422 identity_already_exists when it belongs to someone already.
 */
async function linkIdentityToUser(db: Queryable, ctx: Ctx, userId: string, provider: string, data: ExternalUserData): Promise<UserRow> {
  const existing = (await db.query<IdentityRow>('select * from auth.identities where provider = $1 and provider_id = $2', [provider, data.subject])).rows[0];
  if (existing) {
    throw unprocessable('identity_already_exists', existing.user_id === userId ? 'Identity is already linked' : 'Identity is already linked to another user');
  }
  const user = (await db.query<UserRow>('select * from auth.users where id = $1 for update', [userId])).rows[0];
  if (!user) throw unprocessable('user_not_found', 'Linking target user not found');
  const identity = await insertIdentity(db, user.id, provider, data.subject, data.identityData, ctx.now);
  await audit(db, user, 'identity_linked', ctx.ip, { identity_id: identity.id, provider, provider_id: identity.provider_id }, ctx.now);
  return updateAppMetadataProviders(db, user, ctx.now);
}

/**
 * GET|POST /callback?code=…&state=… or ?error=…&state=…: the provider's answer. The identity
 * data is what the development page reported (`email_verified` as ticked); the accounts follow
 * GoTrue's linking rules (linking.ts). A deferred 422 provider_email_needs_verification is
 * answered after its writes (new user, removed identities, confirmation mail) committed.
 */
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
    const verified = claims.email_verified === true;
    const name = String(claims.name ?? '') || email.split('@')[0]!;
    const sub = providerSubject(provider, email);
    const data: ExternalUserData = {
      emails: [{ email, verified, primary: true }],
      subject: sub,
      identityData: {
        iss: `${s.externalUrl}/local-oauth/${provider}`,
        sub,
        name,
        full_name: name,
        email,
        email_verified: verified,
        phone_verified: false,
        provider_id: sub,
      },
    };
    const outcome = await transaction(ctx.deps.pool, async (db) => {
      let user: UserRow;
      if (state.link_user_id) {
        user = await linkIdentityToUser(db, ctx, state.link_user_id, provider, data);
      } else {
        const result = await createAccountFromExternalIdentity(db, ctx, provider, data);
        if (result.deferredError) return { error: result.deferredError };
        user = result.user;
      }
      const providerToken = `local-${provider}-${crypto.randomBytes(16).toString('hex')}`;
      if (state.flow_state_id) {
        const r = await db.query<{ auth_code: string }>(
          `update auth.flow_state set user_id = $2, provider_access_token = $3, auth_code_issued_at = $4, updated_at = $4
           where id = $1 returning auth_code`,
          [state.flow_state_id, user.id, providerToken, ctx.now],
        );
        const authCode = r.rows[0]?.auth_code;
        if (!authCode) throw new AuthApiError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
        const u = new URL(base);
        u.searchParams.set('code', authCode);
        return { location: u.toString() };
      }
      const session = await issueSession(db, s, user, 'oauth', ctx);
      session.provider_token = providerToken;
      return { location: sessionRedirect(base, session, {}) };
    });
    if ('error' in outcome) throw outcome.error;
    ctx.res.writeHead(302, { location: outcome.location, 'content-length': '0' });
    ctx.res.end();
  } catch (err) {
    if (err instanceof AuthApiError || err instanceof OAuthStyleError) {
      errorRedirect(ctx, base, err);
      return;
    }
    throw err;
  }
}

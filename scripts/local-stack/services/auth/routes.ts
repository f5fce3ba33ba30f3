/**
 * GoTrue's public endpoints: /health, /settings, /signup, /token, /user (GET, PUT), /logout,
 * /recover, /otp, /resend. Behaviour and messages follow supabase/auth v2 (internal/api).
 */
import crypto from 'node:crypto';
import { sendJson } from '../../http.ts';
import { badRequest, forbidden, notFound, unprocessable, validationFailed } from './errors.ts';
import {
  checkPasswordStrength,
  confirmUser,
  createEmailUser,
  createFlowState,
  hashPassword,
  passwordMatches,
  passwordWeakness,
  sendConfirmation,
  sendEmailChange,
  sendRecovery,
  validateEmail,
  validatePkceParams,
} from './flows.ts';
import { beforeUserCreated } from './hooks.ts';
import { decodeBody, isUuid, rateLimit, referrer, requireAuthentication, str, type Ctx } from './request.ts';
import {
  audit,
  clearOneTimeTokens,
  findUserByEmail,
  insertIdentity,
  insertUser,
  loadIdentities,
  mergeMetadata,
  transaction,
  updateUser,
  userJson,
  type Queryable,
  type UserRow,
} from './store.ts';
import { isBanned, issueSession, logoutSessions, refreshTokenGrant, type AccessTokenResponse, type AuthMethod } from './tokens.ts';

/** GET /health */
export function health(ctx: Ctx): void {
  sendJson(ctx.res, 200, { version: 'v2-local', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' });
}

/**
 * GET /settings in GoTrue's Settings shape (supabase/auth `internal/api/settings.go`): `external`
 * reports exactly the providers config.toml enables (`[auth.external.<name>] enabled`), e-mail
 * on, phone off, anonymous sign-ins as configured.
 */
export function settingsRoute(ctx: Ctx): void {
  const s = ctx.deps.settings;
  const listed = [
    'anonymous_users', 'apple', 'azure', 'bitbucket', 'discord', 'facebook', 'snapchat', 'figma', 'fly', 'github', 'gitlab',
    'google', 'keycloak', 'kakao', 'linkedin', 'linkedin_oidc', 'notion', 'spotify', 'slack', 'slack_oidc', 'workos',
    'twitch', 'twitter', 'email', 'phone', 'zoom',
  ];
  const external: Record<string, boolean> = {};
  for (const p of listed) external[p] = s.externalProviders[p]?.enabled === true;
  external.email = true;
  external.anonymous_users = s.enableAnonymousSignIns;
  sendJson(ctx.res, 200, {
    external,
    disable_signup: s.disableSignup,
    mailer_autoconfirm: !s.enableConfirmations,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
    saml_private_key_next_configured: false,
    passkeys_enabled: false,
  });
}

function pkceFlow(body: Record<string, unknown>): { pkce: boolean; challenge: string; method: string } {
  const challenge = str(body, 'code_challenge');
  const method = str(body, 'code_challenge_method');
  validatePkceParams(method, challenge);
  return { pkce: challenge !== '', challenge, method };
}

interface SignupInput {
  email: string;
  password: string;
  data: Record<string, unknown>;
  challenge: string;
  method: string;
  redirectTo: string;
}

/**
 * GoTrue's Signup core. Returns the token response (confirmations off), or the user JSON
 * (confirmations on: confirmation mail sent; for an already confirmed address an obfuscated
 * user, so the answer does not reveal that the address exists).
 */
async function signupCore(ctx: Ctx, input: SignupInput): Promise<AccessTokenResponse | Record<string, unknown>> {
  const s = ctx.deps.settings;
  const pkce = input.challenge !== '';
  const encryptedPassword = await hashPassword(ctx.deps.pool, input.password);
  return transaction(ctx.deps.pool, async (db) => {
    let user = await findUserByEmail(db, input.email, true);
    if (user && user.email_confirmed_at) {
      await audit(db, user, 'user_repeated_signup', ctx.ip, { provider: 'email' }, ctx.now);
      if (!s.enableConfirmations) throw unprocessable('user_already_exists', 'User already registered');
      const now = ctx.now.toISOString();
      return {
        id: crypto.randomUUID(),
        aud: 'authenticated',
        role: '',
        email: input.email,
        phone: '',
        confirmation_sent_at: now,
        app_metadata: { provider: 'email', providers: ['email'] },
        user_metadata: input.data,
        identities: [],
        created_at: now,
        updated_at: now,
        is_anonymous: false,
      };
    }
    if (!user) {
      await beforeUserCreated(db, s, { email: input.email, app_metadata: { provider: 'email', providers: ['email'] }, user_metadata: input.data });
      user = await createEmailUser(db, { email: input.email, encryptedPassword, data: input.data, confirmed: false, now: ctx.now });
    }
    if (!s.enableConfirmations) {
      await audit(db, user, 'user_signedup', ctx.ip, { provider: 'email' }, ctx.now);
      user = await confirmUser(db, user, ctx.now);
      await audit(db, user, 'login', ctx.ip, { provider: 'email' }, ctx.now);
      return issueSession(db, s, user, 'password', ctx);
    }
    await audit(db, user, 'user_confirmation_requested', ctx.ip, { provider: 'email' }, ctx.now);
    if (pkce) {
      await createFlowState(db, { providerType: 'email', authMethod: 'email/signup', challenge: input.challenge, challengeMethod: input.method, userId: user.id, now: ctx.now });
    }
    user = await sendConfirmation({ db, deps: ctx.deps, user, redirectTo: input.redirectTo, pkce, now: ctx.now });
    return userJson(user, await loadIdentities(db, user.id));
  });
}

/**
 * GoTrue's SignupAnonymously (POST /signup without email and phone): 422
 * anonymous_provider_disabled unless AUTH_ENABLE_ANONYMOUS_SIGN_INS; otherwise an anonymous
 * user (is_anonymous, no provider) and a session with amr `anonymous`.
 */
async function signupAnonymously(ctx: Ctx, data: Record<string, unknown>): Promise<void> {
  const s = ctx.deps.settings;
  if (!s.enableAnonymousSignIns) throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
  rateLimit(ctx, 'signInSignUps');
  if (s.disableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  const token = await transaction(ctx.deps.pool, async (db) => {
    await beforeUserCreated(db, s, { email: null, app_metadata: {}, user_metadata: data, is_anonymous: true });
    const user = await insertUser(db, { email: null, encryptedPassword: '', appMetadata: {}, userMetadata: data, isAnonymous: true }, ctx.now);
    await audit(db, user, 'user_signedup', ctx.ip, { provider: 'anonymous' }, ctx.now);
    return issueSession(db, s, user, 'anonymous', ctx);
  });
  sendJson(ctx.res, 200, token);
}

const SIGNUP_SPEC = {
  email: 'string',
  phone: 'string',
  password: 'string',
  data: 'object',
  channel: 'string',
  code_challenge: 'string',
  code_challenge_method: 'string',
  gotrue_meta_security: 'any',
} as const;

/** POST /signup */
export async function signup(ctx: Ctx): Promise<void> {
  const s = ctx.deps.settings;
  const body = await decodeBody(ctx, 'SignupParams', SIGNUP_SPEC);
  const password = str(body, 'password');
  const emailRaw = str(body, 'email');
  const phone = str(body, 'phone');
  if (emailRaw === '' && phone === '') {
    await signupAnonymously(ctx, (body.data as Record<string, unknown> | undefined) ?? {});
    return;
  }
  if (s.disableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  if (password === '') throw validationFailed('Signup requires a valid password');
  checkPasswordStrength(ctx.deps, password);
  if (emailRaw !== '' && phone !== '') throw validationFailed('Only an email address or phone number should be provided on signup.');
  const flow = pkceFlow(body);
  rateLimit(ctx, 'signInSignUps');
  if (phone !== '') throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
  if (emailRaw === '') throw validationFailed('Sign up only available with email provider');
  const email = validateEmail(emailRaw);
  const result = await signupCore(ctx, {
    email,
    password,
    data: (body.data as Record<string, unknown> | undefined) ?? {},
    challenge: flow.challenge,
    method: flow.method,
    redirectTo: referrer(s, ctx.query.get('redirect_to')),
  });
  sendJson(ctx.res, 200, result);
}

async function passwordGrant(ctx: Ctx): Promise<void> {
  const body = await decodeBody(ctx, 'PasswordGrantParams', { email: 'string', phone: 'string', password: 'string', gotrue_meta_security: 'any' });
  const email = str(body, 'email');
  const phone = str(body, 'phone');
  const password = str(body, 'password');
  if (email !== '' && phone !== '') throw validationFailed('Only an email address or phone number should be provided on login.');
  if (email === '' && phone === '') throw validationFailed('missing email or phone');
  if (phone !== '') throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');
  const invalid = () => badRequest('invalid_credentials', 'Invalid login credentials');
  const user = await findUserByEmail(ctx.deps.pool, email);
  if (!user || !user.encrypted_password) throw invalid();
  if (isBanned(user, ctx.now)) throw badRequest('user_banned', 'User is banned');
  if (!(await passwordMatches(ctx.deps.pool, password, user.encrypted_password))) throw invalid();
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');
  const token = await transaction(ctx.deps.pool, async (db) => {
    await audit(db, user, 'login', ctx.ip, { provider: 'email' }, ctx.now);
    return issueSession(db, ctx.deps.settings, user, 'password', ctx);
  });
  // GoTrue signs in with a weak password but reports it (token.go ResourceOwnerPasswordGrant)
  const weak = passwordWeakness(ctx.deps.settings, password);
  if (weak) token.weak_password = { reasons: weak.reasons, message: weak.message };
  sendJson(ctx.res, 200, token);
}

interface FlowStateRow {
  id: string;
  user_id: string | null;
  auth_code: string;
  code_challenge_method: string;
  code_challenge: string;
  provider_type: string;
  provider_access_token: string | null;
  provider_refresh_token: string | null;
  created_at: Date;
  authentication_method: string;
  auth_code_issued_at: Date | null;
}

/** RFC 7636 check of a verifier against the stored challenge (S256 or plain). */
export function verifyPkce(method: string, challenge: string, verifier: string): boolean {
  if (method.toLowerCase() === 's256') {
    return crypto.createHash('sha256').update(verifier).digest('base64url') === challenge;
  }
  return verifier === challenge;
}

async function pkceGrant(ctx: Ctx): Promise<void> {
  const body = await decodeBody(ctx, 'PKCEGrantParams', { auth_code: 'string', code_verifier: 'string' });
  const authCode = str(body, 'auth_code');
  const verifier = str(body, 'code_verifier');
  if (authCode === '' || verifier === '') {
    throw validationFailed('invalid request: both auth code and code verifier should be non-empty');
  }
  const token = await transaction(ctx.deps.pool, async (db) => {
    const fs = isUuid(authCode)
      ? (await db.query<FlowStateRow>('select * from auth.flow_state where auth_code = $1 for update', [authCode])).rows[0]
      : undefined;
    if (!fs || !fs.user_id) throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    const issued = fs.auth_code_issued_at ?? fs.created_at;
    if (ctx.now.getTime() > issued.getTime() + ctx.deps.settings.flowStateExpirySeconds * 1000) {
      throw unprocessable('flow_state_expired', 'invalid flow state, flow state has expired');
    }
    const user = (await db.query<UserRow>('select * from auth.users where id = $1', [fs.user_id])).rows[0];
    if (!user) throw notFound('user_not_found', 'User not found');
    if (!verifyPkce(fs.code_challenge_method, fs.code_challenge, verifier)) {
      throw badRequest('bad_code_verifier', 'code challenge does not match previously saved code verifier');
    }
    await audit(db, user, 'login', ctx.ip, { provider_type: fs.provider_type }, ctx.now);
    const t = await issueSession(db, ctx.deps.settings, user, fs.authentication_method as AuthMethod, ctx);
    if (fs.provider_access_token) t.provider_token = fs.provider_access_token;
    if (fs.provider_refresh_token) t.provider_refresh_token = fs.provider_refresh_token;
    await db.query('delete from auth.flow_state where id = $1', [fs.id]);
    return t;
  });
  sendJson(ctx.res, 200, token);
}

async function refreshGrant(ctx: Ctx): Promise<void> {
  const body = await decodeBody(ctx, 'RefreshTokenGrantParams', { refresh_token: 'string' });
  // The error outcome (reuse detected) must commit so the revocation sticks.
  const out = await transaction(ctx.deps.pool, (db) => refreshTokenGrant(db, ctx.deps.settings, body.refresh_token, ctx));
  if (out.error) throw out.error;
  sendJson(ctx.res, 200, out.response);
}

/** POST /token?grant_type=password|refresh_token|pkce */
export async function token(ctx: Ctx): Promise<void> {
  const grantType = ctx.query.get('grant_type') ?? '';
  switch (grantType) {
    case 'password':
      rateLimit(ctx, 'signInSignUps');
      return passwordGrant(ctx);
    case 'pkce':
      rateLimit(ctx, 'signInSignUps');
      return pkceGrant(ctx);
    case 'refresh_token':
      rateLimit(ctx, 'tokenRefresh');
      return refreshGrant(ctx);
    default:
      throw badRequest('invalid_credentials', 'unsupported_grant_type');
  }
}

/** GET /user */
export async function getUser(ctx: Ctx): Promise<void> {
  const { user, claims } = await requireAuthentication(ctx);
  const aud = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
  if (aud !== (user.aud || 'authenticated')) throw validationFailed("Token audience doesn't match request audience");
  sendJson(ctx.res, 200, userJson(user, await loadIdentities(ctx.deps.pool, user.id)));
}

/** PUT /user {email, password, data, app_metadata, nonce, code_challenge, …} */
export async function updateUserRoute(ctx: Ctx): Promise<void> {
  const auth = await requireAuthentication(ctx);
  const body = await decodeBody(ctx, 'UserUpdateParams', {
    email: 'string',
    password: 'string',
    current_password: 'string',
    nonce: 'string',
    data: 'object',
    app_metadata: 'object',
    phone: 'string',
    channel: 'string',
    code_challenge: 'string',
    code_challenge_method: 'string',
  });
  const s = ctx.deps.settings;
  let email = str(body, 'email');
  if (email !== '') email = validateEmail(email);
  const password = typeof body.password === 'string' ? body.password : null;
  if (password !== null) checkPasswordStrength(ctx.deps, password);
  if (body.app_metadata !== undefined) throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
  if (auth.user.is_anonymous && password && email === '') {
    throw unprocessable('validation_failed', 'Updating password of an anonymous user without an email or phone is not allowed');
  }
  if (str(body, 'phone') !== '') throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  const flow = pkceFlow(body);
  let user = auth.user;
  if (email !== '' && email !== (user.email ?? '')) {
    const dup = await findUserByEmail(ctx.deps.pool, email);
    if (dup && dup.id !== user.id) throw unprocessable('email_exists', 'A user with this email address has already been registered');
  }
  let newHash: string | null = null;
  if (password !== null && password !== '') {
    if (user.encrypted_password && (await passwordMatches(ctx.deps.pool, password, user.encrypted_password))) {
      throw unprocessable('same_password', 'New password should be different from the old password.');
    }
    newHash = await hashPassword(ctx.deps.pool, password);
  }
  const result = await transaction(ctx.deps.pool, async (db: Queryable) => {
    if (newHash !== null) {
      user = await updateUser(
        db,
        user.id,
        {
          encrypted_password: newHash,
          confirmation_token: '',
          confirmation_sent_at: null,
          recovery_token: '',
          recovery_sent_at: null,
          email_change_token_current: '',
          email_change_token_new: '',
          email_change_sent_at: null,
          reauthentication_token: '',
          reauthentication_sent_at: null,
        },
        ctx.now,
      );
      await clearOneTimeTokens(db, user.id);
      // GoTrue's User.UpdatePassword: every other session of the user ends.
      await logoutSessions(db, user.id, auth.sessionId ? 'others' : 'global', auth.sessionId);
      await audit(db, user, 'user_updated_password', ctx.ip, {}, ctx.now);
    }
    if (body.data !== undefined) {
      user = await updateUser(db, user.id, { raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, body.data as Record<string, unknown>) }, ctx.now);
    }
    if (email !== '' && email !== (user.email ?? '')) {
      if (user.is_anonymous && !s.enableConfirmations) {
        // GoTrue: an anonymous user with autoconfirm gets the address right away.
        user = await updateUser(
          db,
          user.id,
          {
            email,
            is_anonymous: false,
            raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, { email }),
            raw_app_meta_data: mergeMetadata(user.raw_app_meta_data, { provider: 'email', providers: ['email'] }),
          },
          ctx.now,
        );
        await insertIdentity(db, user.id, 'email', user.id, { sub: user.id, email, email_verified: true, phone_verified: false }, ctx.now);
        user = await confirmUser(db, user, ctx.now);
      } else {
        if (flow.pkce) {
          await createFlowState(db, { providerType: 'email_change', authMethod: 'email_change', challenge: flow.challenge, challengeMethod: flow.method, userId: user.id, now: ctx.now });
        }
        user = await sendEmailChange({ db, deps: ctx.deps, user, newEmail: email, redirectTo: referrer(s, ctx.query.get('redirect_to')), pkce: flow.pkce, now: ctx.now });
      }
    }
    await audit(db, user, 'user_modified', ctx.ip, {}, ctx.now);
    return userJson(user, await loadIdentities(db, user.id));
  });
  sendJson(ctx.res, 200, result);
}

/** POST /logout?scope=global|local|others → 204 */
export async function logout(ctx: Ctx): Promise<void> {
  const scopeParam = ctx.query.get('scope') ?? '';
  const auth = await requireAuthentication(ctx);
  let scope: 'global' | 'local' | 'others';
  switch (scopeParam) {
    case '':
    case 'global':
      scope = 'global';
      break;
    case 'local':
      scope = 'local';
      break;
    case 'others':
      scope = 'others';
      break;
    default:
      throw validationFailed(`Unsupported logout scope "${scopeParam}"`);
  }
  await transaction(ctx.deps.pool, async (db) => {
    await audit(db, auth.user, 'logout', ctx.ip, {}, ctx.now);
    await logoutSessions(db, auth.user.id, scope, auth.sessionId);
  });
  ctx.res.writeHead(204);
  ctx.res.end();
}

/**
 * POST /recover {email, code_challenge, code_challenge_method} → 200 {} whether or not the
 * address exists; for an account, the recovery mail (max_frequency and e-mail budget apply:
 * 429 over_email_send_rate_limit).
 */
export async function recover(ctx: Ctx): Promise<void> {
  const body = await decodeBody(ctx, 'RecoverParams', {
    email: 'string',
    code_challenge: 'string',
    code_challenge_method: 'string',
    gotrue_meta_security: 'any',
  });
  const raw = str(body, 'email');
  if (raw === '') throw validationFailed('Password recovery requires an email');
  const email = validateEmail(raw);
  const flow = pkceFlow(body);
  rateLimit(ctx, 'signInSignUps');
  const redirectTo = referrer(ctx.deps.settings, ctx.query.get('redirect_to'));
  await transaction(ctx.deps.pool, async (db) => {
    const user = await findUserByEmail(db, email, true);
    // GoTrue answers 200 at once for an address without an account: no interval, no mail
    // (supabase/auth `internal/api/recover.go` Recover), so repeated requests within
    // max_frequency answer 429 only for existing accounts, as on hosted.
    if (!user) return;
    if (flow.pkce) {
      await createFlowState(db, { providerType: 'recovery', authMethod: 'recovery', challenge: flow.challenge, challengeMethod: flow.method, userId: user.id, now: ctx.now });
    }
    await audit(db, user, 'user_recovery_requested', ctx.ip, {}, ctx.now);
    await sendRecovery({ db, deps: ctx.deps, user, redirectTo, pkce: flow.pkce, now: ctx.now, kind: 'recovery' });
  });
  sendJson(ctx.res, 200, {});
}

/** POST /otp {email, create_user, data, code_challenge…}: magic link (or sign-up confirmation for new users). */
export async function otp(ctx: Ctx): Promise<void> {
  const body = await decodeBody(ctx, 'OtpParams', {
    email: 'string',
    phone: 'string',
    channel: 'string',
    create_user: 'bool',
    data: 'object',
    code_challenge: 'string',
    code_challenge_method: 'string',
    gotrue_meta_security: 'any',
  });
  const s = ctx.deps.settings;
  if (str(body, 'phone') !== '') throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  const raw = str(body, 'email');
  if (raw === '') throw validationFailed('An email address or phone number is required to get a one-time password');
  const email = validateEmail(raw);
  const flow = pkceFlow(body);
  rateLimit(ctx, 'signInSignUps');
  const createUser = body.create_user !== false;
  const redirectTo = referrer(s, ctx.query.get('redirect_to'));
  const existing = await findUserByEmail(ctx.deps.pool, email);
  if (!existing && !createUser) throw unprocessable('otp_disabled', 'Signups not allowed for otp');
  if (!existing || !existing.email_confirmed_at) {
    if (!existing && s.disableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
    if (!s.enableConfirmations) {
      if (!existing) {
        await signupCore(ctx, { email, password: crypto.randomBytes(24).toString('base64url'), data: (body.data as Record<string, unknown>) ?? {}, challenge: '', method: '', redirectTo });
      } else {
        await transaction(ctx.deps.pool, (db) => confirmUser(db, existing, ctx.now));
      }
    } else {
      await signupCore(ctx, {
        email,
        password: crypto.randomBytes(24).toString('base64url'),
        data: (body.data as Record<string, unknown>) ?? {},
        challenge: flow.challenge,
        method: flow.method,
        redirectTo,
      });
      sendJson(ctx.res, 200, {});
      return;
    }
  }
  await transaction(ctx.deps.pool, async (db) => {
    const user = await findUserByEmail(db, email, true);
    if (!user) return;
    if (flow.pkce) {
      await createFlowState(db, { providerType: 'magiclink', authMethod: 'magiclink', challenge: flow.challenge, challengeMethod: flow.method, userId: user.id, now: ctx.now });
    }
    await audit(db, user, 'user_recovery_requested', ctx.ip, {}, ctx.now);
    await sendRecovery({ db, deps: ctx.deps, user, redirectTo, pkce: flow.pkce, now: ctx.now, kind: 'magiclink' });
  });
  sendJson(ctx.res, 200, {});
}

/** POST /resend {type: signup|email_change, email} */
export async function resend(ctx: Ctx): Promise<void> {
  const body = await decodeBody(ctx, 'ResendConfirmationParams', {
    type: 'string',
    email: 'string',
    phone: 'string',
    code_challenge: 'string',
    code_challenge_method: 'string',
    gotrue_meta_security: 'any',
  });
  const type = str(body, 'type');
  if (type === 'sms' || type === 'phone_change') throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  if (type !== 'signup' && type !== 'email_change') throw validationFailed('Missing one of these types: signup, email_change, sms, phone_change');
  const flow = pkceFlow(body);
  const raw = str(body, 'email');
  if (raw === '' && type === 'signup') throw validationFailed('Type provided requires an email address');
  if (raw !== '' && str(body, 'phone') !== '') throw validationFailed('Only an email address or phone number should be provided.');
  if (raw === '') throw validationFailed('Missing email address or phone number');
  const email = validateEmail(raw);
  rateLimit(ctx, 'signInSignUps');
  const redirectTo = referrer(ctx.deps.settings, ctx.query.get('redirect_to'));
  await transaction(ctx.deps.pool, async (db) => {
    const user = await findUserByEmail(db, email, true);
    if (!user) return;
    if (type === 'signup') {
      if (user.email_confirmed_at) return;
      await audit(db, user, 'user_confirmation_requested', ctx.ip, {}, ctx.now);
      if (flow.pkce) {
        await createFlowState(db, { providerType: 'email', authMethod: 'email/signup', challenge: flow.challenge, challengeMethod: flow.method, userId: user.id, now: ctx.now });
      }
      await sendConfirmation({ db, deps: ctx.deps, user, redirectTo, pkce: flow.pkce, now: ctx.now });
      return;
    }
    if (!user.email_change) return;
    if (flow.pkce) {
      await createFlowState(db, { providerType: 'email_change', authMethod: 'email_change', challenge: flow.challenge, challengeMethod: flow.method, userId: user.id, now: ctx.now });
    }
    await sendEmailChange({ db, deps: ctx.deps, user, newEmail: user.email_change, redirectTo, pkce: flow.pkce, now: ctx.now });
  });
  sendJson(ctx.res, 200, {});
}


/**
 * GoTrue's admin API (service_role JWT required): /admin/users (list, create),
 * /admin/users/:id (get, update, delete), /admin/generate_link, /invite.
 */
import crypto from 'node:crypto';
import { sendJson } from '../../http.ts';
import { badRequest, notFound, unprocessable, validationFailed } from './errors.ts';
import {
  MAX_PASSWORD_LENGTH,
  checkPasswordStrength,
  confirmUser,
  createEmailUser,
  hashPassword,
  providerAppMetadata,
  sendConfirmation,
  validateEmail,
} from './flows.ts';
import { actionLink, type MailKind } from './mail.ts';
import { decodeBody, isUuid, referrer, requireAdmin, str, type Ctx } from './request.ts';
import {
  audit,
  clearOneTimeTokens,
  findUserByEmail,
  findUserById,
  generateOtp,
  insertIdentity,
  insertUser,
  loadIdentities,
  mergeMetadata,
  saveOneTimeToken,
  tokenHash,
  transaction,
  updateUser,
  userJson,
  type Queryable,
  type UserRow,
} from './store.ts';
import { logoutSessions } from './tokens.ts';

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a Go duration (`time.ParseDuration`: e.g. "24h", "1h30m", "876000h") into
 * milliseconds; throws 400 validation_failed like GoTrue for other strings.
 */
export function parseGoDuration(input: string): number {
  if (input === '0') return 0;
  const m = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(input);
  if (!m) throw validationFailed(`invalid format for ban duration: time: invalid duration "${input}"`);
  let total = 0;
  for (const part of input.replace(/^[+-]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) {
    total += Number(part[1]) * UNIT_MS[part[2]!]!;
  }
  return m[1] === '-' ? -total : total;
}

function banUntil(ctx: Ctx, banDuration: string): Date | null | undefined {
  if (banDuration === '') return undefined;
  if (banDuration === 'none') return null;
  const ms = parseGoDuration(banDuration);
  return ms === 0 ? null : new Date(ctx.now.getTime() + ms);
}

const ADMIN_USER_SPEC = {
  id: 'string',
  aud: 'string',
  role: 'string',
  email: 'string',
  phone: 'string',
  password: 'string',
  password_hash: 'string',
  email_confirm: 'bool',
  phone_confirm: 'bool',
  user_metadata: 'object',
  app_metadata: 'object',
  ban_duration: 'string',
} as const;

/** GET /admin/users?page=&per_page=&filter= → {users, aud} + Link / X-Total-Count headers. */
async function listUsers(ctx: Ctx): Promise<void> {
  const pageRaw = ctx.query.get('page');
  const perPageRaw = ctx.query.get('per_page');
  const parse = (v: string | null, name: string, fallback: number) => {
    if (v === null || v === '') return fallback;
    if (!/^\d+$/.test(v)) throw validationFailed(`Bad Pagination Parameters: strconv.ParseUint: parsing "${v}": invalid syntax`);
    const n = Number(v);
    if (name === 'page' && n === 0) return 1;
    return n;
  };
  const page = parse(pageRaw, 'page', 1);
  const perPage = Math.min(parse(perPageRaw, 'per_page', 50) || 50, 1000);
  const filter = ctx.query.get('filter') ?? '';
  const where = filter ? `where (email ilike $1 or raw_user_meta_data->>'full_name' ilike $1)` : '';
  const args: unknown[] = filter ? [`%${filter}%`] : [];
  const pool = ctx.deps.pool;
  const total = Number((await pool.query<{ n: string }>(`select count(*) as n from auth.users ${where}`, args)).rows[0]!.n);
  const rows = (
    await pool.query<UserRow>(
      `select * from auth.users ${where} order by created_at desc, id limit ${perPage} offset ${(page - 1) * perPage}`,
      args,
    )
  ).rows;
  const ids = rows.map((r) => r.id);
  const idents = ids.length
    ? (await pool.query('select * from auth.identities where user_id = any($1::uuid[]) order by created_at, id', [ids])).rows
    : [];
  const users = rows.map((u) => userJson(u, idents.filter((i: { user_id: string }) => i.user_id === u.id)));
  const totalPages = Math.ceil(total / perPage);
  const base = new URL(ctx.req.url ?? '/', 'http://localhost');
  const link = (p: number) => {
    base.searchParams.set('page', String(p));
    return `<${base.pathname}${base.search}>`;
  };
  let header = '';
  if (totalPages > page) header += `${link(page + 1)}; rel="next", `;
  header += `${link(totalPages)}; rel="last"`;
  sendJson(ctx.res, 200, { users, aud: 'authenticated' }, { link: header, 'x-total-count': String(total) });
}

/** POST /admin/users */
async function createUser(ctx: Ctx, admin: { sub?: string }): Promise<void> {
  const body = await decodeBody(ctx, 'AdminUserParams', ADMIN_USER_SPEC);
  const rawEmail = str(body, 'email');
  if (rawEmail === '' && str(body, 'phone') === '') throw validationFailed('Cannot create a user without either an email or phone');
  if (str(body, 'phone') !== '') throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  const email = validateEmail(rawEmail);
  const password = typeof body.password === 'string' ? body.password : null;
  const passwordHash = str(body, 'password_hash');
  if (password !== null && passwordHash !== '') throw validationFailed('Only a password or a password hash should be provided');
  if (password !== null && Buffer.byteLength(password) > MAX_PASSWORD_LENGTH) {
    throw validationFailed(`Password cannot be longer than ${MAX_PASSWORD_LENGTH} characters`);
  }
  if (passwordHash !== '' && !/^\$2[abxy]?\$\d\d\$/.test(passwordHash)) throw validationFailed('Invalid password hash format');
  const id = str(body, 'id');
  if (id !== '') {
    if (!isUuid(id)) throw validationFailed('ID must conform to the uuid v4 format');
    if (id === '00000000-0000-0000-0000-000000000000') throw validationFailed('ID cannot be a nil uuid');
  }
  const ban = banUntil(ctx, str(body, 'ban_duration'));
  const encrypted = passwordHash !== '' ? passwordHash : await hashPassword(ctx.deps.pool, password ?? crypto.randomBytes(24).toString('base64url'));
  const result = await transaction(ctx.deps.pool, async (db) => {
    if (await findUserByEmail(db, email)) throw unprocessable('email_exists', 'A user with this email address has already been registered');
    if (id !== '' && (await findUserById(db, id))) throw unprocessable('user_already_exists', 'User already exists');
    const userId = id || crypto.randomUUID();
    let user = await insertUser(
      db,
      {
        id: userId,
        email,
        encryptedPassword: encrypted,
        appMetadata: mergeMetadata(providerAppMetadata('email'), (body.app_metadata as Record<string, unknown>) ?? {}),
        userMetadata: (body.user_metadata as Record<string, unknown>) ?? {},
      },
      ctx.now,
    );
    const role = str(body, 'role');
    if (role !== '') user = await updateUser(db, user.id, { role }, ctx.now);
    await insertIdentity(db, user.id, 'email', user.id, { sub: user.id, email, email_verified: false, phone_verified: false }, ctx.now);
    await audit(db, { id: admin.sub ?? '00000000-0000-0000-0000-000000000000', email: 'service_role' }, 'user_signedup', ctx.ip, { user_id: user.id, user_email: email, provider: 'email' }, ctx.now);
    if (body.email_confirm === true) user = await confirmUser(db, user, ctx.now);
    if (ban !== undefined) user = await updateUser(db, user.id, { banned_until: ban }, ctx.now);
    return userJson(user, await loadIdentities(db, user.id));
  });
  sendJson(ctx.res, 200, result);
}

async function loadTarget(db: Queryable, id: string, forUpdate = false): Promise<UserRow> {
  if (!isUuid(id)) throw notFound('validation_failed', 'user_id must be an UUID');
  const user = await findUserById(db, id, forUpdate);
  if (!user) throw notFound('user_not_found', 'User not found');
  return user;
}

/** PUT /admin/users/:id */
async function updateUserById(ctx: Ctx, id: string): Promise<void> {
  await loadTarget(ctx.deps.pool, id);
  const body = await decodeBody(ctx, 'AdminUserParams', ADMIN_USER_SPEC);
  let email = str(body, 'email');
  if (email !== '') email = validateEmail(email);
  if (str(body, 'phone') !== '') throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  const password = typeof body.password === 'string' ? body.password : null;
  if (password !== null) checkPasswordStrength(ctx.deps, password);
  const ban = banUntil(ctx, str(body, 'ban_duration'));
  const newHash = password !== null ? await hashPassword(ctx.deps.pool, password) : null;
  const result = await transaction(ctx.deps.pool, async (db) => {
    let user = await loadTarget(db, id, true);
    if (email !== '' && email !== user.email) {
      const dup = await findUserByEmail(db, email);
      if (dup && dup.id !== user.id) throw unprocessable('email_exists', 'A user with this email address has already been registered');
      user = await updateUser(db, user.id, { email, raw_user_meta_data: user.raw_user_meta_data && 'email' in user.raw_user_meta_data ? mergeMetadata(user.raw_user_meta_data, { email }) : user.raw_user_meta_data ?? {} }, ctx.now);
      await db.query(`update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = $3 where user_id = $1 and provider = 'email'`, [user.id, email, ctx.now]);
    }
    if (newHash !== null) {
      user = await updateUser(db, user.id, { encrypted_password: newHash, recovery_token: '', recovery_sent_at: null, confirmation_token: '', email_change_token_current: '', email_change_token_new: '' }, ctx.now);
      await clearOneTimeTokens(db, user.id);
      // GoTrue's UpdatePassword without a session: all sessions of the user end.
      await logoutSessions(db, user.id, 'global', null);
    }
    if (body.email_confirm === true && !user.email_confirmed_at) user = await confirmUser(db, user, ctx.now);
    const role = str(body, 'role');
    if (role !== '') user = await updateUser(db, user.id, { role }, ctx.now);
    if (body.app_metadata !== undefined) {
      user = await updateUser(db, user.id, { raw_app_meta_data: mergeMetadata(user.raw_app_meta_data, body.app_metadata as Record<string, unknown>) }, ctx.now);
    }
    if (body.user_metadata !== undefined) {
      user = await updateUser(db, user.id, { raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, body.user_metadata as Record<string, unknown>) }, ctx.now);
    }
    if (ban !== undefined) user = await updateUser(db, user.id, { banned_until: ban }, ctx.now);
    await audit(db, user, 'user_modified', ctx.ip, {}, ctx.now);
    return userJson(user, await loadIdentities(db, user.id));
  });
  sendJson(ctx.res, 200, result);
}

/** DELETE /admin/users/:id {should_soft_delete?} → 200 {} */
async function deleteUserById(ctx: Ctx, id: string): Promise<void> {
  await loadTarget(ctx.deps.pool, id);
  const body = await decodeBody(ctx, 'adminUserDeleteParams', { should_soft_delete: 'bool' });
  await transaction(ctx.deps.pool, async (db) => {
    const user = await loadTarget(db, id, true);
    await audit(db, null, 'user_deleted', ctx.ip, { user_id: user.id, user_email: user.email, user_phone: user.phone }, ctx.now);
    if (body.should_soft_delete === true) {
      if (user.deleted_at) return;
      await updateUser(
        db,
        user.id,
        { deleted_at: ctx.now, email: null, phone: null, encrypted_password: '', confirmation_token: '', recovery_token: '', email_change: '', email_change_token_current: '', email_change_token_new: '', raw_app_meta_data: {}, raw_user_meta_data: {} },
        ctx.now,
      );
      await db.query('delete from auth.identities where user_id = $1', [user.id]);
      await logoutSessions(db, user.id, 'global', null);
    } else {
      await db.query('delete from auth.users where id = $1', [user.id]);
    }
  });
  sendJson(ctx.res, 200, {});
}

/** POST /admin/generate_link {type, email, new_email, password, data, redirect_to} */
async function generateLink(ctx: Ctx, admin: { sub?: string }): Promise<void> {
  const body = await decodeBody(ctx, 'GenerateLinkParams', {
    type: 'string',
    email: 'string',
    new_email: 'string',
    password: 'string',
    data: 'object',
    redirect_to: 'string',
  });
  const s = ctx.deps.settings;
  const email = validateEmail(str(body, 'email'));
  const redirectTo = referrer(s, str(body, 'redirect_to') || ctx.query.get('redirect_to'));
  let type = str(body, 'type');
  let password = str(body, 'password');
  const data = (body.data as Record<string, unknown> | undefined) ?? {};
  const valid = ['signup', 'magiclink', 'recovery', 'invite', 'email_change_current', 'email_change_new'];
  if (!valid.includes(type)) throw validationFailed(`Invalid email action link type requested: ${type}`);
  if (type === 'signup' && password !== '') checkPasswordStrength(ctx.deps, password);
  const signupHash = type === 'signup' && password !== '' ? await hashPassword(ctx.deps.pool, password) : '';
  const result = await transaction(ctx.deps.pool, async (db) => {
    let user = await findUserByEmail(db, email, true);
    if (!user) {
      if (type === 'magiclink') {
        type = 'signup';
        password = crypto.randomBytes(24).toString('base64url');
      } else if (type !== 'signup' && type !== 'invite') {
        throw notFound('user_not_found', 'User with this email not found');
      }
    }
    const otpValue = generateOtp(s.otpLength);
    const hashed = tokenHash(email, otpValue);
    let linkToken = hashed;
    let linkType: MailKind;
    switch (type) {
      case 'magiclink':
      case 'recovery': {
        const u = user!;
        await audit(db, u, 'user_recovery_requested', ctx.ip, {}, ctx.now);
        user = await updateUser(db, u.id, { recovery_token: hashed, recovery_sent_at: ctx.now }, ctx.now);
        await saveOneTimeToken(db, user.id, 'recovery_token', hashed, email);
        linkType = type;
        break;
      }
      case 'invite':
      case 'signup': {
        if (user && user.email_confirmed_at) throw unprocessable('email_exists', 'A user with this email address has already been registered');
        if (!user) {
          if (type === 'signup' && password === '') throw validationFailed('Signup requires a valid password');
          user = await createEmailUser(db, { email, encryptedPassword: signupHash, data, confirmed: false, now: ctx.now });
        } else if (type === 'signup' && Object.keys(data).length) {
          user = await updateUser(db, user.id, { raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, data) }, ctx.now);
        }
        if (type === 'invite') {
          await audit(db, { id: admin.sub ?? '00000000-0000-0000-0000-000000000000', email: 'service_role' }, 'user_invited', ctx.ip, { user_id: user.id, user_email: email }, ctx.now);
        }
        const fields: Record<string, unknown> = { confirmation_token: hashed, confirmation_sent_at: ctx.now };
        if (type === 'invite') fields.invited_at = ctx.now;
        user = await updateUser(db, user.id, fields, ctx.now);
        await saveOneTimeToken(db, user.id, 'confirmation_token', hashed, email);
        linkType = type;
        break;
      }
      default: {
        const u = user!;
        if (type === 'email_change_current' && !s.secureEmailChange) {
          throw validationFailed('Enable secure email change to generate link for current email');
        }
        const newEmail = validateEmail(str(body, 'new_email'));
        const dup = await findUserByEmail(db, newEmail);
        if (dup && dup.id !== u.id) throw unprocessable('email_exists', 'A user with this email address has already been registered');
        const fields: Record<string, unknown> = { email_change: newEmail, email_change_sent_at: ctx.now, email_change_confirm_status: 0 };
        if (type === 'email_change_current') {
          fields.email_change_token_current = hashed;
        } else {
          linkToken = tokenHash(newEmail, otpValue);
          fields.email_change_token_new = linkToken;
        }
        user = await updateUser(db, u.id, fields, ctx.now);
        if (user.email_change_token_current) await saveOneTimeToken(db, user.id, 'email_change_token_current', user.email_change_token_current, email);
        if (user.email_change_token_new) await saveOneTimeToken(db, user.id, 'email_change_token_new', user.email_change_token_new, newEmail);
        linkType = 'email_change';
      }
    }
    return {
      ...userJson(user, await loadIdentities(db, user.id)),
      action_link: actionLink(s, linkToken, linkType, redirectTo),
      email_otp: otpValue,
      hashed_token: hashed,
      verification_type: type,
      redirect_to: redirectTo,
    };
  });
  sendJson(ctx.res, 200, result);
}

/** POST /invite {email, data} (admin): creates the user if needed and mails an invite link. */
async function invite(ctx: Ctx, admin: { sub?: string }): Promise<void> {
  const body = await decodeBody(ctx, 'InviteParams', { email: 'string', data: 'object' });
  const email = validateEmail(str(body, 'email'));
  const redirectTo = referrer(ctx.deps.settings, ctx.query.get('redirect_to'));
  const result = await transaction(ctx.deps.pool, async (db) => {
    let user = await findUserByEmail(db, email, true);
    if (user && user.email_confirmed_at) throw unprocessable('email_exists', 'A user with this email address has already been registered');
    if (!user) {
      user = await createEmailUser(db, { email, encryptedPassword: '', data: (body.data as Record<string, unknown>) ?? {}, confirmed: false, now: ctx.now });
    }
    await audit(db, { id: admin.sub ?? '00000000-0000-0000-0000-000000000000', email: 'service_role' }, 'user_invited', ctx.ip, { user_id: user.id, user_email: email }, ctx.now);
    user = await sendConfirmation({ db, deps: ctx.deps, user, redirectTo, pkce: false, now: ctx.now, kind: 'invite' });
    return userJson(user, await loadIdentities(db, user.id));
  });
  sendJson(ctx.res, 200, result);
}

/**
 * Dispatches the admin routes; returns false when `subpath` is not an admin route.
 * Every admin route requires a service_role (or supabase_admin) JWT: 401 no_authorization /
 * 403 bad_jwt / 403 not_admin otherwise.
 */
export async function adminRoutes(ctx: Ctx): Promise<boolean> {
  const p = ctx.subpath;
  const m = ctx.method;
  const isAdminPath = p === '/admin/users' || p.startsWith('/admin/users/') || p === '/admin/generate_link' || p === '/invite';
  if (!isAdminPath) return false;
  const admin = await requireAdmin(ctx);
  if (p === '/admin/users') {
    if (m === 'GET') await listUsers(ctx);
    else if (m === 'POST') await createUser(ctx, admin);
    else return false;
    return true;
  }
  if (p === '/admin/generate_link' && m === 'POST') {
    await generateLink(ctx, admin);
    return true;
  }
  if (p === '/invite' && m === 'POST') {
    await invite(ctx, admin);
    return true;
  }
  const um = /^\/admin\/users\/([^/]+)$/.exec(p);
  if (um) {
    let id: string;
    try {
      id = decodeURIComponent(um[1]!);
    } catch {
      id = um[1]!;
    }
    if (m === 'GET') {
      const user = await loadTarget(ctx.deps.pool, id);
      sendJson(ctx.res, 200, userJson(user, await loadIdentities(ctx.deps.pool, user.id)));
    } else if (m === 'PUT') await updateUserById(ctx, id);
    else if (m === 'DELETE') await deleteUserById(ctx, id);
    else return false;
    return true;
  }
  return false;
}

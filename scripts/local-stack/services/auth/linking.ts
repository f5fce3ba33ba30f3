/**
 * GoTrue's automatic account linking for OAuth sign-ins, as the callback of an external provider
 * runs it:
 * - `determineAccountLinking` follows supabase/auth `internal/models/linking.go`
 *   DetermineAccountLinking (with the default linking domain: every provider except `sso:*`);
 * - `createAccountFromExternalIdentity` follows `internal/api/external.go`
 *   createAccountFromExternalIdentity, including `User.RemoveUnconfirmedIdentities`
 *   (`internal/models/user.go`) for unconfirmed users and the 422
 *   `provider_email_needs_verification` answers that keep what was written (GoTrue's
 *   storage.NewCommitWithError).
 */
import { forbidden, internalError, unprocessable, type AuthApiError } from './errors.ts';
import { confirmUser, sendConfirmation, updateAppMetadataProviders } from './flows.ts';
import { beforeUserCreated } from './hooks.ts';
import type { Ctx } from './request.ts';
import { audit, findUserById, insertIdentity, insertUser, mergeMetadata, updateUser, type IdentityRow, type Queryable, type UserRow } from './store.ts';
import { isBanned } from './tokens.ts';

/** One address a provider reports (GoTrue's provider.Email). */
export interface ProviderEmail {
  email: string;
  verified: boolean;
  primary: boolean;
}

/** What a provider reports about the account (GoTrue's provider.UserProvidedData). */
export interface ExternalUserData {
  emails: ProviderEmail[];
  /** The provider's subject (`sub`), stored as the identity's provider_id. */
  subject: string;
  /** The claims stored as identity_data (and merged into user_metadata). */
  identityData: Record<string, unknown>;
}

/** GoTrue's AccountLinkingResult. `candidate` is the primary address (lower case; '' when blanked). */
export type LinkingDecision =
  | { kind: 'account_exists'; user: UserRow; identity: IdentityRow; candidate: ProviderEmail }
  | { kind: 'create_account'; candidate: ProviderEmail }
  | { kind: 'link_account'; user: UserRow; candidate: ProviderEmail }
  | { kind: 'multiple_accounts'; candidate: ProviderEmail };

const AUD = 'authenticated';

/** GoTrue's GetAccountLinkingDomain without configured domains: `sso:*` providers are their own, all others `default`. */
const linkingDomain = (provider: string): string => (provider.startsWith('sso:') ? provider : 'default');

/**
 * GoTrue's IsDuplicatedEmail: the user (audience `authenticated`) that owns an identity with
 * this e-mail in the default linking domain, else the non-SSO user with this address; or null.
 */
async function duplicatedEmailUser(db: Queryable, email: string): Promise<UserRow | null> {
  const identities = await db.query<{ user_id: string; provider: string }>('select user_id, provider from auth.identities where email = lower($1)', [email]);
  for (const id of new Set(identities.rows.filter((i) => linkingDomain(i.provider) === 'default').map((i) => i.user_id))) {
    const user = await findUserById(db, id);
    if (user && (user.aud ?? '') === AUD) return user;
  }
  const r = await db.query<UserRow>('select * from auth.users where lower(email) = lower($1) and aud = $2 and is_sso_user = false limit 1', [email, AUD]);
  return r.rows[0] ?? null;
}

/**
 * GoTrue's DetermineAccountLinking for a sign-in with `provider` as subject `sub`:
 * - an identity (provider, sub) exists: account_exists (its user; the candidate e-mail becomes
 *   the user's address);
 * - no verified address (verified by the provider, or every address when mails are
 *   autoconfirmed): create_account, the candidate e-mail blanked when another account has it;
 * - identities in the default domain with a verified address: link_account to their one user
 *   (multiple_accounts when they belong to several); none, but one user with that address:
 *   link_account to it; nobody: create_account.
 */
export async function determineAccountLinking(db: Queryable, autoconfirm: boolean, emails: ProviderEmail[], provider: string, sub: string): Promise<LinkingDecision> {
  const verified: string[] = [];
  let candidate: ProviderEmail = { email: '', verified: false, primary: false };
  for (const e of emails) {
    if (e.verified || autoconfirm) verified.push(e.email.toLowerCase());
    if (e.primary) candidate = { ...e, email: e.email.toLowerCase() };
  }
  const existing = (await db.query<IdentityRow>('select * from auth.identities where provider_id = $1 and provider = $2 limit 1', [sub, provider])).rows[0];
  if (existing) {
    const user = await findUserById(db, existing.user_id, true);
    if (!user) throw internalError('Database error finding user');
    return { kind: 'account_exists', user, identity: existing, candidate: { ...candidate, email: user.email ?? '' } };
  }
  if (verified.length === 0) {
    if (await duplicatedEmailUser(db, candidate.email)) candidate = { ...candidate, email: '' };
    return { kind: 'create_account', candidate };
  }
  const similarIdentities = (await db.query<IdentityRow>('select * from auth.identities where email = any($1::text[])', [verified])).rows;
  const similarUsers = (await db.query<UserRow>('select * from auth.users where email = any($1::text[]) and is_sso_user = false for update', [verified])).rows;
  const linking = similarIdentities.filter((i) => linkingDomain(i.provider) === linkingDomain(provider));
  if (linking.length === 0) {
    if (similarUsers.length === 1) return { kind: 'link_account', user: similarUsers[0]!, candidate };
    if (similarUsers.length > 1) return { kind: 'multiple_accounts', candidate };
    return { kind: 'create_account', candidate };
  }
  const userId = linking[0]!.user_id;
  if (linking.some((i) => i.user_id !== userId)) return { kind: 'multiple_accounts', candidate };
  const user = await findUserById(db, userId, true);
  if (!user) throw internalError('Database error finding user');
  return { kind: 'link_account', user, candidate };
}

/**
 * GoTrue's User.RemoveUnconfirmedIdentities for an unconfirmed user signing in with `identity`:
 * the password goes (unless `identity` is an e-mail or phone identity), user_metadata becomes
 * the identity's data, every other identity is deleted, and app_metadata's providers follow.
 */
async function removeUnconfirmedIdentities(db: Queryable, user: UserRow, identity: IdentityRow, now: Date): Promise<UserRow> {
  let u = user;
  if (identity.provider !== 'email' && identity.provider !== 'phone') u = await updateUser(db, u.id, { encrypted_password: null }, now);
  u = await updateUser(db, u.id, { raw_user_meta_data: identity.identity_data }, now);
  await db.query('delete from auth.identities where user_id = $1 and id <> $2', [u.id, identity.id]);
  return updateAppMetadataProviders(db, u, now);
}

/**
 * What a sign-in with an external provider does to the accounts (GoTrue's
 * createAccountFromExternalIdentity), inside the caller's transaction:
 * - account_exists: the identity's data is replaced and merged into user_metadata;
 * - link_account: a new identity for the user (identity_linked audit entry);
 * - create_account: a new user (422 signup_disabled when sign-ups are off; the
 *   before_user_created hook may refuse) with the candidate e-mail, or none when it was blanked;
 * - multiple_accounts: 500.
 * Then a banned user is refused (403 user_banned). An unconfirmed user loses its other
 * identities and its password (removeUnconfirmedIdentities) and is confirmed when the provider
 * verified the address (or mails are autoconfirmed); otherwise a confirmation mail goes to the
 * candidate address (max_frequency and the e-mail budget apply, 429) and the result carries
 * 422 provider_email_needs_verification, to be answered after the transaction commits.
 * Returns the user and that deferred error (null when the user may sign in).
 */
export async function createAccountFromExternalIdentity(
  db: Queryable,
  ctx: Ctx,
  provider: string,
  data: ExternalUserData,
): Promise<{ user: UserRow; deferredError: AuthApiError | null }> {
  const s = ctx.deps.settings;
  const autoconfirm = !s.enableConfirmations;
  const decision = await determineAccountLinking(db, autoconfirm, data.emails, provider, data.subject);
  let user: UserRow;
  let identity: IdentityRow;
  switch (decision.kind) {
    case 'link_account': {
      user = decision.user;
      identity = await insertIdentity(db, user.id, provider, data.subject, data.identityData, ctx.now);
      user = await updateUser(db, user.id, { raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, data.identityData) }, ctx.now);
      user = await updateAppMetadataProviders(db, user, ctx.now);
      await audit(db, user, 'identity_linked', ctx.ip, { identity_id: identity.id, provider, provider_id: identity.provider_id }, ctx.now);
      break;
    }
    case 'create_account': {
      if (s.disableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
      const appMetadata = { provider, providers: [provider] };
      const email = decision.candidate.email === '' ? null : decision.candidate.email;
      await beforeUserCreated(db, s, { email, app_metadata: appMetadata, user_metadata: data.identityData });
      user = await insertUser(db, { email, encryptedPassword: '', appMetadata, userMetadata: data.identityData }, ctx.now);
      identity = await insertIdentity(db, user.id, provider, data.subject, data.identityData, ctx.now);
      break;
    }
    case 'account_exists': {
      identity = decision.identity;
      await db.query('update auth.identities set identity_data = $2, updated_at = $3 where id = $1', [identity.id, JSON.stringify(data.identityData), ctx.now]);
      identity = { ...identity, identity_data: data.identityData };
      user = await updateUser(db, decision.user.id, { raw_user_meta_data: mergeMetadata(decision.user.raw_user_meta_data, data.identityData) }, ctx.now);
      user = await updateAppMetadataProviders(db, user, ctx.now);
      break;
    }
    case 'multiple_accounts':
      throw internalError('Multiple accounts with the same email address in the same linking domain detected: default');
  }
  if (isBanned(user, ctx.now)) throw forbidden('user_banned', 'User is banned');
  if (user.email_confirmed_at) {
    await audit(db, user, 'login', '', { provider }, ctx.now);
    return { user, deferredError: null };
  }
  user = await removeUnconfirmedIdentities(db, user, identity, ctx.now);
  if (decision.candidate.verified || autoconfirm) {
    await audit(db, user, 'user_signedup', '', { provider }, ctx.now);
    return { user: await confirmUser(db, user, ctx.now, { identities: false }), deferredError: null };
  }
  if (decision.candidate.email !== '') {
    user = await sendConfirmation({ db, deps: ctx.deps, user, redirectTo: s.siteUrl, pkce: false, now: ctx.now });
    return {
      user,
      deferredError: unprocessable('provider_email_needs_verification', `Unverified email with ${provider}. A confirmation email has been sent to your ${provider} email`),
    };
  }
  return {
    user,
    deferredError: unprocessable('provider_email_needs_verification', `Unverified email with ${provider}. Verify the email with ${provider} in order to sign in`),
  };
}


-- =============================================================================
-- Auth refuses sessions for suspended and legacy accounts after the password check
-- (issue 12 findings 10 and 12)
-- =============================================================================
-- Before: a suspension banned the auth user, and GoTrue answers `user_banned` BEFORE it checks
-- the password, so anyone could learn that an address belongs to a suspended account; and the
-- legacy old_user (spec §4: must set a new password first) got a session straight from Auth.
-- Now Auth's custom access token hook (supabase/config.toml [auth.hook.custom_access_token])
-- decides for every token it issues (password, refresh, PKCE, OAuth, magic link), i.e. only after
-- the password was verified:
--   * suspended account  -> HTTP 403 (and a suspension ends the account's sessions at once);
--   * legacy old_user    -> HTTP 409 until the password reset (complete-password-reset) makes
--                           the account `free`.
-- Wrong passwords get Auth's usual 400 invalid_credentials, the same as unknown addresses.

/* GoTrue custom access token hook. Input `{ user_id, claims, authentication_method }`; output
   `{ claims }` (unchanged) or `{ error: { http_code, message } }`, which refuses the token.
   Executed by Auth only (supabase_auth_admin), never by API roles. */
create or replace function public.custom_access_token_hook(event jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user uuid;
  v_role public.user_role;
begin
  begin
    v_user := (event ->> 'user_id')::uuid;
  exception when invalid_text_representation then
    return pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object('http_code', 400, 'message', 'Invalid user id'));
  end;
  if exists (select 1 from public.account_suspensions s where s.user_id = v_user) then
    return pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object(
      'http_code', 403, 'message', 'Your account has been suspended. Please contact support.'));
  end if;
  select p.user_role into v_role from public.profiles p where p.id = v_user;
  if v_role = 'old_user' then
    return pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object(
      'http_code', 409, 'message', 'Please set a new password (legacy account).'));
  end if;
  return pg_catalog.jsonb_build_object('claims', event -> 'claims');
end;
$$;
comment on function public.custom_access_token_hook(jsonb) is
  'Auth hook: refuses tokens of suspended (403) and legacy old_user (409) accounts after the password check (issue 12).';
revoke all on function public.custom_access_token_hook(jsonb) from public, anon, authenticated;
grant execute on function public.custom_access_token_hook(jsonb) to supabase_auth_admin, service_role;

/* GoTrue before-user-created hook (issue 12 finding 12): sign-ups through Auth itself with e-mail
   (password or magic link) or anonymously skip the product's password rules and terms, so they
   are refused (HTTP 403); the product's sign-up is the register function (admin API, not seen by
   this hook). OAuth sign-ins still create accounts. Output `{}` or `{ error: { http_code,
   message } }`. */
create or replace function public.before_user_created_hook(event jsonb)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select case
    when coalesce((event #>> '{user,is_anonymous}')::boolean, false)
      or coalesce(event #>> '{user,app_metadata,provider}', 'email') = 'email'
    then pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object(
      'http_code', 403, 'message', 'Please sign up on the registration page.'))
    else '{}'::jsonb
  end
$$;
comment on function public.before_user_created_hook(jsonb) is
  'Auth hook: refuses self sign-ups with e-mail or anonymous ones (register is the sign-up); OAuth passes (issue 12).';
revoke all on function public.before_user_created_hook(jsonb) from public, anon, authenticated;
grant execute on function public.before_user_created_hook(jsonb) to supabase_auth_admin, service_role;

-- -----------------------------------------------------------------------------
-- Suspension: sessions end at once; no ban (the ban answered before the password check)
-- -----------------------------------------------------------------------------
drop trigger account_suspensions_ban on public.account_suspensions;
drop function private.sync_suspension_ban();

/* AFTER INSERT on account_suspensions: ends the account's sessions (refresh tokens go with them),
   so no new access token is issued; the hook refuses new sign-ins. */
create or replace function private.end_sessions_on_suspension()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from auth.sessions where user_id = new.user_id;
  return new;
end;
$$;
comment on function private.end_sessions_on_suspension() is
  'AFTER INSERT on account_suspensions: deletes the auth sessions of the suspended account (issue 12).';
create trigger account_suspensions_end_sessions
  after insert on public.account_suspensions
  for each row execute function private.end_sessions_on_suspension();

update auth.users u set banned_until = null
where exists (select 1 from public.account_suspensions s where s.user_id = u.id)
  and u.banned_until is not null;

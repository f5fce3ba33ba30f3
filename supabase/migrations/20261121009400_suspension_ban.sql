-- =============================================================================
-- Suspension is enforced by Auth too (spec §5: a suspended account cannot log in)
-- =============================================================================
-- A row in account_suspensions bans the auth user (auth.users.banned_until, GoTrue's ban), so
-- Auth refuses password, OAuth and refresh-token sign-ins and /auth/v1/user with `user_banned`
-- even when a client skips the login-check function. Lifting the suspension lifts the ban.
-- 100 years instead of 'infinity' because GoTrue parses banned_until as a finite timestamp.

create or replace function private.sync_suspension_ban()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update auth.users set banned_until = pg_catalog.now() + interval '100 years', updated_at = pg_catalog.now()
    where id = new.user_id;
    return new;
  end if;
  update auth.users set banned_until = null, updated_at = pg_catalog.now()
  where id = old.user_id
    and not exists (select 1 from public.account_suspensions s where s.user_id = old.user_id);
  return old;
end;
$$;
comment on function private.sync_suspension_ban() is
  'AFTER INSERT/DELETE on account_suspensions: ban/unban the auth user (banned_until), so Auth refuses suspended accounts.';

create trigger account_suspensions_ban
  after insert or delete on public.account_suspensions
  for each row execute function private.sync_suspension_ban();

-- Suspensions that existed before this migration.
update auth.users u set banned_until = pg_catalog.now() + interval '100 years'
where exists (select 1 from public.account_suspensions s where s.user_id = u.id)
  and (u.banned_until is null or u.banned_until < pg_catalog.now());

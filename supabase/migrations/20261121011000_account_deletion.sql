-- =============================================================================
-- DSGVO Art. 17: self-service account deletion; admin deletion of a user (issue 6)
-- =============================================================================
-- Deleting the auth.users row removes the profile and everything that references it
-- (on delete cascade), as the Auth admin API's deleteUser would.

create or replace function private.delete_my_account(p_email text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  my_email text;
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  select u.email into my_email from auth.users u where u.id = me;
  if my_email is null or pg_catalog.lower(pg_catalog.btrim(coalesce(p_email, ''))) <> pg_catalog.lower(my_email) then
    raise exception using errcode = '22023', message = 'email_mismatch',
      detail = 'Type the e-mail address of your account to confirm the deletion.';
  end if;
  delete from auth.users where id = me;
end;
$$;
comment on function private.delete_my_account(text) is 'Implementation of public.delete_my_account.';
revoke all on function private.delete_my_account(text) from public, anon;
grant execute on function private.delete_my_account(text) to authenticated;

/* DSGVO Art. 17: deletes the caller's account and all their data. p_email must repeat the
   account's e-mail address (case-insensitive) as confirmation.
   Errors: 28000 not_authenticated; 22023 email_mismatch. */
create or replace function public.delete_my_account(p_email text)
returns void
language sql
volatile
set search_path = ''
as $$
  select private.delete_my_account(p_email)
$$;
comment on function public.delete_my_account(text) is 'DSGVO Art. 17: deletes the caller''s own account (confirmed by the typed e-mail).';
revoke all on function public.delete_my_account(text) from public, anon;
grant execute on function public.delete_my_account(text) to authenticated;

create or replace function private.admin_delete_user(p_user_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception using errcode = '42501', message = 'forbidden', detail = 'Only administrators may delete users.';
  end if;
  if p_user_id = auth.uid() then
    raise exception using errcode = '22023', message = 'cannot_delete_self', detail = 'Administrators cannot delete their own account here.';
  end if;
  delete from auth.users where id = p_user_id;
  if not found then
    raise exception using errcode = 'P0002', message = 'not_found', detail = 'User not found.';
  end if;
end;
$$;
comment on function private.admin_delete_user(uuid) is 'Implementation of public.admin_delete_user.';
revoke all on function private.admin_delete_user(uuid) from public, anon;
grant execute on function private.admin_delete_user(uuid) to authenticated;

/* Admin user management (spec §2 /admin/users): deletes a user's auth account, profile and data.
   Errors: 42501 forbidden (not an admin); 22023 cannot_delete_self; P0002 not_found. */
create or replace function public.admin_delete_user(p_user_id uuid)
returns void
language sql
volatile
set search_path = ''
as $$
  select private.admin_delete_user(p_user_id)
$$;
comment on function public.admin_delete_user(uuid) is 'Admins: delete a user (auth account, profile and data).';
revoke all on function public.admin_delete_user(uuid) from public, anon;
grant execute on function public.admin_delete_user(uuid) to authenticated;

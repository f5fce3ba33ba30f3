-- The listed-users counter (private.counters.listed_profiles, shown as the number of visible users)
-- drifted when several profiles were deleted at the same time: the DELETE branch of
-- private.count_listed_profiles() recounted in ONE statement whose snapshot was taken before it
-- waited for the counter row, so a concurrent deletion committed meanwhile was still counted and
-- the recount overwrote the other transactions' increments.
--
-- Fix: take the counter row lock in its own statement first, then recount in a new statement.
-- Under READ COMMITTED (PostgREST, Auth, the admin API) every statement of a volatile PL/pgSQL
-- function gets a fresh snapshot, so the recount sees every transaction that touched the counter
-- before us (they held the row lock until they committed). A transaction that changed a profile
-- but has not bumped yet is not in our count and adds its delta after us, which is also right.

create or replace function private.count_listed_profiles()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  old_listed boolean;
  new_listed boolean;
begin
  if tg_table_name = 'account_suspensions' then
    -- a suspension hides a listed profile; lifting it shows it again (profile may be gone on cascade)
    if exists (select 1 from public.profiles p where p.id = coalesce(new.user_id, old.user_id)
               and p.authenticated = 1 and p.profile_visibility = 1) then
      perform private.bump_listed_profiles(case when tg_op = 'INSERT' then -1 else 1 end);
    end if;
    return null;
  end if;
  if tg_op = 'DELETE' then
    -- rare; the suspension row may already be gone (cascade), so recount: lock first, then count
    -- with the snapshot of the next statement (see the header of this migration)
    perform 1 from private.counters where name = 'listed_profiles' for update;
    update private.counters set value = (
      select count(*) from public.profiles p
      where p.authenticated = 1 and p.profile_visibility = 1
        and not exists (select 1 from public.account_suspensions s where s.user_id = p.id))
    where name = 'listed_profiles';
    return null;
  end if;
  new_listed := new.authenticated = 1 and new.profile_visibility = 1;
  old_listed := tg_op = 'UPDATE' and old.authenticated = 1 and old.profile_visibility = 1;
  if new_listed is distinct from old_listed
     and not exists (select 1 from public.account_suspensions s where s.user_id = new.id) then
    perform private.bump_listed_profiles(case when new_listed then 1 else -1 end);
  end if;
  return null;
end;
$$;
comment on function private.count_listed_profiles() is
  'AFTER trigger keeping private.counters.listed_profiles current; deletions recount after locking the counter row (no drift under concurrent deletions).';

-- =============================================================================
-- Contacts: requests and accepted contacts (spec §2 /user/contacts)
-- =============================================================================

create type public.contact_status as enum ('pending', 'accepted', 'declined');

create table public.contacts (
  id bigint generated always as identity primary key,
  requester_id uuid not null references public.profiles (id) on delete cascade,
  addressee_id uuid not null references public.profiles (id) on delete cascade,
  status public.contact_status not null default 'pending',
  message text check (char_length(message) <= 1000),
  created_at timestamptz not null default now(),
  responded_at timestamptz,
  constraint contacts_not_self check (requester_id <> addressee_id)
);
comment on table public.contacts is
  'Contact requests (pending) and contacts (accepted). One row per pair in either direction. Presence is realtime, not stored.';
comment on column public.contacts.message is 'Optional note sent with the request.';
comment on column public.contacts.responded_at is 'When the addressee accepted or declined.';

create unique index contacts_pair_idx on public.contacts (least(requester_id, addressee_id), greatest(requester_id, addressee_id));
create index contacts_requester_idx on public.contacts (requester_id, status);
create index contacts_addressee_idx on public.contacts (addressee_id, status);

-- Only the addressee answers (pending -> accepted/declined); nobody rewrites the pair.
create or replace function private.guard_contact()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if private.is_blocked(new.requester_id, new.addressee_id) then
      raise exception using errcode = 'P0001', message = 'blocked', detail = 'No contact between blocked users.';
    end if;
    if not private.is_privileged() then
      new.status := 'pending';
      new.responded_at := null;
    end if;
    return new;
  end if;
  if private.is_privileged() then
    return new;
  end if;
  if new.requester_id <> old.requester_id or new.addressee_id <> old.addressee_id or new.created_at <> old.created_at
     or new.message is distinct from old.message then
    raise exception using errcode = '42501', message = 'protected_column', detail = 'Only the status of a contact changes.';
  end if;
  if new.status <> old.status then
    if auth.uid() <> old.addressee_id and not private.is_admin() then
      raise exception using errcode = '42501', message = 'not_addressee', detail = 'Only the addressee answers a request.';
    end if;
    new.responded_at := pg_catalog.now();
  end if;
  return new;
end;
$$;
comment on function private.guard_contact() is 'BEFORE INSERT/UPDATE on contacts: no blocked pairs, only the addressee answers.';
create trigger contacts_guard before insert or update on public.contacts
  for each row execute function private.guard_contact();

alter table public.contacts enable row level security;
revoke all on public.contacts from anon, authenticated;
grant select, insert, update, delete on public.contacts to authenticated;
grant all on public.contacts to service_role;

create policy contacts_select on public.contacts for select to authenticated
using (
  ((requester_id = (select auth.uid()) or addressee_id = (select auth.uid()))
   and not private.is_blocked(requester_id, addressee_id))
  or (select private.is_admin())
);
create policy contacts_insert on public.contacts for insert to authenticated
with check (
  requester_id = (select auth.uid())
  and (select private.caller_can_write())
  and not (addressee_id = any ((select private.hidden_user_ids())::uuid[]))
);
create policy contacts_update on public.contacts for update to authenticated
using ((requester_id = (select auth.uid()) or addressee_id = (select auth.uid())) and (select private.caller_can_write()))
with check (requester_id = (select auth.uid()) or addressee_id = (select auth.uid()));
create policy contacts_delete on public.contacts for delete to authenticated
using (requester_id = (select auth.uid()) or addressee_id = (select auth.uid()) or (select private.is_admin()));

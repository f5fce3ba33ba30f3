-- =============================================================================
-- Who sees whom, payment-required writes, documented errors (issue 12 findings 4, 5, 11)
-- =============================================================================

-- -----------------------------------------------------------------------------
-- Finding 4: relations created by one side alone must not widen what that side sees.
-- Before: any contact row (even a pending request I sent) or any conversation I opened made the
-- other person's hidden profile readable to me. Now a hidden profile is readable by:
--   * accepted contacts (both agreed),
--   * the addressee of a request (the requester chose to reach out and shows themselves),
--   * members of a conversation in which that person took part (created it or wrote in it).
-- -----------------------------------------------------------------------------
create or replace function private.related_user_ids()
returns uuid[]
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  result uuid[];
begin
  if me is null then
    return '{}';
  end if;
  select coalesce(array_agg(distinct x), '{}') into result
  from (
    select case when c.requester_id = me then c.addressee_id else c.requester_id end as x
    from public.contacts c
    where (c.requester_id = me or c.addressee_id = me) and c.status = 'accepted'
    union all
    select c.requester_id
    from public.contacts c
    where c.addressee_id = me and c.status = 'pending'
    union all
    select other.user_id
    from public.conversation_members mine
    join public.conversation_members other
      on other.conversation_id = mine.conversation_id and other.user_id <> mine.user_id
    where mine.user_id = me
      and (exists (select 1 from public.conversations c where c.id = other.conversation_id and c.created_by = other.user_id)
           or exists (select 1 from public.messages m where m.conversation_id = other.conversation_id and m.sender_id = other.user_id))
  ) s;
  return result;
end;
$$;
comment on function private.related_user_ids() is
  'People whose hidden profile auth.uid() may see because they agreed: accepted contacts, senders of requests to me, chat partners who took part (issue 12 finding 4).';

/* The profiles policy as a function: may the caller see profile p_user_id? (self, admins, or not
   hidden and either listed or related by the other's consent). */
create or replace function private.can_see_profile(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_user_id is not null and (
    p_user_id = auth.uid()
    or private.is_admin()
    or (not (p_user_id = any (private.hidden_user_ids()))
        and (exists (select 1 from public.profiles p where p.id = p_user_id and p.listed)
             or p_user_id = any (private.related_user_ids()))))
$$;
comment on function private.can_see_profile(uuid) is 'True when the profiles policy lets auth.uid() read profile p_user_id.';
grant execute on function private.can_see_profile(uuid) to authenticated, service_role;

-- A contact request goes only to someone the requester can see (no probing hidden accounts by id).
drop policy contacts_insert on public.contacts;
create policy contacts_insert on public.contacts for insert to authenticated
with check (
  requester_id = (select auth.uid())
  and (select private.caller_can_write())
  and not (addressee_id = any ((select private.hidden_user_ids())::uuid[]))
  and private.can_see_profile(addressee_id)
);

-- -----------------------------------------------------------------------------
-- Finding 5: the payment-required rule (spec §6) in the database. Creating portfolios (and their
-- files), events, conversations, conversation members, messages and contact requests needs an
-- active paid subscription (or the admin role), whatever the client. Projects already follow the
-- plan limit (free = 0). Favourites, RSVPs, blocks, feedback and profile edits stay open: they
-- are not behind the guard (spec §6) or are safety and privacy rights.
-- -----------------------------------------------------------------------------

/* Payment-required rule (spec §6) for p_user_id: an active, trialing or past_due subscription
   whose period ended less than a day ago, or the admin role. */
create or replace function private.has_paid_access(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_user_id is not null and (
    exists (select 1 from public.profiles p where p.id = p_user_id and p.user_role = 'admin')
    or exists (
      select 1 from public.subscriptions s
      where s.user_id = p_user_id
        and private.is_paid_status(s.status)
        and (s.current_period_end is null or s.current_period_end > pg_catalog.now() - interval '1 day')))
$$;
comment on function private.has_paid_access(uuid) is 'Spec §6 payment-required rule for one user (paid subscription or admin).';
grant execute on function private.has_paid_access(uuid) to authenticated, service_role;

create or replace function public.has_active_subscription()
returns boolean
language sql
stable
set search_path = ''
as $$
  select private.has_paid_access(auth.uid())
$$;
comment on function public.has_active_subscription() is
  'Payment-required guard (spec §6): caller has a paid subscription (or is admin). The database applies the same rule to guarded writes.';
grant execute on function private.has_paid_access(uuid) to anon;

/* BEFORE INSERT on the guarded tables: API callers need paid access (spec §6). SECURITY INVOKER
   so current_user is the caller; service_role, the owner and our security-definer RPCs pass.
   Errors: PT402 payment_required (HTTP 402 through PostgREST). */
create or replace function private.require_paid_access()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if private.is_privileged() then
    return new;
  end if;
  if not private.has_paid_access(auth.uid()) then
    raise exception using errcode = 'PT402', message = 'payment_required',
      detail = 'An active paid subscription is required for this (spec §6).';
  end if;
  return new;
end;
$$;
comment on function private.require_paid_access() is
  'BEFORE INSERT: PT402 payment_required unless the API caller has paid access (issue 12 finding 5).';
grant execute on function private.require_paid_access() to anon, authenticated, service_role;

create trigger portfolios_paid_access before insert on public.portfolios
  for each row execute function private.require_paid_access();
create trigger portfolio_files_paid_access before insert on public.portfolio_files
  for each row execute function private.require_paid_access();
create trigger events_paid_access before insert on public.events
  for each row execute function private.require_paid_access();
create trigger conversations_paid_access before insert on public.conversations
  for each row execute function private.require_paid_access();
create trigger conversation_members_paid_access before insert on public.conversation_members
  for each row execute function private.require_paid_access();
create trigger messages_paid_access before insert on public.messages
  for each row execute function private.require_paid_access();
create trigger contacts_paid_access before insert on public.contacts
  for each row execute function private.require_paid_access();

-- -----------------------------------------------------------------------------
-- start_direct_conversation: paid access, only with someone the caller can see, and documented
-- errors with their HTTP status (finding 11: unknown or own id answered 500).
-- -----------------------------------------------------------------------------
/* Errors: 28000 not_authenticated (403); PT402 payment_required; 22023 cannot_message_self (400);
   PT404 user_not_found (unknown, suspended, hidden from the caller; 404); P0001 blocked (400). */
create or replace function private.start_direct_conversation(p_other_user_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  conv uuid;
begin
  if me is null or not private.caller_can_write() then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  if p_other_user_id is null then
    raise exception using errcode = '22023', message = 'invalid_user_id', detail = 'p_other_user_id is required.';
  end if;
  if p_other_user_id = me then
    raise exception using errcode = '22023', message = 'cannot_message_self', detail = 'A direct conversation needs another person.';
  end if;
  if not private.has_paid_access(me) then
    raise exception using errcode = 'PT402', message = 'payment_required',
      detail = 'An active paid subscription is required for this (spec §6).';
  end if;
  if private.is_blocked(me, p_other_user_id) then
    raise exception using errcode = 'P0001', message = 'blocked';
  end if;
  if not exists (select 1 from public.profiles where id = p_other_user_id)
     or private.is_suspended(p_other_user_id)
     or not private.can_see_profile(p_other_user_id) then
    raise exception using errcode = 'PT404', message = 'user_not_found', detail = 'No such person.';
  end if;
  -- serialise concurrent starts for the same pair
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(
    least(me, p_other_user_id)::text || greatest(me, p_other_user_id)::text, 0));
  select c.id into conv
  from public.conversations c
  join public.conversation_members a on a.conversation_id = c.id and a.user_id = me
  join public.conversation_members b on b.conversation_id = c.id and b.user_id = p_other_user_id
  where c.kind = 'direct'
  limit 1;
  if conv is null then
    insert into public.conversations (kind, created_by) values ('direct', me) returning id into conv;
    insert into public.conversation_members (conversation_id, user_id, role)
    values (conv, me, 'owner'), (conv, p_other_user_id, 'member');
  end if;
  return conv;
end;
$$;
comment on function private.start_direct_conversation(uuid) is 'Implementation of public.start_direct_conversation.';
comment on function public.start_direct_conversation(uuid) is
  'Opens or reuses the direct chat with p_other_user_id; errors 28000 not_authenticated, PT402 payment_required, 22023 cannot_message_self/invalid_user_id, PT404 user_not_found, P0001 blocked.';

/* Errors: 42501 forbidden (not an admin; 403); 22023 cannot_delete_self (400); PT404 not_found (404). */
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
  if p_user_id is null or p_user_id = auth.uid() then
    raise exception using errcode = '22023', message = 'cannot_delete_self', detail = 'Administrators cannot delete their own account here.';
  end if;
  delete from auth.users where id = p_user_id;
  if not found then
    raise exception using errcode = 'PT404', message = 'not_found', detail = 'User not found.';
  end if;
end;
$$;
comment on function private.admin_delete_user(uuid) is 'Implementation of public.admin_delete_user.';
comment on function public.admin_delete_user(uuid) is
  'Admins: delete a user (auth account, profile and data). Errors 42501 forbidden, 22023 cannot_delete_self, PT404 not_found.';

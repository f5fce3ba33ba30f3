-- =============================================================================
-- E-mail: kinds, templates, the queue, confirmation -> welcome (spec §3, §7; issues 6, 17) and
-- the rate limits of the public mail-sending endpoints (issue 12 §8)
-- =============================================================================
-- Mails are queued in public.email_queue by triggers and functions and drained by the Edge
-- Function process-email-queue (pg_cron every minute, see the data migration) through
-- claim_email_batch / complete_emails / fail_email. The kinds and their templates are reference
-- data (data migration).
--
-- E-mail priority (issue 17: after an outage the queue delivers in order of priority):
-- 0 = account access (confirm, reset, "account exists"), 1 = contract and payment, 3 = receipts
-- and welcome, 4 = newsletter opt-in, 5 = notifications, 7 = newsletter welcome. A worker claims
-- due mails by priority first, then by due time: after the provider was down for a while, a
-- password reset does not wait behind a backlog of chat notifications.
--
-- Rate limits (issue 12 §8): the anonymous contact form and the newsletter sign-up would send
-- mails with attacker-chosen text to any address; the limits (14_feedback_newsletter_contact.sql,
-- and `register` through enforce_public_rate_limit) count hits per address, account and client
-- IP. The client IP is the first entry of X-Forwarded-For as PostgREST passes it in
-- `request.headers`; the API gateway sets that header from the socket address. Requests that do
-- not come through PostgREST (no request.headers: seed, psql, database tests) have no client IP
-- and are limited per address and account only; the service role is not limited.

-- -----------------------------------------------------------------------------
-- Types
-- -----------------------------------------------------------------------------

create type public.email_status as enum ('pending', 'processing', 'sent', 'failed');

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table public.email_types (
  key text primary key check (key ~ '^[a-z_]+$'),
  description text not null,
  priority smallint not null default 5 check (priority between 0 and 9)
);
comment on table public.email_types is 'Catalogue of transactional e-mail kinds; templates and queue rows reference it.';
comment on column public.email_types.priority is 'Claim order of due mails of this kind: 0 first (issue 17).';
alter table public.email_types enable row level security;
revoke all on public.email_types from anon, authenticated;
grant select (key, description, priority) on public.email_types to authenticated;

create table public.email_templates (
  key text not null references public.email_types (key) on update cascade,
  lang text not null check (lang in ('de', 'en')),
  subject text not null check (char_length(subject) between 1 and 200),
  body text not null check (char_length(body) between 1 and 20000),
  updated_at timestamptz not null default now(),
  primary key (key, lang)
);
comment on table public.email_templates is
  'Subject and plain-text body per e-mail kind and language. {{placeholders}} are filled and escaped by the renderer (React Email).';
comment on column public.email_templates.body is
  'Paragraphs separated by blank lines; placeholders: {{firstname}}, {{lastname}}, {{link}}, {{plan}}, {{period}}, {{amount}}, {{date}}.';
alter table public.email_templates enable row level security;
revoke all on public.email_templates from anon, authenticated;
grant select (key, lang, subject, body, updated_at) on public.email_templates to authenticated;
grant update (subject, body) on public.email_templates to authenticated;

create table public.email_queue (
  id bigint generated always as identity primary key,
  user_id uuid references public.profiles (id) on delete set null,
  email text not null check (email ~ '^[^@\s]+@[^@\s]+$' and char_length(email) <= 320),
  email_type text not null references public.email_types (key) on update cascade,
  lang text not null default 'de' check (lang in ('de', 'en')),
  user_metadata jsonb not null default '{}'::jsonb,
  payload jsonb not null default '{}'::jsonb,
  status public.email_status not null default 'pending',
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  locked_at timestamptz,
  locked_until timestamptz,
  last_error text,
  provider_message_id text,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  priority smallint not null default 5 check (priority between 0 and 9)
);
comment on table public.email_queue is
  'Outgoing mails. Filled by triggers and functions; drained by process-email-queue via claim_email_batch (for update skip locked).';
comment on column public.email_queue.user_metadata is 'Recipient data for placeholders, e.g. {"firstname": "Anna", "lastname": "Schmidt"}.';
comment on column public.email_queue.payload is 'Mail-specific values, e.g. {"link": "https://..."}.';
comment on column public.email_queue.attempts is 'Number of claims so far (incremented by claim_email_batch).';
comment on column public.email_queue.next_attempt_at is 'Not claimed before this time (exponential backoff after failures).';
comment on column public.email_queue.locked_at is 'When the current worker claimed the row.';
comment on column public.email_queue.locked_until is 'Claim expiry: a processing row past this time is reclaimed (worker died).';
comment on column public.email_queue.provider_message_id is 'Resend message id after a successful send.';
comment on column public.email_queue.priority is 'Copied from email_types.priority on insert (trigger); claim order.';
create index email_queue_due_idx on public.email_queue (priority, next_attempt_at, id) where status = 'pending';
create index email_queue_stale_idx on public.email_queue (locked_until) where status = 'processing';
create index email_queue_user_idx on public.email_queue (user_id);
create index email_queue_type_idx on public.email_queue (email_type);
create unique index email_queue_welcome_once_idx on public.email_queue (user_id) where email_type = 'welcome_email';
alter table public.email_queue enable row level security;
revoke all on public.email_queue from anon, authenticated;
grant select (id, user_id, email, email_type, lang, user_metadata, payload, status, attempts, next_attempt_at,
              locked_at, locked_until, last_error, provider_message_id, sent_at, created_at, updated_at,
              priority)
  on public.email_queue to authenticated;
grant insert (user_id, email, email_type, lang, user_metadata) on public.email_queue to authenticated;

create table private.rate_limits (
  bucket text not null check (bucket ~ '^[a-z_]+:[a-z_]+$'),
  key_hash bytea not null,
  window_start timestamptz not null,
  hits integer not null check (hits >= 0),
  primary key (bucket, key_hash)
);
comment on table private.rate_limits is
  'Fixed-window counters of the public mail-sending endpoints (issue 12 §8). One row per bucket and key; the window starts at the first hit after the previous one expired.';
comment on column private.rate_limits.bucket is 'What is counted, e.g. contact:email, contact:ip, newsletter_confirm:email.';
comment on column private.rate_limits.key_hash is 'sha256 of the lower-cased key (address, account id, client IP); the plain value is never stored.';
comment on column private.rate_limits.window_start is 'Start of the current window (first hit).';
comment on column private.rate_limits.hits is 'Hits counted in the current window (refused attempts roll back and do not count).';
create index rate_limits_window_idx on private.rate_limits (window_start);
alter table private.rate_limits enable row level security;
revoke all on private.rate_limits from public, anon, authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

-- Confirmation -> welcome (spec §7) and legacy accounts (spec §4), on auth.users
-- Confirmation -> welcome (spec §7): when auth.users.email_confirmed_at becomes non-null the
-- profile is marked authenticated = 1 and welcome_email is queued in the user's language.
create or replace function private.handle_user_confirmed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  p public.profiles;
begin
  update public.profiles set authenticated = 1 where id = new.id returning * into p;
  if found then
    perform private.enqueue_email(p.id, p.email, 'welcome_email', p.preferred_language,
      pg_catalog.jsonb_build_object('firstname', p.firstname, 'lastname', p.lastname), '{}'::jsonb);
  end if;
  return new;
end;
$$;
comment on function private.handle_user_confirmed() is
  'AFTER UPDATE OF email_confirmed_at on auth.users (null -> set): authenticated = 1 and welcome_email queued.';
create trigger on_auth_user_confirmed
  after update of email_confirmed_at on auth.users
  for each row when (old.email_confirmed_at is null and new.email_confirmed_at is not null)
  execute function private.handle_user_confirmed();

-- Spec §4: a legacy old_user who sets a new password becomes role free.
create or replace function private.handle_password_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles set user_role = 'free' where id = new.id and user_role = 'old_user';
  return new;
end;
$$;
comment on function private.handle_password_changed() is 'AFTER UPDATE OF encrypted_password on auth.users: old_user -> free.';
create trigger on_auth_user_password_changed
  after update of encrypted_password on auth.users
  for each row when (old.encrypted_password is distinct from new.encrypted_password)
  execute function private.handle_password_changed();

create or replace function private.email_queue_priority()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select t.priority into new.priority from public.email_types t where t.key = new.email_type;
  new.priority := coalesce(new.priority, 5);
  return new;
end;
$$;
create trigger email_queue_priority before insert on public.email_queue
  for each row execute function private.email_queue_priority();
create trigger email_queue_updated_at before update on public.email_queue
  for each row execute function private.set_updated_at();
create trigger email_templates_updated_at before update on public.email_templates
  for each row execute function private.set_updated_at();

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

create or replace function private.enqueue_email(
  p_user_id uuid, p_email text, p_type text, p_lang text, p_user_metadata jsonb, p_payload jsonb)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  new_id bigint;
begin
  insert into public.email_queue (user_id, email, email_type, lang, user_metadata, payload)
  values (p_user_id, p_email, p_type, case when p_lang = 'en' then 'en' else 'de' end,
          coalesce(p_user_metadata, '{}'::jsonb), coalesce(p_payload, '{}'::jsonb))
  on conflict do nothing
  returning id into new_id;
  return new_id;
end;
$$;
comment on function private.enqueue_email(uuid, text, text, text, jsonb, jsonb) is
  'Queues one mail; returns its id, or null when a once-only mail (welcome) was already queued.';

create or replace function private.wants_email(p_user_id uuid, p_kind text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select case p_kind when 'contact_requests' then s.email_contact_requests
                                      when 'messages' then s.email_messages
                                      when 'event_updates' then s.email_event_updates
                                      when 'match_digest' then s.email_match_digest end
                   from public.user_settings s where s.user_id = p_user_id), true)
$$;
comment on function private.wants_email(uuid, text) is
  'E-mail switch of a user per kind (contact_requests, messages, event_updates, match_digest), default true. Issues 13, 16, 19.';

-- Rate limits
/* Counts one hit of p_key in p_bucket and returns whether it is within p_limit hits of the
   window p_window (fixed window from the first hit; with p_limit 1 two allowed hits are always
   at least p_window apart). Concurrent hits on one key serialise on the row, so parallel
   requests cannot overshoot. Returns true = allowed. */
create or replace function private.rate_limit_hit(p_bucket text, p_key text, p_limit integer, p_window interval)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_hits integer;
begin
  insert into private.rate_limits as r (bucket, key_hash, window_start, hits)
  values (p_bucket, pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.lower(coalesce(p_key, '')), 'UTF8')), pg_catalog.now(), 1)
  on conflict (bucket, key_hash) do update
    set hits = case when r.window_start <= pg_catalog.now() - p_window then 1 else r.hits + 1 end,
        window_start = case when r.window_start <= pg_catalog.now() - p_window then pg_catalog.now() else r.window_start end
  returning hits into v_hits;
  return v_hits <= p_limit;
end;
$$;
comment on function private.rate_limit_hit(text, text, integer, interval) is
  'Counts a hit; true while within p_limit per p_window (issue 12 §8).';

/* Like rate_limit_hit, but refuses: raises SQLSTATE PT429 (PostgREST answers HTTP 429) with
   message rate_limited, a human-readable detail naming p_what and the limit, and the seconds
   until the window ends in the hint ("retry_after=<s>"). The refused attempt is rolled back with
   the request, so it does not count. */
create or replace function private.enforce_rate_limit(p_bucket text, p_key text, p_limit integer, p_window interval, p_what text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_retry integer;
begin
  if private.rate_limit_hit(p_bucket, p_key, p_limit, p_window) then
    return;
  end if;
  select greatest(1, ceil(extract(epoch from (r.window_start + p_window - pg_catalog.now()))))::integer into v_retry
  from private.rate_limits r
  where r.bucket = p_bucket and r.key_hash = pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.lower(coalesce(p_key, '')), 'UTF8'));
  raise exception using
    errcode = 'PT429',
    message = 'rate_limited',
    detail = pg_catalog.format('Too many requests from this %s: at most %s per %s.', p_what, p_limit, p_window),
    hint = pg_catalog.format('retry_after=%s', v_retry);
end;
$$;
comment on function private.enforce_rate_limit(text, text, integer, interval, text) is
  'Counts a hit or raises PT429 rate_limited (HTTP 429) past p_limit per p_window (issue 12 §8).';

/* One header value as an address: an IPv4 dotted quad or an IPv6 address (brackets allowed, no
   zone id or prefix), or null. */
create or replace function private.parse_client_address(p_value text)
returns inet
language plpgsql
immutable
set search_path = ''
as $$
declare
  v text := pg_catalog.btrim(coalesce(p_value, ''));
begin
  v := pg_catalog.regexp_replace(v, '^\[(.*)\]$', '\1');
  if v !~ '^[0-9]{1,3}(\.[0-9]{1,3}){3}$' and v !~ '^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*$' then
    return null;
  end if;
  return pg_catalog.host(v::inet)::inet;
exception when others then
  return null;
end;
$$;

/* The client's address as a rate-limit key, from request headers (issue 29 §3; the one rule of
   supabase/functions/_shared/client-ip.ts, held to the same cases by client-ip_test.ts):
   CF-Connecting-IP when it holds an address (Cloudflare, in front of hosted Supabase, sets it and
   replaces the client's value), else the LAST X-Forwarded-For entry that is an address (each proxy
   appends its peer; a client can only prepend). IPv4 as is, IPv4-mapped IPv6 as IPv4, other IPv6
   per /64 network; 'unknown' when neither header holds an address. */
create or replace function private.client_ip(p_headers jsonb)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_entries text[];
  v_ip inet;
begin
  v_ip := private.parse_client_address(p_headers ->> 'cf-connecting-ip');
  if v_ip is null then
    v_entries := pg_catalog.string_to_array(coalesce(p_headers ->> 'x-forwarded-for', ''), ',');
    for i in reverse coalesce(pg_catalog.array_length(v_entries, 1), 0) .. 1 loop
      v_ip := private.parse_client_address(v_entries[i]);
      exit when v_ip is not null;
    end loop;
  end if;
  if v_ip is null then
    return 'unknown';
  end if;
  if pg_catalog.family(v_ip) = 6 and v_ip << '::ffff:0:0/96'::inet then
    return pg_catalog.regexp_replace(pg_catalog.host(v_ip), '^::ffff:', '', 'i');
  end if;
  if pg_catalog.family(v_ip) = 6 then
    return pg_catalog.network(pg_catalog.set_masklen(v_ip, 64))::text;
  end if;
  return pg_catalog.host(v_ip);
end;
$$;
comment on function private.client_ip(jsonb) is
  'Rate-limit key of the client address: CF-Connecting-IP, else the last X-Forwarded-For address; IPv6 per /64 (issue 29).';

/* The client address key of the current PostgREST request (private.client_ip of its headers), or
   null outside a PostgREST request. */
create or replace function private.request_client_ip()
returns text
language sql
stable
set search_path = ''
as $$
  select case
    when coalesce(pg_catalog.current_setting('request.headers', true), '') = '' then null
    else private.client_ip(pg_catalog.current_setting('request.headers', true)::jsonb)
  end
$$;
comment on function private.request_client_ip() is
  'Client address key (private.client_ip) of the PostgREST request; null outside PostgREST (issue 29).';

/* True for the API roles the public limits apply to (anon and signed-in users). */
create or replace function private.is_api_caller()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(auth.role() in ('anon', 'authenticated'), false)
$$;
comment on function private.is_api_caller() is 'anon or authenticated request (the service role and direct SQL are not rate-limited).';

-- Old counters are worthless after a day; the longest window is 24 h.
create or replace function private.purge_rate_limits()
returns integer
language sql
security definer
set search_path = ''
as $$
  with gone as (delete from private.rate_limits where window_start < pg_catalog.now() - interval '2 days' returning 1)
  select count(*)::integer from gone
$$;
comment on function private.purge_rate_limits() is 'Deletes counters whose window ended long ago (pg_cron, hourly).';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

create policy email_types_select on public.email_types for select to authenticated
using ((select private.is_admin()));
create policy email_templates_select on public.email_templates for select to authenticated
using ((select private.is_admin()));
create policy email_templates_update on public.email_templates for update to authenticated
using ((select private.is_admin())) with check ((select private.is_admin()));
create policy email_queue_select on public.email_queue for select to authenticated
using ((select private.is_admin()));
-- "manual welcome mail" (spec §7): a confirmed user may queue their own welcome mail once.
create policy email_queue_insert on public.email_queue for insert to authenticated
with check (
  user_id = (select auth.uid())
  and email_type = 'welcome_email'
  and status = 'pending'
  and attempts = 0
  and lower(email) = lower((select auth.jwt()) ->> 'email')
  and (select private.caller_can_write())
);

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

-- The queue, for process-email-queue (service_role)
/* Marks the address of p_user_id as confirmed (what /confirm-email does after verifying the
   signed token). Returns true when it was unconfirmed before. Fires handle_user_confirmed. */
create or replace function public.confirm_user_email(p_user_id uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update auth.users set email_confirmed_at = pg_catalog.now(), updated_at = pg_catalog.now()
  where id = p_user_id and email_confirmed_at is null;
  if found then
    return true;
  end if;
  -- already confirmed in auth but not in the profile (e.g. imported): repair without a mail
  update public.profiles set authenticated = 1 where id = p_user_id and authenticated = 0;
  return false;
end;
$$;
comment on function public.confirm_user_email(uuid) is
  'service_role: confirm the e-mail of a user (sets auth.users.email_confirmed_at -> trigger -> authenticated = 1 + welcome mail).';

/* Claims up to batch_size due mails for lock_seconds, highest priority (lowest number) first,
   then by due time. Concurrent workers never get the same row (for update skip locked); rows of
   a worker that died are reclaimed after the lock expires. Returns the rows, in claim order, with
   the template subject/body in the row's language (de fallback).
   Errors: 22023 invalid_batch_size (1..1000), invalid_lock_seconds (1..3600). */
create or replace function public.claim_email_batch(batch_size integer default 50, lock_seconds integer default 60)
returns table (
  id bigint, user_id uuid, email text, email_type text, lang text, user_metadata jsonb, payload jsonb,
  attempts integer, subject text, body text)
language plpgsql
security definer
set search_path = ''
as $$
begin
  if batch_size is null or batch_size < 1 or batch_size > 1000 then
    raise exception using errcode = '22023', message = 'invalid_batch_size', detail = 'batch_size must be 1..1000';
  end if;
  if lock_seconds is null or lock_seconds < 1 or lock_seconds > 3600 then
    raise exception using errcode = '22023', message = 'invalid_lock_seconds', detail = 'lock_seconds must be 1..3600';
  end if;
  return query
  with due as (
    select q.id, q.priority, q.next_attempt_at from public.email_queue q
    where (q.status = 'pending' and q.next_attempt_at <= pg_catalog.now())
       or (q.status = 'processing' and q.locked_until < pg_catalog.now())
    order by q.priority, q.next_attempt_at, q.id
    limit batch_size
    for update skip locked
  ), claimed as (
    update public.email_queue q
    set status = 'processing', attempts = q.attempts + 1, locked_at = pg_catalog.now(),
        locked_until = pg_catalog.now() + pg_catalog.make_interval(secs => lock_seconds)
    from due where q.id = due.id
    returning q.*
  )
  select c.id, c.user_id, c.email, c.email_type, c.lang, c.user_metadata, c.payload, c.attempts,
         coalesce(t.subject, d.subject), coalesce(t.body, d.body)
  from claimed c
  left join public.email_templates t on t.key = c.email_type and t.lang = c.lang
  left join public.email_templates d on d.key = c.email_type and d.lang = 'de'
  order by c.priority, c.next_attempt_at, c.id;
end;
$$;
comment on function public.claim_email_batch(integer, integer) is
  'service_role: claim due mails (status -> processing, attempts + 1) with their template. Skip-locked, so workers never share a row.';

/* Marks a claimed mail as sent. Returns false when the row is not in processing (e.g. already
   completed by a worker whose claim had expired), so a repeated call is harmless. */
create or replace function public.complete_email(p_id bigint, p_provider_message_id text default null)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.email_queue
  set status = 'sent', sent_at = pg_catalog.now(), provider_message_id = p_provider_message_id,
      locked_at = null, locked_until = null, last_error = null
  where id = p_id and status = 'processing';
  return found;
end;
$$;
comment on function public.complete_email(bigint, text) is 'service_role: processing -> sent with the Resend message id.';

/* Records a failed send. Below p_max_attempts the row goes back to pending with exponential
   backoff: 30 s * 2^(attempts-1), at most 1 h; at p_max_attempts it becomes failed.
   Returns the new status, or null when the row was not processing. */
create or replace function public.fail_email(p_id bigint, p_error text, p_max_attempts integer default 5)
returns public.email_status
language plpgsql
security definer
set search_path = ''
as $$
declare
  new_status public.email_status;
begin
  update public.email_queue
  set status = case when attempts >= greatest(p_max_attempts, 1) then 'failed'::public.email_status
                    else 'pending'::public.email_status end,
      next_attempt_at = pg_catalog.now()
        + least(pg_catalog.make_interval(secs => 30 * power(2, greatest(attempts - 1, 0))::double precision),
                interval '1 hour'),
      last_error = pg_catalog.left(coalesce(p_error, 'unknown error'), 2000),
      locked_at = null, locked_until = null
  where id = p_id and status = 'processing'
  returning status into new_status;
  return new_status;
end;
$$;
comment on function public.fail_email(bigint, text, integer) is
  'service_role: failed send -> pending with backoff (30 s * 2^(attempts-1), max 1 h) or failed after p_max_attempts.';

-- process-email-queue sends a batch in parallel and records the successes with one RPC instead
-- of one complete_email round trip per mail. Same rules as complete_email: only rows still in
-- processing change, so a repeated or late call is harmless.
create or replace function public.complete_emails(p_ids bigint[], p_provider_message_ids text[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed integer;
begin
  if pg_catalog.cardinality(p_ids) is distinct from pg_catalog.cardinality(p_provider_message_ids) then
    raise exception using errcode = '22023', message = 'invalid_arguments',
      detail = 'p_ids and p_provider_message_ids must have the same length';
  end if;
  update public.email_queue q
  set status = 'sent', sent_at = pg_catalog.now(), provider_message_id = x.provider_message_id,
      locked_at = null, locked_until = null, last_error = null
  from unnest(p_ids, p_provider_message_ids) as x(id, provider_message_id)
  where q.id = x.id and q.status = 'processing';
  get diagnostics changed = row_count;
  return changed;
end;
$$;
comment on function public.complete_emails(bigint[], text[]) is
  'service_role: processing -> sent for many rows (ids and Resend message ids pairwise); returns how many changed.';

-- Registration answers the same for known and unknown addresses (issue 12 finding 10): the
-- `register` function answers exactly like a fresh sign-up; the account holder gets a notice
-- instead (at most one per address and day, so the form cannot be used to flood a mailbox), in
-- the account's language.
/* Queues the account-exists notice for p_email (case-insensitive) when it belongs to an account
   and no notice went to it in the last 24 hours; p_link = the login page in p_lang. Returns
   nothing either way (the caller answers the same). service_role only (the register function). */
create or replace function public.queue_account_exists_notice(p_email text, p_link text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  p public.profiles;
begin
  select * into p from public.profiles where pg_catalog.lower(email) = pg_catalog.lower(pg_catalog.btrim(p_email)) limit 1;
  if not found then
    return;
  end if;
  if exists (select 1 from public.email_queue q
             where q.user_id = p.id and q.email_type = 'account_exists_notice' and q.created_at > pg_catalog.now() - interval '1 day') then
    return;
  end if;
  perform private.enqueue_email(p.id, p.email, 'account_exists_notice', p.preferred_language,
    pg_catalog.jsonb_build_object('firstname', p.firstname, 'lastname', p.lastname),
    pg_catalog.jsonb_build_object('link', p_link));
end;
$$;
comment on function public.queue_account_exists_notice(text, text) is
  'service_role: notice to an existing account that someone tried to register with its address (max one a day; issue 12).';

/* Counts one hit of p_key in p_bucket (fixed window of p_window_seconds) and refuses past p_limit
   with PT429 rate_limited (see private.enforce_rate_limit). For Edge Functions that limit public
   endpoints by the caller's address (register) or an account (login-check). service_role only. */
create or replace function public.enforce_public_rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.enforce_rate_limit(p_bucket, p_key, p_limit, pg_catalog.make_interval(secs => p_window_seconds), 'network address')
$$;
comment on function public.enforce_public_rate_limit(text, text, integer, integer) is
  'service_role: fixed-window rate limit for public Edge Functions; PT429 beyond p_limit (issue 12).';

/* Forgets p_key's count in p_bucket: login-check after a proven password (issue 29 §2: the
   per-account password limit is the product's, counted before Auth is called). service_role only. */
create or replace function public.clear_public_rate_limit(p_bucket text, p_key text)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from private.rate_limits
  where bucket = p_bucket
    and key_hash = pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.lower(coalesce(p_key, '')), 'UTF8'))
$$;
comment on function public.clear_public_rate_limit(text, text) is
  'service_role: starts a rate-limit count afresh (login-check after a proven password; issue 29).';

/* Percent-encodes p_value for a URL query (RFC 3986: every byte but A-Z a-z 0-9 - . _ ~). */
create or replace function private.url_encode(p_value text)
returns text
language sql
immutable
strict
set search_path = ''
as $$
  select coalesce(pg_catalog.string_agg(
           case when c ~ '^[A-Za-z0-9._~-]$' then c
                else pg_catalog.regexp_replace(pg_catalog.upper(pg_catalog.encode(pg_catalog.convert_to(c, 'UTF8'), 'hex')), '(..)', '%\1', 'g')
           end, '' order by i), '')
  from pg_catalog.regexp_split_to_table(p_value, '') with ordinality as t(c, i)
$$;

/* GoTrue send-email hook (supabase/config.toml [auth.hook.send_email]; docs "Send Email Hook";
   issue 31 §1, §2). With it, Auth sends no mail itself: every mail it would send comes here as
   `{ user, email_data: { email_action_type, token_hash, token_hash_new, redirect_to, site_url, … } }`
   (GoTrue's EmailData; `site_url` is Auth's external URL, e.g. https://<ref>.supabase.co/auth/v1).
   Output `{}` or `{ error: { http_code, message } }` (the request fails with that status).
   - email_change (the only Auth mail the product uses: PUT /auth/v1/user {email}): the product's
     own limits, then two mails through the product's queue (retries, en/de): to the new address
     (link with token_hash, GoTrue's documented swap) and to the current one (token_hash_new).
     Limits: 3 e-mail change requests per account per 24 h; 3 Auth mails per recipient address per
     hour, whoever asks. Beyond either: 429. A refused request leaves nothing behind (Auth runs the
     hook inside its transaction).
   - magiclink, invite, reauthentication: refused with the same 403 and text as
     before_user_created_hook refuses a new e-mail user, so /otp answers alike for a known and an
     unknown address (the product has no magic-link sign-in).
   - signup confirmation of an account an OAuth provider created with an unverified address
     (GoTrue's provider_email_needs_verification): through the product's queue
     (auth_confirm_signup, link with token_hash), within the per-address limit.
   - other signup confirmations, recovery and every notification: accepted and not sent, so
     /resend and /recover answer 200 `{}` for every address as they do for unknown ones (the
     product's sign-up mails come from register and resend-confirmation, its reset from
     request-password-reset). */
create or replace function public.send_email_hook(event jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_kind text := coalesce(event #>> '{email_data,email_action_type}', '');
  v_user uuid;
  v_current text := pg_catalog.lower(pg_catalog.btrim(coalesce(event #>> '{user,email}', '')));
  v_new text := pg_catalog.lower(pg_catalog.btrim(coalesce(event #>> '{user,new_email}', '')));
  -- Auth's verify link, as GoTrue's own mails carry it: <site_url>/verify?…&type=<type>&token=<hash>
  v_verify text := pg_catalog.rtrim(coalesce(event #>> '{email_data,site_url}', ''), '/') || '/verify?redirect_to='
                   || private.url_encode(coalesce(event #>> '{email_data,redirect_to}', '')) || '&type=';
  v_lang text;
  v_meta jsonb;
begin
  if v_kind in ('magiclink', 'invite', 'reauthentication') then
    return pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object(
      'http_code', 403, 'message', 'Please sign up on the registration page.'));
  end if;
  if v_kind not in ('email_change', 'signup')
     or (v_kind = 'signup' and coalesce(event #>> '{user,app_metadata,provider}', 'email') = 'email') then
    return '{}'::jsonb;
  end if;
  begin
    v_user := (event #>> '{user,id}')::uuid;
  exception when invalid_text_representation then
    return pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object('http_code', 400, 'message', 'Invalid user id'));
  end;
  select p.preferred_language, pg_catalog.jsonb_build_object('firstname', p.firstname, 'lastname', p.lastname)
    into v_lang, v_meta
    from public.profiles p where p.id = v_user;
  if v_kind = 'signup' then
    if v_user is null or v_current = '' or coalesce(event #>> '{email_data,token_hash}', '') = '' then
      return pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object('http_code', 400, 'message', 'Missing confirmation data'));
    end if;
    if not private.rate_limit_hit('auth_mail:address', v_current, 3, interval '1 hour') then
      return pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object(
        'http_code', 429, 'message', 'Too many e-mails to this address. Please try again in an hour.'));
    end if;
    perform private.enqueue_email(v_user, v_current, 'auth_confirm_signup', coalesce(v_lang, 'de'),
      coalesce(v_meta, '{}'::jsonb) || pg_catalog.jsonb_build_object('provider', pg_catalog.initcap(pg_catalog.split_part(event #>> '{user,app_metadata,provider}', '_', 1))),
      pg_catalog.jsonb_build_object('link', v_verify || 'signup&token=' || (event #>> '{email_data,token_hash}')));
    return '{}'::jsonb;
  end if;
  if v_user is null or v_new = '' or coalesce(event #>> '{email_data,token_hash}', '') = '' then
    return pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object('http_code', 400, 'message', 'Missing e-mail change data'));
  end if;
  if not private.rate_limit_hit('email_change:account', v_user::text, 3, interval '24 hours') then
    return pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object(
      'http_code', 429, 'message', 'You can change your e-mail address at most 3 times a day. Please try again tomorrow.'));
  end if;
  if not private.rate_limit_hit('auth_mail:address', v_new, 3, interval '1 hour')
     or (v_current <> '' and not private.rate_limit_hit('auth_mail:address', v_current, 3, interval '1 hour')) then
    return pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object(
      'http_code', 429, 'message', 'Too many e-mails to this address. Please try again in an hour.'));
  end if;
  v_meta := coalesce(v_meta, '{}'::jsonb) || pg_catalog.jsonb_build_object('old_email', v_current, 'new_email', v_new);
  perform private.enqueue_email(v_user, v_new, 'email_change_new', coalesce(v_lang, 'de'), v_meta,
    pg_catalog.jsonb_build_object('link', v_verify || 'email_change&token=' || (event #>> '{email_data,token_hash}')));
  if v_current <> '' and coalesce(event #>> '{email_data,token_hash_new}', '') <> '' then
    perform private.enqueue_email(v_user, v_current, 'email_change_current', coalesce(v_lang, 'de'), v_meta,
      pg_catalog.jsonb_build_object('link', v_verify || 'email_change&token=' || (event #>> '{email_data,token_hash_new}')));
  end if;
  return '{}'::jsonb;
end;
$$;
comment on function public.send_email_hook(jsonb) is
  'Auth send-email hook: e-mail change mails through the product queue with limits; other Auth mails refused or dropped (issue 31 §1, §2).';

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function private.wants_email(uuid, text) to authenticated, service_role;
-- Auth calls its Postgres-function hooks as supabase_auth_admin (issue 31 §2).
grant execute on function public.send_email_hook(jsonb) to supabase_auth_admin;

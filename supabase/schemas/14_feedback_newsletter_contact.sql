-- =============================================================================
-- Feedback, newsletter (double opt-in) and contact form messages (spec §2; issue 12 §8)
-- =============================================================================
-- The contact form (insert into contact_messages -> receipt mail) and the newsletter sign-up
-- (newsletter_subscribe -> confirmation mail) reach any address, so they are rate limited
-- (private.rate_limits, 03_email.sql):
--   contact form   5 messages per e-mail address and 24 h, 5 per signed-in account and 24 h,
--                  20 per client IP and hour -> HTTP 429 (SQLSTATE PT429) beyond that;
--                  the receipt carries none of the sender's text (not even the name); only a
--                  signed-in member writing from their own confirmed address gets a copy of
--                  the message (contact_copy, issue 33 §9).
--   newsletter     10 sign-ups per client IP and hour -> 429; at most one confirmation mail per
--                  address in 24 h (a repeat answers the same and sends nothing); a confirmed
--                  address is never changed by a sign-up; no answer tells whether an address is
--                  known.

-- -----------------------------------------------------------------------------
-- Types
-- -----------------------------------------------------------------------------

create type public.feedback_status as enum ('new', 'in_review', 'done');

create type public.newsletter_status as enum ('pending', 'confirmed', 'unsubscribed');

create type public.contact_topic as enum ('general', 'support', 'sales', 'enterprise', 'cancellation', 'press');

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table public.feedback (
  id bigint generated always as identity primary key,
  user_id uuid references public.profiles (id) on delete set null,
  category text not null default 'general' check (category in ('general', 'bug', 'idea', 'praise', 'other')),
  rating smallint check (rating between 1 and 5),
  message text not null check (char_length(btrim(message)) between 3 and 5000),
  page_url text check (char_length(page_url) <= 500),
  status public.feedback_status not null default 'new',
  created_at timestamptz not null default now(),
  constraint feedback_page_url_http check (page_url is null or private.is_http_url(page_url))
);
comment on table public.feedback is 'Messages from /user/feedback. Users insert and read their own; admins triage.';
comment on column public.feedback.page_url is 'Page the user came from, for context (http(s) URL).';
create index feedback_user_idx on public.feedback (user_id);
create index feedback_status_idx on public.feedback (status, created_at desc);
alter table public.feedback enable row level security;
revoke all on public.feedback from anon, authenticated;
grant select (id, user_id, category, rating, message, page_url, status, created_at)
  on public.feedback to authenticated;
grant insert (user_id, category, rating, message, page_url) on public.feedback to authenticated;
grant update (status) on public.feedback to authenticated;
grant delete on public.feedback to authenticated;

create table public.newsletter_subscribers (
  id bigint generated always as identity primary key,
  email text not null check (email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' and char_length(email) <= 320),
  lang text not null default 'de' check (lang in ('de', 'en')),
  status public.newsletter_status not null default 'pending',
  token uuid not null default gen_random_uuid() unique,
  user_id uuid references public.profiles (id) on delete set null,
  source text check (char_length(source) <= 100),
  created_at timestamptz not null default now(),
  confirmed_at timestamptz,
  unsubscribed_at timestamptz
);
comment on table public.newsletter_subscribers is
  'Newsletter with double opt-in: pending until the link in newsletter_confirm is followed. Written only via RPCs.';
comment on column public.newsletter_subscribers.token is 'Secret for the confirm and unsubscribe links.';
comment on column public.newsletter_subscribers.source is 'Where the sign-up happened (footer, /newsletter, registration).';
create unique index newsletter_subscribers_email_idx on public.newsletter_subscribers (lower(email));
create index newsletter_subscribers_user_idx on public.newsletter_subscribers (user_id);
create index newsletter_subscribers_status_idx on public.newsletter_subscribers (status);
alter table public.newsletter_subscribers enable row level security;
revoke all on public.newsletter_subscribers from anon, authenticated;
grant select (id, email, lang, status, user_id, source, created_at, confirmed_at, unsubscribed_at)
  on public.newsletter_subscribers to authenticated;
grant update (status) on public.newsletter_subscribers to authenticated;
grant delete on public.newsletter_subscribers to authenticated;

create table public.contact_messages (
  id bigint generated always as identity primary key,
  user_id uuid references public.profiles (id) on delete set null,
  name text not null check (char_length(btrim(name)) between 1 and 200),
  email text not null check (email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' and char_length(email) <= 320),
  topic public.contact_topic not null default 'general',
  plan_id text references public.plans (id) on delete set null,
  subject text not null check (char_length(btrim(subject)) between 1 and 200),
  message text not null check (char_length(btrim(message)) between 10 and 10000),
  lang text not null default 'de' check (lang in ('de', 'en')),
  status public.feedback_status not null default 'new',
  created_at timestamptz not null default now()
);
comment on table public.contact_messages is
  '/contact form and the §312k BGB cancellation form (topic cancellation). Anyone may submit; a receipt mail is queued.';
comment on column public.contact_messages.plan_id is 'Preselected plan (Enterprise via Contact Us, or the contract being cancelled).';
create index contact_messages_user_idx on public.contact_messages (user_id);
create index contact_messages_plan_idx on public.contact_messages (plan_id);
create index contact_messages_status_idx on public.contact_messages (status, created_at desc);
alter table public.contact_messages enable row level security;
revoke all on public.contact_messages from anon, authenticated;
grant select (id, user_id, name, email, topic, plan_id, subject, message, lang, status, created_at)
  on public.contact_messages to authenticated;
grant insert (user_id, name, email, topic, plan_id, subject, message, lang)
  on public.contact_messages to anon, authenticated;
grant update (status) on public.contact_messages to authenticated;
grant delete on public.contact_messages to authenticated;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

create or replace function private.after_contact_message()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- issue 33 §9: a copy of the message goes only to an address known to be the sender's (the
  -- signed-in member's own confirmed address), so the form relays no text to strangers
  if new.user_id is not null and exists (
       select 1 from public.profiles p
       where p.id = new.user_id and p.authenticated = 1
         and pg_catalog.lower(p.email) = pg_catalog.lower(pg_catalog.btrim(new.email))) then
    perform private.enqueue_email(new.user_id, new.email, 'contact_copy', new.lang, '{}'::jsonb,
      pg_catalog.jsonb_build_object('name', new.name, 'subject', new.subject, 'message', new.message));
  else
    perform private.enqueue_email(new.user_id, new.email, 'contact_confirmation', new.lang, '{}'::jsonb, '{}'::jsonb);
  end if;
  return null;
end;
$$;
comment on function private.after_contact_message() is
  'AFTER INSERT on contact_messages: a copy of the message (contact_copy) when the address is the signed-in sender''s own confirmed one (issue 33 §9), else the receipt without any text of the sender (issue 12 §8).';
create trigger contact_messages_after_insert after insert on public.contact_messages
  for each row execute function private.after_contact_message();

/* BEFORE INSERT on contact_messages for API callers: 5 per address and 24 h, 5 per signed-in
   account and 24 h, 20 per client IP and hour; beyond that PT429 (HTTP 429) and nothing is
   stored or queued. */
create or replace function private.before_contact_message()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_ip text;
begin
  if not private.is_api_caller() then
    return new;
  end if;
  v_ip := private.request_client_ip();
  if v_ip is not null then
    perform private.enforce_rate_limit('contact:ip', v_ip, 20, interval '1 hour', 'connection');
  end if;
  if v_uid is not null then
    perform private.enforce_rate_limit('contact:user', v_uid::text, 5, interval '24 hours', 'account');
  end if;
  perform private.enforce_rate_limit('contact:email', pg_catalog.btrim(new.email), 5, interval '24 hours', 'address');
  return new;
end;
$$;
comment on function private.before_contact_message() is
  'BEFORE INSERT on contact_messages: rate limits per address, account and client IP (issue 12 §8).';
create trigger contact_messages_rate_limit before insert on public.contact_messages
  for each row execute function private.before_contact_message();

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

create or replace function private.newsletter_subscribe(p_email text, p_lang text, p_source text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := pg_catalog.lower(pg_catalog.btrim(p_email));
  v_lang text := case when p_lang = 'en' then 'en' else 'de' end;
  v_own boolean := pg_catalog.lower(auth.jwt() ->> 'email') = pg_catalog.lower(pg_catalog.btrim(p_email));
  v_ip text;
  sub public.newsletter_subscribers;
begin
  if v_email is null or v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or char_length(v_email) > 320 then
    raise exception using errcode = '22023', message = 'invalid_email';
  end if;
  if private.is_api_caller() then
    v_ip := private.request_client_ip();
    if v_ip is not null then
      perform private.enforce_rate_limit('newsletter:ip', v_ip, 10, interval '1 hour', 'connection');
    end if;
  end if;

  insert into public.newsletter_subscribers as n (email, lang, source, user_id)
  values (v_email, v_lang, pg_catalog.left(p_source, 100), case when v_own then auth.uid() end)
  on conflict (lower(email)) do nothing
  returning * into sub;
  if not found then
    select * into sub from public.newsletter_subscribers n where pg_catalog.lower(n.email) = v_email for update;
    if sub.status = 'confirmed' then
      return;
    end if;
  end if;

  if not private.rate_limit_hit('newsletter_confirm:email', v_email, 1, interval '24 hours') then
    return;
  end if;
  if sub.status <> 'pending' or sub.lang <> v_lang then
    update public.newsletter_subscribers set status = 'pending', lang = v_lang where id = sub.id
    returning * into sub;
  end if;
  -- path: the confirmation page of the SPA with the token (process-email-queue makes it {{link}})
  perform private.enqueue_email(sub.user_id, sub.email, 'newsletter_confirm', sub.lang, '{}'::jsonb,
    pg_catalog.jsonb_build_object('path', '/newsletter-thankyou?token=' || sub.token::text));
end;
$$;
comment on function private.newsletter_subscribe(text, text, text) is
  'Implementation of public.newsletter_subscribe: per-IP limit, one confirmation per address and day, confirmed rows untouched (issue 12 §8); the mail links to /newsletter-thankyou?token= (issue 33 §1).';

create or replace function private.newsletter_confirm(p_token uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  sub public.newsletter_subscribers;
begin
  update public.newsletter_subscribers set status = 'confirmed', confirmed_at = pg_catalog.now()
  where token = p_token and status = 'pending'
  returning * into sub;
  if not found then
    return exists (select 1 from public.newsletter_subscribers where token = p_token and status = 'confirmed');
  end if;
  -- path: the unsubscribe page of the SPA with the token (the welcome mail's {{link}})
  perform private.enqueue_email(sub.user_id, sub.email, 'newsletter_welcome', sub.lang, '{}'::jsonb,
    pg_catalog.jsonb_build_object('path', '/newsletter-unsubscribe?token=' || sub.token::text));
  return true;
end;
$$;
comment on function private.newsletter_confirm(uuid) is
  'Implementation of public.newsletter_confirm; the welcome mail links to /newsletter-unsubscribe?token= (issue 33 §1).';

create or replace function private.newsletter_unsubscribe(p_token uuid)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with u as (
    update public.newsletter_subscribers set status = 'unsubscribed', unsubscribed_at = pg_catalog.now()
    where token = p_token and status <> 'unsubscribed' returning 1)
  select exists (select 1 from u) or exists (select 1 from public.newsletter_subscribers where token = p_token)
$$;
comment on function private.newsletter_unsubscribe(uuid) is 'Implementation of public.newsletter_unsubscribe.';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

create policy feedback_select on public.feedback for select to authenticated
using (user_id = (select auth.uid()) or (select private.is_admin()));
create policy feedback_insert on public.feedback for insert to authenticated
with check (user_id = (select auth.uid()) and status = 'new' and (select private.caller_can_write()));
create policy feedback_update on public.feedback for update to authenticated
using ((select private.is_admin())) with check ((select private.is_admin()));
create policy feedback_delete on public.feedback for delete to authenticated
using ((select private.is_admin()));
create policy newsletter_subscribers_select on public.newsletter_subscribers for select to authenticated
using ((select private.is_admin()));
create policy newsletter_subscribers_update on public.newsletter_subscribers for update to authenticated
using ((select private.is_admin())) with check ((select private.is_admin()));
create policy newsletter_subscribers_delete on public.newsletter_subscribers for delete to authenticated
using ((select private.is_admin()));
-- Anyone may send the form; a signed-in sender can only attach their own id.
create policy contact_messages_insert on public.contact_messages for insert to anon, authenticated
with check (status = 'new' and (user_id is null or user_id = (select auth.uid())));
create policy contact_messages_select on public.contact_messages for select to authenticated
using ((select private.is_admin()));
create policy contact_messages_update on public.contact_messages for update to authenticated
using ((select private.is_admin())) with check ((select private.is_admin()));
create policy contact_messages_delete on public.contact_messages for delete to authenticated
using ((select private.is_admin()));

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

/* Newsletter sign-up (step 1 of double opt-in): stores the address as pending and queues
   newsletter_confirm with the link to /newsletter-thankyou?token=<token>. The answer never reveals whether the address was known.
   Errors: 22023 invalid_email. */
create or replace function public.newsletter_subscribe(p_email text, p_lang text default 'de', p_source text default null)
returns void
language sql
volatile
set search_path = ''
as $$
  select private.newsletter_subscribe(p_email, p_lang, p_source)
$$;
comment on function public.newsletter_subscribe(text, text, text) is
  'Double opt-in step 1; queues newsletter_confirm at most once per address and 24 h; 429 past 10 sign-ups per client IP and hour.';

/* Step 2: the link from newsletter_confirm. True when the token is (now) confirmed. */
create or replace function public.newsletter_confirm(p_token uuid)
returns boolean
language sql
volatile
set search_path = ''
as $$
  select private.newsletter_confirm(p_token)
$$;
comment on function public.newsletter_confirm(uuid) is 'Double opt-in step 2; queues newsletter_welcome once.';

/* Unsubscribe link. True when the token is known. */
create or replace function public.newsletter_unsubscribe(p_token uuid)
returns boolean
language sql
volatile
set search_path = ''
as $$
  select private.newsletter_unsubscribe(p_token)
$$;
comment on function public.newsletter_unsubscribe(uuid) is 'Marks the subscription unsubscribed.';

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function private.newsletter_subscribe(text, text, text),
  private.newsletter_confirm(uuid),
  private.newsletter_unsubscribe(uuid) to anon, authenticated, service_role;
grant execute on function public.newsletter_subscribe(text, text, text),
  public.newsletter_confirm(uuid),
  public.newsletter_unsubscribe(uuid) to anon, authenticated;

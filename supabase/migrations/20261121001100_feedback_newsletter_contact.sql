-- =============================================================================
-- Feedback, newsletter (double opt-in), contact form messages (spec §2)
-- =============================================================================

create type public.feedback_status as enum ('new', 'in_review', 'done');
create type public.newsletter_status as enum ('pending', 'confirmed', 'unsubscribed');
create type public.contact_topic as enum ('general', 'support', 'sales', 'enterprise', 'cancellation', 'press');

create table public.feedback (
  id bigint generated always as identity primary key,
  user_id uuid references public.profiles (id) on delete set null,
  category text not null default 'general' check (category in ('general', 'bug', 'idea', 'praise', 'other')),
  rating smallint check (rating between 1 and 5),
  message text not null check (char_length(btrim(message)) between 3 and 5000),
  page_url text check (char_length(page_url) <= 500),
  status public.feedback_status not null default 'new',
  created_at timestamptz not null default now()
);
comment on table public.feedback is 'Messages from /user/feedback. Users insert and read their own; admins triage.';
comment on column public.feedback.page_url is 'Page the user came from, for context.';
create index feedback_user_idx on public.feedback (user_id);
create index feedback_status_idx on public.feedback (status, created_at desc);

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

-- -----------------------------------------------------------------------------
-- Triggers and RPCs
-- -----------------------------------------------------------------------------
create or replace function private.after_contact_message()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  plan_name text;
begin
  select name into plan_name from public.plans where id = new.plan_id;
  perform private.enqueue_email(new.user_id, new.email,
    case when new.topic = 'cancellation' then 'cancellation_confirmation' else 'contact_confirmation' end,
    new.lang,
    pg_catalog.jsonb_build_object('firstname', pg_catalog.split_part(new.name, ' ', 1), 'name', new.name),
    pg_catalog.jsonb_build_object('subject', new.subject, 'plan', coalesce(plan_name, ''),
      'date', pg_catalog.to_char(new.created_at at time zone 'Europe/Berlin', 'DD.MM.YYYY HH24:MI')));
  return null;
end;
$$;
comment on function private.after_contact_message() is 'AFTER INSERT on contact_messages: queues the receipt (or cancellation confirmation).';
create trigger contact_messages_after_insert after insert on public.contact_messages
  for each row execute function private.after_contact_message();

create or replace function private.newsletter_subscribe(p_email text, p_lang text, p_source text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  sub public.newsletter_subscribers;
begin
  if p_email is null or p_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or char_length(p_email) > 320 then
    raise exception using errcode = '22023', message = 'invalid_email';
  end if;
  insert into public.newsletter_subscribers as n (email, lang, source, user_id)
  values (pg_catalog.lower(pg_catalog.btrim(p_email)), case when p_lang = 'en' then 'en' else 'de' end,
          pg_catalog.left(p_source, 100), auth.uid())
  on conflict (lower(email)) do update
    set status = case when n.status = 'confirmed' then n.status else 'pending'::public.newsletter_status end,
        lang = excluded.lang,
        token = case when n.status = 'confirmed' then n.token else gen_random_uuid() end
  returning * into sub;
  if sub.status = 'pending' then
    perform private.enqueue_email(sub.user_id, sub.email, 'newsletter_confirm', sub.lang, '{}'::jsonb,
      pg_catalog.jsonb_build_object('token', sub.token));
  end if;
end;
$$;
comment on function private.newsletter_subscribe(text, text, text) is 'Implementation of public.newsletter_subscribe.';

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
  perform private.enqueue_email(sub.user_id, sub.email, 'newsletter_welcome', sub.lang, '{}'::jsonb,
    pg_catalog.jsonb_build_object('token', sub.token));
  return true;
end;
$$;
comment on function private.newsletter_confirm(uuid) is 'Implementation of public.newsletter_confirm.';

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

grant execute on function private.newsletter_subscribe(text, text, text), private.newsletter_confirm(uuid),
  private.newsletter_unsubscribe(uuid) to anon, authenticated, service_role;

/* Newsletter sign-up (step 1 of double opt-in): stores the address as pending and queues
   newsletter_confirm with the token. The answer never reveals whether the address was known.
   Errors: 22023 invalid_email. */
create or replace function public.newsletter_subscribe(p_email text, p_lang text default 'de', p_source text default null)
returns void
language sql
volatile
set search_path = ''
as $$
  select private.newsletter_subscribe(p_email, p_lang, p_source)
$$;
comment on function public.newsletter_subscribe(text, text, text) is 'Double opt-in step 1; queues newsletter_confirm.';

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

revoke all on function public.newsletter_subscribe(text, text, text), public.newsletter_confirm(uuid),
  public.newsletter_unsubscribe(uuid) from public;
grant execute on function public.newsletter_subscribe(text, text, text), public.newsletter_confirm(uuid),
  public.newsletter_unsubscribe(uuid) to anon, authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Row-level security
-- -----------------------------------------------------------------------------
alter table public.feedback enable row level security;
alter table public.newsletter_subscribers enable row level security;
alter table public.contact_messages enable row level security;

revoke all on public.feedback, public.newsletter_subscribers, public.contact_messages from anon, authenticated;
grant select, insert, update, delete on public.feedback to authenticated;
grant select, update, delete on public.newsletter_subscribers to authenticated;
grant insert on public.contact_messages to anon;
grant select, insert, update, delete on public.contact_messages to authenticated;
grant all on public.feedback, public.newsletter_subscribers, public.contact_messages to service_role;

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

-- =============================================================================
-- Billing: plans, prices, subscriptions, the Stripe event ledger, §312k BGB cancellation
-- requests and billing mails (spec §4, §6, §9; issues 7 and 12)
-- =============================================================================
-- Stripe is the source of truth: the webhook and verify-payment write its state through
-- sync_subscription (service_role), which also sets profiles.user_role. Plans and prices are
-- reference data (data migration). Who has paid access (spec §6) is decided in
-- 06_entitlements.sql, after the organisations (an Enterprise seat counts too).

-- -----------------------------------------------------------------------------
-- Types
-- -----------------------------------------------------------------------------

create type public.billing_period as enum ('monthly', 'quarterly', 'semiannual', 'yearly');

create type public.subscription_status as enum (
  'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused');
comment on type public.subscription_status is 'Stripe subscription statuses, verbatim.';

create type public.cancellation_request_status as enum ('received', 'awaiting_confirmation', 'scheduled', 'no_subscription', 'failed');

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table public.plans (
  id text primary key check (id in ('basic', 'premium', 'enterprise')),
  name text not null,
  rank smallint not null unique,
  project_limit integer check (project_limit is null or project_limit >= 0),
  features_de text[] not null default '{}',
  features_en text[] not null default '{}',
  contact_sales boolean not null default false,
  active boolean not null default true
);
comment on table public.plans is 'Paid plans (spec §6). The plan id is also the profiles.user_role it grants.';
comment on column public.plans.rank is 'Higher = more features; with several subscriptions the highest rank decides the role.';
comment on column public.plans.project_limit is 'Maximum number of projects; null = unlimited (spec §5: Basic 3).';
comment on column public.plans.contact_sales is 'Enterprise is sold through Contact Us with the plan preselected.';
alter table public.plans enable row level security;
revoke all on public.plans from anon, authenticated;
grant select (id, name, rank, project_limit, features_de, features_en, contact_sales, active)
  on public.plans to anon, authenticated;

create table public.prices (
  id bigint generated always as identity primary key,
  plan_id text not null references public.plans (id) on update cascade,
  billing_period public.billing_period not null,
  months smallint generated always as (
    case billing_period when 'monthly' then 1 when 'quarterly' then 3 when 'semiannual' then 6 else 12 end) stored,
  amount_cents integer not null check (amount_cents > 0),
  currency text not null default 'eur' check (currency ~ '^[a-z]{3}$'),
  stripe_price_id text unique,
  active boolean not null default true,
  unique (plan_id, billing_period)
);
comment on table public.prices is 'End prices incl. VAT per plan and billing period (spec §9).';
comment on column public.prices.amount_cents is 'Gross amount charged per billing period, in cents (EUR).';
comment on column public.prices.months is 'Length of the billing period in months (for savings vs. monthly).';
comment on column public.prices.stripe_price_id is 'Stripe price (price_...), filled by the Stripe setup script.';
alter table public.prices enable row level security;
revoke all on public.prices from anon, authenticated;
grant select (id, plan_id, billing_period, months, amount_cents, currency, stripe_price_id, active)
  on public.prices to anon, authenticated;

create table public.subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  plan_id text not null references public.plans (id) on update cascade,
  price_id bigint references public.prices (id) on delete set null,
  billing_period public.billing_period,
  status public.subscription_status not null,
  current_period_start timestamptz,
  current_period_end timestamptz,
  cancel_at_period_end boolean not null default false,
  canceled_at timestamptz,
  ended_at timestamptz,
  stripe_customer_id text not null,
  stripe_subscription_id text not null unique,
  stripe_checkout_session_id text,
  last_synced_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.subscriptions is
  'Copy of Stripe subscriptions, written only by sync_subscription (service_role). Stripe is the source of truth.';
comment on column public.subscriptions.last_synced_at is
  'Watermark: time of the Stripe state this row reflects; an older sync never overwrites a newer one.';
comment on column public.subscriptions.stripe_checkout_session_id is 'Checkout session (cs_...) that created the subscription.';
create index subscriptions_user_idx on public.subscriptions (user_id, status);
create index subscriptions_plan_idx on public.subscriptions (plan_id);
create index subscriptions_price_idx on public.subscriptions (price_id);
create index subscriptions_customer_idx on public.subscriptions (stripe_customer_id);
-- Two checkouts opened one after the other could both be paid: two active subscriptions for one
-- person. create-checkout-session refuses a second checkout, and the database refuses a
-- second live (active, trialing, past_due) subscription row per account whatever the client.
-- When Stripe nevertheless completes a second checkout (both opened before either was paid), the
-- shared sync (supabase/functions/_shared/billing-sync.ts) meets this index, cancels the newer
-- subscription at Stripe at once, refunds its payment and records it here; the customer is told
-- by e-mail and on /payment/success.
create unique index subscriptions_one_live_per_user on public.subscriptions (user_id)
  where status in ('active', 'trialing', 'past_due');
comment on index public.subscriptions_one_live_per_user is
  'At most one live (active, trialing, past_due) subscription per account (issue 12 finding 7).';
alter table public.subscriptions enable row level security;
revoke all on public.subscriptions from anon, authenticated;
grant select (id, user_id, plan_id, price_id, billing_period, status, current_period_start,
              current_period_end, cancel_at_period_end, canceled_at, ended_at, stripe_customer_id,
              stripe_subscription_id, stripe_checkout_session_id, last_synced_at, created_at, updated_at)
  on public.subscriptions to authenticated;

create table public.stripe_events (
  id text primary key check (id ~ '^evt_'),
  type text not null,
  stripe_created_at timestamptz,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  error text
);
comment on table public.stripe_events is
  'Ledger of received webhook events; the primary key drops duplicate deliveries.';
comment on column public.stripe_events.stripe_created_at is 'event.created from Stripe.';
comment on column public.stripe_events.processed_at is 'Set when handling succeeded; null + error = failed (Stripe retries).';
alter table public.stripe_events enable row level security;
revoke all on public.stripe_events from anon, authenticated;
grant select (id, type, stripe_created_at, received_at, processed_at, error)
  on public.stripe_events to authenticated;

-- Cancellation requests ("Verträge hier kündigen", §312k BGB; issue 12 finding 2). The public form
-- stays reachable without login, but an anonymous submission does not touch Stripe: it is stored
-- (the legal record of the declaration and its receipt time) and a confirmation link goes to the
-- ACCOUNT's address. Only the holder's click (confirm-cancellation function) schedules the
-- cancellation. A signed-in customer cancels their own account at once. Anonymous submissions are
-- rate limited per client IP and per address, and no mail carries text typed into the form
-- (greetings use the account's own name).
create table public.cancellation_requests (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  email text not null check (email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' and char_length(email) <= 320),
  plan_id text references public.plans (id) on update cascade on delete set null,
  contract text check (char_length(contract) <= 200),
  reason text check (char_length(reason) <= 2000),
  requested_date date,
  lang text not null default 'de' check (lang in ('de', 'en')),
  user_id uuid references public.profiles (id) on delete set null,
  status public.cancellation_request_status not null default 'received',
  stripe_subscription_ids text[] not null default '{}',
  effective_at timestamptz,
  error text,
  created_at timestamptz not null default now(),
  processed_at timestamptz,
  confirmed_at timestamptz,
  confirmed_via text check (confirmed_via in ('session', 'email_link'))
);
comment on table public.cancellation_requests is
  'Cancellations through the public form (§312k BGB). Written only by the cancel-contract function (service_role); admins read.';
comment on column public.cancellation_requests.contract is 'Free text identifying the contract (customer or invoice number), optional.';
comment on column public.cancellation_requests.requested_date is 'Requested end date; null = as soon as possible (end of the current billing period).';
comment on column public.cancellation_requests.user_id is 'Account whose e-mail matched; null when the address is unknown.';
comment on column public.cancellation_requests.status is
  'received (stored, holder confirmed), awaiting_confirmation (anonymous: link mailed to the account), scheduled (Stripe cancels at effective_at), no_subscription, failed (admin follows up).';
comment on column public.cancellation_requests.stripe_subscription_ids is 'Subscriptions set to end (cancel_at_period_end or cancel_at).';
comment on column public.cancellation_requests.effective_at is 'When the last affected subscription ends.';
comment on column public.cancellation_requests.confirmed_at is
  'When the account holder confirmed the declaration (signed in, or through the link mailed to the account address).';
comment on column public.cancellation_requests.confirmed_via is 'session = submitted while signed in; email_link = confirmed through the mailed link.';
create index cancellation_requests_email_idx on public.cancellation_requests (lower(email), created_at desc);
create index cancellation_requests_user_idx on public.cancellation_requests (user_id);
create index cancellation_requests_plan_idx on public.cancellation_requests (plan_id);
create index cancellation_requests_status_idx on public.cancellation_requests (status, created_at desc);
alter table public.cancellation_requests enable row level security;
revoke all on public.cancellation_requests from anon, authenticated;
grant select (id, name, email, plan_id, contract, reason, requested_date, lang, user_id, status,
              stripe_subscription_ids, effective_at, error, created_at, processed_at, confirmed_at,
              confirmed_via)
  on public.cancellation_requests to authenticated;

create table private.duplicate_subscriptions (
  stripe_subscription_id text primary key check (stripe_subscription_id ~ '^sub_'),
  user_id uuid references public.profiles (id) on delete cascade,
  kept_subscription_id text,
  refund_id text,
  refunded_cents integer check (refunded_cents >= 0),
  currency text,
  created_at timestamptz not null default now()
);
comment on table private.duplicate_subscriptions is
  'Subscriptions cancelled and refunded because the customer already had a live one (issue 12 finding 7). One row per subscription: the refund and the mail happen once.';
comment on column private.duplicate_subscriptions.kept_subscription_id is 'The live subscription the customer keeps.';
comment on column private.duplicate_subscriptions.refunded_cents is 'Amount refunded, in cents.';
create index duplicate_subscriptions_user_idx on private.duplicate_subscriptions (user_id);
alter table private.duplicate_subscriptions enable row level security;
revoke all on private.duplicate_subscriptions from public, anon, authenticated;

-- Deleting an account ends its subscriptions at Stripe (issue 32 §1). Account deletion
-- (delete_my_account, admin_delete_user, the Auth admin API) must not depend on Stripe being
-- reachable, and Stripe must not keep charging for an account that is gone. So the deletion itself
-- queues the cancellation (trigger profiles_delete_cancels_subscriptions, in the same transaction
-- as the delete): one row per deleted account that has a Stripe customer. The delete-account
-- function works the row at once after a deletion it made; pg_cron calls it every minute for the
-- rest and for retries (backoff after failures, nothing is dropped). The row has no foreign key: it
-- outlives the account as the record of what was cancelled, when and why.
-- Refund rule (no other rule is stated in the product): subscriptions end at once, without
-- proration and without a refund of the period already paid; the delete dialogs say so.
create table private.account_deletion_cancellations (
  id bigint generated always as identity primary key,
  user_id uuid not null unique,
  stripe_customer_id text not null check (stripe_customer_id ~ '^cus_'),
  known_subscription_ids text[] not null default '{}',
  deleted_by text not null check (deleted_by in ('self', 'admin', 'service')),
  email text check (email ~ '^[^@\s]+@[^@\s]+$' and char_length(email) <= 320),
  lang text not null default 'de' check (lang in ('de', 'en')),
  firstname text,
  status text not null default 'pending' check (status in ('pending', 'done')),
  canceled_subscription_ids text[] not null default '{}',
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  last_error text,
  created_at timestamptz not null default now(),
  completed_at timestamptz
);
comment on table private.account_deletion_cancellations is
  'Stripe cancellations owed to deleted accounts (issue 32 §1): queued by the deletion, worked by the delete-account function (at once, then pg_cron with backoff). Outlives the account.';
comment on column private.account_deletion_cancellations.user_id is 'The deleted account (no foreign key: the row is the record after the account is gone).';
comment on column private.account_deletion_cancellations.known_subscription_ids is
  'Live subscriptions the database knew at deletion; the worker cancels every subscription Stripe lists for the customer that has not ended.';
comment on column private.account_deletion_cancellations.deleted_by is 'self (delete_my_account), admin (admin_delete_user) or service (Auth admin API, maintenance).';
comment on column private.account_deletion_cancellations.email is 'Address of the deleted account, for the confirmation mail only; cleared (with firstname) when the mail is queued.';
comment on column private.account_deletion_cancellations.status is 'pending (Stripe not yet done; retried) or done (no subscription of the customer is live; mail queued).';
comment on column private.account_deletion_cancellations.canceled_subscription_ids is 'Subscriptions ended because of the deletion.';
comment on column private.account_deletion_cancellations.next_attempt_at is 'Not claimed before this time (lease while working, backoff after failures).';
create index account_deletion_cancellations_due_idx on private.account_deletion_cancellations (next_attempt_at) where status = 'pending';
alter table private.account_deletion_cancellations enable row level security;
revoke all on private.account_deletion_cancellations from public, anon, authenticated;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

/* Queues subscription_activated when a subscription becomes paid (new, or from an unpaid
   status) and payment_failed when it becomes past_due. Runs on the rows sync_subscription
   writes, so verify-payment and the webhook (in either order, any number of times) queue each
   mail once per transition. Both link to the settings page (payload path, issue 33 §1). */
create or replace function private.after_subscription_status()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  p public.profiles;
  v_plan text;
  v_amount integer;
  v_type text;
  v_period text;
begin
  if new.status in ('active', 'trialing')
     and (tg_op = 'INSERT' or not private.is_paid_status(old.status)) then
    v_type := 'subscription_activated';
  elsif new.status = 'past_due' and (tg_op = 'INSERT' or old.status is distinct from 'past_due') then
    v_type := 'payment_failed';
  else
    return null;
  end if;
  select * into p from public.profiles where id = new.user_id;
  if not found then
    return null;
  end if;
  select name into v_plan from public.plans where id = new.plan_id;
  select amount_cents into v_amount from public.prices where id = new.price_id;
  v_period := case p.preferred_language
    when 'en' then case new.billing_period when 'monthly' then 'monthly' when 'quarterly' then 'quarterly'
                   when 'semiannual' then 'every 6 months' when 'yearly' then 'yearly' else '' end
    else case new.billing_period when 'monthly' then 'monatlich' when 'quarterly' then 'vierteljährlich'
         when 'semiannual' then 'halbjährlich' when 'yearly' then 'jährlich' else '' end end;
  perform private.enqueue_email(p.id, p.email, v_type, p.preferred_language,
    pg_catalog.jsonb_build_object('firstname', p.firstname, 'lastname', p.lastname),
    pg_catalog.jsonb_build_object(
      'plan', coalesce(v_plan, new.plan_id),
      'period', v_period,
      'amount', case when v_amount is null then ''
                     when p.preferred_language = 'en' then '€' || pg_catalog.to_char(v_amount / 100.0, 'FM999990.00')
                     else pg_catalog.replace(pg_catalog.to_char(v_amount / 100.0, 'FM999990.00'), '.', ',') || ' €' end,
      'stripe_subscription_id', new.stripe_subscription_id,
      -- both mails send the reader to the subscription panel of the settings (issue 33 §1)
      'path', '/user/settings'));
  return null;
end;
$$;
comment on function private.after_subscription_status() is
  'AFTER INSERT/UPDATE OF status on subscriptions: queues subscription_activated or payment_failed once per transition.';
create trigger subscriptions_status_mail
  after insert or update of status on public.subscriptions
  for each row execute function private.after_subscription_status();
create trigger subscriptions_updated_at before update on public.subscriptions
  for each row execute function private.set_updated_at();

/* BEFORE DELETE on profiles (every way an account is deleted: delete_my_account,
   admin_delete_user, the Auth admin API; issue 32 §1). While the profile and its subscriptions
   still exist: an account with a Stripe customer (on the profile or a subscription row) gets one
   row in private.account_deletion_cancellations (the delete-account function cancels at Stripe and
   mails account_deleted_subscription_cancelled or account_deleted); an account that never reached
   Stripe gets the account_deleted mail at once. The mails carry no user_id (the account is gone). */
create or replace function private.queue_account_deletion_billing()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_customer text;
  v_known text[];
  v_by text;
begin
  select coalesce(pg_catalog.array_agg(s.stripe_subscription_id order by s.created_at), '{}')
    into v_known
  from public.subscriptions s
  where s.user_id = old.id and s.status not in ('canceled', 'incomplete_expired');
  v_customer := coalesce(old.stripe_customer_id,
    (select s.stripe_customer_id from public.subscriptions s where s.user_id = old.id order by s.created_at desc limit 1));
  if v_customer is null or v_customer !~ '^cus_' then
    if old.email ~ '^[^@\s]+@[^@\s]+$' then
      perform private.enqueue_email(null, old.email, 'account_deleted', old.preferred_language,
        pg_catalog.jsonb_build_object('firstname', old.firstname, 'lastname', old.lastname), '{}'::jsonb);
    end if;
    return old;
  end if;
  v_by := case when (select auth.uid()) = old.id then 'self' when private.is_admin() then 'admin' else 'service' end;
  insert into private.account_deletion_cancellations (user_id, stripe_customer_id, known_subscription_ids, deleted_by, email, lang, firstname)
  values (old.id, v_customer, v_known, v_by, case when old.email ~ '^[^@\s]+@[^@\s]+$' then old.email end,
          case when old.preferred_language = 'en' then 'en' else 'de' end, old.firstname)
  on conflict (user_id) do nothing;
  return old;
end;
$$;
comment on function private.queue_account_deletion_billing() is
  'BEFORE DELETE on profiles: queues the Stripe cancellation of a deleted account, or its deletion mail when it never paid (issue 32 §1).';
create trigger profiles_delete_cancels_subscriptions before delete on public.profiles
  for each row execute function private.queue_account_deletion_billing();

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

-- Statuses that keep the paid role: Stripe keeps a past_due subscription alive while it retries.
-- PL/pgSQL: a SQL function with `set search_path` is planned again on every call (and this one
-- runs for every chat message through effective_plan, issue 34); PL/pgSQL evaluates the
-- expression without a query.
create or replace function private.is_paid_status(s public.subscription_status)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  return s in ('active', 'trialing', 'past_due');
end;
$$;
comment on function private.is_paid_status(public.subscription_status) is 'active, trialing and past_due grant the plan.';

/* profiles.user_role from the effective plan (private.effective_plan in 06_entitlements.sql,
   issue 32 §2: organisation seat > own subscription; issues 7, 15), so every check on user_role
   (search preference, matching owner state, badges) follows. Admins and old_user keep their role. */
create or replace function private.refresh_user_role(p_user_id uuid)
returns public.user_role
language plpgsql
security definer
set search_path = ''
as $$
declare
  best text;
  current_role_ public.user_role;
  new_role public.user_role;
begin
  select user_role into current_role_ from public.profiles where id = p_user_id for update;
  if not found then
    return null;
  end if;
  select nullif(e.plan, 'free') into best from private.effective_plan(p_user_id) e;
  new_role := case
    when current_role_ = 'admin' then 'admin'
    when best is not null then best::public.user_role
    when current_role_ = 'old_user' then 'old_user'
    else 'free' end;
  if new_role is distinct from current_role_ then
    update public.profiles set user_role = new_role where id = p_user_id;
  end if;
  return new_role;
end;
$$;
comment on function private.refresh_user_role(uuid) is
  'profiles.user_role := the effective plan (private.effective_plan, issue 32 §2), else free; admin and old_user kept.';

/* Queues the receipt (cancellation_confirmation) of request p_id to its ACCOUNT's address, greeting
   with the account's own first name: nothing typed into the public form reaches the mail. */
create or replace function private.queue_cancellation_receipt(p_id uuid)
returns bigint
language sql
security definer
set search_path = ''
as $$
  select private.enqueue_email(p.id, p.email, 'cancellation_confirmation', c.lang,
    pg_catalog.jsonb_build_object('firstname', p.firstname, 'lastname', p.lastname),
    pg_catalog.jsonb_build_object(
      'plan', coalesce((select pl.name from public.plans pl where pl.id = c.plan_id), ''),
      'date', pg_catalog.to_char(c.created_at at time zone 'Europe/Berlin', 'DD.MM.YYYY HH24:MI'),
      'requested_date', coalesce(pg_catalog.to_char(c.requested_date, 'DD.MM.YYYY'), ''),
      'cancellation_request_id', c.id))
  from public.cancellation_requests c
  join public.profiles p on p.id = c.user_id
  where c.id = p_id
$$;
comment on function private.queue_cancellation_receipt(uuid) is
  'Queues the §312k receipt of a cancellation to the account address (account name only; no form text).';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

create policy plans_select on public.plans for select to anon, authenticated using (active);
create policy prices_select on public.prices for select to anon, authenticated using (active);
create policy subscriptions_select on public.subscriptions for select to authenticated
using (user_id = (select auth.uid()) or (select private.is_admin()));
create policy stripe_events_select on public.stripe_events for select to authenticated
using ((select private.is_admin()));
create policy cancellation_requests_select_admin on public.cancellation_requests for select to authenticated
using ((select private.is_admin()));

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

-- Stripe state (service_role)
/* One write path for Stripe state (webhook and verify-payment, STYLE.md): upserts the
   subscription by stripe_subscription_id unless the stored last_synced_at is newer, stores the
   customer id on the profile, and recomputes the role. The plan comes from p_stripe_price_id
   (prices.stripe_price_id) or p_plan_id. Returns the stored row (the newer one when the call
   was stale). Errors: 22023 unknown_price when neither identifies a plan. */
create or replace function public.sync_subscription(
  p_user_id uuid,
  p_stripe_customer_id text,
  p_stripe_subscription_id text,
  p_status public.subscription_status,
  p_stripe_price_id text default null,
  p_plan_id text default null,
  p_current_period_start timestamptz default null,
  p_current_period_end timestamptz default null,
  p_cancel_at_period_end boolean default false,
  p_canceled_at timestamptz default null,
  p_ended_at timestamptz default null,
  p_checkout_session_id text default null,
  p_synced_at timestamptz default now())
returns public.subscriptions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_price public.prices;
  v_plan text;
  result public.subscriptions;
begin
  if p_stripe_price_id is not null then
    select * into v_price from public.prices where stripe_price_id = p_stripe_price_id;
  end if;
  if v_price.id is null and p_plan_id is not null then
    select * into v_price from public.prices where plan_id = p_plan_id and billing_period = 'monthly';
  end if;
  v_plan := coalesce(v_price.plan_id, p_plan_id);
  if v_plan is null or not exists (select 1 from public.plans where id = v_plan) then
    raise exception using errcode = '22023', message = 'unknown_price',
      detail = pg_catalog.format('No plan for price %s / plan %s', p_stripe_price_id, p_plan_id);
  end if;

  insert into public.subscriptions as s (
    user_id, plan_id, price_id, billing_period, status, current_period_start, current_period_end,
    cancel_at_period_end, canceled_at, ended_at, stripe_customer_id, stripe_subscription_id,
    stripe_checkout_session_id, last_synced_at)
  values (
    p_user_id, v_plan, v_price.id, v_price.billing_period, p_status, p_current_period_start, p_current_period_end,
    coalesce(p_cancel_at_period_end, false), p_canceled_at, p_ended_at, p_stripe_customer_id, p_stripe_subscription_id,
    p_checkout_session_id, coalesce(p_synced_at, pg_catalog.now()))
  on conflict (stripe_subscription_id) do update set
    plan_id = excluded.plan_id,
    price_id = excluded.price_id,
    billing_period = excluded.billing_period,
    status = excluded.status,
    current_period_start = excluded.current_period_start,
    current_period_end = excluded.current_period_end,
    cancel_at_period_end = excluded.cancel_at_period_end,
    canceled_at = excluded.canceled_at,
    ended_at = excluded.ended_at,
    stripe_customer_id = excluded.stripe_customer_id,
    stripe_checkout_session_id = coalesce(excluded.stripe_checkout_session_id, s.stripe_checkout_session_id),
    last_synced_at = excluded.last_synced_at
  where s.last_synced_at <= excluded.last_synced_at;

  select * into result from public.subscriptions where stripe_subscription_id = p_stripe_subscription_id;

  update public.profiles set stripe_customer_id = p_stripe_customer_id
  where id = result.user_id and stripe_customer_id is null;
  perform private.refresh_user_role(result.user_id);
  return result;
end;
$$;
comment on function public.sync_subscription(uuid, text, text, public.subscription_status, text, text, timestamptz,
  timestamptz, boolean, timestamptz, timestamptz, text, timestamptz) is
  'service_role: idempotent upsert of Stripe subscription state (older p_synced_at never overwrites newer) + role update.';

/* Records a webhook event id; returns false when it was already recorded (duplicate delivery,
   acknowledge and ignore) unless the earlier attempt failed (processed_at null), so Stripe's
   retry of a failed event is handled again. */
create or replace function public.record_stripe_event(p_id text, p_type text, p_created_at timestamptz default null)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.stripe_events (id, type, stripe_created_at) values (p_id, p_type, p_created_at)
  on conflict (id) do nothing;
  if found then
    return true;
  end if;
  return exists (select 1 from public.stripe_events where id = p_id and processed_at is null);
end;
$$;
comment on function public.record_stripe_event(text, text, timestamptz) is
  'service_role: ledger insert; true = handle the event, false = already processed.';

/* Marks a recorded event as processed (p_error null) or failed (p_error set). */
create or replace function public.finish_stripe_event(p_id text, p_error text default null)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.stripe_events
  set processed_at = case when p_error is null then pg_catalog.now() else null end, error = p_error
  where id = p_id;
$$;
comment on function public.finish_stripe_event(text, text) is 'service_role: processed_at or error for a ledger row.';

-- Cancellation requests (the cancel-contract and confirm-cancellation functions, service_role)
/* Stores a §312k BGB cancellation (the legal record: declaration and receipt time).
   p_account_id = the signed-in caller (verified by the function): their account is cancelled
   (status received, confirmed via session) and the receipt (cancellation_confirmation) is queued
   to the account's address at once. Without p_account_id (anonymous form): rate limited per client
   IP (10 per hour) and per address (5 per day), PT429 beyond; the address is matched to an
   account (case-insensitive); a match waits for the holder (awaiting_confirmation; the function
   mails the link), no match ends as no_subscription without any mail.
   Output: request_id, the matched account (or null), needs_confirmation, lang, created_at.
   service_role only (the cancel-contract function). Errors: PT429 rate_limited. */
create function public.submit_cancellation_request(
  p_name text,
  p_email text,
  p_plan_id text default null,
  p_contract text default null,
  p_reason text default null,
  p_requested_date date default null,
  p_lang text default 'de',
  p_account_id uuid default null,
  p_client_ip text default null)
returns table (request_id uuid, user_id uuid, needs_confirmation boolean, lang text, created_at timestamptz)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := pg_catalog.lower(pg_catalog.btrim(p_email));
  v_user uuid;
  v_req public.cancellation_requests;
  v_status public.cancellation_request_status;
begin
  if p_account_id is not null then
    v_user := p_account_id;
    v_status := 'received';
  else
    perform private.enforce_rate_limit('cancel:ip', coalesce(p_client_ip, 'unknown'), 10, interval '1 hour', 'network address');
    perform private.enforce_rate_limit('cancel:email', v_email, 5, interval '1 day', 'e-mail address');
    select p.id into v_user from public.profiles p where pg_catalog.lower(p.email) = v_email limit 1;
    v_status := case when v_user is null then 'no_subscription' else 'awaiting_confirmation' end;
  end if;

  insert into public.cancellation_requests (name, email, plan_id, contract, reason, requested_date, lang, user_id, status,
                                            confirmed_at, confirmed_via, processed_at)
  values (pg_catalog.btrim(p_name), v_email, p_plan_id, nullif(pg_catalog.btrim(p_contract), ''),
          nullif(pg_catalog.btrim(p_reason), ''), p_requested_date, case when p_lang = 'en' then 'en' else 'de' end, v_user,
          v_status,
          case when p_account_id is not null then pg_catalog.now() end,
          case when p_account_id is not null then 'session' end,
          case when v_status = 'no_subscription' then pg_catalog.now() end)
  returning * into v_req;

  if p_account_id is not null then
    perform private.queue_cancellation_receipt(v_req.id);
  end if;
  return query select v_req.id, v_user, v_status = 'awaiting_confirmation', v_req.lang, v_req.created_at;
end;
$$;
comment on function public.submit_cancellation_request(text, text, text, text, text, date, text, uuid, text) is
  'service_role: stores a §312k BGB cancellation; signed in = confirmed at once, anonymous = waits for the account holder''s link (issue 12).';

/* Queues the confirmation link of anonymous request p_request_id to its account's address (the
   account's name and language of the form; p_link built and signed by the function).
   Returns the mail id. service_role only. Errors: PT404 not_found (no such request waiting). */
create or replace function public.queue_cancellation_link(p_request_id uuid, p_link text)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id bigint;
begin
  select private.enqueue_email(p.id, p.email, 'cancellation_confirm_link', c.lang,
           pg_catalog.jsonb_build_object('firstname', p.firstname, 'lastname', p.lastname),
           pg_catalog.jsonb_build_object('link', p_link,
             'date', pg_catalog.to_char(c.created_at at time zone 'Europe/Berlin', 'DD.MM.YYYY HH24:MI'),
             'cancellation_request_id', c.id))
    into v_id
  from public.cancellation_requests c
  join public.profiles p on p.id = c.user_id
  where c.id = p_request_id and c.status = 'awaiting_confirmation';
  if not found then
    raise exception using errcode = 'PT404', message = 'not_found', detail = 'No cancellation waiting for confirmation.';
  end if;
  return v_id;
end;
$$;
comment on function public.queue_cancellation_link(uuid, text) is
  'service_role: mails the confirmation link of an anonymous cancellation to the account address (issue 12).';

/* The account holder confirmed request p_request_id through the mailed link (the function has
   verified the signed, single-use token for p_user_id): received + confirmed_at, and the receipt
   is queued. Returns what the function needs to schedule the cancellation.
   service_role only. Errors: PT404 not_found (unknown, someone else's, or already confirmed). */
create or replace function public.confirm_cancellation_request(p_request_id uuid, p_user_id uuid)
returns table (request_id uuid, plan_id text, requested_date date, lang text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_req public.cancellation_requests;
begin
  update public.cancellation_requests c
  set status = 'received', confirmed_at = pg_catalog.now(), confirmed_via = 'email_link'
  where c.id = p_request_id and c.user_id = p_user_id and c.status = 'awaiting_confirmation'
  returning * into v_req;
  if not found then
    raise exception using errcode = 'PT404', message = 'not_found', detail = 'No cancellation waiting for confirmation.';
  end if;
  perform private.queue_cancellation_receipt(v_req.id);
  return query select v_req.id, v_req.plan_id, v_req.requested_date, v_req.lang;
end;
$$;
comment on function public.confirm_cancellation_request(uuid, uuid) is
  'service_role: the holder confirmed an anonymous cancellation through the mailed link (issue 12 finding 2).';

-- Duplicate subscriptions (issue 12 finding 7, see subscriptions_one_live_per_user)
/* Records a subscription that was cancelled and refunded as a duplicate and, the first time
   only, queues the customer's mail (subscription_duplicate_refunded, in their language).
   p_refunded_cents in cents. Returns true when this call recorded it (false: already recorded).
   service_role only (the shared billing sync). */
create or replace function public.record_duplicate_subscription(
  p_stripe_subscription_id text, p_user_id uuid, p_kept_subscription_id text, p_refund_id text,
  p_refunded_cents integer, p_currency text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_new boolean;
  p public.profiles;
begin
  insert into private.duplicate_subscriptions (stripe_subscription_id, user_id, kept_subscription_id, refund_id, refunded_cents, currency)
  values (p_stripe_subscription_id, p_user_id, p_kept_subscription_id, p_refund_id, p_refunded_cents, p_currency)
  on conflict (stripe_subscription_id) do nothing;
  get diagnostics v_new = row_count;
  if v_new then
    select * into p from public.profiles where id = p_user_id;
    if found then
      perform private.enqueue_email(p.id, p.email, 'subscription_duplicate_refunded', p.preferred_language,
        pg_catalog.jsonb_build_object('firstname', p.firstname, 'lastname', p.lastname),
        pg_catalog.jsonb_build_object(
          'amount', pg_catalog.replace(pg_catalog.to_char(coalesce(p_refunded_cents, 0) / 100.0, 'FM999990.00'), '.',
                      case when p.preferred_language = 'en' then '.' else ',' end) || ' €',
          'subscription_id', p_stripe_subscription_id));
    end if;
  end if;
  return v_new;
end;
$$;
comment on function public.record_duplicate_subscription(text, uuid, text, text, integer, text) is
  'service_role: records a cancelled+refunded duplicate subscription and mails the customer once (issue 12 finding 7).';

/* Whether a Stripe subscription was cancelled and refunded as a duplicate (for verify-payment). */
create or replace function public.is_duplicate_subscription(p_stripe_subscription_id text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from private.duplicate_subscriptions where stripe_subscription_id = p_stripe_subscription_id)
$$;
comment on function public.is_duplicate_subscription(text) is 'service_role: true when the subscription was refunded as a duplicate (issue 12 finding 7).';

-- Cancellations owed to deleted accounts (issue 32 §1, see private.account_deletion_cancellations)
/* Claims up to p_limit (1..100) due pending cancellations of deleted accounts, or only the one of
   account p_user_id (the delete-account function right after the deletion it made). A claim counts
   an attempt and leases the row for 120 seconds (a worker that dies leaves it due again).
   Output: id, the deleted account, its Stripe customer, the subscriptions the database knew as
   live, attempts so far. service_role only. */
create or replace function public.claim_account_deletion_cancellations(p_limit integer default 20, p_user_id uuid default null)
returns table (id bigint, user_id uuid, stripe_customer_id text, known_subscription_ids text[], attempts integer)
language sql
security definer
set search_path = ''
as $$
  update private.account_deletion_cancellations c
  set attempts = c.attempts + 1, next_attempt_at = pg_catalog.now() + interval '120 seconds'
  where c.id in (select q.id from private.account_deletion_cancellations q
                 where q.status = 'pending' and q.next_attempt_at <= pg_catalog.now()
                   and (p_user_id is null or q.user_id = p_user_id)
                 order by q.next_attempt_at, q.id limit greatest(1, least(coalesce(p_limit, 20), 100)) for update skip locked)
  returning c.id, c.user_id, c.stripe_customer_id, c.known_subscription_ids, c.attempts
$$;
comment on function public.claim_account_deletion_cancellations(integer, uuid) is
  'service_role: claims due Stripe cancellations of deleted accounts (lease 120 s; issue 32 §1).';

/* Stripe has no live subscription of the deleted account any more: records the subscriptions the
   deletion ended (p_canceled_subscription_ids) and, the first time only, queues the confirmation
   mail to the account's address in its language: account_deleted_subscription_cancelled (with
   the names of plans p_plan_ids) when a subscription ended, else account_deleted; then forgets
   the address and name. Returns true when this call completed it (false: already done or
   unknown). service_role only. */
create or replace function public.complete_account_deletion_cancellation(p_id bigint, p_canceled_subscription_ids text[], p_plan_ids text[] default '{}')
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  c private.account_deletion_cancellations;
begin
  select * into c from private.account_deletion_cancellations a where a.id = p_id and a.status = 'pending' for update;
  if not found then
    return false;
  end if;
  -- the address and name served only this mail: the record keeps no personal data beyond the ids
  update private.account_deletion_cancellations a
  set status = 'done', completed_at = pg_catalog.now(), last_error = null,
      canceled_subscription_ids = coalesce(p_canceled_subscription_ids, '{}'), email = null, firstname = null
  where a.id = p_id
  returning a.status, a.completed_at, a.canceled_subscription_ids into c.status, c.completed_at, c.canceled_subscription_ids;
  if c.email is not null then
    perform private.enqueue_email(null, c.email,
      case when pg_catalog.cardinality(c.canceled_subscription_ids) > 0 then 'account_deleted_subscription_cancelled' else 'account_deleted' end,
      c.lang, pg_catalog.jsonb_build_object('firstname', c.firstname),
      pg_catalog.jsonb_build_object(
        'plan', coalesce((select pg_catalog.string_agg(pl.name, ', ' order by pl.rank) from public.plans pl where pl.id = any (p_plan_ids)), ''),
        'date', pg_catalog.to_char(c.completed_at at time zone 'Europe/Berlin', 'DD.MM.YYYY HH24:MI'),
        'subscription_ids', pg_catalog.array_to_string(c.canceled_subscription_ids, ', ')));
  end if;
  return true;
end;
$$;
comment on function public.complete_account_deletion_cancellation(bigint, text[], text[]) is
  'service_role: a deleted account''s subscriptions are ended at Stripe; records them and mails the confirmation once (issue 32 §1).';

/* Working cancellation p_id failed (Stripe unreachable or refusing): keeps the error and retries
   after 2^attempts minutes (at most 6 hours); it stays pending until it succeeds. service_role only. */
create or replace function public.fail_account_deletion_cancellation(p_id bigint, p_error text)
returns void
language sql
security definer
set search_path = ''
as $$
  update private.account_deletion_cancellations
  set last_error = pg_catalog.left(p_error, 1000),
      next_attempt_at = pg_catalog.now() + least(interval '6 hours', interval '1 minute' * power(2, attempts))
  where id = p_id and status = 'pending'
$$;
comment on function public.fail_account_deletion_cancellation(bigint, text) is
  'service_role: a Stripe cancellation of a deleted account failed; retried with backoff (issue 32 §1).';

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.

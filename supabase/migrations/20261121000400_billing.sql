-- =============================================================================
-- Billing: plans, prices, subscriptions, Stripe event ledger (spec §6, §9; issue 7)
-- =============================================================================

create type public.billing_period as enum ('monthly', 'quarterly', 'semiannual', 'yearly');
create type public.subscription_status as enum (
  'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused');
comment on type public.subscription_status is 'Stripe subscription statuses, verbatim.';

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
  'Mirror of Stripe subscriptions, written only by sync_subscription (service_role). Stripe is the source of truth.';
comment on column public.subscriptions.last_synced_at is
  'Watermark: time of the Stripe state this row reflects; an older sync never overwrites a newer one.';
comment on column public.subscriptions.stripe_checkout_session_id is 'Checkout session (cs_...) that created the subscription.';

create index subscriptions_user_idx on public.subscriptions (user_id, status);
create index subscriptions_plan_idx on public.subscriptions (plan_id);
create index subscriptions_price_idx on public.subscriptions (price_id);
create index subscriptions_customer_idx on public.subscriptions (stripe_customer_id);
create trigger subscriptions_updated_at before update on public.subscriptions
  for each row execute function private.set_updated_at();

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

-- -----------------------------------------------------------------------------
-- Reference data
-- -----------------------------------------------------------------------------
insert into public.plans (id, name, rank, project_limit, features_de, features_en, contact_sales) values
('basic', 'Basic', 1, 3,
  array['Bis zu 3 Projekte', 'Basis-Matching', 'Zugang zur Community', 'E-Mail-Support'],
  array['Up to 3 projects', 'Basic matching', 'Community access', 'Email support'], false),
('premium', 'Premium', 2, null,
  array['Alles aus Basic', 'Unbegrenzte Projekte', 'Erweitertes Matching', 'Bevorzugung in Suchergebnissen', 'Premium-Profileinstellungen', 'Priorisierter Support'],
  array['Everything in Basic', 'Unlimited projects', 'Advanced matching', 'Preference in search results', 'Premium profile settings', 'Priority support'], false),
('enterprise', 'Enterprise', 3, null,
  array['Alles aus Premium', 'Unternehmensprofile mit mehreren Nutzern', 'Analysen', 'Individuelles Matching', 'API-Zugang', 'Persönlicher Ansprechpartner', 'Support rund um die Uhr'],
  array['Everything in Premium', 'Corporate profiles with multiple users', 'Analytics', 'Custom matching', 'API access', 'Dedicated account manager', '24/7 support'], true);

-- quarterly and 6 months: about 5 % and 10 % below paying monthly; yearly = 10 x monthly ("2 months free").
insert into public.prices (plan_id, billing_period, amount_cents) values
('basic', 'monthly', 1900), ('basic', 'quarterly', 5400), ('basic', 'semiannual', 10200), ('basic', 'yearly', 19000),
('premium', 'monthly', 4900), ('premium', 'quarterly', 13900), ('premium', 'semiannual', 26400), ('premium', 'yearly', 49000),
('enterprise', 'monthly', 9900), ('enterprise', 'quarterly', 28200), ('enterprise', 'semiannual', 53400), ('enterprise', 'yearly', 99000);

-- -----------------------------------------------------------------------------
-- Role from subscriptions
-- -----------------------------------------------------------------------------

-- Statuses that keep the paid role: Stripe keeps a past_due subscription alive while it retries.
create or replace function private.is_paid_status(s public.subscription_status)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select s in ('active', 'trialing', 'past_due')
$$;
comment on function private.is_paid_status(public.subscription_status) is 'active, trialing and past_due grant the plan.';

-- Sets profiles.user_role from the best paid subscription; free when none is left.
-- admin stays admin; old_user stays old_user unless a paid plan is active.
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
  select s.plan_id into best
  from public.subscriptions s join public.plans p on p.id = s.plan_id
  where s.user_id = p_user_id and private.is_paid_status(s.status)
    and (s.current_period_end is null or s.current_period_end > pg_catalog.now() - interval '1 day')
  order by p.rank desc limit 1;
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
comment on function private.refresh_user_role(uuid) is 'profiles.user_role := highest active plan, else free.';

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

revoke all on function public.sync_subscription(uuid, text, text, public.subscription_status, text, text, timestamptz,
  timestamptz, boolean, timestamptz, timestamptz, text, timestamptz), public.record_stripe_event(text, text, timestamptz),
  public.finish_stripe_event(text, text) from public, anon, authenticated;
grant execute on function public.sync_subscription(uuid, text, text, public.subscription_status, text, text, timestamptz,
  timestamptz, boolean, timestamptz, timestamptz, text, timestamptz), public.record_stripe_event(text, text, timestamptz),
  public.finish_stripe_event(text, text) to service_role;

-- -----------------------------------------------------------------------------
-- Row-level security
-- -----------------------------------------------------------------------------
alter table public.plans enable row level security;
alter table public.prices enable row level security;
alter table public.subscriptions enable row level security;
alter table public.stripe_events enable row level security;

revoke all on public.plans, public.prices, public.subscriptions, public.stripe_events from anon, authenticated;
grant select on public.plans, public.prices to anon, authenticated;
grant select on public.subscriptions, public.stripe_events to authenticated;
grant all on public.plans, public.prices, public.subscriptions, public.stripe_events to service_role;

create policy plans_select on public.plans for select to anon, authenticated using (active);
create policy prices_select on public.prices for select to anon, authenticated using (active);
create policy subscriptions_select on public.subscriptions for select to authenticated
using (user_id = (select auth.uid()) or (select private.is_admin()));
create policy stripe_events_select on public.stripe_events for select to authenticated
using ((select private.is_admin()));

-- =============================================================================
-- Entitlements: who has paid access and which plan counts (spec §6; issues 12, 15, 19)
-- =============================================================================
-- The payment-required rule (spec §6) in the database: creating portfolios (and their files),
-- events, conversations, conversation members, messages and contact requests needs paid access,
-- whatever the client; projects follow the plan limit (free = 0). Favourites, RSVPs, blocks,
-- feedback and profile edits stay open: they are not behind the guard (spec §6) or are safety and
-- privacy rights. Paid access = a paid subscription, the admin role, or a seat in an organisation
-- with an active Enterprise subscription (issue 15), so this file follows 04_billing.sql and
-- 05_organizations.sql. The guard's triggers (private.require_paid_access) live with the guarded
-- tables.

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

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

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

/* The effective plan of p_user_id, the one rule every place follows (issue 32 §2; spec §6, issue 15):
   a seat in an organisation with an active Enterprise subscription comes first ('enterprise',
   source 'organization', the organisation joined first); otherwise the best own paid subscription
   whose period ended less than a day ago (source 'subscription'); otherwise 'free' (source 'none').
   The admin role is not a plan (callers add it: match_plan, refresh_user_role, my_plan). One row.
   PL/pgSQL, not SQL: a SQL function with `set search_path` is never inlined and is planned again
   on every call, a PL/pgSQL one keeps its plan per session (every chat message checks paid access
   through here, issue 34). */
create or replace function private.effective_plan(p_user_id uuid)
returns table (plan text, source text, organization_id uuid, subscription_id uuid)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
  select coalesce(o.plan, s.plan, 'free'), coalesce(o.source, s.source, 'none'), o.organization_id, s.subscription_id
  from (select 1) one
  left join lateral (
    select 'enterprise'::text as plan, 'organization'::text as source, m.organization_id
    from public.organization_members m
    where m.user_id = p_user_id and private.organization_enterprise_active(m.organization_id)
    order by m.joined_at, m.organization_id limit 1) o on true
  left join lateral (
    select s.plan_id as plan, 'subscription'::text as source, s.id as subscription_id
    from public.subscriptions s join public.plans pl on pl.id = s.plan_id
    where s.user_id = p_user_id and private.is_paid_status(s.status)
      and (s.current_period_end is null or s.current_period_end > pg_catalog.now() - interval '1 day')
    order by pl.rank desc, s.created_at desc limit 1) s on o.plan is null;
end;
$$;
comment on function private.effective_plan(uuid) is
  'Issue 32 §2: the effective plan (organisation seat > own subscription > free) with its source; the one rule for roles, access and what the SPA shows.';

/* Payment-required rule (spec §6) for p_user_id (issue 12 finding 5, extended by issue 15): the
   admin role or a paid effective plan (private.effective_plan: an Enterprise organisation seat or
   an own paid subscription whose period ended less than a day ago). PL/pgSQL for its cached plan
   (see effective_plan; issue 34). */
create or replace function private.has_paid_access(p_user_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return p_user_id is not null and (
    exists (select 1 from public.profiles p where p.id = p_user_id and p.user_role = 'admin')
    or (select e.plan from private.effective_plan(p_user_id) e) <> 'free');
end;
$$;
comment on function private.has_paid_access(uuid) is
  'Spec §6 payment-required rule for one user (paid subscription, admin, or member of an Enterprise organisation, issue 15).';

/* The plan matching and analytics use (issue 19): admins count as 'enterprise', everyone else has
   their effective plan (private.effective_plan, issue 32 §2). */
create or replace function private.match_plan(p_user_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when exists (select 1 from public.profiles p where p.id = p_user_id and p.user_role = 'admin') then 'enterprise'
    else (select e.plan from private.effective_plan(p_user_id) e)
  end
$$;
comment on function private.match_plan(uuid) is
  'Effective plan (spec §6): enterprise (also admins and members of an Enterprise organisation, issue 15), premium, basic or free.';

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

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

/* my_plan (issue 32 §2; signed-in callers): the plan the SPA shows everywhere, from
   private.effective_plan, as {plan: 'free'|'basic'|'premium'|'enterprise', source:
   'organization'|'subscription'|'admin'|'none', organization: {id, name, slug} | null,
   own_subscription: the caller's own live subscription {plan_id, status, billing_period,
   current_period_end, cancel_at_period_end, amount_cents, currency, pays_organization} | null,
   own_plan_redundant: an own live subscription that pays no organisation, is not already ending
   and is not needed because an organisation seat gives the plan}. Admins: plan 'enterprise',
   source 'admin'. Errors: 28000 not_authenticated. */
create or replace function public.my_plan()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_plan record;
  v_admin boolean;
  v_own jsonb;
  v_org jsonb;
begin
  select * into v_plan from private.effective_plan(v_uid);
  v_admin := exists (select 1 from public.profiles p where p.id = v_uid and p.user_role = 'admin');
  select pg_catalog.jsonb_build_object('id', o.id, 'name', o.name, 'slug', o.slug) into v_org
  from public.organizations o where o.id = v_plan.organization_id;
  select pg_catalog.jsonb_build_object('plan_id', s.plan_id, 'status', s.status, 'billing_period', s.billing_period,
    'current_period_end', s.current_period_end, 'cancel_at_period_end', s.cancel_at_period_end,
    'amount_cents', pr.amount_cents, 'currency', pr.currency,
    'pays_organization', exists (select 1 from public.organizations o where o.subscription_id = s.id))
  into v_own
  from public.subscriptions s left join public.prices pr on pr.id = s.price_id
  where s.user_id = v_uid and private.is_paid_status(s.status)
  order by s.updated_at desc limit 1;
  return pg_catalog.jsonb_build_object(
    'plan', case when v_admin then 'enterprise' else v_plan.plan end,
    'source', case when v_admin then 'admin' else v_plan.source end,
    'organization', v_org,
    'own_subscription', v_own,
    'own_plan_redundant', coalesce(v_plan.source = 'organization' and v_own is not null
      and not (v_own ->> 'cancel_at_period_end')::boolean and not (v_own ->> 'pays_organization')::boolean, false));
end;
$$;
comment on function public.my_plan() is
  'Issue 32 §2: the caller''s effective plan, its source (organisation seat > own subscription) and whether an own subscription is paid for nothing.';

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function public.has_active_subscription() to anon, authenticated;
grant execute on function public.my_plan() to authenticated;
grant execute on function private.has_paid_access(uuid),
  private.require_paid_access() to anon, authenticated, service_role;

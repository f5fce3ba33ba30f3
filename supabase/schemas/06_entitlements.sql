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

/* Payment-required rule (spec §6) for p_user_id (issue 12 finding 5, extended by issue 15): a paid
   subscription whose period ended less than a day ago, the admin role, or membership of an
   organisation with an active Enterprise subscription. */
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
        and (s.current_period_end is null or s.current_period_end > pg_catalog.now() - interval '1 day'))
    or private.has_organization_enterprise(p_user_id))
$$;
comment on function private.has_paid_access(uuid) is
  'Spec §6 payment-required rule for one user (paid subscription, admin, or member of an Enterprise organisation, issue 15).';

/* The effective plan of a user (issue 19, extended by issue 15): admins and members
   of an organisation with an active Enterprise subscription are 'enterprise'; otherwise the best
   paid subscription whose period has not ended (one day of grace); else 'free'. */
create or replace function private.match_plan(p_user_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when exists (select 1 from public.profiles p where p.id = p_user_id and p.user_role = 'admin') then 'enterprise'
    when private.has_organization_enterprise(p_user_id) then 'enterprise'
    else coalesce((
      select s.plan_id from public.subscriptions s join public.plans pl on pl.id = s.plan_id
      where s.user_id = p_user_id and private.is_paid_status(s.status)
        and (s.current_period_end is null or s.current_period_end > pg_catalog.now() - interval '1 day')
      order by pl.rank desc limit 1), 'free')
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

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function public.has_active_subscription() to anon, authenticated;
grant execute on function private.has_paid_access(uuid),
  private.require_paid_access() to anon, authenticated, service_role;

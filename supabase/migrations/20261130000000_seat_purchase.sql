-- Issue 15: buying extra organisation seats. Enterprise includes 5 seats; more are a quantity on
-- the organisation's Stripe subscription: one subscription item on the extra-seat price of the
-- subscription's billing period (Stripe needs every item of a subscription on the same interval).
--
-- * public.seat_prices: the price of one extra seat per billing period (cents, EUR, incl. VAT);
--   scripts/stripe/sync-prices.ts creates the Stripe prices (product teamwerk_extra_seat, lookup key
--   teamwerk_extra_seat_<period>, metadata teamwerk_item = extra_seat) and stores their ids.
-- * public.prepare_seat_change: the owner who pays the organisation's subscription asks for a new
--   number of extra seats; the database decides whether that is allowed (owner and subscriber, a
--   paid Enterprise subscription, never fewer seats than members + open invitations) and answers
--   what the Edge Function `organization-seats` must change at Stripe. The seats themselves only
--   change when the billing sync mirrors Stripe (public.sync_subscription_seats), so the database
--   never shows seats that were not bought.
-- * public.organization_billing also answers extra_seats, billing_period and the seat price.

create table public.seat_prices (
  billing_period public.billing_period primary key,
  amount_cents integer not null check (amount_cents > 0),
  currency text not null default 'eur' check (currency ~ '^[a-z]{3}$'),
  stripe_price_id text unique,
  active boolean not null default true
);
comment on table public.seat_prices is
  'Issue 15: price of one extra organisation seat per billing period (gross, incl. VAT), on top of the 5 seats of Enterprise.';
comment on column public.seat_prices.amount_cents is 'Gross amount per extra seat and billing period, in cents (EUR).';
comment on column public.seat_prices.stripe_price_id is 'Stripe price (price_...), filled by scripts/stripe/sync-prices.ts.';

-- 15 € a month per seat; quarterly and 6 months about 5 % and 10 % below monthly; yearly = 10 months.
insert into public.seat_prices (billing_period, amount_cents) values
  ('monthly', 1500), ('quarterly', 4300), ('semiannual', 8100), ('yearly', 15000);

alter table public.seat_prices enable row level security;
create policy seat_prices_select on public.seat_prices for select to anon, authenticated using (active);
revoke all on public.seat_prices from public, anon, authenticated;
grant select (billing_period, amount_cents, currency, stripe_price_id, active) on public.seat_prices to anon, authenticated;
grant all on public.seat_prices to service_role;

/* prepare_seat_change (issue 15; the organisation's owner who pays its subscription): checks that
   the organisation may have 5 + p_extra_seats seats and answers what to change at Stripe:
   {stripe_subscription_id, seat_price_id, billing_period, extra_seats (now), seats (now), in_use}.
   Nothing is stored: the seats change when the billing sync mirrors the updated subscription.
   Errors: 28000 not_authenticated; 42501 account_suspended | not_organization_owner |
   not_billing_owner; PT404 organization_not_found; 22023 invalid_seats (0..995);
   PT402 enterprise_required (no paid Enterprise subscription pays the organisation);
   PT409 seats_in_use (fewer seats than members + open invitations);
   PT503 seat_price_unavailable (no Stripe price for the billing period yet). */
create or replace function public.prepare_seat_change(p_organization_id uuid, p_extra_seats integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_writer();
  v_org public.organizations%rowtype;
  v_sub public.subscriptions%rowtype;
  v_price text;
  v_usage record;
  v_extra integer;
begin
  -- the row lock orders this check against invitations and acceptances of the same organisation
  select * into v_org from public.organizations o where o.id = p_organization_id for update;
  if not found then
    raise exception using errcode = 'PT404', message = 'organization_not_found';
  end if;
  if private.organization_role_of(p_organization_id, v_uid) is distinct from 'owner' then
    raise exception using errcode = '42501', message = 'not_organization_owner';
  end if;
  if p_extra_seats is null or p_extra_seats not between 0 and 995 then
    raise exception using errcode = '22023', message = 'invalid_seats', detail = 'Extra seats must be a whole number from 0 to 995.';
  end if;
  select * into v_sub from public.subscriptions s where s.id = v_org.subscription_id;
  if not found or v_sub.plan_id <> 'enterprise' or not private.is_paid_status(v_sub.status) or v_sub.stripe_subscription_id is null then
    raise exception using errcode = 'PT402', message = 'enterprise_required',
      detail = 'A paid Enterprise subscription must pay for the organisation before seats can be bought.';
  end if;
  if v_sub.user_id <> v_uid then
    raise exception using errcode = '42501', message = 'not_billing_owner',
      detail = 'Only the owner whose subscription pays for the organisation can change its seats.';
  end if;
  select * into v_usage from private.organization_seat_usage(p_organization_id);
  if 5 + p_extra_seats < v_usage.members + v_usage.open_invitations then
    raise exception using errcode = 'PT409', message = 'seats_in_use',
      detail = pg_catalog.format('%s seats are in use by members and open invitations.', v_usage.members + v_usage.open_invitations);
  end if;
  select sp.stripe_price_id into v_price from public.seat_prices sp
  where sp.billing_period = coalesce(v_sub.billing_period, 'monthly') and sp.active;
  if v_price is null then
    raise exception using errcode = 'PT503', message = 'seat_price_unavailable';
  end if;
  select coalesce((select x.extra_seats from private.subscription_seats x where x.subscription_id = v_sub.id), 0) into v_extra;
  return pg_catalog.jsonb_build_object('stripe_subscription_id', v_sub.stripe_subscription_id, 'seat_price_id', v_price,
    'billing_period', coalesce(v_sub.billing_period, 'monthly'), 'extra_seats', v_extra, 'seats', v_org.seats,
    'in_use', v_usage.members + v_usage.open_invitations);
end;
$$;
comment on function public.prepare_seat_change(uuid, integer) is
  'Issue 15: may the paying owner change the organisation''s extra seats to p_extra_seats? Answers the Stripe subscription and seat price. Errors: see the migration.';
revoke all on function public.prepare_seat_change(uuid, integer) from public, anon, authenticated;
grant execute on function public.prepare_seat_change(uuid, integer) to authenticated, service_role;

/* organization_billing (issue 15; owners only): as before plus extra_seats, billing_period,
   seat_amount_cents and seat_currency (the price of one extra seat for the subscription's period). */
create or replace function public.organization_billing(p_organization_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v jsonb;
begin
  if private.organization_role_of(p_organization_id, v_uid) is distinct from 'owner' then
    raise exception using errcode = '42501', message = 'not_organization_owner';
  end if;
  select pg_catalog.jsonb_build_object('seats', u.seats, 'included_seats', 5, 'members', u.members,
    'open_invitations', u.open_invitations, 'plan_id', s.plan_id, 'status', s.status,
    'current_period_end', s.current_period_end, 'cancel_at_period_end', s.cancel_at_period_end,
    'billing_owner', s.user_id = v_uid, 'enterprise_active', private.organization_enterprise_active(o.id),
    'extra_seats', coalesce(x.extra_seats, 0), 'billing_period', s.billing_period,
    'seat_amount_cents', sp.amount_cents, 'seat_currency', sp.currency)
  into v
  from public.organizations o
  cross join lateral private.organization_seat_usage(o.id) u
  left join public.subscriptions s on s.id = o.subscription_id
  left join private.subscription_seats x on x.subscription_id = s.id
  left join public.seat_prices sp on sp.billing_period = coalesce(s.billing_period, 'monthly') and sp.active
  where o.id = p_organization_id;
  return v;
end;
$$;
comment on function public.organization_billing(uuid) is 'Issue 15: seats, extra seats, seat price and subscription state for the organisation''s owners.';

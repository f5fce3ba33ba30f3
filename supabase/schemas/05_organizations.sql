-- =============================================================================
-- Organisations: corporate profiles with several users (issue 15, spec §6 Enterprise)
-- =============================================================================
-- An Enterprise subscriber creates an organisation; its subscription (organizations.subscription_id,
-- the creator's Enterprise subscription) pays the seats (5 included). Roles:
--   owner  – everything an admin may, plus roles, billing, deleting the organisation;
--   admin  – edits the public page, invites and removes members (not owners);
--   member – publishes projects, jobs and events under the organisation (organization_id).
-- Invitations go out by e-mail (queue, invitee's language) with a random 256-bit token; only its
-- SHA-256 hash is stored. Valid 7 days, single use; accepted only by the account whose confirmed
-- e-mail equals the invited address (case-insensitive). Members + open invitations <= seats; a seat
-- is taken on acceptance. Members of an organisation with an active Enterprise subscription get the
-- Enterprise plan (private.match_plan, private.has_paid_access in 06_entitlements.sql,
-- profiles.user_role through private.refresh_user_role).
-- The issue's "signed link" is a random token looked up by its hash (unforgeable like a signature,
-- and revocable); the plain token exists only in the queued mail's payload path (email_queue is
-- readable by the service role and platform admins only). Extra seats: Stripe subscription items
-- marked extra_seat, copied by the billing sync (public.sync_subscription_seats); seats = 5 + extra.
-- Content published under an organisation (projects, jobs, events: organization_id) is checked
-- by private.check_content_organization, whose triggers live with those tables; the logos'
-- storage policies live in 22_storage.sql.
--
-- Error codes of the RPCs (message = code, detail = English explanation):
--   28000 not_authenticated
--   22023 invalid_slug | invalid_role | invalid_email | invalid_locale | invalid_name | invalid_size | invalid_seats
--   42501 account_suspended (writes of suspended accounts) | not_organization_member | not_organization_admin | not_organization_owner | owner_role_required
--         | own_role | invitation_email_mismatch | email_unconfirmed
--   PT402 enterprise_required | seat_limit_reached
--   PT429 rate_limited (invitations: 5 per address, 100 per inviting account in 24 h)
--   PT404 organization_not_found | member_not_found | invitation_not_found | subscription_not_found (service role)
--   PT409 slug_taken | subscription_in_use | last_owner | billing_owner | already_member
--         | invitation_expired | invitation_used | invitation_pending

-- -----------------------------------------------------------------------------
-- Types
-- -----------------------------------------------------------------------------

create type public.organization_role as enum ('owner', 'admin', 'member');
comment on type public.organization_role is 'Role in an organisation (issue 15): owner > admin > member.';

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table public.organizations (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) between 3 and 60)
    constraint organizations_slug_not_reserved check (not private.is_reserved_slug(slug)),
  name text not null check (char_length(btrim(name)) between 2 and 140),
  -- an image reference as everywhere else (issue 12): storage object path or http(s) URL with a host
  logo_path text constraint organizations_logo_path_ref check (logo_path is null or private.is_image_ref(logo_path)),
  description_en text not null default '' check (char_length(description_en) <= 5000),
  description_de text not null default '' check (char_length(description_de) <= 5000),
  website text constraint organizations_website_url check (website is null or (private.is_http_url(website) and char_length(website) <= 500)),
  industry text check (char_length(industry) <= 100),
  size text check (size in ('1-10', '11-50', '51-200', '201-1000', '1001+')),
  street text check (char_length(street) <= 200),
  postal_code text check (char_length(postal_code) <= 20),
  city text check (char_length(city) <= 100),
  country text check (char_length(country) <= 100),
  -- spec §3 display address of a business: street (with house number), city, postal code; empty parts dropped
  display_address text generated always as (
    btrim(regexp_replace(
      coalesce(btrim(street), '') || ', ' || coalesce(btrim(city), '') || ', ' || coalesce(btrim(postal_code), '') || ', ' || coalesce(btrim(country), ''),
      '(,\s*)+', ', ', 'g'), ', ')) stored,
  seats integer not null default 5 check (seats between 1 and 10000),
  subscription_id uuid unique references public.subscriptions (id) on delete set null,
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.organizations is
  'Corporate profiles (issue 15): public page /org/{slug}; created by Enterprise subscribers through create_organization.';
comment on column public.organizations.street is 'Business address: street and house number (spec §3 display address).';
comment on column public.organizations.display_address is 'Spec §3 display address of a business: street, city, postal code, country; empty parts dropped.';
comment on column public.organizations.seats is 'Seats paid by the subscription: 5 included (+ extra seats). Members + open invitations <= seats.';
comment on column public.organizations.subscription_id is
  'The Enterprise subscription paying for the organisation (the creating owner''s). Members get Enterprise while it is paid.';
comment on column public.organizations.logo_path is 'Object path in the organization-logos storage bucket ({organization_id}/{file}).';
alter table public.organizations enable row level security;
revoke all on public.organizations from anon, authenticated;
grant select (id, slug, name, logo_path, description_en, description_de, website, industry, size, street,
              postal_code, city, country, display_address, created_at, updated_at)
  on public.organizations to anon, authenticated;
grant update (name, logo_path, description_en, description_de, website, industry, size, street, postal_code,
              city, country)
  on public.organizations to authenticated;

create table public.organization_members (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  role public.organization_role not null default 'member',
  listed boolean not null default true,
  joined_at timestamptz not null default now(),
  primary key (organization_id, user_id)
);
comment on table public.organization_members is
  'Members of an organisation (issue 15). Written only by the organisation RPCs; a member may switch `listed` (shown on the public page).';
comment on column public.organization_members.listed is 'The member agrees to be listed on the public organisation page.';
create index organization_members_user_idx on public.organization_members (user_id);
alter table public.organization_members enable row level security;
revoke all on public.organization_members from anon, authenticated;
grant select (organization_id, user_id, role, listed, joined_at)
  on public.organization_members to authenticated;
grant update (listed) on public.organization_members to authenticated;

create table public.organization_invitations (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  email text not null check (email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' and char_length(email) <= 320),
  role public.organization_role not null default 'member',
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  invited_by uuid references public.profiles (id) on delete set null,
  locale text not null default 'de' check (locale in ('de', 'en')),
  expires_at timestamptz not null default now() + interval '7 days',
  accepted_at timestamptz,
  accepted_by uuid references public.profiles (id) on delete set null,
  declined_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz not null default now(),
  constraint organization_invitations_one_outcome check (num_nonnulls(accepted_at, declined_at, revoked_at) <= 1)
);
comment on table public.organization_invitations is
  'Invitations by e-mail (issue 15): token shown only in the mail link, stored as SHA-256 hex; 7 days, single use. Readable by the organisation''s owners and admins.';
comment on column public.organization_invitations.token_hash is 'encode(sha256(token), ''hex''); the token itself is never stored.';
comment on column public.organization_invitations.locale is 'Language of the invitation mail and link (de | en).';
create index organization_invitations_org_idx on public.organization_invitations (organization_id) where accepted_at is null and declined_at is null and revoked_at is null;
-- one open invitation per organisation and address
create unique index organization_invitations_open_email_idx on public.organization_invitations (organization_id, lower(email))
  where accepted_at is null and declined_at is null and revoked_at is null;
alter table public.organization_invitations enable row level security;
revoke all on public.organization_invitations from anon, authenticated;
grant select (id, organization_id, email, role, invited_by, locale, expires_at, accepted_at, declined_at,
              revoked_at, created_at)
  on public.organization_invitations to authenticated;

-- Seats from billing: 5 included + extra seats bought on the Stripe subscription
/* Extra seats per subscription as Stripe holds them (quantity of the subscription's extra-seat
   items), copied by the billing sync (public.sync_subscription_seats) with the same watermark as
   sync_subscription, so it is known before the organisation exists. */
create table private.subscription_seats (
  subscription_id uuid primary key references public.subscriptions (id) on delete cascade,
  extra_seats integer not null default 0 check (extra_seats between 0 and 9995),
  last_synced_at timestamptz not null
);
comment on table private.subscription_seats is
  'Extra seats of a subscription (issue 15): organizations.seats = 5 + extra_seats of its subscription.';
alter table private.subscription_seats enable row level security;

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
--   change when the billing sync copies Stripe's state (public.sync_subscription_seats), so the database
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
alter table public.seat_prices enable row level security;
revoke all on public.seat_prices from anon, authenticated;
grant select (billing_period, amount_cents, currency, stripe_price_id, active)
  on public.seat_prices to anon, authenticated;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

-- Content published under an organisation (projects, jobs, events; the triggers live with those tables)
create or replace function private.check_content_organization()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_author uuid := (pg_catalog.to_jsonb(new) ->> tg_argv[0])::uuid;
begin
  -- API roles only: the service role (Edge Functions such as the organisation API) is trusted
  if coalesce(pg_catalog.current_setting('role', true), 'none') in ('anon', 'authenticated')
     and new.organization_id is not null
     and (tg_op = 'INSERT' or new.organization_id is distinct from old.organization_id)
     and not private.is_organization_member(new.organization_id, v_author) then
    raise exception using errcode = '42501', message = 'not_organization_member',
      detail = 'Content can be published only under an organisation its author is a member of.';
  end if;
  return new;
end;
$$;
comment on function private.check_content_organization() is
  'Content may be put under an organisation only by a member (issue 15); the author column is TG_ARGV[0].';

-- Plan checks: members of an Enterprise organisation get Enterprise (issue 15)
/* AFTER INSERT/UPDATE/DELETE on organization_members: the (former) member's role follows; when an
   owner changes, every member's (the Enterprise rule needs the paying owner). When the last owner's
   row goes without the RPCs (their account was deleted), the longest-standing admin (else member)
   becomes owner, and an organisation without members is deleted (its content stays, without
   organisation). */
create or replace function private.organization_members_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_next uuid;
begin
  if tg_op = 'DELETE' and old.role = 'owner'
     and exists (select 1 from public.organizations o where o.id = old.organization_id)
     and not exists (select 1 from public.organization_members m where m.organization_id = old.organization_id and m.role = 'owner') then
    select m.user_id into v_next from public.organization_members m
    where m.organization_id = old.organization_id
    order by (m.role = 'admin') desc, m.joined_at, m.user_id limit 1;
    if v_next is null then
      delete from public.organizations where id = old.organization_id;
      perform private.refresh_user_role(old.user_id);
      return null;
    end if;
    update public.organization_members set role = 'owner' where organization_id = old.organization_id and user_id = v_next;
  end if;
  if tg_op = 'DELETE' or (tg_op = 'UPDATE' and (old.role = 'owner') <> (new.role = 'owner')) then
    perform private.refresh_organization_roles(old.organization_id);
    perform private.refresh_user_role(old.user_id);
  elsif tg_op = 'INSERT' then
    perform private.refresh_user_role(new.user_id);
  end if;
  return null;
end;
$$;
create trigger organization_members_changed after insert or delete or update of role on public.organization_members
  for each row execute function private.organization_members_changed();

/* AFTER UPDATE OF subscription_id on organizations / AFTER DELETE: members' roles follow. */
create or replace function private.organization_subscription_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    perform private.refresh_organization_roles(new.id);
  end if;
  return null;
end;
$$;
create trigger organizations_subscription_changed after update of subscription_id on public.organizations
  for each row execute function private.organization_subscription_changed();

/* AFTER INSERT/UPDATE on subscriptions: members of the organisation this subscription pays follow
   its state (sync_subscription refreshes only the subscriber). */
create or replace function private.subscription_organization_roles()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  r record;
begin
  for r in select o.id from public.organizations o where o.subscription_id = new.id loop
    perform private.refresh_organization_roles(r.id);
  end loop;
  return null;
end;
$$;
create trigger subscriptions_organization_roles after insert or update on public.subscriptions
  for each row execute function private.subscription_organization_roles();
create trigger organizations_updated_at before update on public.organizations
  for each row execute function private.set_updated_at();

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

-- Private helpers (used by RLS, RPCs and the plan checks)
/* Role of p_user_id in p_organization_id, null when not a member (or either is null). */
create or replace function private.organization_role_of(p_organization_id uuid, p_user_id uuid)
returns public.organization_role
language sql
stable
security definer
set search_path = ''
as $$
  select m.role from public.organization_members m
  where m.organization_id = p_organization_id and m.user_id = p_user_id
$$;
comment on function private.organization_role_of(uuid, uuid) is 'Role of a user in an organisation; null = not a member (issue 15).';

/* True when p_user is an owner or admin of p_org. */
create or replace function private.is_organization_admin(p_org uuid, p_user uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.organization_role_of(p_org, p_user) in ('owner', 'admin'), false)
$$;
comment on function private.is_organization_admin(uuid, uuid) is 'Owner or admin of the organisation (issue 15).';

/* True when p_user is a member (any role) of p_org. */
create or replace function private.is_organization_member(p_org uuid, p_user uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.organization_role_of(p_org, p_user) is not null
$$;
comment on function private.is_organization_member(uuid, uuid) is 'Any role in the organisation (issue 15).';

/* True while the organisation's subscription is a paid Enterprise subscription (period ended less
   than a day ago at most, as private.has_paid_access) held by one of its owners. */
create or replace function private.organization_enterprise_active(p_org uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.organizations o
    join public.subscriptions s on s.id = o.subscription_id
    join public.organization_members m on m.organization_id = o.id and m.user_id = s.user_id and m.role = 'owner'
    where o.id = p_org and s.plan_id = 'enterprise' and private.is_paid_status(s.status)
      and (s.current_period_end is null or s.current_period_end > pg_catalog.now() - interval '1 day'))
$$;
comment on function private.organization_enterprise_active(uuid) is
  'The organisation''s subscription is a paid Enterprise subscription of one of its owners (issue 15).';

/* True when p_user_id is a member of any organisation with an active Enterprise subscription. */
create or replace function private.has_organization_enterprise(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_user_id is not null and exists (
    select 1 from public.organization_members m
    where m.user_id = p_user_id and private.organization_enterprise_active(m.organization_id))
$$;
comment on function private.has_organization_enterprise(uuid) is
  'Member of an organisation whose subscription is an active Enterprise subscription: Enterprise features (issue 15).';

/* Recomputes profiles.user_role of every member of p_org (after membership, role or subscription changes). */
create or replace function private.refresh_organization_roles(p_org uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  r record;
begin
  for r in select m.user_id from public.organization_members m where m.organization_id = p_org order by m.user_id loop
    perform private.refresh_user_role(r.user_id);
  end loop;
end;
$$;
comment on function private.refresh_organization_roles(uuid) is 'refresh_user_role for all members of an organisation (issue 15).';

/* Seats an organisation paid by p_subscription_id has: 5 included + the extra seats copied from Stripe. */
create or replace function private.organization_seats_of(p_subscription_id uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select 5 + coalesce((select s.extra_seats from private.subscription_seats s where s.subscription_id = p_subscription_id), 0)
$$;

/* The caller's id or 28000 not_authenticated. */
create or replace function private.require_uid()
returns uuid
language plpgsql
stable
set search_path = ''
as $$
declare
  v uuid := (select auth.uid());
begin
  if v is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  return v;
end;
$$;

/* The caller's id when they may write (signed in, not suspended): 28000 not_authenticated or
   42501 account_suspended. */
create or replace function private.require_writer()
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v uuid := private.require_uid();
begin
  if exists (select 1 from public.account_suspensions s where s.user_id = v) then
    raise exception using errcode = '42501', message = 'account_suspended', detail = 'This account cannot act right now.';
  end if;
  return v;
end;
$$;

/* Validated organisation size (null allowed) or 22023 invalid_size. */
create or replace function private.check_organization_size(p_size text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_size is not null and p_size not in ('1-10', '11-50', '51-200', '201-1000', '1001+') then
    raise exception using errcode = '22023', message = 'invalid_size', detail = 'size: 1-10 | 11-50 | 51-200 | 201-1000 | 1001+.';
  end if;
  return p_size;
end;
$$;

/* Seat usage of p_org: members, open (not expired) invitations, seats. */
create or replace function private.organization_seat_usage(p_org uuid, out seats integer, out members integer, out open_invitations integer)
language sql
stable
security definer
set search_path = ''
as $$
  select o.seats,
         (select pg_catalog.count(*)::integer from public.organization_members m where m.organization_id = o.id),
         (select pg_catalog.count(*)::integer from public.organization_invitations i
          where i.organization_id = o.id and i.accepted_at is null and i.declined_at is null and i.revoked_at is null
            and i.expires_at > pg_catalog.now())
  from public.organizations o where o.id = p_org
$$;

/* The role's name in a mail. */
create or replace function private.organization_role_label(p_role public.organization_role, p_lang text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_lang = 'en' then p_role::text
    else case p_role when 'owner' then 'Inhaber' when 'admin' then 'Administrator' else 'Mitglied' end end
$$;

/* The invitation row of a token (hash lookup), locked. */
create or replace function private.invitation_by_token(p_token text)
returns public.organization_invitations
language sql
volatile
security definer
set search_path = ''
as $$
  select i.* from public.organization_invitations i
  where p_token is not null and char_length(p_token) between 16 and 200
    and i.token_hash = pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(p_token, 'UTF8')), 'hex')
  for update
$$;

/* The open invitation of a token for the caller, or the matching error: PT404 invitation_not_found;
   PT409 invitation_used (accepted, declined or revoked) | invitation_expired; 42501
   email_unconfirmed | invitation_email_mismatch (the caller's confirmed e-mail must be the invited one). */
create or replace function private.open_invitation_for(p_token text, p_uid uuid)
returns public.organization_invitations
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_inv public.organization_invitations;
  v_me public.profiles;
begin
  v_inv := private.invitation_by_token(p_token);
  if v_inv.id is null then
    raise exception using errcode = 'PT404', message = 'invitation_not_found';
  end if;
  if v_inv.accepted_at is not null or v_inv.declined_at is not null or v_inv.revoked_at is not null then
    raise exception using errcode = 'PT409', message = 'invitation_used', detail = 'This invitation was already used or withdrawn.';
  end if;
  if v_inv.expires_at <= pg_catalog.now() then
    raise exception using errcode = 'PT409', message = 'invitation_expired', detail = 'Invitations are valid for 7 days.';
  end if;
  select * into v_me from public.profiles p where p.id = p_uid;
  if v_me.authenticated is distinct from 1::smallint then
    raise exception using errcode = '42501', message = 'email_unconfirmed', detail = 'Confirm your e-mail address first.';
  end if;
  if pg_catalog.lower(v_me.email) <> pg_catalog.lower(v_inv.email) then
    raise exception using errcode = '42501', message = 'invitation_email_mismatch',
      detail = 'This invitation was sent to another e-mail address. Sign in with that address.';
  end if;
  return v_inv;
end;
$$;

/* Guards for removing / demoting p_user in p_org: PT409 billing_owner (the owner whose subscription
   pays stays owner) | last_owner. */
create or replace function private.check_owner_kept(p_org uuid, p_user uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if private.organization_role_of(p_org, p_user) <> 'owner' then
    return;
  end if;
  if exists (select 1 from public.organizations o join public.subscriptions s on s.id = o.subscription_id
             where o.id = p_org and s.user_id = p_user) then
    raise exception using errcode = 'PT409', message = 'billing_owner',
      detail = 'The owner whose subscription pays for the organisation stays owner; delete the organisation instead.';
  end if;
  if (select pg_catalog.count(*) from public.organization_members m where m.organization_id = p_org and m.role = 'owner') <= 1 then
    raise exception using errcode = 'PT409', message = 'last_owner', detail = 'An organisation keeps at least one owner.';
  end if;
end;
$$;

/* True when the storage object path p_name ({organization_id}/...) belongs to an organisation the
   caller administers (owner or admin). */
create or replace function private.can_write_organization_logo(p_name text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_first text := (storage.foldername(p_name))[1];
begin
  if v_first is null or v_first !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  return private.is_organization_admin(v_first::uuid, (select auth.uid()));
end;
$$;
comment on function private.can_write_organization_logo(text) is 'Logo object path lies in an organisation the caller administers (issue 15).';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

create policy organizations_select on public.organizations for select to anon, authenticated using (true);
-- platform admins may moderate (as on projects); suspended accounts write nothing (private.caller_can_write)
create policy organizations_update on public.organizations for update to authenticated
  using ((select private.caller_can_write()) and ((select private.is_organization_admin(id, (select auth.uid()))) or (select private.is_admin())))
  with check ((select private.caller_can_write()) and ((select private.is_organization_admin(id, (select auth.uid()))) or (select private.is_admin())));
create policy organization_members_select on public.organization_members for select to authenticated
  using ((select private.is_organization_member(organization_id, (select auth.uid()))) or (select private.is_admin()));
create policy organization_members_update_own on public.organization_members for update to authenticated
  using (user_id = (select auth.uid()) and (select private.caller_can_write()))
  with check (user_id = (select auth.uid()) and (select private.caller_can_write()));
create policy organization_invitations_select on public.organization_invitations for select to authenticated
  using ((select private.is_organization_admin(organization_id, (select auth.uid()))));
create policy seat_prices_select on public.seat_prices for select to anon, authenticated using (active);

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

/* sync_subscription_seats (service_role; the billing sync after sync_subscription): stores the extra
   seats of the subscription p_stripe_subscription_id unless a newer sync was stored, and updates
   the seats of the organisation it pays. Returns the organisation's seats (null when no
   organisation uses the subscription yet). Errors: 22023 invalid_seats; PT404 subscription_not_found. */
create or replace function public.sync_subscription_seats(p_stripe_subscription_id text, p_extra_seats integer, p_synced_at timestamptz)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub uuid;
  v_seats integer;
begin
  if p_extra_seats is null or p_extra_seats not between 0 and 9995 or p_synced_at is null then
    raise exception using errcode = '22023', message = 'invalid_seats', detail = 'extra seats 0..9995 and a sync time.';
  end if;
  select s.id into v_sub from public.subscriptions s where s.stripe_subscription_id = p_stripe_subscription_id;
  if v_sub is null then
    raise exception using errcode = 'PT404', message = 'subscription_not_found';
  end if;
  insert into private.subscription_seats as x (subscription_id, extra_seats, last_synced_at)
  values (v_sub, p_extra_seats, p_synced_at)
  on conflict (subscription_id) do update set extra_seats = excluded.extra_seats, last_synced_at = excluded.last_synced_at
    where x.last_synced_at <= excluded.last_synced_at;
  update public.organizations o set seats = private.organization_seats_of(v_sub)
  where o.subscription_id = v_sub and o.seats <> private.organization_seats_of(v_sub)
  returning o.seats into v_seats;
  if v_seats is null then
    select o.seats into v_seats from public.organizations o where o.subscription_id = v_sub;
  end if;
  return v_seats;
end;
$$;
comment on function public.sync_subscription_seats(text, integer, timestamptz) is
  'Issue 15: copies the extra seats of a Stripe subscription (service_role). organizations.seats = 5 + extra seats.';

/* create_organization (issue 15): the caller needs an own paid Enterprise subscription that does not
   back another organisation; the caller becomes owner; seats 5. p_slug null/empty = from the name
   (unique suffix added). Returns the organisation id.
   Errors: 28000 not_authenticated; PT402 enterprise_required; PT409 subscription_in_use | slug_taken;
   22023 invalid_name | invalid_slug | invalid_size. */
create or replace function public.create_organization(
  p_name text, p_slug text default null, p_description_en text default '', p_description_de text default '',
  p_website text default null, p_industry text default null, p_size text default null,
  p_street text default null, p_postal_code text default null, p_city text default null, p_country text default null,
  p_logo_path text default null)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_writer();
  v_sub uuid;
  v_slug text;
  v_base text;
  v_id uuid;
  v_constraint text;
  n integer := 1;
begin
  select s.id into v_sub from public.subscriptions s
  where s.user_id = v_uid and s.plan_id = 'enterprise' and private.is_paid_status(s.status)
    and (s.current_period_end is null or s.current_period_end > pg_catalog.now() - interval '1 day')
  order by s.created_at desc limit 1;
  if v_sub is null then
    raise exception using errcode = 'PT402', message = 'enterprise_required',
      detail = 'Creating an organisation needs an own active Enterprise subscription (spec §6).';
  end if;
  if exists (select 1 from public.organizations o where o.subscription_id = v_sub) then
    raise exception using errcode = 'PT409', message = 'subscription_in_use',
      detail = 'Your Enterprise subscription already pays for an organisation.';
  end if;
  if p_name is null or char_length(pg_catalog.btrim(p_name)) not between 2 and 140 then
    raise exception using errcode = '22023', message = 'invalid_name', detail = 'name: 2 to 140 characters.';
  end if;
  perform private.check_organization_size(p_size);
  if nullif(pg_catalog.btrim(coalesce(p_slug, '')), '') is not null then
    v_slug := pg_catalog.lower(pg_catalog.btrim(p_slug));
    if v_slug !~ '^[a-z0-9]+(-[a-z0-9]+)*$' or char_length(v_slug) not between 3 and 60 then
      raise exception using errcode = '22023', message = 'invalid_slug',
        detail = 'slug: 3 to 60 characters a-z, 0-9 and single hyphens, not at the ends.';
    end if;
    if private.is_reserved_slug(v_slug) or exists (select 1 from public.organizations o where o.slug = v_slug) then
      raise exception using errcode = 'PT409', message = 'slug_taken', detail = 'This address is already taken.';
    end if;
  else
    v_base := pg_catalog.left(pg_catalog.rtrim(pg_catalog.left(coalesce(nullif(private.slugify(p_name), ''), 'org'), 54), '-'), 54);
    if char_length(v_base) < 3 then v_base := v_base || '-org'; end if;
    v_slug := v_base;
    while private.is_reserved_slug(v_slug) or exists (select 1 from public.organizations o where o.slug = v_slug) loop
      n := n + 1;
      v_slug := v_base || '-' || n;
    end loop;
  end if;
  begin
    insert into public.organizations (slug, name, logo_path, description_en, description_de, website, industry, size,
      street, postal_code, city, country, seats, subscription_id, created_by)
    values (v_slug, pg_catalog.btrim(p_name), p_logo_path, coalesce(p_description_en, ''), coalesce(p_description_de, ''),
      nullif(pg_catalog.btrim(p_website), ''), nullif(pg_catalog.btrim(p_industry), ''), p_size,
      nullif(pg_catalog.btrim(p_street), ''), nullif(pg_catalog.btrim(p_postal_code), ''), nullif(pg_catalog.btrim(p_city), ''),
      nullif(pg_catalog.btrim(p_country), ''), private.organization_seats_of(v_sub), v_sub, v_uid)
    returning id into v_id;
  exception when unique_violation then
    get stacked diagnostics v_constraint = constraint_name;
    if v_constraint = 'organizations_subscription_id_key' then
      raise exception using errcode = 'PT409', message = 'subscription_in_use',
        detail = 'Your Enterprise subscription already pays for an organisation.';
    end if;
    raise exception using errcode = 'PT409', message = 'slug_taken', detail = 'This address is already taken.';
  end;
  insert into public.organization_members (organization_id, user_id, role) values (v_id, v_uid, 'owner');
  return v_id;
end;
$$;
comment on function public.create_organization(text, text, text, text, text, text, text, text, text, text, text, text) is
  'Issue 15: an Enterprise subscriber creates an organisation and becomes its owner. Errors: see the migration header.';

/* invite_to_organization (issue 15): owners and admins invite an e-mail address as member or admin
   (owners may also invite owners). Members + open invitations must stay within the seats. Queues the
   invitation mail in p_locale (de | en; default the inviter's language) with the link
   /invitations/{token} (/de/... in German); stores only the token's SHA-256. Returns the invitation id.
   Errors: 28000; PT404 organization_not_found; 42501 not_organization_admin | owner_role_required;
   22023 invalid_email | invalid_role | invalid_locale; PT409 already_member | invitation_pending;
   PT402 seat_limit_reached; PT429 rate_limited. */
create or replace function public.invite_to_organization(p_organization_id uuid, p_email text,
  p_role public.organization_role default 'member', p_locale text default null)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_writer();
  v_my_role public.organization_role;
  v_org public.organizations;
  v_email text := pg_catalog.lower(pg_catalog.btrim(coalesce(p_email, '')));
  v_locale text;
  v_token text;
  v_id uuid;
  v_usage record;
  v_invitee public.profiles;
  v_inviter public.profiles;
begin
  select * into v_org from public.organizations o where o.id = p_organization_id for update;
  if not found then
    raise exception using errcode = 'PT404', message = 'organization_not_found';
  end if;
  v_my_role := private.organization_role_of(p_organization_id, v_uid);
  if v_my_role is null or v_my_role = 'member' then
    raise exception using errcode = '42501', message = 'not_organization_admin', detail = 'Only owners and admins invite.';
  end if;
  if p_role is null then
    raise exception using errcode = '22023', message = 'invalid_role';
  end if;
  if p_role = 'owner' and v_my_role <> 'owner' then
    raise exception using errcode = '42501', message = 'owner_role_required', detail = 'Only owners invite owners.';
  end if;
  if v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or char_length(v_email) > 320 then
    raise exception using errcode = '22023', message = 'invalid_email';
  end if;
  if p_locale is not null and p_locale not in ('de', 'en') then
    raise exception using errcode = '22023', message = 'invalid_locale', detail = 'locale: de | en.';
  end if;
  -- mails to chosen addresses: at most 5 invitations per address and 100 per inviting account in 24 h
  perform private.enforce_rate_limit('org_invite:email', v_email, 5, interval '24 hours', 'e-mail address');
  perform private.enforce_rate_limit('org_invite:account', v_uid::text, 100, interval '24 hours', 'account');
  if exists (select 1 from public.organization_members m join public.profiles p on p.id = m.user_id
             where m.organization_id = p_organization_id and pg_catalog.lower(p.email) = v_email) then
    raise exception using errcode = 'PT409', message = 'already_member', detail = 'This address already belongs to a member.';
  end if;
  -- an expired open invitation for the same address is replaced
  update public.organization_invitations i set revoked_at = pg_catalog.now()
  where i.organization_id = p_organization_id and pg_catalog.lower(i.email) = v_email
    and i.accepted_at is null and i.declined_at is null and i.revoked_at is null and i.expires_at <= pg_catalog.now();
  if exists (select 1 from public.organization_invitations i
             where i.organization_id = p_organization_id and pg_catalog.lower(i.email) = v_email
               and i.accepted_at is null and i.declined_at is null and i.revoked_at is null) then
    raise exception using errcode = 'PT409', message = 'invitation_pending',
      detail = 'An open invitation for this address exists; revoke it to send a new one.';
  end if;
  select * into v_usage from private.organization_seat_usage(p_organization_id);
  if v_usage.members + v_usage.open_invitations >= v_usage.seats then
    raise exception using errcode = 'PT402', message = 'seat_limit_reached',
      detail = pg_catalog.format('All %s seats are taken (%s members, %s open invitations). Add seats to the subscription or revoke an invitation.',
        v_usage.seats, v_usage.members, v_usage.open_invitations);
  end if;
  select * into v_inviter from public.profiles p where p.id = v_uid;
  select * into v_invitee from public.profiles p where pg_catalog.lower(p.email) = v_email limit 1;
  v_locale := coalesce(p_locale, v_invitee.preferred_language, v_inviter.preferred_language, 'de');
  v_token := pg_catalog.replace(gen_random_uuid()::text, '-', '') || pg_catalog.replace(gen_random_uuid()::text, '-', '');
  insert into public.organization_invitations (organization_id, email, role, token_hash, invited_by, locale)
  values (p_organization_id, v_email, p_role, pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(v_token, 'UTF8')), 'hex'),
          v_uid, v_locale)
  returning id into v_id;
  perform private.enqueue_email(v_invitee.id, v_email, 'organization_invitation', v_locale,
    pg_catalog.jsonb_build_object('firstname', coalesce(v_invitee.firstname, ''), 'lastname', coalesce(v_invitee.lastname, '')),
    pg_catalog.jsonb_build_object('organization_name', v_org.name, 'inviter_name', private.display_name(v_inviter),
      'role', private.organization_role_label(p_role, v_locale),
      'expires_on', private.format_mail_date(pg_catalog.now() + interval '7 days', v_locale),
      'path', '/invitations/' || v_token));
  return v_id;
end;
$$;
comment on function public.invite_to_organization(uuid, text, public.organization_role, text) is
  'Issue 15: owners/admins invite by e-mail (7 days, single use, seat limit). Errors: see the migration header.';

/* organization_invitation (issue 15; anon and authenticated): what the invitation page shows, by
   token: {organization_id, organization_name, slug, logo_path, role, locale, expires_at, state}
   with state 'open' | 'expired' | 'accepted' | 'declined' | 'revoked', plus email_matches
   (true/false for a signed-in caller: their confirmed e-mail is the invited one; null for anon).
   The invited address itself is not returned. Null for an unknown token. */
create or replace function public.organization_invitation(p_token text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_inv public.organization_invitations;
  v_org public.organizations;
  v_uid uuid := (select auth.uid());
begin
  select i.* into v_inv from public.organization_invitations i
  where p_token is not null and char_length(p_token) between 16 and 200
    and i.token_hash = pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(p_token, 'UTF8')), 'hex');
  if not found then
    return null;
  end if;
  select * into v_org from public.organizations o where o.id = v_inv.organization_id;
  return pg_catalog.jsonb_build_object(
    'organization_id', v_org.id, 'organization_name', v_org.name, 'slug', v_org.slug, 'logo_path', v_org.logo_path,
    'role', v_inv.role, 'locale', v_inv.locale, 'expires_at', v_inv.expires_at,
    'state', case when v_inv.accepted_at is not null then 'accepted' when v_inv.declined_at is not null then 'declined'
                  when v_inv.revoked_at is not null then 'revoked' when v_inv.expires_at <= pg_catalog.now() then 'expired'
                  else 'open' end,
    'email_matches', case when v_uid is null then null else exists (
      select 1 from public.profiles p where p.id = v_uid and p.authenticated = 1 and pg_catalog.lower(p.email) = pg_catalog.lower(v_inv.email)) end,
    'already_member', case when v_uid is null then null else private.is_organization_member(v_org.id, v_uid) end);
end;
$$;
comment on function public.organization_invitation(text) is
  'Issue 15: the invitation page''s data by token (no e-mail address); null for an unknown token.';

/* accept_organization_invitation (issue 15): the signed-in invitee (confirmed e-mail = invited
   address) joins with the invited role; takes a seat (members <= seats). Returns the organisation id.
   Errors: 28000; PT404 invitation_not_found; PT409 invitation_used | invitation_expired | already_member;
   42501 email_unconfirmed | invitation_email_mismatch; PT402 seat_limit_reached. */
create or replace function public.accept_organization_invitation(p_token text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_writer();
  v_inv public.organization_invitations;
  v_usage record;
begin
  -- lock order as in invite_to_organization: the organisation first, then the invitation
  perform 1 from public.organizations o
  where o.id = (select i.organization_id from public.organization_invitations i
                where p_token is not null and char_length(p_token) between 16 and 200
                  and i.token_hash = pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(p_token, 'UTF8')), 'hex'))
  for update;
  v_inv := private.open_invitation_for(p_token, v_uid);
  if private.is_organization_member(v_inv.organization_id, v_uid) then
    raise exception using errcode = 'PT409', message = 'already_member';
  end if;
  select * into v_usage from private.organization_seat_usage(v_inv.organization_id);
  if v_usage.members >= v_usage.seats then
    raise exception using errcode = 'PT402', message = 'seat_limit_reached',
      detail = pg_catalog.format('All %s seats of this organisation are taken; ask its owner to add seats.', v_usage.seats);
  end if;
  update public.organization_invitations set accepted_at = pg_catalog.now(), accepted_by = v_uid where id = v_inv.id;
  insert into public.organization_members (organization_id, user_id, role) values (v_inv.organization_id, v_uid, v_inv.role);
  return v_inv.organization_id;
end;
$$;
comment on function public.accept_organization_invitation(text) is
  'Issue 15: the invitee joins (seat taken on acceptance). Errors: see the migration header.';

/* decline_organization_invitation (issue 15): the signed-in invitee declines; the invitation is used up.
   Errors as accept (without the seat and membership checks). */
create or replace function public.decline_organization_invitation(p_token text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_inv public.organization_invitations;
begin
  v_inv := private.open_invitation_for(p_token, v_uid);
  update public.organization_invitations set declined_at = pg_catalog.now() where id = v_inv.id;
end;
$$;
comment on function public.decline_organization_invitation(text) is 'Issue 15: the invitee declines. Errors: see the migration header.';

/* revoke_organization_invitation (issue 15): owners/admins withdraw an open invitation (frees its seat).
   Errors: 28000; PT404 invitation_not_found; 42501 not_organization_admin; PT409 invitation_used. */
create or replace function public.revoke_organization_invitation(p_invitation_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_writer();
  v_inv public.organization_invitations;
begin
  select * into v_inv from public.organization_invitations i where i.id = p_invitation_id for update;
  if not found then
    raise exception using errcode = 'PT404', message = 'invitation_not_found';
  end if;
  if not private.is_organization_admin(v_inv.organization_id, v_uid) then
    raise exception using errcode = '42501', message = 'not_organization_admin';
  end if;
  if v_inv.accepted_at is not null or v_inv.declined_at is not null or v_inv.revoked_at is not null then
    raise exception using errcode = 'PT409', message = 'invitation_used';
  end if;
  update public.organization_invitations set revoked_at = pg_catalog.now() where id = v_inv.id;
end;
$$;
comment on function public.revoke_organization_invitation(uuid) is 'Issue 15: owners/admins withdraw an open invitation.';

/* remove_organization_member (issue 15): owners remove anyone but themselves; admins remove members
   only. The member loses access at once; what they published keeps its organization_id.
   Errors: 28000; PT404 member_not_found; 42501 not_organization_admin | not_organization_owner | own_role
   (use leave_organization); PT409 billing_owner | last_owner. */
create or replace function public.remove_organization_member(p_organization_id uuid, p_user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_writer();
  v_my_role public.organization_role;
  v_their_role public.organization_role;
begin
  perform 1 from public.organizations o where o.id = p_organization_id for update;
  v_my_role := private.organization_role_of(p_organization_id, v_uid);
  if v_my_role is null or v_my_role = 'member' then
    raise exception using errcode = '42501', message = 'not_organization_admin';
  end if;
  v_their_role := private.organization_role_of(p_organization_id, p_user_id);
  if v_their_role is null then
    raise exception using errcode = 'PT404', message = 'member_not_found';
  end if;
  if p_user_id = v_uid then
    raise exception using errcode = '42501', message = 'own_role', detail = 'Use leave_organization to leave.';
  end if;
  if v_my_role = 'admin' and v_their_role <> 'member' then
    raise exception using errcode = '42501', message = 'not_organization_owner', detail = 'Admins remove members only.';
  end if;
  perform private.check_owner_kept(p_organization_id, p_user_id);
  delete from public.organization_members where organization_id = p_organization_id and user_id = p_user_id;
end;
$$;
comment on function public.remove_organization_member(uuid, uuid) is 'Issue 15: owners/admins remove a member. Errors: see the migration header.';

/* leave_organization (issue 15): the caller leaves. Errors: 28000; PT404 member_not_found; PT409
   billing_owner | last_owner. */
create or replace function public.leave_organization(p_organization_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
begin
  perform 1 from public.organizations o where o.id = p_organization_id for update;
  if not private.is_organization_member(p_organization_id, v_uid) then
    raise exception using errcode = 'PT404', message = 'member_not_found';
  end if;
  perform private.check_owner_kept(p_organization_id, v_uid);
  delete from public.organization_members where organization_id = p_organization_id and user_id = v_uid;
end;
$$;
comment on function public.leave_organization(uuid) is 'Issue 15: the caller leaves the organisation. Errors: see the migration header.';

/* set_organization_member_role (issue 15): only owners change roles. An owner may demote himself
   unless he is the last owner or the billing owner; nobody raises their own role (a non-owner gets
   not_organization_owner first). Errors: 28000; 22023 invalid_role; 42501 not_organization_owner;
   PT404 member_not_found; PT409 billing_owner | last_owner. */
create or replace function public.set_organization_member_role(p_organization_id uuid, p_user_id uuid, p_role public.organization_role)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_writer();
  v_their_role public.organization_role;
begin
  if p_role is null then
    raise exception using errcode = '22023', message = 'invalid_role';
  end if;
  perform 1 from public.organizations o where o.id = p_organization_id for update;
  if private.organization_role_of(p_organization_id, v_uid) is distinct from 'owner' then
    raise exception using errcode = '42501', message = 'not_organization_owner', detail = 'Only owners change roles.';
  end if;
  v_their_role := private.organization_role_of(p_organization_id, p_user_id);
  if v_their_role is null then
    raise exception using errcode = 'PT404', message = 'member_not_found';
  end if;
  if v_their_role = p_role then
    return;
  end if;
  if v_their_role = 'owner' then
    perform private.check_owner_kept(p_organization_id, p_user_id);
  end if;
  update public.organization_members set role = p_role where organization_id = p_organization_id and user_id = p_user_id;
end;
$$;
comment on function public.set_organization_member_role(uuid, uuid, public.organization_role) is
  'Issue 15: owners change roles. Errors: see the migration header.';

/* delete_organization (issue 15): owners delete the organisation; members and invitations go with it,
   published content stays with organization_id null. Errors: 28000; PT404 organization_not_found;
   42501 not_organization_owner. */
create or replace function public.delete_organization(p_organization_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_writer();
  v_members uuid[];
begin
  perform 1 from public.organizations o where o.id = p_organization_id for update;
  if not found then
    raise exception using errcode = 'PT404', message = 'organization_not_found';
  end if;
  if private.organization_role_of(p_organization_id, v_uid) is distinct from 'owner' then
    raise exception using errcode = '42501', message = 'not_organization_owner';
  end if;
  select pg_catalog.array_agg(m.user_id order by m.user_id) into v_members
  from public.organization_members m where m.organization_id = p_organization_id;
  delete from public.organizations where id = p_organization_id;
  perform private.refresh_user_role(u) from pg_catalog.unnest(v_members) u;
end;
$$;
comment on function public.delete_organization(uuid) is 'Issue 15: owners delete the organisation. Errors: see the migration header.';

/* organization_members_public (issue 15; anon and authenticated): the listed members of the
   organisation p_slug whose profiles are listed (confirmed, visible, not suspended): user_id, slug,
   display_name, profile_img, headline, city, role, joined_at; owners first, then by join date. */
create or replace function public.organization_members_public(p_slug text)
returns table (user_id uuid, slug text, display_name text, profile_img text, headline text, city text,
  role public.organization_role, joined_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select p.id, p.slug, private.public_display_name(p.firstname, p.lastname, p.slug), p.profile_img, p.headline, p.city,
         m.role, m.joined_at
  from public.organizations o
  join public.organization_members m on m.organization_id = o.id and m.listed
  join public.profiles p on p.id = m.user_id
  where o.slug = p_slug and private.owner_listed(p.id)
  order by m.role, m.joined_at, p.id
$$;
comment on function public.organization_members_public(text) is 'Issue 15: listed members of an organisation for its public page.';

/* organization_member_list (issue 15; members of p_organization_id): every member with
   user_id, slug, display_name (spec §3 without the e-mail fallback), profile_img, role, listed,
   joined_at, and email only when the caller is an owner or admin of the organisation (null
   otherwise); owners first, then by join date. Errors: 28000; 42501 not_organization_member. */
create or replace function public.organization_member_list(p_organization_id uuid)
returns table (user_id uuid, slug text, display_name text, profile_img text, role public.organization_role, listed boolean,
  joined_at timestamptz, email text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_admin boolean;
begin
  if not private.is_organization_member(p_organization_id, v_uid) then
    raise exception using errcode = '42501', message = 'not_organization_member';
  end if;
  v_admin := private.is_organization_admin(p_organization_id, v_uid);
  return query
    select p.id, p.slug, private.public_display_name(p.firstname, p.lastname, p.slug), p.profile_img, m.role, m.listed, m.joined_at,
           case when v_admin then p.email end
    from public.organization_members m join public.profiles p on p.id = m.user_id
    where m.organization_id = p_organization_id
    order by m.role, m.joined_at, p.id;
end;
$$;
comment on function public.organization_member_list(uuid) is
  'Issue 15: the members of an organisation for its members; e-mail addresses only for owners and admins.';

/* my_organizations (issue 15): the caller's organisations with their role, seat usage and whether
   the Enterprise subscription is active. */
create or replace function public.my_organizations()
returns table (id uuid, slug text, name text, logo_path text, role public.organization_role, listed boolean,
  seats integer, members integer, open_invitations integer, enterprise_active boolean, joined_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select o.id, o.slug, o.name, o.logo_path, m.role, m.listed, u.seats, u.members, u.open_invitations,
         private.organization_enterprise_active(o.id), m.joined_at
  from public.organization_members m
  join public.organizations o on o.id = m.organization_id
  cross join lateral private.organization_seat_usage(o.id) u
  where m.user_id = (select auth.uid())
  order by o.name, o.id
$$;
comment on function public.my_organizations() is 'Issue 15: the caller''s organisations, role and seat usage.';

/* attach_organization_subscription (issue 15; owners manage billing): an owner whose own paid
   Enterprise subscription pays no other organisation makes it this organisation's subscription
   (e.g. after the paying owner's account was deleted); seats follow it. Errors: 28000;
   42501 account_suspended | not_organization_owner; PT402 enterprise_required; PT409 subscription_in_use. */
create or replace function public.attach_organization_subscription(p_organization_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_writer();
  v_sub uuid;
begin
  perform 1 from public.organizations o where o.id = p_organization_id for update;
  if private.organization_role_of(p_organization_id, v_uid) is distinct from 'owner' then
    raise exception using errcode = '42501', message = 'not_organization_owner';
  end if;
  select s.id into v_sub from public.subscriptions s
  where s.user_id = v_uid and s.plan_id = 'enterprise' and private.is_paid_status(s.status)
    and (s.current_period_end is null or s.current_period_end > pg_catalog.now() - interval '1 day')
  order by s.created_at desc limit 1;
  if v_sub is null then
    raise exception using errcode = 'PT402', message = 'enterprise_required',
      detail = 'An own active Enterprise subscription is needed to pay for the organisation.';
  end if;
  if exists (select 1 from public.organizations o where o.subscription_id = v_sub and o.id <> p_organization_id) then
    raise exception using errcode = 'PT409', message = 'subscription_in_use',
      detail = 'Your Enterprise subscription already pays for another organisation.';
  end if;
  update public.organizations set subscription_id = v_sub, seats = private.organization_seats_of(v_sub)
  where id = p_organization_id and subscription_id is distinct from v_sub;
end;
$$;
comment on function public.attach_organization_subscription(uuid) is
  'Issue 15: an owner''s own Enterprise subscription pays for the organisation. Errors: see the migration header.';

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

/* prepare_seat_change (issue 15; the organisation's owner who pays its subscription): checks that
   the organisation may have 5 + p_extra_seats seats and answers what to change at Stripe:
   {stripe_subscription_id, seat_price_id, billing_period, extra_seats (now), seats (now), in_use}.
   Nothing is stored: the seats change when the billing sync copies the updated subscription.
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

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function private.organization_role_of(uuid, uuid),
  private.is_organization_admin(uuid, uuid),
  private.is_organization_member(uuid, uuid),
  private.organization_enterprise_active(uuid),
  private.has_organization_enterprise(uuid),
  private.require_uid(),
  private.require_writer(),
  private.can_write_organization_logo(text) to authenticated, service_role;
grant execute on function public.create_organization(text, text, text, text, text, text, text, text, text, text, text, text),
  public.invite_to_organization(uuid, text, public.organization_role, text),
  public.accept_organization_invitation(text),
  public.decline_organization_invitation(text),
  public.revoke_organization_invitation(uuid),
  public.remove_organization_member(uuid, uuid),
  public.leave_organization(uuid),
  public.set_organization_member_role(uuid, uuid, public.organization_role),
  public.delete_organization(uuid),
  public.organization_member_list(uuid),
  public.my_organizations(),
  public.attach_organization_subscription(uuid),
  public.organization_billing(uuid),
  public.prepare_seat_change(uuid, integer) to authenticated;
grant execute on function public.organization_invitation(text),
  public.organization_members_public(text) to anon, authenticated;

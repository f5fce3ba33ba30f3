-- =============================================================================
-- Billing functions: payment-required rule, §312k BGB cancellation requests, billing mails
-- (spec §4, §6; issue 7 "Edge Functions", "German consumer law")
-- =============================================================================

-- -----------------------------------------------------------------------------
-- Payment-required rule (spec §6)
-- -----------------------------------------------------------------------------

/* True when the caller may open the payment-required routes: a paid subscription (active,
   trialing, or past_due while Stripe retries) whose period has not ended more than a day ago,
   the same rule that sets profiles.user_role; admins pass too (as the SPA's guard). Anonymous
   callers and the service role get false. */
create or replace function public.has_active_subscription()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (select auth.uid()) is not null and (
    (select private.is_admin())
    or exists (
      select 1 from public.subscriptions s
      where s.user_id = (select auth.uid())
        and private.is_paid_status(s.status)
        and (s.current_period_end is null or s.current_period_end > pg_catalog.now() - interval '1 day')))
$$;
comment on function public.has_active_subscription() is
  'Payment-required guard (spec §6): caller has a paid subscription (or is admin).';

revoke all on function public.has_active_subscription() from public;
grant execute on function public.has_active_subscription() to anon, authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Cancellation requests ("Verträge hier kündigen", §312k BGB)
-- -----------------------------------------------------------------------------
create type public.cancellation_request_status as enum ('received', 'scheduled', 'no_subscription', 'failed');

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
  processed_at timestamptz
);
comment on table public.cancellation_requests is
  'Cancellations through the public form (§312k BGB). Written only by the cancel-contract function (service_role); admins read.';
comment on column public.cancellation_requests.contract is 'Free text identifying the contract (customer or invoice number), optional.';
comment on column public.cancellation_requests.requested_date is 'Requested end date; null = as soon as possible (end of the current billing period).';
comment on column public.cancellation_requests.user_id is 'Account whose e-mail matched; null when the address is unknown.';
comment on column public.cancellation_requests.status is
  'received (stored), scheduled (Stripe cancels at effective_at), no_subscription (nothing to cancel), failed (Stripe call failed; admin follows up).';
comment on column public.cancellation_requests.stripe_subscription_ids is 'Subscriptions set to end (cancel_at_period_end or cancel_at).';
comment on column public.cancellation_requests.effective_at is 'When the last affected subscription ends.';

create index cancellation_requests_email_idx on public.cancellation_requests (lower(email), created_at desc);
create index cancellation_requests_user_idx on public.cancellation_requests (user_id);
create index cancellation_requests_plan_idx on public.cancellation_requests (plan_id);
create index cancellation_requests_status_idx on public.cancellation_requests (status, created_at desc);

/* Stores a cancellation request and, in the same transaction, queues the confirmation mail
   (cancellation_confirmation in p_lang) so the receipt never depends on Stripe. The account is
   matched by e-mail (case-insensitive). At most 5 confirmation mails per address and hour (the
   form is public: no mail bombing through it); the request is stored regardless.
   Returns the request id, the matched user id (or null) and whether a mail was queued.
   service_role only (the cancel-contract function). */
create or replace function public.submit_cancellation_request(
  p_name text,
  p_email text,
  p_plan_id text default null,
  p_contract text default null,
  p_reason text default null,
  p_requested_date date default null,
  p_lang text default 'de')
returns table (request_id uuid, user_id uuid, mail_queued boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := pg_catalog.lower(pg_catalog.btrim(p_email));
  v_user uuid;
  v_req public.cancellation_requests;
  v_plan_name text;
  v_recent integer;
  v_mail bigint;
begin
  select p.id into v_user from public.profiles p where pg_catalog.lower(p.email) = v_email limit 1;
  select count(*) into v_recent from public.cancellation_requests c
  where pg_catalog.lower(c.email) = v_email and c.created_at > pg_catalog.now() - interval '1 hour';

  insert into public.cancellation_requests (name, email, plan_id, contract, reason, requested_date, lang, user_id)
  values (pg_catalog.btrim(p_name), v_email, p_plan_id, nullif(pg_catalog.btrim(p_contract), ''),
          nullif(pg_catalog.btrim(p_reason), ''), p_requested_date, case when p_lang = 'en' then 'en' else 'de' end, v_user)
  returning * into v_req;

  if v_recent < 5 then
    select name into v_plan_name from public.plans where id = p_plan_id;
    v_mail := private.enqueue_email(v_user, v_email, 'cancellation_confirmation', v_req.lang,
      pg_catalog.jsonb_build_object('firstname', pg_catalog.split_part(v_req.name, ' ', 1), 'name', v_req.name),
      pg_catalog.jsonb_build_object(
        'plan', coalesce(v_plan_name, v_req.contract, ''),
        'date', pg_catalog.to_char(v_req.created_at at time zone 'Europe/Berlin', 'DD.MM.YYYY HH24:MI'),
        'requested_date', coalesce(pg_catalog.to_char(v_req.requested_date, 'DD.MM.YYYY'), ''),
        'cancellation_request_id', v_req.id));
  end if;
  return query select v_req.id, v_user, v_mail is not null;
end;
$$;
comment on function public.submit_cancellation_request(text, text, text, text, text, date, text) is
  'service_role: stores a §312k BGB cancellation and queues its confirmation mail (max 5 per address and hour).';

revoke all on function public.submit_cancellation_request(text, text, text, text, text, date, text) from public, anon, authenticated;
grant execute on function public.submit_cancellation_request(text, text, text, text, text, date, text) to service_role;

alter table public.cancellation_requests enable row level security;
revoke all on public.cancellation_requests from anon, authenticated;
grant select on public.cancellation_requests to authenticated;
grant all on public.cancellation_requests to service_role;

create policy cancellation_requests_select_admin on public.cancellation_requests for select to authenticated
using ((select private.is_admin()));

-- -----------------------------------------------------------------------------
-- Billing mails on subscription status changes
-- -----------------------------------------------------------------------------

/* Queues subscription_activated when a subscription becomes paid (new, or from an unpaid
   status) and payment_failed when it becomes past_due. Runs on the rows sync_subscription
   writes, so verify-payment and the webhook (in either order, any number of times) queue each
   mail once per transition. */
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
      'stripe_subscription_id', new.stripe_subscription_id));
  return null;
end;
$$;
comment on function private.after_subscription_status() is
  'AFTER INSERT/UPDATE OF status on subscriptions: queues subscription_activated or payment_failed once per transition.';

create trigger subscriptions_status_mail
  after insert or update of status on public.subscriptions
  for each row execute function private.after_subscription_status();

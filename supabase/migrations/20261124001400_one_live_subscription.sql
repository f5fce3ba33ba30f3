-- =============================================================================
-- One live subscription per customer (issue 12 finding 7)
-- =============================================================================
-- Two checkouts opened one after the other could both be paid: two active subscriptions for one
-- person. create-checkout-session now refuses a second checkout, and the database refuses a
-- second live (active, trialing, past_due) subscription row per account whatever the client.
-- When Stripe nevertheless completes a second checkout (both opened before either was paid), the
-- shared sync (supabase/functions/_shared/billing-sync.ts) meets this index, cancels the newer
-- subscription at Stripe at once, refunds its payment and records it here; the customer is told
-- by e-mail and on /payment/success.

create unique index subscriptions_one_live_per_user on public.subscriptions (user_id)
  where status in ('active', 'trialing', 'past_due');
comment on index public.subscriptions_one_live_per_user is
  'At most one live (active, trialing, past_due) subscription per account (issue 12 finding 7).';

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

insert into public.email_types (key, description) values
  ('subscription_duplicate_refunded', 'A second subscription was cancelled and its payment refunded (issue 12 finding 7).')
on conflict (key) do nothing;

insert into public.email_templates (key, lang, subject, body) values
('subscription_duplicate_refunded', 'de', 'Ihr zweites Abo wurde storniert und erstattet',
$t$Hallo {{firstname}},

Sie hatten bereits ein aktives Teamwerk-Abo, als eine weitere Zahlung für ein neues Abo einging. Ein Konto hat immer nur ein Abo: Wir haben das neue Abo sofort beendet und Ihnen {{amount}} erstattet. Die Gutschrift erscheint je nach Bank in einigen Tagen auf Ihrer Abrechnung.

Ihr bisheriges Abo läuft unverändert weiter. Den Tarif wechseln Sie jederzeit in den Einstellungen:
{{link}}

Viele Grüße
Ihr Teamwerk-Team$t$),
('subscription_duplicate_refunded', 'en', 'Your second subscription was cancelled and refunded',
$t$Hi {{firstname}},

you already had an active Teamwerk subscription when another payment for a new subscription came in. An account always has a single subscription: we ended the new one at once and refunded {{amount}} to you. Depending on your bank, the credit shows on your statement within a few days.

Your existing subscription continues unchanged. You can change your plan in your settings at any time:
{{link}}

Best regards
The Teamwerk team$t$)
on conflict (key, lang) do update set subject = excluded.subject, body = excluded.body;

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
revoke all on function public.record_duplicate_subscription(text, uuid, text, text, integer, text) from public, anon, authenticated;
grant execute on function public.record_duplicate_subscription(text, uuid, text, text, integer, text) to service_role;

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
revoke all on function public.is_duplicate_subscription(text) from public, anon, authenticated;
grant execute on function public.is_duplicate_subscription(text) to service_role;

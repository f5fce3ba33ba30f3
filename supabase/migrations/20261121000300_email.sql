-- =============================================================================
-- E-mail: templates, queue, confirmation -> welcome (spec §3, §7; issue 6)
-- =============================================================================

create type public.email_status as enum ('pending', 'processing', 'sent', 'failed');

create table public.email_types (
  key text primary key check (key ~ '^[a-z_]+$'),
  description text not null
);
comment on table public.email_types is 'Catalogue of transactional e-mail kinds; templates and queue rows reference it.';

insert into public.email_types (key, description) values
  ('confirm_email', 'Confirm the address after registration (link with signed token, valid 5 minutes).'),
  ('password_reset', 'Link to set a new password.'),
  ('welcome_email', 'Sent once when the address is confirmed.'),
  ('newsletter_confirm', 'Double opt-in: confirm the newsletter subscription.'),
  ('newsletter_welcome', 'Sent after the newsletter subscription is confirmed.'),
  ('contact_confirmation', 'Receipt for a message sent through /contact.'),
  ('cancellation_confirmation', 'Receipt for a contract cancellation (§312k BGB).'),
  ('subscription_activated', 'A paid plan became active.'),
  ('payment_failed', 'A renewal payment failed; card needs updating.');

create table public.email_templates (
  key text not null references public.email_types (key) on update cascade,
  lang text not null check (lang in ('de', 'en')),
  subject text not null check (char_length(subject) between 1 and 200),
  body text not null check (char_length(body) between 1 and 20000),
  updated_at timestamptz not null default now(),
  primary key (key, lang)
);
comment on table public.email_templates is
  'Subject and plain-text body per e-mail kind and language. {{placeholders}} are filled and escaped by the renderer (React Email).';
comment on column public.email_templates.body is
  'Paragraphs separated by blank lines; placeholders: {{firstname}}, {{lastname}}, {{link}}, {{plan}}, {{period}}, {{amount}}, {{date}}.';

create table public.email_queue (
  id bigint generated always as identity primary key,
  user_id uuid references public.profiles (id) on delete set null,
  email text not null check (email ~ '^[^@\s]+@[^@\s]+$' and char_length(email) <= 320),
  email_type text not null references public.email_types (key) on update cascade,
  lang text not null default 'de' check (lang in ('de', 'en')),
  user_metadata jsonb not null default '{}'::jsonb,
  payload jsonb not null default '{}'::jsonb,
  status public.email_status not null default 'pending',
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  locked_at timestamptz,
  locked_until timestamptz,
  last_error text,
  provider_message_id text,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.email_queue is
  'Outgoing mails. Filled by triggers and functions; drained by process-email-queue via claim_email_batch (for update skip locked).';
comment on column public.email_queue.user_metadata is 'Recipient data for placeholders, e.g. {"firstname": "Anna", "lastname": "Schmidt"}.';
comment on column public.email_queue.payload is 'Mail-specific values, e.g. {"link": "https://..."}.';
comment on column public.email_queue.attempts is 'Number of claims so far (incremented by claim_email_batch).';
comment on column public.email_queue.next_attempt_at is 'Not claimed before this time (exponential backoff after failures).';
comment on column public.email_queue.locked_at is 'When the current worker claimed the row.';
comment on column public.email_queue.locked_until is 'Claim expiry: a processing row past this time is reclaimed (worker died).';
comment on column public.email_queue.provider_message_id is 'Resend message id after a successful send.';

create index email_queue_due_idx on public.email_queue (next_attempt_at, id) where status = 'pending';
create index email_queue_stale_idx on public.email_queue (locked_until) where status = 'processing';
create index email_queue_user_idx on public.email_queue (user_id);
create index email_queue_type_idx on public.email_queue (email_type);
create unique index email_queue_welcome_once_idx on public.email_queue (user_id) where email_type = 'welcome_email';

create trigger email_queue_updated_at before update on public.email_queue
  for each row execute function private.set_updated_at();
create trigger email_templates_updated_at before update on public.email_templates
  for each row execute function private.set_updated_at();

-- -----------------------------------------------------------------------------
-- Enqueueing
-- -----------------------------------------------------------------------------
create or replace function private.enqueue_email(
  p_user_id uuid, p_email text, p_type text, p_lang text, p_user_metadata jsonb, p_payload jsonb)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  new_id bigint;
begin
  insert into public.email_queue (user_id, email, email_type, lang, user_metadata, payload)
  values (p_user_id, p_email, p_type, case when p_lang = 'en' then 'en' else 'de' end,
          coalesce(p_user_metadata, '{}'::jsonb), coalesce(p_payload, '{}'::jsonb))
  on conflict do nothing
  returning id into new_id;
  return new_id;
end;
$$;
comment on function private.enqueue_email(uuid, text, text, text, jsonb, jsonb) is
  'Queues one mail; returns its id, or null when a once-only mail (welcome) was already queued.';

-- Confirmation -> welcome (spec §7): when auth.users.email_confirmed_at becomes non-null the
-- profile is marked authenticated = 1 and welcome_email is queued in the user's language.
create or replace function private.handle_user_confirmed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  p public.profiles;
begin
  update public.profiles set authenticated = 1 where id = new.id returning * into p;
  if found then
    perform private.enqueue_email(p.id, p.email, 'welcome_email', p.preferred_language,
      pg_catalog.jsonb_build_object('firstname', p.firstname, 'lastname', p.lastname), '{}'::jsonb);
  end if;
  return new;
end;
$$;
comment on function private.handle_user_confirmed() is
  'AFTER UPDATE OF email_confirmed_at on auth.users (null -> set): authenticated = 1 and welcome_email queued.';

create trigger on_auth_user_confirmed
  after update of email_confirmed_at on auth.users
  for each row when (old.email_confirmed_at is null and new.email_confirmed_at is not null)
  execute function private.handle_user_confirmed();

-- Spec §4: a legacy old_user who sets a new password becomes role free.
create or replace function private.handle_password_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles set user_role = 'free' where id = new.id and user_role = 'old_user';
  return new;
end;
$$;
comment on function private.handle_password_changed() is 'AFTER UPDATE OF encrypted_password on auth.users: old_user -> free.';

create trigger on_auth_user_password_changed
  after update of encrypted_password on auth.users
  for each row when (old.encrypted_password is distinct from new.encrypted_password)
  execute function private.handle_password_changed();

-- -----------------------------------------------------------------------------
-- Service-role RPCs
-- -----------------------------------------------------------------------------

/* Marks the address of p_user_id as confirmed (what /confirm-email does after verifying the
   signed token). Returns true when it was unconfirmed before. Fires handle_user_confirmed. */
create or replace function public.confirm_user_email(p_user_id uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update auth.users set email_confirmed_at = pg_catalog.now(), updated_at = pg_catalog.now()
  where id = p_user_id and email_confirmed_at is null;
  if found then
    return true;
  end if;
  -- already confirmed in auth but not in the profile (e.g. imported): repair without a mail
  update public.profiles set authenticated = 1 where id = p_user_id and authenticated = 0;
  return false;
end;
$$;
comment on function public.confirm_user_email(uuid) is
  'service_role: confirm the e-mail of a user (sets auth.users.email_confirmed_at -> trigger -> authenticated = 1 + welcome mail).';

/* Claims up to batch_size due mails for lock_seconds. Concurrent workers never get the same
   row (for update skip locked); rows of a worker that died are reclaimed after the lock expires.
   Returns the rows with the template subject/body in the row's language (de fallback). */
create or replace function public.claim_email_batch(batch_size integer default 50, lock_seconds integer default 60)
returns table (
  id bigint, user_id uuid, email text, email_type text, lang text, user_metadata jsonb, payload jsonb,
  attempts integer, subject text, body text)
language plpgsql
security definer
set search_path = ''
as $$
begin
  if batch_size is null or batch_size < 1 or batch_size > 1000 then
    raise exception using errcode = '22023', message = 'invalid_batch_size', detail = 'batch_size must be 1..1000';
  end if;
  if lock_seconds is null or lock_seconds < 1 or lock_seconds > 3600 then
    raise exception using errcode = '22023', message = 'invalid_lock_seconds', detail = 'lock_seconds must be 1..3600';
  end if;
  return query
  with due as (
    select q.id from public.email_queue q
    where (q.status = 'pending' and q.next_attempt_at <= pg_catalog.now())
       or (q.status = 'processing' and q.locked_until < pg_catalog.now())
    order by q.next_attempt_at, q.id
    limit batch_size
    for update skip locked
  ), claimed as (
    update public.email_queue q
    set status = 'processing', attempts = q.attempts + 1, locked_at = pg_catalog.now(),
        locked_until = pg_catalog.now() + pg_catalog.make_interval(secs => lock_seconds)
    from due where q.id = due.id
    returning q.*
  )
  select c.id, c.user_id, c.email, c.email_type, c.lang, c.user_metadata, c.payload, c.attempts,
         coalesce(t.subject, d.subject), coalesce(t.body, d.body)
  from claimed c
  left join public.email_templates t on t.key = c.email_type and t.lang = c.lang
  left join public.email_templates d on d.key = c.email_type and d.lang = 'de'
  order by c.id;
end;
$$;
comment on function public.claim_email_batch(integer, integer) is
  'service_role: claim due mails (status -> processing, attempts + 1) with their template. Skip-locked, so workers never share a row.';

/* Marks a claimed mail as sent. Returns false when the row is not in processing (e.g. already
   completed by a worker whose claim had expired), so a repeated call is harmless. */
create or replace function public.complete_email(p_id bigint, p_provider_message_id text default null)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.email_queue
  set status = 'sent', sent_at = pg_catalog.now(), provider_message_id = p_provider_message_id,
      locked_at = null, locked_until = null, last_error = null
  where id = p_id and status = 'processing';
  return found;
end;
$$;
comment on function public.complete_email(bigint, text) is 'service_role: processing -> sent with the Resend message id.';

/* Records a failed send. Below p_max_attempts the row goes back to pending with exponential
   backoff: 30 s * 2^(attempts-1), at most 1 h; at p_max_attempts it becomes failed.
   Returns the new status, or null when the row was not processing. */
create or replace function public.fail_email(p_id bigint, p_error text, p_max_attempts integer default 5)
returns public.email_status
language plpgsql
security definer
set search_path = ''
as $$
declare
  new_status public.email_status;
begin
  update public.email_queue
  set status = case when attempts >= greatest(p_max_attempts, 1) then 'failed'::public.email_status
                    else 'pending'::public.email_status end,
      next_attempt_at = pg_catalog.now()
        + least(pg_catalog.make_interval(secs => 30 * power(2, greatest(attempts - 1, 0))::double precision),
                interval '1 hour'),
      last_error = pg_catalog.left(coalesce(p_error, 'unknown error'), 2000),
      locked_at = null, locked_until = null
  where id = p_id and status = 'processing'
  returning status into new_status;
  return new_status;
end;
$$;
comment on function public.fail_email(bigint, text, integer) is
  'service_role: failed send -> pending with backoff (30 s * 2^(attempts-1), max 1 h) or failed after p_max_attempts.';

revoke all on function public.confirm_user_email(uuid), public.claim_email_batch(integer, integer),
  public.complete_email(bigint, text), public.fail_email(bigint, text, integer) from public, anon, authenticated;
grant execute on function public.confirm_user_email(uuid), public.claim_email_batch(integer, integer),
  public.complete_email(bigint, text), public.fail_email(bigint, text, integer) to service_role;

-- -----------------------------------------------------------------------------
-- Row-level security
-- -----------------------------------------------------------------------------
alter table public.email_types enable row level security;
alter table public.email_templates enable row level security;
alter table public.email_queue enable row level security;

revoke all on public.email_types, public.email_templates, public.email_queue from anon, authenticated;
grant select on public.email_types to authenticated;
grant select, update on public.email_templates to authenticated;
grant select, insert on public.email_queue to authenticated;
grant all on public.email_types, public.email_templates, public.email_queue to service_role;

create policy email_types_select on public.email_types for select to authenticated
using ((select private.is_admin()));
create policy email_templates_select on public.email_templates for select to authenticated
using ((select private.is_admin()));
create policy email_templates_update on public.email_templates for update to authenticated
using ((select private.is_admin())) with check ((select private.is_admin()));
create policy email_queue_select on public.email_queue for select to authenticated
using ((select private.is_admin()));
-- "manual welcome mail" (spec §7): a confirmed user may queue their own welcome mail once.
create policy email_queue_insert on public.email_queue for insert to authenticated
with check (
  user_id = (select auth.uid())
  and email_type = 'welcome_email'
  and status = 'pending'
  and attempts = 0
  and lower(email) = lower((select auth.jwt()) ->> 'email')
  and (select private.caller_can_write())
);

-- -----------------------------------------------------------------------------
-- Templates (German and English)
-- -----------------------------------------------------------------------------
insert into public.email_templates (key, lang, subject, body) values
('confirm_email', 'de', 'Bitte bestätigen Sie Ihre E-Mail-Adresse',
$t$Hallo {{firstname}},

vielen Dank für Ihre Registrierung bei Teamwerk. Bitte bestätigen Sie Ihre E-Mail-Adresse, damit Sie sich anmelden und Ihr Profil vervollständigen können:

{{link}}

Der Link ist aus Sicherheitsgründen nur 5 Minuten gültig. Ist er abgelaufen, können Sie unter „E-Mail erneut senden“ jederzeit einen neuen anfordern.

Sie haben sich nicht bei Teamwerk registriert? Dann können Sie diese Nachricht einfach ignorieren.

Viele Grüße
Ihr Teamwerk-Team$t$),
('confirm_email', 'en', 'Please confirm your email address',
$t$Hi {{firstname}},

thanks for signing up for Teamwerk. Please confirm your email address so you can log in and complete your profile:

{{link}}

For security reasons the link is valid for 5 minutes only. If it has expired, you can request a new one at any time via "Resend email".

Didn't sign up for Teamwerk? Then simply ignore this message.

Best regards
The Teamwerk team$t$),
('password_reset', 'de', 'Ihr Link zum Zurücksetzen des Passworts',
$t$Hallo {{firstname}},

wir haben eine Anfrage erhalten, das Passwort für Ihr Teamwerk-Konto zurückzusetzen. Über diesen Link vergeben Sie ein neues Passwort:

{{link}}

Der Link ist 5 Minuten gültig und kann nur einmal verwendet werden.

Falls Sie das nicht waren, ist Ihr Konto weiterhin sicher – Ihr bisheriges Passwort bleibt unverändert.

Viele Grüße
Ihr Teamwerk-Team$t$),
('password_reset', 'en', 'Your link to reset your password',
$t$Hi {{firstname}},

we received a request to reset the password of your Teamwerk account. Use this link to choose a new password:

{{link}}

The link is valid for 5 minutes and can be used once.

If this wasn't you, your account is still safe – your current password stays unchanged.

Best regards
The Teamwerk team$t$),
('welcome_email', 'de', 'Willkommen bei Teamwerk, {{firstname}}!',
$t$Hallo {{firstname}},

schön, dass Sie dabei sind! Ihre E-Mail-Adresse ist bestätigt und Ihr Konto ist startklar.

So geht es weiter:
• Vervollständigen Sie Ihr Profil – mit Foto, Fähigkeiten und dem, was Sie suchen, werden Sie leichter gefunden.
• Legen Sie ein Portfolio an und zeigen Sie, woran Sie gearbeitet haben.
• Stöbern Sie in Projekten, Veranstaltungen und Jobs in Ihrer Nähe.

Zu Ihrem Profil: {{link}}

Bei Fragen antworten Sie einfach auf diese E-Mail – wir helfen gern.

Viele Grüße
Ihr Teamwerk-Team$t$),
('welcome_email', 'en', 'Welcome to Teamwerk, {{firstname}}!',
$t$Hi {{firstname}},

great to have you on board! Your email address is confirmed and your account is ready.

What's next:
• Complete your profile – with a photo, your skills and what you are looking for, people find you more easily.
• Create a portfolio and show what you have worked on.
• Browse projects, events and jobs near you.

Go to your profile: {{link}}

Questions? Just reply to this email – we're happy to help.

Best regards
The Teamwerk team$t$),
('newsletter_confirm', 'de', 'Bitte bestätigen Sie Ihre Newsletter-Anmeldung',
$t$Hallo,

Sie (oder jemand anderes) haben diese E-Mail-Adresse für den Teamwerk-Newsletter angemeldet. Bitte bestätigen Sie die Anmeldung mit einem Klick:

{{link}}

Ohne Bestätigung erhalten Sie keine Newsletter und Ihre Adresse wird nach 30 Tagen gelöscht.

Viele Grüße
Ihr Teamwerk-Team$t$),
('newsletter_confirm', 'en', 'Please confirm your newsletter subscription',
$t$Hello,

you (or someone else) subscribed this email address to the Teamwerk newsletter. Please confirm the subscription with one click:

{{link}}

Without confirmation you will not receive any newsletter and your address is deleted after 30 days.

Best regards
The Teamwerk team$t$),
('newsletter_welcome', 'de', 'Danke für Ihre Anmeldung zum Teamwerk-Newsletter',
$t$Hallo,

Ihre Anmeldung ist bestätigt. Einmal im Monat erfahren Sie bei uns, welche Projekte gerade Mitstreiter suchen, welche Veranstaltungen anstehen und welche Jobs neu dazugekommen sind.

Sie können den Newsletter jederzeit über den Link am Ende jeder Ausgabe abbestellen:
{{link}}

Viele Grüße
Ihr Teamwerk-Team$t$),
('newsletter_welcome', 'en', 'Thanks for subscribing to the Teamwerk newsletter',
$t$Hello,

your subscription is confirmed. Once a month we tell you which projects are looking for people, which events are coming up and which jobs are new.

You can unsubscribe at any time with the link at the end of every issue:
{{link}}

Best regards
The Teamwerk team$t$),
('contact_confirmation', 'de', 'Wir haben Ihre Nachricht erhalten',
$t$Hallo {{firstname}},

vielen Dank für Ihre Nachricht. Sie ist bei uns angekommen und wir melden uns in der Regel innerhalb von zwei Werktagen bei Ihnen.

Ihr Betreff: {{subject}}

Viele Grüße
Ihr Teamwerk-Team$t$),
('contact_confirmation', 'en', 'We have received your message',
$t$Hi {{firstname}},

thank you for your message. It has reached us and we usually get back to you within two working days.

Your subject: {{subject}}

Best regards
The Teamwerk team$t$),
('cancellation_confirmation', 'de', 'Bestätigung Ihrer Kündigung',
$t$Hallo {{firstname}},

hiermit bestätigen wir den Eingang Ihrer Kündigung vom {{date}}.

Ihr Vertrag: {{plan}}
Die Kündigung wird zum Ende des laufenden Abrechnungszeitraums wirksam; bis dahin können Sie alle Funktionen weiter nutzen. Sie erhalten keine weiteren Abbuchungen.

Diese Bestätigung können Sie für Ihre Unterlagen speichern oder ausdrucken.

Viele Grüße
Ihr Teamwerk-Team$t$),
('cancellation_confirmation', 'en', 'Confirmation of your cancellation',
$t$Hi {{firstname}},

we confirm receipt of your cancellation dated {{date}}.

Your contract: {{plan}}
The cancellation takes effect at the end of the current billing period; until then you can keep using all features. You will not be charged again.

You may save or print this confirmation for your records.

Best regards
The Teamwerk team$t$),
('subscription_activated', 'de', 'Ihr Teamwerk-{{plan}}-Abo ist aktiv',
$t$Hallo {{firstname}},

vielen Dank! Ihre Zahlung ist eingegangen und Ihr Abo „{{plan}}“ ({{period}}, {{amount}} inkl. MwSt.) ist ab sofort aktiv.

Ihre Rechnungen, Zahlungsdaten und die Kündigung finden Sie jederzeit in den Einstellungen:
{{link}}

Viel Erfolg mit Ihren Projekten!
Ihr Teamwerk-Team$t$),
('subscription_activated', 'en', 'Your Teamwerk {{plan}} subscription is active',
$t$Hi {{firstname}},

thank you! Your payment has been received and your "{{plan}}" subscription ({{period}}, {{amount}} incl. VAT) is active now.

You can find invoices, payment details and cancellation in your settings at any time:
{{link}}

Good luck with your projects!
The Teamwerk team$t$),
('payment_failed', 'de', 'Zahlung fehlgeschlagen – bitte Zahlungsdaten prüfen',
$t$Hallo {{firstname}},

leider konnten wir die Zahlung für Ihr Abo „{{plan}}“ nicht einziehen. Bitte prüfen oder aktualisieren Sie Ihre Kartendaten, damit Ihr Zugang ohne Unterbrechung bestehen bleibt:

{{link}}

Wir versuchen die Abbuchung in den nächsten Tagen automatisch erneut.

Viele Grüße
Ihr Teamwerk-Team$t$),
('payment_failed', 'en', 'Payment failed – please check your payment details',
$t$Hi {{firstname}},

unfortunately we could not collect the payment for your "{{plan}}" subscription. Please check or update your card details so your access continues without interruption:

{{link}}

We will retry the charge automatically over the next few days.

Best regards
The Teamwerk team$t$);

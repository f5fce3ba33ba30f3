-- =============================================================================
-- §312k BGB cancellations take effect only for the account holder (issue 12 finding 2)
-- =============================================================================
-- The public form "Verträge hier kündigen" stays reachable without login, but an anonymous
-- submission no longer touches Stripe: it is stored (the legal record of the declaration and its
-- receipt time) and a confirmation link goes to the ACCOUNT's address. Only the holder's click
-- (confirm-cancellation function) schedules the cancellation. A signed-in customer cancels their
-- own account at once, as before. Anonymous submissions are rate limited per client IP and per
-- address, and no mail carries text typed into the form (greetings use the account's own name).

alter type public.cancellation_request_status add value if not exists 'awaiting_confirmation' before 'scheduled';

alter table public.cancellation_requests
  add column confirmed_at timestamptz,
  add column confirmed_via text check (confirmed_via in ('session', 'email_link'));
comment on column public.cancellation_requests.confirmed_at is
  'When the account holder confirmed the declaration (signed in, or through the link mailed to the account address).';
comment on column public.cancellation_requests.confirmed_via is 'session = submitted while signed in; email_link = confirmed through the mailed link.';
comment on column public.cancellation_requests.status is
  'received (stored, holder confirmed), awaiting_confirmation (anonymous: link mailed to the account), scheduled (Stripe cancels at effective_at), no_subscription, failed (admin follows up).';

-- -----------------------------------------------------------------------------
-- The confirmation-link mail
-- -----------------------------------------------------------------------------
insert into public.email_types (key, description) values
  ('cancellation_confirm_link', 'Link to confirm a cancellation submitted without login (§312k BGB; issue 12 finding 2).')
on conflict (key) do nothing;

insert into public.email_templates (key, lang, subject, body) values
('cancellation_confirm_link', 'de', 'Bitte bestätigen Sie Ihre Kündigung',
$t$Hallo {{firstname}},

über das Formular „Verträge hier kündigen“ ist am {{date}} eine Kündigung für das Teamwerk-Konto mit dieser E-Mail-Adresse eingegangen.

Damit niemand fremde Verträge kündigen kann, wird die Kündigung erst wirksam, wenn Sie sie bestätigen. Der Link ist 24 Stunden gültig:

{{link}}

Wenn Sie nicht kündigen möchten, ignorieren Sie diese E-Mail; Ihr Abo läuft dann unverändert weiter. Angemeldet können Sie jederzeit auch direkt in den Einstellungen kündigen.

Viele Grüße
Ihr Teamwerk-Team$t$),
('cancellation_confirm_link', 'en', 'Please confirm your cancellation',
$t$Hi {{firstname}},

on {{date}} a cancellation for the Teamwerk account with this e-mail address was submitted through the form "Cancel contracts here".

So that nobody can cancel someone else's contract, the cancellation takes effect only once you confirm it. The link is valid for 24 hours:

{{link}}

If you do not want to cancel, ignore this e-mail; your subscription continues unchanged. When signed in you can also cancel directly in your settings at any time.

Best regards
The Teamwerk team$t$)
on conflict (key, lang) do update set subject = excluded.subject, body = excluded.body;

-- -----------------------------------------------------------------------------
-- Storing a declaration
-- -----------------------------------------------------------------------------
drop function public.submit_cancellation_request(text, text, text, text, text, date, text);

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
revoke all on function public.submit_cancellation_request(text, text, text, text, text, date, text, uuid, text) from public, anon, authenticated;
grant execute on function public.submit_cancellation_request(text, text, text, text, text, date, text, uuid, text) to service_role;

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
revoke all on function public.queue_cancellation_link(uuid, text) from public, anon, authenticated;
grant execute on function public.queue_cancellation_link(uuid, text) to service_role;

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
revoke all on function public.confirm_cancellation_request(uuid, uuid) from public, anon, authenticated;
grant execute on function public.confirm_cancellation_request(uuid, uuid) to service_role;

-- confirm/reset/cancel_contract tokens share the single-use ledger
alter table private.consumed_auth_tokens drop constraint consumed_auth_tokens_purpose_check;
alter table private.consumed_auth_tokens add constraint consumed_auth_tokens_purpose_check
  check (purpose in ('confirm', 'reset', 'cancel_contract'));

-- admins read the new columns
grant select (confirmed_at, confirmed_via) on public.cancellation_requests to authenticated;

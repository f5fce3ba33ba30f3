-- =============================================================================
-- Registration answers the same for known and unknown addresses (issue 12 finding 10)
-- =============================================================================
-- `register` used to answer 409 email_exists for a known address. It now answers exactly like a
-- fresh sign-up; the account holder gets a notice instead (at most one per address and day, so
-- the form cannot be used to flood a mailbox), in the account's language.

insert into public.email_types (key, description) values
  ('account_exists_notice', 'Someone tried to register with an address that already has an account (issue 12 finding 10).')
on conflict (key) do nothing;

insert into public.email_templates (key, lang, subject, body) values
('account_exists_notice', 'de', 'Sie haben bereits ein Teamwerk-Konto',
$t$Hallo {{firstname}},

mit Ihrer E-Mail-Adresse wurde gerade versucht, ein neues Teamwerk-Konto anzulegen. Sie haben bereits ein Konto: Melden Sie sich einfach an, oder setzen Sie Ihr Passwort zurück, falls Sie es vergessen haben:

{{link}}

Wenn Sie das nicht waren, können Sie diese E-Mail ignorieren; an Ihrem Konto hat sich nichts geändert.

Viele Grüße
Ihr Teamwerk-Team$t$),
('account_exists_notice', 'en', 'You already have a Teamwerk account',
$t$Hi {{firstname}},

someone just tried to create a new Teamwerk account with your e-mail address. You already have an account: simply log in, or reset your password if you have forgotten it:

{{link}}

If this was not you, you can ignore this e-mail; nothing has changed in your account.

Best regards
The Teamwerk team$t$)
on conflict (key, lang) do update set subject = excluded.subject, body = excluded.body;

/* Queues the account-exists notice for p_email (case-insensitive) when it belongs to an account
   and no notice went to it in the last 24 hours; p_link = the login page in p_lang. Returns
   nothing either way (the caller answers the same). service_role only (the register function). */
create or replace function public.queue_account_exists_notice(p_email text, p_link text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  p public.profiles;
begin
  select * into p from public.profiles where pg_catalog.lower(email) = pg_catalog.lower(pg_catalog.btrim(p_email)) limit 1;
  if not found then
    return;
  end if;
  if exists (select 1 from public.email_queue q
             where q.user_id = p.id and q.email_type = 'account_exists_notice' and q.created_at > pg_catalog.now() - interval '1 day') then
    return;
  end if;
  perform private.enqueue_email(p.id, p.email, 'account_exists_notice', p.preferred_language,
    pg_catalog.jsonb_build_object('firstname', p.firstname, 'lastname', p.lastname),
    pg_catalog.jsonb_build_object('link', p_link));
end;
$$;
comment on function public.queue_account_exists_notice(text, text) is
  'service_role: notice to an existing account that someone tried to register with its address (max one a day; issue 12).';
revoke all on function public.queue_account_exists_notice(text, text) from public, anon, authenticated;
grant execute on function public.queue_account_exists_notice(text, text) to service_role;

/* Counts one hit of p_key in p_bucket (fixed window of p_window_seconds) and refuses past p_limit
   with PT429 rate_limited (see private.enforce_rate_limit). For Edge Functions that limit public
   endpoints by the caller's address (register). service_role only. */
create or replace function public.enforce_public_rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.enforce_rate_limit(p_bucket, p_key, p_limit, pg_catalog.make_interval(secs => p_window_seconds), 'network address')
$$;
comment on function public.enforce_public_rate_limit(text, text, integer, integer) is
  'service_role: fixed-window rate limit for public Edge Functions; PT429 beyond p_limit (issue 12).';
revoke all on function public.enforce_public_rate_limit(text, text, integer, integer) from public, anon, authenticated;
grant execute on function public.enforce_public_rate_limit(text, text, integer, integer) to service_role;

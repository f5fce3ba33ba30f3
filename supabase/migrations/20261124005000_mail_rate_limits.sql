-- =============================================================================
-- Rate limits for the public mail-sending endpoints (issue 12 §8)
-- =============================================================================
-- The anonymous contact form (insert into contact_messages -> receipt mail) and the newsletter
-- sign-up (newsletter_subscribe -> confirmation mail) sent unlimited mails with attacker-chosen
-- text to any address. From here on:
--   contact form   5 messages per e-mail address and 24 h, 5 per signed-in account and 24 h,
--                  20 per client IP and hour -> HTTP 429 (SQLSTATE PT429) beyond that;
--                  the receipt carries none of the sender's text (not even the name).
--   newsletter     10 sign-ups per client IP and hour -> 429; at most one confirmation mail per
--                  address in 24 h (a repeat answers the same and sends nothing); a confirmed
--                  address is never changed by a sign-up; no answer tells whether an address is
--                  known.
-- The client IP is the first entry of X-Forwarded-For as PostgREST passes it in
-- `request.headers`; the API gateway sets that header from the socket address. Requests that do
-- not come through PostgREST (no request.headers: seed, psql, database tests) have no client IP
-- and are limited per address and account only; the service role is not limited.

-- -----------------------------------------------------------------------------
-- Counters
-- -----------------------------------------------------------------------------
create table private.rate_limits (
  bucket text not null check (bucket ~ '^[a-z_]+:[a-z_]+$'),
  key_hash bytea not null,
  window_start timestamptz not null,
  hits integer not null check (hits >= 0),
  primary key (bucket, key_hash)
);
comment on table private.rate_limits is
  'Fixed-window counters of the public mail-sending endpoints (issue 12 §8). One row per bucket and key; the window starts at the first hit after the previous one expired.';
comment on column private.rate_limits.bucket is 'What is counted, e.g. contact:email, contact:ip, newsletter_confirm:email.';
comment on column private.rate_limits.key_hash is 'sha256 of the lower-cased key (address, account id, client IP); the plain value is never stored.';
comment on column private.rate_limits.window_start is 'Start of the current window (first hit).';
comment on column private.rate_limits.hits is 'Hits counted in the current window (refused attempts roll back and do not count).';
create index rate_limits_window_idx on private.rate_limits (window_start);

alter table private.rate_limits enable row level security;
revoke all on private.rate_limits from public, anon, authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Helpers
-- -----------------------------------------------------------------------------

/* Counts one hit of p_key in p_bucket and returns whether it is within p_limit hits of the
   window p_window (fixed window from the first hit; with p_limit 1 two allowed hits are always
   at least p_window apart). Concurrent hits on one key serialise on the row, so parallel
   requests cannot overshoot. Returns true = allowed. */
create or replace function private.rate_limit_hit(p_bucket text, p_key text, p_limit integer, p_window interval)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_hits integer;
begin
  insert into private.rate_limits as r (bucket, key_hash, window_start, hits)
  values (p_bucket, pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.lower(coalesce(p_key, '')), 'UTF8')), pg_catalog.now(), 1)
  on conflict (bucket, key_hash) do update
    set hits = case when r.window_start <= pg_catalog.now() - p_window then 1 else r.hits + 1 end,
        window_start = case when r.window_start <= pg_catalog.now() - p_window then pg_catalog.now() else r.window_start end
  returning hits into v_hits;
  return v_hits <= p_limit;
end;
$$;
comment on function private.rate_limit_hit(text, text, integer, interval) is
  'Counts a hit; true while within p_limit per p_window (issue 12 §8).';

/* Like rate_limit_hit, but refuses: raises SQLSTATE PT429 (PostgREST answers HTTP 429) with
   message rate_limited, a human-readable detail naming p_what and the limit, and the seconds
   until the window ends in the hint ("retry_after=<s>"). The refused attempt is rolled back with
   the request, so it does not count. */
create or replace function private.enforce_rate_limit(p_bucket text, p_key text, p_limit integer, p_window interval, p_what text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_retry integer;
begin
  if private.rate_limit_hit(p_bucket, p_key, p_limit, p_window) then
    return;
  end if;
  select greatest(1, ceil(extract(epoch from (r.window_start + p_window - pg_catalog.now()))))::integer into v_retry
  from private.rate_limits r
  where r.bucket = p_bucket and r.key_hash = pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.lower(coalesce(p_key, '')), 'UTF8'));
  raise exception using
    errcode = 'PT429',
    message = 'rate_limited',
    detail = pg_catalog.format('Too many requests from this %s: at most %s per %s.', p_what, p_limit, p_window),
    hint = pg_catalog.format('retry_after=%s', v_retry);
end;
$$;
comment on function private.enforce_rate_limit(text, text, integer, interval, text) is
  'Counts a hit or raises PT429 rate_limited (HTTP 429) past p_limit per p_window (issue 12 §8).';

/* The client IP of the current PostgREST request: the first entry of X-Forwarded-For, IPv6
   addresses grouped by their /64 network (one subscriber line), IPv4-mapped IPv6 as IPv4.
   Returns null outside a PostgREST request (no request.headers), 'unknown' when the header is
   missing, and the raw first entry (at most 100 characters) when it is no address. */
create or replace function private.request_client_ip()
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  v_headers text := pg_catalog.current_setting('request.headers', true);
  v_first text;
  v_ip inet;
begin
  if v_headers is null or v_headers = '' then
    return null;
  end if;
  v_first := pg_catalog.btrim(pg_catalog.split_part(coalesce(v_headers::jsonb ->> 'x-forwarded-for', ''), ',', 1));
  if v_first = '' then
    return 'unknown';
  end if;
  begin
    v_ip := v_first::inet;
  exception when others then
    return pg_catalog.left(v_first, 100);
  end;
  if pg_catalog.family(v_ip) = 6 and v_ip << '::ffff:0:0/96'::inet then
    return pg_catalog.regexp_replace(pg_catalog.host(v_ip), '^::ffff:', '', 'i');
  end if;
  if pg_catalog.family(v_ip) = 6 then
    return pg_catalog.network(pg_catalog.set_masklen(v_ip, 64))::text;
  end if;
  return pg_catalog.host(v_ip);
end;
$$;
comment on function private.request_client_ip() is
  'First X-Forwarded-For entry of the PostgREST request (IPv6 per /64); null outside PostgREST.';

/* True for the API roles the public limits apply to (anon and signed-in users). */
create or replace function private.is_api_caller()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(auth.role() in ('anon', 'authenticated'), false)
$$;
comment on function private.is_api_caller() is 'anon or authenticated request (the service role and direct SQL are not rate-limited).';

revoke all on function private.rate_limit_hit(text, text, integer, interval),
  private.enforce_rate_limit(text, text, integer, interval, text), private.request_client_ip(),
  private.is_api_caller() from public, anon, authenticated, service_role;

-- Old counters are worthless after a day; the longest window is 24 h.
create or replace function private.purge_rate_limits()
returns integer
language sql
security definer
set search_path = ''
as $$
  with gone as (delete from private.rate_limits where window_start < pg_catalog.now() - interval '2 days' returning 1)
  select count(*)::integer from gone
$$;
comment on function private.purge_rate_limits() is 'Deletes counters whose window ended long ago (pg_cron, hourly).';
revoke all on function private.purge_rate_limits() from public, anon, authenticated, service_role;

do $$
begin
  if exists (select 1 from pg_namespace where nspname = 'cron') then
    perform cron.schedule('purge-rate-limits', '17 * * * *', 'select private.purge_rate_limits()');
  end if;
end;
$$;

-- -----------------------------------------------------------------------------
-- Contact form
-- -----------------------------------------------------------------------------

/* BEFORE INSERT on contact_messages for API callers: 5 per address and 24 h, 5 per signed-in
   account and 24 h, 20 per client IP and hour; beyond that PT429 (HTTP 429) and nothing is
   stored or queued. */
create or replace function private.before_contact_message()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_ip text;
begin
  if not private.is_api_caller() then
    return new;
  end if;
  v_ip := private.request_client_ip();
  if v_ip is not null then
    perform private.enforce_rate_limit('contact:ip', v_ip, 20, interval '1 hour', 'connection');
  end if;
  if v_uid is not null then
    perform private.enforce_rate_limit('contact:user', v_uid::text, 5, interval '24 hours', 'account');
  end if;
  perform private.enforce_rate_limit('contact:email', pg_catalog.btrim(new.email), 5, interval '24 hours', 'address');
  return new;
end;
$$;
comment on function private.before_contact_message() is
  'BEFORE INSERT on contact_messages: rate limits per address, account and client IP (issue 12 §8).';
create trigger contact_messages_rate_limit before insert on public.contact_messages
  for each row execute function private.before_contact_message();

/* The receipt goes to an address anyone can type in, so it carries nothing the sender wrote:
   no name, subject, message or plan, only the fact that a message arrived, in the form's
   language. Every topic gets this receipt: a contact message cancels nothing (the §312k BGB
   cancellation is the cancel-contract function with its own confirmation). */
create or replace function private.after_contact_message()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.enqueue_email(new.user_id, new.email, 'contact_confirmation', new.lang, '{}'::jsonb, '{}'::jsonb);
  return null;
end;
$$;
comment on function private.after_contact_message() is
  'AFTER INSERT on contact_messages: queues the receipt, without any text of the sender (issue 12 §8).';

update public.email_templates set subject = 'Wir haben Ihre Nachricht erhalten', body =
$t$Guten Tag,

vielen Dank: Wir haben Ihre Nachricht über das Kontaktformular von Teamwerk erhalten und melden uns in der Regel innerhalb von zwei Werktagen.

Sie haben uns nicht geschrieben? Dann hat jemand diese E-Mail-Adresse in unser Kontaktformular eingetragen. Sie müssen nichts tun und können diese Nachricht ignorieren.

Viele Grüße
Ihr Teamwerk-Team$t$
where key = 'contact_confirmation' and lang = 'de';

update public.email_templates set subject = 'We have received your message', body =
$t$Hello,

thank you: we have received your message through the Teamwerk contact form and usually get back to you within two working days.

You did not write to us? Then someone entered this email address in our contact form. You don't need to do anything and can ignore this message.

Best regards
The Teamwerk team$t$
where key = 'contact_confirmation' and lang = 'en';

-- -----------------------------------------------------------------------------
-- Newsletter double opt-in
-- -----------------------------------------------------------------------------

/* Sign-up (step 1 of the double opt-in), for every caller the same answer (void):
   - API callers: 10 sign-ups per client IP and hour, else PT429 (HTTP 429, nothing changes);
   - unknown address: stored as pending and newsletter_confirm queued;
   - pending or unsubscribed address: a new confirmation mail (same token, language of this
     request, status pending) at most once per 24 h, otherwise nothing happens;
   - confirmed address: nothing happens (no mail, no change of language or owner).
   The row is linked to the signed-in caller only when it is the caller's own address.
   Errors: 22023 invalid_email. */
create or replace function private.newsletter_subscribe(p_email text, p_lang text, p_source text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := pg_catalog.lower(pg_catalog.btrim(p_email));
  v_lang text := case when p_lang = 'en' then 'en' else 'de' end;
  v_own boolean := pg_catalog.lower(auth.jwt() ->> 'email') = pg_catalog.lower(pg_catalog.btrim(p_email));
  v_ip text;
  sub public.newsletter_subscribers;
begin
  if v_email is null or v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or char_length(v_email) > 320 then
    raise exception using errcode = '22023', message = 'invalid_email';
  end if;
  if private.is_api_caller() then
    v_ip := private.request_client_ip();
    if v_ip is not null then
      perform private.enforce_rate_limit('newsletter:ip', v_ip, 10, interval '1 hour', 'connection');
    end if;
  end if;

  insert into public.newsletter_subscribers as n (email, lang, source, user_id)
  values (v_email, v_lang, pg_catalog.left(p_source, 100), case when v_own then auth.uid() end)
  on conflict (lower(email)) do nothing
  returning * into sub;
  if not found then
    select * into sub from public.newsletter_subscribers n where pg_catalog.lower(n.email) = v_email for update;
    if sub.status = 'confirmed' then
      return;
    end if;
  end if;

  if not private.rate_limit_hit('newsletter_confirm:email', v_email, 1, interval '24 hours') then
    return;
  end if;
  if sub.status <> 'pending' or sub.lang <> v_lang then
    update public.newsletter_subscribers set status = 'pending', lang = v_lang where id = sub.id
    returning * into sub;
  end if;
  perform private.enqueue_email(sub.user_id, sub.email, 'newsletter_confirm', sub.lang, '{}'::jsonb,
    pg_catalog.jsonb_build_object('token', sub.token));
end;
$$;
comment on function private.newsletter_subscribe(text, text, text) is
  'Implementation of public.newsletter_subscribe: per-IP limit, one confirmation per address and day, confirmed rows untouched (issue 12 §8).';

comment on function public.newsletter_subscribe(text, text, text) is
  'Double opt-in step 1; queues newsletter_confirm at most once per address and 24 h; 429 past 10 sign-ups per client IP and hour.';

-- =============================================================================
-- Fair requests: weekly allowance, expiry with a reminder, response stats (issue 19 "Fair
-- requests (anti-ghosting)"; spec §6: contacts need a plan)
-- =============================================================================
-- * private.contact_request_log keeps one row per contact request ever sent (the contacts row of
--   a pair is reused and may be deleted, so it cannot count sends or remember answers). Triggers
--   on public.contacts write it: a new pending request adds a row; accept, decline and expiry
--   close it with that outcome; a deleted pending request closes it as 'withdrawn' (by the
--   requester, an admin or an account deletion), 'dismissed' (deleted by the addressee without an
--   answer) or 'blocked' (removed by a block, which then counts for nobody).
-- * Weekly allowance by the sender's effective plan (the best paid subscription, as
--   has_paid_access reads it): Basic 10, Premium 30, Enterprise 100 requests per week; free users
--   have none (PT402 payment_required as before), admins no limit. The week is the ISO week in
--   Europe/Berlin: Monday 00:00 to Monday 00:00 Berlin time; the allowance renews every Monday at
--   00:00 Berlin time. Every sent request counts, also one withdrawn later. Asking back (which
--   accepts the other's request) sends nothing and does not count. Refusal: SQLSTATE PT429
--   (HTTP 429), message `weekly_contact_request_limit`, detail an English sentence, hint a JSON
--   object {"plan","limit","used","renews_at" (ISO UTC instant),"renews_on" (Berlin date)}.
--   public.my_contact_request_allowance() tells the UI how many are left.
-- * Expiry: a request unanswered for 14 days becomes status 'expired' (cron hourly,
--   private.expire_contact_requests); the requester may send again later (a new request that
--   counts again). Reminder: after 7 days unanswered the addressee gets one e-mail
--   (contact_request_reminder, in their language; it follows the contact-request mail switch and
--   its one-click unsubscribe), exactly once per request (contact_request_log.reminded_at).
-- * Response stats over the last 90 days of requests received that are decided (answered,
--   expired or dismissed; open, withdrawn and blocked ones do not count): response rate
--   (accepted or declined / decided) and median response time in hours of the answered ones.
--   public.profile_response_stats(profile) shows them to whoever may see the profile, only with
--   at least 5 decided requests; no requester identity is exposed. private.responsiveness(profile)
--   (0..1) is the tie-break for matching.

alter type public.contact_status add value if not exists 'expired';

-- -----------------------------------------------------------------------------
-- The log of sent requests
-- -----------------------------------------------------------------------------
create table private.contact_request_log (
  id bigint generated always as identity primary key,
  contact_id bigint references public.contacts (id) on delete set null,
  requester_id uuid not null references public.profiles (id) on delete cascade,
  addressee_id uuid not null references public.profiles (id) on delete cascade,
  sent_at timestamptz not null,
  outcome text check (outcome in ('accepted', 'declined', 'expired', 'withdrawn', 'dismissed', 'blocked')),
  closed_at timestamptz,
  reminded_at timestamptz,
  constraint contact_request_log_closed check ((outcome is null) = (closed_at is null))
);
comment on table private.contact_request_log is
  'One row per contact request sent (issue 19): weekly allowance, reminder once, response stats. outcome null = still open.';
comment on column private.contact_request_log.closed_at is 'When it was answered (accepted/declined), expired, withdrawn, dismissed or removed by a block.';
comment on column private.contact_request_log.reminded_at is 'When the 7-day reminder was handled (set once; the mail itself depends on the addressee''s switch).';
create index contact_request_log_requester_idx on private.contact_request_log (requester_id, sent_at);
create index contact_request_log_addressee_idx on private.contact_request_log (addressee_id, sent_at);
create unique index contact_request_log_open_idx on private.contact_request_log (contact_id) where outcome is null;
create index contact_request_log_reminder_idx on private.contact_request_log (sent_at) where outcome is null and reminded_at is null;
alter table private.contact_request_log enable row level security;
revoke all on private.contact_request_log from public, anon, authenticated;

-- existing requests
insert into private.contact_request_log (contact_id, requester_id, addressee_id, sent_at, outcome, closed_at)
select c.id, c.requester_id, c.addressee_id, c.created_at,
       case when c.status::text = 'pending' then null else c.status::text end,
       case when c.status::text = 'pending' then null else coalesce(c.responded_at, c.created_at) end
from public.contacts c;

/* AFTER INSERT OR UPDATE OF status on contacts: a new pending request (insert, or a declined or
   expired pair asked again) opens a log row; an answer or the expiry closes it. */
create or replace function private.log_contact_request()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status::text = 'pending' and (tg_op = 'INSERT' or old.status::text <> 'pending') then
    insert into private.contact_request_log (contact_id, requester_id, addressee_id, sent_at)
    values (new.id, new.requester_id, new.addressee_id, new.created_at);
  elsif tg_op = 'UPDATE' and old.status::text = 'pending' and new.status::text <> 'pending' then
    update private.contact_request_log
    set outcome = new.status::text, closed_at = coalesce(new.responded_at, pg_catalog.now())
    where contact_id = new.id and outcome is null;
  end if;
  return null;
end;
$$;
comment on function private.log_contact_request() is
  'AFTER INSERT/UPDATE on contacts: opens a contact_request_log row per request sent, closes it on answer or expiry (issue 19).';
revoke all on function private.log_contact_request() from public, anon, authenticated;
create trigger contacts_log_request after insert or update of status on public.contacts
  for each row execute function private.log_contact_request();

/* BEFORE DELETE on contacts: a pending request that disappears is closed in the log as
   'blocked' (a block removed it), 'dismissed' (the addressee deleted it unanswered) or
   'withdrawn' (anyone else: the requester, an admin, an account deletion). */
create or replace function private.log_contact_request_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- when a profile is deleted its log rows go with it (cascade): nothing to close
  if old.status::text = 'pending'
     and exists (select 1 from public.profiles where id = old.requester_id)
     and exists (select 1 from public.profiles where id = old.addressee_id) then
    update private.contact_request_log
    set outcome = case when private.is_blocked(old.requester_id, old.addressee_id) then 'blocked'
                       when auth.uid() = old.addressee_id then 'dismissed'
                       else 'withdrawn' end,
        closed_at = pg_catalog.now()
    where contact_id = old.id and outcome is null;
  end if;
  return old;
end;
$$;
comment on function private.log_contact_request_delete() is
  'BEFORE DELETE on contacts: closes the open log row of a pending request as blocked, dismissed or withdrawn (issue 19).';
revoke all on function private.log_contact_request_delete() from public, anon, authenticated;
create trigger contacts_log_request_delete before delete on public.contacts
  for each row execute function private.log_contact_request_delete();

-- API users answer with accepted or declined only; 'expired' is the scheduler's.
create or replace function private.guard_contact()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if private.is_blocked(new.requester_id, new.addressee_id) then
      raise exception using errcode = 'P0001', message = 'blocked', detail = 'No contact between blocked users.';
    end if;
    return new;
  end if;
  if private.is_privileged() then
    return new;
  end if;
  if new.requester_id <> old.requester_id or new.addressee_id <> old.addressee_id or new.created_at <> old.created_at
     or new.message is distinct from old.message then
    raise exception using errcode = '42501', message = 'protected_column', detail = 'Only the status of a contact changes.';
  end if;
  if new.status <> old.status then
    if auth.uid() <> old.addressee_id and not private.is_admin() then
      raise exception using errcode = '42501', message = 'not_addressee', detail = 'Only the addressee answers a request.';
    end if;
    if old.status::text <> 'pending' or new.status::text not in ('accepted', 'declined') then
      raise exception using errcode = 'PT409', message = 'not_pending', detail = 'Only a pending request can be accepted or declined.';
    end if;
    new.responded_at := pg_catalog.now();
  end if;
  return new;
end;
$$;
comment on function private.guard_contact() is
  'BEFORE INSERT/UPDATE on contacts: no blocked pairs; only the addressee answers (accepted/declined) a pending request (issues 13, 19).';

-- -----------------------------------------------------------------------------
-- Weekly allowance
-- -----------------------------------------------------------------------------
/* Start of the allowance week containing p_at: Monday 00:00 Europe/Berlin (ISO week). */
create or replace function private.contact_week_start(p_at timestamptz)
returns timestamptz
language sql
stable
set search_path = ''
as $$
  select pg_catalog.date_trunc('week', p_at at time zone 'Europe/Berlin') at time zone 'Europe/Berlin'
$$;
comment on function private.contact_week_start(timestamptz) is
  'Monday 00:00 Europe/Berlin of the ISO week containing p_at: start of the contact-request week (issue 19).';

/* The plan that sets p_user_id's allowance: the best paid subscription (same rule as
   has_paid_access), 'admin' for admins, null without paid access. */
create or replace function private.contact_request_plan(p_user_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  -- the plan rule lives in private.match_plan (matching migration); here admins keep their own name and free is null
  select case
    when exists (select 1 from public.profiles p where p.id = p_user_id and p.user_role = 'admin') then 'admin'
    else nullif(private.match_plan(p_user_id), 'free') end
$$;
comment on function private.contact_request_plan(uuid) is
  'Effective plan for the contact-request allowance: best paid subscription, admin, or null (issue 19, spec §6).';

/* Contact requests per week by plan (issue 19): basic 10, premium 30, enterprise 100; admin
   null (no limit); no plan 0. */
create or replace function private.weekly_contact_request_limit(p_plan text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case p_plan when 'basic' then 10 when 'premium' then 30 when 'enterprise' then 100 when 'admin' then null else 0 end
$$;
comment on function private.weekly_contact_request_limit(text) is
  'Weekly contact requests per plan (issue 19): basic 10, premium 30, enterprise 100, admin unlimited (null), none 0.';

/* Requests p_user_id sent since p_since (withdrawn ones included). */
create or replace function private.contact_requests_sent_since(p_user_id uuid, p_since timestamptz)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.count(*)::integer from private.contact_request_log l
  where l.requester_id = p_user_id and l.sent_at >= p_since
$$;
comment on function private.contact_requests_sent_since(uuid, timestamptz) is 'Contact requests sent since a time (issue 19).';
revoke all on function private.contact_week_start(timestamptz), private.contact_request_plan(uuid),
  private.weekly_contact_request_limit(text), private.contact_requests_sent_since(uuid, timestamptz) from public, anon;
grant execute on function private.contact_week_start(timestamptz), private.contact_request_plan(uuid),
  private.weekly_contact_request_limit(text), private.contact_requests_sent_since(uuid, timestamptz) to authenticated, service_role;

/* The caller's contact-request allowance this week (issue 19):
   plan ('basic' | 'premium' | 'enterprise' | 'admin' | null without a plan),
   weekly_limit (null = no limit, 0 without a plan), used (requests sent this week),
   remaining (null = no limit), renews_at (next Monday 00:00 Europe/Berlin as an instant),
   renews_on (that Monday's date in Berlin).
   Errors: 28000 not_authenticated. */
create or replace function public.my_contact_request_allowance()
returns table (plan text, weekly_limit integer, used integer, remaining integer, renews_at timestamptz, renews_on date)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  v_start timestamptz := private.contact_week_start(pg_catalog.now());
  v_plan text;
  v_limit integer;
  v_used integer;
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  v_plan := private.contact_request_plan(me);
  v_limit := private.weekly_contact_request_limit(v_plan);
  v_used := private.contact_requests_sent_since(me, v_start);
  return query select v_plan, v_limit, v_used, case when v_limit is null then null else greatest(v_limit - v_used, 0) end,
    v_start + interval '7 days', ((v_start + interval '7 days') at time zone 'Europe/Berlin')::date;
end;
$$;
comment on function public.my_contact_request_allowance() is
  'The caller''s weekly contact-request allowance: plan, limit, used, remaining, renewal (Monday 00:00 Europe/Berlin). Issue 19.';
revoke all on function public.my_contact_request_allowance() from public, anon;
grant execute on function public.my_contact_request_allowance() to authenticated, service_role;

/* Sends a contact request from the caller to p_addressee_id with an optional note.
   Returns the pair's status afterwards: 'pending', or 'accepted' when the addressee had already
   asked the caller (their request is accepted; this sends nothing and uses no allowance).
   Errors (HTTP status through PostgREST):
     28000 not_authenticated (403); PT402 payment_required (spec §6);
     22023 invalid_user_id | cannot_contact_self (400);
     PT404 user_not_found (404: unknown, suspended or not visible to the caller);
     P0001 blocked (400: a block either way);
     22001 note_too_long (400: more than 500 characters);
     PT409 already_contacts | request_pending (the caller's request is open) |
       declined_recently (declined less than 30 days ago; detail names the date it ends);
     PT429 weekly_contact_request_limit (issue 19: the plan's weekly allowance is used up; detail
       "You have used your N contact requests for this week. Your allowance renews on YYYY-MM-DD.",
       hint JSON {"plan","limit","used","renews_at","renews_on"});
     PT429 contact_request_limit (25 requests in 24 hours or 100 pending). Issues 13, 19. */
create or replace function public.send_contact_request(p_addressee_id uuid, p_message text default null)
returns public.contact_status
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  v_note text := nullif(pg_catalog.btrim(coalesce(p_message, '')), '');
  c public.contacts;
  v_until timestamptz;
  v_plan text;
  v_limit integer;
  v_used integer;
  v_start timestamptz;
  v_renews timestamptz;
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  if not private.caller_can_write() or not private.has_paid_access(me) then
    raise exception using errcode = 'PT402', message = 'payment_required', detail = 'Contacts need an active paid subscription (spec §6).';
  end if;
  if p_addressee_id is null then
    raise exception using errcode = '22023', message = 'invalid_user_id', detail = 'p_addressee_id is required.';
  end if;
  if p_addressee_id = me then
    raise exception using errcode = '22023', message = 'cannot_contact_self', detail = 'A contact request needs another person.';
  end if;
  if private.is_blocked(me, p_addressee_id) then
    raise exception using errcode = 'P0001', message = 'blocked', detail = 'No contact between blocked users.';
  end if;
  if not exists (select 1 from public.profiles where id = p_addressee_id)
     or private.is_suspended(p_addressee_id)
     or not private.can_see_profile(p_addressee_id) then
    raise exception using errcode = 'PT404', message = 'user_not_found', detail = 'No such person.';
  end if;
  if char_length(coalesce(v_note, '')) > 500 then
    raise exception using errcode = '22001', message = 'note_too_long', detail = 'The note may have at most 500 characters.';
  end if;

  -- the caller's requests one at a time (allowance), then one request at a time per pair
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('contact-requests:' || me::text, 0));
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(
    'contact:' || least(me, p_addressee_id)::text || greatest(me, p_addressee_id)::text, 0));
  select * into c from public.contacts
  where least(requester_id, addressee_id) = least(me, p_addressee_id)
    and greatest(requester_id, addressee_id) = greatest(me, p_addressee_id)
  for update;

  if found then
    if c.status::text = 'accepted' then
      raise exception using errcode = 'PT409', message = 'already_contacts', detail = 'You are already contacts.';
    end if;
    if c.status::text = 'pending' and c.requester_id = me then
      raise exception using errcode = 'PT409', message = 'request_pending', detail = 'Your request is waiting for an answer.';
    end if;
    if c.status::text = 'pending' then
      -- they asked first: asking back accepts
      update public.contacts set status = 'accepted', responded_at = pg_catalog.now() where id = c.id returning * into c;
      perform private.broadcast('user:' || c.requester_id::text, 'contact_accepted',
        pg_catalog.jsonb_build_object('contact_id', c.id, 'user_id', me));
      return c.status;
    end if;
    -- declined (or expired: no wait)
    if c.status::text = 'declined' and c.requester_id = me and c.responded_at > pg_catalog.now() - interval '30 days' then
      v_until := c.responded_at + interval '30 days';
      raise exception using errcode = 'PT409', message = 'declined_recently',
        detail = 'This person declined your request. You can ask again from ' || pg_catalog.to_char(v_until at time zone 'UTC', 'YYYY-MM-DD') || '.',
        hint = pg_catalog.to_char(v_until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
    end if;
  end if;

  -- weekly allowance by plan (issue 19)
  v_plan := private.contact_request_plan(me);
  v_limit := private.weekly_contact_request_limit(v_plan);
  if v_limit is not null then
    v_start := private.contact_week_start(pg_catalog.now());
    v_used := private.contact_requests_sent_since(me, v_start);
    if v_used >= v_limit then
      v_renews := v_start + interval '7 days';
      raise exception using errcode = 'PT429', message = 'weekly_contact_request_limit',
        detail = 'You have used your ' || v_limit || ' contact requests for this week. Your allowance renews on '
          || pg_catalog.to_char(v_renews at time zone 'Europe/Berlin', 'YYYY-MM-DD') || '.',
        hint = pg_catalog.jsonb_build_object('plan', v_plan, 'limit', v_limit, 'used', v_used,
          'renews_at', pg_catalog.to_char(v_renews at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
          'renews_on', pg_catalog.to_char(v_renews at time zone 'Europe/Berlin', 'YYYY-MM-DD'))::text;
    end if;
  end if;

  if (select pg_catalog.count(*) from public.contacts where requester_id = me and created_at > pg_catalog.now() - interval '24 hours') >= 25
     or (select pg_catalog.count(*) from public.contacts where requester_id = me and status = 'pending') >= 100 then
    raise exception using errcode = 'PT429', message = 'contact_request_limit',
      detail = 'At most 25 contact requests a day and 100 open requests.';
  end if;

  if found then
    update public.contacts
    set requester_id = me, addressee_id = p_addressee_id, status = 'pending', message = v_note,
        created_at = pg_catalog.now(), responded_at = null
    where id = c.id returning * into c;
  else
    insert into public.contacts (requester_id, addressee_id, status, message)
    values (me, p_addressee_id, 'pending', v_note) returning * into c;
  end if;
  perform private.notify_contact_request(c);
  return c.status;
end;
$$;
comment on function public.send_contact_request(uuid, text) is
  'Contact request with an optional note (≤ 500); 30-day rule after a decline; weekly allowance by plan (issue 19); 25/day and 100 pending (issue 13).';
revoke all on function public.send_contact_request(uuid, text) from public, anon;
grant execute on function public.send_contact_request(uuid, text) to authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Expiry and reminder (pg_cron)
-- -----------------------------------------------------------------------------
/* Expires pending requests unanswered for 14 days (cron hourly): status 'expired' (the log row
   closes through its trigger), a Broadcast `contact_expired` to the requester. Returns the
   number expired. Issue 19. */
create or replace function private.expire_contact_requests()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  r record;
  n integer := 0;
begin
  for r in
    update public.contacts set status = 'expired'
    where id in (select c.id from public.contacts c
                 where c.status = 'pending' and c.created_at <= pg_catalog.now() - interval '14 days'
                 order by c.id for update skip locked)
    returning id, requester_id, addressee_id
  loop
    perform private.broadcast('user:' || r.requester_id::text, 'contact_expired',
      pg_catalog.jsonb_build_object('contact_id', r.id, 'user_id', r.addressee_id));
    n := n + 1;
  end loop;
  return n;
end;
$$;
comment on function private.expire_contact_requests() is 'Cron (hourly): pending contact requests older than 14 days become expired (issue 19).';

/* Date in a mail's language: de "30.11.2026", en "30 November 2026". */
create or replace function private.format_mail_date(p_at timestamptz, p_lang text)
returns text
language sql
stable
set search_path = ''
as $$
  select case when p_lang = 'en'
    then pg_catalog.to_char(p_at at time zone 'Europe/Berlin', 'FMDD FMMonth YYYY')
    else pg_catalog.to_char(p_at at time zone 'Europe/Berlin', 'DD.MM.YYYY') end
$$;
comment on function private.format_mail_date(timestamptz, text) is 'A Berlin date for mails: de DD.MM.YYYY, en D Month YYYY (issue 19).';

/* Reminder to the addressee of each request unanswered for 7 days (cron hourly), exactly once per
   request: the log row's reminded_at is set in the same statement that picks it. The mail goes to
   confirmed addressees who did not switch contact-request mails off, when neither side is
   suspended or blocked. Returns the number of mails queued. Issue 19. */
create or replace function private.send_contact_request_reminders()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  r record;
  n integer := 0;
begin
  for r in
    with due as (
      update private.contact_request_log l set reminded_at = pg_catalog.now()
      where l.id in (select x.id from private.contact_request_log x
                     join public.contacts c on c.id = x.contact_id and c.status = 'pending'
                     where x.outcome is null and x.reminded_at is null
                       and x.sent_at <= pg_catalog.now() - interval '7 days'
                     order by x.id for update of x skip locked)
      returning l.contact_id, l.requester_id, l.addressee_id, l.sent_at
    )
    select d.*, c.message, a.email, a.preferred_language, a.firstname, a.lastname, a.authenticated,
           (select private.display_name(q) from public.profiles q where q.id = d.requester_id) as requester_name
    from due d
    join public.contacts c on c.id = d.contact_id
    join public.profiles a on a.id = d.addressee_id
  loop
    if r.authenticated = 1 and private.wants_email(r.addressee_id, 'contact_requests')
       and not private.is_suspended(r.addressee_id) and not private.is_suspended(r.requester_id)
       and not private.is_blocked(r.requester_id, r.addressee_id) then
      perform private.enqueue_email(r.addressee_id, r.email, 'contact_request_reminder', r.preferred_language,
        pg_catalog.jsonb_build_object('firstname', r.firstname, 'lastname', r.lastname),
        pg_catalog.jsonb_build_object('requester_name', r.requester_name, 'note', coalesce(r.message, ''),
          'expires_on', private.format_mail_date(r.sent_at + interval '14 days', r.preferred_language),
          'path', '/user/contacts?tab=received', 'settings_path', '/user/settings'));
      n := n + 1;
    end if;
  end loop;
  return n;
end;
$$;
comment on function private.send_contact_request_reminders() is
  'Cron (hourly): one reminder mail per contact request unanswered for 7 days (issue 19).';
revoke all on function private.expire_contact_requests(), private.send_contact_request_reminders(), private.format_mail_date(timestamptz, text)
  from public, anon, authenticated;

insert into public.email_types (key, description, priority) values
  ('contact_request_reminder', 'A contact request waits for an answer for 7 days; it expires after 14 (issue 19).', 4)
on conflict (key) do update set description = excluded.description, priority = excluded.priority;

insert into public.email_templates (key, lang, subject, body) values
('contact_request_reminder', 'de', 'Erinnerung: {{requester_name}} wartet auf Ihre Antwort',
$t$Hallo {{firstname}},

{{requester_name}} hat Ihnen vor einer Woche eine Kontaktanfrage geschickt:

{{note}}

Bitte nehmen Sie die Anfrage an oder lehnen Sie sie ab. Ohne Antwort verfällt sie am {{expires_on}}.

{{link}}

Diese Benachrichtigungen mit einem Klick abbestellen: {{unsubscribe_link}}

Viele Grüße
Ihr Teamwerk-Team$t$),
('contact_request_reminder', 'en', 'Reminder: {{requester_name}} is waiting for your answer',
$t$Hi {{firstname}},

{{requester_name}} sent you a contact request a week ago:

{{note}}

Please accept or decline it. Without an answer it expires on {{expires_on}}.

{{link}}

Unsubscribe from these notifications with one click: {{unsubscribe_link}}

Best regards
The Teamwerk team$t$)
on conflict (key, lang) do update set subject = excluded.subject, body = excluded.body;

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    perform cron.schedule('expire-contact-requests', '7 * * * *', 'select private.expire_contact_requests()');
    perform cron.schedule('contact-request-reminders', '17 * * * *', 'select private.send_contact_request_reminders()');
  end if;
end;
$$;

-- -----------------------------------------------------------------------------
-- Response stats
-- -----------------------------------------------------------------------------
/* Response stats of p_profile_id over the requests received in the last 90 days that are decided
   (accepted, declined, expired or dismissed): requests (decided), answered (accepted or
   declined), response_rate = answered / requests (0..1, null without requests),
   median_response_hours of the answered ones (null without answers). No threshold here. */
create or replace function private.response_stats(p_profile_id uuid)
returns table (requests integer, answered integer, response_rate numeric, median_response_hours numeric)
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.count(*)::integer,
         pg_catalog.count(*) filter (where l.outcome in ('accepted', 'declined'))::integer,
         (pg_catalog.count(*) filter (where l.outcome in ('accepted', 'declined')))::numeric / nullif(pg_catalog.count(*), 0),
         (pg_catalog.percentile_cont(0.5) within group (order by extract(epoch from l.closed_at - l.sent_at) / 3600.0)
            filter (where l.outcome in ('accepted', 'declined')))::numeric
  from private.contact_request_log l
  where l.addressee_id = p_profile_id
    and l.sent_at > pg_catalog.now() - interval '90 days'
    and l.outcome in ('accepted', 'declined', 'expired', 'dismissed')
$$;
comment on function private.response_stats(uuid) is
  'Response stats over 90 days of decided contact requests received (issue 19); no minimum applied.';

/* Tie-break for matching (issue 19): how reliably p_profile_id answers, 0..1. An answer within
   72 hours counts 1, a later one 0.5, expired or dismissed 0, over the decided requests of the
   last 90 days, smoothed towards 0.5 with the weight of 5 requests:
   (points + 2.5) / (decided + 5). Without history: 0.5. */
create or replace function private.responsiveness(p_profile_id uuid)
returns numeric
language sql
stable
security definer
set search_path = ''
as $$
  select (coalesce(pg_catalog.sum(case when l.outcome in ('accepted', 'declined') and l.closed_at - l.sent_at <= interval '72 hours' then 1.0
                                       when l.outcome in ('accepted', 'declined') then 0.5 else 0.0 end), 0) + 2.5)
         / (pg_catalog.count(*) + 5)
  from private.contact_request_log l
  where l.addressee_id = p_profile_id
    and l.sent_at > pg_catalog.now() - interval '90 days'
    and l.outcome in ('accepted', 'declined', 'expired', 'dismissed')
$$;
comment on function private.responsiveness(uuid) is
  'Matching tie-break 0..1 (issue 19): smoothed share of contact requests answered (within 72 h = 1, later = 0.5) over 90 days; 0.5 without history.';
revoke all on function private.response_stats(uuid), private.responsiveness(uuid) from public, anon, authenticated;
grant execute on function private.response_stats(uuid), private.responsiveness(uuid) to service_role;

/* A profile's response stats for its page (issue 19): one row with requests (decided requests
   received in the last 90 days), response_rate (0..1, two decimals) and median_response_hours
   (one decimal; null when none was answered), only when requests >= 5 and the caller may see
   the profile; otherwise no row. Only aggregates: nothing about who asked. */
create or replace function public.profile_response_stats(p_profile_id uuid)
returns table (requests integer, response_rate numeric, median_response_hours numeric)
language sql
stable
security definer
set search_path = ''
as $$
  select s.requests, pg_catalog.round(s.response_rate, 2), pg_catalog.round(s.median_response_hours, 1)
  from private.response_stats(p_profile_id) s
  where s.requests >= 5
    and private.can_see_profile(p_profile_id)
    and not private.is_suspended(p_profile_id)
$$;
comment on function public.profile_response_stats(uuid) is
  'Response rate and median response time (hours) over 90 days, shown from 5 decided requests on (issue 19).';
revoke all on function public.profile_response_stats(uuid) from public;
grant execute on function public.profile_response_stats(uuid) to anon, authenticated, service_role;

-- =============================================================================
-- Operations (issue 17): health report and retention purges
-- =============================================================================

-- -----------------------------------------------------------------------------
-- Health report (read by the `health` Edge Function with the service role)
-- -----------------------------------------------------------------------------

/* What the health check needs from the database, in one round trip (issue 17 "Operations"):
   - queue: pending mails, how long the oldest due one waits (seconds), mails whose claim expired
     more than 5 minutes ago while processing (a worker died and nobody reclaimed them), failures of the last 24 hours;
   - cron: every job with its schedule, whether it is active, its last successful and last failed
     run and the status of its latest run;
   - database_started_at: when Postgres started (a job that never ran is judged from there).
   Returns jsonb; only the service role may call it (the answer names internal jobs). */
create or replace function public.health_report()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'checked_at', pg_catalog.now(),
    'database_started_at', pg_catalog.pg_postmaster_start_time(),
    'queue', (
      select jsonb_build_object(
        'pending', count(*) filter (where q.status = 'pending'),
        'oldest_due_seconds', coalesce(extract(epoch from pg_catalog.now() - min(q.next_attempt_at) filter (where q.status = 'pending' and q.next_attempt_at <= pg_catalog.now()))::integer, 0),
        'processing_expired', count(*) filter (where q.status = 'processing' and q.locked_until < pg_catalog.now() - interval '5 minutes'),
        'failed_24h', count(*) filter (where q.status = 'failed' and q.updated_at > pg_catalog.now() - interval '24 hours')
      )
      from public.email_queue q
      where q.status in ('pending', 'processing') or (q.status = 'failed' and q.updated_at > pg_catalog.now() - interval '24 hours')
    ),
    'cron', coalesce((
      select jsonb_agg(jsonb_build_object(
        'job', j.jobname,
        'schedule', j.schedule,
        'active', j.active,
        'last_success_at', (select max(d.end_time) from cron.job_run_details d where d.jobid = j.jobid and d.status = 'succeeded'),
        'last_failure_at', (select max(d.end_time) from cron.job_run_details d where d.jobid = j.jobid and d.status = 'failed'),
        'last_status', (select d.status from cron.job_run_details d where d.jobid = j.jobid order by d.runid desc limit 1)
      ) order by j.jobname)
      from cron.job j
    ), '[]'::jsonb)
  )
$$;
comment on function public.health_report() is
  'Issue 17: queue age, expired claims, recent failures and the cron jobs'' last runs for /functions/v1/health (service_role only).';
revoke all on function public.health_report() from public, anon, authenticated;
grant execute on function public.health_report() to service_role;

create index if not exists job_run_details_job_idx on cron.job_run_details (jobid, runid desc);

-- -----------------------------------------------------------------------------
-- Retention (DSGVO Art. 5 (1) e: kept no longer than needed; privacy page §"Retention")
-- -----------------------------------------------------------------------------

/* Deletes what is no longer needed, each kind after its documented period:
   - e-mail queue: delivered mails 30 days after sending, failed ones 90 days after the last try
     (recipient address and placeholders are personal data; the copy in the mailbox of the
     provider is theirs to keep);
   - used confirm/reset token nonces one day after the token would have expired;
   - newsletter sign-ups never confirmed 30 days after the invitation (double opt-in mail), and
     unsubscribed addresses 30 days after unsubscribing;
   - the log of unread-message mails (only needed for "one per day") after 7 days;
   - the cron run history after 14 days.
   Returns jsonb with the number of rows deleted per kind. Runs daily by pg_cron ('purge-retention'). */
create or replace function private.purge_retention()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  n_sent integer;
  n_failed integer;
  n_tokens integer;
  n_newsletter_pending integer;
  n_newsletter_unsubscribed integer;
  n_chat_mail_log integer;
  n_cron_runs integer;
begin
  delete from public.email_queue where status = 'sent' and coalesce(sent_at, updated_at) < pg_catalog.now() - interval '30 days';
  get diagnostics n_sent = row_count;
  delete from public.email_queue where status = 'failed' and updated_at < pg_catalog.now() - interval '90 days';
  get diagnostics n_failed = row_count;
  delete from private.consumed_auth_tokens where expires_at < pg_catalog.now() - interval '1 day';
  get diagnostics n_tokens = row_count;
  delete from public.newsletter_subscribers where status = 'pending' and created_at < pg_catalog.now() - interval '30 days';
  get diagnostics n_newsletter_pending = row_count;
  delete from public.newsletter_subscribers where status = 'unsubscribed' and unsubscribed_at < pg_catalog.now() - interval '30 days';
  get diagnostics n_newsletter_unsubscribed = row_count;
  delete from private.chat_mail_log where sent_on < (pg_catalog.now() - interval '7 days')::date;
  get diagnostics n_chat_mail_log = row_count;
  delete from cron.job_run_details where end_time < pg_catalog.now() - interval '14 days';
  get diagnostics n_cron_runs = row_count;
  return jsonb_build_object(
    'email_queue_sent', n_sent,
    'email_queue_failed', n_failed,
    'consumed_auth_tokens', n_tokens,
    'newsletter_unconfirmed', n_newsletter_pending,
    'newsletter_unsubscribed', n_newsletter_unsubscribed,
    'chat_mail_log', n_chat_mail_log,
    'cron_job_run_details', n_cron_runs
  );
end;
$$;
comment on function private.purge_retention() is
  'Issue 17: deletes delivered/failed queue entries, used tokens, unconfirmed and unsubscribed newsletter addresses, old mail logs and cron history after their retention periods (pg_cron daily).';
revoke all on function private.purge_retention() from public, anon, authenticated, service_role;

do $$
begin
  if exists (select 1 from pg_namespace where nspname = 'cron') then
    perform cron.schedule('purge-retention', '40 3 * * *', 'select private.purge_retention()');
  end if;
end;
$$;

-- -----------------------------------------------------------------------------
-- E-mail priority (issue 17: after an outage the queue delivers in order of priority)
-- -----------------------------------------------------------------------------
-- 0 = account access (confirm, reset, "account exists"), 1 = contract and payment, 3 = receipts
-- and welcome, 4 = newsletter opt-in, 5 = notifications, 7 = newsletter welcome. A worker claims
-- due mails by priority first, then by due time: after the provider was down for a while, a
-- password reset does not wait behind a backlog of chat notifications.

alter table public.email_types add column priority smallint not null default 5 check (priority between 0 and 9);
comment on column public.email_types.priority is 'Claim order of due mails of this kind: 0 first (issue 17).';
update public.email_types set priority = case key
  when 'confirm_email' then 0 when 'password_reset' then 0 when 'account_exists_notice' then 0
  when 'cancellation_confirm_link' then 1 when 'cancellation_confirmation' then 1 when 'payment_failed' then 1
  when 'subscription_activated' then 1 when 'subscription_duplicate_refunded' then 1
  when 'welcome_email' then 3 when 'contact_confirmation' then 3
  when 'newsletter_confirm' then 4
  when 'contact_request' then 5 when 'chat_unread' then 5
  when 'newsletter_welcome' then 7
  else 5 end;
grant select (priority) on public.email_types to authenticated;

alter table public.email_queue add column priority smallint not null default 5 check (priority between 0 and 9);
comment on column public.email_queue.priority is 'Copied from email_types.priority on insert (trigger); claim order.';
grant select (priority) on public.email_queue to authenticated;
update public.email_queue q set priority = t.priority from public.email_types t where t.key = q.email_type and q.priority <> t.priority;

create or replace function private.email_queue_priority()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select t.priority into new.priority from public.email_types t where t.key = new.email_type;
  new.priority := coalesce(new.priority, 5);
  return new;
end;
$$;
revoke all on function private.email_queue_priority() from public, anon, authenticated, service_role;
create trigger email_queue_priority before insert on public.email_queue
  for each row execute function private.email_queue_priority();

drop index if exists public.email_queue_due_idx;
create index email_queue_due_idx on public.email_queue (priority, next_attempt_at, id) where status = 'pending';

/* Claims up to batch_size due mails for lock_seconds, highest priority (lowest number) first,
   then by due time. Concurrent workers never get the same row (for update skip locked); rows of
   a worker that died are reclaimed after the lock expires. Returns the rows, in claim order, with
   the template subject/body in the row's language (de fallback).
   Errors: 22023 invalid_batch_size (1..1000), invalid_lock_seconds (1..3600). */
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
    select q.id, q.priority, q.next_attempt_at from public.email_queue q
    where (q.status = 'pending' and q.next_attempt_at <= pg_catalog.now())
       or (q.status = 'processing' and q.locked_until < pg_catalog.now())
    order by q.priority, q.next_attempt_at, q.id
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
  order by c.priority, c.next_attempt_at, c.id;
end;
$$;

-- =============================================================================
-- Operations (issue 17): health report and retention purges
-- =============================================================================
-- The scheduled jobs themselves (pg_cron) are data: see the data migration.

-- -----------------------------------------------------------------------------
-- Indexes
-- -----------------------------------------------------------------------------

-- The health report reads each job's latest runs.
create index if not exists job_run_details_job_idx on cron.job_run_details (jobid, runid desc);

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

-- Retention (DSGVO Art. 5 (1) e: kept no longer than needed; privacy page §"Retention")
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

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
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

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.

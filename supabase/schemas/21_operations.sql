-- =============================================================================
-- Operations (issue 17): health report, retention purges, calls of Edge Functions from pg_cron
-- =============================================================================
-- The scheduled jobs themselves (pg_cron) are data: see the data migrations. Jobs that call an Edge
-- Function do it through private.invoke_edge_function, which reads the Vault secrets project_url
-- and service_role_key at run time (Supabase's "Scheduling Edge Functions" guide); the deploy
-- writes them (`[db.vault]`), the local stack at every start. No migration writes them.

-- -----------------------------------------------------------------------------
-- Indexes
-- -----------------------------------------------------------------------------

-- The health report reads each job's latest runs.
create index if not exists job_run_details_job_idx on cron.job_run_details (jobid, runid desc);

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

/* Vault secrets the jobs that call Edge Functions need, in the order they are checked. */
create or replace function private.cron_secret_names()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['project_url', 'service_role_key']
$$;

/* Calls Edge Function p_function (POST, JSON body p_body) with the project's service key read from
   Vault, as pg_cron jobs do. Output: the pg_net request id.
   Errors: PT503 cron_secrets_missing when a Vault secret is missing or empty, so the cron run
   fails loudly (cron.job_run_details status failed; /functions/v1/health answers 503) instead of
   posting to nowhere (issue 29 §4). */
create or replace function private.invoke_edge_function(p_function text, p_body jsonb default '{}'::jsonb)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_url text := (select s.decrypted_secret from vault.decrypted_secrets s where s.name = 'project_url');
  v_key text := (select s.decrypted_secret from vault.decrypted_secrets s where s.name = 'service_role_key');
begin
  if coalesce(v_url, '') = '' or coalesce(v_key, '') = '' then
    raise exception using errcode = 'PT503', message = 'cron_secrets_missing',
      detail = 'The Vault secrets project_url and service_role_key must both exist (npm run deploy writes them).';
  end if;
  return net.http_post(
    url := pg_catalog.rtrim(v_url, '/') || '/functions/v1/' || p_function,
    headers := pg_catalog.jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || v_key, 'apikey', v_key),
    body := p_body,
    timeout_milliseconds := 30000);
end;
$$;
comment on function private.invoke_edge_function(text, jsonb) is
  'pg_cron: POST to an Edge Function with the service key from Vault; PT503 cron_secrets_missing without it (issue 29).';

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
   - database_started_at: when Postgres started (a job that never ran is judged from there);
   - cron_secrets: whether each Vault secret the function-calling jobs need exists (issue 29).
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
    ), '[]'::jsonb),
    'cron_secrets', (
      select jsonb_object_agg(n.name, exists (
        select 1 from vault.decrypted_secrets s where s.name = n.name and coalesce(s.decrypted_secret, '') <> ''))
      from pg_catalog.unnest(private.cron_secret_names()) as n(name)
    )
  )
$$;
comment on function public.health_report() is
  'Issue 17: queue age, expired claims, recent failures and the cron jobs'' last runs for /functions/v1/health (service_role only).';

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.

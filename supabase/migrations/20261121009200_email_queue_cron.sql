-- =============================================================================
-- pg_cron: process-email-queue every minute (spec §7, issue 6)
-- =============================================================================
-- As Supabase recommends (docs: "Scheduling Edge Functions"), the job reads the project URL and
-- the service role key from Vault at run time, so no secret is stored in cron.job.command:
--   project_url       e.g. https://<project-ref>.supabase.co
--   service_role_key  the project's service_role key
-- Production sets both once with the dashboard or SQL (`select vault.create_secret('<value>',
-- 'project_url')`, ...). This migration only fills in the LOCAL DEFAULT of project_url when it
-- does not exist yet (never overwriting): the local gateway, whose port is the database port - 1
-- (54321/54322, shifted alike by TEAMWERK_STACK_OFFSET), so every local stack calls itself.
-- No key is written here (issue 12 §3: no secret in the source): the local stack stores its
-- generated service_role key at every start (scripts/local-stack/migrate.ts storeVaultSecrets);
-- with `supabase start` or a hosted project, create `service_role_key` as above.

do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    create extension if not exists pg_cron with schema pg_catalog;
  end if;
  if exists (select 1 from pg_available_extensions where name = 'pg_net') then
    create extension if not exists pg_net with schema extensions;
  end if;
end;
$$;

-- LOCAL DEFAULT only (see above); hosted projects must set their own values.
do $$
begin
  if not exists (select 1 from vault.secrets where name = 'project_url') then
    perform vault.create_secret(
      'http://127.0.0.1:' || (current_setting('port')::integer - 1)::text,
      'project_url',
      'Local default (supabase/migrations/20261121009200): the local gateway. Set the real project URL in production.');
  end if;
end;
$$;

-- Re-scheduling under the same name replaces the job (pg_cron >= 1.3), so this is idempotent.
select cron.schedule(
  'process-email-queue',
  '* * * * *',
  $job$
  select net.http_post(
    url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url') || '/functions/v1/process-email-queue',
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key'),
      'apikey', (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key')
    ),
    body := '{}'::jsonb,
    timeout_milliseconds := 30000
  ) as request_id;
  $job$
);

-- =============================================================================
-- Machine-specific values: the local default of the Vault secret project_url
-- =============================================================================
-- The pg_cron jobs that call Edge Functions (process-email-queue, process-ticket-refunds; see
-- 20261121000100_reference_data.sql) read the project URL and the service role key from Vault at
-- run time, as Supabase recommends (docs: "Scheduling Edge Functions"), so no secret is stored in
-- cron.job.command:
--   project_url       e.g. https://<project-ref>.supabase.co
--   service_role_key  the project's service_role key
-- Production sets both once with the dashboard or SQL (`select vault.create_secret('<value>',
-- 'project_url')`, ...). This migration only fills in the LOCAL DEFAULT of project_url when it
-- does not exist yet (never overwriting): the local gateway, whose port is the database port - 1
-- (54321/54322, shifted alike by TEAMWERK_STACK_OFFSET), so every local stack calls itself.
-- No key is written here (issue 12 §3: no secret in the source): the local stack stores its
-- generated service_role key at every start (scripts/local-stack/migrate.ts storeVaultSecrets);
-- with `supabase start` or a hosted project, create `service_role_key` as above.

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

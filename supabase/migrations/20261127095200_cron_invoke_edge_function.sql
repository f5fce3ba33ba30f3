-- The pg_cron jobs that call Edge Functions go through private.invoke_edge_function (21_operations.sql):
-- it reads the Vault secrets at run time and fails the run loudly when one is missing (issue 29 §4).
-- Re-scheduling under the same name replaces the job's command and keeps its id (pg_cron >= 1.3).
do $$
begin
  if pg_catalog.to_regnamespace('cron') is null then
    return;
  end if;
  perform cron.schedule('process-email-queue', '* * * * *', $job$select private.invoke_edge_function('process-email-queue') as request_id$job$);
  perform cron.schedule('process-ticket-refunds', '* * * * *', $job$select private.invoke_edge_function('process-ticket-refunds') as request_id$job$);
end;
$$;

-- =============================================================================
-- Events move along their statuses with time (pg_cron, every 5 minutes)
-- =============================================================================
-- published -> upcoming  when the start is less than 7 days away
-- published/upcoming -> ongoing  when the start has passed
-- ongoing -> finished  when the end has passed
-- Every step is an allowed transition of event_status_transitions (the trigger still checks).

create or replace function private.advance_event_statuses()
returns table (to_upcoming integer, to_ongoing integer, to_finished integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  n_upcoming integer;
  n_ongoing integer;
  n_finished integer;
begin
  update public.events set status = 'ongoing'
  where status in ('published', 'upcoming') and starts_at <= pg_catalog.now();
  get diagnostics n_ongoing = row_count;
  update public.events set status = 'finished'
  where status = 'ongoing' and ends_at <= pg_catalog.now();
  get diagnostics n_finished = row_count;
  update public.events set status = 'upcoming'
  where status = 'published' and starts_at <= pg_catalog.now() + interval '7 days';
  get diagnostics n_upcoming = row_count;
  return query select n_upcoming, n_ongoing, n_finished;
end;
$$;
comment on function private.advance_event_statuses() is
  'Time-driven event transitions (published->upcoming 7 days ahead, ->ongoing at start, ->finished at end). Run by pg_cron.';

do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    create extension if not exists pg_cron with schema pg_catalog;
  end if;
  if pg_catalog.to_regnamespace('cron') is not null then
    perform cron.schedule('advance-event-statuses', '*/5 * * * *', 'select private.advance_event_statuses()');
  end if;
end;
$$;

-- Supabase bootstrap, part 60: pg_cron and pg_net emulation (issue 2 item 7).
--
-- Imitates the SQL surface of pg_cron 1.6 (citusdata/pg_cron) and pg_net 0.19+ (supabase/pg_net):
-- same schemas, tables, column names, function signatures and defaults, so migrations written
-- for hosted Supabase (`select cron.schedule('name', '* * * * *', $$ select net.http_post(...) $$)`)
-- apply unchanged. The C parts are replaced by plpgsql here and by the stack's cron/net worker
-- (scripts/local-stack/services/cron): it runs due cron.job rows and executes queued
-- net.http_request_queue rows, writing net._http_response.
--
-- Grants: cron and net functions are for postgres (and superusers), not for anon/authenticated.

-- =====================================================================================
-- pg_cron
-- =====================================================================================
create schema if not exists cron;
comment on schema cron is 'pg_cron emulation of the local stack (jobs run by the stack''s cron worker)';

create sequence if not exists cron.jobid_seq;
create table if not exists cron.job (
  jobid bigint primary key default nextval('cron.jobid_seq'),
  schedule text not null,
  command text not null,
  nodename text not null default 'localhost',
  nodeport int not null default inet_server_port(),
  database text not null default current_database(),
  username text not null default current_user,
  active boolean not null default true,
  jobname text,
  constraint jobname_username_uniq unique (jobname, username)
);
comment on table cron.job is 'pg_cron jobs: schedule (5-field cron in UTC or ''N seconds'') and SQL command';

create sequence if not exists cron.runid_seq;
create table if not exists cron.job_run_details (
  jobid bigint,
  runid bigint primary key default nextval('cron.runid_seq'),
  job_pid integer,
  database text,
  username text,
  command text,
  status text,
  return_message text,
  start_time timestamptz,
  end_time timestamptz
);
comment on table cron.job_run_details is 'pg_cron run history: status starting/running/succeeded/failed, return_message = command tag or error';

alter table cron.job enable row level security;
alter table cron.job_run_details enable row level security;
drop policy if exists cron_job_policy on cron.job;
create policy cron_job_policy on cron.job using (username = current_user);
drop policy if exists cron_job_run_details_policy on cron.job_run_details;
create policy cron_job_run_details_policy on cron.job_run_details using (username = current_user);

-- The role that called a security definer function (its `current_user` is the owner).
create or replace function cron._caller() returns text
  language sql stable
  set search_path = ''
as $$
  select coalesce(nullif(current_setting('role', true), 'none'), session_user::text)
$$;

-- Validates a schedule as pg_cron accepts it: 5-field cron (numbers, names, ranges, steps,
-- lists, `$` = last day of month), `@yearly`-style macros, or '<1-59> seconds'.
create or replace function cron._valid_schedule(schedule text) returns boolean
  language plpgsql immutable
  set search_path = ''
as $$
declare
  fields text[];
  field text;
begin
  if schedule is null then
    return false;
  end if;
  if schedule ~* '^\s*([1-9]|[1-5][0-9])\s+seconds?\s*$' then
    return true;
  end if;
  if lower(btrim(schedule)) in ('@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly', '@reboot') then
    return true;
  end if;
  fields := regexp_split_to_array(btrim(schedule), '\s+');
  if array_length(fields, 1) <> 5 then
    return false;
  end if;
  foreach field in array fields loop
    if field !~* '^(\*|\$|[0-9]+|[a-z]{3})(-([0-9]+|[a-z]{3}))?(/[0-9]+)?(,(\*|\$|[0-9]+|[a-z]{3})(-([0-9]+|[a-z]{3}))?(/[0-9]+)?)*$' then
      return false;
    end if;
  end loop;
  return true;
end;
$$;

-- cron.schedule(job_name, schedule, command): creates the job, or updates the caller's job of
-- that name (upsert by (jobname, username)), and returns its jobid.
create or replace function cron.schedule(job_name text, schedule text, command text)
  returns bigint
  language plpgsql
  security definer
  set search_path = ''
as $$
#variable_conflict use_variable
declare
  caller text := cron._caller();
  id bigint;
begin
  if schedule is null or command is null then
    raise exception 'schedule and command must not be null';
  end if;
  if not cron._valid_schedule(schedule) then
    raise exception 'invalid schedule: %', schedule
      using hint = 'Use cron format (e.g. 5 4 * * *), or interval format ''[1-59] seconds''';
  end if;
  if job_name is not null then
    update cron.job j
       set schedule = schedule, command = command, active = true
     where j.jobname = job_name and j.username = caller
    returning j.jobid into id;
    if id is not null then
      return id;
    end if;
  end if;
  insert into cron.job (schedule, command, username, jobname)
  values (schedule, command, caller, job_name)
  returning jobid into id;
  return id;
end;
$$;
comment on function cron.schedule(text, text, text) is 'schedule a pg_cron job';

create or replace function cron.schedule(schedule text, command text)
  returns bigint
  language sql
  security definer
  set search_path = ''
as $$
  select cron.schedule(null::text, schedule, command)
$$;
comment on function cron.schedule(text, text) is 'schedule a pg_cron job';

create or replace function cron.schedule_in_database(
  job_name text,
  schedule text,
  command text,
  database text,
  username text default null,
  active boolean default 'true'
)
  returns bigint
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  id bigint;
begin
  id := cron.schedule(job_name, schedule, command);
  update cron.job j
     set database = schedule_in_database.database,
         username = coalesce(schedule_in_database.username, j.username),
         active = schedule_in_database.active
   where j.jobid = id;
  return id;
end;
$$;
comment on function cron.schedule_in_database(text, text, text, text, text, boolean) is 'schedule a pg_cron job';

create or replace function cron.unschedule(job_id bigint)
  returns boolean
  language plpgsql
  strict
  security definer
  set search_path = ''
as $$
declare
  caller text := cron._caller();
begin
  delete from cron.job j
   where j.jobid = job_id
     and (j.username = caller or exists (select 1 from pg_catalog.pg_roles r where r.rolname = caller and r.rolsuper));
  if not found then
    raise exception 'could not find valid entry for job %', job_id;
  end if;
  return true;
end;
$$;
comment on function cron.unschedule(bigint) is 'unschedule a pg_cron job';

create or replace function cron.unschedule(job_name text)
  returns boolean
  language plpgsql
  strict
  security definer
  set search_path = ''
as $$
declare
  caller text := cron._caller();
begin
  delete from cron.job j where j.jobname = job_name and j.username = caller;
  if not found then
    raise exception 'could not find valid entry for job ''%''', job_name;
  end if;
  return true;
end;
$$;
comment on function cron.unschedule(text) is 'unschedule a pg_cron job';

create or replace function cron.alter_job(
  job_id bigint,
  schedule text default null,
  command text default null,
  database text default null,
  username text default null,
  active boolean default null
)
  returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  caller text := cron._caller();
begin
  if schedule is not null and not cron._valid_schedule(schedule) then
    raise exception 'invalid schedule: %', schedule;
  end if;
  update cron.job j
     set schedule = coalesce(alter_job.schedule, j.schedule),
         command = coalesce(alter_job.command, j.command),
         database = coalesce(alter_job.database, j.database),
         username = coalesce(alter_job.username, j.username),
         active = coalesce(alter_job.active, j.active)
   where j.jobid = job_id
     and (j.username = caller or exists (select 1 from pg_catalog.pg_roles r where r.rolname = caller and r.rolsuper));
  if not found then
    raise exception 'Job % does not exist or you don''t own it', job_id;
  end if;
end;
$$;
comment on function cron.alter_job(bigint, text, text, text, text, boolean) is
  'Alter the job identified by job_id. Any option left as NULL will not be modified.';

-- Wakes the worker at once after a change (it also polls every second).
create or replace function cron.job_cache_invalidate() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  perform pg_notify('cron_job_cache_invalidate', '');
  return null;
end;
$$;
drop trigger if exists cron_job_cache_invalidate on cron.job;
create trigger cron_job_cache_invalidate
  after insert or update or delete or truncate on cron.job
  for each statement execute function cron.job_cache_invalidate();

-- Grants as on Supabase: the schema and its functions are for postgres, not for the API roles.
revoke all on schema cron from public;
revoke all on all functions in schema cron from public;
grant usage on schema cron to postgres with grant option;
grant all on all tables in schema cron to postgres with grant option;
grant all on all sequences in schema cron to postgres with grant option;
grant execute on all functions in schema cron to postgres with grant option;

-- =====================================================================================
-- pg_net
-- =====================================================================================
create schema if not exists net;
comment on schema net is 'pg_net emulation of the local stack (requests executed by the stack''s net worker)';

do $$
begin
  if not exists (select 1 from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'net' and t.typname = 'http_method') then
    create domain net.http_method as text
      check (value ilike 'get' or value ilike 'post' or value ilike 'delete');
  end if;
  if not exists (select 1 from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'net' and t.typname = 'request_status') then
    create type net.request_status as enum ('PENDING', 'SUCCESS', 'ERROR');
  end if;
  if not exists (select 1 from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'net' and t.typname = 'http_response') then
    create type net.http_response as (status_code integer, headers jsonb, body text);
  end if;
  if not exists (select 1 from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'net' and t.typname = 'http_response_result') then
    create type net.http_response_result as (status net.request_status, message text, response net.http_response);
  end if;
end
$$;

-- Pending requests; the worker deletes a row when it picks it up.
create unlogged table if not exists net.http_request_queue (
  id bigserial,
  method net.http_method not null,
  url text not null,
  headers jsonb,
  body bytea,
  timeout_milliseconds int not null
);
comment on table net.http_request_queue is 'pg_net: requests waiting for the worker (sent after the enqueuing transaction commits)';

-- Responses (kept 6 hours, pg_net.ttl).
create unlogged table if not exists net._http_response (
  id bigint,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out bool,
  error_msg text,
  created timestamptz not null default now()
);
create index if not exists _http_response_created_idx on net._http_response (created);
comment on table net._http_response is 'pg_net: one row per finished request (id = request id); error_msg set when no HTTP response';

-- Percent-encodes a string (RFC 3986 unreserved characters stay as they are).
create or replace function net._urlencode_string(string varchar)
  returns text
  language plpgsql
  immutable
  set search_path = ''
as $$
declare
  bytes bytea := convert_to(string, 'UTF8');
  out text := '';
  b int;
begin
  if string is null then
    return null;
  end if;
  for i in 0 .. length(bytes) - 1 loop
    b := get_byte(bytes, i);
    if (b between 48 and 57) or (b between 65 and 90) or (b between 97 and 122) or b in (45, 46, 95, 126) then
      out := out || chr(b);
    else
      out := out || '%' || upper(lpad(to_hex(b), 2, '0'));
    end if;
  end loop;
  return out;
end;
$$;

create or replace function net._encode_url_with_params_array(url text, params_array text[])
  returns text
  language sql
  immutable
  set search_path = ''
as $$
  select case
    when params_array is null or cardinality(params_array) = 0 then url
    when position('?' in url) > 0 then url || '&' || array_to_string(params_array, '&')
    else url || '?' || array_to_string(params_array, '&')
  end
$$;

-- pg_net's worker functions; the local worker is the stack's Node process (application_name
-- 'pg_net worker'), woken by NOTIFY pg_net_wake.
create or replace function net.wake() returns void
  language sql
  set search_path = ''
as $$ select pg_notify('pg_net_wake', '') $$;

create or replace function net.worker_restart() returns boolean
  language sql
  set search_path = ''
as $$ select pg_notify('pg_net_wake', '') is not null $$;

create or replace function net.wait_until_running() returns void
  language plpgsql
  set search_path = ''
as $$
begin
  for i in 1 .. 200 loop
    if exists (select 1 from pg_catalog.pg_stat_activity where application_name = 'pg_net worker') then
      return;
    end if;
    perform pg_sleep(0.05);
  end loop;
end;
$$;
comment on function net.wait_until_running() is 'waits until the worker is running';

create or replace function net.check_worker_is_up() returns void
  language plpgsql
  set search_path = ''
as $$
begin
  if not exists (select 1 from pg_catalog.pg_stat_activity where application_name = 'pg_net worker') then
    raise exception using
      message = 'the pg_net background worker is not up',
      detail = 'the local stack''s net worker is not connected',
      hint = 'start the local stack (npm run stack:start)';
  end if;
end;
$$;
comment on function net.check_worker_is_up() is 'raises an exception if the pg_net background worker is not up, otherwise it doesn''t return anything';

create or replace function net._await_response(request_id bigint)
  returns boolean
  language plpgsql
  set search_path = ''
as $$
declare
  rec net._http_response;
begin
  while rec is null loop
    select * into rec from net._http_response where id = request_id;
    if rec is null then
      perform pg_sleep(0.05);
    end if;
  end loop;
  return true;
end;
$$;

create or replace function net.http_get(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds int default 5000
)
  returns bigint
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  request_id bigint;
  params_array text[];
begin
  select coalesce(array_agg(net._urlencode_string(key) || '=' || net._urlencode_string(value)), '{}')
    into params_array
    from jsonb_each_text(params);
  insert into net.http_request_queue (method, url, headers, timeout_milliseconds)
  values ('GET', net._encode_url_with_params_array(url, params_array), headers, timeout_milliseconds)
  returning id into request_id;
  perform net.wake();
  return request_id;
end;
$$;
comment on function net.http_get(text, jsonb, jsonb, integer) is 'queue an HTTP GET; returns the request id (sent after commit)';

create or replace function net.http_post(
  url text,
  body jsonb default '{}'::jsonb,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds int default 5000
)
  returns bigint
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  request_id bigint;
  params_array text[];
  content_type text;
begin
  select header_value into content_type
    from jsonb_each_text(coalesce(headers, '{}'::jsonb)) r(header_name, header_value)
   where lower(header_name) = 'content-type'
   limit 1;
  if content_type is null then
    headers := coalesce(headers, '{}'::jsonb) || '{"Content-Type": "application/json"}'::jsonb;
  end if;
  if content_type <> 'application/json' then
    raise exception 'Content-Type header must be "application/json"';
  end if;
  select coalesce(array_agg(net._urlencode_string(key) || '=' || net._urlencode_string(value)), '{}')
    into params_array
    from jsonb_each_text(params);
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values ('POST', net._encode_url_with_params_array(url, params_array), headers, convert_to(body::text, 'UTF8'), timeout_milliseconds)
  returning id into request_id;
  perform net.wake();
  return request_id;
end;
$$;
comment on function net.http_post(text, jsonb, jsonb, jsonb, integer) is 'queue an HTTP POST with a JSON body; returns the request id (sent after commit)';

create or replace function net.http_delete(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds int default 5000,
  body jsonb default null
)
  returns bigint
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  request_id bigint;
  params_array text[];
begin
  select coalesce(array_agg(net._urlencode_string(key) || '=' || net._urlencode_string(value)), '{}')
    into params_array
    from jsonb_each_text(params);
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values ('DELETE', net._encode_url_with_params_array(url, params_array), headers, convert_to(body::text, 'UTF8'), timeout_milliseconds)
  returning id into request_id;
  perform net.wake();
  return request_id;
end;
$$;
comment on function net.http_delete(text, jsonb, jsonb, integer, jsonb) is 'queue an HTTP DELETE; returns the request id (sent after commit)';

create or replace function net._http_collect_response(request_id bigint, async boolean default true)
  returns net.http_response_result
  language plpgsql
  set search_path = ''
as $$
declare
  rec net._http_response;
begin
  if not async then
    perform net._await_response(request_id);
  end if;
  select * into rec from net._http_response where id = request_id;
  if rec is null or rec.error_msg is not null then
    return ('ERROR', coalesce(rec.error_msg, 'request matching request_id not found'), null)::net.http_response_result;
  end if;
  return ('SUCCESS', 'ok', (rec.status_code, rec.headers, rec.content)::net.http_response)::net.http_response_result;
end;
$$;

create or replace function net.http_collect_response(request_id bigint, async boolean default true)
  returns net.http_response_result
  language plpgsql
  set search_path = ''
as $$
begin
  raise notice 'The net.http_collect_response function is deprecated.';
  return net._http_collect_response(request_id, async);
end;
$$;

revoke all on schema net from public;
revoke all on all functions in schema net from public;
revoke all on all tables in schema net from public;
revoke all on all sequences in schema net from public;
grant usage on schema net to postgres with grant option;
grant all on all tables in schema net to postgres with grant option;
grant all on all sequences in schema net to postgres with grant option;
grant execute on all functions in schema net to postgres with grant option;

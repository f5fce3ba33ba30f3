-- =====================================================================================
-- Supabase bootstrap, part 30: the `realtime` schema as hosted Supabase has it.
--   realtime.messages        broadcast messages (Broadcast from Database) and the table whose
--                            RLS policies authorise private channels (select = receive,
--                            insert = send), with RLS enabled and no policies by default
--   realtime.topic()         the channel topic being authorised (GUC realtime.topic)
--   realtime.send()          insert a broadcast message (never raises; warns instead)
--   realtime.send_binary()   same with a bytea payload
--   realtime.broadcast_changes()  trigger helper that sends a row change as a broadcast
-- Plus the publications the local Realtime service streams with logical replication:
--   supabase_realtime                         (postgres_changes; created empty in 00)
--   supabase_realtime_messages_publication    (realtime.messages, Broadcast from Database)
-- Source of the definitions: supabase/realtime tenant migrations (messages table, send,
-- broadcast_changes, topic) and its tenant schema dump (grants).
-- Difference to hosted: realtime.messages is a plain table, not partitioned by day.
-- =====================================================================================

create schema if not exists realtime;
grant usage on schema realtime to postgres, anon, authenticated, service_role;

do $$
begin
  if not exists (select from pg_roles where rolname = 'supabase_realtime_admin') then
    create role supabase_realtime_admin nologin noinherit;
  end if;
end
$$;
grant all on schema realtime to supabase_realtime_admin;

create table if not exists realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp without time zone not null default now(),
  inserted_at timestamp without time zone not null default now(),
  id uuid not null default gen_random_uuid(),
  binary_payload bytea,
  constraint messages_pkey primary key (id, inserted_at),
  constraint messages_payload_exclusive check (payload is null or binary_payload is null)
);
create index if not exists messages_inserted_at_topic_index
  on realtime.messages using btree (inserted_at desc, topic)
  where extension = 'broadcast' and private is true;

alter table realtime.messages owner to supabase_realtime_admin;
alter table realtime.messages enable row level security;

grant all on table realtime.messages to postgres, dashboard_user;
grant select, insert, update on table realtime.messages to anon, authenticated, service_role;

-- The topic of the channel being authorised; set by the Realtime service (and realtime.send)
-- as the transaction-local GUC `realtime.topic`. NULL when unset.
create or replace function realtime.topic() returns text
language sql stable
as $$
  select nullif(current_setting('realtime.topic', true), '')::text;
$$;

-- Broadcast from Database: inserts a broadcast message for `topic`. Runs as the caller (RLS on
-- realtime.messages applies); errors are turned into a WARNING so the calling transaction
-- (e.g. a trigger) never fails because of it. Adds an `id` to the payload when absent.
create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void
language plpgsql
as $$
declare
  generated_id uuid;
  final_payload jsonb;
begin
  begin
    generated_id := gen_random_uuid();
    if payload ? 'id' then
      final_payload := payload;
    else
      final_payload := jsonb_set(payload, '{id}', to_jsonb(generated_id));
    end if;

    execute format('SET LOCAL realtime.topic TO %L', topic);

    insert into realtime.messages (id, payload, event, topic, private, extension)
    values (generated_id, final_payload, event, topic, private, 'broadcast');
  exception
    when others then
      raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$;

create or replace function realtime.send_binary(payload bytea, event text, topic text, private boolean default true)
returns void
language plpgsql
as $$
declare
  generated_id uuid;
begin
  begin
    generated_id := gen_random_uuid();

    execute format('SET LOCAL realtime.topic TO %L', topic);

    insert into realtime.messages (id, binary_payload, event, topic, private, extension)
    values (generated_id, payload, event, topic, private, 'broadcast');
  exception
    when others then
      raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$;

-- Trigger helper: sends {old_record, record, operation, table, schema} as a broadcast to
-- `topic_name` with event `event_name` (private channel, as on Supabase).
create or replace function realtime.broadcast_changes(
  topic_name text,
  event_name text,
  operation text,
  table_name text,
  table_schema text,
  new record,
  old record,
  level text default 'ROW'::text
)
returns void
language plpgsql
as $$
declare
  row_data jsonb := '{}'::jsonb;
begin
  if level = 'STATEMENT' then
    raise exception 'function can only be triggered for each row, not for each statement';
  end if;
  if operation = 'INSERT' or operation = 'UPDATE' or operation = 'DELETE' then
    row_data := jsonb_build_object('old_record', old, 'record', new, 'operation', operation, 'table', table_name, 'schema', table_schema);
    perform realtime.send(row_data, event_name, topic_name);
  else
    raise exception 'Unexpected operation type: %', operation;
  end if;
exception
  when others then
    raise exception 'Failed to process the row: %', sqlerrm;
end;
$$;

alter function realtime.topic() owner to supabase_realtime_admin;
alter function realtime.send(jsonb, text, text, boolean) owner to supabase_realtime_admin;
alter function realtime.send_binary(bytea, text, text, boolean) owner to supabase_realtime_admin;
alter function realtime.broadcast_changes(text, text, text, text, text, record, record, text) owner to supabase_realtime_admin;

grant all on function realtime.topic() to postgres, dashboard_user;
grant all on function realtime.send(jsonb, text, text, boolean) to postgres, dashboard_user;
grant all on function realtime.send_binary(bytea, text, text, boolean) to postgres, dashboard_user;
grant all on function realtime.broadcast_changes(text, text, text, text, text, record, record, text) to postgres, dashboard_user;

-- ---------- publications streamed by the local Realtime service ----------
do $$
begin
  if not exists (select from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
  if not exists (select from pg_publication where pubname = 'supabase_realtime_messages_publication') then
    create publication supabase_realtime_messages_publication for table realtime.messages with (publish = 'insert');
  end if;
end
$$;

-- =====================================================================================
-- Supabase bootstrap, part 20: the `storage` schema as a hosted project has it after
-- storage-api's tenant migrations (tables, helper functions, triggers, grants, RLS).
-- Column names and function signatures follow supabase/storage (migrations/tenant), so
-- project migrations that create policies on storage.objects apply unchanged.
-- Row-level security is enabled on every table with no policy: the project's migrations
-- decide who may do what, as on Supabase. service_role has bypassrls.
-- Applied once, as the postgres superuser, on a fresh data directory (after 00-roles-schemas).
-- =====================================================================================

create schema if not exists storage authorization supabase_storage_admin;
grant usage on schema storage to postgres, anon, authenticated, service_role;
grant all on schema storage to postgres;

-- ---------- tables ----------
create table if not exists storage.migrations (
  id integer primary key,
  name varchar(100) unique not null,
  hash varchar(40) not null,
  executed_at timestamp default current_timestamp
);
comment on table storage.migrations is 'storage-api tenant migrations applied (kept for tools that read it).';

do $$
begin
  create type storage.buckettype as enum ('STANDARD', 'ANALYTICS', 'VECTOR');
exception when duplicate_object then null;
end
$$;

create table if not exists storage.buckets (
  id text not null primary key,
  name text not null,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  owner_id text,
  type storage.buckettype not null default 'STANDARD'
);
create unique index if not exists bname on storage.buckets using btree (name);
comment on table storage.buckets is 'Storage buckets; read and written by the Storage API as the caller (RLS applies).';
comment on column storage.buckets.owner is 'Field is deprecated, use owner_id instead';
comment on column storage.buckets.file_size_limit is 'Maximum object size in bytes (null: the global upload limit).';
comment on column storage.buckets.allowed_mime_types is 'Accepted content types, e.g. {image/png,image/*} (null or empty: any).';

create table if not exists storage.objects (
  id uuid not null default gen_random_uuid() primary key,
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  owner_id text,
  user_metadata jsonb
);
create unique index if not exists bucketid_objname on storage.objects using btree (bucket_id, name);
create index if not exists name_prefix_search on storage.objects using btree (name text_pattern_ops);
create index if not exists idx_objects_bucket_id_name on storage.objects (bucket_id, name collate "C");
comment on table storage.objects is 'Stored objects (bytes live in the Storage backend); RLS policies here authorise uploads, downloads, moves and deletes.';
comment on column storage.objects.owner is 'Field is deprecated, use owner_id instead';
comment on column storage.objects.metadata is 'System metadata: eTag, size, mimetype, cacheControl, lastModified, contentLength, httpStatusCode.';
comment on column storage.objects.user_metadata is 'Custom metadata given by the uploader (x-metadata / form field metadata).';

-- ---------- helper functions (used in RLS policies) ----------
create or replace function storage.foldername(name text) returns text[]
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1 : array_length(_parts, 1) - 1];
end
$$;

create or replace function storage.filename(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

create or replace function storage.extension(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

-- The operation the Storage API is performing (e.g. 'object.upload'), for policies that care.
create or replace function storage.operation() returns text
language plpgsql stable
as $$
begin
  return current_setting('storage.operation', true);
end
$$;

create or replace function storage.get_size_by_bucket()
returns table (size bigint, bucket_id text)
language plpgsql stable
as $$
begin
  return query
    select sum((obj.metadata ->> 'size')::bigint) as size, obj.bucket_id
    from storage.objects as obj
    group by obj.bucket_id;
end
$$;

-- storage.search: one level of a "folder" listing, as storage-api's POST /object/list calls it:
-- `prefix` ends with '/' (or is ''), `search` filters names starting with it (case-insensitive),
-- `levels` is the path depth listed. Folders come back as rows with id null. Security invoker:
-- RLS on storage.objects decides which rows the caller sees.
create or replace function storage.search(
  prefix text,
  bucketname text,
  limits int default 100,
  levels int default 1,
  offsets int default 0,
  search text default '',
  sortcolumn text default 'name',
  sortorder text default 'asc'
)
returns table (
  name text,
  id uuid,
  updated_at timestamptz,
  created_at timestamptz,
  last_accessed_at timestamptz,
  metadata jsonb
)
security invoker
language plpgsql stable
as $$
declare
  v_match text := lower(coalesce(prefix, '') || coalesce(search, ''));
  v_start int := coalesce(array_length(string_to_array(coalesce(prefix, ''), '/'), 1), 1);
  v_levels int := coalesce(array_length(string_to_array(coalesce(prefix, '') || coalesce(search, ''), '/'), 1), 1);
  v_dir text := case when lower(coalesce(sortorder, 'asc')) = 'desc' then 'desc' else 'asc' end;
  v_column text := case lower(coalesce(sortcolumn, 'name'))
    when 'updated_at' then 'updated_at'
    when 'created_at' then 'created_at'
    when 'last_accessed_at' then 'last_accessed_at'
    else 'name' end;
  v_order text;
begin
  if v_column = 'name' then
    v_order := format('lower(e.name) collate "C" %s, e.name collate "C" %s', v_dir, v_dir);
  else
    -- folders first (by name), then files by the requested column, as storage-api does
    v_order := format('(e.id is not null), e.%I %s nulls last, e.name collate "C" asc', v_column, v_dir);
  end if;

  return query execute format(
    $sql$
    with matched as (
      select o.id, o.name, o.path_tokens, o.updated_at, o.created_at, o.last_accessed_at, o.metadata
      from storage.objects o
      where o.bucket_id = $1
        and left(lower(o.name), length($2)) = $2
    ),
    entries as (
      select array_to_string(m.path_tokens[$3:$4], '/') as name,
             null::uuid as id, null::timestamptz as updated_at, null::timestamptz as created_at,
             null::timestamptz as last_accessed_at, null::jsonb as metadata
      from matched m
      where array_length(m.path_tokens, 1) > $4
      group by 1
      union all
      select array_to_string(m.path_tokens[$3:$4], '/') as name,
             m.id, m.updated_at, m.created_at, m.last_accessed_at, m.metadata
      from matched m
      where array_length(m.path_tokens, 1) = $4
    )
    select e.name, e.id, e.updated_at, e.created_at, e.last_accessed_at, e.metadata
    from entries e
    order by %s
    limit $5 offset $6
    $sql$, v_order)
  using bucketname, v_match, v_start, v_levels, least(coalesce(limits, 100), 1500), greatest(coalesce(offsets, 0), 0);
end
$$;

-- ---------- triggers ----------
create or replace function storage.update_updated_at_column() returns trigger
language plpgsql
as $$
begin
  new.updated_at = now();
  return new;
end
$$;

drop trigger if exists update_objects_updated_at on storage.objects;
create trigger update_objects_updated_at
  before update on storage.objects
  for each row execute function storage.update_updated_at_column();

-- Hosted Supabase refuses direct `delete from storage.*` (it would orphan the stored bytes);
-- the Storage API sets storage.allow_delete_query for its own deletes.
create or replace function storage.protect_delete() returns trigger
language plpgsql
as $$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), 'false') != 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using hint = 'This prevents accidental data loss from orphaned objects.',
            errcode = '42501';
  end if;
  return null;
end
$$;

drop trigger if exists protect_buckets_delete on storage.buckets;
create trigger protect_buckets_delete
  before delete on storage.buckets
  for each statement execute function storage.protect_delete();

drop trigger if exists protect_objects_delete on storage.objects;
create trigger protect_objects_delete
  before delete on storage.objects
  for each statement execute function storage.protect_delete();

-- ---------- row-level security: enabled, no default policies ----------
alter table storage.migrations enable row level security;
alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

-- ---------- ownership and grants (as storage-api's 0046/0049 migrations) ----------
alter table storage.migrations owner to supabase_storage_admin;
alter table storage.buckets owner to supabase_storage_admin;
alter table storage.objects owner to supabase_storage_admin;

grant all on storage.buckets, storage.objects to postgres with grant option;
grant all on storage.buckets, storage.objects to anon, authenticated, service_role;
grant all on storage.migrations to postgres, service_role;
grant execute on all functions in schema storage to postgres, anon, authenticated, service_role;

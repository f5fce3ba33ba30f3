-- =============================================================================
-- Portfolios and their supporting files (issue 8)
-- =============================================================================
-- The files' bytes live in the private bucket portfolio-files (storage policies in 22_storage.sql,
-- the bucket itself in the data migration); downloads are decided by
-- private.can_read_portfolio_file.

-- -----------------------------------------------------------------------------
-- Types
-- -----------------------------------------------------------------------------

create type public.content_status as enum ('draft', 'published');

create type public.file_access as enum ('public', 'members', 'contacts', 'private');
comment on type public.file_access is
  'Who may download a portfolio''s supporting files: everyone, signed-in users, accepted contacts, only the owner.';

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table public.portfolios (
  id bigint generated always as identity primary key,
  owner_id uuid not null references public.profiles (id) on delete cascade,
  title text not null check (char_length(title) between 3 and 140),
  slug text not null check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 100),
  description_de text not null default '' check (char_length(description_de) <= 20000),
  description_en text not null default '' check (char_length(description_en) <= 20000),
  skills text[] not null default '{}' check (cardinality(skills) <= 50),
  links jsonb not null default '[]'::jsonb check (jsonb_typeof(links) = 'array' and jsonb_array_length(links) <= 20),
  images text[] not null default '{}' check (cardinality(images) <= 20),
  category public.project_category,
  city text check (char_length(city) <= 100),
  file_access public.file_access not null default 'members',
  status public.content_status not null default 'draft',
  published_at timestamptz,
  owner_listed boolean not null default false,
  owner_premium boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint portfolios_links_urls check (private.are_labelled_links(links)),
  constraint portfolios_images_refs check (private.are_image_refs(images))
);
comment on table public.portfolios is 'Work samples with German and English descriptions; supporting files in portfolio_files.';
comment on column public.portfolios.links is 'Array of {"label": text, "url": http(s) URL}.';
comment on column public.portfolios.images is 'Object paths in the portfolio-files bucket or http(s) URLs.';
comment on column public.portfolios.file_access is 'Who may download the supporting files (signed URLs are issued through storage RLS).';
comment on column public.portfolios.owner_listed is 'Owner confirmed, visible and not suspended; maintained by trigger (search filter).';
comment on column public.portfolios.owner_premium is 'Owner on premium/enterprise; maintained by trigger (search preference, spec §6).';
create index portfolios_owner_idx on public.portfolios (owner_id, created_at desc);
create index portfolios_published_idx on public.portfolios (published_at desc, id desc) where status = 'published';
create index portfolios_category_idx on public.portfolios (category, published_at desc) where status = 'published';
create index portfolios_city_idx on public.portfolios (city, published_at desc) where status = 'published';
alter table public.portfolios enable row level security;
revoke all on public.portfolios from anon, authenticated;
grant select (id, owner_id, title, slug, description_de, description_en, skills, links, images, category,
              city, file_access, status, published_at, created_at, updated_at)
  on public.portfolios to anon, authenticated;
grant insert (owner_id, title, slug, description_de, description_en, skills, links, images, category, city,
              file_access, status)
  on public.portfolios to authenticated;
grant update (title, slug, description_de, description_en, skills, links, images, category, city, file_access,
              status)
  on public.portfolios to authenticated;
grant delete on public.portfolios to authenticated;

create table public.portfolio_files (
  id bigint generated always as identity primary key,
  portfolio_id bigint not null references public.portfolios (id) on delete cascade,
  owner_id uuid not null references public.profiles (id) on delete cascade,
  object_path text not null unique check (char_length(object_path) <= 500),
  file_name text not null check (char_length(file_name) between 1 and 200),
  mime_type text not null check (mime_type in (
    'application/pdf', 'image/jpeg', 'image/png', 'image/webp', 'image/gif',
    'application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.ms-excel', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.ms-powerpoint', 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/vnd.oasis.opendocument.text', 'text/plain')),
  size_bytes bigint not null check (size_bytes between 1 and 20971520),
  created_at timestamptz not null default now(),
  constraint portfolio_files_path_in_owner_folder check (
    object_path like (owner_id::text || '/' || portfolio_id::text || '/%'))
);
comment on table public.portfolio_files is
  'Supporting files of a portfolio (PDF, images, office documents; max 20 MB). Bytes live in bucket portfolio-files.';
comment on column public.portfolio_files.object_path is 'Name in storage.objects: "<owner id>/<portfolio id>/<file name>".';
create index portfolio_files_portfolio_idx on public.portfolio_files (portfolio_id);
create index portfolio_files_owner_idx on public.portfolio_files (owner_id);
alter table public.portfolio_files enable row level security;
revoke all on public.portfolio_files from anon, authenticated;
grant select (id, portfolio_id, owner_id, object_path, file_name, mime_type, size_bytes, created_at)
  on public.portfolio_files to anon, authenticated;
grant insert (portfolio_id, owner_id, object_path, file_name, mime_type, size_bytes)
  on public.portfolio_files to authenticated;
grant update (file_name) on public.portfolio_files to authenticated;
grant delete on public.portfolio_files to authenticated;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

create or replace function private.prepare_portfolio()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.owner_id is distinct from old.owner_id and not private.is_privileged() then
    raise exception using errcode = '42501', message = 'protected_column', detail = 'owner_id cannot change.';
  end if;
  if new.slug is null or new.slug = ''
     or (tg_op = 'UPDATE' and new.title is distinct from old.title and new.slug = old.slug) then
    new.slug := private.slugify(new.title);
  end if;
  if new.status = 'published' and new.published_at is null then
    new.published_at := pg_catalog.now();
  end if;
  return new;
end;
$$;
comment on function private.prepare_portfolio() is 'BEFORE INSERT/UPDATE on portfolios: slug, published_at, owner immutable.';
create trigger portfolios_prepare before insert or update on public.portfolios
  for each row execute function private.prepare_portfolio();
create trigger portfolios_owner_flags before insert or update on public.portfolios
  for each row execute function private.set_owner_flags('owner_id');
create trigger portfolios_updated_at before update on public.portfolios
  for each row execute function private.set_updated_at();
create trigger portfolios_paid_access before insert on public.portfolios
  for each row execute function private.require_paid_access();
create trigger portfolio_files_paid_access before insert on public.portfolio_files
  for each row execute function private.require_paid_access();

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

create or replace function private.owns_portfolio(p_portfolio_id bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.portfolios where id = p_portfolio_id and owner_id = auth.uid())
$$;
comment on function private.owns_portfolio(bigint) is 'True when auth.uid() owns the portfolio.';

-- Download rule for a supporting file (by object path): owner and admin always; others when the
-- portfolio is published, the owner is not hidden from the caller, and file_access allows it.
create or replace function private.can_read_portfolio_file(p_object_path text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.portfolio_files f
    join public.portfolios p on p.id = f.portfolio_id
    where f.object_path = p_object_path
      and (
        p.owner_id = auth.uid()
        or private.is_admin()
        or (p.status = 'published'
            and not (p.owner_id = any (private.hidden_user_ids()))
            and (p.file_access = 'public'
                 or (p.file_access = 'members' and auth.uid() is not null)
                 or (p.file_access = 'contacts' and exists (
                       select 1 from public.contacts c
                       where c.status = 'accepted'
                         and ((c.requester_id = p.owner_id and c.addressee_id = auth.uid())
                           or (c.addressee_id = p.owner_id and c.requester_id = auth.uid())))))))
  )
$$;
comment on function private.can_read_portfolio_file(text) is 'Storage RLS: may the caller download this portfolio file?';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

create policy portfolios_select on public.portfolios for select to anon, authenticated
using (
  owner_id = (select auth.uid())
  or (select private.is_admin())
  or (status = 'published' and not (owner_id = any ((select private.hidden_user_ids())::uuid[])))
);
create policy portfolios_insert on public.portfolios for insert to authenticated
with check (owner_id = (select auth.uid()) and (select private.caller_can_write()));
create policy portfolios_update on public.portfolios for update to authenticated
using ((select private.caller_can_write()) and (owner_id = (select auth.uid()) or (select private.is_admin())))
with check (owner_id = (select auth.uid()) or (select private.is_admin()));
create policy portfolios_delete on public.portfolios for delete to authenticated
using ((select private.caller_can_write()) and (owner_id = (select auth.uid()) or (select private.is_admin())));
-- File metadata is listed with the portfolio; the download itself is decided by storage RLS.
create policy portfolio_files_select on public.portfolio_files for select to anon, authenticated
using (
  owner_id = (select auth.uid())
  or (select private.is_admin())
  or private.can_read_portfolio_file(object_path)
);
create policy portfolio_files_insert on public.portfolio_files for insert to authenticated
with check (owner_id = (select auth.uid()) and private.owns_portfolio(portfolio_id) and (select private.caller_can_write()));
create policy portfolio_files_update on public.portfolio_files for update to authenticated
using (owner_id = (select auth.uid()) and (select private.caller_can_write()))
with check (owner_id = (select auth.uid()) and private.owns_portfolio(portfolio_id));
create policy portfolio_files_delete on public.portfolio_files for delete to authenticated
using (owner_id = (select auth.uid()) or (select private.is_admin()));

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function private.owns_portfolio(bigint),
  private.can_read_portfolio_file(text) to anon, authenticated, service_role;

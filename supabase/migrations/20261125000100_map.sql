-- =============================================================================
-- The interactive map (issue 14): coordinates from the city gazetteer, city-level people,
-- bounding-box queries on GiST indexes, one RPC for all four layers
-- =============================================================================
-- * People are placed at their city's coordinates (public.cities) and nowhere more precise: a
--   trigger overwrites whatever latitude/longitude a client writes on a profile. A city that is
--   not in the gazetteer keeps the written position rounded to 0.1° (about 11 × 7 km). Business
--   profiles (spec §3: their display address is public) may opt in to exact coordinates.
-- * The triggers run as definer: they read the gazetteer for whoever writes (users, service role).
-- * Projects, events and jobs get their city's coordinates when the client gives none (or
--   changes the city but not the coordinates); events with a venue may carry exact ones.
-- * public.map_items(bounds, zoom, filters) returns the visible items of the requested layers,
--   nearest to the centre of the bounds first, at most max_rows per layer, with a "capped" signal
--   ("zoom in to see more"). It applies the same visibility as search (published content of
--   listed owners, nobody the caller blocked or who blocked the caller, no suspended account) and
--   returns only map columns.

-- -----------------------------------------------------------------------------
-- Exact location opt-in for business profiles
-- -----------------------------------------------------------------------------
alter table public.profiles add column show_exact_location boolean not null default false;
comment on column public.profiles.show_exact_location is
  'Business profiles only: true = the map shows the written coordinates (the business address); otherwise the city''s (issue 14).';
grant select (show_exact_location) on public.profiles to anon, authenticated;
grant update (show_exact_location) on public.profiles to authenticated;

-- -----------------------------------------------------------------------------
-- Gazetteer lookups and coordinate triggers
-- -----------------------------------------------------------------------------

/*
 * Coordinates of a city from the gazetteer.
 * Input: a city name (case and surrounding spaces ignored). Output: point(longitude, latitude)
 * in WGS84 degrees, or null when the city is unknown or the name is null.
 */
create or replace function private.city_point(p_city text)
returns point
language sql
stable
parallel safe
set search_path = ''
as $$
  select pg_catalog.point(c.longitude, c.latitude) from public.cities c
  where pg_catalog.lower(c.name) = pg_catalog.lower(pg_catalog.btrim(p_city))
$$;
comment on function private.city_point(text) is 'point(longitude, latitude) of a gazetteer city by name, or null (issue 14).';

/*
 * BEFORE INSERT/UPDATE on profiles: a person's coordinates are their city's (issue 14 privacy).
 * Business profiles with show_exact_location keep the written coordinates. A city outside the
 * gazetteer keeps the written position rounded to one decimal (about 11 km); no city and no
 * position gives null. Whatever a client writes, nothing more precise is stored.
 */
create or replace function private.profile_map_position()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v point;
begin
  if new.type = 'business' and new.show_exact_location and new.latitude is not null and new.longitude is not null then
    return new;
  end if;
  v := private.city_point(new.city);
  if v is not null then
    new.longitude := v[0];
    new.latitude := v[1];
  elsif new.latitude is not null and new.longitude is not null then
    new.latitude := pg_catalog.round(new.latitude::numeric, 1)::double precision;
    new.longitude := pg_catalog.round(new.longitude::numeric, 1)::double precision;
  else
    new.latitude := null;
    new.longitude := null;
  end if;
  return new;
end;
$$;
comment on function private.profile_map_position() is
  'Profiles: coordinates are the city''s (gazetteer) or rounded to 0.1°, exact only for business profiles that opt in (issue 14).';

create trigger profiles_map_position
  before insert or update of city, latitude, longitude, type, show_exact_location on public.profiles
  for each row execute function private.profile_map_position();

/*
 * BEFORE INSERT/UPDATE on projects, events and jobs: without coordinates (or with a new city but
 * the old coordinates) the row gets its city's coordinates from the gazetteer, or none when the
 * city is unknown; without a city (online events, remote jobs) it has none. Coordinates the
 * client writes together with the city (an event's venue) are kept.
 */
create or replace function private.content_map_position()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v point;
  v_moved boolean := tg_op = 'UPDATE' and new.city is distinct from old.city
    and new.latitude is not distinct from old.latitude and new.longitude is not distinct from old.longitude;
begin
  if new.city is null or pg_catalog.btrim(new.city) = '' then
    if v_moved then
      new.latitude := null;
      new.longitude := null;
    end if;
    return new;
  end if;
  if new.latitude is null or new.longitude is null or v_moved then
    v := private.city_point(new.city);
    new.longitude := v[0];
    new.latitude := v[1];
  end if;
  return new;
end;
$$;
comment on function private.content_map_position() is
  'Projects, events, jobs: coordinates from the city (gazetteer) unless the client wrote them with the city (issue 14).';

create trigger projects_map_position before insert or update of city, latitude, longitude on public.projects
  for each row execute function private.content_map_position();
create trigger events_map_position before insert or update of city, latitude, longitude on public.events
  for each row execute function private.content_map_position();
create trigger jobs_map_position before insert or update of city, latitude, longitude on public.jobs
  for each row execute function private.content_map_position();

-- existing rows: people move to their city; content without coordinates gets its city's
update public.profiles p set latitude = p.latitude
where p.latitude is not null or p.city is not null;
update public.projects p set latitude = c.latitude, longitude = c.longitude
from public.cities c where (p.latitude is null or p.longitude is null) and pg_catalog.lower(c.name) = pg_catalog.lower(pg_catalog.btrim(p.city));
update public.events e set latitude = c.latitude, longitude = c.longitude
from public.cities c where (e.latitude is null or e.longitude is null) and pg_catalog.lower(c.name) = pg_catalog.lower(pg_catalog.btrim(e.city));
update public.jobs j set latitude = c.latitude, longitude = c.longitude
from public.cities c where (j.latitude is null or j.longitude is null) and pg_catalog.lower(c.name) = pg_catalog.lower(pg_catalog.btrim(j.city));

-- -----------------------------------------------------------------------------
-- Bounding-box indexes (GiST on point(longitude, latitude); KNN order by distance to a centre)
-- -----------------------------------------------------------------------------
create index profiles_map_idx on public.profiles using gist (point(longitude, latitude))
  where listed and latitude is not null and longitude is not null;
create index projects_map_idx on public.projects using gist (point(longitude, latitude))
  where status = 'published' and owner_listed and latitude is not null and longitude is not null;
create index events_map_idx on public.events using gist (point(longitude, latitude))
  where status in ('published', 'upcoming', 'ongoing') and owner_listed and latitude is not null and longitude is not null;
create index jobs_map_idx on public.jobs using gist (point(longitude, latitude))
  where latitude is not null and longitude is not null;
-- a category filter: equality and position in one GiST index (btree_gist), so a filtered layer
-- still stops after its share instead of skipping through every other category
create extension if not exists btree_gist with schema extensions;
create index projects_map_category_idx on public.projects using gist (category, point(longitude, latitude))
  where status = 'published' and owner_listed and latitude is not null and longitude is not null;
create index events_map_category_idx on public.events using gist (category, point(longitude, latitude))
  where status in ('published', 'upcoming', 'ongoing') and owner_listed and latitude is not null and longitude is not null;
create index jobs_map_category_idx on public.jobs using gist (category, point(longitude, latitude))
  where latitude is not null and longitude is not null;

-- -----------------------------------------------------------------------------
-- The map RPC
-- -----------------------------------------------------------------------------

/*
 * Items for the interactive map (issue 14; spec §1, §9).
 *
 * Input: bounds in WGS84 degrees (west < east within -180..180, south < north within -90..90);
 * zoom 0..24 (map zoom, decides how many city labels come back); layers ⊆ {people, projects,
 * events, jobs} (null = all); category (public.project_category: projects' public category,
 * people's categories, events, jobs); date_from/date_to (events overlapping these days, Berlin
 * time; default: not yet ended); include_remote (false drops remote jobs); max_rows 1..1000 per
 * layer (default 500).
 *
 * Output (json): { "items": { "people": [item], "projects": [item], "events": [item + starts_at,
 * ends_at], "jobs": [item without slug + remote] } with item = { id, slug, title, subtitle,
 * category, city, lat, lon }, "capped": boolean, "capped_layers": [layer], "cities": [{ name,
 * lat, lon, count }] }. The bounds are cut into a 4 × 4 grid; per layer each cell returns its
 * ceil(max_rows / 16) items nearest to the cell's centre, so a layer returns at most about
 * max_rows items spread over the whole area.
 * capped = some cell of some layer had more ("zoom in to see more"); cities = gazetteer labels
 * for the cities the items are in, most populous first. subtitle: headline, summary, venue or
 * company, at most 160 characters.
 *
 * Visibility as search: people listed (confirmed and visible), content published by listed
 * owners, events not drafts/cancelled/finished, jobs not expired; nobody in
 * private.hidden_user_ids() (blocks either way, suspended accounts). People's coordinates are
 * city-level (trigger private.profile_map_position).
 *
 * Plan: each cell of each layer reads its partial GiST index with the cell as index condition and
 * the distance to the cell's centre as index order, so it stops after its share + 1 rows. The planner cannot estimate
 * a point-in-box condition (it assumes 0.1 %) and would otherwise collect every row in the box
 * and sort them (130 ms instead of 3 ms for Germany on the benchmark data), hence bitmap scans and
 * sorts are made unattractive for this function's statements. Plans are always made for the
 * actual arguments (force_custom_plan): `v_cat is null or category = v_cat` then folds to the
 * indexable `category = …` of the (category, position) indexes, or away.
 *
 * Errors (22023, HTTP 400): invalid_bounds, invalid_zoom, invalid_layer, invalid_category,
 * invalid_limit, invalid_date_range.
 */
create or replace function public.map_items(
  west double precision,
  south double precision,
  east double precision,
  north double precision,
  zoom double precision default null,
  layers text[] default null,
  category text default null,
  date_from date default null,
  date_to date default null,
  include_remote boolean default true,
  max_rows integer default 500
)
returns json
language plpgsql
stable
security definer
set search_path = ''
set enable_bitmapscan = off
set enable_sort = off
set plan_cache_mode = force_custom_plan
as $$
declare
  v_all constant text[] := array['people', 'projects', 'events', 'jobs'];
  v_layers text[] := coalesce(layers, v_all);
  v_limit integer := coalesce(max_rows, 500);
  v_box box;
  v_center point;
  v_cat public.project_category;
  v_hidden uuid[] := private.hidden_user_ids();
  v_from timestamptz;
  v_to timestamptz;
  v_remote boolean := coalesce(include_remote, true);
  v_labels integer;
  v_dx double precision := (east - west) / 4;
  v_dy double precision := (north - south) / 4;
  v_tile_limit integer;
begin
  if west is null or south is null or east is null or north is null
     or not (west between -180 and 180) or not (east between -180 and 180)
     or not (south between -90 and 90) or not (north between -90 and 90)
     or west >= east or south >= north then
    raise exception using errcode = '22023', message = 'invalid_bounds',
      detail = 'Bounds are WGS84 degrees with west < east in -180..180 and south < north in -90..90.';
  end if;
  if zoom is not null and not (zoom between 0 and 24) then
    raise exception using errcode = '22023', message = 'invalid_zoom', detail = 'zoom is between 0 and 24.';
  end if;
  if pg_catalog.cardinality(v_layers) = 0 or not (v_layers <@ v_all) or pg_catalog.array_position(v_layers, null) is not null then
    raise exception using errcode = '22023', message = 'invalid_layer',
      detail = 'layers are people, projects, events and jobs.';
  end if;
  if v_limit not between 1 and 1000 then
    raise exception using errcode = '22023', message = 'invalid_limit', detail = 'max_rows is between 1 and 1000.';
  end if;
  if category is not null and category <> '' then
    if not (category = any (pg_catalog.enum_range(null::public.project_category)::text[])) then
      raise exception using errcode = '22023', message = 'invalid_category', detail = 'Unknown category.';
    end if;
    v_cat := category::public.project_category;
  end if;
  if date_from is not null and date_to is not null and date_from > date_to then
    raise exception using errcode = '22023', message = 'invalid_date_range', detail = 'date_from is after date_to.';
  end if;

  v_box := pg_catalog.box(pg_catalog.point(west, south), pg_catalog.point(east, north));
  v_center := pg_catalog.point((west + east) / 2, (south + north) / 2);
  v_from := coalesce(date_from::timestamp at time zone 'Europe/Berlin', pg_catalog.now());
  v_to := (date_to + 1)::timestamp at time zone 'Europe/Berlin';
  v_tile_limit := pg_catalog.ceil(v_limit / 16.0)::integer;
  v_labels := case when coalesce(zoom, 6) < 5 then 8 when coalesce(zoom, 6) < 7 then 20 when zoom < 9 then 60 else 150 end;

  return (
    with tiles as (
      -- a 4 × 4 grid over the bounds: each cell gets its share of the rows, so a capped answer is
      -- spread over the whole area instead of piling up around the centre
      select g as tile, pg_catalog.box(pg_catalog.point(west + (g % 4) * v_dx, south + (g / 4) * v_dy),
                                       pg_catalog.point(west + (g % 4 + 1) * v_dx, south + (g / 4 + 1) * v_dy)) as b,
             pg_catalog.point(west + (g % 4 + 0.5) * v_dx, south + (g / 4 + 0.5) * v_dy) as c,
             case when g % 4 = 3 then 181 else west + (g % 4 + 1) * v_dx end as e,
             case when g / 4 = 3 then 91 else south + (g / 4 + 1) * v_dy end as n
      from pg_catalog.generate_series(0, 15) g
    ),
    found as (
      select 1 as layer_no, 'people' as layer, t.tile, x.*
      from tiles t cross join lateral (
        select p.id::text as id, p.slug, private.public_display_name(p.firstname, p.lastname, p.slug) as title,
               p.headline as subtitle, p.categories[1]::text as category, p.city, p.latitude as lat, p.longitude as lon,
               null::timestamptz as starts_at, null::timestamptz as ends_at, null::boolean as remote,
               pg_catalog.point(p.longitude, p.latitude) <-> t.c as d
        from public.profiles p
        where 'people' = any (v_layers)
          and p.listed and p.latitude is not null and p.longitude is not null
          and pg_catalog.point(p.longitude, p.latitude) <@ t.b and p.longitude < t.e and p.latitude < t.n
          and (v_cat is null or v_cat = any (p.categories))
          and not (p.id = any (v_hidden))
        order by d
        limit v_tile_limit + 1) x
      union all
      select 2, 'projects', t.tile, x.*
      from tiles t cross join lateral (
        select p.id::text, p.slug, p.title, p.summary, coalesce(p.category::text, p.private_category::text), p.city,
               p.latitude, p.longitude, null::timestamptz, null::timestamptz, null::boolean,
               pg_catalog.point(p.longitude, p.latitude) <-> t.c as d
        from public.projects p
        where 'projects' = any (v_layers)
          and p.status = 'published' and p.owner_listed and p.latitude is not null and p.longitude is not null
          and pg_catalog.point(p.longitude, p.latitude) <@ t.b and p.longitude < t.e and p.latitude < t.n
          and (v_cat is null or p.category = v_cat)
          and not (p.owner_id = any (v_hidden))
        order by d
        limit v_tile_limit + 1) x
      union all
      select 3, 'events', t.tile, x.*
      from tiles t cross join lateral (
        select e.id::text, e.slug, e.title, e.venue_name, e.category::text, e.city, e.latitude, e.longitude,
               e.starts_at, e.ends_at, null::boolean, pg_catalog.point(e.longitude, e.latitude) <-> t.c as d
        from public.events e
        where 'events' = any (v_layers)
          and e.status in ('published', 'upcoming', 'ongoing') and e.owner_listed
          and e.latitude is not null and e.longitude is not null
          and pg_catalog.point(e.longitude, e.latitude) <@ t.b and e.longitude < t.e and e.latitude < t.n
          and e.ends_at >= v_from and (v_to is null or e.starts_at < v_to)
          and (v_cat is null or e.category = v_cat)
          and not (e.organizer_id = any (v_hidden))
        order by d
        limit v_tile_limit + 1) x
      union all
      select 4, 'jobs', t.tile, x.*
      from tiles t cross join lateral (
        select j.id, null::text, j.title, j.company, j.category::text, j.city, j.latitude, j.longitude,
               null::timestamptz, null::timestamptz, j.remote, pg_catalog.point(j.longitude, j.latitude) <-> t.c as d
        from public.jobs j
        where 'jobs' = any (v_layers)
          and j.latitude is not null and j.longitude is not null
          and pg_catalog.point(j.longitude, j.latitude) <@ t.b and j.longitude < t.e and j.latitude < t.n
          and (j.expires_at is null or j.expires_at > pg_catalog.now())
          and (v_remote or not j.remote)
          and (v_cat is null or j.category = v_cat)
        order by d
        limit v_tile_limit + 1) x
    ),
    ranked as (
      select f.*, row_number() over (partition by f.layer_no, f.tile order by f.d) as rn from found f
    ),
    shown as (
      select r.layer_no, r.tile, r.rn, r.layer, r.id, r.slug, r.title, pg_catalog.left(r.subtitle, 160) as subtitle, r.category,
             r.city, r.lat, r.lon, r.starts_at, r.ends_at, r.remote
      from ranked r where r.rn <= v_tile_limit
    ),
    labels as (
      -- by name through cities_name_key (a few dozen names), not by scanning the box
      select ci.name, ci.latitude as lat, ci.longitude as lon, n.n as count
      from (select pg_catalog.lower(s.city) as city, count(*) as n from shown s where s.city is not null group by 1) n
      cross join lateral (
        select c.name, c.latitude, c.longitude, c.population from public.cities c
        where pg_catalog.lower(c.name) = n.city and pg_catalog.point(c.longitude, c.latitude) <@ v_box
      ) ci
      order by ci.population desc
      limit v_labels
    )
    select pg_catalog.json_build_object(
      -- per layer only its own fields (json_agg of rows: a third cheaper than json_build_object per
      -- item; no layer name and no empty fields repeated in every item)
      'items', pg_catalog.json_build_object(
        'people', coalesce((select pg_catalog.json_agg(i) from (
                    select s.id, s.slug, s.title, s.subtitle, s.category, s.city, s.lat, s.lon
                    from shown s where s.layer_no = 1 order by s.tile, s.rn) i), '[]'::json),
        'projects', coalesce((select pg_catalog.json_agg(i) from (
                    select s.id, s.slug, s.title, s.subtitle, s.category, s.city, s.lat, s.lon
                    from shown s where s.layer_no = 2 order by s.tile, s.rn) i), '[]'::json),
        'events', coalesce((select pg_catalog.json_agg(i) from (
                    select s.id, s.slug, s.title, s.subtitle, s.category, s.city, s.lat, s.lon, s.starts_at, s.ends_at
                    from shown s where s.layer_no = 3 order by s.tile, s.rn) i), '[]'::json),
        'jobs', coalesce((select pg_catalog.json_agg(i) from (
                    select s.id, s.title, s.subtitle, s.category, s.city, s.lat, s.lon, s.remote
                    from shown s where s.layer_no = 4 order by s.tile, s.rn) i), '[]'::json)),
      'capped', exists (select 1 from ranked r where r.rn > v_tile_limit),
      'capped_layers', coalesce((select pg_catalog.json_agg(c.layer order by c.layer_no) from (
                 select distinct r.layer_no, r.layer from ranked r where r.rn > v_tile_limit) c), '[]'::json),
      'cities', coalesce((select pg_catalog.json_agg(l) from labels l), '[]'::json))
  );
end;
$$;
comment on function public.map_items(double precision, double precision, double precision, double precision, double precision, text[], text, date, date, boolean, integer) is
  'Map items in a bounding box for the visible layers with filters, nearest to the centre first, capped per layer (issue 14).';

revoke all on function public.map_items(double precision, double precision, double precision, double precision, double precision, text[], text, date, date, boolean, integer) from public;
grant execute on function public.map_items(double precision, double precision, double precision, double precision, double precision, text[], text, date, date, boolean, integer) to anon, authenticated;

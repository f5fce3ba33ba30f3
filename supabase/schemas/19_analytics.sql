-- =============================================================================
-- Analytics (issue 15 "Analytics"): views and clicks per item and day, privacy by design
-- =============================================================================
-- What is stored: only aggregated daily counts per (item type, item id, day, metric) in
-- private.analytics_daily. Never who viewed: no user id, no IP, no user agent, no cookie id.
--
-- One view per visitor, item and day: the first track call of a day (Europe/Berlin) creates that
-- day's random salt (private.analytics_salts). The de-duplication key is
-- sha256(salt ‖ client IP ‖ user agent ‖ item type ‖ item id ‖ metric); it is kept only for
-- the day (private.analytics_seen) and never in clear. Because the item is part of the hash, the
-- keys of one visitor on different items cannot even be linked with each other. Salts and keys
-- of past days are deleted by the first call of the next day and by a daily cron job; once the
-- salt is gone, nobody (not even the operator) can recompute a key from an IP address.
--
-- Not counted: visitors without consent to statistics cookies (the SPA's consent cookie, see
-- frontend/src/lib/consent.ts; the call states the choice and a call without consent stores
-- nothing), bots and headless browsers (user-agent patterns, and every agent that is not a
-- browser's "Mozilla/…" string), owners viewing their own items.
--
-- Recording is an RPC (public.analytics_track), not an Edge Function: PostgREST already passes
-- the gateway-set client address and the user agent in `request.headers`
-- (private.request_client_ip, issue 12), auth.uid() tells whether the visitor is the owner without
-- verifying a JWT a second time, the rate limit (private.enforce_rate_limit) and the upsert are
-- one transaction, and a page view costs one round trip instead of two (function runner → API).
--
-- Reading: public.analytics_report (series per day of the last 90 days, totals and change
-- against the previous 90 days) and public.analytics_csv, authorised per item by
-- private.analytics_can_read (owners of an item; organisation admins and owners read their
-- organisation's page and the items published under it; contract of issue 15), and with
-- p_organization_id the whole organisation (/org/{slug}/analytics).
--
-- Item types: 'organization' | 'profile' | 'project' | 'job' | 'event'. Item ids are text because
-- the items' keys differ: profiles uuid, projects and events bigint, jobs a text id,
-- organisations uuid.

-- -----------------------------------------------------------------------------
-- Storage
-- -----------------------------------------------------------------------------

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table private.analytics_daily (
  item_type text not null check (item_type in ('organization', 'profile', 'project', 'job', 'event')),
  item_id text not null check (char_length(item_id) between 1 and 120),
  day date not null,
  metric text not null check (metric in ('view', 'connect_click', 'apply_click', 'external_link_click', 'contact_request_received')),
  count integer not null default 0 check (count >= 0),
  primary key (item_type, item_id, day, metric) include (count)
);
comment on table private.analytics_daily is
  'Issue 15: aggregated daily counts per item and metric (Europe/Berlin days). No visitor identity of any kind. The primary key (count included) serves the per-item range reads of analytics_report as index-only scans.';
comment on column private.analytics_daily.item_id is 'Key of the item as text (profile/organisation uuid, project/event bigint, job text id).';
comment on column private.analytics_daily.count is 'Distinct visitors (view, clicks: once per visitor, item, metric and day) or contact requests received that day.';
alter table private.analytics_daily enable row level security;
revoke all on private.analytics_daily from public, anon, authenticated, service_role;

create table private.analytics_salts (
  day date primary key,
  salt bytea not null check (octet_length(salt) = 32)
);
comment on table private.analytics_salts is
  'Issue 15: one random salt per day for the de-duplication keys; deleted after the day, so past keys can never be recomputed.';
alter table private.analytics_salts enable row level security;
revoke all on private.analytics_salts from public, anon, authenticated, service_role;

create table private.analytics_seen (
  day date not null,
  key bytea not null check (octet_length(key) = 32),
  primary key (day, key)
);
comment on table private.analytics_seen is
  'Issue 15: sha256(day salt, client IP, user agent, item, metric) of what was counted today; only for de-duplication, deleted after the day.';
alter table private.analytics_seen enable row level security;
revoke all on private.analytics_seen from public, anon, authenticated, service_role;

-- Roll-ups (issue 34): the reports of many items read these instead of aggregating
-- private.analytics_daily per request. Maintained as data arrives (statement trigger on
-- analytics_daily), recomputed rather than incremented where a window is involved, so a repeated
-- refresh gives the same numbers.

create table private.analytics_item_totals (
  item_type text not null,
  item_id text not null,
  metric text not null,
  as_of date not null,
  cur bigint not null,
  prev bigint not null,
  primary key (item_type, item_id, metric)
);
comment on table private.analytics_item_totals is
  'Issue 34: per item and metric the sum of the last 90 days (cur, as_of - 89 .. as_of) and of the 90 days before (prev), as of a day (Europe/Berlin). No row = nothing in 180 days. Rows of an earlier as_of are refreshed by the report that reads them and nightly (private.analytics_roll_forward).';
alter table private.analytics_item_totals enable row level security;
revoke all on private.analytics_item_totals from public, anon, authenticated, service_role;

create table private.analytics_scopes (
  scope text primary key,
  items_hash text not null,
  built_at timestamptz not null default pg_catalog.now(),
  used_at timestamptz not null default pg_catalog.now()
);
comment on table private.analytics_scopes is
  'Issue 34: a report selection with a day-by-day roll-up ("user:<id>:<type|*>" or "org:<id>:<type|*>"); items_hash = md5 of the sorted item keys it was built from. A report whose items differ rebuilds it; unused for 30 days it is dropped.';
alter table private.analytics_scopes enable row level security;
revoke all on private.analytics_scopes from public, anon, authenticated, service_role;

create table private.analytics_scope_items (
  scope text not null references private.analytics_scopes (scope) on delete cascade,
  item_type text not null,
  item_id text not null,
  primary key (scope, item_type, item_id)
);
comment on table private.analytics_scope_items is 'Issue 34: the items a scope''s roll-up sums (a new count of one of them is added to the scope''s day).';
create index analytics_scope_items_item_idx on private.analytics_scope_items (item_type, item_id);
alter table private.analytics_scope_items enable row level security;
revoke all on private.analytics_scope_items from public, anon, authenticated, service_role;

create table private.analytics_scope_daily (
  scope text not null references private.analytics_scopes (scope) on delete cascade,
  day date not null,
  metric text not null,
  count bigint not null,
  primary key (scope, day, metric) include (count)
);
comment on table private.analytics_scope_daily is 'Issue 34: per scope, day and metric the sum over the scope''s items (days of the last 180 days and later).';
alter table private.analytics_scope_daily enable row level security;
revoke all on private.analytics_scope_daily from public, anon, authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

/* Contact requests received: counted from the contacts table (a pending request addressed to the
   profile). Server-side business data, no cookie involved. */
create or replace function private.analytics_count_contact_request()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'pending' then
    perform private.analytics_add('profile', new.addressee_id::text, 'contact_request_received', private.analytics_today(), 1);
  end if;
  return null;
end;
$$;
comment on function private.analytics_count_contact_request() is 'Issue 15: counts a contact request received for the addressee''s profile.';
create trigger contacts_analytics_count
  after insert on public.contacts
  for each row execute function private.analytics_count_contact_request();

/* Deleting an item deletes its counters (a deleted account leaves nothing behind). */
create or replace function private.analytics_forget_item()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.analytics_daily a
  where a.item_type = tg_argv[0] and a.item_id = pg_catalog.to_jsonb(old) ->> 'id';
  -- the roll-ups of the person's or organisation's reports (issue 34) name them: gone with them
  if tg_argv[0] in ('profile', 'organization') then
    delete from private.analytics_scopes s
    where s.scope like (case tg_argv[0] when 'profile' then 'user:' else 'org:' end) || (pg_catalog.to_jsonb(old) ->> 'id') || ':%';
  end if;
  return null;
end;
$$;
comment on function private.analytics_forget_item() is 'Issue 15: deletes the counters of a deleted item (trigger argument: item type), and a deleted person''s or organisation''s report roll-ups (issue 34).';
create trigger profiles_analytics_forget after delete on public.profiles for each row execute function private.analytics_forget_item('profile');
create trigger projects_analytics_forget after delete on public.projects for each row execute function private.analytics_forget_item('project');
create trigger jobs_analytics_forget after delete on public.jobs for each row execute function private.analytics_forget_item('job');
create trigger events_analytics_forget after delete on public.events for each row execute function private.analytics_forget_item('event');
create trigger organizations_analytics_forget after delete on public.organizations for each row execute function private.analytics_forget_item('organization');

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

/* Today's analytics day (Europe/Berlin, the platform's market). */
create or replace function private.analytics_today()
returns date
language sql
stable
set search_path = ''
as $$
  select (pg_catalog.now() at time zone 'Europe/Berlin')::date
$$;
comment on function private.analytics_today() is 'Issue 15: the current analytics day (calendar day in Europe/Berlin).';

/* Deletes salts and de-duplication keys of past days. Returns the number of rows deleted. */
create or replace function private.analytics_cleanup()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_salts integer;
  v_seen integer;
begin
  delete from private.analytics_salts where day < private.analytics_today();
  get diagnostics v_salts = row_count;
  delete from private.analytics_seen where day < private.analytics_today();
  get diagnostics v_seen = row_count;
  return v_salts + v_seen;
end;
$$;
comment on function private.analytics_cleanup() is
  'Issue 15: deletes the salts and de-duplication keys of past days (run by the first track call of a day and by cron at 00:05).';

/* True when a user agent is a bot, crawler, headless browser or script, or no browser at all.
   Browsers all send "Mozilla/5.0 …"; crawlers that imitate one mostly name themselves. */
create or replace function private.analytics_is_bot(p_user_agent text)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select p_user_agent is null
    or p_user_agent !~* '^mozilla/'
    or p_user_agent ~* '(bot|crawl|spider|slurp|headless|phantomjs|puppeteer|playwright|selenium|webdriver|lighthouse|pagespeed|gtmetrix|pingdom|uptime|monitor|preview|facebookexternalhit|embedly|whatsapp|scrapy|python|curl|wget|httpclient|okhttp|go-http-client|java/|node-fetch|axios|undici|electron/.*headless)'
$$;
comment on function private.analytics_is_bot(text) is
  'Issue 15: bots, crawlers, link previews, headless browsers, scripts and agents that are no browser (no "Mozilla/" prefix) are not counted.';

/* The user an item belongs to, whether it is public (may be counted at all), and the organisation
   it is (its page) or is published under. An organisation page is public and has no single owner
   (its members are excluded by analytics_is_own_item, its admins read it). */
create or replace function private.analytics_item(p_item_type text, p_item_id text, out owner_id uuid, out is_public boolean, out title text, out slug text, out org_id uuid)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  is_public := false;
  if p_item_type = 'organization' and p_item_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    -- an organisation page has no single owner: its members are its owners here, its admins read it
    select null::uuid, true, o.name, o.slug, o.id
      into owner_id, is_public, title, slug, org_id
      from public.organizations o where o.id = p_item_id::uuid;
  elsif p_item_type = 'profile' and p_item_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    select p.id, p.listed, private.public_display_name(p.firstname, p.lastname, p.slug), p.slug
      into owner_id, is_public, title, slug
      from public.profiles p where p.id = p_item_id::uuid;
  elsif p_item_type = 'project' and p_item_id ~ '^[0-9]{1,18}$' then
    select p.owner_id, p.status = 'published', p.title, p.id::text || '-' || p.slug, p.organization_id
      into owner_id, is_public, title, slug, org_id
      from public.projects p where p.id = p_item_id::bigint;
  elsif p_item_type = 'event' and p_item_id ~ '^[0-9]{1,18}$' then
    select e.organizer_id, e.status <> 'draft', e.title, e.slug, e.organization_id
      into owner_id, is_public, title, slug, org_id
      from public.events e where e.id = p_item_id::bigint;
  elsif p_item_type = 'job' then
    select j.posted_by, true, j.title, j.id, j.organization_id
      into owner_id, is_public, title, slug, org_id
      from public.jobs j where j.id = p_item_id;
  end if;
  is_public := coalesce(is_public, false);
end;
$$;
comment on function private.analytics_item(text, text) is
  'Issue 15: owner, public state, title, path key (slug; project: id-slug; job: id) and organisation of an analytics item; is_public false when unknown.';

/* True when p_user_id's own visit of the item must not be counted (the item is theirs, or belongs
   to an organisation they are a member of). */
create or replace function private.analytics_is_own_item(p_item_type text, p_item_id text, p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_user_id is not null
    and coalesce((select i.owner_id = p_user_id or (i.org_id is not null and private.is_organization_member(i.org_id, p_user_id))
                  from private.analytics_item(p_item_type, p_item_id) i), false)
$$;
comment on function private.analytics_is_own_item(text, text, uuid) is
  'Issue 15: the visitor owns the item, or is a member of the organisation it is, or is published under (their views and clicks are not counted).';

/* Authorisation of the analytics of one item (contract of issue 15): the item's owner with the
   Premium plan or better (spec §6; Enterprise members and admins count as enterprise through
   private.match_plan), or an owner/admin of the organisation the item is (its page) or is
   published under (organization_id of projects, jobs and events). */
create or replace function private.analytics_can_read(p_item_type text, p_item_id text, p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_user_id is not null
    and p_item_type in ('organization', 'profile', 'project', 'job', 'event')
    and private.plan_rank(private.match_plan(p_user_id)) >= private.plan_rank('premium')
    and coalesce((select i.owner_id = p_user_id or (i.org_id is not null and private.is_organization_admin(i.org_id, p_user_id))
                  from private.analytics_item(p_item_type, p_item_id) i), false)
$$;
comment on function private.analytics_can_read(text, text, uuid) is
  'Issue 15: may p_user_id read the analytics of the item? Its owner, or an owner/admin of the organisation it is or is published under; Premium or better (organisation members count as Enterprise).';

/* The items whose analytics a user reads on /user/analytics: their profile, projects, jobs and
   events (those they may read). Organisations list theirs separately (/org/{slug}/analytics). */
create or replace function private.analytics_items_of(p_user_id uuid)
returns table (item_type text, item_id text, title text, slug text)
language sql
stable
security definer
set search_path = ''
as $$
  select 'profile', p.id::text, private.public_display_name(p.firstname, p.lastname, p.slug), p.slug
    from public.profiles p where p.id = p_user_id
  union all
  select 'project', p.id::text, p.title, p.id::text || '-' || p.slug from public.projects p where p.owner_id = p_user_id
  union all
  select 'job', j.id, j.title, j.id from public.jobs j where j.posted_by = p_user_id
  union all
  select 'event', e.id::text, e.title, e.slug from public.events e where e.organizer_id = p_user_id
$$;
comment on function private.analytics_items_of(uuid) is 'Issue 15: a person''s own analytics items (profile, projects, jobs, events).';

/* Adds p_count to one daily counter. */
create or replace function private.analytics_add(p_item_type text, p_item_id text, p_metric text, p_day date, p_count integer)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.analytics_daily as a (item_type, item_id, day, metric, count)
  values (p_item_type, p_item_id, p_day, p_metric, p_count)
  on conflict (item_type, item_id, day, metric) do update set count = a.count + excluded.count
$$;
comment on function private.analytics_add(text, text, text, date, integer) is 'Issue 15: adds to one daily counter (upsert).';

/* Recomputes the 90-day windows of the given (item type, item id, metric) keys (parallel arrays)
   as of today from private.analytics_daily: cur = days today-89 .. today, prev = today-179 ..
   today-90. Keys with nothing in either window lose their row. Idempotent (issue 34). */
create or replace function private.analytics_refresh_totals(p_types text[], p_ids text[], p_metrics text[])
returns void
language sql
security definer
set search_path = ''
as $$
  with k as (
    select distinct u.t, u.i, u.m from rows from (pg_catalog.unnest(p_types), pg_catalog.unnest(p_ids), pg_catalog.unnest(p_metrics)) u(t, i, m)
  ),
  s as (
    select k.t, k.i, k.m,
           coalesce(sum(a.count) filter (where a.day >= private.analytics_today() - 89), 0)::bigint as cur,
           coalesce(sum(a.count) filter (where a.day <= private.analytics_today() - 90), 0)::bigint as prev
    from k
    left join private.analytics_daily a
      on a.item_type = k.t and a.item_id = k.i and a.metric = k.m
     and a.day between private.analytics_today() - 179 and private.analytics_today()
    group by k.t, k.i, k.m
  ),
  gone as (
    delete from private.analytics_item_totals x using s
    where x.item_type = s.t and x.item_id = s.i and x.metric = s.m and s.cur = 0 and s.prev = 0
  )
  insert into private.analytics_item_totals as x (item_type, item_id, metric, as_of, cur, prev)
  select s.t, s.i, s.m, private.analytics_today(), s.cur, s.prev from s where s.cur <> 0 or s.prev <> 0
  on conflict (item_type, item_id, metric) do update set as_of = excluded.as_of, cur = excluded.cur, prev = excluded.prev
$$;
comment on function private.analytics_refresh_totals(text[], text[], text[]) is
  'Issue 34: recomputes private.analytics_item_totals of the given item/metric keys as of today (idempotent).';

/* Statement trigger of private.analytics_daily (insert, update, delete; transition tables): adds
   the change per day and metric to every scope holding the item (private.analytics_scope_daily)
   and recomputes the touched items' 90-day windows (issue 34). */
create or replace function private.analytics_daily_rollup()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_types text[];
  v_ids text[];
  v_days date[];
  v_metrics text[];
  v_deltas bigint[];
begin
  if tg_op = 'INSERT' then
    select pg_catalog.array_agg(n.item_type), pg_catalog.array_agg(n.item_id), pg_catalog.array_agg(n.day), pg_catalog.array_agg(n.metric),
           pg_catalog.array_agg(n.count::bigint)
      into v_types, v_ids, v_days, v_metrics, v_deltas from new_rows n;
  elsif tg_op = 'DELETE' then
    select pg_catalog.array_agg(o.item_type), pg_catalog.array_agg(o.item_id), pg_catalog.array_agg(o.day), pg_catalog.array_agg(o.metric),
           pg_catalog.array_agg(-o.count::bigint)
      into v_types, v_ids, v_days, v_metrics, v_deltas from old_rows o;
  else
    select pg_catalog.array_agg(d.item_type), pg_catalog.array_agg(d.item_id), pg_catalog.array_agg(d.day), pg_catalog.array_agg(d.metric),
           pg_catalog.array_agg(d.n)
      into v_types, v_ids, v_days, v_metrics, v_deltas
      from (select n.item_type, n.item_id, n.day, n.metric, n.count::bigint as n from new_rows n
            union all
            select o.item_type, o.item_id, o.day, o.metric, -o.count::bigint from old_rows o) d;
  end if;
  if v_types is null then
    return null;
  end if;
  insert into private.analytics_scope_daily as s (scope, day, metric, count)
  select si.scope, d.day, d.metric, sum(d.n)
  from rows from (pg_catalog.unnest(v_types), pg_catalog.unnest(v_ids), pg_catalog.unnest(v_days), pg_catalog.unnest(v_metrics), pg_catalog.unnest(v_deltas)) d(t, i, day, metric, n)
  join private.analytics_scope_items si on si.item_type = d.t and si.item_id = d.i
  group by si.scope, d.day, d.metric
  on conflict (scope, day, metric) do update set count = s.count + excluded.count;
  perform private.analytics_refresh_totals(v_types, v_ids, v_metrics);
  return null;
end;
$$;
comment on function private.analytics_daily_rollup() is
  'Issue 34: keeps the roll-ups (analytics_scope_daily, analytics_item_totals) in step with private.analytics_daily.';
create trigger analytics_daily_rollup_insert after insert on private.analytics_daily
  referencing new table as new_rows for each statement execute function private.analytics_daily_rollup();
create trigger analytics_daily_rollup_update after update on private.analytics_daily
  referencing old table as old_rows new table as new_rows for each statement execute function private.analytics_daily_rollup();
create trigger analytics_daily_rollup_delete after delete on private.analytics_daily
  referencing old table as old_rows for each statement execute function private.analytics_daily_rollup();

/* Makes the roll-up of a report selection (p_scope, see private.analytics_scopes) hold exactly
   the given items (parallel arrays): nothing to do when it was built from the same items, else it
   is rebuilt from private.analytics_daily (the last 180 days). While it rebuilds, counts being
   written wait (share lock on analytics_daily), so none is missed or added twice (issue 34). */
create or replace function private.analytics_scope_sync(p_scope text, p_types text[], p_ids text[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_hash text := pg_catalog.md5(coalesce((
    select pg_catalog.string_agg(u.t || ':' || u.i, ',' order by u.t, u.i)
    from (select distinct x.t, x.i from rows from (pg_catalog.unnest(p_types), pg_catalog.unnest(p_ids)) x(t, i)) u), ''));
begin
  if exists (select 1 from private.analytics_scopes s where s.scope = p_scope and s.items_hash = v_hash) then
    update private.analytics_scopes s set used_at = pg_catalog.now()
    where s.scope = p_scope and s.used_at < pg_catalog.now() - interval '1 day';
    return;
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('analytics_scope:' || p_scope));
  if exists (select 1 from private.analytics_scopes s where s.scope = p_scope and s.items_hash = v_hash) then
    return;
  end if;
  lock table private.analytics_daily in share mode;
  delete from private.analytics_scopes s where s.scope = p_scope;
  insert into private.analytics_scopes (scope, items_hash) values (p_scope, v_hash);
  insert into private.analytics_scope_items (scope, item_type, item_id)
  select distinct p_scope, x.t, x.i from rows from (pg_catalog.unnest(p_types), pg_catalog.unnest(p_ids)) x(t, i);
  insert into private.analytics_scope_daily (scope, day, metric, count)
  select p_scope, a.day, a.metric, sum(a.count)
  from private.analytics_scope_items si
  join private.analytics_daily a on a.item_type = si.item_type and a.item_id = si.item_id and a.day >= private.analytics_today() - 179
  where si.scope = p_scope
  group by a.day, a.metric;
end;
$$;
comment on function private.analytics_scope_sync(text, text[], text[]) is
  'Issue 34: (re)builds the day-by-day roll-up of a report selection when its items changed.';

/* Nightly (cron 00:10): moves every item's 90-day windows to the new day, drops scope days older
   than 180 days and scopes no report read for 30 days. Returns the number of item/metric rows
   refreshed (issue 34). */
create or replace function private.analytics_roll_forward()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_types text[];
  v_ids text[];
  v_metrics text[];
begin
  select pg_catalog.array_agg(x.item_type), pg_catalog.array_agg(x.item_id), pg_catalog.array_agg(x.metric)
    into v_types, v_ids, v_metrics
    from private.analytics_item_totals x where x.as_of <> private.analytics_today();
  if v_types is not null then
    perform private.analytics_refresh_totals(v_types, v_ids, v_metrics);
  end if;
  delete from private.analytics_scope_daily d where d.day < private.analytics_today() - 179;
  delete from private.analytics_scopes s where s.used_at < pg_catalog.now() - interval '30 days';
  return coalesce(pg_catalog.cardinality(v_types), 0);
end;
$$;
comment on function private.analytics_roll_forward() is
  'Issue 34: nightly roll-forward of the analytics roll-ups (item windows to today, old scope days and unused scopes dropped).';

/* The items of an organisation's analytics (/org/{slug}/analytics, issue 15): its page, the
   profiles of its members who agreed to be listed, and the projects, jobs and events published
   under it. */
create or replace function private.analytics_organization_items(p_organization_id uuid)
returns table (item_type text, item_id text, title text, slug text)
language sql
stable
security definer
set search_path = ''
as $$
  select 'organization', o.id::text, o.name, o.slug from public.organizations o where o.id = p_organization_id
  union all
  select 'profile', p.id::text, private.public_display_name(p.firstname, p.lastname, p.slug), p.slug
    from public.organization_members m join public.profiles p on p.id = m.user_id
    where m.organization_id = p_organization_id and m.listed
  union all
  select 'project', p.id::text, p.title, p.id::text || '-' || p.slug from public.projects p where p.organization_id = p_organization_id
  union all
  select 'job', j.id, j.title, j.id from public.jobs j where j.organization_id = p_organization_id
  union all
  select 'event', e.id::text, e.title, e.slug from public.events e where e.organization_id = p_organization_id
$$;
comment on function private.analytics_organization_items(uuid) is
  'Issue 15: the items of an organisation''s analytics: its page, its listed members'' profiles, its projects, jobs and events.';

/* The items of a report: one item (p_item_type/p_item_id given, must be readable) or all of the
   caller's own items, or with p_organization_id the items of that organisation (its owners and
   admins; 42501 not_organization_admin otherwise). Errors: 28000 not signed in; PT402 premium_required (plan below Premium);
   22023 invalid_item_type; 42501 forbidden (an item the caller may not read). */
create or replace function private.analytics_report_items(p_item_type text, p_item_id text, p_organization_id uuid default null)
returns table (item_type text, item_id text, title text, slug text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
begin
  if v_uid is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  if p_item_type is not null and p_item_type not in ('organization', 'profile', 'project', 'job', 'event') then
    raise exception using errcode = '22023', message = 'invalid_item_type';
  end if;
  if p_organization_id is not null then
    -- an organisation's analytics: its owners and admins, while its plan (Enterprise) is active
    if not private.is_organization_admin(p_organization_id, v_uid) then
      raise exception using errcode = '42501', message = 'not_organization_admin';
    end if;
    if private.plan_rank(private.match_plan(v_uid)) < private.plan_rank('premium') then
      raise exception using errcode = 'PT402', message = 'premium_required';
    end if;
    return query
      select o.item_type, o.item_id, o.title, o.slug from private.analytics_organization_items(p_organization_id) o
      where (p_item_type is null or o.item_type = p_item_type) and (p_item_id is null or o.item_id = p_item_id);
    return;
  end if;
  if p_item_type is not null and p_item_id is not null then
    if not private.analytics_can_read(p_item_type, p_item_id, v_uid) then
      if private.plan_rank(private.match_plan(v_uid)) < private.plan_rank('premium') then
        raise exception using errcode = 'PT402', message = 'premium_required';
      end if;
      raise exception using errcode = '42501', message = 'forbidden';
    end if;
    return query select p_item_type, p_item_id, i.title, i.slug from private.analytics_item(p_item_type, p_item_id) i;
    return;
  end if;
  if private.plan_rank(private.match_plan(v_uid)) < private.plan_rank('premium') then
    raise exception using errcode = 'PT402', message = 'premium_required';
  end if;
  return query
    select o.item_type, o.item_id, o.title, o.slug from private.analytics_items_of(v_uid) o
    where p_item_type is null or o.item_type = p_item_type;
end;
$$;
comment on function private.analytics_report_items(text, text, uuid) is
  'Issue 15: the items of an analytics report for auth.uid() (one readable item, all own items, or an organisation''s items for its owners and admins). 28000, PT402, 22023, 42501.';

/* Change in percent from p_prev to p_cur (one decimal); null when p_prev is 0. Plain SQL without
   SET so it is inlined: called for every item and metric of a report (5,000 calls for 1,000 items,
   about half the report's time as a function call; issue 34). */
create or replace function private.analytics_change(p_cur bigint, p_prev bigint)
returns numeric
language sql
immutable
parallel safe
as $$
  select case when coalesce(p_prev, 0) = 0 then null else pg_catalog.round((coalesce(p_cur, 0) - p_prev) * 100.0 / p_prev, 1) end
$$;
comment on function private.analytics_change(bigint, bigint) is 'Issue 15: change in percent (one decimal), null without a previous value.';

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

/* Records a view or click of a public item (anon and signed-in; the SPA calls it from the public
   pages of profiles, projects, jobs and events).
   Input: p_item_type 'organization'|'profile'|'project'|'job'|'event'; p_item_id the item's key
   as text (1..120 characters); p_metric 'view'|'connect_click'|'apply_click'|'external_link_click';
   p_statistics_consent the visitor's choice for statistics cookies (TDDDG §25; false → nothing
   is stored).
   Output: 'counted' | 'duplicate' (already counted for this visitor, item, metric today) |
   'no_consent' | 'bot' | 'own_item'. Nothing but the daily counter (and today's salted key) is
   written.
   Errors: 22023 invalid_item_type | invalid_item_id | invalid_metric | consent_required (null
   consent) → HTTP 400; PT404 item_not_found (unknown or not public) → 404; PT429 rate_limited
   (more than 120 calls a minute from one network address) → 429. */
create or replace function public.analytics_track(p_item_type text, p_item_id text, p_metric text, p_statistics_consent boolean)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_headers jsonb := nullif(pg_catalog.current_setting('request.headers', true), '')::jsonb;
  v_ua text := v_headers ->> 'user-agent';
  v_ip text := private.request_client_ip();
  v_day date := private.analytics_today();
  v_item record;
  v_salt bytea;
  v_key bytea;
  v_new integer;
begin
  if p_item_type is null or p_item_type not in ('organization', 'profile', 'project', 'job', 'event') then
    raise exception using errcode = '22023', message = 'invalid_item_type';
  end if;
  if p_item_id is null or char_length(p_item_id) not between 1 and 120 or p_item_id !~ '^[A-Za-z0-9-]+$' then
    raise exception using errcode = '22023', message = 'invalid_item_id';
  end if;
  if p_metric is null or p_metric not in ('view', 'connect_click', 'apply_click', 'external_link_click') then
    raise exception using errcode = '22023', message = 'invalid_metric';
  end if;
  if p_statistics_consent is null then
    raise exception using errcode = '22023', message = 'consent_required';
  end if;
  perform private.enforce_rate_limit('analytics:ip', coalesce(v_ip, ''), 120, interval '1 minute', 'network address');

  if not p_statistics_consent then
    return 'no_consent';
  end if;
  if private.analytics_is_bot(v_ua) then
    return 'bot';
  end if;
  select * into v_item from private.analytics_item(p_item_type, p_item_id);
  if not v_item.is_public then
    raise exception using errcode = 'PT404', message = 'item_not_found';
  end if;
  if private.analytics_is_own_item(p_item_type, p_item_id, auth.uid()) then
    return 'own_item';
  end if;

  select s.salt into v_salt from private.analytics_salts s where s.day = v_day;
  if v_salt is null then
    insert into private.analytics_salts (day, salt)
    values (v_day, pg_catalog.uuid_send(pg_catalog.gen_random_uuid()) || pg_catalog.uuid_send(pg_catalog.gen_random_uuid()))
    on conflict (day) do nothing;
    perform private.analytics_cleanup();
    select s.salt into v_salt from private.analytics_salts s where s.day = v_day;
  end if;
  -- the visitor is the network address (IPv6 per /64, private.request_client_ip): the user agent
  -- is the client's to choose, so it would let one visitor count again and again (issue 31 §6)
  v_key := pg_catalog.sha256(v_salt || pg_catalog.convert_to(
    pg_catalog.concat_ws(E'\n', coalesce(v_ip, ''), p_item_type, p_item_id, p_metric), 'UTF8'));
  insert into private.analytics_seen (day, key) values (v_day, v_key) on conflict do nothing;
  get diagnostics v_new = row_count;
  if v_new = 0 then
    return 'duplicate';
  end if;
  perform private.analytics_add(p_item_type, p_item_id, p_metric, v_day, 1);
  return 'counted';
end;
$$;
comment on function public.analytics_track(text, text, text, boolean) is
  'Issue 15: counts a view/click of a public item once per network address, item, metric and day (salted daily hash, no identity stored; issue 31 §6); not for bots, owners or without statistics consent. 22023 bad input, PT404 unknown item, PT429.';

/* Analytics of the caller's items (Premium or better) for /user/analytics.
   Input: p_item_type/p_item_id null = all own items (optionally only one type), or one item.
   Output json (issue 34: json, not jsonb, as building and converting 500 KB of jsonb cost more than the reading):
     { from, to (date, the last 90 days incl. today, Europe/Berlin), previous_from, previous_to (the 90 days before),
       metrics: [view, connect_click, apply_click, external_link_click, contact_request_received],
       series: [{ day, view, connect_click, apply_click, external_link_click, contact_request_received }] (90 days, summed over the items),
       totals / previous: { <metric>: count } (all items), change: { <metric>: percent | null },
       items: [{ item_type, item_id, title, slug, totals, previous, change }] (by views desc, then title) }
   Cost (issue 34): a selection of items reads the roll-ups (private.analytics_item_totals per item,
   private.analytics_scope_daily per day), not the daily counts: it is volatile because it first
   brings them up to date (rebuilds the selection's day roll-up when its items changed, refreshes
   item windows of an earlier day). The numbers are those of private.analytics_daily.
   Errors: 28000 not signed in; PT402 premium_required; 22023 invalid_item_type; 42501 forbidden. */
create or replace function public.analytics_report(p_item_type text default null, p_item_id text default null, p_organization_id uuid default null)
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_to date := private.analytics_today();
  v_from date := v_to - 89;
  v_prev_from date := v_to - 179;
  v_prev_to date := v_to - 90;
  v_metrics text[] := array['view', 'connect_click', 'apply_click', 'external_link_click', 'contact_request_received'];
  v_types text[];
  v_ids text[];
  v_titles text[];
  v_slugs text[];
  v_scope text;
  v_rollup boolean;
  v_stale record;
  v_result json;
begin
  select coalesce(pg_catalog.array_agg(i.item_type), '{}'), coalesce(pg_catalog.array_agg(i.item_id), '{}'),
         coalesce(pg_catalog.array_agg(i.title), '{}'), coalesce(pg_catalog.array_agg(i.slug), '{}')
    into v_types, v_ids, v_titles, v_slugs
    from private.analytics_report_items(p_item_type, p_item_id, p_organization_id) i;

  -- a selection of items (all own, or an organisation's, optionally of one type) reads the
  -- roll-ups (issue 34), brought up to date for exactly these items first; one item (at most 180
  -- days x 5 metrics) is read directly
  v_rollup := p_item_id is null;
  if v_rollup then
    v_scope := case when p_organization_id is not null then 'org:' || p_organization_id::text else 'user:' || auth.uid()::text end
               || ':' || coalesce(p_item_type, '*');
    perform private.analytics_scope_sync(v_scope, v_types, v_ids);
    select pg_catalog.array_agg(x.item_type) as t, pg_catalog.array_agg(x.item_id) as i, pg_catalog.array_agg(x.metric) as m
      into v_stale
      from rows from (pg_catalog.unnest(v_types), pg_catalog.unnest(v_ids)) u(item_type, item_id)
      join private.analytics_item_totals x on x.item_type = u.item_type and x.item_id = u.item_id
      where x.as_of <> v_to;
    if v_stale.t is not null then
      perform private.analytics_refresh_totals(v_stale.t, v_stale.i, v_stale.m);
    end if;
  end if;

  with items as materialized (
    select * from rows from (pg_catalog.unnest(v_types), pg_catalog.unnest(v_ids), pg_catalog.unnest(v_titles), pg_catalog.unnest(v_slugs)) u(item_type, item_id, title, slug)
  ),
  -- one item: one pass over the index (index-only scan; count is an INCLUDE column of the primary
  -- key): totals per item and metric (both periods) and per day and metric (current period)
  agg as materialized (
    select a.item_type, a.item_id, a.metric, a.day, grouping(a.day) as per_item,
           sum(a.count) filter (where a.day >= v_from) as cur,
           sum(a.count) filter (where a.day <= v_prev_to) as prev
    from items i
    join private.analytics_daily a on a.item_type = i.item_type and a.item_id = i.item_id and a.day between v_prev_from and v_to
    where not v_rollup
    group by grouping sets ((a.item_type, a.item_id, a.metric), (a.day, a.metric))
  ),
  per_item_metric as (
    select g.item_type, g.item_id, g.metric, g.cur, g.prev from agg g where g.per_item = 1
    union all
    select x.item_type, x.item_id, x.metric, x.cur, x.prev
    from items i join private.analytics_item_totals x on x.item_type = i.item_type and x.item_id = i.item_id
    where v_rollup
  ),
  per_metric as (
    select m.metric, coalesce(sum(p.cur), 0)::bigint as cur, coalesce(sum(p.prev), 0)::bigint as prev
    from pg_catalog.unnest(v_metrics) m(metric)
    left join per_item_metric p on p.metric = m.metric
    where not v_rollup
    group by m.metric
    union all
    -- the selection's day roll-up holds the same sums in 180 x 5 rows
    select m.metric, coalesce(sum(d.count) filter (where d.day >= v_from), 0)::bigint,
           coalesce(sum(d.count) filter (where d.day <= v_prev_to), 0)::bigint
    from pg_catalog.unnest(v_metrics) m(metric)
    left join private.analytics_scope_daily d on d.scope = v_scope and d.metric = m.metric and d.day between v_prev_from and v_to
    where v_rollup
    group by m.metric
  ),
  per_day as (
    select g.day, g.metric, g.cur::bigint as n from agg g where g.per_item = 0 and g.day >= v_from
    union all
    select d.day, d.metric, d.count from private.analytics_scope_daily d
    where v_rollup and d.scope = v_scope and d.day between v_from and v_to
  ),
  series as (
    select pg_catalog.jsonb_agg(x.o order by x.day) as s
    from (
      select d.day::date as day, pg_catalog.jsonb_build_object('day', d.day::date) || pg_catalog.jsonb_object_agg(m.metric, coalesce(x.n, 0)) as o
      from pg_catalog.generate_series(v_from, v_to, interval '1 day') d(day)
      cross join pg_catalog.unnest(v_metrics) m(metric)
      left join per_day x on x.day = d.day::date and x.metric = m.metric
      group by d.day
    ) x
  ),
  -- per item one row with the five metrics as columns (issue 34: three
  -- json_object_agg per item of a grouped join took most of a 1,000-item report's time); the
  -- metric names are those of v_metrics and of analytics_daily's check constraint
  -- (max, not sum: per_item_metric holds one row per item and metric, and max of bigint needs no numeric)
  item_sums as (
    select p.item_type, p.item_id,
           max(p.cur) filter (where p.metric = 'view') as c_view,
           max(p.cur) filter (where p.metric = 'connect_click') as c_connect,
           max(p.cur) filter (where p.metric = 'apply_click') as c_apply,
           max(p.cur) filter (where p.metric = 'external_link_click') as c_external,
           max(p.cur) filter (where p.metric = 'contact_request_received') as c_contact,
           max(p.prev) filter (where p.metric = 'view') as p_view,
           max(p.prev) filter (where p.metric = 'connect_click') as p_connect,
           max(p.prev) filter (where p.metric = 'apply_click') as p_apply,
           max(p.prev) filter (where p.metric = 'external_link_click') as p_external,
           max(p.prev) filter (where p.metric = 'contact_request_received') as p_contact
    from per_item_metric p
    group by p.item_type, p.item_id
  ),
  -- json (text) rather than jsonb: a 1,000-item answer costs a third to build and nothing to convert
  item_rows as (
    select i.item_type, i.item_id, i.title, i.slug, coalesce(r.c_view, 0) as views,
           pg_catalog.json_build_object('view', coalesce(r.c_view, 0), 'connect_click', coalesce(r.c_connect, 0),
             'apply_click', coalesce(r.c_apply, 0), 'external_link_click', coalesce(r.c_external, 0),
             'contact_request_received', coalesce(r.c_contact, 0)) as totals,
           pg_catalog.json_build_object('view', coalesce(r.p_view, 0), 'connect_click', coalesce(r.p_connect, 0),
             'apply_click', coalesce(r.p_apply, 0), 'external_link_click', coalesce(r.p_external, 0),
             'contact_request_received', coalesce(r.p_contact, 0)) as previous,
           pg_catalog.json_build_object('view', private.analytics_change(coalesce(r.c_view, 0)::bigint, r.p_view::bigint),
             'connect_click', private.analytics_change(coalesce(r.c_connect, 0)::bigint, r.p_connect::bigint),
             'apply_click', private.analytics_change(coalesce(r.c_apply, 0)::bigint, r.p_apply::bigint),
             'external_link_click', private.analytics_change(coalesce(r.c_external, 0)::bigint, r.p_external::bigint),
             'contact_request_received', private.analytics_change(coalesce(r.c_contact, 0)::bigint, r.p_contact::bigint)) as change
    from items i
    left join item_sums r on r.item_type = i.item_type and r.item_id = i.item_id
  )
  select pg_catalog.json_build_object(
    'from', v_from, 'to', v_to, 'previous_from', v_prev_from, 'previous_to', v_prev_to,
    'metrics', pg_catalog.to_json(v_metrics),
    'series', (select s from series),
    'totals', (select pg_catalog.json_object_agg(p.metric, p.cur) from per_metric p),
    'previous', (select pg_catalog.json_object_agg(p.metric, p.prev) from per_metric p),
    'change', (select pg_catalog.json_object_agg(p.metric, private.analytics_change(p.cur, p.prev)) from per_metric p),
    'items', coalesce((select pg_catalog.json_agg(pg_catalog.json_build_object(
        'item_type', r.item_type, 'item_id', r.item_id, 'title', r.title, 'slug', r.slug,
        'totals', r.totals, 'previous', r.previous, 'change', r.change)
        order by r.views desc, r.title, r.item_id) from item_rows r), '[]'::json))
  into v_result;
  return v_result;
end;
$$;
comment on function public.analytics_report(text, text, uuid) is
  'Issue 15: per-day series (last 90 days), totals and change against the previous 90 days of the caller''s items or one item (Premium+; private.analytics_can_read). 28000, PT402, 22023, 42501.';

/* CSV download of the same selection: one line per item and day of the last 90 days.
   Columns: item_type,item_id,title,day,view,connect_click,apply_click,external_link_click,contact_request_received
   (RFC 4180, titles through private.csv_field). Errors as analytics_report. */
create or replace function public.analytics_csv(p_item_type text default null, p_item_id text default null, p_organization_id uuid default null)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_to date := private.analytics_today();
  v_from date := v_to - 89;
  v_csv text;
begin
  with items as materialized (
    select * from private.analytics_report_items(p_item_type, p_item_id, p_organization_id)
  ),
  counts as (
    select a.item_type, a.item_id, a.day,
           sum(a.count) filter (where a.metric = 'view') as view,
           sum(a.count) filter (where a.metric = 'connect_click') as connect_click,
           sum(a.count) filter (where a.metric = 'apply_click') as apply_click,
           sum(a.count) filter (where a.metric = 'external_link_click') as external_link_click,
           sum(a.count) filter (where a.metric = 'contact_request_received') as contact_request_received
    from items i
    join private.analytics_daily a on a.item_type = i.item_type and a.item_id = i.item_id and a.day between v_from and v_to
    group by a.item_type, a.item_id, a.day
  )
  select pg_catalog.string_agg(
      private.csv_field(i.item_type) || ',' || private.csv_field(i.item_id) || ',' || private.csv_field(i.title) || ',' || d.day::date::text
      || ',' || coalesce(c.view, 0) || ',' || coalesce(c.connect_click, 0) || ',' || coalesce(c.apply_click, 0)
      || ',' || coalesce(c.external_link_click, 0) || ',' || coalesce(c.contact_request_received, 0),
      E'\r\n' order by i.item_type, i.item_id, d.day)
  into v_csv
  from items i
  cross join pg_catalog.generate_series(v_from, v_to, interval '1 day') d(day)
  left join counts c on c.item_type = i.item_type and c.item_id = i.item_id and c.day = d.day::date;
  return 'item_type,item_id,title,day,view,connect_click,apply_click,external_link_click,contact_request_received'
    || E'\r\n' || coalesce(v_csv || E'\r\n', '');
end;
$$;
comment on function public.analytics_csv(text, text, uuid) is
  'Issue 15: CSV (one line per item and day of the last 90 days) of the caller''s analytics; errors as analytics_report.';

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function public.analytics_track(text, text, text, boolean) to anon, authenticated;
grant execute on function public.analytics_report(text, text, uuid),
  public.analytics_csv(text, text, uuid) to authenticated;

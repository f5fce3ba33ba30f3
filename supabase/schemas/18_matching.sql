-- =============================================================================
-- Matching (issue 19; spec §6 "basic matching" Basic, "advanced matching" Premium, "custom
-- matching" Enterprise): the structured matching profile, project open roles, declines,
-- impressions (the Basic weekly quota), the engine RPCs and the weekly "new matches" e-mail.
-- =============================================================================
-- The model
-- * public.match_profiles: one primary row per person (is_primary, the profile others are matched
--   against) plus, for Enterprise, saved match profiles (is_primary = false, several per account,
--   e.g. one per open position) with their own criteria and weights. Skills are keys of the
--   controlled vocabulary public.skills (en + de labels, reference data in the data migration);
--   skill_tags are free tags.
-- * Each direction X→Y ("how well does Y fit what X wants") is scored over eight criteria with
--   weights (default roles 30, skills 20, location 15, kind 10, industries 10, commitment 5,
--   stage 5, languages 5; Premium/Enterprise may set their own). A criterion counts only when X
--   states a wish for it (and, for commitment and stage, Y states the attribute). Direction
--   score = round(100 × Σ points / Σ max), 100 when X states no wish at all. The match score is
--   min(X→Y, Y→X) (mutual). Must-haves (must_have) exclude when the criterion does not earn its
--   full points (in either direction); everything else weighs.
-- * Role fit is the prerequisite of a match: a side that seeks roles is only matched with people
--   who offer one of them, and a candidate offers at least one role. (It also makes the GIN
--   prefilter on roles possible: p95 ≤ 50 ms with 50 000 profiles.) The owner's state the
--   candidate filter and the scoring need (listed and not suspended, plan, place) is copied into
--   match_profiles.owner_* by triggers, so the prefilter is one partial GIN index scan without a
--   join to profiles.
-- * Basic scores roles, skills and location only; Premium and Enterprise score all criteria.
--   Must-haves always apply on every criterion (someone's hard constraint holds whoever asks).
-- * The RPCs return reasons as structured objects {code, side, criterion, points, max, must,
--   ...params}; the score is computable from them (see public.match_people).
-- * The scoring functions private.match_direction, match_w, role_fit and match_responsiveness
--   are plain SQL without SET, so the planner inlines them into the ranking query (see
--   ACCEPTED_ADVISOR_FINDINGS in scripts/test.ts).
--
-- Weekly "new matches" e-mail (issue 19: Premium "all matches, filters, a weekly new matches
-- e-mail"; Enterprise includes Premium, spec §6) and the responsiveness tie-break of the ranking
-- (issue 19 "fair requests": people who answer reliably rank higher at equal score):
-- * New matches of a person = current matches of their primary matching profile (every
--   exclusion and must-have of private.match_rank applies) that were never shown to them
--   (public.match_impressions). The mail names the count and the three best; opening /matches
--   records them as shown, so next week's mail only counts what is new again.
-- * Once per ISO week (Europe/Berlin) per person (private.match_digest_log), to Premium and
--   Enterprise members who are confirmed, not suspended and did not switch the mail off
--   (user_settings.email_match_digest, also one-click unsubscribe). Nothing is sent when there is
--   nothing new. pg_cron runs the batch hourly, at most 200 people per run, so a large member
--   base is spread over the day.
-- * Responsiveness: the tie-break of the ranking is match_profiles.owner_responsiveness, which a
--   cron job refreshes hourly from private.responsiveness (fair requests, 0..1; 0.5 without
--   history), so ranking reads a column of the candidate row and costs no lookup.

-- -----------------------------------------------------------------------------
-- Types
-- -----------------------------------------------------------------------------

create type public.match_kind as enum ('founder_with_idea', 'founder_seeking_idea', 'professional', 'student', 'mentor', 'investor');
comment on type public.match_kind is 'What I am (issue 19): founder with an idea, founder looking for an idea, professional, student, mentor, investor.';

create type public.match_role as enum (
  'technical', 'business', 'product', 'design', 'sales_marketing', 'operations', 'domain_expert', 'mentor', 'investor', 'team_member');
comment on type public.match_role is 'Roles offered and sought (issue 19): the fixed list.';

create type public.match_commitment as enum ('full_time', 'part_time', 'side_project', 'later');
comment on type public.match_commitment is 'Commitment (issue 19): full-time now, part-time, side project, later (with available_from).';
-- The reason codes of the engine's answers: the contract with the SPA, which renders every code in
-- English and German (frontend/src/features/matching/api/reasons.ts; its unit test compares with
-- these labels through the generated database.types.ts, supabase/tests/matching.test.ts checks that
-- the engine answers no other code). The parameters of each code are documented at
-- private.match_reasons and private.role_fit_reasons.
create type public.match_reason_code as enum (
  'offers_sought_role', 'role_not_offered', 'has_sought_skills', 'lacks_sought_skills', 'same_city', 'within_radius',
  'both_remote', 'too_far', 'location_unknown', 'is_sought_kind', 'not_sought_kind', 'shared_industries',
  'no_shared_industry', 'same_commitment', 'commitment_mismatch', 'stage_fits', 'stage_mismatch', 'shared_languages',
  'no_shared_language', 'open_to_all');
comment on type public.match_reason_code is
  'Reason codes of a person match (private.match_reasons; reasons[].code of match_people), issue 19.';
create type public.fit_reason_code as enum (
  'needs_your_role', 'has_role_skills', 'lacks_role_skills', 'same_commitment', 'role_commitment_mismatch', 'same_city',
  'within_radius', 'remote_project', 'too_far', 'location_unknown', 'in_industry', 'other_industry', 'stage_fits',
  'stage_mismatch');
comment on type public.fit_reason_code is
  'Reason codes of an open-role fit (private.role_fit_reasons; reasons[].code of match_projects and project_role_candidates), issue 19.';

create type private.match_hit as (user_id uuid, profile_id uuid, score integer, score_mine integer, score_theirs integer, responsiveness numeric);
comment on type private.match_hit is 'One ranked match (private.match_rank).';

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

-- The skill vocabulary (public reference data, en + de labels)
create table public.skills (
  id smallint primary key check (id between 1 and 256),
  key text not null unique check (key ~ '^[a-z0-9_]{2,40}$'),
  role public.match_role not null,
  label_en text not null check (char_length(label_en) between 1 and 60),
  label_de text not null check (char_length(label_de) between 1 and 60)
);

comment on table public.skills is
  'Controlled skill vocabulary of the matching profile (issue 19): key, the role it belongs to, English and German label. id = bit position + 1 in the engine''s skill masks (at most 256).';
comment on column public.skills.role is 'The role this skill belongs to (offers_sought_role reasons list the match''s skills of the sought role).';
alter table public.skills enable row level security;
revoke all on public.skills from anon, authenticated;
grant select (id, key, role, label_en, label_de) on public.skills to anon, authenticated;

create table public.match_profiles (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  is_primary boolean not null default true,
  name text check (char_length(name) between 1 and 100),
  active boolean not null default true,
  kind public.match_kind,
  kinds_sought public.match_kind[] not null default '{}' check (cardinality(kinds_sought) <= 6),
  roles_offered public.match_role[] not null default '{}' check (cardinality(roles_offered) <= 10),
  roles_sought public.match_role[] not null default '{}' check (cardinality(roles_sought) <= 10),
  skills text[] not null default '{}' check (cardinality(skills) <= 30),
  skill_tags text[] not null default '{}' check (cardinality(skill_tags) <= 20 and char_length(pg_catalog.array_to_string(skill_tags, '')) <= 800),
  skills_sought text[] not null default '{}' check (cardinality(skills_sought) <= 30),
  industries public.project_category[] not null default '{}',
  idea_stage public.project_stage,
  stages_sought public.project_stage[] not null default '{}',
  commitment public.match_commitment,
  available_from date,
  city text check (char_length(city) <= 100),
  remote_ok boolean not null default false,
  radius_km integer not null default 50 check (radius_km between 1 and 1000),
  languages text[] not null default '{}' check (cardinality(languages) <= 10 and pg_catalog.array_to_string(languages, ',') ~ '^([a-z]{2}(,[a-z]{2})*)?$'),
  ticket_min_eur integer check (ticket_min_eur >= 0),
  ticket_max_eur integer check (ticket_max_eur >= 0),
  must_have text[] not null default '{}' check (must_have <@ array['skills', 'location', 'kind', 'industries', 'commitment', 'stage', 'languages']),
  weights jsonb not null default '{}'::jsonb check (jsonb_typeof(weights) = 'object'),
  -- engine columns (maintained by the trigger; not readable or writable through the API)
  roles_offered_mask integer not null default 0,
  roles_sought_mask integer not null default 0,
  kind_mask integer not null default 0,
  kinds_sought_mask integer not null default 0,
  industries_mask integer not null default 0,
  stage_mask integer not null default 0,
  stages_sought_mask integer not null default 0,
  skills_mask bit(256) not null default (pg_catalog.repeat('0', 256)::bit(256)),
  skills_sought_mask bit(256) not null default (pg_catalog.repeat('0', 256)::bit(256)),
  must_mask integer not null default 0,
  role_pairs integer[] not null default '{}',
  weights_arr integer[] not null default '{30,20,15,10,10,5,5,5}',
  -- the owner's state, denormalised from public.profiles / public.account_suspensions so the candidate
  -- filter is one index scan without a join (maintained by triggers; not readable through the API)
  owner_listed boolean not null default false,
  owner_advanced boolean not null default false,
  owner_lat double precision,
  owner_lon double precision,
  owner_city text,
  owner_responsiveness numeric not null default 0.5 check (owner_responsiveness between 0 and 1),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint match_profiles_saved_named check (is_primary or name is not null),
  constraint match_profiles_later_date check ((commitment = 'later') = (available_from is not null)),
  constraint match_profiles_ticket_range check (ticket_min_eur is null or ticket_max_eur is null or ticket_min_eur <= ticket_max_eur)
);
comment on table public.match_profiles is
  'Structured matching profile (issue 19): one primary row per person (others are matched against it) and, for Enterprise, saved match profiles (is_primary = false) with their own criteria and weights. Owner and admins only; matches come from the RPCs.';
comment on column public.match_profiles.is_primary is 'true = the person''s own profile (one per user); false = an Enterprise saved match profile.';
comment on column public.match_profiles.name is 'Name of a saved match profile (e.g. the open position); required when not primary.';
comment on column public.match_profiles.active is 'Primary: false = not shown to others as a match (the person still gets matches).';
comment on column public.match_profiles.kind is 'What I am.';
comment on column public.match_profiles.kinds_sought is 'Which kinds of people I look for (criterion kind).';
comment on column public.match_profiles.roles_offered is 'Roles I can fill. A primary profile is only matched when it offers at least one role.';
comment on column public.match_profiles.roles_sought is 'Roles I look for (prerequisite of a match: the other side offers one).';
comment on column public.match_profiles.skills is 'My skills: keys of public.skills.';
comment on column public.match_profiles.skill_tags is 'Free skill tags (shown, not scored).';
comment on column public.match_profiles.skills_sought is 'Skills I look for (keys of public.skills; criterion skills = share of them the other has).';
comment on column public.match_profiles.industries is 'Industries = the ten project categories (criterion industries: at least one shared).';
comment on column public.match_profiles.idea_stage is 'Stage of my idea or project, if any.';
comment on column public.match_profiles.stages_sought is 'Stages I look for (investors: the stages they invest in; criterion stage).';
comment on column public.match_profiles.commitment is 'My commitment; later needs available_from.';
comment on column public.match_profiles.available_from is 'Date from which a "later" commitment starts.';
comment on column public.match_profiles.city is 'Saved profiles: the city to match around (gazetteer name); null = the account''s profile city. Ignored on primary rows (profiles.city counts).';
comment on column public.match_profiles.remote_ok is 'Remote collaboration is fine (two remote-ok people fit regardless of distance).';
comment on column public.match_profiles.radius_km is 'Distance in km within which a place fits (criterion location).';
comment on column public.match_profiles.languages is 'Languages I work in, ISO 639-1 codes (criterion languages: at least one shared).';
comment on column public.match_profiles.ticket_min_eur is 'Investors: smallest ticket in EUR.';
comment on column public.match_profiles.ticket_max_eur is 'Investors: largest ticket in EUR.';
comment on column public.match_profiles.must_have is
  'Criteria marked "must have" (skills, location, kind, industries, commitment, stage, languages): a person who does not earn the full points of one is excluded. Others are "nice to have" and weigh.';
comment on column public.match_profiles.weights is
  'Premium/Enterprise: own weights {criterion: 0..100} (keys roles, skills, location, kind, industries, commitment, stage, languages); missing keys keep the defaults. Inert on Basic.';
comment on column public.match_profiles.owner_listed is
  'Engine: the owner is listed (confirmed, visible) and not suspended = private.owner_listed(user_id); kept current by triggers on profiles and account_suspensions.';
comment on column public.match_profiles.owner_advanced is
  'Engine: the owner''s user_role is premium, enterprise or admin (their own weights count); kept current by a trigger on profiles.';
comment on column public.match_profiles.owner_lat is 'Engine: profiles.latitude of the owner (WGS84 degrees); kept current by a trigger on profiles.';
comment on column public.match_profiles.owner_lon is 'Engine: profiles.longitude of the owner (WGS84 degrees); kept current by a trigger on profiles.';
comment on column public.match_profiles.owner_city is 'Engine: profiles.city of the owner; kept current by a trigger on profiles.';
comment on column public.match_profiles.owner_responsiveness is
  'Engine: the owner''s responsiveness to contact requests (0..1, 0.5 without history), the tie-break at equal score; refreshed hourly (20261128001000_match_digest).';
comment on column public.match_profiles.role_pairs is
  'Engine: offered × sought role pairs as o * 16 + s (enum positions from 0; s = 15 when nothing is sought), so one GIN lookup finds the people who offer a role the caller seeks and seek a role the caller offers (or nothing).';
create unique index match_profiles_primary_key on public.match_profiles (user_id) where is_primary;
create index match_profiles_user_idx on public.match_profiles (user_id, created_at);
create index match_profiles_offered_gin on public.match_profiles using gin (roles_offered) where is_primary and active and owner_listed;
create index match_profiles_pairs_gin on public.match_profiles using gin (role_pairs) where is_primary and active and owner_listed;
-- INCLUDE: match_rank picks an unfiltered first page from this index alone (issue 34)
create index match_profiles_recent_idx on public.match_profiles (updated_at desc) include (id, user_id, owner_listed, role_pairs)
  where is_primary and active;
alter table public.match_profiles enable row level security;
revoke all on public.match_profiles from anon, authenticated;
grant select (id, user_id, is_primary, name, active, kind, kinds_sought, roles_offered, roles_sought, skills,
              skill_tags, skills_sought, industries, idea_stage, stages_sought, commitment, available_from,
              city, remote_ok, radius_km, languages, ticket_min_eur, ticket_max_eur, must_have, weights,
              created_at, updated_at)
  on public.match_profiles to authenticated;
grant insert (user_id, is_primary, name, active, kind, kinds_sought, roles_offered, roles_sought, skills,
              skill_tags, skills_sought, industries, idea_stage, stages_sought, commitment, available_from,
              city, remote_ok, radius_km, languages, ticket_min_eur, ticket_max_eur, must_have, weights)
  on public.match_profiles to authenticated;
grant update (name, active, kind, kinds_sought, roles_offered, roles_sought, skills, skill_tags,
              skills_sought, industries, idea_stage, stages_sought, commitment, available_from, city,
              remote_ok, radius_km, languages, ticket_min_eur, ticket_max_eur, must_have, weights)
  on public.match_profiles to authenticated;
grant delete on public.match_profiles to authenticated;

create table public.project_open_roles (
  id bigint generated always as identity primary key,
  project_id bigint not null references public.projects (id) on delete cascade,
  role public.match_role not null,
  title text check (char_length(title) between 1 and 100),
  skills text[] not null default '{}' check (cardinality(skills) <= 15),
  commitment public.match_commitment,
  filled boolean not null default false,
  skills_mask bit(256) not null default (pg_catalog.repeat('0', 256)::bit(256)),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.project_open_roles is
  'Open roles of a project (issue 19): role from the fixed list, wanted skills (vocabulary keys) and commitment; filled = no longer missing. Visible with the project; written by its owner.';
comment on column public.project_open_roles.title is 'Optional title of the position, e.g. "CTO".';
comment on column public.project_open_roles.skills is 'Wanted skills: keys of public.skills.';
comment on column public.project_open_roles.filled is 'true = the role is taken (the team-gap finder lists it as no longer missing).';
create index project_open_roles_project_idx on public.project_open_roles (project_id, id);
create index project_open_roles_open_idx on public.project_open_roles (role, created_at desc) where not filled;
alter table public.project_open_roles enable row level security;
revoke all on public.project_open_roles from anon, authenticated;
grant select (id, project_id, role, title, skills, commitment, filled, created_at, updated_at)
  on public.project_open_roles to anon, authenticated;
grant insert (project_id, role, title, skills, commitment, filled)
  on public.project_open_roles to authenticated;
grant update (role, title, skills, commitment, filled) on public.project_open_roles to authenticated;
grant delete on public.project_open_roles to authenticated;

create table public.match_declines (
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  declined_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, declined_id),
  constraint match_declines_not_self check (user_id <> declined_id)
);
comment on table public.match_declines is
  '"Not interested" (issue 19): user_id never sees declined_id as a match again (until the row is deleted); declined_id does not see user_id for 30 days. Owner only.';
create index match_declines_declined_idx on public.match_declines (declined_id, created_at desc);
alter table public.match_declines enable row level security;
revoke all on public.match_declines from anon, authenticated;
grant select (user_id, declined_id, created_at) on public.match_declines to authenticated;
grant insert (user_id, declined_id) on public.match_declines to authenticated;
grant delete on public.match_declines to authenticated;

create table public.match_impressions (
  user_id uuid not null references public.profiles (id) on delete cascade,
  shown_id uuid not null references public.profiles (id) on delete cascade,
  first_shown_at timestamptz not null default now(),
  primary key (user_id, shown_id)
);
comment on table public.match_impressions is
  'Which person was first shown to whom as a match, and when (issue 19): Basic may see 10 new matches per ISO week (Europe/Berlin); "new" flags. Written only by the match RPCs.';
create index match_impressions_week_idx on public.match_impressions (user_id, first_shown_at desc);
alter table public.match_impressions enable row level security;
revoke all on public.match_impressions from anon, authenticated;
grant select (user_id, shown_id, first_shown_at) on public.match_impressions to authenticated;

create table private.match_digest_log (
  user_id uuid not null references public.profiles (id) on delete cascade,
  week_start timestamptz not null,
  sent_at timestamptz not null default now(),
  new_matches integer not null check (new_matches >= 0),
  primary key (user_id, week_start)
);
comment on table private.match_digest_log is
  'One row per person and ISO week the weekly matches e-mail was considered (new_matches = 0: nothing to send). Issue 19.';
alter table private.match_digest_log enable row level security;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

/* BEFORE INSERT/UPDATE: validates skills against the vocabulary, weights, plan rules, and fills the
   engine columns (also the owner_* state on insert). Plan rules for API statements: saved profiles need Enterprise (PT402
   enterprise_required, at most 20: P0001 saved_profile_limit); setting weights needs Premium or
   Enterprise (PT402 premium_required). Errors: 22023 unknown_skill | invalid_weights. */
create or replace function private.prepare_match_profile()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_plan text;
begin
  if tg_op = 'UPDATE' and (new.user_id <> old.user_id or new.is_primary <> old.is_primary) and private.is_api_statement() then
    raise exception using errcode = '42501', message = 'protected_column', detail = 'user_id and is_primary do not change.';
  end if;
  if exists (select 1 from pg_catalog.jsonb_each(new.weights) w
             where not (w.key = any (private.match_criteria())) or pg_catalog.jsonb_typeof(w.value) <> 'number'
                or (w.value)::numeric not between 0 and 100 or (w.value)::numeric <> pg_catalog.trunc((w.value)::numeric)) then
    raise exception using errcode = '22023', message = 'invalid_weights',
      detail = 'weights: {roles|skills|location|kind|industries|commitment|stage|languages: integer 0..100}.';
  end if;
  if private.is_api_statement() then
    v_plan := private.match_plan(new.user_id);
    if not new.is_primary and (tg_op = 'INSERT') then
      if private.plan_rank(v_plan) < 3 then
        raise exception using errcode = 'PT402', message = 'enterprise_required',
          detail = 'Saved match profiles are part of custom matching (Enterprise, spec §6).';
      end if;
      if (select pg_catalog.count(*) from public.match_profiles where user_id = new.user_id and not is_primary) >= 20 then
        raise exception using errcode = 'P0001', message = 'saved_profile_limit', detail = 'At most 20 saved match profiles.';
      end if;
    end if;
    if new.weights <> '{}'::jsonb and (tg_op = 'INSERT' or new.weights is distinct from old.weights)
       and private.plan_rank(v_plan) < 2 then
      raise exception using errcode = 'PT402', message = 'premium_required',
        detail = 'Own weights are part of advanced matching (Premium, spec §6).';
    end if;
  end if;
  new.skills := coalesce(array(select distinct s from pg_catalog.unnest(new.skills) s order by 1), '{}');
  new.skills_sought := coalesce(array(select distinct s from pg_catalog.unnest(new.skills_sought) s order by 1), '{}');
  new.skills_mask := private.skill_mask(new.skills);
  new.skills_sought_mask := private.skill_mask(new.skills_sought);
  new.roles_offered_mask := private.role_mask(new.roles_offered);
  new.roles_sought_mask := private.role_mask(new.roles_sought);
  new.kind_mask := case when new.kind is null then 0 else private.kind_mask(array[new.kind]) end;
  new.kinds_sought_mask := private.kind_mask(new.kinds_sought);
  new.industries_mask := private.category_mask(new.industries);
  new.stage_mask := case when new.idea_stage is null then 0 else private.stage_mask(array[new.idea_stage]) end;
  new.stages_sought_mask := private.stage_mask(new.stages_sought);
  new.role_pairs := coalesce(array(
    select (pg_catalog.array_position(pg_catalog.enum_range(null::public.match_role), o) - 1) * 16
           + coalesce(pg_catalog.array_position(pg_catalog.enum_range(null::public.match_role), sr) - 1, 15)
    from pg_catalog.unnest(new.roles_offered) o
    left join pg_catalog.unnest(case when cardinality(new.roles_sought) = 0 then array[null]::public.match_role[] else new.roles_sought end) sr on true), '{}');
  new.must_mask := coalesce((select pg_catalog.bit_or(1 << (pg_catalog.array_position(private.match_criteria(), m) - 1))
                             from pg_catalog.unnest(new.must_have) m), 0);
  new.weights_arr := private.match_weights(new.weights);
  if tg_op = 'INSERT' or new.user_id <> old.user_id then
    select o.listed, o.advanced, o.lat, o.lon, o.city into new.owner_listed, new.owner_advanced, new.owner_lat, new.owner_lon, new.owner_city
    from private.match_owner_state(new.user_id) o;
  end if;
  new.updated_at := pg_catalog.now();
  return new;
end;
$$;
comment on function private.prepare_match_profile() is
  'BEFORE INSERT/UPDATE on match_profiles: vocabulary and weight checks, plan rules (PT402 enterprise_required / premium_required, P0001 saved_profile_limit), engine masks (issue 19).';
-- every column a person or an admin sets (not the engine columns: the owner-state sync below must not touch updated_at)
create trigger match_profiles_prepare before insert or update of user_id, is_primary, name, active, kind, kinds_sought, roles_offered,
  roles_sought, skills, skill_tags, skills_sought, industries, idea_stage, stages_sought, commitment, available_from, city, remote_ok,
  radius_km, languages, ticket_min_eur, ticket_max_eur, must_have, weights, created_at, updated_at on public.match_profiles
  for each row execute function private.prepare_match_profile();

/* AFTER trigger on profiles (confirmation, visibility, role, place changed) and account_suspensions
   (insert/delete): pushes the owner state into the person's match profiles. */
create or replace function private.sync_match_owner()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid;
begin
  if tg_table_name = 'profiles' then
    v_user := new.id;
  elsif tg_op = 'DELETE' then
    v_user := old.user_id;
  else
    v_user := new.user_id;
  end if;
  update public.match_profiles m
  set owner_listed = o.listed, owner_advanced = o.advanced, owner_lat = o.lat, owner_lon = o.lon, owner_city = o.city
  from private.match_owner_state(v_user) o
  where m.user_id = v_user
    and (m.owner_listed, m.owner_advanced, m.owner_lat, m.owner_lon, m.owner_city) is distinct from (o.listed, o.advanced, o.lat, o.lon, o.city);
  return null;
end;
$$;
comment on function private.sync_match_owner() is
  'AFTER trigger: a profile''s confirmation/visibility/role/place or a suspension changed -> match_profiles.owner_* (issue 19).';
create trigger profiles_match_owner after update of authenticated, profile_visibility, user_role, latitude, longitude, city on public.profiles
  for each row
  when ((old.authenticated, old.profile_visibility, old.user_role, old.latitude, old.longitude, old.city)
        is distinct from (new.authenticated, new.profile_visibility, new.user_role, new.latitude, new.longitude, new.city))
  execute function private.sync_match_owner();
create trigger account_suspensions_match_owner after insert or delete on public.account_suspensions
  for each row execute function private.sync_match_owner();

/* BEFORE INSERT/UPDATE on project_open_roles: vocabulary check, skill mask, at most 10 roles per
   project (checked for API requests). Errors: 22023 unknown_skill, P0001 open_role_limit, 42501 protected_column. */
create or replace function private.prepare_open_role()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.project_id <> old.project_id then
    raise exception using errcode = '42501', message = 'protected_column', detail = 'An open role stays with its project.';
  end if;
  -- through the API (PostgREST sets a role); bulk loads as the owner (seed, benchmarks) are not counted row by row
  if tg_op = 'INSERT' and coalesce(pg_catalog.current_setting('role', true), 'none') <> 'none'
     and (select pg_catalog.count(*) from public.project_open_roles where project_id = new.project_id) >= 10 then
    raise exception using errcode = 'P0001', message = 'open_role_limit', detail = 'At most 10 open roles per project.';
  end if;
  new.skills := coalesce(array(select distinct s from pg_catalog.unnest(new.skills) s order by 1), '{}');
  new.skills_mask := private.skill_mask(new.skills);
  new.updated_at := pg_catalog.now();
  return new;
end;
$$;
comment on function private.prepare_open_role() is 'BEFORE INSERT/UPDATE on project_open_roles: skills vocabulary, mask, 10 per project (issue 19).';
create trigger project_open_roles_prepare before insert or update on public.project_open_roles
  for each row execute function private.prepare_open_role();

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

/* An empty 256-bit skill mask. */
create or replace function private.empty_skill_mask()
returns bit(256)
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.repeat('0', 256)::bit(256)
$$;
comment on function private.empty_skill_mask() is 'All-zero bit(256): the skill mask of no skills.';

/* Skill keys -> bit(256) mask (bit i-1 for skills.id i). Errors: 22023 unknown_skill. */
create or replace function private.skill_mask(p_keys text[])
returns bit(256)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_unknown text[];
  v_mask bit(256);
begin
  select pg_catalog.array_agg(k) into v_unknown
  from pg_catalog.unnest(coalesce(p_keys, '{}')) k
  where not exists (select 1 from public.skills s where s.key = k);
  if v_unknown is not null then
    raise exception using errcode = '22023', message = 'unknown_skill',
      detail = 'Not in the skill vocabulary (public.skills): ' || pg_catalog.array_to_string(v_unknown, ', ');
  end if;
  select coalesce(pg_catalog.bit_or(pg_catalog.set_bit(private.empty_skill_mask(), s.id - 1, 1)), private.empty_skill_mask())
  into v_mask from public.skills s where s.key = any (coalesce(p_keys, '{}'));
  return v_mask;
end;
$$;
comment on function private.skill_mask(text[]) is 'Skill keys -> bit(256) mask of public.skills ids; 22023 unknown_skill for keys outside the vocabulary.';

/* Enum labels -> int bit mask (bit = position in the enum - 1). */
create or replace function private.role_mask(p public.match_role[])
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(pg_catalog.bit_or(1 << (pg_catalog.array_position(pg_catalog.enum_range(null::public.match_role), r) - 1)), 0)::integer
  from pg_catalog.unnest(coalesce(p, '{}')) r
$$;
comment on function private.role_mask(public.match_role[]) is 'Role list -> int bit mask (enum position).';

create or replace function private.kind_mask(p public.match_kind[])
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(pg_catalog.bit_or(1 << (pg_catalog.array_position(pg_catalog.enum_range(null::public.match_kind), r) - 1)), 0)::integer
  from pg_catalog.unnest(coalesce(p, '{}')) r
$$;
comment on function private.kind_mask(public.match_kind[]) is 'Kind list -> int bit mask (enum position).';

create or replace function private.category_mask(p public.project_category[])
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(pg_catalog.bit_or(1 << (pg_catalog.array_position(pg_catalog.enum_range(null::public.project_category), r) - 1)), 0)::integer
  from pg_catalog.unnest(coalesce(p, '{}')) r
$$;
comment on function private.category_mask(public.project_category[]) is 'Category list -> int bit mask (enum position).';

create or replace function private.stage_mask(p public.project_stage[])
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(pg_catalog.bit_or(1 << (pg_catalog.array_position(pg_catalog.enum_range(null::public.project_stage), r) - 1)), 0)::integer
  from pg_catalog.unnest(coalesce(p, '{}')) r
$$;
comment on function private.stage_mask(public.project_stage[]) is 'Stage list -> int bit mask (enum position).';

/* The criteria of a direction, in weight-array order. */
create or replace function private.match_criteria()
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select array['roles', 'skills', 'location', 'kind', 'industries', 'commitment', 'stage', 'languages']
$$;
comment on function private.match_criteria() is 'Criterion keys in weight-array / must-bit order (issue 19).';

/* Default weights (sum 100) and a weights object -> int[8] (missing keys keep the default). */
create or replace function private.match_weights(p_weights jsonb)
returns integer[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.array_agg(coalesce((p_weights ->> c.k)::integer, c.d) order by c.n)
  from rows from (pg_catalog.unnest(private.match_criteria()), pg_catalog.unnest(array[30, 20, 15, 10, 10, 5, 5, 5])) with ordinality as c(k, d, n)
$$;
comment on function private.match_weights(jsonb) is
  'Weights object {criterion: 0..100} -> int[8]; defaults roles 30, skills 20, location 15, kind 10, industries 10, commitment 5, stage 5, languages 5.';

/* The rank of a plan name (free 0 … enterprise 3). */
create or replace function private.plan_rank(p_plan text)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case p_plan when 'enterprise' then 3 when 'premium' then 2 when 'basic' then 1 else 0 end
$$;
comment on function private.plan_rank(text) is 'free 0, basic 1, premium 2, enterprise 3.';

create or replace function private.match_responsiveness(p_user_id uuid)
returns numeric
language sql
stable
parallel safe
as $$
  select coalesce((select m.owner_responsiveness from public.match_profiles m where m.user_id = p_user_id and m.is_primary), 0.5)
$$;
comment on function private.match_responsiveness(uuid) is
  'Responsiveness of a person to contact requests, 0..1, 0.5 without history: the tie-break at equal match score (issue 19).';

/* The owner state a match profile carries (see match_profiles.owner_*): listed = confirmed, visible
   and not suspended (private.owner_listed), advanced = user_role premium/enterprise/admin, and the
   profile's place. All null/false for an unknown user. */
create or replace function private.match_owner_state(p_user_id uuid,
  out listed boolean, out advanced boolean, out lat double precision, out lon double precision, out city text)
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.owner_listed(p_user_id), false), coalesce(bool_or(p.user_role in ('premium', 'enterprise', 'admin')), false),
         max(p.latitude), max(p.longitude), max(p.city)
  from public.profiles p where p.id = p_user_id
$$;
comment on function private.match_owner_state(uuid) is 'Owner state denormalised into match_profiles.owner_* (issue 19 engine speed).';

/* True when the caller owns the project. */
create or replace function private.owns_project(p_project_id bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.projects where id = p_project_id and owner_id = auth.uid())
$$;
comment on function private.owns_project(bigint) is 'The caller owns project p_project_id.';

/* Weights a direction uses: the owner's own weights when the caller's plan scores every field
   (p_full) and the owner of the wishes is on Premium/Enterprise (p_premium); else the defaults.
   Plain SQL without SET so the planner inlines it. */
create or replace function private.match_w(p_full boolean, p_premium boolean, p_arr integer[])
returns integer[]
language sql
immutable
parallel safe
as $$
  select case when p_full and p_premium then p_arr else array[30, 20, 15, 10, 10, 5, 5, 5] end
$$;
comment on function private.match_w(boolean, boolean, integer[]) is 'Effective weights of a direction (own weights only on Premium/Enterprise full scoring).';

/*
 * One direction of a match: how well y fits what x wants (issue 19). Inputs: p_full (false =
 * Basic: only roles, skills and location earn points), x and y match profiles with their place
 * (latitude/longitude in WGS84 degrees, city name), x's weights (int[8], criterion order of
 * private.match_criteria()). Output per criterion: points in hundredths (integer, *_p100) and max
 * (the weight), both null when the criterion does not count (x states no wish, y lacks the attribute
 * for commitment/stage, or Basic); distance_km (rounded, null without coordinates);
 * location_code; ok = role prerequisite and all of x's must-haves met (must-haves are checked on
 * every criterion, also for Basic); score = round(100 × Σ points / Σ max) (half up, integer
 * arithmetic on hundredths), 100 when Σ max = 0.
 * Plain SQL without SET (not security definer, reads no table) so it is inlined into the
 * ranking query: the same expressions score every candidate and explain the page.
 */
create or replace function private.match_direction(
  p_full boolean, x_w integer[], x_must integer, x_roles_sought integer, x_skills_sought bit(256), x_kinds_sought integer,
  x_industries integer, x_stages_sought integer, x_commitment public.match_commitment, x_languages text[], x_remote boolean,
  x_radius integer, x_lat double precision, x_lon double precision, x_city text,
  y_roles_offered integer, y_skills bit(256), y_kind integer, y_industries integer, y_stage integer,
  y_commitment public.match_commitment, y_languages text[], y_remote boolean, y_lat double precision, y_lon double precision, y_city text)
returns table (
  roles_p100 integer, roles_max integer, skills_p100 integer, skills_max integer, location_p100 integer, location_max integer,
  kind_p100 integer, kind_max integer, industries_p100 integer, industries_max integer, commitment_p100 integer,
  commitment_max integer, stage_p100 integer, stage_max integer, languages_p100 integer, languages_max integer,
  distance_km integer, location_code text, ok boolean, score integer)
language sql
immutable
parallel safe
as $$
  select c.roles_p100, c.roles_max, c.skills_p100, c.skills_max, c.location_p100, c.location_max, c.kind_p100, c.kind_max,
         c.industries_p100, c.industries_max, c.commitment_p100, c.commitment_max, c.stage_p100, c.stage_max,
         c.languages_p100, c.languages_max, c.km, c.l_code, c.ok,
         case when c.tmax = 0 then 100 else (200 * c.tp100 + 100 * c.tmax) / (200 * c.tmax) end
  from (
    select b.*,
      coalesce(b.roles_max, 0) + coalesce(b.skills_max, 0) + coalesce(b.location_max, 0) + coalesce(b.kind_max, 0)
        + coalesce(b.industries_max, 0) + coalesce(b.commitment_max, 0) + coalesce(b.stage_max, 0) + coalesce(b.languages_max, 0) as tmax,
      coalesce(b.roles_p100, 0) + coalesce(b.skills_p100, 0) + coalesce(b.location_p100, 0) + coalesce(b.kind_p100, 0)
        + coalesce(b.industries_p100, 0) + coalesce(b.commitment_p100, 0) + coalesce(b.stage_p100, 0) + coalesce(b.languages_p100, 0) as tp100
    from (
      select a.km, a.l_code,
        case when a.r_app then case when a.r_hit then 100 * x_w[1] else 0 end end as roles_p100,
        case when a.r_app then x_w[1] end as roles_max,
        case when a.s_n > 0 then (200 * x_w[2] * a.s_hit + a.s_n) / (2 * a.s_n) end as skills_p100,
        case when a.s_n > 0 then x_w[2] end as skills_max,
        case when a.l_app then case when a.l_hit then 100 * x_w[3] else 0 end end as location_p100,
        case when a.l_app then x_w[3] end as location_max,
        case when p_full and a.k_app then case when a.k_hit then 100 * x_w[4] else 0 end end as kind_p100,
        case when p_full and a.k_app then x_w[4] end as kind_max,
        case when p_full and a.i_app then case when a.i_hit then 100 * x_w[5] else 0 end end as industries_p100,
        case when p_full and a.i_app then x_w[5] end as industries_max,
        case when p_full and a.c_app then 50 * x_w[6] * a.c_half end as commitment_p100,
        case when p_full and a.c_app then x_w[6] end as commitment_max,
        case when p_full and a.st_app then case when a.st_hit then 100 * x_w[7] else 0 end end as stage_p100,
        case when p_full and a.st_app then x_w[7] end as stage_max,
        case when p_full and a.la_app then case when a.la_hit then 100 * x_w[8] else 0 end end as languages_p100,
        case when p_full and a.la_app then x_w[8] end as languages_max,
        (not a.r_app or a.r_hit)
          and (x_must & 2 = 0 or a.s_n = 0 or a.s_hit = a.s_n)
          and (x_must & 4 = 0 or not a.l_app or a.l_hit)
          and (x_must & 8 = 0 or not a.k_app or a.k_hit)
          and (x_must & 16 = 0 or not a.i_app or a.i_hit)
          and (x_must & 32 = 0 or x_commitment is null or a.c_half = 2)
          and (x_must & 64 = 0 or x_stages_sought = 0 or a.st_hit)
          and (x_must & 128 = 0 or not a.la_app or a.la_hit) as ok
      from (
        select d.km,
          d.l_code,
          d.l_code in ('same_city', 'within_radius', 'both_remote') as l_hit,
          x_roles_sought <> 0 as r_app,
          (x_roles_sought & y_roles_offered) <> 0 as r_hit,
          pg_catalog.bit_count(x_skills_sought)::integer as s_n,
          pg_catalog.bit_count(x_skills_sought & y_skills)::integer as s_hit,
          (x_lat is not null or x_city is not null or x_remote) as l_app,
          x_kinds_sought <> 0 as k_app,
          (x_kinds_sought & y_kind) <> 0 as k_hit,
          x_industries <> 0 as i_app,
          (x_industries & y_industries) <> 0 as i_hit,
          (x_commitment is not null and y_commitment is not null) as c_app,
          case when x_commitment = y_commitment then 2
               when (x_commitment, y_commitment) in (('full_time', 'part_time'), ('part_time', 'full_time'),
                 ('part_time', 'side_project'), ('side_project', 'part_time'), ('full_time', 'later'), ('later', 'full_time'))
                 then 1
               else 0 end as c_half,
          (x_stages_sought <> 0 and y_stage <> 0) as st_app,
          (x_stages_sought & y_stage) <> 0 as st_hit,
          pg_catalog.cardinality(x_languages) > 0 as la_app,
          coalesce(x_languages operator(pg_catalog.&&) y_languages, false) as la_hit
        from (
          select e.km,
            case when x_city is not null and y_city is not null and pg_catalog.lower(x_city) = pg_catalog.lower(y_city) then 'same_city'
                 when e.km is not null and e.km <= x_radius then 'within_radius'
                 when x_remote and y_remote then 'both_remote'
                 when e.km is null then 'location_unknown'
                 else 'too_far' end as l_code
          from (
            select case when x_lat is null or y_lat is null or x_lon is null or y_lon is null then null
                        else pg_catalog.round(111.195 * pg_catalog.sqrt(
                               pg_catalog.power(x_lat - y_lat, 2)
                               + pg_catalog.power((x_lon - y_lon) * pg_catalog.cos(pg_catalog.radians((x_lat + y_lat) / 2)), 2)))::integer
                   end as km
            offset 0
          ) e
          offset 0
        ) d
        offset 0
      ) a
      offset 0
    ) b
  ) c
$$;
comment on function private.match_direction(boolean, integer[], integer, integer, bit, integer, integer, integer, public.match_commitment,
  text[], boolean, integer, double precision, double precision, text, integer, bit, integer, integer, integer, public.match_commitment,
  text[], boolean, double precision, double precision, text) is
  'Scores one direction x→y of a match per criterion (points/max), must-haves (ok) and the direction score 0..100 (issue 19).';

/* Intersection of two text arrays in the order of the first. */
create or replace function private.text_intersect(a text[], b text[])
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(array(select e from pg_catalog.unnest(a) with ordinality u(e, n) where e = any (b) order by n), '{}')
$$;
comment on function private.text_intersect(text[], text[]) is 'Elements of a that are also in b, in a''s order.';

/*
 * The reasons of one direction (x's wishes, y's fit) as a jsonb array, built from the direction
 * row d (to_jsonb of private.match_direction). Every reason: {code, side, criterion, points, max,
 * must, ...params}; side 'you' = the caller's wishes (x is the caller), 'they' = the match's
 * wishes (x is the match). Params use the caller's perspective where there are two sides (mine =
 * the caller's, theirs = the match's). Codes (the labels of public.match_reason_code) and params:
 *   roles:      offers_sought_role {role, roles, skills} | role_not_offered {roles}
 *   skills:     has_sought_skills {skills, missing} | lacks_sought_skills {skills}
 *   location:   same_city {city} | within_radius {city, km, radius_km} | both_remote {} |
 *               too_far {city, km, radius_km} | location_unknown {}
 *   kind:       is_sought_kind {kind} | not_sought_kind {kind, sought}
 *   industries: shared_industries {industries} | no_shared_industry {sought}
 *   commitment: same_commitment {commitment, available_from} | commitment_mismatch {mine, theirs, mine_from, theirs_from}
 *   stage:      stage_fits {stage} | stage_mismatch {stage, sought}
 *   languages:  shared_languages {languages} | no_shared_language {sought}
 *   (none):     open_to_all {} (points 0, max 0: this side states no wish; its direction score is 100)
 * skills, roles, kinds, industries, stages are keys (public.skills.key, enum labels); the UI
 * renders them in English and German.
 */
create or replace function private.match_reasons(p_side text, x public.match_profiles, y public.match_profiles, y_city text, d jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  out jsonb := '[]'::jsonb;
  v_roles text[];
  v_x text[];
  v_y text[];
  v_mine public.match_profiles := case when p_side = 'you' then x else y end;
  v_theirs public.match_profiles := case when p_side = 'you' then y else x end;
  base jsonb;
begin
  -- roles
  if d ->> 'roles_max' is not null then
    v_roles := private.text_intersect(x.roles_sought::text[], y.roles_offered::text[]);
    base := pg_catalog.jsonb_build_object('side', p_side, 'criterion', 'roles', 'points', pg_catalog.round((d ->> 'roles_p100')::numeric / 100, 2),
      'max', (d ->> 'roles_max')::integer, 'must', false);
    if cardinality(v_roles) > 0 then
      out := out || (base || pg_catalog.jsonb_build_object('code', 'offers_sought_role', 'role', v_roles[1], 'roles', pg_catalog.to_jsonb(v_roles),
        'skills', pg_catalog.to_jsonb(coalesce(array(select s.key from public.skills s where s.key = any (y.skills) and s.role::text = any (v_roles) order by s.id), '{}'))));
    else
      out := out || (base || pg_catalog.jsonb_build_object('code', 'role_not_offered', 'roles', pg_catalog.to_jsonb(x.roles_sought::text[])));
    end if;
  end if;
  -- skills
  if d ->> 'skills_max' is not null then
    v_x := private.text_intersect(x.skills_sought, y.skills);
    base := pg_catalog.jsonb_build_object('side', p_side, 'criterion', 'skills', 'points', pg_catalog.round((d ->> 'skills_p100')::numeric / 100, 2),
      'max', (d ->> 'skills_max')::integer, 'must', 'skills' = any (x.must_have));
    if cardinality(v_x) > 0 then
      out := out || (base || pg_catalog.jsonb_build_object('code', 'has_sought_skills', 'skills', pg_catalog.to_jsonb(v_x),
        'missing', pg_catalog.to_jsonb(coalesce(array(select s from pg_catalog.unnest(x.skills_sought) s where not (s = any (y.skills))), '{}'))));
    else
      out := out || (base || pg_catalog.jsonb_build_object('code', 'lacks_sought_skills', 'skills', pg_catalog.to_jsonb(x.skills_sought)));
    end if;
  end if;
  -- location
  if d ->> 'location_max' is not null then
    base := pg_catalog.jsonb_build_object('side', p_side, 'criterion', 'location', 'points', pg_catalog.round((d ->> 'location_p100')::numeric / 100, 2),
      'max', (d ->> 'location_max')::integer, 'must', 'location' = any (x.must_have), 'code', d ->> 'location_code');
    out := out || (base || case d ->> 'location_code'
      when 'same_city' then pg_catalog.jsonb_build_object('city', y_city)
      when 'within_radius' then pg_catalog.jsonb_build_object('city', y_city, 'km', (d ->> 'distance_km')::integer, 'radius_km', x.radius_km)
      when 'too_far' then pg_catalog.jsonb_build_object('city', y_city, 'km', (d ->> 'distance_km')::integer, 'radius_km', x.radius_km)
      else '{}'::jsonb end);
  end if;
  -- kind
  if d ->> 'kind_max' is not null then
    base := pg_catalog.jsonb_build_object('side', p_side, 'criterion', 'kind', 'points', pg_catalog.round((d ->> 'kind_p100')::numeric / 100, 2),
      'max', (d ->> 'kind_max')::integer, 'must', 'kind' = any (x.must_have), 'kind', y.kind);
    if y.kind is not null and y.kind = any (x.kinds_sought) then
      out := out || (base || pg_catalog.jsonb_build_object('code', 'is_sought_kind'));
    else
      out := out || (base || pg_catalog.jsonb_build_object('code', 'not_sought_kind', 'sought', pg_catalog.to_jsonb(x.kinds_sought::text[])));
    end if;
  end if;
  -- industries
  if d ->> 'industries_max' is not null then
    v_x := private.text_intersect(x.industries::text[], y.industries::text[]);
    base := pg_catalog.jsonb_build_object('side', p_side, 'criterion', 'industries', 'points', pg_catalog.round((d ->> 'industries_p100')::numeric / 100, 2),
      'max', (d ->> 'industries_max')::integer, 'must', 'industries' = any (x.must_have));
    if cardinality(v_x) > 0 then
      out := out || (base || pg_catalog.jsonb_build_object('code', 'shared_industries', 'industries', pg_catalog.to_jsonb(v_x)));
    else
      out := out || (base || pg_catalog.jsonb_build_object('code', 'no_shared_industry', 'sought', pg_catalog.to_jsonb(x.industries::text[])));
    end if;
  end if;
  -- commitment
  if d ->> 'commitment_max' is not null then
    base := pg_catalog.jsonb_build_object('side', p_side, 'criterion', 'commitment', 'points', pg_catalog.round((d ->> 'commitment_p100')::numeric / 100, 2),
      'max', (d ->> 'commitment_max')::integer, 'must', 'commitment' = any (x.must_have));
    if x.commitment = y.commitment then
      out := out || (base || pg_catalog.jsonb_build_object('code', 'same_commitment', 'commitment', x.commitment,
        'available_from', y.available_from));
    else
      out := out || (base || pg_catalog.jsonb_build_object('code', 'commitment_mismatch', 'mine', v_mine.commitment, 'theirs', v_theirs.commitment,
        'mine_from', v_mine.available_from, 'theirs_from', v_theirs.available_from));
    end if;
  end if;
  -- stage
  if d ->> 'stage_max' is not null then
    base := pg_catalog.jsonb_build_object('side', p_side, 'criterion', 'stage', 'points', pg_catalog.round((d ->> 'stage_p100')::numeric / 100, 2),
      'max', (d ->> 'stage_max')::integer, 'must', 'stage' = any (x.must_have), 'stage', y.idea_stage);
    if y.idea_stage = any (x.stages_sought) then
      out := out || (base || pg_catalog.jsonb_build_object('code', 'stage_fits'));
    else
      out := out || (base || pg_catalog.jsonb_build_object('code', 'stage_mismatch', 'sought', pg_catalog.to_jsonb(x.stages_sought::text[])));
    end if;
  end if;
  -- languages
  if d ->> 'languages_max' is not null then
    v_x := private.text_intersect(x.languages, y.languages);
    base := pg_catalog.jsonb_build_object('side', p_side, 'criterion', 'languages', 'points', pg_catalog.round((d ->> 'languages_p100')::numeric / 100, 2),
      'max', (d ->> 'languages_max')::integer, 'must', 'languages' = any (x.must_have));
    if cardinality(v_x) > 0 then
      out := out || (base || pg_catalog.jsonb_build_object('code', 'shared_languages', 'languages', pg_catalog.to_jsonb(v_x)));
    else
      out := out || (base || pg_catalog.jsonb_build_object('code', 'no_shared_language', 'sought', pg_catalog.to_jsonb(x.languages)));
    end if;
  end if;
  if pg_catalog.jsonb_array_length(out) = 0 then
    out := pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object('code', 'open_to_all', 'side', p_side, 'criterion', null,
      'points', 0, 'max', 0, 'must', false));
  end if;
  return out;
end;
$$;
comment on function private.match_reasons(text, public.match_profiles, public.match_profiles, text, jsonb) is
  'Structured reasons {code, side, criterion, points, max, must, ...params} of one match direction (issue 19).';

/* People the caller must never be matched with (besides suspended, hidden, unconfirmed ones):
   blocks either way, contacts (pending or accepted, either way), requests of the caller they
   declined within 30 days, people the caller marked "Not interested" (for good), people who
   marked the caller "Not interested" within 30 days. */
create or replace function private.match_excluded(p_me uuid)
returns uuid[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(pg_catalog.array_agg(distinct x), '{}')
  from (
    select blocked_id as x from public.user_blocks where blocker_id = p_me
    union all select blocker_id from public.user_blocks where blocked_id = p_me
    union all select case when c.requester_id = p_me then c.addressee_id else c.requester_id end
      from public.contacts c
      where (c.requester_id = p_me or c.addressee_id = p_me)
        and (c.status in ('pending', 'accepted')
             or (c.status = 'declined' and c.requester_id = p_me and c.responded_at > pg_catalog.now() - interval '30 days'))
    union all select declined_id from public.match_declines where user_id = p_me
    union all select user_id from public.match_declines where declined_id = p_me and created_at > pg_catalog.now() - interval '30 days'
  ) s
$$;
comment on function private.match_excluded(uuid) is 'Ids excluded from p_me''s matches: blocks, contacts, declines (issue 19).';

/*
 * All matches of profile x (the caller's primary or saved profile) that pass every exclusion and
 * both sides' must-haves, with score = min(mine, theirs), ranked by score desc, responsiveness
 * desc, user id. Candidates: primary, active profiles of listed (confirmed, visible), not
 * suspended people other than p_me, not in private.match_excluded, that offer at least one role
 * x seeks (any role when x seeks none) and, when they seek roles, seek one x offers; at most
 * p_cap of them (the most recently updated) are scored. p_filters (already validated by the
 * caller): kinds, roles, skills (all), industries, commitment, languages, stages, remote,
 * point + radius_km, min_score, ticket_min_eur, ticket_max_eur.
 */
create or replace function private.match_rank(
  p_me uuid, x public.match_profiles, x_lat double precision, x_lon double precision, x_city text,
  p_full boolean, p_premium boolean, p_filters jsonb, p_cap integer)
returns setof private.match_hit
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  -- listed, unconfirmed and suspended come from match_profiles.owner_listed (part of the index predicate)
  v_excluded uuid[] := private.match_excluded(p_me);
  v_wx integer[] := private.match_w(p_full, p_premium, x.weights_arr);
  v_roles public.match_role[] := case when cardinality(x.roles_sought) > 0 then x.roles_sought
                                      else pg_catalog.enum_range(null::public.match_role) end;
  -- role pairs (see match_profiles.role_pairs) of people who offer a role x seeks and seek a role x offers or none
  v_pairs integer[] := array(
    select (pg_catalog.array_position(pg_catalog.enum_range(null::public.match_role), o) - 1) * 16 + s
    from pg_catalog.unnest(v_roles) o
    cross join (select pg_catalog.array_position(pg_catalog.enum_range(null::public.match_role), r) - 1 as s
                from pg_catalog.unnest(x.roles_offered) r union all select 15) so);
  f_kinds public.match_kind[] := (select pg_catalog.array_agg(e::public.match_kind) from pg_catalog.jsonb_array_elements_text(p_filters -> 'kinds') e);
  f_roles public.match_role[] := (select pg_catalog.array_agg(e::public.match_role) from pg_catalog.jsonb_array_elements_text(p_filters -> 'roles') e);
  f_skills text[] := (select pg_catalog.array_agg(e) from pg_catalog.jsonb_array_elements_text(p_filters -> 'skills') e);
  f_industries public.project_category[] := (select pg_catalog.array_agg(e::public.project_category) from pg_catalog.jsonb_array_elements_text(p_filters -> 'industries') e);
  f_commitment public.match_commitment[] := (select pg_catalog.array_agg(e::public.match_commitment) from pg_catalog.jsonb_array_elements_text(p_filters -> 'commitment') e);
  f_languages text[] := (select pg_catalog.array_agg(e) from pg_catalog.jsonb_array_elements_text(p_filters -> 'languages') e);
  f_stages public.project_stage[] := (select pg_catalog.array_agg(e::public.project_stage) from pg_catalog.jsonb_array_elements_text(p_filters -> 'stages') e);
  f_remote boolean := (p_filters ->> 'remote')::boolean;
  f_lat double precision := (p_filters -> 'point' ->> 1)::double precision;
  f_lon double precision := (p_filters -> 'point' ->> 0)::double precision;
  f_radius integer := coalesce((p_filters ->> 'radius_km')::integer, 50);
  f_min integer := coalesce((p_filters ->> 'min_score')::integer, 0);
  f_tmin integer := (p_filters ->> 'ticket_min_eur')::integer;
  f_tmax integer := (p_filters ->> 'ticket_max_eur')::integer;
  v_plain boolean := p_filters is null or p_filters = '{}'::jsonb;
begin
  return query
  with picked as materialized (
    -- without filters (every first page): the p_cap most recently updated candidates from the
    -- index alone (match_profiles_recent_idx includes the columns tested here; issue 34: the rows
    -- of the ~16,000 candidates passed over were read just to test role_pairs)
    (select m.id from public.match_profiles m
     -- role_pairs && v_pairs = offers a role x seeks (v_roles) and seeks none or a role x offers
     where v_plain and m.is_primary and m.active and m.owner_listed
       and m.role_pairs operator(pg_catalog.&&) v_pairs
       and m.user_id <> p_me
       and not (m.user_id = any (v_excluded))
     order by m.updated_at desc
     limit p_cap)
    union all
    (select m.id from public.match_profiles m
     where not v_plain and m.is_primary and m.active and m.owner_listed
       and m.role_pairs operator(pg_catalog.&&) v_pairs
       and m.user_id <> p_me
       and not (m.user_id = any (v_excluded))
       and (f_kinds is null or m.kind = any (f_kinds))
       and (f_roles is null or m.roles_offered operator(pg_catalog.&&) f_roles)
       and (f_skills is null or m.skills operator(pg_catalog.@>) f_skills)
       and (f_industries is null or m.industries operator(pg_catalog.&&) f_industries)
       and (f_commitment is null or m.commitment = any (f_commitment))
       and (f_languages is null or m.languages operator(pg_catalog.&&) f_languages)
       and (f_stages is null or m.idea_stage = any (f_stages))
       and (f_remote is null or m.remote_ok = f_remote)
       and (f_tmin is null or m.ticket_max_eur >= f_tmin)
       and (f_tmax is null or m.ticket_min_eur <= f_tmax)
       and (f_lat is null or (m.owner_lat is not null and 111.195 * pg_catalog.sqrt(pg_catalog.power(m.owner_lat - f_lat, 2)
             + pg_catalog.power((m.owner_lon - f_lon) * pg_catalog.cos(pg_catalog.radians((m.owner_lat + f_lat) / 2)), 2)) <= f_radius))
     order by m.updated_at desc
     limit p_cap)
  ),
  cand as (
    select m.id, m.user_id, m.must_mask, m.roles_offered_mask, m.roles_sought_mask, m.skills_mask, m.skills_sought_mask, m.kind_mask,
           m.kinds_sought_mask, m.industries_mask, m.stage_mask, m.stages_sought_mask, m.commitment, m.languages, m.remote_ok,
           m.radius_km, m.weights_arr, m.owner_lat as y_lat, m.owner_lon as y_lon, m.owner_city as y_city, m.owner_advanced as y_premium,
           m.owner_responsiveness
    from picked k
    join public.match_profiles m on m.id = k.id
  )
  select c.user_id, c.id, least(a.score, b.score), a.score, b.score, c.owner_responsiveness
  from cand c
  cross join lateral private.match_direction(p_full, v_wx, x.must_mask, x.roles_sought_mask, x.skills_sought_mask, x.kinds_sought_mask, x.industries_mask, x.stages_sought_mask, x.commitment, x.languages, x.remote_ok, x.radius_km, x_lat, x_lon, x_city, c.roles_offered_mask, c.skills_mask, c.kind_mask, c.industries_mask, c.stage_mask, c.commitment, c.languages, c.remote_ok, c.y_lat, c.y_lon, c.y_city) a
  cross join lateral private.match_direction(p_full, private.match_w(p_full, c.y_premium, c.weights_arr), c.must_mask, c.roles_sought_mask, c.skills_sought_mask, c.kinds_sought_mask, c.industries_mask, c.stages_sought_mask, c.commitment, c.languages, c.remote_ok, c.radius_km, c.y_lat, c.y_lon, c.y_city, x.roles_offered_mask, x.skills_mask, x.kind_mask, x.industries_mask, x.stage_mask, x.commitment, x.languages, x.remote_ok, x_lat, x_lon, x_city) b
  where a.ok and b.ok and least(a.score, b.score) >= f_min;
end;
$$;
comment on function private.match_rank(uuid, public.match_profiles, double precision, double precision, text, boolean, boolean, jsonb, integer) is
  'Scored, filtered matches of a profile (unordered); candidates capped at p_cap (issue 19).';

/* Validates p_filters of the match RPCs; returns it with `city` resolved to `point` [lon, lat].
   Errors: 22023 invalid_filter (unknown key or bad value), 22023 unknown_city. */
create or replace function private.match_filters(p_filters jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_bad text;
  v point;
  f jsonb := coalesce(p_filters, '{}'::jsonb);
begin
  if pg_catalog.jsonb_typeof(f) <> 'object' then
    raise exception using errcode = '22023', message = 'invalid_filter', detail = 'p_filters must be an object.';
  end if;
  select k into v_bad from pg_catalog.jsonb_object_keys(f) k
  where not (k = any (array['kinds', 'roles', 'skills', 'industries', 'commitment', 'languages', 'stages', 'remote', 'city',
                            'radius_km', 'min_score', 'ticket_min_eur', 'ticket_max_eur']))
  limit 1;
  if v_bad is not null then
    raise exception using errcode = '22023', message = 'invalid_filter', detail = 'Unknown filter: ' || v_bad;
  end if;
  begin
    perform (select pg_catalog.array_agg(e::public.match_kind) from pg_catalog.jsonb_array_elements_text(f -> 'kinds') e),
            (select pg_catalog.array_agg(e::public.match_role) from pg_catalog.jsonb_array_elements_text(f -> 'roles') e),
            (select pg_catalog.array_agg(e::public.project_category) from pg_catalog.jsonb_array_elements_text(f -> 'industries') e),
            (select pg_catalog.array_agg(e::public.match_commitment) from pg_catalog.jsonb_array_elements_text(f -> 'commitment') e),
            (select pg_catalog.array_agg(e::public.project_stage) from pg_catalog.jsonb_array_elements_text(f -> 'stages') e),
            (select pg_catalog.array_agg(e) from pg_catalog.jsonb_array_elements_text(f -> 'skills') e),
            (select pg_catalog.array_agg(e) from pg_catalog.jsonb_array_elements_text(f -> 'languages') e),
            (f ->> 'remote')::boolean, (f ->> 'radius_km')::integer, (f ->> 'min_score')::integer,
            (f ->> 'ticket_min_eur')::integer, (f ->> 'ticket_max_eur')::integer;
  exception when others then
    raise exception using errcode = '22023', message = 'invalid_filter', detail = SQLERRM;
  end;
  if f ? 'city' then
    v := private.city_point(f ->> 'city');
    if v is null then
      raise exception using errcode = '22023', message = 'unknown_city', detail = 'Not in the city gazetteer: ' || coalesce(f ->> 'city', '');
    end if;
    f := (f - 'city') || pg_catalog.jsonb_build_object('point', pg_catalog.jsonb_build_array(v[0], v[1]));
  end if;
  return f;
end;
$$;
comment on function private.match_filters(jsonb) is 'Validates match filters; city -> point (22023 invalid_filter / unknown_city).';

/* The caller's match profile x (primary, or p_profile_id = one of their saved profiles) and its
   place. Errors: PT404 match_profile_missing (no primary profile), PT404 match_profile_not_found
   (p_profile_id is not one of the caller's), PT402 enterprise_required (saved profile below
   Enterprise). */
create or replace function private.match_subject(p_me uuid, p_profile_id uuid, p_plan text,
  out x public.match_profiles, out x_lat double precision, out x_lon double precision, out x_city text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v point;
begin
  if p_profile_id is null then
    select * into x from public.match_profiles m where m.user_id = p_me and m.is_primary;
    if not found then
      raise exception using errcode = 'PT404', message = 'match_profile_missing',
        detail = 'Fill in your matching profile first (/user/settings).';
    end if;
  else
    select * into x from public.match_profiles m where m.id = p_profile_id and m.user_id = p_me;
    if not found then
      raise exception using errcode = 'PT404', message = 'match_profile_not_found', detail = 'No such match profile of yours.';
    end if;
    if not x.is_primary and private.plan_rank(p_plan) < 3 then
      raise exception using errcode = 'PT402', message = 'enterprise_required',
        detail = 'Saved match profiles are part of custom matching (Enterprise, spec §6).';
    end if;
  end if;
  select p.latitude, p.longitude, p.city into x_lat, x_lon, x_city from public.profiles p where p.id = p_me;
  if not x.is_primary and x.city is not null then
    v := private.city_point(x.city);
    x_city := x.city;
    x_lat := v[1];
    x_lon := v[0];
  end if;
end;
$$;
comment on function private.match_subject(uuid, uuid, text) is 'The match profile a match RPC runs for, with its place (issue 19).';

/* Start of the current ISO week (Monday 00:00 Europe/Berlin) and of the next one. */
create or replace function private.match_week(out week_start timestamptz, out week_end timestamptz)
language sql
stable
set search_path = ''
as $$
  select pg_catalog.date_trunc('week', pg_catalog.now() at time zone 'Europe/Berlin') at time zone 'Europe/Berlin',
         (pg_catalog.date_trunc('week', pg_catalog.now() at time zone 'Europe/Berlin') + interval '7 days') at time zone 'Europe/Berlin'
$$;
comment on function private.match_week() is 'Current ISO week in Europe/Berlin: [week_start, week_end) (Basic quota, issue 19).';

/* CSV of a field for export: quoted, quotes doubled, formula prefixes (= + - @) neutralised. */
create or replace function private.csv_field(v text)
returns text
language sql
immutable
set search_path = ''
as $$
  select '"' || pg_catalog.replace(case when coalesce(v, '') ~ '^[=+\-@]' then '''' || v else coalesce(v, '') end, '"', '""') || '"'
$$;
comment on function private.csv_field(text) is 'One CSV field (RFC 4180 quoting, spreadsheet formula guard).';

/*
 * How well person y fits an open role of a project, both ways (issue 19): the role's needs
 * (skills 40: share of the role's skills y has; commitment 20) and y's wishes (location 20: the
 * project's city against y's place, radius and remote; industries 10: the project's category;
 * stage 10: the project's stage). p_full = false (Basic) scores skills and location only. y's
 * must-haves (location, industries, commitment, stage) exclude (ok = false). A project without
 * a city is remote. score = round(100 × Σ points / Σ max), 100 when Σ max = 0. Arguments are
 * scalars (composite field access per candidate is slow): y_* = the person's engine columns of
 * public.match_profiles and place (WGS84 degrees, city name), r_* = the role's skill mask and
 * commitment, pr_* = the project's place, category and stage as enum bit masks (0 = none). Plain SQL
 * without SET so the planner inlines it.
 */
create or replace function private.role_fit(
  p_full boolean, y_skills bit(256), y_commitment public.match_commitment, y_remote boolean, y_radius integer, y_must integer,
  y_industries integer, y_stages_sought integer, y_lat double precision, y_lon double precision, y_city text,
  r_skills bit(256), r_commitment public.match_commitment,
  pr_lat double precision, pr_lon double precision, pr_city text, pr_category integer, pr_stage integer)
returns table (
  skills_pts numeric, skills_max integer, commitment_pts numeric, commitment_max integer, location_pts numeric, location_max integer,
  industries_pts numeric, industries_max integer, stage_pts numeric, stage_max integer, distance_km integer, location_code text,
  ok boolean, score integer)
language sql
immutable
parallel safe
as $$
  select c.skills_pts, c.skills_max, c.commitment_pts, c.commitment_max, c.location_pts, c.location_max,
         c.industries_pts, c.industries_max, c.stage_pts, c.stage_max, c.km, c.l_code, c.ok,
         case when c.tmax = 0 then 100 else pg_catalog.round(100 * c.tpts / c.tmax)::integer end
  from (
    select b.*,
      coalesce(b.skills_max, 0) + coalesce(b.commitment_max, 0) + coalesce(b.location_max, 0) + coalesce(b.industries_max, 0) + coalesce(b.stage_max, 0) as tmax,
      coalesce(b.skills_pts, 0) + coalesce(b.commitment_pts, 0) + coalesce(b.location_pts, 0) + coalesce(b.industries_pts, 0) + coalesce(b.stage_pts, 0) as tpts
    from (
      select a.km, a.l_code,
        case when a.s_n > 0 then pg_catalog.round(40 * a.s_hit::numeric / a.s_n, 2) end as skills_pts,
        case when a.s_n > 0 then 40 end as skills_max,
        case when p_full and a.c_app then pg_catalog.round(20 * a.c_frac, 2) end as commitment_pts,
        case when p_full and a.c_app then 20 end as commitment_max,
        case when a.l_app then case when a.l_hit then 20 else 0 end end::numeric as location_pts,
        case when a.l_app then 20 end as location_max,
        case when p_full and a.i_app then case when a.i_hit then 10 else 0 end end::numeric as industries_pts,
        case when p_full and a.i_app then 10 end as industries_max,
        case when p_full and a.st_app then case when a.st_hit then 10 else 0 end end::numeric as stage_pts,
        case when p_full and a.st_app then 10 end as stage_max,
        (y_must & 4 = 0 or not a.l_app or a.l_hit)
          and (y_must & 16 = 0 or y_industries = 0 or a.i_hit)
          and (y_must & 32 = 0 or not a.c_app or a.c_frac = 1)
          and (y_must & 64 = 0 or y_stages_sought = 0 or a.st_hit) as ok
      from (
        select d.km, d.l_code,
          d.l_code in ('same_city', 'within_radius', 'remote_project') as l_hit,
          pg_catalog.bit_count(r_skills)::integer as s_n,
          pg_catalog.bit_count(r_skills & y_skills)::integer as s_hit,
          (r_commitment is not null and y_commitment is not null) as c_app,
          case when r_commitment = y_commitment then 1::numeric
               when (r_commitment, y_commitment) in (('full_time', 'part_time'), ('part_time', 'full_time'),
                 ('part_time', 'side_project'), ('side_project', 'part_time'), ('full_time', 'later'), ('later', 'full_time'))
                 then 0.5
               else 0::numeric end as c_frac,
          (y_lat is not null or y_city is not null or y_remote) as l_app,
          (y_industries <> 0 and pr_category <> 0) as i_app,
          (y_industries & pr_category) <> 0 as i_hit,
          y_stages_sought <> 0 as st_app,
          (y_stages_sought & pr_stage) <> 0 as st_hit
        from (
          select e.km,
            case when pr_city is null or pg_catalog.btrim(pr_city) = '' then case when y_remote then 'remote_project' else 'location_unknown' end
                 when y_city is not null and pg_catalog.lower(y_city) = pg_catalog.lower(pr_city) then 'same_city'
                 when e.km is not null and e.km <= y_radius then 'within_radius'
                 when e.km is null then 'location_unknown'
                 else 'too_far' end as l_code
          from (
            select case when y_lat is null or pr_lat is null or y_lon is null or pr_lon is null then null
                        else pg_catalog.round(111.195 * pg_catalog.sqrt(
                               pg_catalog.power(y_lat - pr_lat, 2)
                               + pg_catalog.power((y_lon - pr_lon) * pg_catalog.cos(pg_catalog.radians((y_lat + pr_lat) / 2)), 2)))::integer
                   end as km
            offset 0
          ) e
          offset 0
        ) d
        offset 0
      ) a
      offset 0
    ) b
  ) c
$$;
comment on function private.role_fit(boolean, bit, public.match_commitment, boolean, integer, integer, integer, integer,
  double precision, double precision, text, bit, public.match_commitment, double precision, double precision, text, integer, integer) is
  'Scores a person against a project''s open role (skills, commitment, location, industry, stage) with must-haves (issue 19).';

/*
 * Reasons of a person ↔ open role fit (d = to_jsonb of private.role_fit): {code, criterion,
 * points, max, must, ...params}. Codes (the labels of public.fit_reason_code) and params:
 *   roles:      needs_your_role {role} (points 0, max 0: the prerequisite)
 *   skills:     has_role_skills {skills, missing} | lacks_role_skills {skills}
 *   commitment: same_commitment {commitment} | role_commitment_mismatch {person, role}
 *   location:   same_city {city} | within_radius {city, km, radius_km} | remote_project {} | too_far {city, km, radius_km} | location_unknown {}
 *   industries: in_industry {industry} | other_industry {industry, sought}
 *   stage:      stage_fits {stage} | stage_mismatch {stage, sought}
 */
create or replace function private.role_fit_reasons(y public.match_profiles, p_role public.match_role, r_skills text[],
  r_commitment public.match_commitment, pr_city text, pr_category public.project_category, pr_stage public.project_stage, d jsonb)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  out jsonb := pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object('code', 'needs_your_role', 'criterion', 'roles', 'role', p_role,
    'points', 0, 'max', 0, 'must', false));
  v text[];
  base jsonb;
begin
  if d ->> 'skills_max' is not null then
    v := private.text_intersect(r_skills, y.skills);
    base := pg_catalog.jsonb_build_object('criterion', 'skills', 'points', (d ->> 'skills_pts')::numeric, 'max', (d ->> 'skills_max')::integer, 'must', false);
    out := out || (base || case when cardinality(v) > 0
      then pg_catalog.jsonb_build_object('code', 'has_role_skills', 'skills', pg_catalog.to_jsonb(v),
        'missing', pg_catalog.to_jsonb(coalesce(array(select s from pg_catalog.unnest(r_skills) s where not (s = any (y.skills))), '{}')))
      else pg_catalog.jsonb_build_object('code', 'lacks_role_skills', 'skills', pg_catalog.to_jsonb(r_skills)) end);
  end if;
  if d ->> 'commitment_max' is not null then
    base := pg_catalog.jsonb_build_object('criterion', 'commitment', 'points', (d ->> 'commitment_pts')::numeric,
      'max', (d ->> 'commitment_max')::integer, 'must', 'commitment' = any (y.must_have));
    out := out || (base || case when r_commitment = y.commitment
      then pg_catalog.jsonb_build_object('code', 'same_commitment', 'commitment', r_commitment)
      else pg_catalog.jsonb_build_object('code', 'role_commitment_mismatch', 'person', y.commitment, 'role', r_commitment) end);
  end if;
  if d ->> 'location_max' is not null then
    base := pg_catalog.jsonb_build_object('criterion', 'location', 'points', (d ->> 'location_pts')::numeric,
      'max', (d ->> 'location_max')::integer, 'must', 'location' = any (y.must_have), 'code', d ->> 'location_code');
    out := out || (base || case d ->> 'location_code'
      when 'same_city' then pg_catalog.jsonb_build_object('city', pr_city)
      when 'within_radius' then pg_catalog.jsonb_build_object('city', pr_city, 'km', (d ->> 'distance_km')::integer, 'radius_km', y.radius_km)
      when 'too_far' then pg_catalog.jsonb_build_object('city', pr_city, 'km', (d ->> 'distance_km')::integer, 'radius_km', y.radius_km)
      else '{}'::jsonb end);
  end if;
  if d ->> 'industries_max' is not null then
    base := pg_catalog.jsonb_build_object('criterion', 'industries', 'points', (d ->> 'industries_pts')::numeric,
      'max', (d ->> 'industries_max')::integer, 'must', 'industries' = any (y.must_have), 'industry', pr_category);
    out := out || (base || case when pr_category = any (y.industries)
      then pg_catalog.jsonb_build_object('code', 'in_industry')
      else pg_catalog.jsonb_build_object('code', 'other_industry', 'sought', pg_catalog.to_jsonb(y.industries::text[])) end);
  end if;
  if d ->> 'stage_max' is not null then
    base := pg_catalog.jsonb_build_object('criterion', 'stage', 'points', (d ->> 'stage_pts')::numeric,
      'max', (d ->> 'stage_max')::integer, 'must', 'stage' = any (y.must_have), 'stage', pr_stage);
    out := out || (base || case when pr_stage = any (y.stages_sought)
      then pg_catalog.jsonb_build_object('code', 'stage_fits')
      else pg_catalog.jsonb_build_object('code', 'stage_mismatch', 'sought', pg_catalog.to_jsonb(y.stages_sought::text[])) end);
  end if;
  return out;
end;
$$;
comment on function private.role_fit_reasons(public.match_profiles, public.match_role, text[], public.match_commitment, text,
  public.project_category, public.project_stage, jsonb) is 'Structured reasons of a person ↔ open role fit (issue 19).';

/*
 * Sends the weekly "new matches" e-mails that are due (issue 19). For at most p_batch people with
 * Premium or Enterprise who have an active primary matching profile, have no row in
 * private.match_digest_log for the current ISO week, are confirmed and not suspended: counts their
 * new matches (never shown to them), queues mail `match_digest` when there is at least one and
 * the person wants it, and logs the week either way. p_user_id limits the run to one person
 * (tests, support). Returns the number of mails queued.
 */
create or replace function private.send_match_digests(p_batch integer default 200, p_user_id uuid default null)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_week record := private.match_week();
  r record;
  s record;
  v_new integer;
  v_top jsonb;
  n integer := 0;
begin
  for r in
    select p.id, p.email, p.preferred_language, p.firstname, p.lastname, private.match_plan(p.id) as plan
    from public.match_profiles m
    join public.profiles p on p.id = m.user_id
    where m.is_primary and m.active and p.authenticated = 1
      and (p_user_id is null or p.id = p_user_id)
      and not exists (select 1 from private.match_digest_log l where l.user_id = p.id and l.week_start = v_week.week_start)
      and not exists (select 1 from public.account_suspensions x where x.user_id = p.id)
      and (p.user_role in ('premium', 'enterprise', 'admin')
           or exists (select 1 from public.subscriptions sub where sub.user_id = p.id and private.is_paid_status(sub.status)))
    order by p.id
    limit greatest(coalesce(p_batch, 200), 1)
    for update of m skip locked
  loop
    v_new := 0;
    v_top := '[]'::jsonb;
    if private.plan_rank(r.plan) >= 2 then
      s := private.match_subject(r.id, null, r.plan);
      with hits as (
        select h.user_id, h.score
        from private.match_rank(r.id, s.x, s.x_lat, s.x_lon, s.x_city, true, true, '{}'::jsonb, 1000) h
        where not exists (select 1 from public.match_impressions i where i.user_id = r.id and i.shown_id = h.user_id)
      )
      select pg_catalog.count(*)::integer,
             coalesce((select pg_catalog.jsonb_agg(t.line order by t.score desc, t.line)
                       from (select h2.score, private.public_display_name(q.firstname, q.lastname, q.slug) || ' (' || h2.score || ')' as line
                             from hits h2 join public.profiles q on q.id = h2.user_id
                             order by h2.score desc, h2.user_id limit 3) t), '[]'::jsonb)
        into v_new, v_top
      from hits;
      if v_new > 0 and private.wants_email(r.id, 'match_digest') then
        perform private.enqueue_email(r.id, r.email, 'match_digest', r.preferred_language,
          pg_catalog.jsonb_build_object('firstname', r.firstname, 'lastname', r.lastname),
          pg_catalog.jsonb_build_object('count', v_new,
            'top', (select pg_catalog.string_agg('- ' || e, E'\n') from pg_catalog.jsonb_array_elements_text(v_top) e),
            'path', '/matches', 'settings_path', '/user/settings'));
        n := n + 1;
      end if;
    end if;
    insert into private.match_digest_log (user_id, week_start, new_matches) values (r.id, v_week.week_start, v_new)
    on conflict do nothing;
  end loop;
  return n;
end;
$$;
comment on function private.send_match_digests(integer, uuid) is
  'Cron (hourly): the weekly "new matches" e-mail for Premium and Enterprise, once per ISO week per person (issue 19).';

/* Writes private.responsiveness (fair requests, 0..1) of every owner with contact requests in the
   last 90 days into match_profiles.owner_responsiveness, 0.5 (no history) for everyone else;
   touches only rows whose value changes (the column is not one of those that bump updated_at).
   Returns the rows changed. */
create or replace function private.refresh_match_responsiveness()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  n integer;
begin
  with recent as (
    select a.addressee_id as user_id, private.responsiveness(a.addressee_id) as value
    from (select distinct l.addressee_id from private.contact_request_log l
          where l.sent_at > pg_catalog.now() - interval '90 days') a
  ), target as (
    select m.id, coalesce(r.value, 0.5) as value
    from public.match_profiles m left join recent r on r.user_id = m.user_id
  )
  update public.match_profiles m set owner_responsiveness = t.value
  from target t
  where m.id = t.id and m.owner_responsiveness is distinct from t.value;
  get diagnostics n = row_count;
  return n;
end;
$$;
comment on function private.refresh_match_responsiveness() is
  'Cron (hourly): the responsiveness tie-break of the matching ranking, match_profiles.owner_responsiveness (issue 19).';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

create policy skills_select on public.skills for select to anon, authenticated using (true);
create policy match_profiles_select on public.match_profiles for select to authenticated
using (user_id = (select auth.uid()) or (select private.is_admin()));
create policy match_profiles_insert on public.match_profiles for insert to authenticated
with check (user_id = (select auth.uid()) and (select private.caller_can_write()));
create policy match_profiles_update on public.match_profiles for update to authenticated
using (user_id = (select auth.uid()) and (select private.caller_can_write()))
with check (user_id = (select auth.uid()));
create policy match_profiles_delete on public.match_profiles for delete to authenticated
using (user_id = (select auth.uid()) or (select private.is_admin()));
create policy project_open_roles_select on public.project_open_roles for select to anon, authenticated
using (private.can_see_project(project_id) or (select private.is_admin()));
create policy project_open_roles_insert on public.project_open_roles for insert to authenticated
with check ((select private.caller_can_write()) and private.owns_project(project_id));
create policy project_open_roles_update on public.project_open_roles for update to authenticated
using ((select private.caller_can_write()) and private.owns_project(project_id))
with check (private.owns_project(project_id));
create policy project_open_roles_delete on public.project_open_roles for delete to authenticated
using (private.owns_project(project_id) or (select private.is_admin()));
create policy match_declines_select on public.match_declines for select to authenticated
using (user_id = (select auth.uid()));
create policy match_declines_insert on public.match_declines for insert to authenticated
with check (user_id = (select auth.uid()) and (select private.caller_can_write()));
create policy match_declines_delete on public.match_declines for delete to authenticated
using (user_id = (select auth.uid()));
create policy match_impressions_select on public.match_impressions for select to authenticated
using (user_id = (select auth.uid()));

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

/*
 * The caller's matches: one ranked page of people (issue 19, spec §6).
 *
 * Input: p_profile_id = null (the caller's primary matching profile) or one of the caller's
 * saved match profiles (Enterprise); p_filters (Premium/Enterprise) {kinds[], roles[] (offered by
 * them), skills[] (they have all), industries[], commitment[], languages[], stages[] (their idea
 * stage), remote (bool), city (gazetteer name) + radius_km (default 50), min_score (0..100),
 * ticket_min_eur, ticket_max_eur (investor ticket range overlaps)}; p_limit 1..50 (default 20);
 * p_cursor = next_cursor of the previous page.
 *
 * Output jsonb: {plan, count (all matches, at most 1000 candidates scored), items, next_cursor,
 * quota, upgrade}. items[]: {user_id, slug, display_name, profile_img, headline, city, kind,
 * roles_offered, skills, skill_tags, score, score_mine, score_theirs, is_new, reasons}.
 * score = min(score_mine, score_theirs); score_mine = round(100 × Σ points / Σ max) over the
 * reasons with side 'you' (100 when that Σ max is 0), score_theirs the same over side 'they'
 * (reason codes: private.match_reasons). Order: score desc, responsiveness desc
 * (private.match_responsiveness, 0 for now), user id.
 * Plans: free -> count only, items [] and upgrade {plan: 'basic'}; basic -> roles, skills and
 * location scored, at most 10 new people per ISO week (Europe/Berlin; people shown before are
 * shown again freely), quota {limit, used, remaining, resets_at, withheld}, upgrade {plan:
 * 'premium'}; premium -> every criterion, own weights, filters; enterprise -> plus saved profiles.
 * Records an impression for each newly shown person.
 *
 * Errors: 28000 not_authenticated; PT404 match_profile_missing | match_profile_not_found;
 * PT402 enterprise_required (saved profile) | premium_required (filters below Premium);
 * 22023 invalid_filter | unknown_city | invalid_cursor; PT429 weekly_match_limit (Basic: every
 * match this page would show is new and the 10 new matches of the week are used up; hint = the
 * ISO timestamp when the allowance renews).
 */
create or replace function public.match_people(
  p_profile_id uuid default null, p_filters jsonb default '{}'::jsonb, p_limit integer default 20, p_cursor text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  v_plan text;
  v_full boolean;
  s record;
  x public.match_profiles;
  f jsonb;
  v_hits private.match_hit[];
  h private.match_hit;
  v_limit integer := least(greatest(coalesce(p_limit, 20), 1), 50);
  c_score integer;
  c_resp numeric;
  c_uid uuid;
  v_week record;
  v_quota integer;
  v_used integer := 0;
  v_seen uuid[];
  v_page private.match_hit[] := '{}';
  v_new uuid[] := '{}';
  v_withheld integer := 0;
  v_more boolean := false;
  v_items jsonb;
  v_last private.match_hit;
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  v_plan := private.match_plan(me);
  s := private.match_subject(me, p_profile_id, v_plan);
  x := s.x;
  f := private.match_filters(p_filters);
  if f <> '{}'::jsonb and private.plan_rank(v_plan) < 2 then
    raise exception using errcode = 'PT402', message = 'premium_required',
      detail = 'Filters are part of advanced matching (Premium, spec §6).';
  end if;
  v_full := private.plan_rank(v_plan) >= 2;
  if p_cursor is not null then
    begin
      c_score := pg_catalog.split_part(p_cursor, ':', 1)::integer;
      c_resp := pg_catalog.split_part(p_cursor, ':', 2)::numeric;
      c_uid := pg_catalog.split_part(p_cursor, ':', 3)::uuid;
    exception when others then
      raise exception using errcode = '22023', message = 'invalid_cursor', detail = 'p_cursor must be a next_cursor value.';
    end;
  end if;

  select coalesce(pg_catalog.array_agg(r order by r.score desc, r.responsiveness desc, r.user_id), '{}') into v_hits
  from private.match_rank(me, x, s.x_lat, s.x_lon, s.x_city, v_full, v_full, f, 1000) r;

  if v_plan = 'free' then
    return pg_catalog.jsonb_build_object('plan', v_plan, 'count', pg_catalog.cardinality(v_hits), 'items', '[]'::jsonb,
      'next_cursor', null, 'quota', null, 'upgrade', pg_catalog.jsonb_build_object('plan', 'basic', 'reason', 'matching_needs_plan'));
  end if;

  v_week := private.match_week();
  if v_plan = 'basic' then
    v_quota := 10;
    select pg_catalog.count(*) into v_used from public.match_impressions
    where user_id = me and first_shown_at >= v_week.week_start;
  end if;
  v_seen := coalesce(array(select shown_id from public.match_impressions where user_id = me), '{}');

  foreach h in array v_hits loop
    if c_uid is not null and not (h.score < c_score or (h.score = c_score and (h.responsiveness < c_resp
        or (h.responsiveness = c_resp and h.user_id > c_uid)))) then
      continue;
    end if;
    if pg_catalog.cardinality(v_page) >= v_limit then
      v_more := true;
      exit;
    end if;
    if not (h.user_id = any (v_seen)) then
      if v_quota is not null and v_used >= v_quota then
        v_withheld := v_withheld + 1;
        continue;
      end if;
      v_new := v_new || h.user_id;
      v_used := v_used + 1;
    end if;
    v_page := v_page || h;
  end loop;

  if pg_catalog.cardinality(v_page) = 0 and v_withheld > 0 then
    raise exception using errcode = 'PT429', message = 'weekly_match_limit',
      detail = 'Basic shows 10 new matches per week. More from ' || pg_catalog.to_char(v_week.week_end at time zone 'Europe/Berlin', 'YYYY-MM-DD') || '.',
      hint = pg_catalog.to_char(v_week.week_end at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
  end if;

  insert into public.match_impressions (user_id, shown_id)
  select me, u from pg_catalog.unnest(v_new) u
  on conflict do nothing;

  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
      'user_id', p.id, 'slug', p.slug, 'display_name', private.public_display_name(p.firstname, p.lastname, p.slug),
      'profile_img', p.profile_img, 'headline', p.headline, 'city', p.city, 'kind', y.kind, 'roles_offered', y.roles_offered,
      'skills', y.skills, 'skill_tags', y.skill_tags, 'score', o.score, 'score_mine', o.score_mine, 'score_theirs', o.score_theirs,
      'is_new', o.user_id = any (v_new),
      'reasons', private.match_reasons('you', x, y, p.city, pg_catalog.to_jsonb(a))
                 || private.match_reasons('they', y, x, s.x_city, pg_catalog.to_jsonb(b)))
      order by o.n), '[]'::jsonb)
  into v_items
  from pg_catalog.unnest(v_page) with ordinality as o(user_id, profile_id, score, score_mine, score_theirs, responsiveness, n)
  join public.match_profiles y on y.id = o.profile_id
  join public.profiles p on p.id = y.user_id
  cross join lateral private.match_direction(v_full, private.match_w(v_full, v_full, x.weights_arr), x.must_mask, x.roles_sought_mask, x.skills_sought_mask, x.kinds_sought_mask, x.industries_mask, x.stages_sought_mask, x.commitment, x.languages, x.remote_ok, x.radius_km, s.x_lat, s.x_lon, s.x_city, y.roles_offered_mask, y.skills_mask, y.kind_mask, y.industries_mask, y.stage_mask, y.commitment, y.languages, y.remote_ok, p.latitude, p.longitude, p.city) a
  cross join lateral private.match_direction(v_full, private.match_w(v_full, p.user_role in ('premium', 'enterprise', 'admin'), y.weights_arr), y.must_mask, y.roles_sought_mask, y.skills_sought_mask, y.kinds_sought_mask, y.industries_mask, y.stages_sought_mask, y.commitment, y.languages, y.remote_ok, y.radius_km, p.latitude, p.longitude, p.city, x.roles_offered_mask, x.skills_mask, x.kind_mask, x.industries_mask, x.stage_mask, x.commitment, x.languages, x.remote_ok, s.x_lat, s.x_lon, s.x_city) b;

  v_last := v_page[pg_catalog.cardinality(v_page)];
  return pg_catalog.jsonb_build_object(
    'plan', v_plan,
    'count', pg_catalog.cardinality(v_hits),
    'items', v_items,
    'next_cursor', case when v_more then v_last.score::text || ':' || v_last.responsiveness::text || ':' || v_last.user_id::text end,
    'quota', case when v_quota is not null then pg_catalog.jsonb_build_object('limit', v_quota, 'used', v_used,
      'remaining', greatest(v_quota - v_used, 0), 'resets_at', v_week.week_end, 'withheld', v_withheld) end,
    'upgrade', case when v_plan = 'basic' then pg_catalog.jsonb_build_object('plan', 'premium', 'reason', 'advanced_matching') end);
end;
$$;
comment on function public.match_people(uuid, jsonb, integer, text) is
  'Ranked page of mutual matches with score 0-100 and structured reasons; plan gating (free count only, Basic 10 new per ISO week: PT429 weekly_match_limit). Issue 19.';

/*
 * Enterprise: the caller's matches as CSV (spec §6 "custom matching", issue 19). Same input as
 * match_people (p_profile_id, p_filters) and p_limit 1..1000 (default 500) rows, best first.
 * Output text/csv with a header: rank, name, profile (slug for /u/{slug}), city, kind, score,
 * score_mine, score_theirs, reasons (reason codes of both sides, space separated).
 * Does not count as impressions. Errors: 28000 not_authenticated; PT402 enterprise_required; and
 * those of match_people for the profile and filters.
 */
create or replace function public.export_matches_csv(p_profile_id uuid default null, p_filters jsonb default '{}'::jsonb, p_limit integer default 500)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  v_plan text;
  s record;
  x public.match_profiles;
  f jsonb;
  v_csv text;
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  v_plan := private.match_plan(me);
  if private.plan_rank(v_plan) < 3 then
    raise exception using errcode = 'PT402', message = 'enterprise_required', detail = 'CSV export is part of custom matching (Enterprise, spec §6).';
  end if;
  s := private.match_subject(me, p_profile_id, v_plan);
  x := s.x;
  f := private.match_filters(p_filters);
  select 'rank,name,profile,city,kind,score,score_mine,score_theirs,reasons' || E'\n' || coalesce(pg_catalog.string_agg(
      o.n::text || ',' || private.csv_field(private.public_display_name(p.firstname, p.lastname, p.slug)) || ',' || private.csv_field(p.slug)
      || ',' || private.csv_field(p.city) || ',' || private.csv_field(y.kind::text) || ',' || o.score || ',' || o.score_mine || ',' || o.score_theirs
      || ',' || private.csv_field((select pg_catalog.string_agg(e ->> 'code', ' ')
                                   from pg_catalog.jsonb_array_elements(private.match_reasons('you', x, y, p.city, pg_catalog.to_jsonb(a))
                                     || private.match_reasons('they', y, x, s.x_city, pg_catalog.to_jsonb(b))) e)),
      E'\n' order by o.n), '') || E'\n'
  into v_csv
  from (select r.*, pg_catalog.row_number() over (order by r.score desc, r.responsiveness desc, r.user_id) as n
        from private.match_rank(me, x, s.x_lat, s.x_lon, s.x_city, true, true, f, 1000) r
        order by n limit least(greatest(coalesce(p_limit, 500), 1), 1000)) o
  join public.match_profiles y on y.id = o.profile_id
  join public.profiles p on p.id = y.user_id
  cross join lateral private.match_direction(true, x.weights_arr, x.must_mask, x.roles_sought_mask, x.skills_sought_mask, x.kinds_sought_mask, x.industries_mask, x.stages_sought_mask, x.commitment, x.languages, x.remote_ok, x.radius_km, s.x_lat, s.x_lon, s.x_city, y.roles_offered_mask, y.skills_mask, y.kind_mask, y.industries_mask, y.stage_mask, y.commitment, y.languages, y.remote_ok, p.latitude, p.longitude, p.city) a
  cross join lateral private.match_direction(true, private.match_w(true, p.user_role in ('premium', 'enterprise', 'admin'), y.weights_arr), y.must_mask, y.roles_sought_mask, y.skills_sought_mask, y.kinds_sought_mask, y.industries_mask, y.stages_sought_mask, y.commitment, y.languages, y.remote_ok, y.radius_km, p.latitude, p.longitude, p.city, x.roles_offered_mask, x.skills_mask, x.kind_mask, x.industries_mask, x.stage_mask, x.commitment, x.languages, x.remote_ok, s.x_lat, s.x_lon, s.x_city) b;
  return v_csv;
end;
$$;
comment on function public.export_matches_csv(uuid, jsonb, integer) is 'Enterprise: matches as CSV (rank, name, profile, city, kind, scores, reason codes). Issue 19.';

/*
 * Projects whose open roles fit me (issue 19): one item per unfilled open role of a published
 * project of a listed owner (not me, no block either way) whose role I offer, scored with
 * private.role_fit (me as the person), best first (score desc, role id).
 * Input: p_filters (Premium/Enterprise) {industries[] (project category), stages[] (project
 * stage), city + radius_km, min_score}; p_limit 1..50 (default 20); p_cursor = next_cursor.
 * At most 2000 open roles (the newest) are scored.
 * Output jsonb {plan, count, items, next_cursor, upgrade}; items[]: {project_id, slug, title,
 * summary, city, category, stage, role_id, role, role_title, skills, commitment, score, reasons}.
 * free -> count only and upgrade {plan: 'basic'}; Basic scores skills and location only.
 * Errors: 28000 not_authenticated; PT404 match_profile_missing; PT402 premium_required (filters
 * below Premium); 22023 invalid_filter | unknown_city | invalid_cursor.
 */
create or replace function public.match_projects(p_filters jsonb default '{}'::jsonb, p_limit integer default 20, p_cursor text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  v_plan text;
  v_full boolean;
  s record;
  x public.match_profiles;
  f jsonb;
  v_hidden uuid[];
  v_limit integer := least(greatest(coalesce(p_limit, 20), 1), 50);
  c_score integer;
  c_id bigint;
  v_count integer;
  v_items jsonb;
  v_next text;
  f_industries public.project_category[];
  f_stages public.project_stage[];
  f_lat double precision;
  f_lon double precision;
  f_radius integer;
  f_min integer;
  v_cats public.project_category[] := pg_catalog.enum_range(null::public.project_category);
  v_stages public.project_stage[] := pg_catalog.enum_range(null::public.project_stage);
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  v_plan := private.match_plan(me);
  s := private.match_subject(me, null, v_plan);
  x := s.x;
  f := private.match_filters(p_filters);
  if f - array['industries', 'stages', 'point', 'radius_km', 'min_score'] <> '{}'::jsonb then
    raise exception using errcode = '22023', message = 'invalid_filter', detail = 'Project filters: industries, stages, city, radius_km, min_score.';
  end if;
  if f <> '{}'::jsonb and private.plan_rank(v_plan) < 2 then
    raise exception using errcode = 'PT402', message = 'premium_required', detail = 'Filters are part of advanced matching (Premium, spec §6).';
  end if;
  v_full := private.plan_rank(v_plan) >= 2;
  f_industries := (select pg_catalog.array_agg(e::public.project_category) from pg_catalog.jsonb_array_elements_text(f -> 'industries') e);
  f_stages := (select pg_catalog.array_agg(e::public.project_stage) from pg_catalog.jsonb_array_elements_text(f -> 'stages') e);
  f_lat := (f -> 'point' ->> 1)::double precision;
  f_lon := (f -> 'point' ->> 0)::double precision;
  f_radius := coalesce((f ->> 'radius_km')::integer, 50);
  f_min := coalesce((f ->> 'min_score')::integer, 0);
  if p_cursor is not null then
    begin
      c_score := pg_catalog.split_part(p_cursor, ':', 1)::integer;
      c_id := pg_catalog.split_part(p_cursor, ':', 2)::bigint;
    exception when others then
      raise exception using errcode = '22023', message = 'invalid_cursor', detail = 'p_cursor must be a next_cursor value.';
    end;
  end if;
  v_hidden := private.hidden_user_ids();

  -- the newest 2000 open roles over the roles I offer: per role an ordered walk of project_open_roles_open_idx
  -- that stops after 2000 fitting rows, then the newest 2000 of those (the same set as one scan of all of them)
  with cand as (
    select q.* from (select distinct ro from pg_catalog.unnest(x.roles_offered) ro) o
    cross join lateral (
      select r.id as role_id, r.role, r.title as role_title, r.skills as r_skills, r.skills_mask, r.commitment as r_commitment, r.created_at,
             pr.id as project_id, pr.slug, pr.title, pr.summary, pr.city, pr.latitude, pr.longitude, pr.category, pr.stage,
             case when pr.category is null then 0 else 1 << (pg_catalog.array_position(v_cats, pr.category) - 1) end as category_mask,
             case when pr.stage is null then 0 else 1 << (pg_catalog.array_position(v_stages, pr.stage) - 1) end as stage_mask
      from public.project_open_roles r
      join public.projects pr on pr.id = r.project_id
      where not r.filled and r.role = o.ro
        and pr.status = 'published' and pr.owner_listed and pr.owner_id <> me
        and not (pr.owner_id = any (v_hidden))
        and (f_industries is null or pr.category = any (f_industries))
        and (f_stages is null or pr.stage = any (f_stages))
        and (f_lat is null or (pr.latitude is not null and 111.195 * pg_catalog.sqrt(pg_catalog.power(pr.latitude - f_lat, 2)
              + pg_catalog.power((pr.longitude - f_lon) * pg_catalog.cos(pg_catalog.radians((pr.latitude + f_lat) / 2)), 2)) <= f_radius))
      order by r.created_at desc
      limit 2000
    ) q
    order by q.created_at desc
    limit 2000
  ), scored as (
    select c.*, a.score, a as fit
    from cand c
    cross join lateral private.role_fit(v_full, x.skills_mask, x.commitment, x.remote_ok, x.radius_km, x.must_mask, x.industries_mask,
                                        x.stages_sought_mask, s.x_lat, s.x_lon, s.x_city, c.skills_mask, c.r_commitment,
                                        c.latitude, c.longitude, c.city, c.category_mask, c.stage_mask) a
    where a.ok and a.score >= f_min
  ), counted as (
    select (select pg_catalog.count(*) from scored)::integer as n
  ), page as (
    select sc.* from scored sc
    where v_plan <> 'free'
      and (c_id is null or sc.score < c_score or (sc.score = c_score and sc.role_id > c_id))
    order by sc.score desc, sc.role_id
    limit v_limit + 1
  ), numbered as (
    select pg.*, pg_catalog.row_number() over (order by pg.score desc, pg.role_id) as n from page pg
  )
  select (select n from counted),
         coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'project_id', nb.project_id, 'slug', nb.slug, 'title', nb.title, 'summary', nb.summary, 'city', nb.city,
           'category', nb.category, 'stage', nb.stage, 'role_id', nb.role_id, 'role', nb.role, 'role_title', nb.role_title,
           'skills', nb.r_skills, 'commitment', nb.r_commitment, 'score', nb.score,
           'reasons', private.role_fit_reasons(x, nb.role, nb.r_skills, nb.r_commitment, nb.city, nb.category, nb.stage, pg_catalog.to_jsonb(nb.fit)))
           order by nb.n) filter (where nb.n <= v_limit), '[]'::jsonb),
         max(case when nb.n = v_limit then nb.score::text || ':' || nb.role_id::text end)
           filter (where exists (select 1 from numbered z where z.n > v_limit))
  into v_count, v_items, v_next
  from (select 1) one
  left join numbered nb on true;

  return pg_catalog.jsonb_build_object('plan', v_plan, 'count', v_count, 'items', v_items, 'next_cursor', v_next,
    'upgrade', case v_plan when 'free' then pg_catalog.jsonb_build_object('plan', 'basic', 'reason', 'matching_needs_plan')
                           when 'basic' then pg_catalog.jsonb_build_object('plan', 'premium', 'reason', 'advanced_matching') end);
end;
$$;
comment on function public.match_projects(jsonb, integer, text) is
  'Open roles of projects that fit the caller, scored with reasons; free count only (issue 19).';

/*
 * The team-gap finder (issue 19): for a project of the caller, its open roles (which are still
 * missing: filled = false) and the people who would fill them. p_role_id = null: every open
 * role with its best min(p_limit, 5) people; p_role_id = one of the project's roles: that role
 * with up to p_limit (1..50, default 10) people. People: primary, active matching profiles of
 * listed, not suspended people who offer the role, not the caller, none excluded for the caller
 * (blocks, contacts, declines as in match_people), scored with private.role_fit (at most 1000
 * per role, the most recently updated), best first (score desc, responsiveness desc, user id).
 * Output jsonb {project_id, plan, roles: [{role_id, role, title, skills, commitment, filled,
 * count, candidates: [{user_id, slug, display_name, profile_img, headline, city, kind, score,
 * reasons}]}], upgrade}. Filled roles come with count 0 and no candidates. free -> counts only.
 * Basic scores skills and location only.
 * Errors: 28000 not_authenticated; PT404 project_not_found | open_role_not_found; PT403
 * not_project_owner (only the owner and admins).
 */
create or replace function public.project_role_candidates(p_project_id bigint, p_role_id bigint default null, p_limit integer default 10)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  v_plan text;
  v_full boolean;
  pr public.projects;
  r public.project_open_roles;
  v_excluded uuid[];
  v_limit integer;
  v_category integer;
  v_stage integer;
  v_roles jsonb := '[]'::jsonb;
  v_count integer;
  v_people jsonb;
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  select * into pr from public.projects where id = p_project_id;
  if not found or not (pr.owner_id = me or private.can_see_project(pr.id) or private.is_admin()) then
    raise exception using errcode = 'PT404', message = 'project_not_found', detail = 'No such project.';
  end if;
  if pr.owner_id <> me and not private.is_admin() then
    raise exception using errcode = 'PT403', message = 'not_project_owner', detail = 'Only the project owner sees suggested people.';
  end if;
  if p_role_id is not null and not exists (select 1 from public.project_open_roles where id = p_role_id and project_id = p_project_id) then
    raise exception using errcode = 'PT404', message = 'open_role_not_found', detail = 'No such open role in this project.';
  end if;
  v_plan := private.match_plan(me);
  v_full := private.plan_rank(v_plan) >= 2;
  v_limit := case when p_role_id is null then least(greatest(coalesce(p_limit, 10), 1), 5) else least(greatest(coalesce(p_limit, 10), 1), 50) end;
  v_excluded := private.match_excluded(me);
  v_category := case when pr.category is null then 0 else private.category_mask(array[pr.category]) end;
  v_stage := case when pr.stage is null then 0 else private.stage_mask(array[pr.stage]) end;

  for r in select * from public.project_open_roles where project_id = p_project_id and (p_role_id is null or id = p_role_id) order by id loop
    v_count := 0;
    v_people := '[]'::jsonb;
    if not r.filled then
      -- listed, unconfirmed and suspended come from match_profiles.owner_listed (part of the index predicate)
      with cand as (
        select m.id, m.user_id, m.skills_mask, m.commitment, m.remote_ok, m.radius_km, m.must_mask, m.industries_mask,
               m.stages_sought_mask, m.owner_lat, m.owner_lon, m.owner_city, m.owner_responsiveness
        from public.match_profiles m
        where m.is_primary and m.active and m.owner_listed and m.roles_offered operator(pg_catalog.@>) array[r.role]
          and m.user_id <> me
          and not (m.user_id = any (v_excluded))
        order by m.updated_at desc
        limit 1000
      ), scored as (
        select c.id, c.user_id, a.score, a as fit, c.owner_responsiveness as resp
        from cand c
        cross join lateral private.role_fit(v_full, c.skills_mask, c.commitment, c.remote_ok, c.radius_km, c.must_mask, c.industries_mask,
                                            c.stages_sought_mask, c.owner_lat, c.owner_lon, c.owner_city, r.skills_mask, r.commitment,
                                            pr.latitude, pr.longitude, pr.city, v_category, v_stage) a
        where a.ok
      ), top as (
        select sc.*, pg_catalog.row_number() over (order by sc.score desc, sc.resp desc, sc.user_id) as n
        from scored sc where v_plan <> 'free'
        order by sc.score desc, sc.resp desc, sc.user_id
        limit v_limit
      )
      select (select pg_catalog.count(*) from scored)::integer,
             coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'user_id', p.id, 'slug', p.slug, 'display_name', private.public_display_name(p.firstname, p.lastname, p.slug),
               'profile_img', p.profile_img, 'headline', p.headline, 'city', p.city, 'kind', y.kind, 'score', t.score,
               'reasons', private.role_fit_reasons(y, r.role, r.skills, r.commitment, pr.city, pr.category, pr.stage, pg_catalog.to_jsonb(t.fit)))
               order by t.n)
               from top t join public.match_profiles y on y.id = t.id join public.profiles p on p.id = t.user_id), '[]'::jsonb)
      into v_count, v_people;
    end if;
    v_roles := v_roles || pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object(
      'role_id', r.id, 'role', r.role, 'title', r.title, 'skills', r.skills, 'commitment', r.commitment, 'filled', r.filled,
      'count', v_count, 'candidates', v_people));
  end loop;

  return pg_catalog.jsonb_build_object('project_id', pr.id, 'plan', v_plan, 'roles', v_roles,
    'upgrade', case v_plan when 'free' then pg_catalog.jsonb_build_object('plan', 'basic', 'reason', 'matching_needs_plan')
                           when 'basic' then pg_catalog.jsonb_build_object('plan', 'premium', 'reason', 'advanced_matching') end);
end;
$$;
comment on function public.project_role_candidates(bigint, bigint, integer) is
  'Team-gap finder: a project''s open roles and the people who fit them (owner/admin only). Issue 19.';

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function private.owns_project(bigint) to authenticated, service_role;
grant execute on function public.match_people(uuid, jsonb, integer, text),
  public.export_matches_csv(uuid, jsonb, integer),
  public.match_projects(jsonb, integer, text),
  public.project_role_candidates(bigint, bigint, integer) to authenticated;

-- =============================================================================
-- Weekly "new matches" e-mail (issue 19: Premium "all matches, filters, a weekly new matches
-- e-mail"; Enterprise includes Premium, spec §6) and the responsiveness tie-break of the ranking
-- (issue 19 "fair requests": people who answer reliably rank higher at equal score).
--
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
-- =============================================================================

alter table public.user_settings add column email_match_digest boolean not null default true;
comment on column public.user_settings.email_match_digest is
  'Weekly "new matches" e-mail (issue 19, Premium and Enterprise); off = none. Also switched off by the mail''s one-click unsubscribe.';
grant select (email_match_digest) on public.user_settings to authenticated;
grant insert (email_match_digest) on public.user_settings to authenticated;
grant update (email_match_digest) on public.user_settings to authenticated;

create or replace function private.wants_email(p_user_id uuid, p_kind text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select case p_kind when 'contact_requests' then s.email_contact_requests
                                      when 'messages' then s.email_messages
                                      when 'event_updates' then s.email_event_updates
                                      when 'match_digest' then s.email_match_digest end
                   from public.user_settings s where s.user_id = p_user_id), true)
$$;
comment on function private.wants_email(uuid, text) is
  'E-mail switch of a user per kind (contact_requests, messages, event_updates, match_digest), default true. Issues 13, 16, 19.';

create table private.match_digest_log (
  user_id uuid not null references public.profiles (id) on delete cascade,
  week_start timestamptz not null,
  sent_at timestamptz not null default now(),
  new_matches integer not null check (new_matches >= 0),
  primary key (user_id, week_start)
);
alter table private.match_digest_log enable row level security; -- no policies: only the definer functions and service_role
comment on table private.match_digest_log is
  'One row per person and ISO week the weekly matches e-mail was considered (new_matches = 0: nothing to send). Issue 19.';

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
revoke all on function private.send_match_digests(integer, uuid) from public, anon, authenticated;

insert into public.email_types (key, description, priority) values
  ('match_digest', 'Weekly: new matches for Premium and Enterprise members (issue 19).', 6)
on conflict (key) do update set description = excluded.description, priority = excluded.priority;

insert into public.email_templates (key, lang, subject, body) values
('match_digest', 'de', 'Neue Matches für Sie: {{count}} passende Personen',
$t$Hallo {{firstname}},

diese Woche passen {{count}} neue Personen zu Ihrem Matching-Profil. Die besten:

{{top}}

Alle Matches mit Begründung ansehen:

{{link}}

Diese wöchentliche E-Mail mit einem Klick abbestellen: {{unsubscribe_link}}

Viele Grüße
Ihr Teamwerk-Team$t$),
('match_digest', 'en', 'New matches for you: {{count}} people who fit',
$t$Hi {{firstname}},

{{count}} new people fit your matching profile this week. The best of them:

{{top}}

See all your matches and why they fit:

{{link}}

Unsubscribe from this weekly e-mail with one click: {{unsubscribe_link}}

Best regards
The Teamwerk team$t$)
on conflict (key, lang) do update set subject = excluded.subject, body = excluded.body;

-- -----------------------------------------------------------------------------
-- Responsiveness as the ranking's tie-break
-- -----------------------------------------------------------------------------
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
revoke all on function private.refresh_match_responsiveness() from public, anon, authenticated;

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

select private.refresh_match_responsiveness();

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    perform cron.schedule('match-digest', '41 * * * *', 'select private.send_match_digests(200)');
    perform cron.schedule('match-responsiveness', '29 * * * *', 'select private.refresh_match_responsiveness()');
  end if;
end;
$$;

-- =============================================================================
-- Audit log of admin and service actions (suspensions, role changes, deletions)
-- =============================================================================
-- After the profiles: its policy asks private.is_admin(). Triggers and RPCs of other files write
-- through private.audit().

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table public.audit_log (
  id bigint generated always as identity primary key,
  actor_id uuid,
  actor_role text not null default current_user,
  action text not null check (char_length(action) between 1 and 80),
  target_table text,
  target_id text,
  details jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
comment on table public.audit_log is
  'Append-only record of admin and service actions (suspensions, role changes, deletions). Written only by triggers/RPCs.';
comment on column public.audit_log.actor_id is 'auth.uid() of the acting user; null for service_role/system. No FK: the log outlives accounts.';
comment on column public.audit_log.actor_role is 'Database role that performed the action (authenticated, service_role, postgres).';
comment on column public.audit_log.action is 'Dotted verb, e.g. profile.role_changed, account.suspended, account.unsuspended.';
comment on column public.audit_log.details is 'Before/after values and free-form context.';
create index audit_log_created_at_idx on public.audit_log (created_at desc);
create index audit_log_actor_idx on public.audit_log (actor_id, created_at desc);
create index audit_log_target_idx on public.audit_log (target_table, target_id);
alter table public.audit_log enable row level security;
revoke all on public.audit_log from anon, authenticated;
grant select (id, actor_id, actor_role, action, target_table, target_id, details, created_at)
  on public.audit_log to authenticated;

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

-- Writes the audit row as the table owner, so callers need no insert right on audit_log.
create or replace function private.audit(p_action text, p_target_table text, p_target_id text, p_details jsonb)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.audit_log (actor_id, actor_role, action, target_table, target_id, details)
  values (auth.uid(), coalesce(auth.role(), current_user), p_action, p_target_table, p_target_id,
          coalesce(p_details, '{}'::jsonb));
$$;
comment on function private.audit(text, text, text, jsonb) is 'Appends one audit_log row (actor from the JWT).';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

create policy audit_log_select on public.audit_log for select to authenticated
using ((select private.is_admin()));

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.

-- authenticated: private.guard_profile_update() runs SECURITY INVOKER (so it sees the caller) and
-- calls private.audit() when an admin changes user_role/authenticated through the API; private is
-- not exposed through PostgREST, so this gives users no callable endpoint.
grant execute on function private.audit(text, text, text, jsonb) to authenticated, service_role;

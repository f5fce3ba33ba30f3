-- =============================================================================
-- The caller's own block list (issue 8 "Blocking and unblocking from a profile")
-- =============================================================================
-- A block hides both people from each other (private.hidden_user_ids in the profiles policy),
-- so once the blocker leaves the profile page they could no longer reach the person to unblock
-- them. This RPC lists the people the CALLER blocked, with just enough to recognise them
-- (name, slug, avatar) and when. It never lists who blocked the caller, and RLS stays as it is.
-- Security definer in private (reads profiles past the block), security invoker wrapper in
-- public like the other RPCs (advisors: no security definer function in an exposed schema).

create or replace function private.my_blocked_users(p_slug text)
returns table (user_id uuid, display_name text, slug text, profile_img text, blocked_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select p.id, public.display_name(p), p.slug, p.profile_img, b.created_at
  from public.user_blocks b
  join public.profiles p on p.id = b.blocked_id
  where b.blocker_id = auth.uid()
    and auth.uid() is not null
    and (p_slug is null or p.slug = p_slug)
  order by b.created_at desc, p.id
$$;
comment on function private.my_blocked_users(text) is 'Implementation of public.my_blocked_users (rows of user_blocks where blocker_id = auth.uid()).';
revoke all on function private.my_blocked_users(text) from public, anon;
grant execute on function private.my_blocked_users(text) to authenticated, service_role;

/* The users the caller has blocked (issue 8, spec §3 meta key "blocked_users"), newest block
   first: user_id, display_name (spec §3 rule), slug, profile_img (avatars bucket path) and
   blocked_at. p_slug (optional) narrows the list to the person behind one /u/{slug}, so that
   page can offer "Unblock" although RLS hides the profile. Only blocks made BY the caller:
   someone who blocked the caller never appears. anon: 42501 (no execute grant). */
create or replace function public.my_blocked_users(p_slug text default null)
returns table (user_id uuid, display_name text, slug text, profile_img text, blocked_at timestamptz)
language sql
stable
set search_path = ''
as $$
  select * from private.my_blocked_users(p_slug)
$$;
comment on function public.my_blocked_users(text) is
  'Users the caller blocked (newest first), optionally only the one with slug p_slug; never who blocked the caller. Authenticated only.';
revoke all on function public.my_blocked_users(text) from public, anon;
grant execute on function public.my_blocked_users(text) to authenticated, service_role;

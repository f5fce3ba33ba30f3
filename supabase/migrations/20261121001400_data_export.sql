-- =============================================================================
-- DSGVO Art. 20: export of the caller's own data (issue 6 "data export")
-- =============================================================================

create or replace function private.export_my_data()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  return pg_catalog.jsonb_build_object(
    'exported_at', pg_catalog.now(),
    'profile', (select pg_catalog.to_jsonb(p) - 'search_de' - 'search_en' from public.profiles p where p.id = me),
    'suspension', (select pg_catalog.to_jsonb(s) from public.account_suspensions s where s.user_id = me),
    'subscriptions', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(s) order by s.created_at), '[]') from public.subscriptions s where s.user_id = me),
    'projects', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) - 'search_de' - 'search_en' order by x.id), '[]') from public.projects x where x.owner_id = me),
    'portfolios', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) - 'search_de' - 'search_en' order by x.id), '[]') from public.portfolios x where x.owner_id = me),
    'portfolio_files', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.id), '[]') from public.portfolio_files x where x.owner_id = me),
    'events', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) - 'search_de' - 'search_en' order by x.id), '[]') from public.events x where x.organizer_id = me),
    'event_rsvps', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.event_attendees x where x.user_id = me),
    'favourite_projects', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.favourite_projects x where x.user_id = me),
    'favourite_jobs', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.favourite_jobs x where x.user_id = me),
    'blocked_users', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.user_blocks x where x.blocker_id = me),
    'contacts', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.contacts x where me in (x.requester_id, x.addressee_id)),
    'conversations', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.joined_at), '[]') from public.conversation_members x where x.user_id = me),
    'messages_sent', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.messages x where x.sender_id = me),
    'feedback', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.feedback x where x.user_id = me),
    'contact_messages', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.contact_messages x where x.user_id = me),
    'newsletter', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) - 'token' order by x.created_at), '[]') from public.newsletter_subscribers x
                   where x.user_id = me or pg_catalog.lower(x.email) = (select pg_catalog.lower(p.email) from public.profiles p where p.id = me)),
    'emails', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('type', x.email_type, 'status', x.status, 'created_at', x.created_at, 'sent_at', x.sent_at) order by x.created_at), '[]')
               from public.email_queue x where x.user_id = me)
  );
end;
$$;
comment on function private.export_my_data() is 'Implementation of public.export_my_data.';
grant execute on function private.export_my_data() to authenticated;

/* DSGVO Art. 20: everything stored about the caller as one JSON document (profile, content,
   favourites, blocks, contacts, messages sent, subscriptions, feedback, newsletter, mails).
   Errors: 28000 not_authenticated. */
create or replace function public.export_my_data()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.export_my_data()
$$;
comment on function public.export_my_data() is 'DSGVO Art. 20 data export of the caller (JSON).';
revoke all on function public.export_my_data() from public, anon;
grant execute on function public.export_my_data() to authenticated;

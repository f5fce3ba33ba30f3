-- =============================================================================
-- E-mail queue: mark many sent mails in one call (issue 6 throughput)
-- =============================================================================
-- process-email-queue sends a batch in parallel and records the successes with one RPC instead
-- of one complete_email round trip per mail. Same rules as complete_email: only rows still in
-- processing change, so a repeated or late call is harmless.

create or replace function public.complete_emails(p_ids bigint[], p_provider_message_ids text[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed integer;
begin
  if pg_catalog.cardinality(p_ids) is distinct from pg_catalog.cardinality(p_provider_message_ids) then
    raise exception using errcode = '22023', message = 'invalid_arguments',
      detail = 'p_ids and p_provider_message_ids must have the same length';
  end if;
  update public.email_queue q
  set status = 'sent', sent_at = pg_catalog.now(), provider_message_id = x.provider_message_id,
      locked_at = null, locked_until = null, last_error = null
  from unnest(p_ids, p_provider_message_ids) as x(id, provider_message_id)
  where q.id = x.id and q.status = 'processing';
  get diagnostics changed = row_count;
  return changed;
end;
$$;
comment on function public.complete_emails(bigint[], text[]) is
  'service_role: processing -> sent for many rows (ids and Resend message ids pairwise); returns how many changed.';

revoke all on function public.complete_emails(bigint[], text[]) from public, anon, authenticated;
grant execute on function public.complete_emails(bigint[], text[]) to service_role;

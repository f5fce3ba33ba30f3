-- =============================================================================
-- Single-use account tokens (issue 6: "old tokens stop working after use")
-- =============================================================================
-- Confirm and reset tokens are stateless HMAC-signed values (supabase/functions/_shared/tokens.ts).
-- A reset token must work only once: complete-password-reset records its nonce here before it
-- sets the password, and a second use of the same token finds the nonce and is refused.

create table private.consumed_auth_tokens (
  nonce text primary key check (char_length(nonce) between 16 and 64),
  user_id uuid not null references auth.users (id) on delete cascade,
  purpose text not null check (purpose in ('confirm', 'reset')),
  consumed_at timestamptz not null default now(),
  expires_at timestamptz not null
);
comment on table private.consumed_auth_tokens is
  'Nonces of used confirm/reset tokens; a token whose nonce is here is refused. Rows past expires_at (+1 day) are pruned.';
comment on column private.consumed_auth_tokens.expires_at is 'When the token would have expired anyway; after that the row is no longer needed.';
create index consumed_auth_tokens_user_idx on private.consumed_auth_tokens (user_id);
create index consumed_auth_tokens_expires_idx on private.consumed_auth_tokens (expires_at);

/* Records a token's nonce. Returns true on first use, false when the nonce was already used.
   Also prunes rows expired for more than a day (cheap: index on expires_at). */
create or replace function public.consume_auth_token(p_nonce text, p_user_id uuid, p_purpose text, p_expires_at timestamptz)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  inserted integer;
begin
  delete from private.consumed_auth_tokens where expires_at < pg_catalog.now() - interval '1 day';
  insert into private.consumed_auth_tokens (nonce, user_id, purpose, expires_at)
  values (p_nonce, p_user_id, p_purpose, p_expires_at)
  on conflict (nonce) do nothing;
  get diagnostics inserted = row_count;
  return inserted = 1;
end;
$$;
comment on function public.consume_auth_token(text, uuid, text, timestamptz) is
  'service_role: mark a confirm/reset token as used; true on first use, false on reuse (issue 6).';

revoke all on function public.consume_auth_token(text, uuid, text, timestamptz) from public, anon, authenticated;
grant execute on function public.consume_auth_token(text, uuid, text, timestamptz) to service_role;
revoke all on private.consumed_auth_tokens from public, anon, authenticated;

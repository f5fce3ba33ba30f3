-- private.consumed_auth_tokens was the only table without row level security. It is not exposed
-- (schema private) and only public.consume_auth_token() (security definer, owned by the table
-- owner, so RLS does not apply to it) reads and writes it; enabling RLS without policies and
-- revoking table rights makes that explicit: no API role can touch it, even if the schema were
-- exposed by mistake.
alter table private.consumed_auth_tokens enable row level security;
revoke all on private.consumed_auth_tokens from public, anon, authenticated;

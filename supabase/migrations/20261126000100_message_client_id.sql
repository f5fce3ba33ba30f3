-- =============================================================================
-- Idempotent chat sends (issue 17: messages are never lost and never doubled)
-- =============================================================================
-- The SPA gives every message it sends a client id (a UUID made when the user presses Enter) and
-- sends it again with the same id when the first try failed. When the first try was stored but its
-- answer was lost (the network dropped after the commit), the second insert meets this index and
-- fails with 23505 (HTTP 409); the SPA then reads the stored message instead of storing a copy.

alter table public.messages add column client_id uuid;
comment on column public.messages.client_id is
  'Set by the sending client once per message; unique per sender, so a retried send cannot store the message twice (issue 17).';
create unique index messages_sender_client_id_key on public.messages (sender_id, client_id) where client_id is not null;

grant insert (client_id) on public.messages to authenticated;
grant select (client_id) on public.messages to authenticated;

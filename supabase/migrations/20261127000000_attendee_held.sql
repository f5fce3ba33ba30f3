-- =============================================================================
-- Paid tickets (issue 16): a seat can be held while its checkout session is open or while a
-- waitlisted person has been offered it. A value of its own so it cannot be mistaken for a
-- confirmed seat (going). In its own migration: a new enum value is usable only after the
-- transaction that adds it has committed.
-- =============================================================================
alter type public.attendee_status add value if not exists 'held' after 'going';
comment on type public.attendee_status is
  'going = confirmed seat; held = seat kept for a pending payment (checkout open, or waitlist offer) until event_attendees.hold_expires_at; waitlisted; cancelled.';

-- =============================================================================
-- Admin role changes through the API are audited (fix for issue 6's update-user)
-- =============================================================================
-- private.guard_profile_update() runs SECURITY INVOKER (so it sees the caller) and calls
-- private.audit() when an admin changes user_role/authenticated. Default privileges revoke
-- EXECUTE from authenticated, so an admin's update failed with "permission denied for function
-- audit". private is not exposed through PostgREST, so this grant lets the trigger write the
-- audit row without giving users a callable endpoint.
grant execute on function private.audit(text, text, text, jsonb) to authenticated;

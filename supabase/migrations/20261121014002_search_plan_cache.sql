-- =============================================================================
-- search(): let PostgreSQL reuse the plan of the main statement (issue 8 benchmark)
-- =============================================================================
-- private.search ran with plan_cache_mode = force_custom_plan, so its large statement (matches,
-- facets, page with headlines) was planned again on every call; planning was a large share of a
-- call. With `auto`, PL/pgSQL switches to a cached generic plan after five calls in a session
-- when that plan is not estimated to cost more than the custom ones (PostgREST keeps its
-- connections, so most calls reuse it). Results are unchanged; only planning differs.
-- Measured with scripts/bench/db-queries.ts on the large data set, same machine load (~10 on
-- 2 cores), through PostgREST: broad word p50 69 -> 36 ms, p95 197 -> 98 ms; two words
-- p50 22 -> 10 ms, p95 44 -> 19 ms; typo p50 48 -> 27 ms, p95 199 -> 42 ms; events in Köln
-- p50 26 -> 18 ms, p95 74 -> 29 ms.
-- private.search_browse keeps force_custom_plan (its filters decide the index).

alter function private.search(text, text[], text, text, date, date, integer, integer) set plan_cache_mode = 'auto';

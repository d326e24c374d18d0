-- The group append functions keep one plan for the session (issue 19, docs/write-path.md,
-- "Growth: the plan made on every call").
--
-- A PL/pgSQL statement is a prepared statement: PostgreSQL plans it afresh for its first five
-- calls, then keeps a generic plan only when that plan's estimated cost is not above the
-- average of the fresh ones. The group statement's arguments are arrays, whose lengths a
-- fresh plan sees and a generic one does not; with the statistics an ANALYZE gives a table of
-- a million events, the estimates kept the fresh plans, and every group was planned again:
-- measured at 4 clients, single-move appends fell from 2,649/s on an empty database to
-- 1,890/s with a million events stored, the planner at 18 % of the database's CPU (under
-- 1 % on the empty one). The settings already on the functions (no sequential scan, no hash
-- or merge join) leave one shape, every game found by its primary key, so the generic plan is
-- the plan a fresh one would be; these settings make the functions keep it whatever the
-- statistics say.

ALTER FUNCTION events_append_group(
    uuid[], bigint[], bigint[], boolean[], text[], text[], text[],
    uuid[], bigint[], uuid[], uuid[], text[], jsonb[], jsonb[], timestamptz[], text[]
) SET plan_cache_mode = force_generic_plan;

ALTER FUNCTION events_append_group_linked(
    uuid[], bigint[], bigint[], boolean[], text[], text[], text[],
    uuid[], bigint[], uuid[], uuid[], text[], jsonb[], jsonb[], timestamptz[], text[]
) SET plan_cache_mode = force_generic_plan;

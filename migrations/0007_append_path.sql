-- The append path (docs/write-path.md): the chain trigger builds the hash input inline.
--
-- `event_hash_input` (migration 0001) is declared with `SET "TimeZone"`, and a SQL function
-- with a SET clause is never inlined: PostgreSQL parses and plans its body again on every
-- call, and saves and restores the setting around it. Called once per stored row from the
-- trigger, that was about half of the trigger's cost and a quarter of the database's CPU per
-- append. The trigger below builds exactly the same text without the call: `AT TIME ZONE
-- 'UTC'` turns each time into a UTC timestamp without time zone, and `to_char` of such a
-- timestamp with numeric fields only does not depend on the session's TimeZone (nor do
-- uuid, bigint, text and jsonb in `jsonb_build_object`). `event_hash_input` stays, unchanged,
-- for verification in SQL (`arbiter verify --all`, `GET /v1/games/{id}/verify`), and
-- `arbiter verify FILE` rebuilds the same text offline, so a hash stored by either trigger
-- verifies the same way (the tests verify chains written by this one).

CREATE OR REPLACE FUNCTION events_link_chain() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    previous bytea;
BEGIN
    NEW.tx_id := pg_current_xact_id();
    NEW.recorded_at := date_trunc('microseconds', now());
    IF NEW.seq = 1 THEN
        previous := event_genesis_hash();
    ELSE
        SELECT e.hash INTO previous FROM events e WHERE e.game_id = NEW.game_id AND e.seq = NEW.seq - 1;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'event % of game % does not follow a stored event', NEW.seq, NEW.game_id
                USING ERRCODE = 'integrity_constraint_violation', CONSTRAINT = 'events_seq_contiguous';
        END IF;
    END IF;
    NEW.prev_hash := previous;
    NEW.hash := sha256(previous || convert_to(jsonb_build_object(
        'game_id', NEW.game_id,
        'seq', NEW.seq,
        'event_id', NEW.event_id,
        'type', NEW.event_type,
        'payload', NEW.payload,
        'metadata', NEW.metadata,
        'recorded_at', to_char(NEW.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        'occurred_at', to_char(NEW.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        'recorded_by', NEW.recorded_by
    )::text, 'UTF8'));
    RETURN NEW;
END
$$;

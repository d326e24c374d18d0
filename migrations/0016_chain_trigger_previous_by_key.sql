-- The chain trigger finds the previous row by the primary key, whatever plan it was given
-- (issue 19, docs/write-path.md, "The chain trigger's lookup").
--
-- Migrations 0001, 0007 and 0014 looked the previous row up as
-- `WHERE game_id = NEW.game_id AND seq = NEW.seq - 1`. PL/pgSQL keeps a generic plan for that
-- query per session, made while `events` may be empty or small (a new tournament, a fresh
-- service), and then two indexes lead with `game_id`: the primary key (game_id, seq) and
-- `events_game_type_idx` (game_id, event_type), at the same estimated cost. PostgreSQL 15 took
-- the second, which reads every stored row of the game and filters on `seq`: each insert then
-- cost as many heap fetches as the game had events (measured: index fetches 19.9 % of all the
-- machine's samples in claim rulings on games of 2,000-2,500 events). The lookup below asks
-- for the last row before `NEW.seq` in `seq` order, which only the primary key answers without
-- a sort, so the plan uses it at any table size; it must then be `NEW.seq - 1`, exactly as
-- before. Everything else is migration 0014's trigger, unchanged: the same bytes hashed, the
-- same error for a row that does not follow a stored one.

CREATE OR REPLACE FUNCTION events_link_chain() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    previous bytea;
    previous_seq bigint;
BEGIN
    NEW.tx_id := pg_current_xact_id();
    NEW.recorded_at := date_trunc('microseconds', now());
    IF NEW.seq = 1 THEN
        previous := event_genesis_hash();
    ELSE
        SELECT e.seq, e.hash INTO previous_seq, previous
          FROM events e
         WHERE e.game_id = NEW.game_id AND e.seq < NEW.seq
         ORDER BY e.seq DESC
         LIMIT 1;
        IF NOT FOUND OR previous_seq <> NEW.seq - 1 THEN
            RAISE EXCEPTION 'event % of game % does not follow a stored event', NEW.seq, NEW.game_id
                USING ERRCODE = 'integrity_constraint_violation', CONSTRAINT = 'events_seq_contiguous';
        END IF;
    END IF;
    NEW.prev_hash := previous;
    NEW.hash := sha256(previous || convert_to(
        '{"seq": ' || NEW.seq
        || ', "type": ' || to_jsonb(NEW.event_type)::text
        || ', "game_id": "' || NEW.game_id
        || '", "payload": ' || NEW.payload::text
        || ', "event_id": "' || NEW.event_id
        || '", "metadata": ' || NEW.metadata::text
        || ', "occurred_at": ' || COALESCE('"' || to_char(NEW.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '"', 'null')
        || ', "recorded_at": "' || to_char(NEW.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
        || '", "recorded_by": ' || to_jsonb(NEW.recorded_by)::text
        || '}', 'UTF8'));
    RETURN NEW;
END
$$;

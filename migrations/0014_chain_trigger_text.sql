-- The chain trigger writes the hash input as text (issue 19, docs/write-path.md).
--
-- Migration 0007's trigger built the hash input with `jsonb_build_object(...)::text`: it
-- assembled a new jsonb value (copying the payload and metadata into it and sorting its
-- keys) only to print it. The trigger below writes the same bytes directly: the keys in
-- jsonb's canonical order (by length, then bytewise: seq, type, game_id, payload, event_id,
-- metadata, occurred_at, recorded_at, recorded_by), `", "` and `": "` as separators, the
-- payload and metadata as their own canonical jsonb text (`jsonb::text` prints a nested value
-- exactly as the enclosing object would), strings through `to_jsonb(text)::text` (jsonb's own
-- escaping), uuids and the bigint as their text (what jsonb prints for them), and the times as
-- before. Measured on 30,000 rows, 100 per statement: about a quarter less time per insert.
-- `event_hash_input` stays, unchanged, for verification in SQL; `arbiter verify FILE`
-- rebuilds the same text offline. The test
-- `the_chain_trigger_writes_the_bytes_of_event_hash_input_for_awkward_rows` compares the two
-- on rows with escapes, unicode, numbers, nested keys, null and non-null times.

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

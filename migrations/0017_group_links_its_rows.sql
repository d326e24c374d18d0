-- Long appends link their own rows: one lookup per game instead of one per row (issue 19,
-- docs/write-path.md, "The group links its rows", and docs/trust.md, "Who computes a link").
--
-- Since migration 0001 the chain trigger computed every row's link: it looked the previous
-- row up (an SPI query per row: executor start-up, the index descent, the heap fetch, 9-12 µs
-- of the 28-35 µs the database spends per stored row), then hashed the row's text. In an
-- append of 100 moves, 99 of those lookups find a row the same statement has just inserted.
--
-- `events_append_group_linked` does what `events_append_group` (migration 0015) does, and
-- computes the links of the rows it stores, in order: for each game whose guard held, the
-- hash of its row at the expected `seq` is read once, and each row's `prev_hash` and `hash`
-- follow in memory, from the same text and the same `recorded_at` as the trigger's (the
-- transaction's start, truncated to microseconds). It checks that each game's rows follow
-- its expected `seq` one by one (the same error as the trigger's otherwise), and stores them
-- with their links while the transaction-local setting `arbiter.linked_by_group` is `on`; it
-- sets it `off` again as soon as the rows are stored. The service writes long appends' groups
-- with it (`--group-commit-bulk-writers`); short appends' groups keep `events_append_group`,
-- one statement, which was measured faster for them (claims: p99 7.5-7.7 ms against 9.1-10.4
-- with every group through this function).
--
-- The chain trigger, while that setting is `on`, sets `tx_id` and `recorded_at` as before and
-- keeps the links it is given; otherwise it computes them as migration 0016's did, for every
-- other writer. What changes (docs/trust.md): a session that sets `arbiter.linked_by_group`
-- itself can store a row whose link was not computed from the stored rows; `arbiter verify`
-- and the audit recompute every link from the stored rows and report such a row, as they
-- report any other break (tests/api/log_guarantees.rs). The bytes hashed are unchanged.

CREATE OR REPLACE FUNCTION events_link_chain() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    previous bytea;
    previous_seq bigint;
BEGIN
    NEW.tx_id := pg_current_xact_id();
    NEW.recorded_at := date_trunc('microseconds', now());
    IF current_setting('arbiter.linked_by_group', true) = 'on' THEN
        -- Linked by events_append_group, from the same text and recorded_at.
        RETURN NEW;
    END IF;
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

CREATE FUNCTION events_append_group_linked(
    request_game_ids uuid[],
    request_expected_seqs bigint[],
    request_last_seqs bigint[],
    request_sets_outcome boolean[],
    request_status text[],
    request_result text[],
    request_termination text[],
    event_game_ids uuid[],
    event_seqs bigint[],
    event_ids uuid[],
    event_batch_ids uuid[],
    event_types text[],
    event_payloads jsonb[],
    event_metadata jsonb[],
    event_occurred_at timestamptz[],
    event_recorded_by text[]
) RETURNS TABLE (
    stored_game_id uuid,
    stored_seq bigint,
    stored_recorded_at timestamptz,
    stored_prev_hash bytea,
    stored_hash bytea
)
LANGUAGE plpgsql
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $$
DECLARE
    guarded uuid[];
    -- Per request, in order: the hash of its game's row at the expected seq (NULL when its
    -- guard did not hold: nothing of it is stored).
    previous_hashes bytea[];
    linked_prev bytea[];
    linked_hash bytea[];
    recorded_text text := to_char(date_trunc('microseconds', now()) AT TIME ZONE 'UTC',
                                  'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
    requests int := coalesce(array_length(request_game_ids, 1), 0);
    events_count int := coalesce(array_length(event_game_ids, 1), 0);
    i int := 1;
    previous bytea;
    next_seq bigint;
BEGIN
    -- One place per event, from 1 (an element assigned past the end of an empty array would
    -- start the array there, and the rows would not line up with it).
    linked_prev := array_fill(NULL::bytea, ARRAY[events_count]);
    linked_hash := array_fill(NULL::bytea, ARRAY[events_count]);
    WITH request AS (
        SELECT *
          FROM unnest(request_game_ids, request_expected_seqs, request_last_seqs,
                      request_sets_outcome, request_status, request_result,
                      request_termination)
               AS request (game_id, expected_seq, last_seq, sets_outcome, status, result,
                           termination)
    ), guard AS (
        UPDATE games
           SET last_seq = request.last_seq,
               updated_at = date_trunc('microseconds', now()),
               status = CASE WHEN request.sets_outcome THEN request.status ELSE games.status END,
               result = CASE WHEN request.sets_outcome THEN request.result ELSE games.result END,
               termination = CASE WHEN request.sets_outcome THEN request.termination
                                  ELSE games.termination END
          FROM request
         WHERE games.game_id = request.game_id AND games.last_seq = request.expected_seq
     RETURNING games.game_id
    )
    SELECT coalesce(array_agg(guard.game_id), '{}') INTO guarded FROM guard;

    -- The previous row of each guarded game: found by the primary key (the last row at or
    -- before the expected seq, which must be that seq).
    SELECT array_agg(
               CASE
                   WHEN NOT (request.game_id = ANY (guarded)) THEN NULL
                   WHEN request.expected_seq = 0 THEN event_genesis_hash()
                   ELSE (SELECT CASE WHEN e.seq = request.expected_seq THEN e.hash END
                           FROM events e
                          WHERE e.game_id = request.game_id AND e.seq <= request.expected_seq
                          ORDER BY e.seq DESC
                          LIMIT 1)
               END
               ORDER BY request.ord)
      INTO previous_hashes
      FROM unnest(request_game_ids, request_expected_seqs) WITH ORDINALITY
           AS request (game_id, expected_seq, ord);

    -- Each request's events are the next run of the event arrays (its game's, seq after seq).
    FOR r IN 1 .. requests LOOP
        previous := previous_hashes[r];
        next_seq := request_expected_seqs[r] + 1;
        IF previous IS NULL AND request_game_ids[r] = ANY (guarded) THEN
            RAISE EXCEPTION 'event % of game % does not follow a stored event', next_seq, request_game_ids[r]
                USING ERRCODE = 'integrity_constraint_violation', CONSTRAINT = 'events_seq_contiguous';
        END IF;
        WHILE i <= events_count AND event_game_ids[i] = request_game_ids[r] LOOP
            IF previous IS NOT NULL THEN
                IF event_seqs[i] IS DISTINCT FROM next_seq THEN
                    RAISE EXCEPTION 'event % of game % does not follow a stored event', event_seqs[i], event_game_ids[i]
                        USING ERRCODE = 'integrity_constraint_violation', CONSTRAINT = 'events_seq_contiguous';
                END IF;
                linked_prev[i] := previous;
                previous := sha256(previous || convert_to(
                    '{"seq": ' || event_seqs[i]
                    || ', "type": ' || to_jsonb(event_types[i])::text
                    || ', "game_id": "' || event_game_ids[i]
                    || '", "payload": ' || event_payloads[i]::text
                    || ', "event_id": "' || event_ids[i]
                    || '", "metadata": ' || event_metadata[i]::text
                    || ', "occurred_at": ' || COALESCE('"' || to_char(event_occurred_at[i] AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '"', 'null')
                    || ', "recorded_at": "' || recorded_text
                    || '", "recorded_by": ' || to_jsonb(event_recorded_by[i])::text
                    || '}', 'UTF8'));
                linked_hash[i] := previous;
                next_seq := next_seq + 1;
            END IF;
            i := i + 1;
        END LOOP;
    END LOOP;
    IF i <> events_count + 1 THEN
        RAISE EXCEPTION 'the group''s events do not follow its requests (event % of %)', i, events_count
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    PERFORM set_config('arbiter.linked_by_group', 'on', true);
    RETURN QUERY
    WITH stored AS (
        INSERT INTO events (game_id, seq, event_id, batch_id, event_type, payload, metadata,
                            occurred_at, recorded_by, prev_hash, hash)
        SELECT appended.game_id, appended.seq, appended.event_id, appended.batch_id,
               appended.event_type, appended.payload, appended.metadata, appended.occurred_at,
               appended.recorded_by, appended.prev_hash, appended.hash
          FROM unnest(event_game_ids, event_seqs, event_ids, event_batch_ids, event_types,
                      event_payloads, event_metadata, event_occurred_at, event_recorded_by,
                      linked_prev, linked_hash)
                   WITH ORDINALITY AS appended (game_id, seq, event_id, batch_id, event_type,
                                                payload, metadata, occurred_at, recorded_by,
                                                prev_hash, hash, ord)
         WHERE appended.hash IS NOT NULL
         ORDER BY appended.ord
     RETURNING events.game_id, events.seq, events.recorded_at, events.prev_hash, events.hash
    )
    SELECT stored.game_id, stored.seq, stored.recorded_at, stored.prev_hash, stored.hash
      FROM stored;
    PERFORM set_config('arbiter.linked_by_group', 'off', true);
END
$$;

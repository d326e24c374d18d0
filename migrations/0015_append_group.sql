-- The group append as a function whose plan is fixed to the primary key (issue 19,
-- docs/write-path.md, "Group commit").
--
-- The group statement's guard joins the request (an unnest of the group's game ids) to
-- `games`. Sent as a prepared statement, PostgreSQL planned it a few times and then kept a
-- generic plan; made while `games` was small (a new tournament, the first minute of a
-- service), that plan hashes the request and scans the whole of `games` (a sequential scan,
-- every dead row version included) on every group, and keeps doing so as the table grows
-- until an ANALYZE invalidates it. Measured at 16 clients: 5,384, 3,509 then 2,765 single-move
-- appends per second in three rounds on one growing database, with the sequential scan of
-- `games` at 4.4 % of the machine's samples. Planning every group afresh instead (an unnamed
-- statement) held the rate flat but at 3,894/s: the planning is on the single writer's path.
--
-- This function keeps its plan cached for the session (PL/pgSQL) and makes it under settings
-- that leave one shape: every game found by its primary key, one after the other (no
-- sequential scan, no hash or merge join). The settings hold only while the function runs
-- (`SET` on the function), and the chain trigger and the notification trigger run inside it
-- unchanged. What it does is what the group statement sent by `src/store/group_commit.rs` did,
-- word for word: each game's guard (`last_seq` must be its expected `seq`), then the events of the games
-- whose guard held, in the order given, returning what the database set for each row.

CREATE FUNCTION events_append_group(
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
BEGIN
    RETURN QUERY
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
    ), stored AS (
        INSERT INTO events (game_id, seq, event_id, batch_id, event_type, payload, metadata,
                            occurred_at, recorded_by, prev_hash, hash)
        SELECT appended.game_id, appended.seq, appended.event_id, appended.batch_id,
               appended.event_type, appended.payload, appended.metadata, appended.occurred_at,
               appended.recorded_by, ''::bytea, ''::bytea
          FROM unnest(event_game_ids, event_seqs, event_ids, event_batch_ids, event_types,
                      event_payloads, event_metadata, event_occurred_at, event_recorded_by)
                   WITH ORDINALITY AS appended (game_id, seq, event_id, batch_id, event_type,
                                                payload, metadata, occurred_at, recorded_by,
                                                ord)
         WHERE appended.game_id IN (SELECT guard.game_id FROM guard)
         ORDER BY appended.ord
     RETURNING events.game_id, events.seq, events.recorded_at, events.prev_hash, events.hash
    )
    SELECT stored.game_id, stored.seq, stored.recorded_at, stored.prev_hash, stored.hash
      FROM stored;
END
$$;

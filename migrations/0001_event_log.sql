-- The event log: the single source of truth of every game (DESIGN.md, Storage).
--
-- Every unique key includes game_id so that the table can be distributed by game_id (Citus).
-- The hash chain is computed by a trigger, so no writer can skip or forge it, and rows can
-- never be updated, deleted or truncated: triggers refuse it, also in replica mode.

CREATE TABLE events (
    position     bigint      GENERATED ALWAYS AS IDENTITY,
    tx_id        xid8        NOT NULL DEFAULT pg_current_xact_id(),
    game_id      uuid        NOT NULL,
    seq          bigint      NOT NULL,
    event_id     uuid        NOT NULL,
    batch_id     uuid        NOT NULL,
    event_type   text        NOT NULL,
    payload      jsonb       NOT NULL,
    metadata     jsonb       NOT NULL DEFAULT '{}'::jsonb,
    recorded_at  timestamptz NOT NULL DEFAULT now(),
    occurred_at  timestamptz,
    recorded_by  text        NOT NULL,
    prev_hash    bytea       NOT NULL,
    hash         bytea       NOT NULL,
    CONSTRAINT events_game_seq_key PRIMARY KEY (game_id, seq),
    CONSTRAINT events_game_event_id_key UNIQUE (game_id, event_id),
    CONSTRAINT events_seq_positive CHECK (seq >= 1),
    CONSTRAINT events_type_matches_payload CHECK (payload ->> 'type' = event_type),
    CONSTRAINT events_payload_is_object CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT events_metadata_is_object CHECK (jsonb_typeof(metadata) = 'object')
);

-- The global feed reads in commit order: (tx_id, position) behind the snapshot's xmin fence.
CREATE INDEX events_feed_idx ON events (tx_id, position);
CREATE INDEX events_type_idx ON events (event_type, game_id);

-- The exact text that an event's hash covers. jsonb's text form is canonical (keys sorted,
-- fixed separators), so the same row always gives the same bytes; `arbiter verify` rebuilds
-- it offline from an export.
CREATE FUNCTION event_hash_input(
    p_game_id uuid, p_seq bigint, p_event_id uuid, p_event_type text, p_payload jsonb,
    p_metadata jsonb, p_recorded_at timestamptz, p_occurred_at timestamptz, p_recorded_by text
) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET "TimeZone" = 'UTC'
AS $$
    SELECT jsonb_build_object(
        'game_id', p_game_id,
        'seq', p_seq,
        'event_id', p_event_id,
        'type', p_event_type,
        'payload', p_payload,
        'metadata', p_metadata,
        'recorded_at', to_char(p_recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        'occurred_at', to_char(p_occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        'recorded_by', p_recorded_by
    )::text
$$;

-- The hash of the event before seq 1.
CREATE FUNCTION event_genesis_hash() RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea $$;

-- Links a new event to its predecessor: seq must follow the game's last seq with no gap, and
-- hash = SHA-256(prev_hash || event_hash_input(...)). Whatever the writer supplied for
-- tx_id, recorded_at, prev_hash and hash is overwritten.
CREATE FUNCTION events_link_chain() RETURNS trigger
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
    NEW.hash := sha256(previous || convert_to(event_hash_input(
        NEW.game_id, NEW.seq, NEW.event_id, NEW.event_type, NEW.payload, NEW.metadata,
        NEW.recorded_at, NEW.occurred_at, NEW.recorded_by), 'UTF8'));
    RETURN NEW;
END
$$;

CREATE FUNCTION events_refuse_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only: % on events is not allowed; record a correction event instead', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER events_link_chain BEFORE INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION events_link_chain();
CREATE TRIGGER events_refuse_update_delete BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_refuse_change();
CREATE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change();

-- Fire in replica mode too (session_replication_role = replica skips ordinary triggers).
ALTER TABLE events ENABLE ALWAYS TRIGGER events_link_chain;
ALTER TABLE events ENABLE ALWAYS TRIGGER events_refuse_update_delete;
ALTER TABLE events ENABLE ALWAYS TRIGGER events_refuse_truncate;

-- Read model for listing and search: a projection of the log, rebuilt by `arbiter rebuild`.
CREATE TABLE games (
    game_id      uuid        PRIMARY KEY,
    created_at   timestamptz NOT NULL,
    event_name   text        NOT NULL,
    round        text        NOT NULL,
    board        integer,
    white        text        NOT NULL,
    black        text        NOT NULL,
    settings     jsonb       NOT NULL,
    status       text        NOT NULL DEFAULT 'in_progress',
    result       text,
    termination  text,
    last_seq     bigint      NOT NULL,
    updated_at   timestamptz NOT NULL
);
CREATE INDEX games_listing_idx ON games (created_at, game_id);
CREATE INDEX games_event_round_idx ON games (event_name, round);
CREATE INDEX games_status_idx ON games (status);

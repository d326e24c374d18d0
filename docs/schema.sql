-- The schema the migrations make, read back from a migrated database by
-- tests/api/schema.rs (which checks it is current). Not applied by anything: the
-- migrations in migrations/ are the source. Regenerate with
-- `ARBITER_WRITE_SCHEMA=1 cargo test --test api schema::`.

-- Tables

CREATE TABLE api_tokens (
    token_id uuid NOT NULL,
    name text NOT NULL,
    role text NOT NULL,
    events text[],
    token_hash bytea NOT NULL,
    created_at timestamp with time zone NOT NULL DEFAULT now(),
    created_by text NOT NULL,
    revoked_at timestamp with time zone,
    expires_at timestamp with time zone,
    last_used_at timestamp with time zone,
    rotated_from uuid,
    fair_play_role text
);

CREATE TABLE events (
    "position" bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
    tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
    game_id uuid NOT NULL,
    seq bigint NOT NULL,
    event_id uuid NOT NULL,
    batch_id uuid NOT NULL,
    event_type text NOT NULL,
    payload jsonb NOT NULL,
    metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
    recorded_at timestamp with time zone NOT NULL DEFAULT now(),
    occurred_at timestamp with time zone,
    recorded_by text NOT NULL,
    prev_hash bytea NOT NULL,
    hash bytea NOT NULL
);

CREATE TABLE fair_play_access (
    access_id bigint NOT NULL DEFAULT nextval('fair_play_access_access_id_seq'::regclass),
    game_id uuid NOT NULL,
    seq bigint,
    reader text NOT NULL,
    what text NOT NULL,
    read_at timestamp with time zone NOT NULL DEFAULT now()
);

CREATE TABLE fair_play_evidence (
    evidence_id uuid NOT NULL,
    game_id uuid NOT NULL,
    sha256 bytea NOT NULL,
    media_type text NOT NULL,
    content bytea NOT NULL,
    stored_at timestamp with time zone NOT NULL DEFAULT now()
);

CREATE TABLE fair_play_payloads (
    event_id uuid NOT NULL,
    game_id uuid NOT NULL,
    kind text NOT NULL,
    payload jsonb NOT NULL,
    sha256 bytea NOT NULL,
    stored_at timestamp with time zone NOT NULL DEFAULT now()
);

CREATE TABLE follow_attentions (
    attention_id uuid NOT NULL,
    follow_id uuid NOT NULL,
    game_id uuid NOT NULL,
    board integer NOT NULL,
    attention jsonb NOT NULL,
    feed_moves jsonb NOT NULL,
    feed_result text,
    opened_at timestamp with time zone NOT NULL DEFAULT now(),
    resolution text,
    resolved_by text,
    resolved_at timestamp with time zone,
    notice boolean DEFAULT ((attention ->> 'type'::text) = 'corrected_by_feed'::text)
);

CREATE TABLE games (
    game_id uuid NOT NULL,
    created_at timestamp with time zone NOT NULL,
    event_name text NOT NULL,
    round text NOT NULL,
    board integer,
    white text NOT NULL,
    black text NOT NULL,
    settings jsonb NOT NULL,
    status text NOT NULL DEFAULT 'in_progress'::text,
    result text,
    termination text,
    last_seq bigint NOT NULL,
    updated_at timestamp with time zone NOT NULL
);

CREATE TABLE round_follows (
    follow_id uuid NOT NULL,
    tournament_id uuid NOT NULL,
    round text NOT NULL,
    kind text NOT NULL,
    url text NOT NULL,
    enabled boolean NOT NULL,
    created_by text NOT NULL,
    updated_at timestamp with time zone NOT NULL DEFAULT now(),
    last_poll_at timestamp with time zone,
    last_ok_at timestamp with time zone,
    last_error text,
    failures integer NOT NULL DEFAULT 0,
    takebacks text NOT NULL DEFAULT 'by_feed'::text
);

CREATE TABLE tournament_byes (
    tournament_id uuid NOT NULL,
    round text NOT NULL,
    start_number integer NOT NULL,
    code text NOT NULL,
    recorded_by text NOT NULL,
    recorded_at timestamp with time zone NOT NULL DEFAULT now()
);

CREATE TABLE tournament_log (
    entry_id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
    tournament_id uuid NOT NULL,
    entry_type text NOT NULL,
    payload jsonb NOT NULL,
    recorded_by text NOT NULL,
    recorded_at timestamp with time zone NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE tournament_players (
    tournament_id uuid NOT NULL,
    start_number integer NOT NULL,
    name text NOT NULL,
    fide_id bigint,
    sex text NOT NULL DEFAULT ''::text,
    title text NOT NULL DEFAULT ''::text,
    rating integer,
    federation text NOT NULL DEFAULT ''::text,
    birth_date text NOT NULL DEFAULT ''::text,
    updated_at timestamp with time zone NOT NULL DEFAULT now()
);

CREATE TABLE tournaments (
    tournament_id uuid NOT NULL,
    name text NOT NULL,
    site text,
    starts_on date,
    ends_on date,
    time_control jsonb NOT NULL,
    laws_edition text NOT NULL DEFAULT '2023'::text,
    regulations jsonb NOT NULL DEFAULT '{}'::jsonb,
    arbiters text[] NOT NULL DEFAULT '{}'::text[],
    created_at timestamp with time zone NOT NULL DEFAULT now(),
    created_by text NOT NULL,
    updated_at timestamp with time zone NOT NULL DEFAULT now(),
    clock_behaviour jsonb NOT NULL DEFAULT '{}'::jsonb,
    time_zone text,
    tie_breaks text[] NOT NULL DEFAULT '{}'::text[],
    unplayed_rounds text
);

CREATE TABLE web_sessions (
    session_hash bytea NOT NULL,
    token_id uuid NOT NULL,
    csrf_token text NOT NULL,
    created_at timestamp with time zone NOT NULL DEFAULT now(),
    last_seen_at timestamp with time zone NOT NULL DEFAULT now(),
    expires_at timestamp with time zone NOT NULL,
    flash jsonb
);

-- Constraints

ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_expiry_after_creation CHECK (((expires_at IS NULL) OR (expires_at > created_at)));
ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_fair_play_role_known CHECK ((fair_play_role = ANY (ARRAY['chief_arbiter'::text, 'fair_play_arbiter'::text, 'fpo'::text])));
ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_hash_key UNIQUE (token_hash);
ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_name_present CHECK (((length(name) >= 1) AND (length(name) <= 200)));
ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_pkey PRIMARY KEY (token_id);
ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_role_known CHECK ((role = ANY (ARRAY['admin'::text, 'arbiter'::text, 'appeals'::text, 'reader'::text])));
ALTER TABLE events ADD CONSTRAINT events_game_event_id_key UNIQUE (game_id, event_id);
ALTER TABLE events ADD CONSTRAINT events_game_seq_key PRIMARY KEY (game_id, seq);
ALTER TABLE events ADD CONSTRAINT events_metadata_is_object CHECK ((jsonb_typeof(metadata) = 'object'::text));
ALTER TABLE events ADD CONSTRAINT events_payload_is_object CHECK ((jsonb_typeof(payload) = 'object'::text));
ALTER TABLE events ADD CONSTRAINT events_seq_positive CHECK ((seq >= 1));
ALTER TABLE events ADD CONSTRAINT events_type_matches_payload CHECK (((payload ->> 'type'::text) = event_type));
ALTER TABLE fair_play_access ADD CONSTRAINT fair_play_access_pkey PRIMARY KEY (access_id);
ALTER TABLE fair_play_evidence ADD CONSTRAINT fair_play_evidence_pkey PRIMARY KEY (evidence_id);
ALTER TABLE fair_play_payloads ADD CONSTRAINT fair_play_payloads_pkey PRIMARY KEY (event_id);
ALTER TABLE follow_attentions ADD CONSTRAINT follow_attentions_follow_id_fkey FOREIGN KEY (follow_id) REFERENCES round_follows(follow_id) ON DELETE CASCADE;
ALTER TABLE follow_attentions ADD CONSTRAINT follow_attentions_pkey PRIMARY KEY (attention_id);
ALTER TABLE follow_attentions ADD CONSTRAINT follow_attentions_resolution CHECK (((resolution IS NULL) OR (resolution = ANY (ARRAY['accepted'::text, 'illegal_move_recorded'::text, 'result_recorded'::text, 'ignored'::text, 'cleared_by_feed'::text, 'undone'::text]))));
ALTER TABLE games ADD CONSTRAINT games_pkey PRIMARY KEY (game_id);
ALTER TABLE round_follows ADD CONSTRAINT round_follows_kind CHECK ((kind = ANY (ARRAY['dgt_json'::text, 'pgn'::text])));
ALTER TABLE round_follows ADD CONSTRAINT round_follows_pkey PRIMARY KEY (follow_id);
ALTER TABLE round_follows ADD CONSTRAINT round_follows_takebacks CHECK ((takebacks = ANY (ARRAY['by_feed'::text, 'by_arbiter'::text])));
ALTER TABLE round_follows ADD CONSTRAINT round_follows_tournament_id_fkey FOREIGN KEY (tournament_id) REFERENCES tournaments(tournament_id) ON DELETE CASCADE;
ALTER TABLE round_follows ADD CONSTRAINT round_follows_tournament_id_round_key UNIQUE (tournament_id, round);
ALTER TABLE round_follows ADD CONSTRAINT round_follows_url CHECK (((url ~ '^https?://'::text) AND (length(url) <= 2000)));
ALTER TABLE tournament_byes ADD CONSTRAINT tournament_byes_code CHECK ((code = ANY (ARRAY['H'::text, 'F'::text, 'U'::text, 'Z'::text])));
ALTER TABLE tournament_byes ADD CONSTRAINT tournament_byes_pkey PRIMARY KEY (tournament_id, round, start_number);
ALTER TABLE tournament_byes ADD CONSTRAINT tournament_byes_tournament_id_fkey FOREIGN KEY (tournament_id) REFERENCES tournaments(tournament_id) ON DELETE CASCADE;
ALTER TABLE tournament_log ADD CONSTRAINT tournament_log_pkey PRIMARY KEY (entry_id);
ALTER TABLE tournament_log ADD CONSTRAINT tournament_log_tournament_id_fkey FOREIGN KEY (tournament_id) REFERENCES tournaments(tournament_id);
ALTER TABLE tournament_log ADD CONSTRAINT tournament_log_type_matches CHECK (((payload ->> 'type'::text) = entry_type));
ALTER TABLE tournament_players ADD CONSTRAINT tournament_players_name_present CHECK (((length(name) >= 1) AND (length(name) <= 200)));
ALTER TABLE tournament_players ADD CONSTRAINT tournament_players_pkey PRIMARY KEY (tournament_id, start_number);
ALTER TABLE tournament_players ADD CONSTRAINT tournament_players_start_number CHECK (((start_number >= 1) AND (start_number <= 9999)));
ALTER TABLE tournament_players ADD CONSTRAINT tournament_players_tournament_id_fkey FOREIGN KEY (tournament_id) REFERENCES tournaments(tournament_id) ON DELETE CASCADE;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_dates_ordered CHECK (((ends_on IS NULL) OR (starts_on IS NULL) OR (ends_on >= starts_on)));
ALTER TABLE tournaments ADD CONSTRAINT tournaments_edition_known CHECK ((laws_edition = ANY (ARRAY['2018'::text, '2023'::text])));
ALTER TABLE tournaments ADD CONSTRAINT tournaments_name_key UNIQUE (name);
ALTER TABLE tournaments ADD CONSTRAINT tournaments_name_present CHECK (((length(name) >= 1) AND (length(name) <= 200)));
ALTER TABLE tournaments ADD CONSTRAINT tournaments_pkey PRIMARY KEY (tournament_id);
ALTER TABLE tournaments ADD CONSTRAINT tournaments_unplayed_rounds_known CHECK (((unplayed_rounds IS NULL) OR (unplayed_rounds = ANY (ARRAY['2023'::text, 'before_2023'::text]))));
ALTER TABLE web_sessions ADD CONSTRAINT web_sessions_pkey PRIMARY KEY (session_hash);
ALTER TABLE web_sessions ADD CONSTRAINT web_sessions_token_id_fkey FOREIGN KEY (token_id) REFERENCES api_tokens(token_id) ON DELETE CASCADE;

-- Indexes

CREATE UNIQUE INDEX api_tokens_hash_key ON public.api_tokens USING btree (token_hash);
CREATE UNIQUE INDEX api_tokens_pkey ON public.api_tokens USING btree (token_id);
CREATE INDEX events_feed_idx ON public.events USING btree (tx_id, "position");
CREATE UNIQUE INDEX events_game_event_id_key ON public.events USING btree (game_id, event_id);
CREATE UNIQUE INDEX events_game_seq_key ON public.events USING btree (game_id, seq);
CREATE INDEX events_game_type_idx ON public.events USING btree (game_id, event_type);
CREATE INDEX events_type_idx ON public.events USING btree (event_type, game_id);
CREATE INDEX fair_play_access_game ON public.fair_play_access USING btree (game_id, access_id);
CREATE UNIQUE INDEX fair_play_access_pkey ON public.fair_play_access USING btree (access_id);
CREATE UNIQUE INDEX fair_play_evidence_pkey ON public.fair_play_evidence USING btree (evidence_id);
CREATE INDEX fair_play_payloads_game ON public.fair_play_payloads USING btree (game_id);
CREATE UNIQUE INDEX fair_play_payloads_pkey ON public.fair_play_payloads USING btree (event_id);
CREATE INDEX follow_attentions_game ON public.follow_attentions USING btree (game_id, opened_at);
CREATE UNIQUE INDEX follow_attentions_open ON public.follow_attentions USING btree (game_id, notice) WHERE (resolution IS NULL);
CREATE UNIQUE INDEX follow_attentions_pkey ON public.follow_attentions USING btree (attention_id);
CREATE INDEX games_event_round_idx ON public.games USING btree (event_name, round);
CREATE INDEX games_listing_idx ON public.games USING btree (created_at, game_id);
CREATE UNIQUE INDEX games_pkey ON public.games USING btree (game_id);
CREATE INDEX games_status_idx ON public.games USING btree (status);
CREATE UNIQUE INDEX round_follows_pkey ON public.round_follows USING btree (follow_id);
CREATE UNIQUE INDEX round_follows_tournament_id_round_key ON public.round_follows USING btree (tournament_id, round);
CREATE UNIQUE INDEX tournament_byes_pkey ON public.tournament_byes USING btree (tournament_id, round, start_number);
CREATE UNIQUE INDEX tournament_log_pkey ON public.tournament_log USING btree (entry_id);
CREATE INDEX tournament_log_tournament ON public.tournament_log USING btree (tournament_id, entry_id);
CREATE UNIQUE INDEX tournament_players_pkey ON public.tournament_players USING btree (tournament_id, start_number);
CREATE UNIQUE INDEX tournaments_name_key ON public.tournaments USING btree (name);
CREATE UNIQUE INDEX tournaments_pkey ON public.tournaments USING btree (tournament_id);
CREATE INDEX web_sessions_expiry_idx ON public.web_sessions USING btree (expires_at);
CREATE UNIQUE INDEX web_sessions_pkey ON public.web_sessions USING btree (session_hash);
CREATE INDEX web_sessions_token_idx ON public.web_sessions USING btree (token_id);

-- Types

-- Views

-- Functions

CREATE OR REPLACE FUNCTION public.event_genesis_hash()
 RETURNS bytea
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$ SELECT '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea $function$;

CREATE OR REPLACE FUNCTION public.event_hash_input(p_game_id uuid, p_seq bigint, p_event_id uuid, p_event_type text, p_payload jsonb, p_metadata jsonb, p_recorded_at timestamp with time zone, p_occurred_at timestamp with time zone, p_recorded_by text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET "TimeZone" TO 'UTC'
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION public.events_append_group(request_game_ids uuid[], request_expected_seqs bigint[], request_last_seqs bigint[], request_sets_outcome boolean[], request_status text[], request_result text[], request_termination text[], event_game_ids uuid[], event_seqs bigint[], event_ids uuid[], event_batch_ids uuid[], event_types text[], event_payloads jsonb[], event_metadata jsonb[], event_occurred_at timestamp with time zone[], event_recorded_by text[])
 RETURNS TABLE(stored_game_id uuid, stored_seq bigint, stored_recorded_at timestamp with time zone, stored_prev_hash bytea, stored_hash bytea)
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION public.events_append_group_linked(request_game_ids uuid[], request_expected_seqs bigint[], request_last_seqs bigint[], request_sets_outcome boolean[], request_status text[], request_result text[], request_termination text[], event_game_ids uuid[], event_seqs bigint[], event_ids uuid[], event_batch_ids uuid[], event_types text[], event_payloads jsonb[], event_metadata jsonb[], event_occurred_at timestamp with time zone[], event_recorded_by text[])
 RETURNS TABLE(stored_game_id uuid, stored_seq bigint, stored_recorded_at timestamp with time zone, stored_prev_hash bytea, stored_hash bytea)
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION public.events_link_chain()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION public.events_notify_appended()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
    appended_game uuid;
BEGIN
    FOR appended_game IN SELECT DISTINCT game_id FROM appended_events LOOP
        PERFORM pg_notify('arbiter_events', appended_game::text);
    END LOOP;
    RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.events_refuse_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    RAISE EXCEPTION 'the event log is append-only: % on events is not allowed; record a correction event instead', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$function$;

CREATE OR REPLACE FUNCTION public.fair_play_refuse_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    RAISE EXCEPTION 'fair-play records are append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'raise_exception';
END
$function$;

CREATE OR REPLACE FUNCTION public.tournament_log_refuse_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    RAISE EXCEPTION 'the tournament log is append-only: % on tournament_log is not allowed; record another entry instead', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$function$;

-- Triggers (enabled: O origin and local, A always, also in replica mode)

CREATE TRIGGER events_link_chain BEFORE INSERT ON public.events FOR EACH ROW EXECUTE FUNCTION events_link_chain(); -- enabled: A
CREATE TRIGGER events_notify_appended AFTER INSERT ON public.events REFERENCING NEW TABLE AS appended_events FOR EACH STATEMENT EXECUTE FUNCTION events_notify_appended(); -- enabled: O
CREATE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON public.events FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change(); -- enabled: A
CREATE TRIGGER events_refuse_update_delete BEFORE DELETE OR UPDATE ON public.events FOR EACH ROW EXECUTE FUNCTION events_refuse_change(); -- enabled: A
CREATE TRIGGER fair_play_access_refuse_change BEFORE DELETE OR UPDATE ON public.fair_play_access FOR EACH ROW EXECUTE FUNCTION fair_play_refuse_change(); -- enabled: O
CREATE TRIGGER fair_play_evidence_refuse_change BEFORE DELETE OR UPDATE ON public.fair_play_evidence FOR EACH ROW EXECUTE FUNCTION fair_play_refuse_change(); -- enabled: O
CREATE TRIGGER fair_play_payloads_refuse_change BEFORE DELETE OR UPDATE ON public.fair_play_payloads FOR EACH ROW EXECUTE FUNCTION fair_play_refuse_change(); -- enabled: O
CREATE TRIGGER tournament_log_refuse_truncate BEFORE TRUNCATE ON public.tournament_log FOR EACH STATEMENT EXECUTE FUNCTION tournament_log_refuse_change(); -- enabled: A
CREATE TRIGGER tournament_log_refuse_update_delete BEFORE DELETE OR UPDATE ON public.tournament_log FOR EACH ROW EXECUTE FUNCTION tournament_log_refuse_change(); -- enabled: A

-- Privileges

-- function event_genesis_hash(): (default)
-- function event_hash_input(p_game_id uuid, p_seq bigint, p_event_id uuid, p_event_type text, p_payload jsonb, p_metadata jsonb, p_recorded_at timestamp with time zone, p_occurred_at timestamp with time zone, p_recorded_by text): (default)
-- function events_append_group(request_game_ids uuid[], request_expected_seqs bigint[], request_last_seqs bigint[], request_sets_outcome boolean[], request_status text[], request_result text[], request_termination text[], event_game_ids uuid[], event_seqs bigint[], event_ids uuid[], event_batch_ids uuid[], event_types text[], event_payloads jsonb[], event_metadata jsonb[], event_occurred_at timestamp with time zone[], event_recorded_by text[]): (default)
-- function events_append_group_linked(request_game_ids uuid[], request_expected_seqs bigint[], request_last_seqs bigint[], request_sets_outcome boolean[], request_status text[], request_result text[], request_termination text[], event_game_ids uuid[], event_seqs bigint[], event_ids uuid[], event_batch_ids uuid[], event_types text[], event_payloads jsonb[], event_metadata jsonb[], event_occurred_at timestamp with time zone[], event_recorded_by text[]): (default)
-- function events_link_chain(): (default)
-- function events_notify_appended(): (default)
-- function events_refuse_change(): (default)
-- function fair_play_refuse_change(): (default)
-- function tournament_log_refuse_change(): (default)
-- sequence events_position_seq: (default)
-- sequence fair_play_access_access_id_seq: {<owner>=rwU/<owner>,arbiter_service=U/<owner>}
-- sequence tournament_log_entry_id_seq: (default)
-- table api_tokens: {<owner>=arwdDxt/<owner>,arbiter_service=ar/<owner>}
-- table events: {<owner>=arwdDxt/<owner>,arbiter_service=ar/<owner>}
-- table fair_play_access: {<owner>=arwdDxt/<owner>,arbiter_service=ar/<owner>}
-- table fair_play_evidence: {<owner>=arwdDxt/<owner>,arbiter_service=ar/<owner>}
-- table fair_play_payloads: {<owner>=arwdDxt/<owner>,arbiter_service=ar/<owner>}
-- table follow_attentions: {<owner>=arwdDxt/<owner>,arbiter_service=arw/<owner>}
-- table games: {<owner>=arwdDxt/<owner>,arbiter_service=arw/<owner>}
-- table round_follows: {<owner>=arwdDxt/<owner>,arbiter_service=arw/<owner>}
-- table tournament_byes: {<owner>=arwdDxt/<owner>,arbiter_service=arwd/<owner>}
-- table tournament_log: {<owner>=arwdDxt/<owner>,arbiter_service=ar/<owner>}
-- table tournament_players: {<owner>=arwdDxt/<owner>,arbiter_service=arw/<owner>}
-- table tournaments: {<owner>=arwdDxt/<owner>,arbiter_service=arw/<owner>}
-- table web_sessions: {<owner>=arwdDxt/<owner>,arbiter_service=arwd/<owner>}

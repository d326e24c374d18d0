-- Fair play (issue 23): the confidential payloads of fair-play events, their evidence files,
-- who read them, and which tokens may.
--
-- A fair-play event is stored in the game's hash-chained log like any other, but its public
-- row (`events`, type `fair_play`) carries only the SHA-256 of its payload (`sealed`) and,
-- when the game ends under 11.3.2.2, the loser and the article. The payload itself, with a
-- random salt so that the hash cannot be guessed from a short list, sits here. A public audit
-- verifies the chain without it; a reader with the `fair_play` capability verifies that each
-- payload still gives the hash in the chain.

-- Which tokens hold the `fair_play` capability, and in which role: the chief arbiter, the
-- designated fair-play arbiter (ECU Q.2.1) or a Fair Play Officer appointed by FIDE, whose
-- entries are proposals the chief arbiter confirms.
ALTER TABLE api_tokens ADD COLUMN fair_play_role text;
ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_fair_play_role_known
    CHECK (fair_play_role IN ('chief_arbiter', 'fair_play_arbiter', 'fpo'));

CREATE TABLE fair_play_payloads (
    event_id    uuid        PRIMARY KEY,
    game_id     uuid        NOT NULL,
    kind        text        NOT NULL,
    -- The sealed payload: {"salt": ..., "record": {...}}; its SHA-256 over PostgreSQL's
    -- canonical jsonb text is `sealed` in the public row.
    payload     jsonb       NOT NULL,
    sha256      bytea       NOT NULL,
    stored_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fair_play_payloads_game ON fair_play_payloads (game_id);

-- Evidence files (photos, statements, scanner logs), addressed by their SHA-256, which the
-- `evidence_added` payload names.
CREATE TABLE fair_play_evidence (
    evidence_id uuid        PRIMARY KEY,
    game_id     uuid        NOT NULL,
    sha256      bytea       NOT NULL,
    media_type  text        NOT NULL,
    content     bytea       NOT NULL,
    stored_at   timestamptz NOT NULL DEFAULT now()
);

-- Every read of a restricted event: who, when, what. Append-only.
CREATE TABLE fair_play_access (
    access_id   bigserial   PRIMARY KEY,
    game_id     uuid        NOT NULL,
    seq         bigint,
    reader      text        NOT NULL,
    what        text        NOT NULL,
    read_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fair_play_access_game ON fair_play_access (game_id, access_id);

-- Like the log, these rows never change once written.
CREATE FUNCTION fair_play_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'fair-play records are append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'raise_exception';
END
$$;
CREATE TRIGGER fair_play_payloads_refuse_change BEFORE UPDATE OR DELETE ON fair_play_payloads
    FOR EACH ROW EXECUTE FUNCTION fair_play_refuse_change();
CREATE TRIGGER fair_play_evidence_refuse_change BEFORE UPDATE OR DELETE ON fair_play_evidence
    FOR EACH ROW EXECUTE FUNCTION fair_play_refuse_change();
CREATE TRIGGER fair_play_access_refuse_change BEFORE UPDATE OR DELETE ON fair_play_access
    FOR EACH ROW EXECUTE FUNCTION fair_play_refuse_change();

GRANT SELECT, INSERT ON fair_play_payloads, fair_play_evidence, fair_play_access
    TO arbiter_service;
GRANT USAGE ON SEQUENCE fair_play_access_access_id_seq TO arbiter_service;
GRANT UPDATE (fair_play_role) ON api_tokens TO arbiter_service;

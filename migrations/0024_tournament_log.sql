-- The tournament's own log (issue 35): what happens to a tournament outside its games, each
-- entry typed (`tournament_log::TournamentEntry`), with who recorded it and when: a report
-- (TRF) exported, a round's pairings loaded, the settings changed, and each player's status
-- (a withdrawal, an expulsion, a requested bye, a late entry). The TRF26 export writes the
-- entries that matter to the rating officer as `###` lines, and the player statuses give the
-- unplayed rounds' codes. Append-only like `events`: a status given in error is answered by
-- another entry, never changed.

CREATE TABLE tournament_log (
    entry_id      bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tournament_id uuid        NOT NULL REFERENCES tournaments (tournament_id),
    -- The entry's `type` (as in the payload).
    entry_type    text        NOT NULL,
    payload       jsonb       NOT NULL,
    recorded_by   text        NOT NULL,
    recorded_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT tournament_log_type_matches CHECK (payload ->> 'type' = entry_type)
);
CREATE INDEX tournament_log_tournament ON tournament_log (tournament_id, entry_id);

CREATE FUNCTION tournament_log_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the tournament log is append-only: % on tournament_log is not allowed; record another entry instead', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER tournament_log_refuse_update_delete BEFORE UPDATE OR DELETE ON tournament_log
    FOR EACH ROW EXECUTE FUNCTION tournament_log_refuse_change();
CREATE TRIGGER tournament_log_refuse_truncate BEFORE TRUNCATE ON tournament_log
    FOR EACH STATEMENT EXECUTE FUNCTION tournament_log_refuse_change();
ALTER TABLE tournament_log ENABLE ALWAYS TRIGGER tournament_log_refuse_update_delete;
ALTER TABLE tournament_log ENABLE ALWAYS TRIGGER tournament_log_refuse_truncate;

GRANT SELECT, INSERT ON tournament_log TO arbiter_service;

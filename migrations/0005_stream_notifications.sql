-- Live streams wake on a notification sent in the append's own transaction (DESIGN.md,
-- Interfaces around the log): PostgreSQL delivers it when, and only when, the append commits.
--
-- A statement-level trigger with a transition table sends one notification per distinct game
-- in each INSERT statement on `events`, whatever the code that appends (one row per
-- statement, a multi-row INSERT, or a SQL function). The payload is the game id; listeners
-- then read what is new from the log itself (per game: seq > last; per round: the feed
-- behind its transaction-id fence), so a notification lost with a dropped connection loses
-- nothing but a wake-up. PostgreSQL also folds identical notifications of one transaction
-- into one.

CREATE FUNCTION events_notify_appended() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    appended_game uuid;
BEGIN
    FOR appended_game IN SELECT DISTINCT game_id FROM appended_events LOOP
        PERFORM pg_notify('arbiter_events', appended_game::text);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE TRIGGER events_notify_appended AFTER INSERT ON events
    REFERENCING NEW TABLE AS appended_events
    FOR EACH STATEMENT EXECUTE FUNCTION events_notify_appended();

-- Boards in (issue 34): a notice of a takeback the board feed applied (`corrected_by_feed`)
-- and an attention that needs the arbiter are two things, open side by side on one game.
-- Until now one open row per game was allowed, so a later fault that needed the arbiter
-- replaced the notice: the arbiter no longer saw that a takeback had been applied and could
-- not undo it. Now a game has at most one open notice and at most one open attention.
ALTER TABLE follow_attentions ADD COLUMN notice boolean
    GENERATED ALWAYS AS (attention->>'type' = 'corrected_by_feed') STORED;

DROP INDEX follow_attentions_open;
CREATE UNIQUE INDEX follow_attentions_open ON follow_attentions (game_id, notice)
    WHERE resolution IS NULL;

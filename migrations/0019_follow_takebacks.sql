-- Boards in, as real boards fail (issue 34 item 2): who applies a takeback the board feed
-- shows when nothing the arbiter entered stands on the moves taken back. `by_feed` (the
-- default): the follower retracts them itself, as the board feed, and shows the arbiter a
-- notice (`corrected_by_feed`) that can undo it; `by_arbiter`: every takeback waits for the
-- arbiter, as before. A takeback that touches a ruling, a claim, an offer, a result or the
-- arbiter's own entries always waits.
ALTER TABLE round_follows ADD COLUMN takebacks text NOT NULL DEFAULT 'by_feed';
ALTER TABLE round_follows ADD CONSTRAINT round_follows_takebacks
    CHECK (takebacks IN ('by_feed', 'by_arbiter'));

-- A notice of a takeback the feed applied is settled `undone` when the arbiter restores the
-- moves it retracted.
ALTER TABLE follow_attentions DROP CONSTRAINT follow_attentions_resolution;
ALTER TABLE follow_attentions ADD CONSTRAINT follow_attentions_resolution CHECK (resolution IS NULL
    OR resolution IN ('accepted', 'illegal_move_recorded', 'result_recorded', 'ignored',
        'cleared_by_feed', 'undone'));

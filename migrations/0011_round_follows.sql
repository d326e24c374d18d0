-- Following a round's electronic boards live (issue 22 item 1): the feed a round is given to
-- follow (a DGT LiveChess round URL, whose `game-N.json` is board N of the round's pairings),
-- whether it is followed, and how its last poll went. A setting, not part of the event log:
-- the moves the follower records go into the log through the engine like an arbiter's.

CREATE TABLE round_follows (
    follow_id      uuid        PRIMARY KEY,
    tournament_id  uuid        NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    round          text        NOT NULL,
    -- `dgt_json`: a DGT LiveChess round URL (index.json, game-N.json beside it).
    kind           text        NOT NULL,
    url            text        NOT NULL,
    enabled        boolean     NOT NULL,
    created_by     text        NOT NULL,
    updated_at     timestamptz NOT NULL DEFAULT now(),
    -- The last poll: when, whether the source answered, what went wrong, how many polls
    -- in a row failed (the back-off grows with it).
    last_poll_at   timestamptz,
    last_ok_at     timestamptz,
    last_error     text,
    failures       integer     NOT NULL DEFAULT 0,
    UNIQUE (tournament_id, round),
    CONSTRAINT round_follows_kind CHECK (kind IN ('dgt_json')),
    CONSTRAINT round_follows_url CHECK (url ~ '^https?://' AND length(url) <= 2000)
);

-- What the feed says that the engine refuses, or that only the arbiter may decide: a
-- misread move, a line that no longer extends the stored one, a move taken back, a proposed
-- result. Never stored in the log as if it were true; open until the arbiter decides (or the
-- feed stops saying it), and kept afterwards with the decision. `attention` is the reader's
-- typed `Attention`, `feed_moves` the board's moves as the feed gave them.
CREATE TABLE follow_attentions (
    attention_id   uuid        PRIMARY KEY,
    follow_id      uuid        NOT NULL REFERENCES round_follows (follow_id) ON DELETE CASCADE,
    game_id        uuid        NOT NULL,
    board          integer     NOT NULL,
    attention      jsonb       NOT NULL,
    feed_moves     jsonb       NOT NULL,
    feed_result    text,
    opened_at      timestamptz NOT NULL DEFAULT now(),
    -- `accepted`, `illegal_move_recorded`, `result_recorded`, `ignored`, `cleared_by_feed`.
    resolution     text,
    resolved_by    text,
    resolved_at    timestamptz,
    CONSTRAINT follow_attentions_resolution CHECK (resolution IS NULL OR resolution IN
        ('accepted', 'illegal_move_recorded', 'result_recorded', 'ignored', 'cleared_by_feed'))
);

-- At most one open attention per game.
CREATE UNIQUE INDEX follow_attentions_open ON follow_attentions (game_id) WHERE resolution IS NULL;
CREATE INDEX follow_attentions_game ON follow_attentions (game_id, opened_at);

GRANT SELECT, INSERT, UPDATE ON round_follows TO arbiter_service;
GRANT SELECT, INSERT, UPDATE ON follow_attentions TO arbiter_service;

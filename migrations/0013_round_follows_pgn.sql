-- A round can also be followed from its PGN file (issue 22 item 1, the second source): one
-- game per board, polled like the DGT LiveChess feed.
ALTER TABLE round_follows DROP CONSTRAINT round_follows_kind;
ALTER TABLE round_follows ADD CONSTRAINT round_follows_kind CHECK (kind IN ('dgt_json', 'pgn'));

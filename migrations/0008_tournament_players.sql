-- The players of a tournament as its pairing program numbers them, and the byes of its rounds:
-- what a FIDE tournament report (TRF) needs besides the games. Loading a round from a TRF file
-- keeps the file's player lines here (start rank, sex, title, name, rating, federation, FIDE id,
-- birth date) and the round's byes (H, F, U, Z), so that the report sent back to the pairing
-- program and to the rating officer numbers the players as the program does. Neither table is
-- part of the event log (a bye is not a game): a later file replaces what an earlier one gave.

CREATE TABLE tournament_players (
    tournament_id uuid    NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    start_number  integer NOT NULL,
    name          text    NOT NULL,
    -- As the file has it: 0 is what programs write for a player without an id.
    fide_id       bigint,
    sex           text    NOT NULL DEFAULT '',
    title         text    NOT NULL DEFAULT '',
    rating        integer,
    federation    text    NOT NULL DEFAULT '',
    birth_date    text    NOT NULL DEFAULT '',
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, start_number),
    CONSTRAINT tournament_players_start_number CHECK (start_number BETWEEN 1 AND 9999),
    CONSTRAINT tournament_players_name_present CHECK (length(name) BETWEEN 1 AND 200)
);

CREATE TABLE tournament_byes (
    tournament_id uuid    NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    round         text    NOT NULL,
    start_number  integer NOT NULL,
    -- H half-point, F full-point, U pairing-allocated, Z zero-point (a known absence).
    code          text    NOT NULL,
    recorded_by   text    NOT NULL,
    recorded_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, round, start_number),
    CONSTRAINT tournament_byes_code CHECK (code IN ('H', 'F', 'U', 'Z'))
);

GRANT SELECT, INSERT, UPDATE ON tournament_players TO arbiter_service;
GRANT SELECT, INSERT, UPDATE, DELETE ON tournament_byes TO arbiter_service;

-- The tournament's tie-breaks (FIDE Handbook C.07): the order that ranks players on equal
-- points (C.07 abbreviations such as 'BH/C1', 'DE'), used by the standings, the TRF rank
-- column and the chief arbiter's report; and which text of C.07 governs unplayed rounds
-- ('2023' or 'before_2023'; NULL: chosen by the first day). Tournaments created before have
-- none, and their players on equal points share a place, as they always did.

ALTER TABLE tournaments ADD COLUMN tie_breaks text[] NOT NULL DEFAULT '{}';
ALTER TABLE tournaments ADD COLUMN unplayed_rounds text
    CONSTRAINT tournaments_unplayed_rounds_known
    CHECK (unplayed_rounds IS NULL OR unplayed_rounds IN ('2023', 'before_2023'));

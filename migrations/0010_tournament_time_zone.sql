-- The venue's time zone (an IANA name), so that printed sheets show the times of the log as
-- the hall's clocks showed them. NULL for tournaments created before: they print in UTC, as
-- they always did.

ALTER TABLE tournaments ADD COLUMN time_zone text;

-- Issue 18: a tournament says how its games' clocks add the next period's time and credit
-- increments (6.3.2), as a game's `clock_behaviour` does in its `game_created` event: a
-- `ClockBehaviour` object, `{}` for the default (a clock that counts presses and adds the
-- period at the press that completes its moves). Existing tournaments get the default, which
-- is what their games were created with.

ALTER TABLE tournaments ADD COLUMN clock_behaviour jsonb NOT NULL DEFAULT '{}'::jsonb;

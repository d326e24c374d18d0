-- The back office: tournaments (the settings games of an event take) and the sessions of
-- people signed in to the web pages. Neither is part of the event log: a tournament's settings
-- reach a game only through its `game_created` event, and sessions may be deleted (sign-out,
-- expiry). Append-only applies to `events` alone.

CREATE TABLE tournaments (
    tournament_id uuid        PRIMARY KEY,
    -- The event name every game of the tournament carries (PGN `Event`); it never changes,
    -- because the games are found by it.
    name          text        NOT NULL,
    site          text,
    starts_on     date,
    ends_on       date,
    -- A `TimeControl` and a `Regulations` object as in `game_created`.
    time_control  jsonb       NOT NULL,
    laws_edition  text        NOT NULL DEFAULT '2023',
    regulations   jsonb       NOT NULL DEFAULT '{}'::jsonb,
    arbiters      text[]      NOT NULL DEFAULT '{}',
    created_at    timestamptz NOT NULL DEFAULT now(),
    created_by    text        NOT NULL,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tournaments_name_key UNIQUE (name),
    CONSTRAINT tournaments_name_present CHECK (length(name) BETWEEN 1 AND 200),
    CONSTRAINT tournaments_edition_known CHECK (laws_edition IN ('2018', '2023')),
    CONSTRAINT tournaments_dates_ordered CHECK (ends_on IS NULL OR starts_on IS NULL OR ends_on >= starts_on)
);

-- A signed-in browser. Only the SHA-256 of the session id is stored (the id lives in the
-- cookie alone). A session is bound to the token it was opened with: revoking the token ends
-- it (the lookup joins the token), and deleting the token row deletes it.
CREATE TABLE web_sessions (
    session_hash  bytea       PRIMARY KEY,
    token_id      uuid        NOT NULL REFERENCES api_tokens (token_id) ON DELETE CASCADE,
    -- The synchronizer token every form of this session carries (CSRF).
    csrf_token    text        NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_seen_at  timestamptz NOT NULL DEFAULT now(),
    -- The absolute end of the session, whatever the activity.
    expires_at    timestamptz NOT NULL,
    -- What the next page shows once (a refused form with its values, post/redirect/get).
    flash         jsonb
);
CREATE INDEX web_sessions_token_idx ON web_sessions (token_id);
CREATE INDEX web_sessions_expiry_idx ON web_sessions (expires_at);

-- The incident report and the appeals list read a round's events by type.
CREATE INDEX events_game_type_idx ON events (game_id, event_type);

GRANT SELECT, INSERT, UPDATE ON tournaments TO arbiter_service;
GRANT SELECT, INSERT, UPDATE, DELETE ON web_sessions TO arbiter_service;

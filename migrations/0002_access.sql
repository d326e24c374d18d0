-- Who may write what: bearer tokens (only their SHA-256 is stored) and a least-privilege
-- database role for the service.

CREATE TABLE api_tokens (
    token_id    uuid        PRIMARY KEY,
    name        text        NOT NULL,
    role        text        NOT NULL,
    events      text[],
    token_hash  bytea       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text        NOT NULL,
    revoked_at  timestamptz,
    CONSTRAINT api_tokens_hash_key UNIQUE (token_hash),
    CONSTRAINT api_tokens_role_known CHECK (role IN ('admin', 'arbiter', 'appeals', 'reader')),
    CONSTRAINT api_tokens_name_present CHECK (length(name) BETWEEN 1 AND 200)
);

-- The role the service works as: it may read and append events, but never change or remove
-- them (the refusal triggers stand behind this too). Roles are server-wide, so creating it
-- tolerates another database having created it first.
DO $$
BEGIN
    CREATE ROLE arbiter_service NOLOGIN;
EXCEPTION
    WHEN duplicate_object OR unique_violation THEN NULL;
END
$$;

GRANT SELECT, INSERT ON events TO arbiter_service;
GRANT SELECT, INSERT, UPDATE ON games TO arbiter_service;
GRANT SELECT, INSERT ON api_tokens TO arbiter_service;
GRANT UPDATE (revoked_at) ON api_tokens TO arbiter_service;
GRANT SELECT ON _sqlx_migrations TO arbiter_service;

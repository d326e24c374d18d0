-- Operations: tokens that expire, that can be rotated, and that show when they were last used.
--
-- The blueprint that 0001 cites as `DESIGN.md` is docs/DESIGN.md in this repository;
-- docs/operations.md explains what follows.
--
-- * expires_at: optional; a token presented after it is refused (401 `token_expired`).
--   Tokens created before this migration have none and keep working.
-- * last_used_at: set by the same statement that looks the token up, at most once a minute
--   per token, so the lookup stays one round trip and a busy token does not write on
--   every request.
-- * rotated_from: the token this one replaced (`arbiter token rotate`), for the audit trail.

ALTER TABLE api_tokens
    ADD COLUMN expires_at   timestamptz,
    ADD COLUMN last_used_at timestamptz,
    ADD COLUMN rotated_from uuid,
    ADD CONSTRAINT api_tokens_expiry_after_creation CHECK (expires_at IS NULL OR expires_at > created_at);

-- The service looks tokens up as arbiter_service: it stamps last_used_at, and a rotation
-- through the API (POST /v1/tokens/{id}/rotate) may shorten the old token's life to a grace
-- period. It still cannot change who a token belongs to, its role or its hash.
GRANT UPDATE (last_used_at, expires_at) ON api_tokens TO arbiter_service;

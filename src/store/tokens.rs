//! Bearer tokens: only the SHA-256 of a token is stored; the token itself is shown once.
//!
//! A token may carry an expiry (`expires_at`); the lookup made on every request also stamps
//! `last_used_at`, in the same statement and at most once a minute per token, so that
//! authenticating stays one round trip (migration 0004, docs/operations.md).

use super::{Store, StoreError};
use crate::access::{FairPlayRole, Principal, Role};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::Row;
use sqlx::postgres::PgRow;
use utoipa::ToSchema;
use uuid::Uuid;

/// What is known about a token (never the token itself).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TokenInfo {
    /// The token's id.
    pub token_id: Uuid,
    /// Who holds it.
    pub name: String,
    /// Its role.
    pub role: Role,
    /// The events (tournaments) it is limited to; absent for all.
    pub events: Option<Vec<String>>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// Who created it.
    pub created_by: String,
    /// When it was revoked, if it was.
    pub revoked_at: Option<DateTime<Utc>>,
    /// When it stops working, if it expires.
    #[serde(default)]
    pub expires_at: Option<DateTime<Utc>>,
    /// When it was last presented with a request (to the minute: it is stamped at most once
    /// a minute); absent if it never was.
    #[serde(default)]
    pub last_used_at: Option<DateTime<Utc>>,
    /// The token this one replaced, if it was made by a rotation.
    #[serde(default)]
    pub rotated_from: Option<Uuid>,
    /// The `fair_play` capability and as whom; absent for a token without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fair_play_role: Option<FairPlayRole>,
}

/// What a presented token turned out to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenCheck {
    /// A known, unrevoked token that has not expired.
    Valid(Principal),
    /// A known, unrevoked token whose expiry has passed.
    Expired {
        /// The token's id.
        token_id: Uuid,
        /// When it expired.
        expired_at: DateTime<Utc>,
    },
    /// Not a token this service gave out, or a revoked one.
    Unknown,
}

/// Why a token cannot be rotated.
#[derive(Debug, thiserror::Error)]
pub enum RotateError {
    /// There is no token with that id.
    #[error("no token with id {0}")]
    NotFound(Uuid),
    /// The token was revoked: revocation is deliberate, so it is not renewed.
    #[error("token {0} is revoked")]
    Revoked(Uuid),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A rotation: the new token (shown once) and the old token as it stands now.
#[derive(Clone, Debug)]
pub struct Rotated {
    /// The new token's description.
    pub info: TokenInfo,
    /// The new bearer token; only its hash is stored.
    pub token: String,
    /// The old token, revoked or expiring at the end of the grace period.
    pub old: TokenInfo,
}

/// The SHA-256 of a presented token.
pub fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

pub(super) fn info_from_row(row: &PgRow) -> Result<TokenInfo, StoreError> {
    let token_id: Uuid = row.try_get("token_id")?;
    let role: String = row.try_get("role")?;
    let fair_play: Option<String> = row.try_get("fair_play_role")?;
    let fair_play_role = match fair_play {
        None => None,
        Some(name) => Some(
            FairPlayRole::parse(&name).ok_or_else(|| StoreError::Undecodable {
                game_id: token_id,
                seq: 0,
                message: format!("unknown fair-play role {name}"),
            })?,
        ),
    };
    Ok(TokenInfo {
        token_id,
        name: row.try_get("name")?,
        role: Role::parse(&role).ok_or_else(|| StoreError::Undecodable {
            game_id: token_id,
            seq: 0,
            message: format!("unknown role {role}"),
        })?,
        events: row.try_get("events")?,
        created_at: row.try_get("created_at")?,
        created_by: row.try_get("created_by")?,
        revoked_at: row.try_get("revoked_at")?,
        expires_at: row.try_get("expires_at")?,
        last_used_at: row.try_get("last_used_at")?,
        rotated_from: row.try_get("rotated_from")?,
        fair_play_role,
    })
}

/// A fresh bearer token: `arb_` and 32 random bytes, base64url.
fn fresh_token() -> String {
    let mut secret = [0u8; 32];
    rand::rng().fill_bytes(&mut secret);
    format!("arb_{}", URL_SAFE_NO_PAD.encode(secret))
}

/// Looks a token up and, when it is valid and was not stamped in the last minute, stamps
/// `last_used_at`: one statement, one round trip. The stamp takes the row with `SKIP LOCKED`,
/// so concurrent requests with the same token never wait for each other (one of them
/// stamps). Expiry is judged by the database clock, the same clock that wrote `expires_at`.
const AUTHENTICATE: &str = "\
WITH stamped AS (
    UPDATE api_tokens SET last_used_at = now()
    WHERE token_id = (
        SELECT token_id FROM api_tokens
        WHERE token_hash = $1 AND revoked_at IS NULL
          AND (expires_at IS NULL OR expires_at > now())
          AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
        FOR UPDATE SKIP LOCKED)
    RETURNING token_id
)
SELECT *, (expires_at IS NOT NULL AND expires_at <= now()) AS expired
FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL";

impl Store {
    /// Creates a token; returns its description and the token, which is not stored.
    pub async fn create_token(
        &self,
        name: &str,
        role: Role,
        events: Option<&[String]>,
        created_by: &str,
    ) -> Result<(TokenInfo, String), StoreError> {
        self.create_expiring_token(name, role, events, None, created_by)
            .await
    }

    /// Creates a token that stops working at `expires_at` (never when `None`).
    pub async fn create_expiring_token(
        &self,
        name: &str,
        role: Role,
        events: Option<&[String]>,
        expires_at: Option<DateTime<Utc>>,
        created_by: &str,
    ) -> Result<(TokenInfo, String), StoreError> {
        let token = fresh_token();
        let row = sqlx::query(
            "INSERT INTO api_tokens (token_id, name, role, events, token_hash, created_by, \
             expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *",
        )
        .bind(Uuid::new_v4())
        .bind(name)
        .bind(role.as_str())
        .bind(events)
        .bind(token_hash(&token))
        .bind(created_by)
        .bind(expires_at)
        .fetch_one(&self.pool)
        .await?;
        Ok((info_from_row(&row)?, token))
    }

    /// Checks a presented token in one round trip, stamping its `last_used_at` (at most once
    /// a minute) when it is valid.
    pub async fn authenticate(&self, token: &str) -> Result<TokenCheck, StoreError> {
        Ok(self.authenticate_hash(&token_hash(token)).await?.0)
    }

    /// [`Store::authenticate`] of a token given by its hash ([`token_hash`]), with the
    /// token's expiry when it is valid and has one.
    pub async fn authenticate_hash(
        &self,
        hash: &[u8],
    ) -> Result<(TokenCheck, Option<DateTime<Utc>>), StoreError> {
        let row = sqlx::query(AUTHENTICATE)
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Ok((TokenCheck::Unknown, None));
        };
        let info = info_from_row(&row)?;
        let expired: bool = row.try_get("expired")?;
        let expires_at = info.expires_at;
        let check = match info.expires_at {
            Some(expired_at) if expired => TokenCheck::Expired {
                token_id: info.token_id,
                expired_at,
            },
            _ => TokenCheck::Valid(Principal {
                token_id: info.token_id,
                name: info.name,
                role: info.role,
                events: info.events,
                fair_play: info.fair_play_role,
            }),
        };
        Ok((check, expires_at))
    }

    /// Replaces a token with a new one of the same name, role and events, in one transaction.
    ///
    /// The new token expires at `expires_at` (`None`: never). The old one is revoked at once
    /// when `grace` is zero; otherwise it keeps working until `grace` from now (or its own
    /// expiry, if sooner), so that holders can switch without a gap.
    pub async fn rotate_token(
        &self,
        token_id: Uuid,
        expires_at: Option<DateTime<Utc>>,
        grace: std::time::Duration,
        rotated_by: &str,
    ) -> Result<Rotated, RotateError> {
        let mut tx = self.pool.begin().await.map_err(StoreError::from)?;
        let old = sqlx::query("SELECT * FROM api_tokens WHERE token_id = $1 FOR UPDATE")
            .bind(token_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(StoreError::from)?
            .ok_or(RotateError::NotFound(token_id))?;
        let old = info_from_row(&old)?;
        if old.revoked_at.is_some() {
            return Err(RotateError::Revoked(token_id));
        }
        let token = fresh_token();
        let new = sqlx::query(
            "INSERT INTO api_tokens (token_id, name, role, events, token_hash, created_by, \
             expires_at, rotated_from, fair_play_role) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *",
        )
        .bind(Uuid::new_v4())
        .bind(&old.name)
        .bind(old.role.as_str())
        .bind(old.events.as_deref())
        .bind(token_hash(&token))
        .bind(rotated_by)
        .bind(expires_at)
        .bind(token_id)
        .bind(old.fair_play_role.map(FairPlayRole::as_str))
        .fetch_one(&mut *tx)
        .await
        .map_err(StoreError::from)?;
        let grace_ms = i64::try_from(grace.as_millis()).unwrap_or(i64::MAX);
        let old = if grace_ms == 0 {
            sqlx::query(
                "UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) \
                 WHERE token_id = $1 RETURNING *",
            )
            .bind(token_id)
            .fetch_one(&mut *tx)
            .await
        } else {
            sqlx::query(
                "UPDATE api_tokens SET expires_at = least(coalesce(expires_at, 'infinity'), \
                 now() + make_interval(secs => $2::float8 / 1000)) \
                 WHERE token_id = $1 RETURNING *",
            )
            .bind(token_id)
            .bind(grace_ms)
            .fetch_one(&mut *tx)
            .await
        }
        .map_err(StoreError::from)?;
        let old = info_from_row(&old)?;
        tx.commit().await.map_err(StoreError::from)?;
        Ok(Rotated {
            info: info_from_row(&new)?,
            token,
            old,
        })
    }

    /// A token's description; `None` if there is no such token.
    pub async fn token(&self, token_id: Uuid) -> Result<Option<TokenInfo>, StoreError> {
        let row = sqlx::query("SELECT * FROM api_tokens WHERE token_id = $1")
            .bind(token_id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(info_from_row).transpose()
    }

    /// Every token, newest first.
    pub async fn list_tokens(&self) -> Result<Vec<TokenInfo>, StoreError> {
        let rows = sqlx::query("SELECT * FROM api_tokens ORDER BY created_at DESC, token_id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(info_from_row).collect()
    }

    /// Gives a token the `fair_play` capability as `role` (or takes it away with `None`);
    /// `None` if there is no such token.
    pub async fn set_fair_play_role(
        &self,
        token_id: Uuid,
        role: Option<FairPlayRole>,
    ) -> Result<Option<TokenInfo>, StoreError> {
        let row = sqlx::query(
            "UPDATE api_tokens SET fair_play_role = $2 WHERE token_id = $1 RETURNING *",
        )
        .bind(token_id)
        .bind(role.map(FairPlayRole::as_str))
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(info_from_row).transpose()
    }

    /// Revokes a token at once; `None` if there is no such token.
    pub async fn revoke_token(&self, token_id: Uuid) -> Result<Option<TokenInfo>, StoreError> {
        let row = sqlx::query(
            "UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE token_id = $1 \
             RETURNING *",
        )
        .bind(token_id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(info_from_row).transpose()
    }
}

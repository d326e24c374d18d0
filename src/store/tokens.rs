//! Bearer tokens: only the SHA-256 of a token is stored; the token itself is shown once.

use super::{Store, StoreError};
use crate::access::{Principal, Role};
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
}

/// The SHA-256 of a presented token.
pub fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

pub(super) fn info_from_row(row: &PgRow) -> Result<TokenInfo, StoreError> {
    let token_id: Uuid = row.try_get("token_id")?;
    let role: String = row.try_get("role")?;
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
    })
}

impl Store {
    /// Creates a token; returns its description and the token, which is not stored.
    pub async fn create_token(
        &self,
        name: &str,
        role: Role,
        events: Option<&[String]>,
        created_by: &str,
    ) -> Result<(TokenInfo, String), StoreError> {
        let mut secret = [0u8; 32];
        rand::rng().fill_bytes(&mut secret);
        let token = format!("arb_{}", URL_SAFE_NO_PAD.encode(secret));
        let row = sqlx::query(
            "INSERT INTO api_tokens (token_id, name, role, events, token_hash, created_by) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING *",
        )
        .bind(Uuid::new_v4())
        .bind(name)
        .bind(role.as_str())
        .bind(events)
        .bind(token_hash(&token))
        .bind(created_by)
        .fetch_one(&self.pool)
        .await?;
        Ok((info_from_row(&row)?, token))
    }

    /// The caller a presented token identifies, if it is known and not revoked.
    pub async fn principal_for(&self, token: &str) -> Result<Option<Principal>, StoreError> {
        let row =
            sqlx::query("SELECT * FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL")
                .bind(token_hash(token))
                .fetch_optional(&self.pool)
                .await?;
        Ok(row
            .as_ref()
            .map(info_from_row)
            .transpose()?
            .map(|info| Principal {
                token_id: info.token_id,
                name: info.name,
                role: info.role,
                events: info.events,
            }))
    }

    /// Every token, newest first.
    pub async fn list_tokens(&self) -> Result<Vec<TokenInfo>, StoreError> {
        let rows = sqlx::query("SELECT * FROM api_tokens ORDER BY created_at DESC, token_id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(info_from_row).collect()
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

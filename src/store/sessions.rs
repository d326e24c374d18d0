//! Back-office sessions: a browser signs in with a token once and then carries a session id
//! in a cookie. Only the SHA-256 of the session id is stored. A session is bound to its
//! token: the lookup joins the token, so revoking the token, or its expiry, ends every
//! session opened with it at once. Sessions end after an idle time and at an absolute time, and on sign-out
//! (rows are deleted: append-only applies to `events` only).

use super::tokens::{info_from_row, token_hash};
use super::{Store, StoreError};
use crate::access::Principal;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use rand::RngCore;
use sqlx::Row;
use std::time::Duration;
use uuid::Uuid;

/// A signed-in session as a request sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// Who signed in (the token's holder and role).
    pub principal: Principal,
    /// The synchronizer token every form of the session must carry (CSRF).
    pub csrf_token: String,
    /// What the previous request left for this page to show once (taken when asked for).
    pub flash: Option<serde_json::Value>,
    /// When the session ends at the latest.
    pub expires_at: DateTime<Utc>,
}

/// A new session: the id for the cookie (shown to nobody else, never stored) and its CSRF token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenedSession {
    /// The session id: goes into the cookie only.
    pub session_id: String,
    /// The synchronizer token of the session's forms.
    pub csrf_token: String,
}

fn random_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

impl Store {
    /// Opens a session for the holder of `token_id`, ending at the latest after `lifetime`.
    /// Expired sessions of every user are removed on the way.
    pub async fn open_session(
        &self,
        token_id: Uuid,
        lifetime: Duration,
        idle: Duration,
    ) -> Result<OpenedSession, StoreError> {
        sqlx::query(
            "DELETE FROM web_sessions WHERE expires_at <= now() \
             OR last_seen_at <= now() - make_interval(secs => $1)",
        )
        .bind(idle.as_secs_f64())
        .execute(&self.pool)
        .await?;
        let session_id = random_secret();
        let csrf_token = random_secret();
        sqlx::query(
            "INSERT INTO web_sessions (session_hash, token_id, csrf_token, expires_at) \
             VALUES ($1, $2, $3, now() + make_interval(secs => $4))",
        )
        .bind(token_hash(&session_id))
        .bind(token_id)
        .bind(&csrf_token)
        .bind(lifetime.as_secs_f64())
        .execute(&self.pool)
        .await?;
        Ok(OpenedSession {
            session_id,
            csrf_token,
        })
    }

    /// The live session with this id (its token unrevoked, not idle longer than `idle`, not
    /// past its end), marking it used now; with `take_flash`, its flash is handed over and
    /// cleared in the same statement.
    pub async fn session(
        &self,
        session_id: &str,
        idle: Duration,
        take_flash: bool,
    ) -> Result<Option<Session>, StoreError> {
        let row = sqlx::query(
            "WITH found AS ( \
               SELECT s.session_hash, s.flash FROM web_sessions s \
               JOIN api_tokens t ON t.token_id = s.token_id \
               WHERE s.session_hash = $1 AND t.revoked_at IS NULL \
                 AND (t.expires_at IS NULL OR t.expires_at > now()) AND s.expires_at > now() \
                 AND s.last_seen_at > now() - make_interval(secs => $2) \
               FOR UPDATE OF s) \
             UPDATE web_sessions s SET last_seen_at = now(), \
               flash = CASE WHEN $3 THEN NULL ELSE s.flash END \
             FROM found, api_tokens t \
             WHERE s.session_hash = found.session_hash AND t.token_id = s.token_id \
             RETURNING t.*, s.csrf_token, s.expires_at, found.flash AS old_flash",
        )
        .bind(token_hash(session_id))
        .bind(idle.as_secs_f64())
        .bind(take_flash)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let info = info_from_row(&row)?;
        Ok(Some(Session {
            principal: Principal {
                token_id: info.token_id,
                name: info.name,
                role: info.role,
                events: info.events,
                fair_play: info.fair_play_role,
            },
            csrf_token: row.try_get("csrf_token")?,
            flash: if take_flash {
                row.try_get("old_flash")?
            } else {
                None
            },
            expires_at: row.try_get("expires_at")?,
        }))
    }

    /// Leaves `flash` for the next page of the session to show once.
    pub async fn set_flash(
        &self,
        session_id: &str,
        flash: &serde_json::Value,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE web_sessions SET flash = $2 WHERE session_hash = $1")
            .bind(token_hash(session_id))
            .bind(flash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends a session (sign-out).
    pub async fn close_session(&self, session_id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM web_sessions WHERE session_hash = $1")
            .bind(token_hash(session_id))
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

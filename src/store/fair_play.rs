//! The restricted side of fair play (migration 0012): the sealed payloads of `fair_play`
//! events, their evidence files, and the log of who read them.
//!
//! A payload is stored before its public row is appended, keyed by the event's id; a payload
//! whose append never happened (a stale request) is never read, because every read joins
//! the log. The SHA-256 of a payload is taken over PostgreSQL's canonical jsonb text of it
//! ([`crate::integrity::canonical_jsonb`]), so that it is the same whether computed from what
//! was sent or from what the database gives back.

use super::{Store, StoreError, to_i64, to_u64};
use crate::game::fair_play::SealedPayload;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::Row;
use utoipa::ToSchema;
use uuid::Uuid;

/// SHA-256 of `value`'s canonical jsonb text, hex.
pub fn payload_sha256(value: &serde_json::Value) -> String {
    let mut text = String::new();
    crate::integrity::canonical_jsonb(value, &mut text);
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// A `fair_play` event of the log with its sealed payload as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredFairPlay {
    /// Its place in the game's log.
    pub seq: u64,
    /// The event's id.
    pub event_id: Uuid,
    /// When the service stored it.
    pub recorded_at: DateTime<Utc>,
    /// Who recorded it.
    pub recorded_by: String,
    /// The hash in the public row.
    pub sealed: String,
    /// The SHA-256 of the payload as it is stored now (equal to `sealed` unless the
    /// payload was altered).
    pub payload_sha256: String,
    /// The payload, decoded.
    pub payload: SealedPayload,
}

/// A `fair_play` row of the log whose payload is missing from the restricted table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsealedRow {
    /// Its place in the game's log.
    pub seq: u64,
}

/// One read of restricted fair-play events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FairPlayAccess {
    /// The event read (`seq`), when one was.
    pub seq: Option<u64>,
    /// Who read (`recorded_by` form: name, role, token).
    pub reader: String,
    /// What was read (`record`, `list`, `report`, `audit`).
    pub what: String,
    /// When.
    pub read_at: DateTime<Utc>,
}

impl Store {
    /// Stores the sealed payload of the `fair_play` event `event_id` of `game_id`, and
    /// returns its SHA-256 (hex), the `sealed` of the public row.
    pub async fn store_fair_play_payload(
        &self,
        game_id: Uuid,
        event_id: Uuid,
        payload: &SealedPayload,
    ) -> Result<String, StoreError> {
        let value = serde_json::to_value(payload).map_err(|e| StoreError::Undecodable {
            game_id,
            seq: 0,
            message: e.to_string(),
        })?;
        let sha = payload_sha256(&value);
        sqlx::query(
            "INSERT INTO fair_play_payloads (event_id, game_id, kind, payload, sha256) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(event_id)
        .bind(game_id)
        .bind(payload.record.fact.type_name())
        .bind(&value)
        .bind(hex::decode(&sha).unwrap_or_default())
        .execute(&self.pool)
        .await?;
        Ok(sha)
    }

    /// The game's `fair_play` events with their payloads, in `seq` order, and the rows whose
    /// payload is missing.
    pub async fn fair_play_events(
        &self,
        game_id: Uuid,
    ) -> Result<(Vec<StoredFairPlay>, Vec<UnsealedRow>), StoreError> {
        let rows = sqlx::query(
            "SELECT e.seq, e.event_id, e.recorded_at, e.recorded_by, e.payload AS public, \
                    p.payload AS sealed_payload \
               FROM events e LEFT JOIN fair_play_payloads p ON p.event_id = e.event_id \
              WHERE e.game_id = $1 AND e.event_type = 'fair_play' ORDER BY e.seq",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        let mut stored = Vec::with_capacity(rows.len());
        let mut unsealed = Vec::new();
        for row in rows {
            let seq = to_u64(row.try_get("seq")?);
            let undecodable = |message: String| StoreError::Undecodable {
                game_id,
                seq,
                message,
            };
            let public: crate::game::event::RecordedEvent =
                serde_json::from_value(row.try_get("public")?)
                    .map_err(|e| undecodable(e.to_string()))?;
            let crate::game::event::RecordedEvent::FairPlay { sealed, .. } = public else {
                return Err(undecodable("a fair_play row holds another event".into()));
            };
            let Some(value): Option<serde_json::Value> = row.try_get("sealed_payload")? else {
                unsealed.push(UnsealedRow { seq });
                continue;
            };
            let payload_sha256 = payload_sha256(&value);
            let payload: SealedPayload =
                serde_json::from_value(value).map_err(|e| undecodable(e.to_string()))?;
            stored.push(StoredFairPlay {
                seq,
                event_id: row.try_get("event_id")?,
                recorded_at: row.try_get("recorded_at")?,
                recorded_by: row.try_get("recorded_by")?,
                sealed,
                payload_sha256,
                payload,
            });
        }
        Ok((stored, unsealed))
    }

    /// Stores an evidence file of `game_id`; returns its SHA-256 (hex).
    pub async fn store_fair_play_evidence(
        &self,
        game_id: Uuid,
        media_type: &str,
        content: &[u8],
    ) -> Result<String, StoreError> {
        let sha = Sha256::digest(content).to_vec();
        sqlx::query(
            "INSERT INTO fair_play_evidence (evidence_id, game_id, sha256, media_type, content) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(Uuid::new_v4())
        .bind(game_id)
        .bind(&sha)
        .bind(media_type)
        .bind(content)
        .execute(&self.pool)
        .await?;
        Ok(hex::encode(sha))
    }

    /// The SHA-256 (hex) of the evidence files of `game_id` stored under `sha256`, as their
    /// content gives it now: empty when no file was stored under it; a different hash when
    /// a file was altered.
    pub async fn fair_play_evidence_hashes(
        &self,
        game_id: Uuid,
        sha256: &str,
    ) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT sha256(content) AS now FROM fair_play_evidence \
              WHERE game_id = $1 AND sha256 = $2",
        )
        .bind(game_id)
        .bind(hex::decode(sha256).unwrap_or_default())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok(hex::encode(row.try_get::<Vec<u8>, _>("now")?)))
            .collect()
    }

    /// Appends a read of restricted fair-play events to the access log.
    pub async fn log_fair_play_access(
        &self,
        game_id: Uuid,
        seqs: &[Option<u64>],
        reader: &str,
        what: &str,
    ) -> Result<(), StoreError> {
        let seqs: Vec<Option<i64>> = seqs.iter().map(|s| s.map(to_i64)).collect();
        sqlx::query(
            "INSERT INTO fair_play_access (game_id, seq, reader, what) \
             SELECT $1, s, $3, $4 FROM unnest($2::bigint[]) AS s",
        )
        .bind(game_id)
        .bind(&seqs)
        .bind(reader)
        .bind(what)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The access log of `game_id`, oldest first.
    pub async fn fair_play_access(&self, game_id: Uuid) -> Result<Vec<FairPlayAccess>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, reader, what, read_at FROM fair_play_access \
              WHERE game_id = $1 ORDER BY access_id",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(FairPlayAccess {
                    seq: row.try_get::<Option<i64>, _>("seq")?.map(to_u64),
                    reader: row.try_get("reader")?,
                    what: row.try_get("what")?,
                    read_at: row.try_get("read_at")?,
                })
            })
            .collect()
    }
}

//! The restricted side of fair play (migration 0012): the sealed payloads of `fair_play`
//! events, their evidence files, and the log of who read them.
//!
//! A payload is stored in the same transaction as its public row, keyed by the event's id
//! ([`SealedRows`]): both are stored or neither. (Up to 0.3.0 a payload was stored first, in a
//! transaction of its own; such an orphan, whose append never happened, is never read,
//! because every read joins the log.) The SHA-256 of a payload is taken over PostgreSQL's canonical jsonb text of it
//! ([`crate::integrity::canonical_jsonb`]), so that it is the same whether computed from what
//! was sent or from what the database gives back.

use super::{EventEnvelope, Store, StoreError, to_i64, to_u64};
use crate::game::fair_play::SealedPayload;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::{Postgres, Row, Transaction};
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

/// The restricted rows of one `fair_play` event: its sealed payload and, for an
/// `evidence_added`, the file. They are stored in the same transaction as the public row
/// ([`Store::append_judged_sealed`]), so that a crash leaves both or neither: never a
/// payload without its row, which a client's retry under the same `event_id` would collide
/// with.
#[derive(Clone, Debug)]
pub struct SealedRows {
    /// The `event_id` of the public row.
    pub event_id: Uuid,
    /// The `type` of the fact.
    pub kind: &'static str,
    /// The payload as stored.
    pub payload: serde_json::Value,
    /// Its SHA-256 (hex), the `sealed` of the public row.
    pub sha256: String,
    /// The evidence file, if the fact is an `evidence_added`.
    pub evidence: Option<EvidenceFile>,
}

/// An evidence file about to be stored.
#[derive(Clone, Debug)]
pub struct EvidenceFile {
    /// Its media type.
    pub media_type: String,
    /// Its bytes.
    pub content: Vec<u8>,
}

/// SHA-256 of an evidence file, hex.
pub fn evidence_sha256(content: &[u8]) -> String {
    hex::encode(Sha256::digest(content))
}

impl SealedRows {
    /// The rows of `payload`, sealed for the event `event_id`: the payload as jsonb and its
    /// SHA-256 (the `sealed` of the public row).
    pub fn seal(
        game_id: Uuid,
        event_id: Uuid,
        payload: &SealedPayload,
        evidence: Option<EvidenceFile>,
    ) -> Result<SealedRows, StoreError> {
        let value = serde_json::to_value(payload).map_err(|e| StoreError::Undecodable {
            game_id,
            seq: 0,
            message: e.to_string(),
        })?;
        Ok(SealedRows {
            event_id,
            kind: payload.record.fact.type_name(),
            sha256: payload_sha256(&value),
            payload: value,
            evidence,
        })
    }

    /// Inserts the rows in `tx`. An `event_id` that already has a payload (a retry that
    /// raced this one, or an id used in another game) is [`StoreError::FairPlayIdTaken`].
    pub(super) async fn insert_in(
        &self,
        tx: &mut Transaction<'_, Postgres>,
        game_id: Uuid,
    ) -> Result<(), StoreError> {
        if let Some(file) = &self.evidence {
            sqlx::query(
                "INSERT INTO fair_play_evidence \
                 (evidence_id, game_id, sha256, media_type, content) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(Uuid::new_v4())
            .bind(game_id)
            .bind(Sha256::digest(&file.content).to_vec())
            .bind(&file.media_type)
            .bind(&file.content)
            .execute(&mut **tx)
            .await?;
        }
        sqlx::query(
            "INSERT INTO fair_play_payloads (event_id, game_id, kind, payload, sha256) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(self.event_id)
        .bind(game_id)
        .bind(self.kind)
        .bind(&self.payload)
        .bind(hex::decode(&self.sha256).unwrap_or_default())
        .execute(&mut **tx)
        .await
        .map_err(|error| {
            if super::events::violates(&error, "fair_play_payloads_pkey") {
                StoreError::FairPlayIdTaken(self.event_id)
            } else {
                error.into()
            }
        })?;
        Ok(())
    }
}

/// What an `event_id` sent with a fair-play record is already used for.
#[derive(Clone, Debug, PartialEq)]
pub enum FairPlayIdUse {
    /// Nothing: the record is new.
    Free,
    /// A `fair_play` event of this game: the append that stored it (the event and the
    /// decisions it caused) and its payload.
    FairPlay {
        /// The append's envelopes, in `seq` order.
        batch: Vec<EventEnvelope>,
        /// The `seq` of the `fair_play` event.
        seq: u64,
        /// Its payload (`None` only if the restricted row is missing).
        payload: Option<Box<SealedPayload>>,
    },
    /// Another event of this game (at `seq`), or a fair-play payload of another game
    /// (`seq` unknown to this game: `None`).
    Other {
        /// Where it is stored in this game.
        seq: Option<u64>,
    },
}

impl Store {
    /// What `event_id` is already used for, for a fair-play record of `game_id`: the
    /// retry check of `POST /v1/games/{id}/fair-play`.
    pub async fn fair_play_id_use(
        &self,
        game_id: Uuid,
        event_id: Uuid,
    ) -> Result<FairPlayIdUse, StoreError> {
        let row = sqlx::query(
            "SELECT seq, batch_id, event_type FROM events WHERE game_id = $1 AND event_id = $2",
        )
        .bind(game_id)
        .bind(event_id)
        .fetch_optional(&self.pool)
        .await?;
        let payload_row =
            sqlx::query("SELECT game_id, payload FROM fair_play_payloads WHERE event_id = $1")
                .bind(event_id)
                .fetch_optional(&self.pool)
                .await?;
        let Some(row) = row else {
            // A payload with no public row of this game: another game's (an orphan of this
            // game cannot exist, since both are written in one transaction).
            return Ok(match payload_row {
                Some(_) => FairPlayIdUse::Other { seq: None },
                None => FairPlayIdUse::Free,
            });
        };
        let seq = to_u64(row.try_get("seq")?);
        let event_type: String = row.try_get("event_type")?;
        if event_type != "fair_play" {
            return Ok(FairPlayIdUse::Other { seq: Some(seq) });
        }
        let batch_id: Uuid = row.try_get("batch_id")?;
        let batch = sqlx::query(
            "SELECT game_id, seq, event_id, batch_id, payload, metadata, recorded_at, \
             occurred_at, recorded_by, prev_hash, hash FROM events \
             WHERE game_id = $1 AND batch_id = $2 ORDER BY seq",
        )
        .bind(game_id)
        .bind(batch_id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(super::events::envelope_from_row)
        .collect::<Result<Vec<_>, _>>()?;
        let payload = match payload_row {
            Some(p) if p.try_get::<Uuid, _>("game_id")? == game_id => {
                let value: serde_json::Value = p.try_get("payload")?;
                Some(Box::new(serde_json::from_value(value).map_err(|e| {
                    StoreError::Undecodable {
                        game_id,
                        seq,
                        message: e.to_string(),
                    }
                })?))
            }
            _ => None,
        };
        Ok(FairPlayIdUse::FairPlay {
            batch,
            seq,
            payload,
        })
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

    /// The evidence file of `game_id` stored under `sha256` (hex): its media type and bytes,
    /// if one was stored.
    pub async fn fair_play_evidence_file(
        &self,
        game_id: Uuid,
        sha256: &str,
    ) -> Result<Option<EvidenceFile>, StoreError> {
        let Ok(hash) = hex::decode(sha256) else {
            return Ok(None);
        };
        let row = sqlx::query(
            "SELECT media_type, content FROM fair_play_evidence \
              WHERE game_id = $1 AND sha256 = $2 ORDER BY stored_at LIMIT 1",
        )
        .bind(game_id)
        .bind(hash)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            Ok(EvidenceFile {
                media_type: row.try_get("media_type")?,
                content: row.try_get("content")?,
            })
        })
        .transpose()
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

//! Verification of the per-game hash chain inside the database.
//!
//! The database computes `hash = SHA-256(prev_hash || event_hash_input(row))` when a row is
//! inserted: the chain trigger, or for a group commit the group's function from the same text
//! (migration 0017). Verification recomputes the same in SQL from the stored columns and walks the
//! rows in `seq` order: the first row whose `seq` skips, whose `prev_hash` is not its
//! predecessor's `hash`, or whose content no longer gives its `hash`, is named.

use super::{Store, StoreError, to_u64};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;
use uuid::Uuid;

/// Where and why a chain is broken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChainBreak {
    /// The first `seq` that does not verify.
    pub seq: u64,
    /// What is wrong there.
    pub reason: String,
}

/// The result of verifying one game's chain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChainReport {
    /// The game.
    pub game_id: Uuid,
    /// How many events were checked.
    pub events: u64,
    /// The last `seq` and its hash (the chain head), hex.
    pub head_seq: u64,
    /// The hash of the last event, hex.
    pub head_hash: String,
    /// True when every event verifies.
    pub intact: bool,
    /// The first break, when not intact.
    pub first_break: Option<ChainBreak>,
}

pub use crate::integrity::GENESIS_HASH;

impl Store {
    /// Recomputes every hash of the game's chain and reports the first break.
    pub async fn verify_chain(&self, game_id: Uuid) -> Result<ChainReport, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, prev_hash, hash, sha256(prev_hash || convert_to(event_hash_input( \
               game_id, seq, event_id, event_type, payload, metadata, recorded_at, occurred_at, \
               recorded_by), 'UTF8')) AS recomputed \
             FROM events WHERE game_id = $1 ORDER BY seq",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        if rows.is_empty() {
            return Err(StoreError::GameNotFound(game_id));
        }
        let mut expected_prev = GENESIS_HASH.to_vec();
        let mut first_break = None;
        let mut head_seq = 0;
        for (index, row) in rows.iter().enumerate() {
            let seq = to_u64(row.try_get("seq")?);
            let prev_hash: Vec<u8> = row.try_get("prev_hash")?;
            let hash: Vec<u8> = row.try_get("hash")?;
            let recomputed: Vec<u8> = row.try_get("recomputed")?;
            let expected_seq = index as u64 + 1;
            let problem = if seq != expected_seq {
                Some(format!(
                    "seq {expected_seq} is missing: the next stored seq is {seq}"
                ))
            } else if prev_hash != expected_prev {
                Some(format!(
                    "prev_hash {} is not the hash of seq {} ({})",
                    hex::encode(&prev_hash),
                    seq.saturating_sub(1),
                    hex::encode(&expected_prev)
                ))
            } else if recomputed != hash {
                Some(format!(
                    "the stored content no longer gives the stored hash {} (it gives {}): the \
                     event was altered after it was recorded",
                    hex::encode(&hash),
                    hex::encode(&recomputed)
                ))
            } else {
                None
            };
            if let Some(reason) = problem {
                first_break = Some(ChainBreak {
                    seq: seq.min(expected_seq),
                    reason,
                });
                break;
            }
            expected_prev = hash;
            head_seq = seq;
        }
        let last = rows
            .last()
            .map(|r| r.try_get::<Vec<u8>, _>("hash"))
            .transpose()?;
        let last_seq = rows
            .last()
            .map(|r| r.try_get::<i64, _>("seq"))
            .transpose()?;
        Ok(ChainReport {
            game_id,
            events: rows.len() as u64,
            head_seq: last_seq.map(to_u64).unwrap_or(head_seq),
            head_hash: hex::encode(last.unwrap_or_default()),
            intact: first_break.is_none(),
            first_break,
        })
    }

    /// Every game id in the log, in creation order.
    pub async fn all_game_ids(&self) -> Result<Vec<Uuid>, StoreError> {
        let ids = sqlx::query_scalar("SELECT game_id FROM events WHERE seq = 1 ORDER BY position")
            .fetch_all(&self.pool)
            .await?;
        Ok(ids)
    }
}

//! Reading a game's log and the global feed: the events of one game in `seq` order, and
//! every game's events in commit order behind the fence of open transactions. Apart from
//! the append, since reads take no lock and guard nothing.

use super::{EventEnvelope, envelope_from_row, last_seq_in};
use crate::store::{Store, StoreError, to_i64};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;
use uuid::Uuid;

/// A position in the global feed: the transaction id and position of the last event read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeedCursor {
    /// The writing transaction's id (`xid8`), as decimal text.
    pub tx_id: u64,
    /// The event's global position.
    pub position: i64,
}

impl FeedCursor {
    /// The cursor before the first event.
    pub const START: FeedCursor = FeedCursor {
        tx_id: 0,
        position: 0,
    };

    /// Parses `TXID-POSITION` (the `next` value of a feed page).
    pub fn parse(text: &str) -> Option<FeedCursor> {
        let (tx, pos) = text.split_once('-')?;
        if tx.is_empty()
            || pos.is_empty()
            || !tx.bytes().chain(pos.bytes()).all(|b| b.is_ascii_digit())
        {
            return None;
        }
        Some(FeedCursor {
            tx_id: tx.parse().ok()?,
            position: pos.parse().ok()?,
        })
    }
}

impl std::fmt::Display for FeedCursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.tx_id, self.position)
    }
}

/// One event of the global feed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FeedItem {
    /// The cursor of this item: pass it as `after` to read what follows it.
    pub cursor: String,
    /// The stored event.
    #[serde(flatten)]
    pub envelope: EventEnvelope,
}

/// A page of the global feed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FeedPage {
    /// Events in commit order.
    pub items: Vec<FeedItem>,
    /// Pass as `after` to continue; equal to the request's cursor when nothing new is visible.
    pub next: String,
}

impl Store {
    /// The game's last `seq`, or `None` if there is no such game.
    pub async fn last_seq(&self, game_id: Uuid) -> Result<Option<u64>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let last = last_seq_in(&mut tx, game_id).await?;
        tx.commit().await?;
        Ok(last)
    }

    /// The game's events with `seq` in `after < seq <= until` (all of them by default), in order.
    pub async fn read_events(
        &self,
        game_id: Uuid,
        after: u64,
        until: Option<u64>,
        limit: Option<u64>,
    ) -> Result<Vec<EventEnvelope>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, seq, event_id, batch_id, payload, metadata, recorded_at, occurred_at, \
             recorded_by, prev_hash, hash FROM events \
             WHERE game_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4",
        )
        .bind(game_id)
        .bind(to_i64(after))
        .bind(to_i64(until.unwrap_or(u64::MAX)))
        .bind(limit.map(to_i64))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(envelope_from_row).collect()
    }

    /// The game's whole log, in order; [`StoreError::GameNotFound`] if there is no such game.
    pub async fn game_log(&self, game_id: Uuid) -> Result<Vec<EventEnvelope>, StoreError> {
        let events = self.read_events(game_id, 0, None, None).await?;
        if events.is_empty() {
            return Err(StoreError::GameNotFound(game_id));
        }
        Ok(events)
    }

    /// Up to `limit` events committed after `after`, in commit order. An event whose
    /// transaction is still open when the page is read is not skipped: the fence
    /// (`tx_id < xmin` of the current snapshot) holds back everything from that transaction
    /// on, until it has committed or aborted.
    pub async fn feed(&self, after: &FeedCursor, limit: u64) -> Result<FeedPage, StoreError> {
        let rows = sqlx::query(
            "SELECT tx_id::text AS tx_text, position, game_id, seq, event_id, batch_id, payload, \
             metadata, recorded_at, occurred_at, recorded_by, prev_hash, hash FROM events \
             WHERE (tx_id, position) > ($1::text::xid8, $2) \
               AND tx_id < pg_snapshot_xmin(pg_current_snapshot()) \
             ORDER BY tx_id, position LIMIT $3",
        )
        .bind(after.tx_id.to_string())
        .bind(after.position)
        .bind(to_i64(limit))
        .fetch_all(&self.pool)
        .await?;
        let mut items = Vec::with_capacity(rows.len());
        let mut next = after.clone();
        for row in &rows {
            let tx_text: String = row.try_get("tx_text")?;
            next = FeedCursor {
                tx_id: stored_tx_id(tx_text)?,
                position: row.try_get("position")?,
            };
            items.push(FeedItem {
                cursor: next.to_string(),
                envelope: envelope_from_row(row)?,
            });
        }
        Ok(FeedPage {
            items,
            next: next.to_string(),
        })
    }
}

/// A transaction id (`xid8`) read as text; anything else is an error, never a default.
pub(in crate::store) fn stored_tx_id(text: String) -> Result<u64, StoreError> {
    text.parse().map_err(|_| StoreError::UnknownStoredValue {
        what: "transaction id",
        value: text,
    })
}

//! Reading a round (all games of one event and round) for its live stream and its broadcast
//! PGN: the round's games with their chain heads, and the round's part of the global feed.

use super::events::envelope_from_row;
use super::{FeedCursor, FeedItem, Store, StoreError, to_i64, to_u64};
use chrono::{DateTime, Utc};
use sqlx::Row;
use uuid::Uuid;

/// One game of a round and how far its log goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundGameHead {
    /// The game.
    pub game_id: Uuid,
    /// Its board number.
    pub board: Option<u32>,
    /// The last `seq` in view: the last stored, or the last stored before the cut-off asked
    /// for (`None` when nothing of the game is that old).
    pub seq: Option<u64>,
}

/// A page of a round's events in commit order.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundFeedPage {
    /// Events of the round's games, in commit order, behind the fence.
    pub items: Vec<FeedItem>,
    /// The cursor of the last item (the request's cursor when there is none).
    pub next: FeedCursor,
    /// Whether committed events of the round wait behind the fence (an older transaction is
    /// still open): read again shortly, since no notification may come when that transaction
    /// aborts.
    pub held_back: bool,
}

impl Store {
    /// The games of a round, by board (games without a board last), with the last `seq` of
    /// each: the last stored, or with `before`, the last stored at or before that time.
    pub async fn round_heads(
        &self,
        event: &str,
        round: &str,
        before: Option<DateTime<Utc>>,
    ) -> Result<Vec<RoundGameHead>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.game_id, g.board, \
               (SELECT e.seq FROM events e WHERE e.game_id = g.game_id \
                  AND ($3::timestamptz IS NULL OR e.recorded_at <= $3) \
                ORDER BY e.seq DESC LIMIT 1) AS head \
             FROM games g WHERE g.event_name = $1 AND g.round = $2 \
             ORDER BY g.board NULLS LAST, g.created_at, g.game_id",
        )
        .bind(event)
        .bind(round)
        .bind(before)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let board: Option<i32> = row.try_get("board")?;
                let head: Option<i64> = row.try_get("head")?;
                Ok(RoundGameHead {
                    game_id: row.try_get("game_id")?,
                    board: board.and_then(|b| u32::try_from(b).ok()),
                    seq: head.map(to_u64),
                })
            })
            .collect()
    }

    /// Up to `limit` events of the round's games committed after `after`, in commit order.
    /// Like [`Store::feed`], it stops before the oldest transaction still open, so that no
    /// event that commits late is skipped; `held_back` says whether committed events of the
    /// round wait behind that fence (decided on the same snapshot as the page).
    pub async fn round_feed(
        &self,
        event: &str,
        round: &str,
        after: &FeedCursor,
        limit: u64,
    ) -> Result<RoundFeedPage, StoreError> {
        let rows = sqlx::query(
            "SELECT e.tx_id::text AS tx_text, e.position, e.game_id, e.seq, e.event_id, \
               e.batch_id, e.payload, e.metadata, e.recorded_at, e.occurred_at, e.recorded_by, \
               e.prev_hash, e.hash, \
               e.tx_id < pg_snapshot_xmin(pg_current_snapshot()) AS settled \
             FROM events e JOIN games g ON g.game_id = e.game_id \
             WHERE g.event_name = $1 AND g.round = $2 \
               AND (e.tx_id, e.position) > ($3::text::xid8, $4) \
             ORDER BY e.tx_id, e.position LIMIT $5",
        )
        .bind(event)
        .bind(round)
        .bind(after.tx_id.to_string())
        .bind(after.position)
        .bind(to_i64(limit))
        .fetch_all(&self.pool)
        .await?;
        let mut items = Vec::with_capacity(rows.len());
        let mut next = after.clone();
        let mut held_back = false;
        for row in &rows {
            // Rows are in transaction-id order, so the settled ones come first.
            if !row.try_get::<bool, _>("settled")? {
                held_back = true;
                break;
            }
            let tx_text: String = row.try_get("tx_text")?;
            next = FeedCursor {
                tx_id: super::events::stored_tx_id(tx_text)?,
                position: row.try_get("position")?,
            };
            items.push(FeedItem {
                cursor: next.to_string(),
                envelope: envelope_from_row(row)?,
            });
        }
        Ok(RoundFeedPage {
            items,
            next,
            held_back,
        })
    }

    /// Whether a round has any game.
    pub async fn round_exists(&self, event: &str, round: &str) -> Result<bool, StoreError> {
        let found: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM games WHERE event_name = $1 AND round = $2 LIMIT 1")
                .bind(event)
                .bind(round)
                .fetch_optional(&self.pool)
                .await?;
        Ok(found.is_some())
    }
}

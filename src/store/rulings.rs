//! Decisions across games, for appeals committees and the chief arbiter's report.

use super::events::envelope_from_row;
use super::{EventEnvelope, Store, StoreError, to_i64};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

/// The event types that are decisions: the engine's and the people's.
pub const DECISION_TYPES: &[&str] = &[
    "claim_ruled",
    "penalty_applied",
    "game_ended",
    "arbiter_decision",
    "appeal_decided",
];

/// Filters of the rulings list.
#[derive(Clone, Debug, Default)]
pub struct RulingFilter {
    /// The tournament.
    pub event: Option<String>,
    /// The round.
    pub round: Option<String>,
    /// The decision type (one of [`DECISION_TYPES`]).
    pub kind: Option<String>,
    /// The article, as cited (e.g. `9.2.2`).
    pub article: Option<String>,
    /// The outcome: `upheld`/`rejected` for claims, a result (`1-0`, `1/2-1/2`) for ends.
    pub outcome: Option<String>,
    /// Continue after this global position.
    pub after: i64,
    /// At most this many.
    pub limit: u64,
}

/// A decision with the game it belongs to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RulingItem {
    /// The tournament.
    pub event: String,
    /// The round.
    pub round: String,
    /// The board.
    pub board: Option<u32>,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The stored decision.
    pub decision: EventEnvelope,
}

/// A page of rulings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RulingPage {
    /// Decisions in the order they were stored.
    pub items: Vec<RulingItem>,
    /// Pass as `after` for the next page; absent on the last page.
    pub next: Option<String>,
}

impl Store {
    /// Decisions across games, filtered, in the order they were stored.
    pub async fn rulings(&self, filter: &RulingFilter) -> Result<RulingPage, StoreError> {
        let kinds: Vec<String> = match &filter.kind {
            Some(kind) => vec![kind.clone()],
            None => DECISION_TYPES.iter().map(|k| k.to_string()).collect(),
        };
        let rows = sqlx::query(
            "SELECT e.position, e.game_id, e.seq, e.event_id, e.batch_id, e.payload, e.metadata, \
               e.recorded_at, e.occurred_at, e.recorded_by, e.prev_hash, e.hash, \
               g.event_name, g.round, g.board, g.white, g.black \
             FROM events e JOIN games g ON g.game_id = e.game_id \
             WHERE e.event_type = ANY($1) \
               AND ($2::text IS NULL OR g.event_name = $2) \
               AND ($3::text IS NULL OR g.round = $3) \
               AND ($4::text IS NULL OR e.payload ->> 'article' = $4) \
               AND ($5::text IS NULL OR e.payload ->> 'outcome' = $5 OR e.payload ->> 'result' = $5) \
               AND e.position > $6 \
             ORDER BY e.position LIMIT $7",
        )
        .bind(&kinds)
        .bind(filter.event.as_deref())
        .bind(filter.round.as_deref())
        .bind(filter.article.as_deref())
        .bind(filter.outcome.as_deref())
        .bind(filter.after)
        .bind(to_i64(filter.limit.saturating_add(1)))
        .fetch_all(&self.pool)
        .await?;
        let mut items = Vec::with_capacity(rows.len());
        let mut positions = Vec::with_capacity(rows.len());
        for row in &rows {
            let board: Option<i32> = row.try_get("board")?;
            positions.push(row.try_get::<i64, _>("position")?);
            items.push(RulingItem {
                event: row.try_get("event_name")?,
                round: row.try_get("round")?,
                board: board.and_then(|b| u32::try_from(b).ok()),
                white: row.try_get("white")?,
                black: row.try_get("black")?,
                decision: envelope_from_row(row)?,
            });
        }
        let next = if items.len() as u64 > filter.limit {
            items.truncate(filter.limit as usize);
            positions
                .get(items.len().saturating_sub(1))
                .map(|p| p.to_string())
        } else {
            None
        };
        Ok(RulingPage { items, next })
    }
}

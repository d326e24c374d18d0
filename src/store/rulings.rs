//! Decisions across games, for appeals committees and the chief arbiter's report.
//!
//! Which event types are decisions, and which stored events a correction retracted, are
//! the game core's to say (`crate::game::event::DECISION_TYPES`,
//! `crate::game::retracted_by`); this module only reads the rows they need.

use std::collections::HashMap;

use super::events::envelope_from_row;
use super::{EventEnvelope, Store, StoreError, to_i64, to_u64};
use crate::game::event::{DECISION_TYPES, Event};
use crate::game::retracted_by;
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;
use uuid::Uuid;

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
    /// Only decisions still standing (not retracted by a correction).
    pub standing_only: bool,
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
    /// The `seq` of the correction that retracted this decision (a data-entry error undone):
    /// it no longer stands. Absent when the decision stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retracted_by: Option<u64>,
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
    /// Decisions across games, filtered, in the order they were stored, each marked when a
    /// correction retracted it (and left out when `standing_only`).
    pub async fn rulings(&self, filter: &RulingFilter) -> Result<RulingPage, StoreError> {
        let kinds: Vec<String> = match &filter.kind {
            Some(kind) => vec![kind.clone()],
            None => DECISION_TYPES.iter().map(|k| k.to_string()).collect(),
        };
        let mut items = Vec::new();
        let mut after = filter.after;
        let batch = filter.limit.saturating_add(1);
        loop {
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
            .bind(after)
            .bind(to_i64(batch))
            .fetch_all(&self.pool)
            .await?;
            let exhausted = (rows.len() as u64) < batch;
            let games: Vec<Uuid> = rows
                .iter()
                .map(|row| row.try_get::<Uuid, _>("game_id"))
                .collect::<Result<_, _>>()?;
            let corrections = self.corrections_of(&games).await?;
            for row in &rows {
                let position: i64 = row.try_get("position")?;
                after = position;
                let decision = envelope_from_row(row)?;
                let is_service = matches!(decision.event, Event::Service(_));
                let retracted = corrections
                    .get(&decision.game_id)
                    .and_then(|list| retracted_by(list, decision.seq, is_service));
                if filter.standing_only && retracted.is_some() {
                    continue;
                }
                let board: Option<i32> = row.try_get("board")?;
                items.push((
                    position,
                    RulingItem {
                        event: row.try_get("event_name")?,
                        round: row.try_get("round")?,
                        board: board.and_then(|b| u32::try_from(b).ok()),
                        white: row.try_get("white")?,
                        black: row.try_get("black")?,
                        retracted_by: retracted,
                        decision,
                    },
                ));
                if items.len() as u64 > filter.limit {
                    break;
                }
            }
            if items.len() as u64 > filter.limit || exhausted {
                break;
            }
        }
        let next = if items.len() as u64 > filter.limit {
            items.truncate(filter.limit as usize);
            items.last().map(|(position, _)| position.to_string())
        } else {
            None
        };
        Ok(RulingPage {
            items: items.into_iter().map(|(_, item)| item).collect(),
            next,
        })
    }

    /// The corrections of `games`: for each game, `(correction seq, retracted seq)`.
    async fn corrections_of(
        &self,
        games: &[Uuid],
    ) -> Result<HashMap<Uuid, Vec<(u64, u64)>>, StoreError> {
        let mut found: HashMap<Uuid, Vec<(u64, u64)>> = HashMap::new();
        if games.is_empty() {
            return Ok(found);
        }
        let rows = sqlx::query(
            "SELECT game_id, seq, (payload ->> 'retracts_seq')::bigint AS retracts \
             FROM events WHERE game_id = ANY($1) AND event_type = 'correction' ORDER BY seq",
        )
        .bind(games)
        .fetch_all(&self.pool)
        .await?;
        for row in rows {
            let game: Uuid = row.try_get("game_id")?;
            let seq = to_u64(row.try_get("seq")?);
            let retracts = to_u64(row.try_get("retracts")?);
            found.entry(game).or_default().push((seq, retracts));
        }
        Ok(found)
    }
}

impl Store {
    /// The events of the given types in the games of an event (and round), in the order they
    /// were stored, with their game and whether a correction retracted them: what the
    /// incident report and the appeals list read.
    pub async fn event_log_of_types(
        &self,
        event: &str,
        round: Option<&str>,
        types: &[&str],
    ) -> Result<Vec<RulingItem>, StoreError> {
        let types: Vec<String> = types.iter().map(|t| t.to_string()).collect();
        let rows = sqlx::query(
            "SELECT e.position, e.game_id, e.seq, e.event_id, e.batch_id, e.payload, e.metadata, \
               e.recorded_at, e.occurred_at, e.recorded_by, e.prev_hash, e.hash, \
               g.event_name, g.round, g.board, g.white, g.black \
             FROM games g JOIN events e ON e.game_id = g.game_id \
             WHERE g.event_name = $1 AND ($2::text IS NULL OR g.round = $2) \
               AND e.event_type = ANY($3) \
             ORDER BY e.position LIMIT 10000",
        )
        .bind(event)
        .bind(round)
        .bind(&types)
        .fetch_all(&self.pool)
        .await?;
        let games: Vec<Uuid> = rows
            .iter()
            .map(|row| row.try_get::<Uuid, _>("game_id"))
            .collect::<Result<_, _>>()?;
        let corrections = self.corrections_of(&games).await?;
        rows.iter()
            .map(|row| {
                let board: Option<i32> = row.try_get("board")?;
                let decision = envelope_from_row(row)?;
                let is_service = matches!(decision.event, Event::Service(_));
                Ok(RulingItem {
                    event: row.try_get("event_name")?,
                    round: row.try_get("round")?,
                    board: board.and_then(|b| u32::try_from(b).ok()),
                    white: row.try_get("white")?,
                    black: row.try_get("black")?,
                    retracted_by: corrections
                        .get(&decision.game_id)
                        .and_then(|list| retracted_by(list, decision.seq, is_service)),
                    decision,
                })
            })
            .collect()
    }
}

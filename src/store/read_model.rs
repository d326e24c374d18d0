//! Rebuilding the `games` read model from the log (`arbiter rebuild`).
//!
//! Every column of a summary row is a projection of the game's events: the settings of
//! `game_created`, how far the log goes, and how the engine, folding the log, says the game
//! stands. Appends keep the rows up to date one statement at a time; a rebuild recomputes
//! them all from the log, for a read model damaged by hand or written by a faulty version.
//!
//! A rebuild is one transaction. It first takes a lock on `games` that appends and game
//! creations wait for (their writes to `games` conflict with it), so that the log it reads in
//! one statement is the whole log; readers keep reading the old rows until it commits.

use super::{Store, StoreError, to_i64, to_u64};
use crate::game::event::{ClockReading, Event, GameResult, GameSettings, Termination};
use chrono::{DateTime, Utc};
use futures_util::stream::{BoxStream, StreamExt};
use sqlx::types::Json;
use sqlx::{Postgres, Row, Transaction};
use uuid::Uuid;

/// One event of the log as a rebuild folds it.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedEvent {
    /// The game.
    pub game_id: Uuid,
    /// Its place in the game's log.
    pub seq: u64,
    /// The event.
    pub event: Event,
    /// The clock reading stored with it.
    pub clock: Option<ClockReading>,
    /// When it was stored.
    pub recorded_at: DateTime<Utc>,
}

/// A summary row as rebuilt from a game's log.
#[derive(Clone, Debug, PartialEq)]
pub struct RebuiltSummary {
    /// The game.
    pub game_id: Uuid,
    /// When `game_created` was stored.
    pub created_at: DateTime<Utc>,
    /// The settings of `game_created`.
    pub settings: GameSettings,
    /// The result, as the engine folds the log.
    pub result: Option<GameResult>,
    /// How the game ended, as the engine folds the log.
    pub termination: Option<Termination>,
    /// The last `seq` of the log.
    pub last_seq: u64,
    /// When the last event was stored.
    pub updated_at: DateTime<Utc>,
}

/// What a rebuild wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadModelWritten {
    /// Summary rows inserted or changed (rows already equal to the log are left alone).
    pub changed: u64,
    /// Summary rows of games without any event, deleted.
    pub deleted: u64,
}

/// A rebuild in progress: the transaction holding the lock on `games`.
pub struct ReadModelRebuild {
    tx: Transaction<'static, Postgres>,
}

impl Store {
    /// Begins a rebuild of the `games` read model: appends and game creations wait until it
    /// commits or is dropped.
    pub async fn begin_read_model_rebuild(&self) -> Result<ReadModelRebuild, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("LOCK TABLE games IN SHARE ROW EXCLUSIVE MODE")
            .execute(&mut *tx)
            .await?;
        Ok(ReadModelRebuild { tx })
    }
}

/// The summary rows, written in pieces of this many.
const WRITE_CHUNK: usize = 5_000;

impl ReadModelRebuild {
    /// The whole log, game by game, each game's events in `seq` order.
    pub fn log(&mut self) -> BoxStream<'_, Result<LoggedEvent, StoreError>> {
        sqlx::query(
            "SELECT game_id, seq, payload, NULLIF(metadata -> 'clock', 'null'::jsonb) AS clock, \
             recorded_at FROM events ORDER BY game_id, seq",
        )
        .fetch(&mut *self.tx)
        .map(|row| {
            let row = row?;
            let game_id: Uuid = row.try_get("game_id")?;
            let seq = to_u64(row.try_get("seq")?);
            let undecodable = |error: sqlx::Error| StoreError::Undecodable {
                game_id,
                seq,
                message: error.to_string(),
            };
            let Json(event): Json<Event> = row.try_get("payload").map_err(undecodable)?;
            let clock: Option<Json<ClockReading>> = row.try_get("clock").map_err(undecodable)?;
            Ok(LoggedEvent {
                game_id,
                seq,
                event,
                clock: clock.map(|Json(clock)| clock),
                recorded_at: row.try_get("recorded_at")?,
            })
        })
        .boxed()
    }

    /// Writes the rebuilt rows, deletes the rows of games that have no event, and commits.
    pub async fn finish(
        mut self,
        summaries: &[RebuiltSummary],
    ) -> Result<ReadModelWritten, StoreError> {
        let mut written = ReadModelWritten::default();
        for chunk in summaries.chunks(WRITE_CHUNK) {
            written.changed += write_summaries(&mut self.tx, chunk).await?;
        }
        written.deleted = sqlx::query(
            "DELETE FROM games WHERE NOT EXISTS \
             (SELECT 1 FROM events e WHERE e.game_id = games.game_id)",
        )
        .execute(&mut *self.tx)
        .await?
        .rows_affected();
        self.tx.commit().await?;
        Ok(written)
    }
}

/// Inserts or updates `summaries` in one statement; rows already equal are not touched.
/// Returns how many rows were inserted or changed.
async fn write_summaries(
    tx: &mut Transaction<'static, Postgres>,
    summaries: &[RebuiltSummary],
) -> Result<u64, StoreError> {
    let mut ids = Vec::with_capacity(summaries.len());
    let mut created = Vec::with_capacity(summaries.len());
    let mut event_names = Vec::with_capacity(summaries.len());
    let mut rounds = Vec::with_capacity(summaries.len());
    let mut boards = Vec::with_capacity(summaries.len());
    let mut whites = Vec::with_capacity(summaries.len());
    let mut blacks = Vec::with_capacity(summaries.len());
    let mut settings = Vec::with_capacity(summaries.len());
    let mut statuses = Vec::with_capacity(summaries.len());
    let mut results = Vec::with_capacity(summaries.len());
    let mut terminations = Vec::with_capacity(summaries.len());
    let mut last_seqs = Vec::with_capacity(summaries.len());
    let mut updated = Vec::with_capacity(summaries.len());
    for summary in summaries {
        ids.push(summary.game_id);
        created.push(summary.created_at);
        event_names.push(summary.settings.event.as_str());
        rounds.push(summary.settings.round.as_str());
        boards.push(summary.settings.board.and_then(|b| i32::try_from(b).ok()));
        whites.push(summary.settings.white.name.as_str());
        blacks.push(summary.settings.black.name.as_str());
        settings.push(serde_json::json!(summary.settings));
        statuses.push(if summary.result.is_some() {
            "ended"
        } else {
            "in_progress"
        });
        results.push(summary.result.map(GameResult::pgn));
        terminations.push(summary.termination.map(Termination::name));
        last_seqs.push(to_i64(summary.last_seq));
        updated.push(summary.updated_at);
    }
    let written = sqlx::query(
        "INSERT INTO games AS g (game_id, created_at, event_name, round, board, white, black, \
                                settings, status, result, termination, last_seq, updated_at) \
         SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], \
                              $5::int4[], $6::text[], $7::text[], $8::jsonb[], $9::text[], \
                              $10::text[], $11::text[], $12::int8[], $13::timestamptz[]) \
         ON CONFLICT (game_id) DO UPDATE SET \
             created_at = EXCLUDED.created_at, event_name = EXCLUDED.event_name, \
             round = EXCLUDED.round, board = EXCLUDED.board, white = EXCLUDED.white, \
             black = EXCLUDED.black, settings = EXCLUDED.settings, status = EXCLUDED.status, \
             result = EXCLUDED.result, termination = EXCLUDED.termination, \
             last_seq = EXCLUDED.last_seq, updated_at = EXCLUDED.updated_at \
         WHERE (g.created_at, g.event_name, g.round, g.board, g.white, g.black, g.settings, \
                g.status, g.result, g.termination, g.last_seq, g.updated_at) \
               IS DISTINCT FROM \
               (EXCLUDED.created_at, EXCLUDED.event_name, EXCLUDED.round, EXCLUDED.board, \
                EXCLUDED.white, EXCLUDED.black, EXCLUDED.settings, EXCLUDED.status, \
                EXCLUDED.result, EXCLUDED.termination, EXCLUDED.last_seq, EXCLUDED.updated_at)",
    )
    .bind(&ids)
    .bind(&created)
    .bind(&event_names)
    .bind(&rounds)
    .bind(&boards)
    .bind(&whites)
    .bind(&blacks)
    .bind(&settings)
    .bind(&statuses)
    .bind(&results)
    .bind(&terminations)
    .bind(&last_seqs)
    .bind(&updated)
    .execute(&mut **tx)
    .await?;
    Ok(written.rows_affected())
}

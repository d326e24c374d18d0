//! Appending to and reading a game's log, and the global feed.
//!
//! An append is one statement ([`statement::APPEND_STATEMENT`]): the expected-`seq` check on the summary
//! row, the inserts and the summary's update; the log is read only when it stores nothing.
//! The database itself guarantees what matters even against a buggy or hostile writer: the
//! primary key `(game_id, seq)` refuses a second event at a place, the chain trigger refuses a
//! gap and computes the hash, and the refusal triggers keep rows from ever changing.
//!
//! Here: what an append is and does (its control flow, retries and conflicts). The
//! statement and its columns are in `statement.rs`, the reads of a log and of the feed in
//! `reads.rs`.

use super::{Store, StoreError, to_i64, to_u64};
use crate::game::event::{ClockReading, Event, GameResult, Termination};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::postgres::PgRow;
use sqlx::{Postgres, Row, Transaction};
use std::collections::HashSet;
use utoipa::ToSchema;
use uuid::Uuid;

mod reads;
mod statement;

pub(super) use reads::stored_tx_id;
pub use reads::{FeedCursor, FeedItem, FeedPage};
pub(super) use statement::{AppendColumns, JsonText};

/// An event about to be appended.
#[derive(Clone, Debug, PartialEq)]
pub struct NewEvent {
    /// The client's id for the event (the idempotency key); generated when the client sent none.
    pub event_id: Uuid,
    /// The event itself.
    pub event: Event,
    /// When it happened at the board, if the recorder knows.
    pub occurred_at: Option<DateTime<Utc>>,
    /// The clock as read when it happened.
    pub clock: Option<ClockReading>,
}

impl NewEvent {
    /// An event with a fresh id and no time or clock reading (decision events).
    pub fn generated(event: Event) -> Self {
        NewEvent {
            event_id: Uuid::new_v4(),
            event,
            occurred_at: None,
            clock: None,
        }
    }
}

/// A stored event with everything the log keeps about it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EventEnvelope {
    /// The game.
    pub game_id: Uuid,
    /// The event's place in the game's log: 1, 2, 3, ... with no gap.
    pub seq: u64,
    /// The event's id (the idempotency key of its append).
    pub event_id: Uuid,
    /// The append that stored it: a recorded event and the decisions it caused share one.
    pub batch_id: Uuid,
    /// When the service stored it (database time, UTC, microseconds).
    pub recorded_at: DateTime<Utc>,
    /// Who recorded it.
    pub recorded_by: String,
    /// When it happened at the board, if the recorder said.
    pub occurred_at: Option<DateTime<Utc>>,
    /// The clock as read when it happened, if the recorder said.
    pub clock: Option<ClockReading>,
    /// The hash of the previous event (64 zero digits for `seq` 1), hex.
    pub prev_hash: String,
    /// SHA-256 of `prev_hash` and this event's canonical form, hex.
    pub hash: String,
    /// The event.
    pub event: Event,
}

/// What an append did.
#[derive(Clone, Debug, PartialEq)]
pub struct Appended {
    /// The stored envelopes, in `seq` order.
    pub envelopes: Vec<EventEnvelope>,
    /// False when this was a retry answered with what an earlier identical append stored.
    pub newly_stored: bool,
}

/// Decodes one `events` row.
pub(super) fn envelope_from_row(row: &PgRow) -> Result<EventEnvelope, StoreError> {
    let game_id: Uuid = row.try_get("game_id")?;
    let seq = to_u64(row.try_get("seq")?);
    let undecodable = |message: String| StoreError::Undecodable {
        game_id,
        seq,
        message,
    };
    let payload: serde_json::Value = row.try_get("payload")?;
    let event: Event = serde_json::from_value(payload).map_err(|e| undecodable(e.to_string()))?;
    let metadata: serde_json::Value = row.try_get("metadata")?;
    let clock = match metadata.get("clock") {
        None | Some(serde_json::Value::Null) => None,
        Some(value) => Some(
            serde_json::from_value::<ClockReading>(value.clone())
                .map_err(|e| undecodable(e.to_string()))?,
        ),
    };
    let prev_hash: Vec<u8> = row.try_get("prev_hash")?;
    let hash: Vec<u8> = row.try_get("hash")?;
    Ok(EventEnvelope {
        game_id,
        seq,
        event_id: row.try_get("event_id")?,
        batch_id: row.try_get("batch_id")?,
        recorded_at: row.try_get("recorded_at")?,
        recorded_by: row.try_get("recorded_by")?,
        occurred_at: row.try_get("occurred_at")?,
        clock,
        prev_hash: hex::encode(prev_hash),
        hash: hex::encode(hash),
        event,
    })
}

/// The metadata object stored with an event.
fn metadata_of(event: &NewEvent) -> serde_json::Value {
    let mut metadata = serde_json::Map::new();
    if let Some(clock) = &event.clock {
        metadata.insert("clock".into(), serde_json::json!(clock));
    }
    serde_json::Value::Object(metadata)
}

/// The game's last stored `seq`, or `None` if the game does not exist.
pub(super) async fn last_seq_in(
    tx: &mut Transaction<'_, Postgres>,
    game_id: Uuid,
) -> Result<Option<u64>, StoreError> {
    let last: Option<i64> = sqlx::query_scalar("SELECT max(seq) FROM events WHERE game_id = $1")
        .bind(game_id)
        .fetch_one(&mut **tx)
        .await?;
    Ok(last.map(to_u64))
}

/// Inserts `events` at `first_seq`, `first_seq + 1`, ... under one batch id. The caller has
/// checked that `first_seq - 1` is the game's last `seq`; the database re-checks it.
pub(super) async fn insert_batch(
    tx: &mut Transaction<'_, Postgres>,
    game_id: Uuid,
    first_seq: u64,
    events: &[NewEvent],
    recorded_by: &str,
) -> Result<Vec<EventEnvelope>, StoreError> {
    let batch_id = Uuid::new_v4();
    let mut stored = Vec::with_capacity(events.len());
    for (offset, new) in events.iter().enumerate() {
        let seq = first_seq + offset as u64;
        let payload = serde_json::to_value(&new.event).map_err(|e| StoreError::Undecodable {
            game_id,
            seq,
            message: e.to_string(),
        })?;
        let row = sqlx::query(
            "INSERT INTO events (game_id, seq, event_id, batch_id, event_type, payload, metadata, \
             occurred_at, recorded_by, prev_hash, hash) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, ''::bytea, ''::bytea) \
             RETURNING game_id, seq, event_id, batch_id, payload, metadata, recorded_at, \
             occurred_at, recorded_by, prev_hash, hash",
        )
        .bind(game_id)
        .bind(to_i64(seq))
        .bind(new.event_id)
        .bind(batch_id)
        .bind(new.event.type_name())
        .bind(&payload)
        .bind(metadata_of(new))
        .bind(new.occurred_at)
        .bind(recorded_by)
        .fetch_one(&mut **tx)
        .await?;
        stored.push(envelope_from_row(&row)?);
    }
    Ok(stored)
}

/// How a game stands after an append, as the engine folded it: the summary row follows it
/// (an appeal or a correction can change or undo a result).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// The result, if the game has ended.
    pub result: Option<GameResult>,
    /// How it ended.
    pub termination: Option<Termination>,
}

/// Whether a database error is the violation of the named constraint.
pub(super) fn violates(error: &sqlx::Error, constraint: &str) -> bool {
    matches!(error, sqlx::Error::Database(db) if db.constraint() == Some(constraint))
}

/// Whether the statement stored every event (it stores all or nothing).
fn stored_all(rows: &[PgRow], events: &[NewEvent]) -> bool {
    !events.is_empty() && rows.len() == events.len()
}

/// The envelopes of `events` as [`statement::APPEND_STATEMENT`] stored them: what the writer sent, and
/// what the database set (`seq`, time, chain).
fn envelopes_stored(
    game_id: Uuid,
    events: &[NewEvent],
    recorded_by: &str,
    rows: &[PgRow],
    batch_id: Uuid,
) -> Result<Vec<EventEnvelope>, StoreError> {
    events
        .iter()
        .zip(rows)
        .map(|(new, row)| {
            let prev_hash: Vec<u8> = row.try_get("prev_hash")?;
            let hash: Vec<u8> = row.try_get("hash")?;
            Ok(EventEnvelope {
                game_id,
                seq: to_u64(row.try_get("seq")?),
                event_id: new.event_id,
                batch_id,
                recorded_at: row.try_get("recorded_at")?,
                recorded_by: recorded_by.to_string(),
                occurred_at: new.occurred_at,
                clock: new.clock.clone(),
                prev_hash: hex::encode(prev_hash),
                hash: hex::encode(hash),
                event: new.event.clone(),
            })
        })
        .collect()
}

/// Whether an append collided with what another writer stored: a `seq` taken, a gap in the
/// chain, or an `event_id` stored already.
fn collided(error: &sqlx::Error) -> bool {
    violates(error, "events_game_seq_key")
        || violates(error, "events_seq_contiguous")
        || violates(error, "events_game_event_id_key")
}

/// Makes the commit of `tx` wait for the synchronous standby like the commit of an append, so
/// that a write this transaction only *found* (a retry answered from the log) is acknowledged
/// no sooner than a new one would be.
///
/// PostgreSQL waits for the standby at commit only when the transaction wrote WAL (xact.c,
/// `RecordTransactionCommit`): a transaction id alone is not enough (a transaction that took
/// one with `pg_current_xact_id()` and wrote nothing commits at once even when no standby
/// answers, which lost an acknowledged append in the failover test). A transactional logical
/// message is a WAL record that touches no table: the commit after it waits until the standby
/// has flushed the WAL up to it, and so everything stored before it. With no synchronous
/// standby configured it costs one small WAL record.
pub(crate) async fn wait_for_standby_in(
    tx: &mut Transaction<'_, Postgres>,
    game_id: Uuid,
) -> Result<(), StoreError> {
    sqlx::query("SELECT pg_logical_emit_message(true, 'arbiter.retry', $1::text)")
        .bind(game_id.to_string())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Why an append stored nothing, read in `tx`: a retry, a stale request, a reused id, no
/// such game, or (loudly) a summary row out of step with the log.
async fn settle_conflict_in(
    tx: &mut Transaction<'_, Postgres>,
    game_id: Uuid,
    expected_seq: u64,
    events: &[NewEvent],
) -> Result<Appended, StoreError> {
    let current = last_seq_in(tx, game_id)
        .await?
        .ok_or(StoreError::GameNotFound(game_id))?;
    if let Some(envelopes) = find_retry(tx, game_id, expected_seq, events).await? {
        // The stored append may have been committed here but never confirmed by the
        // synchronous standby (the primary crashed while waiting, and came back with it from
        // its own WAL): a failover would lose it. The retry is acknowledged only once the
        // append is on the standby too (docs/operations.md, high availability).
        wait_for_standby_in(tx, game_id).await?;
        return Ok(Appended {
            envelopes,
            newly_stored: false,
        });
    }
    if current != expected_seq {
        return Err(StoreError::StaleSeq {
            expected: expected_seq,
            current,
        });
    }
    if events.is_empty() {
        return Ok(Appended {
            envelopes: Vec::new(),
            newly_stored: true,
        });
    }
    Err(StoreError::SummaryOutOfStep { game_id })
}

impl Store {
    /// Appends `events` to the game's log after `expected_seq`: one statement, one round trip
    /// (`APPEND_STATEMENT`).
    ///
    /// * If every `event_id` is already stored as one earlier append that began right after
    ///   `expected_seq`, this is a retry: the stored envelopes of that append are returned and
    ///   nothing is stored.
    /// * If the game's last `seq` is not `expected_seq`, [`StoreError::StaleSeq`] carries the
    ///   current one.
    pub async fn append(
        &self,
        game_id: Uuid,
        expected_seq: u64,
        events: &[NewEvent],
        recorded_by: &str,
    ) -> Result<Appended, StoreError> {
        self.append_judged(game_id, expected_seq, events, recorded_by, None)
            .await
    }

    /// [`Store::append`] of events judged by the engine, with the game's outcome after them
    /// for the summary row.
    ///
    /// The common case is one statement in its own transaction. Only when the statement
    /// stores nothing (the game's `last_seq` is not `expected_seq`) or collides (another
    /// writer stored at this place, or an `event_id` is stored already) does it read the log
    /// to tell a retry (answered with what is stored) from a stale request or a reused id.
    pub async fn append_judged(
        &self,
        game_id: Uuid,
        expected_seq: u64,
        events: &[NewEvent],
        recorded_by: &str,
        game_outcome: Option<&GameOutcome>,
    ) -> Result<Appended, StoreError> {
        check_unique_ids(events)?;
        let columns = AppendColumns::of(game_id, expected_seq, events)?;
        let rows = columns
            .statement(game_id, expected_seq, recorded_by, game_outcome)
            .fetch_all(&self.pool)
            .await;
        match rows {
            Ok(rows) if stored_all(&rows, events) => Ok(Appended {
                envelopes: envelopes_stored(game_id, events, recorded_by, &rows, columns.batch_id)?,
                newly_stored: true,
            }),
            Ok(_) => self.settle_conflict(game_id, expected_seq, events).await,
            Err(error) if collided(&error) => {
                self.settle_conflict(game_id, expected_seq, events).await
            }
            Err(other) => Err(other.into()),
        }
    }

    /// [`Store::append_judged`] of a `fair_play` event with its restricted rows
    /// ([`super::SealedRows`]: the sealed payload and any evidence file), all in one
    /// transaction: the public row is never stored without its payload, nor a payload without
    /// its row. A payload already stored under the event's id is
    /// [`StoreError::FairPlayIdTaken`]; otherwise a refusal is told as by
    /// [`Store::append_judged`] (a retry, a stale `expected_seq`, a reused id).
    pub async fn append_judged_sealed(
        &self,
        game_id: Uuid,
        expected_seq: u64,
        events: &[NewEvent],
        recorded_by: &str,
        game_outcome: Option<&GameOutcome>,
        sealed: &super::SealedRows,
    ) -> Result<Appended, StoreError> {
        check_unique_ids(events)?;
        let columns = AppendColumns::of(game_id, expected_seq, events)?;
        let mut tx = self.pool.begin().await?;
        sealed.insert_in(&mut tx, game_id).await?;
        let rows = columns
            .statement(game_id, expected_seq, recorded_by, game_outcome)
            .fetch_all(&mut *tx)
            .await;
        match rows {
            Ok(rows) if stored_all(&rows, events) => {
                let envelopes =
                    envelopes_stored(game_id, events, recorded_by, &rows, columns.batch_id)?;
                tx.commit().await?;
                Ok(Appended {
                    envelopes,
                    newly_stored: true,
                })
            }
            Ok(_) => {
                tx.rollback().await?;
                self.settle_conflict(game_id, expected_seq, events).await
            }
            Err(error) if collided(&error) => {
                drop(tx);
                self.settle_conflict(game_id, expected_seq, events).await
            }
            Err(other) => Err(other.into()),
        }
    }

    /// Tells why an append stored nothing, or cannot be stored at `expected_seq`: a retry of
    /// an earlier identical append (its stored envelopes), a stale `expected_seq`, an
    /// `event_id` reused, or no such game. Reads only; never stores.
    pub async fn settle_conflict(
        &self,
        game_id: Uuid,
        expected_seq: u64,
        events: &[NewEvent],
    ) -> Result<Appended, StoreError> {
        let mut tx = self.pool.begin().await?;
        let settled = settle_conflict_in(&mut tx, game_id, expected_seq, events).await;
        tx.commit().await?;
        settled
    }

    /// [`Store::append`] inside a transaction the caller owns (and commits): the same
    /// statement. A collision aborts the caller's transaction and is returned as the error.
    pub async fn append_in(
        &self,
        tx: &mut Transaction<'_, Postgres>,
        game_id: Uuid,
        expected_seq: u64,
        events: &[NewEvent],
        recorded_by: &str,
    ) -> Result<Appended, StoreError> {
        check_unique_ids(events)?;
        let columns = AppendColumns::of(game_id, expected_seq, events)?;
        let rows = columns
            .statement(game_id, expected_seq, recorded_by, None)
            .fetch_all(&mut **tx)
            .await?;
        if stored_all(&rows, events) {
            return Ok(Appended {
                envelopes: envelopes_stored(game_id, events, recorded_by, &rows, columns.batch_id)?,
                newly_stored: true,
            });
        }
        settle_conflict_in(tx, game_id, expected_seq, events).await
    }

    /// If the recorded events of `events` are already stored as one append that began right
    /// after `expected_seq`, that append's envelopes (a retry); an error if their ids are
    /// stored otherwise; `None` if none is stored. Read only on paths that are already slow
    /// (a refusal), never before an ordinary append.
    pub async fn stored_retry(
        &self,
        game_id: Uuid,
        expected_seq: u64,
        events: &[NewEvent],
    ) -> Result<Option<Vec<EventEnvelope>>, StoreError> {
        check_unique_ids(events)?;
        let mut tx = self.pool.begin().await?;
        let found = find_retry(&mut tx, game_id, expected_seq, events).await;
        tx.commit().await?;
        found
    }
}

/// Refuses a request that names the same `event_id` twice.
pub(super) fn check_unique_ids(events: &[NewEvent]) -> Result<(), StoreError> {
    let mut seen = HashSet::with_capacity(events.len());
    for event in events {
        if !seen.insert(event.event_id) {
            return Err(StoreError::DuplicateEventIdInRequest(event.event_id));
        }
    }
    Ok(())
}

/// If the request's `event_id`s are already stored as one append that began right after
/// `expected_seq` with the same events, returns that append's envelopes (decisions included).
/// If some are stored otherwise, the ids are being reused: an error. If none is stored, `None`.
async fn find_retry(
    tx: &mut Transaction<'_, Postgres>,
    game_id: Uuid,
    expected_seq: u64,
    events: &[NewEvent],
) -> Result<Option<Vec<EventEnvelope>>, StoreError> {
    // Only recorded events carry the client's ids; decisions the service derived from them
    // get fresh ids on every attempt and are answered from the stored batch.
    let events: Vec<&NewEvent> = events
        .iter()
        .filter(|e| matches!(e.event, Event::Recorded(_)))
        .collect();
    if events.is_empty() {
        return Ok(None);
    }
    let ids: Vec<Uuid> = events.iter().map(|e| e.event_id).collect();
    let rows = sqlx::query(
        "SELECT game_id, seq, event_id, batch_id, payload, metadata, recorded_at, occurred_at, \
         recorded_by, prev_hash, hash FROM events WHERE game_id = $1 AND event_id = ANY($2) \
         ORDER BY seq",
    )
    .bind(game_id)
    .bind(&ids)
    .fetch_all(&mut **tx)
    .await?;
    if rows.is_empty() {
        return Ok(None);
    }
    let found: Vec<EventEnvelope> = rows
        .iter()
        .map(envelope_from_row)
        .collect::<Result<_, _>>()?;
    let reused = |envelope: &EventEnvelope| StoreError::EventIdReused {
        event_id: envelope.event_id,
        seq: envelope.seq,
    };
    let batch_id = found[0].batch_id;
    let batch_rows = sqlx::query(
        "SELECT game_id, seq, event_id, batch_id, payload, metadata, recorded_at, occurred_at, \
         recorded_by, prev_hash, hash FROM events WHERE game_id = $1 AND batch_id = $2 ORDER BY seq",
    )
    .bind(game_id)
    .bind(batch_id)
    .fetch_all(&mut **tx)
    .await?;
    let batch: Vec<EventEnvelope> = batch_rows
        .iter()
        .map(envelope_from_row)
        .collect::<Result<_, _>>()?;
    // The request's events must be exactly the batch's events with those ids, in order, with
    // the same content, starting right after `expected_seq`.
    let requested: Vec<&EventEnvelope> =
        batch.iter().filter(|e| ids.contains(&e.event_id)).collect();
    let same_place = batch.first().map(|e| e.seq) == Some(expected_seq + 1);
    let same_events = requested.len() == events.len()
        && found.len() == events.len()
        && requested
            .iter()
            .zip(&events)
            .all(|(stored, new)| stored.event_id == new.event_id && stored.event == new.event);
    if same_place && same_events {
        Ok(Some(batch))
    } else {
        let culprit = found
            .iter()
            .find(|e| e.batch_id != batch_id)
            .unwrap_or(&found[0]);
        Err(reused(culprit))
    }
}

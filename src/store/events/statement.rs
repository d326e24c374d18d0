//! The append's one statement and its columns: the guard on the summary row, the events as
//! `UNNEST`ed arrays in `seq` order, and what the database computed for each row. Apart from
//! the append's control flow (retries, conflicts), since the single append and the group
//! commit (`super::super::group_commit`) bind the same columns.

use super::{GameOutcome, NewEvent};
use crate::game::event::{ClockReading, GameResult, Termination};
use crate::store::{StoreError, to_i64};
use chrono::{DateTime, Utc};
use sqlx::Postgres;
use uuid::Uuid;

/// The append, in one statement: the guard on the summary row (`games.last_seq` must be the
/// expected `seq`; the row lock it takes serialises the game's writers across instances),
/// the events as one multi-row insert of `UNNEST`ed arrays in `seq` order, and what the
/// database computed for each row. When the guard does not hold, nothing is inserted and no
/// row comes back; a concurrent writer that got there first makes the guard fail once its
/// transaction commits (the `UPDATE` re-reads the locked row). The hash chain is the
/// trigger's here (`events_link_chain`, migration 0001): each row is linked to the stored row
/// before it. (Group commits link their rows in their own function, migration 0017; see
/// docs/trust.md, "Who computes a link".)
pub const APPEND_STATEMENT: &str = "\
WITH guard AS (
    UPDATE games
       SET last_seq = $2 + cardinality($3::uuid[]),
           updated_at = date_trunc('microseconds', now()),
           status = CASE WHEN $10::boolean THEN $11 ELSE status END,
           result = CASE WHEN $10::boolean THEN $12 ELSE result END,
           termination = CASE WHEN $10::boolean THEN $13 ELSE termination END
     WHERE game_id = $1 AND last_seq = $2
 RETURNING game_id
), stored AS (
    INSERT INTO events (game_id, seq, event_id, batch_id, event_type, payload, metadata,
                        occurred_at, recorded_by, prev_hash, hash)
    SELECT guard.game_id, $2 + appended.ord, appended.event_id, $4, appended.event_type,
           appended.payload, appended.metadata, appended.occurred_at, $9, ''::bytea, ''::bytea
      FROM guard,
           unnest($3::uuid[], $5::text[], $6::jsonb[], $7::jsonb[], $8::timestamptz[])
               WITH ORDINALITY AS appended (event_id, event_type, payload, metadata,
                                            occurred_at, ord)
     ORDER BY appended.ord
 RETURNING seq, recorded_at, prev_hash, hash
)
SELECT seq, recorded_at, prev_hash, hash FROM stored ORDER BY seq";

/// The columns of an append, one array per column ([`APPEND_STATEMENT`]).
#[derive(Debug)]
pub(in crate::store) struct AppendColumns {
    pub(super) batch_id: Uuid,
    event_ids: Vec<Uuid>,
    types: Vec<&'static str>,
    payloads: Vec<JsonText>,
    metadata: Vec<JsonText>,
    occurred_at: Vec<Option<DateTime<Utc>>>,
}

/// A JSON value bound as `jsonb`, serialised once straight to its text (no intermediate
/// `serde_json::Value`, whose maps and strings cost an allocation each: issue 40).
pub(in crate::store) type JsonText = sqlx::types::Json<Box<serde_json::value::RawValue>>;

/// `value` serialised to the text bound as `jsonb`.
fn json_text<T: serde::Serialize + ?Sized>(value: &T) -> Result<JsonText, serde_json::Error> {
    serde_json::value::to_raw_value(value).map(sqlx::types::Json)
}

/// The metadata object stored with an event ([`super::metadata_of`]), as text.
fn metadata_text(event: &NewEvent) -> Result<JsonText, serde_json::Error> {
    #[derive(serde::Serialize)]
    struct Metadata<'a> {
        #[serde(skip_serializing_if = "Option::is_none")]
        clock: Option<&'a ClockReading>,
    }
    json_text(&Metadata {
        clock: event.clock.as_ref(),
    })
}

impl AppendColumns {
    /// Serialises `events` (stored from `expected_seq + 1` on) once, for the statement.
    pub(in crate::store) fn of(
        game_id: Uuid,
        expected_seq: u64,
        events: &[NewEvent],
    ) -> Result<Self, StoreError> {
        let mut columns = AppendColumns {
            batch_id: Uuid::new_v4(),
            event_ids: Vec::with_capacity(events.len()),
            types: Vec::with_capacity(events.len()),
            payloads: Vec::with_capacity(events.len()),
            metadata: Vec::with_capacity(events.len()),
            occurred_at: Vec::with_capacity(events.len()),
        };
        for (offset, new) in events.iter().enumerate() {
            let undecodable = |e: serde_json::Error| StoreError::Undecodable {
                game_id,
                seq: expected_seq + 1 + offset as u64,
                message: e.to_string(),
            };
            columns.event_ids.push(new.event_id);
            columns.types.push(new.event.type_name());
            columns
                .payloads
                .push(json_text(&new.event).map_err(undecodable)?);
            columns
                .metadata
                .push(metadata_text(new).map_err(undecodable)?);
            columns.occurred_at.push(new.occurred_at);
        }
        Ok(columns)
    }

    /// How many events.
    pub(in crate::store) fn len(&self) -> usize {
        self.event_ids.len()
    }

    /// The batch id the events are stored under.
    pub(in crate::store) fn batch_id(&self) -> Uuid {
        self.batch_id
    }

    /// The summary row's status, result and termination after the append, when it sets an
    /// outcome.
    pub(in crate::store) fn summary(
        &self,
        outcome: Option<&GameOutcome>,
    ) -> (
        Option<&'static str>,
        Option<&'static str>,
        Option<&'static str>,
    ) {
        let status = outcome.map(|o| {
            if o.result.is_some() {
                "ended"
            } else {
                "in_progress"
            }
        });
        (
            status,
            outcome.and_then(|o| o.result.map(GameResult::pgn)),
            outcome.and_then(|o| o.termination.map(Termination::name)),
        )
    }

    /// Moves the per-event columns to the end of those of a group ([`crate::store::group_commit`]).
    pub(in crate::store) fn extend_into(
        self,
        event_ids: &mut Vec<Uuid>,
        types: &mut Vec<&'static str>,
        payloads: &mut Vec<JsonText>,
        metadata: &mut Vec<JsonText>,
        occurred_at: &mut Vec<Option<DateTime<Utc>>>,
    ) {
        event_ids.extend(self.event_ids);
        types.extend(self.types);
        payloads.extend(self.payloads);
        metadata.extend(self.metadata);
        occurred_at.extend(self.occurred_at);
    }

    /// The bound statement.
    pub(super) fn statement<'q>(
        &'q self,
        game_id: Uuid,
        expected_seq: u64,
        recorded_by: &'q str,
        outcome: Option<&GameOutcome>,
    ) -> sqlx::query::Query<'q, Postgres, sqlx::postgres::PgArguments> {
        let (status, result, termination) = self.summary(outcome);
        sqlx::query(APPEND_STATEMENT)
            .bind(game_id)
            .bind(to_i64(expected_seq))
            .bind(&self.event_ids)
            .bind(self.batch_id)
            .bind(&self.types)
            .bind(&self.payloads)
            .bind(&self.metadata)
            .bind(&self.occurred_at)
            .bind(recorded_by)
            .bind(outcome.is_some())
            .bind(status)
            .bind(result)
            .bind(termination)
    }
}

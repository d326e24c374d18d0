//! Games: creation (the `game_created` event at `seq` 1 and the summary row, in one
//! transaction) and the `games` read model used for fetching and listing.
//!
//! The `games` table is a projection of the log: every column can be rebuilt from the events.

use super::events::{insert_batch, violates};
use super::{EventEnvelope, NewEvent, Store, StoreError, to_i64, to_u64};
use crate::game::event::{Event, GameResult, GameSettings, ServiceEvent, Termination};
pub use crate::game::view::GameStatus;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use sqlx::postgres::PgRow;
use utoipa::ToSchema;
use uuid::Uuid;

/// The stored name of a game's status (the games table's `status` column).
fn status_name(status: GameStatus) -> &'static str {
    match status {
        GameStatus::InProgress => "in_progress",
        GameStatus::Ended => "ended",
    }
}

/// The stored status; an unknown one is an error, never a default.
fn parse_status(text: &str) -> Result<GameStatus, StoreError> {
    match text {
        "ended" => Ok(GameStatus::Ended),
        "in_progress" => Ok(GameStatus::InProgress),
        other => Err(StoreError::UnknownStoredValue {
            what: "game status",
            value: other.to_string(),
        }),
    }
}

/// A game as listed: who plays, where, and how far the log has got.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GameSummary {
    /// The game's id.
    pub game_id: Uuid,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// The tournament.
    pub event: String,
    /// The round.
    pub round: String,
    /// The board number.
    pub board: Option<u32>,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// In progress or ended.
    pub status: GameStatus,
    /// The result (`1-0`, `0-1`, `1/2-1/2`) once ended.
    pub result: Option<GameResult>,
    /// How it ended.
    pub termination: Option<Termination>,
    /// The last stored `seq`: pass it as `expected_seq` to append.
    pub last_seq: u64,
    /// When the last event was stored.
    pub updated_at: DateTime<Utc>,
    /// The settings the game was created with.
    pub settings: GameSettings,
}

/// Filters and paging for listing games.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    /// Only games of this event (exact name).
    pub event: Option<String>,
    /// Only games of this round.
    pub round: Option<String>,
    /// Only games with this status.
    pub status: Option<GameStatus>,
    /// Continue after this cursor.
    pub after: Option<ListCursor>,
    /// At most this many games.
    pub limit: u64,
}

/// A position in the list of games (ordered by creation time, then id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListCursor {
    created_at: DateTime<Utc>,
    game_id: Uuid,
}

impl ListCursor {
    /// Encodes the cursor as `MICROSECONDS-GAME_ID` (the creation time in microseconds since
    /// 1970 and the game's id): URL-safe, and every string of that form is a position in
    /// the list, so a cursor cannot be invalid in any way the contract does not say.
    pub fn encode(&self) -> String {
        format!("{}-{}", self.created_at.timestamp_micros(), self.game_id)
    }

    /// Decodes a cursor made by [`ListCursor::encode`], or the base64 form that releases up
    /// to 0.3.0 gave out (a client paging across an upgrade keeps its place).
    pub fn decode(text: &str) -> Option<ListCursor> {
        let parse = |text: &str, separator: char| -> Option<ListCursor> {
            let (micros, id) = text.split_once(separator)?;
            Some(ListCursor {
                created_at: DateTime::from_timestamp_micros(micros.parse().ok()?)?,
                game_id: Uuid::parse_str(id).ok()?,
            })
        };
        parse(text, '-').or_else(|| {
            let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
            parse(&String::from_utf8(bytes).ok()?, '/')
        })
    }
}

/// Appends `game_created` (seq 1) for `game_id` and its row in `games`, inside `tx`.
async fn insert_creation(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    game_id: Uuid,
    event_id: Option<Uuid>,
    settings: &GameSettings,
    recorded_by: &str,
) -> Result<(EventEnvelope, GameSummary), StoreError> {
    let new = NewEvent {
        event_id: event_id.unwrap_or_else(Uuid::new_v4),
        event: Event::Service(ServiceEvent::GameCreated(Box::new(settings.clone()))),
        occurred_at: None,
        clock: None,
    };
    let envelope = insert_batch(tx, game_id, 1, std::slice::from_ref(&new), recorded_by)
        .await?
        .into_iter()
        .next()
        .ok_or(StoreError::GameNotFound(game_id))?;
    let row = sqlx::query(
        "INSERT INTO games (game_id, created_at, event_name, round, board, white, black, \
         settings, last_seq, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $2) \
         RETURNING *",
    )
    .bind(game_id)
    .bind(envelope.recorded_at)
    .bind(&settings.event)
    .bind(&settings.round)
    .bind(settings.board.and_then(|b| i32::try_from(b).ok()))
    .bind(&settings.white.name)
    .bind(&settings.black.name)
    .bind(serde_json::json!(settings))
    .fetch_one(&mut **tx)
    .await?;
    Ok((envelope, summary_from_row(&row)?))
}

#[cfg(test)]
mod cursor_tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_as_itself_and_the_old_base64_form_still_reads() {
        let cursor = ListCursor {
            created_at: DateTime::from_timestamp_micros(1_764_000_000_123_456).expect("a time"),
            game_id: Uuid::parse_str("e3e70682-c209-1cac-a29f-6fbed82c07cd").expect("uuid"),
        };
        let text = cursor.encode();
        assert_eq!(
            text,
            "1764000000123456-e3e70682-c209-1cac-a29f-6fbed82c07cd"
        );
        assert_eq!(ListCursor::decode(&text), Some(cursor.clone()));
        let old = URL_SAFE_NO_PAD.encode("1764000000123456/e3e70682-c209-1cac-a29f-6fbed82c07cd");
        assert_eq!(ListCursor::decode(&old), Some(cursor));
        assert_eq!(ListCursor::decode("0"), None);
    }
}

/// A page of games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GameListPage {
    /// The games, oldest first.
    pub items: Vec<GameSummary>,
    /// Pass as `after` to get the next page; absent on the last page.
    pub next: Option<String>,
}

/// What creating a game did.
#[derive(Clone, Debug, PartialEq)]
pub struct CreatedGame {
    /// The game.
    pub summary: GameSummary,
    /// The `game_created` event.
    pub envelope: EventEnvelope,
    /// False when a game with this id and these settings already existed (a retry).
    pub newly_created: bool,
}

/// A result or termination as the read model stores it (its wire name), decoded; a name this
/// release does not know is an error that names the game, never a silent `None`.
fn stored_name<T>(
    game_id: Uuid,
    column: &str,
    stored: Option<String>,
    parse: fn(&str) -> Option<T>,
) -> Result<Option<T>, StoreError> {
    stored
        .map(|name| {
            parse(&name).ok_or_else(|| StoreError::Undecodable {
                game_id,
                seq: 0,
                message: format!("the games row's {column} `{name}` is not one this release knows"),
            })
        })
        .transpose()
}

fn summary_from_row(row: &PgRow) -> Result<GameSummary, StoreError> {
    let game_id: Uuid = row.try_get("game_id")?;
    let settings: serde_json::Value = row.try_get("settings")?;
    let settings = serde_json::from_value(settings).map_err(|e| StoreError::Undecodable {
        game_id,
        seq: 1,
        message: e.to_string(),
    })?;
    let board: Option<i32> = row.try_get("board")?;
    let status: String = row.try_get("status")?;
    Ok(GameSummary {
        game_id,
        created_at: row.try_get("created_at")?,
        event: row.try_get("event_name")?,
        round: row.try_get("round")?,
        board: board.and_then(|b| u32::try_from(b).ok()),
        white: row.try_get("white")?,
        black: row.try_get("black")?,
        status: parse_status(&status)?,
        result: stored_name(game_id, "result", row.try_get("result")?, GameResult::parse)?,
        termination: stored_name(
            game_id,
            "termination",
            row.try_get("termination")?,
            Termination::parse,
        )?,
        last_seq: to_u64(row.try_get("last_seq")?),
        updated_at: row.try_get("updated_at")?,
        settings,
    })
}

impl Store {
    /// Creates a game: appends `game_created` as `seq` 1 and inserts its summary, in one
    /// transaction. With a `game_id` that already exists, the same settings are a retry
    /// (answered with the stored game) and different settings are refused.
    pub async fn create_game(
        &self,
        game_id: Option<Uuid>,
        event_id: Option<Uuid>,
        settings: &GameSettings,
        recorded_by: &str,
    ) -> Result<CreatedGame, StoreError> {
        // Only a game id the client chose can already be stored (a retry, or a taken id):
        // a fresh one is not looked up first (one query less per game created, issue 40).
        let chosen = game_id.is_some();
        let game_id = game_id.unwrap_or_else(Uuid::new_v4);
        let created = Event::Service(ServiceEvent::GameCreated(Box::new(settings.clone())));
        if chosen && let Some(existing) = self.existing_creation(game_id, &created).await? {
            return Ok(existing);
        }
        let mut tx = self.pool.begin().await?;
        let (envelope, summary) =
            match insert_creation(&mut tx, game_id, event_id, settings, recorded_by).await {
                Ok(created) => created,
                Err(StoreError::Database(error)) if violates(&error, "events_game_seq_key") => {
                    drop(tx);
                    // Created concurrently by a retry of the same request, or by someone else.
                    return self
                        .existing_creation(game_id, &created)
                        .await?
                        .ok_or(StoreError::GameIdTaken(game_id));
                }
                Err(other) => return Err(other),
            };
        tx.commit().await?;
        Ok(CreatedGame {
            summary,
            envelope,
            newly_created: true,
        })
    }

    /// Creates the games of a loaded round and keeps what its pairing file says of the players
    /// and the round's byes, **in one transaction**: all of it or, when anything fails (a
    /// board taken meanwhile, the store), nothing (issue 35). `games` are the ones to create;
    /// games the round already holds are not in it.
    pub async fn create_round(
        &self,
        games: &[(Uuid, GameSettings)],
        roster: Option<super::roster::RoundRoster<'_>>,
        recorded_by: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for (game_id, settings) in games {
            match insert_creation(&mut tx, *game_id, None, settings, recorded_by).await {
                Ok(_) => {}
                // Created meanwhile (another load at the same time) or under another event:
                // the transaction is dropped, so nothing of the round is stored.
                Err(StoreError::Database(error)) if violates(&error, "events_game_seq_key") => {
                    return Err(StoreError::GameIdTaken(*game_id));
                }
                Err(other) => return Err(other),
            }
        }
        if let Some(roster) = roster {
            super::roster::keep_round_roster(&mut tx, &roster, recorded_by).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The stored creation of `game_id` if it is `created`; an error if the id is taken by
    /// other settings; `None` if there is no such game.
    async fn existing_creation(
        &self,
        game_id: Uuid,
        created: &Event,
    ) -> Result<Option<CreatedGame>, StoreError> {
        let Some(envelope) = self.read_events(game_id, 0, Some(1), Some(1)).await?.pop() else {
            return Ok(None);
        };
        if &envelope.event != created {
            return Err(StoreError::GameIdTaken(game_id));
        }
        // A retried creation is acknowledged only once the creation is on the synchronous
        // standby, as a new one would be (see `wait_for_standby_in`).
        let mut tx = self.pool.begin().await?;
        super::events::wait_for_standby_in(&mut tx, game_id).await?;
        tx.commit().await?;
        let summary = self
            .game(game_id)
            .await?
            .ok_or(StoreError::GameNotFound(game_id))?;
        Ok(Some(CreatedGame {
            summary,
            envelope,
            newly_created: false,
        }))
    }

    /// The game's summary, or `None` if there is no such game.
    pub async fn game(&self, game_id: Uuid) -> Result<Option<GameSummary>, StoreError> {
        let row = sqlx::query("SELECT * FROM games WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(summary_from_row).transpose()
    }

    /// Lists games oldest first, filtered, one page at a time.
    pub async fn list_games(&self, filter: &GameFilter) -> Result<GameListPage, StoreError> {
        let (after_time, after_id) = match &filter.after {
            Some(cursor) => (Some(cursor.created_at), Some(cursor.game_id)),
            None => (None, None),
        };
        let rows = sqlx::query(
            "SELECT * FROM games \
             WHERE ($1::text IS NULL OR event_name = $1) \
               AND ($2::text IS NULL OR round = $2) \
               AND ($3::text IS NULL OR status = $3) \
               AND ($4::timestamptz IS NULL OR (created_at, game_id) > ($4, $5::uuid)) \
             ORDER BY created_at, game_id LIMIT $6",
        )
        .bind(filter.event.as_deref())
        .bind(filter.round.as_deref())
        .bind(filter.status.map(status_name))
        .bind(after_time)
        .bind(after_id)
        .bind(to_i64(filter.limit.saturating_add(1)))
        .fetch_all(&self.pool)
        .await?;
        let mut items = rows
            .iter()
            .map(summary_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        let next = if items.len() as u64 > filter.limit {
            items.truncate(filter.limit as usize);
            items.last().map(|last| {
                ListCursor {
                    created_at: last.created_at,
                    game_id: last.game_id,
                }
                .encode()
            })
        } else {
            None
        };
        Ok(GameListPage { items, next })
    }
}

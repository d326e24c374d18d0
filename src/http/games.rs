//! Games and their event logs: create, fetch, list, append, read.
//!
//! Bodies are read by hand (size limit while streaming, field paths in errors) rather than
//! through actix's `Json` extractor, so that every refusal is a problem body naming the field.

use super::auth::Caller;
use super::body::{json_object, read_limited};
use super::error::{ApiError, Problem};
use super::query::{AtSeqQuery, Query, check_query_text, page_limit};
use crate::app::commands::{decode_at, decode_event, json_kind, take_optional, take_required};
use crate::game::event::{ClockReading, GAME_SETTINGS_FIELDS, GameSettings, RecordedEvent};
use crate::problem::RequestCode;
use crate::request::{LSN_HEADER, Reads};
use crate::state::{AppState, Limits};
use crate::store::{
    EventEnvelope, GameFilter, GameListPage, GameStatus, GameSummary, ListCursor, NewEvent,
};
use actix_web::{HttpResponse, get, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

/// The body of `POST /v1/games`: the game's settings, with an optional client-chosen id.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({
    "white": {"name": "Carlsen, Magnus", "fide_id": 1503014},
    "black": {"name": "Nepomniachtchi, Ian"},
    "event": "Open Championship 2026", "round": "5", "board": 1,
    "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000}
}))]
pub struct CreateGameRequest {
    /// Choose the game's id (makes creation idempotent: the same id and settings again
    /// answer with the stored game). A fresh id is generated when absent.
    pub game_id: Option<Uuid>,
    /// The id of the `game_created` event (generated when absent).
    pub event_id: Option<Uuid>,
    /// The settings.
    #[serde(flatten)]
    pub settings: GameSettings,
}

/// The answer to `POST /v1/games`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameCreatedResponse {
    /// The game as listed.
    pub game: GameSummary,
    /// The stored `game_created` event (`seq` 1).
    pub event: EventEnvelope,
}

/// One event to append: an event object (tagged by `type`) with optional envelope fields.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"type": "move", "by": "white", "san": "e4",
    "event_id": "6f1c1a52-5bb0-4f57-9a44-4d7b4c8e2a10", "clock": {"white_ms": 5_395_000, "black_ms": 5_400_000}}))]
pub struct NewEventRequest {
    /// The event's id; send one so that a retry of the same request is recognised and
    /// answered with what was stored. Generated when absent.
    pub event_id: Option<Uuid>,
    /// When it happened at the board (RFC 3339).
    pub occurred_at: Option<DateTime<Utc>>,
    /// The clock as read when it happened.
    pub clock: Option<ClockReading>,
    /// The event.
    #[serde(flatten)]
    pub event: RecordedEvent,
}

/// The body of `POST /v1/games/{id}/events`.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"expected_seq": 1, "events": [
    {"type": "move", "by": "white", "san": "e4"},
    {"type": "clock_press", "by": "white", "white_ms": 5_395_000}
]}))]
pub struct AppendRequest {
    /// The `seq` of the game's last event as the client knows it (`last_seq` of the game).
    pub expected_seq: u64,
    /// The events, in the order they happened.
    pub events: Vec<NewEventRequest>,
}

/// The answer to an append: every stored envelope.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AppendResponse {
    /// The stored events, in `seq` order.
    pub events: Vec<EventEnvelope>,
    /// The game's last `seq` after this append: the next `expected_seq`.
    pub last_seq: u64,
}

/// A page of a game's log.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct EventPage {
    /// The events, in `seq` order.
    pub items: Vec<EventEnvelope>,
    /// The game's last `seq` when read.
    pub last_seq: u64,
}

/// Filters and paging of `GET /v1/games`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListGamesQuery {
    /// Only games of this event (exact name).
    #[param(max_length = 200, pattern = r"^[^\x00]*$")]
    pub event: Option<String>,
    /// Only games of this round.
    #[param(max_length = 200, pattern = r"^[^\x00]*$")]
    pub round: Option<String>,
    /// Only games with this status.
    pub status: Option<GameStatus>,
    /// The `next` value of the previous page, unchanged: `MICROSECONDS-GAME_ID`, the creation
    /// time and id of the last game of that page.
    #[param(
        pattern = r"^[0-9]{1,16}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
    )]
    pub after: Option<String>,
    /// Page size, 1 to 500 (default 50).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u64>,
}

/// Paging of `GET /v1/games/{id}/events`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReadEventsQuery {
    /// Only events with a `seq` greater than this (default 0: from the start).
    #[param(minimum = 0, maximum = 9_223_372_036_854_775_807_i64)]
    pub after: Option<u64>,
    /// At most this many events, 1 to 10000 (default 1000).
    #[param(minimum = 1, maximum = 10000)]
    pub limit: Option<u64>,
}

/// Validates a game's settings with the game core, naming the wrong field.
fn validate_settings(settings: &GameSettings) -> Result<(), ApiError> {
    crate::game::settings::validate_new(settings)
        .map(|_| ())
        .map_err(|e| ApiError::invalid_field(e.field(), e.to_string()))
}

/// Create a game.
///
/// Appends `game_created` as `seq` 1 with the settings that govern every ruling in the game.
/// Sending the same `game_id` and settings again answers 200 with the stored game (a retry);
/// the same `game_id` with other settings is a 409.
#[utoipa::path(
    tag = "games",
    security(("bearer" = [])),
    request_body(
        content = CreateGameRequest,
        examples(
        ("one_period" = (summary = "The one-period form: 90 minutes + 30 s a move from move 1", value = json!({"white": {"name": "Carlsen, Magnus", "fide_id": 1503014}, "black": {"name": "Nepomniachtchi, Ian"}, "event": "Open Championship 2026", "round": "5", "board": 1, "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000}}))),
        ("periods" = (summary = "90 minutes for 40 moves, then 30 minutes, 30 s a move from move 1 (6.3.1), on a DGT 3000 that adds the period at 0:00", value = json!({"white": {"name": "Xiong, Jeffery"}, "black": {"name": "Li, Yiheng"}, "event": "World Cup 2025", "round": "1.2", "time_control": {"periods": [{"time_ms": 5_400_000, "moves": 40, "bonus": {"mode": "increment", "ms": 30_000}}, {"time_ms": 1_800_000, "bonus": {"mode": "increment", "ms": 30_000}}]}, "clock_behaviour": {"period_time_added": "at_zero_both_clocks", "increment_credit": "before_move"}}))),
        ("preset" = (summary = "A named FIDE control", value = json!({"white": {"name": "White, W"}, "black": {"name": "Black, B"}, "event": "World Rapid", "round": "3", "time_control": {"preset": "rapid_15_plus_10"}}))),
        )
    ),
    responses(
        (status = 201, description = "The game was created.", body = GameCreatedResponse),
        (status = 200, description = "A game with this id and these settings already existed.", body = GameCreatedResponse),
        (status = 400, description = "The body is not JSON.", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game_id is taken by a game with other settings.", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field is missing or wrong; `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games")]
pub async fn create_game(
    state: web::Data<AppState>,
    caller: Caller,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let body = read_limited(
        payload,
        state.limits.body_bytes,
        "A game is created from its settings alone: send its players, event, round, board, \
         time control and regulations, then record its events with \
         POST /v1/games/{id}/events.",
    )
    .await?;
    let mut object = json_object(&body)?;
    let game_id: Option<Uuid> = take_optional(&mut object, "game_id", "")?;
    let event_id: Option<Uuid> = take_optional(&mut object, "event_id", "")?;
    if let Some(unknown) = object
        .keys()
        .find(|key| !GAME_SETTINGS_FIELDS.contains(&key.as_str()))
    {
        return Err(ApiError::invalid_field(
            unknown.clone(),
            format!(
                "Unknown field `{unknown}`; a game has {}, and optionally game_id and event_id.",
                GAME_SETTINGS_FIELDS.join(", ")
            ),
        ));
    }
    let settings: GameSettings = decode_at(Value::Object(object), "")?;
    validate_settings(&settings)?;
    caller.0.may_create_game(&settings.event)?;
    let created = state
        .store
        .create_game(game_id, event_id, &settings, &caller.0.recorder())
        .await?;
    crate::ops::telemetry::game_created(created.newly_created);
    if created.newly_created {
        state.arbitration.warm_created(&created.envelope).await;
    }
    let status = if created.newly_created {
        actix_web::http::StatusCode::CREATED
    } else {
        actix_web::http::StatusCode::OK
    };
    let mut response = HttpResponse::build(status);
    add_lsn_header(&state, &mut response).await;
    Ok(response
        .insert_header(("Location", format!("/v1/games/{}", created.summary.game_id)))
        .json(GameCreatedResponse {
            game: created.summary,
            event: created.envelope,
        }))
}

/// With a read replica: the primary's WAL position after a write, for read-your-writes. A
/// failure to ask is logged and the header left out: the write itself has committed.
pub(super) async fn add_lsn_header(
    state: &AppState,
    response: &mut actix_web::HttpResponseBuilder,
) {
    match state.store.lsn_for_reads().await {
        Ok(Some(lsn)) => {
            response.insert_header((LSN_HEADER, lsn.to_string()));
        }
        Ok(None) => {}
        Err(error) => {
            tracing::warn!(%error, "cannot read the WAL position after a write; the answer goes without X-Arbiter-LSN")
        }
    }
}

/// List games.
///
/// Oldest first, filtered by event, round and status; follow `next` for the next page.
#[utoipa::path(
    tag = "games",
    security(("bearer" = [])),
    params(ListGamesQuery),
    responses(
        (status = 200, description = "A page of games.", body = GameListPage),
        (status = 400, description = "A query parameter is wrong; `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games")]
pub async fn list_games(
    _caller: Caller,
    reads: Reads,
    query: Query<ListGamesQuery>,
) -> Result<web::Json<GameListPage>, ApiError> {
    let query = query.into_inner();
    let limit = page_limit(query.limit, 50, 500)?;
    check_query_text("event", query.event.as_deref())?;
    check_query_text("round", query.round.as_deref())?;
    let after = match query.after.as_deref() {
        None => None,
        Some(text) => Some(ListCursor::decode(text).ok_or_else(|| {
            ApiError::bad_request(
                RequestCode::InvalidCursor,
                "`after` is not a cursor this service gave out; pass the `next` value of the \
                 previous page unchanged, or omit it to start from the first game.",
            )
            .with_field("after")
        })?),
    };
    let filter = GameFilter {
        event: query.event,
        round: query.round,
        status: query.status,
        after,
        limit,
    };
    Ok(web::Json(reads.list_games(&filter).await?))
}

/// A game with its state as folded from the log.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameDetail {
    /// The game as listed (always as of now).
    pub game: GameSummary,
    /// The `seq` the state below was folded to.
    pub as_of_seq: u64,
    /// The state: position, moves, clocks, offers, obligations, result.
    pub state: crate::game::GameView,
}

/// Fetch a game and its state.
///
/// The state is the log folded by the engine: FEN, side to move, moves and the scoresheet
/// with `(=)` marks, clocks with penalties applied, half-move count, pending offer,
/// obligations, illegal-move counts, status and result with termination and article.
/// `at_seq` gives the same as it stood after that event.
#[utoipa::path(
    tag = "games",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id."), AtSeqQuery),
    responses(
        (status = 200, description = "The game and its state.", body = GameDetail),
        (status = 400, description = "The id is not a UUID, or at_seq is not a number of at least 1.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game, or at_seq beyond the log.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}")]
pub async fn get_game(
    state: web::Data<AppState>,
    _caller: Caller,
    reads: Reads,
    id: web::Path<Uuid>,
    query: Query<AtSeqQuery>,
) -> Result<web::Json<GameDetail>, ApiError> {
    let id = id.into_inner();
    let game = reads
        .game(id)
        .await?
        .ok_or(crate::store::StoreError::GameNotFound(id))?;
    let (folded, as_of_seq) = state
        .arbitration
        .state_at_on(&reads, id, query.checked()?)
        .await?;
    Ok(web::Json(GameDetail {
        game,
        as_of_seq,
        state: folded.view(),
    }))
}

/// Decodes the `events` list of an append, naming the wrong field of a wrong event.
fn decode_events(value: Value, max: usize) -> Result<Vec<NewEvent>, ApiError> {
    let Value::Array(items) = value else {
        return Err(ApiError::invalid_field(
            "events",
            format!(
                "`events` must be an array of event objects, not {}.",
                json_kind(&value)
            ),
        ));
    };
    if items.is_empty() {
        return Err(ApiError::invalid_field(
            "events",
            "`events` is empty; send at least one event.",
        ));
    }
    if items.len() > max {
        return Err(ApiError::invalid_field(
            "events",
            format!(
                "`events` holds {} events; send at most {max} per request.",
                items.len()
            ),
        ));
    }
    items
        .into_iter()
        .enumerate()
        .map(|(index, item)| {
            decode_event(item, &format!("events[{index}]")).map_err(ApiError::from)
        })
        .collect()
}

/// Record events.
///
/// Appends the events after `expected_seq`, all or nothing. If the game's last `seq` is not
/// `expected_seq`, nothing is stored and the 409 answer carries `current_seq`. Resending a
/// request whose `event_id`s are already stored at those places answers 200 with the stored
/// envelopes and stores nothing.
#[utoipa::path(
    tag = "events",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    request_body(
        content = AppendRequest,
        description = "The events, judged by the engine and stored with the decisions they cause.",
        examples(
        ("move" = (summary = "A move (SAN; UCI such as g1f3 is accepted too), with the clock as read", value = json!({"expected_seq": 1, "events": [{"type": "move", "by": "white", "san": "Nf3", "event_id": "6f1c1a52-5bb0-4f57-9a44-4d7b4c8e2a10", "clock": {"white_ms": 5395000, "black_ms": 5400000}}]}))),
        ("illegal_move" = (summary = "An illegal move completed by pressing the clock (7.5.1), with the move attempted: its piece must move (4.3)", value = json!({"expected_seq": 4, "events": [{"type": "illegal_move", "by": "black", "description": "2...Nf6 leaving the king in check", "completed": true, "attempted_move": "g8f6", "kind": "illegal_move"}]}))),
        ("clock_press" = (summary = "A clock press with the times shown", value = json!({"expected_seq": 2, "events": [{"type": "clock_press", "by": "white", "white_ms": 5395000, "black_ms": 5400000}]}))),
        ("clock_pause" = (summary = "The clock paused by a player to claim", value = json!({"expected_seq": 9, "events": [{"type": "clock_pause", "by": "white"}]}))),
        ("clock_resume" = (summary = "The clock restarted", value = json!({"expected_seq": 10, "events": [{"type": "clock_resume"}]}))),
        ("clock_adjust" = (summary = "The arbiter sets a clock", value = json!({"expected_seq": 10, "events": [{"type": "clock_adjust", "side": "black", "delta_ms": -60000, "reason": "clock set wrongly at the start (6.10.2)"}]}))),
        ("touch" = (summary = "A piece touched with intent to move it (4.3)", value = json!({"expected_seq": 5, "events": [{"type": "touch", "by": "black", "square": "g8"}]}))),
        ("draw_offer" = (summary = "A draw offer after moving (9.1.2.1)", value = json!({"expected_seq": 6, "events": [{"type": "draw_offer", "by": "white"}]}))),
        ("draw_accept" = (summary = "The offer accepted", value = json!({"expected_seq": 7, "events": [{"type": "draw_accept", "by": "black"}]}))),
        ("draw_decline" = (summary = "The offer declined orally", value = json!({"expected_seq": 7, "events": [{"type": "draw_decline", "by": "black"}]}))),
        ("claim" = (summary = "A repetition claim with the intended move written (9.2.1)", value = json!({"expected_seq": 17, "events": [{"type": "clock_pause", "by": "black"}, {"type": "claim", "by": "black", "kind": "repetition", "intended_move": "Ng8"}]}))),
        ("flag" = (summary = "A flag fall (6.9)", value = json!({"expected_seq": 40, "events": [{"type": "flag", "side": "white"}]}))),
        ("both_flags" = (summary = "Both flags fell, which first unknown (III.3.1)", value = json!({"expected_seq": 40, "events": [{"type": "both_flags"}]}))),
        ("resign" = (summary = "A resignation (5.1.2)", value = json!({"expected_seq": 40, "events": [{"type": "resign", "by": "black"}]}))),
        ("arbiter_decision" = (summary = "A quickplay-finish claim decided by the arbiter (Guidelines III.5)", value = json!({"expected_seq": 60, "events": [{"type": "arbiter_decision", "subject_seq": 59, "decision": "game_ended", "reason": "III.5: Black makes no attempt to win by normal means", "result": "1/2-1/2"}]}))),
        ("illegal_move_stands" = (summary = "Rapid or blitz: an illegal move nobody corrected in time stands (A.5.2)", value = json!({"expected_seq": 30, "events": [{"type": "arbiter_decision", "decision": "illegal_move_stands", "attempted_move": "e1e3", "reason": "White did not claim before making the next move (A.5.2)"}]}))),
        ("increment_request" = (summary = "A request for an increment of five seconds for both players (Guidelines III.4), a draw offer", value = json!({"expected_seq": 70, "events": [{"type": "claim", "by": "white", "kind": "increment_request", "clock": {"white_ms": 95000, "black_ms": 400000}}]}))),
        ("increment_granted" = (summary = "The arbiter agrees to the request: 5 s for both, two minutes for the opponent (III.4)", value = json!({"expected_seq": 72, "events": [{"type": "arbiter_decision", "subject_seq": 71, "decision": "increment_granted", "reason": "Black declined the draw; increment granted (III.4)"}]}))),
        ("appeal_lodged" = (summary = "An appeal against a ruling", value = json!({"expected_seq": 61, "events": [{"type": "appeal_lodged", "by": "black", "against_seq": 60, "grounds": "the position was not the same: castling rights differed"}]}))),
        ("appeal_decided" = (summary = "The appeals committee's decision", value = json!({"expected_seq": 62, "events": [{"type": "appeal_decided", "against_seq": 60, "upheld": false, "reason": "the ruling stands"}]}))),
        ("correction" = (summary = "A data-entry error retracted", value = json!({"expected_seq": 8, "events": [{"type": "correction", "retracts_seq": 8, "reason": "wrong square typed"}]})))
        )
    ),
    responses(
        (status = 201, description = "The events were stored.", body = AppendResponse),
        (status = 200, description = "A retry: these events were already stored by an identical request.", body = AppendResponse),
        (status = 400, description = "The body is not JSON, or the id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game.", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`expected_seq` is stale (`current_seq` says where the log is), or an `event_id` is reused.", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An event is malformed, of an unknown type or a service type; `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/events")]
pub async fn append_events(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<Uuid>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let game_id = id.into_inner();
    let Limits {
        body_bytes,
        events_per_append,
    } = state.limits;
    let body = read_limited(
        payload,
        body_bytes,
        "Send fewer events per request (the events after `expected_seq`, in order, over \
         several requests).",
    )
    .await?;
    let mut object = json_object(&body)?;
    let expected_seq: u64 = take_required(&mut object, "expected_seq", "")?;
    let events = object.remove("events").ok_or_else(|| {
        ApiError::invalid_field("events", "Field `events` is missing; it is required.")
    })?;
    if let Some(unknown) = object.keys().next() {
        return Err(ApiError::invalid_field(
            unknown.clone(),
            format!("Unknown field `{unknown}`; the body has `expected_seq` and `events` only."),
        ));
    }
    let events = decode_events(events, events_per_append)?;
    let appended = state
        .arbitration
        .record_checked(game_id, expected_seq, events, &caller.0)
        .await?;
    let last_seq = appended
        .envelopes
        .last()
        .map(|e| e.seq)
        .unwrap_or(expected_seq);
    let status = if appended.newly_stored {
        actix_web::http::StatusCode::CREATED
    } else {
        actix_web::http::StatusCode::OK
    };
    let mut response = HttpResponse::build(status);
    add_lsn_header(&state, &mut response).await;
    Ok(response.json(AppendResponse {
        events: appended.envelopes,
        last_seq,
    }))
}

/// Read a game's log.
#[utoipa::path(
    tag = "events",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id."), ReadEventsQuery),
    responses(
        (status = 200, description = "The events after `after`, in `seq` order.", body = EventPage),
        (status = 400, description = "A parameter is wrong; `field` names it.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/events")]
pub async fn read_events(
    _caller: Caller,
    reads: Reads,
    id: web::Path<Uuid>,
    query: Query<ReadEventsQuery>,
) -> Result<web::Json<EventPage>, ApiError> {
    let game_id = id.into_inner();
    let limit = page_limit(query.limit, 1000, 10_000)?;
    if query.after.is_some_and(|after| after > i64::MAX as u64) {
        return Err(ApiError::bad_request(
            RequestCode::InvalidQuery,
            "`after` is a seq: at most 9223372036854775807.",
        )
        .with_field("after"));
    }
    let last_seq = reads
        .last_seq(game_id)
        .await?
        .ok_or(crate::store::StoreError::GameNotFound(game_id))?;
    let items = reads
        .read_events(
            game_id,
            query.after.unwrap_or(0),
            Some(last_seq),
            Some(limit),
        )
        .await?;
    Ok(web::Json(EventPage { items, last_seq }))
}

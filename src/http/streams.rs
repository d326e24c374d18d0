//! Live streams (Server-Sent Events) of a game and of a round, and the round's broadcast PGN
//! for relays that poll. Thin: the work is in [`crate::app::streams`]. Routes under `/v1/broadcast/`
//! serve the public view (delayed by `--broadcast-delay-minutes`, without touches, warnings,
//! and claims or penalties before the game has ended); the others serve the full view for
//! arbiters' screens. Every route needs a valid token (reader is enough).

use super::auth::{BroadcastReader, Caller};
use super::error::{ApiError, Problem};
use super::query::{Query, check_query_text};
use crate::app::streams::{GameFollow, Messages, RoundPgn, StreamError};
use crate::interchange::broadcast::Audience;
use crate::problem::RequestCode;
use crate::state::AppState;
use crate::store::FeedCursor;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, Responder, get, web};
use actix_web_lab::sse;
use serde::Deserialize;
use std::time::Duration;
use utoipa::IntoParams;
use uuid::Uuid;

/// The keep-alive comment's period: proxies close connections idle for longer.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The reconnection delay an `EventSource` is told (`retry:`).
const RETRY: Duration = Duration::from_secs(2);

impl From<StreamError> for ApiError {
    fn from(error: StreamError) -> Self {
        match error {
            StreamError::Store(store) => store.into(),
            StreamError::RoundNotFound { event, round } => ApiError::not_found(
                RequestCode::RoundNotFound,
                format!(
                    "No game of round `{round}` of event `{event}` exists. Event and round must \
                     match the game settings exactly (GET /v1/games?event=...&round=... lists \
                     them)."
                ),
            ),
            failed @ (StreamError::Corrupt { .. } | StreamError::Source(_)) => {
                ApiError::internal(failed.into())
            }
        }
    }
}

/// Which round.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RoundQuery {
    /// The event's name, exactly as in the games' settings (URL-encoded: spaces as `%20`).
    #[param(max_length = 200, pattern = r"^[^\x00]*$")]
    pub event: String,
    /// The round, exactly as in the games' settings.
    #[param(max_length = 200, pattern = r"^[^\x00]*$")]
    pub round: String,
}

impl RoundQuery {
    fn checked(&self) -> Result<(&str, &str), ApiError> {
        check_query_text("event", Some(&self.event))?;
        check_query_text("round", Some(&self.round))?;
        Ok((&self.event, &self.round))
    }
}

/// The `Last-Event-ID` header, if any.
fn last_event_id(request: &HttpRequest) -> Result<Option<&str>, ApiError> {
    match request.headers().get("Last-Event-ID") {
        None => Ok(None),
        Some(value) => value.to_str().map(|v| Some(v.trim())).map_err(|_| {
            ApiError::bad_request(
                RequestCode::InvalidLastEventId,
                "Last-Event-ID is not readable text; send the `id` of the last message \
                 received, or omit it to start with a snapshot.",
            )
            .with_field("Last-Event-ID")
        }),
    }
}

/// A game stream's `Last-Event-ID`: a `seq`.
fn game_resume_point(request: &HttpRequest) -> Result<Option<u64>, ApiError> {
    match last_event_id(request)? {
        None | Some("") => Ok(None),
        Some(text) => text.parse().map(Some).map_err(|_| {
            ApiError::bad_request(
                RequestCode::InvalidLastEventId,
                format!(
                    "Last-Event-ID `{text}` is not a seq: a game stream's ids are the game's seq \
                     numbers. Send the id of the last message received, or omit the header to \
                     start with a snapshot."
                ),
            )
            .with_field("Last-Event-ID")
        }),
    }
}

/// A round stream's `Last-Event-ID`: a feed cursor.
fn round_resume_point(request: &HttpRequest) -> Result<Option<FeedCursor>, ApiError> {
    match last_event_id(request)? {
        None | Some("") => Ok(None),
        Some(text) => FeedCursor::parse(text).map(Some).ok_or_else(|| {
            ApiError::bad_request(
                RequestCode::InvalidLastEventId,
                format!(
                    "Last-Event-ID `{text}` is not a feed cursor: a round stream's ids are \
                     `TXID-POSITION`. Send the id of the last message received, or omit the \
                     header to start with a snapshot of every game."
                ),
            )
            .with_field("Last-Event-ID")
        }),
    }
}

/// The `text/event-stream` response: keep-alive comments every 15 s, `retry:`, and headers
/// that keep proxies from buffering.
/// The messages are shared with the round's other subscribers: each is written from the
/// one copy the round's source encoded.
fn event_stream(request: &HttpRequest, messages: Messages) -> HttpResponse {
    use futures_util::StreamExt;
    let messages = messages.map(|message| {
        let event = sse::Data::new(message.data.as_str())
            .id(message.id.as_str())
            .event(message.event.as_str());
        sse::Event::from(event)
    });
    let mut response = sse::Sse::from_infallible_stream(messages)
        .with_keep_alive(KEEP_ALIVE)
        .with_retry_duration(RETRY)
        .respond_to(request);
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::HeaderName::from_static("x-accel-buffering"),
        HeaderValue::from_static("no"),
    );
    response
}

async fn game_stream_for(
    state: &AppState,
    request: &HttpRequest,
    game_id: Uuid,
    audience: Audience,
) -> Result<HttpResponse, ApiError> {
    let resume = game_resume_point(request)?;
    match state.streams.follow_game(game_id, audience, resume).await? {
        GameFollow::Live(messages) => Ok(event_stream(request, messages)),
        GameFollow::Finished => Ok(HttpResponse::NoContent().finish()),
    }
}

async fn round_stream_for(
    state: &AppState,
    request: &HttpRequest,
    query: &RoundQuery,
    audience: Audience,
) -> Result<HttpResponse, ApiError> {
    let (event, round) = query.checked()?;
    let resume = round_resume_point(request)?;
    let messages = state
        .streams
        .follow_round(event, round, audience, resume)
        .await?;
    Ok(event_stream(request, messages))
}

/// `Cache-Control` of the public round PGN: any cache (a CDN's edge) may answer it for one
/// second, then asks again with the ETag (a `304` when nothing changed) or, while it asks,
/// serves its copy for up to five seconds more.
pub const PUBLIC_ROUND_PGN_CACHE_CONTROL: &str = "public, max-age=1, stale-while-revalidate=5";

async fn round_pgn_for(
    state: &AppState,
    request: &HttpRequest,
    query: &RoundQuery,
    audience: Audience,
) -> Result<HttpResponse, ApiError> {
    let (event, round) = query.checked()?;
    let if_none_match = request
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok());
    let answer = state
        .streams
        .round_pgn(event, round, audience, if_none_match)
        .await?;
    // The arbiters' PGN is checked on every request (and kept by no shared cache); the
    // public one, already behind by the broadcast delay, may be served by a CDN for a
    // second (docs/streams.md, "A CDN in front"), which then asks again with its ETag.
    let cache_control = match audience {
        Audience::Full => "private, no-cache",
        Audience::Public => PUBLIC_ROUND_PGN_CACHE_CONTROL,
    };
    Ok(match answer {
        RoundPgn::NotModified { etag } => HttpResponse::NotModified()
            .insert_header((header::ETAG, etag))
            .insert_header((header::CACHE_CONTROL, cache_control))
            .finish(),
        RoundPgn::Text { etag, text } => HttpResponse::Ok()
            .content_type("application/x-chess-pgn; charset=utf-8")
            .insert_header((header::ETAG, etag))
            .insert_header((header::CACHE_CONTROL, cache_control))
            .body(text),
    })
}

/// Follow a game live (full view).
///
/// Server-Sent Events. Without `Last-Event-ID`, a `snapshot` comes first (players, FEN,
/// moves, clocks, status, result; its `id` is the `seq` it reflects); then one message per
/// stored event: `id` = the event's `seq`, `event` = its type, `data` = the envelope as in
/// `GET /v1/games/{id}/events`, with `position` (FEN, SAN, UCI, ply, clocks) after a move and
/// `returns_to` (FEN, ply, the standing moves, clocks, status) after a correction. With
/// `Last-Event-ID` (the last `id` received) it resumes after that `seq` with no gap and no
/// duplicate, and sends no snapshot. The stream closes after `game_ended`; a game that has
/// ended with nothing new after `Last-Event-ID` answers 204, which stops an `EventSource`
/// (a correction can retract the end: open the stream again to follow it). A keep-alive
/// comment comes every 15 s.
#[utoipa::path(
    tag = "streams",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The game's id."),
        ("Last-Event-ID" = Option<String>, Header, pattern = r"^([0-9]{1,19})?$", description = "The `id` of the last message received (a `seq`): resume after it. Empty or absent: start with a snapshot."),
    ),
    responses(
        (status = 200, description = "The event stream: Server-Sent Events, each with `id`, `event` and JSON `data` lines.", content_type = "text/event-stream"),
        (status = 204, description = "The game has ended and nothing is new after Last-Event-ID."),
        (status = 400, description = "The id is not a UUID, or Last-Event-ID is not a seq.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/stream")]
pub async fn game_stream(
    state: web::Data<AppState>,
    _caller: Caller,
    request: HttpRequest,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    game_stream_for(&state, &request, id.into_inner(), Audience::Full).await
}

/// Follow every game of a round live (full view).
///
/// Server-Sent Events over all games of one event and round. `id` = the feed cursor
/// (`TXID-POSITION`), read behind the feed's transaction-id fence so that no event that
/// commits late is skipped. Without `Last-Event-ID`, a `snapshot` per game comes first (each
/// with the cursor it reflects as `id`); with it, the round's events after that cursor. `data`
/// is as in the game stream, with the `cursor`. Stays open after the games end (appeals).
#[utoipa::path(
    tag = "streams",
    security(("bearer" = [])),
    params(
        RoundQuery,
        ("Last-Event-ID" = Option<String>, Header, pattern = r"^([0-9]{1,19}-[0-9]{1,19})?$", description = "The `id` of the last message received (`TXID-POSITION`): resume after it. Empty or absent: start with a snapshot of every game."),
    ),
    responses(
        (status = 200, description = "The event stream: Server-Sent Events, each with `id`, `event` and JSON `data` lines.", content_type = "text/event-stream"),
        (status = 400, description = "A query parameter or Last-Event-ID is wrong.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No game has this event and round.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/rounds/stream")]
pub async fn round_stream(
    state: web::Data<AppState>,
    _caller: Caller,
    request: HttpRequest,
    query: Query<RoundQuery>,
) -> Result<HttpResponse, ApiError> {
    round_stream_for(&state, &request, &query, Audience::Full).await
}

/// A round's games as one PGN, for relays that poll (full view).
///
/// Every game of the round by board: `Round "r.b"` (round.board), `WhiteFideId` /
/// `BlackFideId`, `Result` (`*` while in progress), a `[%clk h:mm:ss]` after every move (the
/// reading recorded with the move or the mover's clock press, else the clock the engine
/// keeps), legal SAN only (an illegal move appears only in a comment). Send the `ETag` back
/// in `If-None-Match`: 304 while nothing in the round has changed.
#[utoipa::path(
    tag = "streams",
    security(("bearer" = [])),
    params(
        RoundQuery,
        ("If-None-Match" = Option<String>, Header, description = "The ETag of the copy the client holds."),
    ),
    responses(
        (status = 200, description = "The PGN.", body = inline(super::contract::PgnFile), content_type = "application/x-chess-pgn",
            headers(("ETag" = String, description = "Changes with any change to the round's games."))),
        (status = 304, description = "Nothing has changed since the ETag sent.",
            headers(("ETag" = String, description = "The current ETag."))),
        (status = 400, description = "A query parameter is wrong.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No game has this event and round.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/rounds/pgn")]
pub async fn round_pgn(
    state: web::Data<AppState>,
    _caller: Caller,
    request: HttpRequest,
    query: Query<RoundQuery>,
) -> Result<HttpResponse, ApiError> {
    round_pgn_for(&state, &request, &query, Audience::Full).await
}

/// Follow a game as broadcast to the public.
///
/// As `GET /v1/games/{id}/stream`, but only events older than the broadcast delay, and never
/// touches or arbiter's warnings; claims, rulings, penalties, clock adjustments, illegal moves
/// and appeals are sent only when they come after the game's end (the broadcast PGN shows the
/// earlier ones once the game has ended). A game whose creation is not yet older than the
/// delay starts with its snapshot when it is.
#[utoipa::path(
    tag = "streams",
    security(("bearer" = []), ()),
    params(
        ("id" = Uuid, Path, description = "The game's id."),
        ("Last-Event-ID" = Option<String>, Header, pattern = r"^([0-9]{1,19})?$", description = "The `id` of the last message received (a `seq`): resume after it. Empty or absent: start with a snapshot."),
    ),
    responses(
        (status = 200, description = "The event stream: Server-Sent Events, each with `id`, `event` and JSON `data` lines.", content_type = "text/event-stream"),
        (status = 204, description = "The game has ended and nothing is new after Last-Event-ID."),
        (status = 400, description = "The id is not a UUID, or Last-Event-ID is not a seq.", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid bearer token (needed unless the service runs with --public-broadcast).", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/stream")]
pub async fn public_game_stream(
    state: web::Data<AppState>,
    _reader: BroadcastReader,
    request: HttpRequest,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    game_stream_for(&state, &request, id.into_inner(), Audience::Public).await
}

/// Follow a round as broadcast to the public.
///
/// As `GET /v1/rounds/stream`, with the public's delay and filter (see the public game
/// stream).
#[utoipa::path(
    tag = "streams",
    security(("bearer" = []), ()),
    params(
        RoundQuery,
        ("Last-Event-ID" = Option<String>, Header, pattern = r"^([0-9]{1,19}-[0-9]{1,19})?$", description = "The `id` of the last message received (`TXID-POSITION`): resume after it. Empty or absent: start with a snapshot of every game."),
    ),
    responses(
        (status = 200, description = "The event stream: Server-Sent Events, each with `id`, `event` and JSON `data` lines.", content_type = "text/event-stream"),
        (status = 400, description = "A query parameter or Last-Event-ID is wrong.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No game has this event and round.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/rounds/stream")]
pub async fn public_round_stream(
    state: web::Data<AppState>,
    _reader: BroadcastReader,
    request: HttpRequest,
    query: Query<RoundQuery>,
) -> Result<HttpResponse, ApiError> {
    round_stream_for(&state, &request, &query, Audience::Public).await
}

/// A round's games as one PGN, as broadcast to the public.
///
/// As `GET /v1/rounds/pgn`, over the events older than the broadcast delay: no touches or
/// warnings; comments on claims, rulings, penalties and illegal moves once the game has
/// ended. A game whose creation is not yet older than the delay is left out.
#[utoipa::path(
    tag = "streams",
    security(("bearer" = []), ()),
    params(
        RoundQuery,
        ("If-None-Match" = Option<String>, Header, description = "The ETag of the copy the client holds."),
    ),
    responses(
        (status = 200, description = "The PGN.", body = inline(super::contract::PgnFile), content_type = "application/x-chess-pgn",
            headers(("ETag" = String, description = "Changes with any change the public can see."))),
        (status = 304, description = "Nothing has changed since the ETag sent.",
            headers(("ETag" = String, description = "The current ETag."))),
        (status = 400, description = "A query parameter is wrong.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No game has this event and round.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/rounds/pgn")]
pub async fn public_round_pgn(
    state: web::Data<AppState>,
    _reader: BroadcastReader,
    request: HttpRequest,
    query: Query<RoundQuery>,
) -> Result<HttpResponse, ApiError> {
    round_pgn_for(&state, &request, &query, Audience::Public).await
}

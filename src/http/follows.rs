//! Following a round's electronic boards: set, read and stop a round's board feed, and
//! decide what the feed said that needs the arbiter. The back office calls the same
//! [`crate::app::follower`] service.

use super::auth::Caller;
use super::body::{json_object, read_limited};
use super::error::{ApiError, Problem};
use super::tournaments::tournament_not_found;
use crate::app::commands::decode_at;
use crate::app::follower::{ArbiterChoice, Decided, FollowError};
use crate::problem::RequestCode;
use crate::state::AppState;
use crate::store::{FeedKind, FollowAttention, RoundFollow, TakebackPolicy};
use crate::tournament;
use actix_web::{delete, get, post, put, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

impl From<FollowError> for ApiError {
    fn from(error: FollowError) -> Self {
        match error {
            FollowError::Store(store) => store.into(),
            FollowError::Record(record) => record.into(),
            FollowError::NotOpen(message) => {
                ApiError::conflict(RequestCode::RequestRefused, message)
            }
            FollowError::Choice(message) => ApiError::invalid_field("choice", message),
            FollowError::Source(message) => ApiError::unprocessable(
                RequestCode::RequestRefused,
                format!("The board feed failed: {message}"),
            ),
            FollowError::NoTournament(id) => tournament_not_found(id),
        }
    }
}

/// What to follow.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "dgt_json", "url": "https://live.example.org/round-5/"}))]
pub struct FollowRequest {
    /// The feed's kind.
    pub kind: FeedKind,
    /// The round's URL: for `dgt_json`, the folder of `index.json` (board N is
    /// `game-N.json` beside it); for `pgn`, the round's PGN file (board N is the game whose
    /// `Board` tag is N, or whose `Round` tag is `R.N`, or the N-th game). `http://` or
    /// `https://`.
    #[schema(max_length = 2000, pattern = r"^https?://[^\s\x00-\x1F\x7F]+$")]
    pub url: String,
    /// Whether to follow it now (default true).
    #[serde(default)]
    pub enabled: Option<bool>,
    /// Who applies a takeback the board shows when nothing the arbiter entered stands on the
    /// moves taken back: `by_feed` (default: the follower retracts them and shows a
    /// `corrected_by_feed` notice the arbiter may undo) or `by_arbiter` (every takeback
    /// waits). A takeback touching a ruling, claim, offer, result or arbiter's entry always
    /// waits.
    #[serde(default)]
    pub takebacks: Option<TakebackPolicy>,
}

/// A round's follow setting, how its last poll went, and what needs the arbiter.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct FollowView {
    /// The setting and the last poll.
    pub follow: RoundFollow,
    /// Whether its follower runs in this instance.
    pub running: bool,
    /// The open attentions of its boards ("needs the arbiter"), by board. A board has at
    /// most one attention that needs the arbiter and, beside it, at most one notice of a
    /// takeback the board feed applied (`corrected_by_feed`); each is decided on its own.
    pub attentions: Vec<FollowAttention>,
}

/// The arbiter's decision on an attention.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"choice": "accept_correction"}))]
pub struct DecisionRequest {
    /// What to do.
    pub choice: ArbiterChoice,
}

async fn view(state: &AppState, follow: RoundFollow) -> Result<FollowView, ApiError> {
    let attentions = state.store.open_attentions(follow.follow_id).await?;
    Ok(FollowView {
        running: state.followers.is_running(follow.follow_id),
        follow,
        attentions,
    })
}

fn no_follow(round: &str) -> ApiError {
    ApiError::not_found(
        RequestCode::RoundNotFound,
        format!(
            "Round {round} of this tournament follows no board feed; PUT a feed to \
             /v1/tournaments/{{id}}/rounds/{round}/follow to follow one."
        ),
    )
}

/// Follow a round's board feed.
///
/// The follower polls the feed every few seconds (`--follow-poll-ms`) and records each new
/// legal move of each board with its clock reading through the engine, with event ids derived
/// from the feed; what the engine refuses becomes an attention for the arbiter. Setting it
/// again changes it in place (its id, and so its event ids, stay). The setting is stored:
/// the service resumes it when it starts.
#[utoipa::path(
    tag = "tournaments",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The tournament's id."),
        ("round" = String, Path, description = "The round, e.g. `5`.", max_length = 20, pattern = r"^[^\s/.\x00-\x1F\x7F-\x9F]([^/\x00-\x1F\x7F-\x9F]{0,18}[^\s/\x00-\x1F\x7F-\x9F])?$"),
    ),
    request_body = FollowRequest,
    responses(
        (status = 200, description = "The round is followed (or the setting changed).", body = FollowView),
        (status = 400, description = "The body is not JSON, or the id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter token for this event.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament, or the round has no games.", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field is wrong; `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[put("/tournaments/{id}/rounds/{round}/follow")]
pub async fn set_follow(
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<(Uuid, String)>,
    payload: web::Payload,
) -> Result<web::Json<FollowView>, ApiError> {
    let (id, round) = path.into_inner();
    tournament::check_round(&round)?;
    let body = read_limited(
        payload,
        16 * 1024,
        "Send only the fields of the setting or the decision.",
    )
    .await?;
    let request: FollowRequest = decode_at(serde_json::Value::Object(json_object(&body)?), "")?;
    let url = request.url.trim();
    if !(url.starts_with("http://") || url.starts_with("https://"))
        || url.len() > 2000
        || url.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(ApiError::invalid_field(
            "url",
            "The feed's URL must be an http:// or https:// URL without spaces or control characters (at most 2000 \
             characters), e.g. https://live.example.org/round-5/ for a DGT LiveChess round.",
        ));
    }
    let tournament = state
        .store
        .tournament(id)
        .await?
        .ok_or_else(|| tournament_not_found(id))?;
    caller.0.may_create_game(&tournament.settings.name)?;
    state
        .followers
        .check_source(url)
        .await
        .map_err(|refused| ApiError::invalid_field("url", refused))?;
    if !state
        .store
        .round_exists(&tournament.settings.name, &round)
        .await?
    {
        return Err(ApiError::not_found(
            RequestCode::RoundNotFound,
            format!(
                "Round {round} of {} has no games yet: load its pairings first (POST \
                 /v1/tournaments/{id}/rounds/{round}/pairings); board N of the pairings \
                 follows the feed's game-N.json.",
                tournament.settings.name
            ),
        ));
    }
    let enabled = request.enabled.unwrap_or(true);
    let follow = state
        .store
        .set_round_follow(
            id,
            &round,
            request.kind,
            url,
            enabled,
            request.takebacks.unwrap_or_default(),
            &caller.0.recorder(),
        )
        .await?;
    if enabled {
        state.followers.start(follow.follow_id);
    } else {
        state.followers.stop(follow.follow_id);
    }
    Ok(web::Json(view(&state, follow).await?))
}

/// Read a round's board feed: the setting, its last poll, and what needs the arbiter.
#[utoipa::path(
    tag = "tournaments",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The tournament's id."),
        ("round" = String, Path, description = "The round, e.g. `5`.", max_length = 20, pattern = r"^[^\s/.\x00-\x1F\x7F-\x9F]([^/\x00-\x1F\x7F-\x9F]{0,18}[^\s/\x00-\x1F\x7F-\x9F])?$"),
    ),
    responses(
        (status = 200, description = "The round's follow.", body = FollowView),
        (status = 400, description = "The id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament, or the round follows no feed.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The round's name is not one a round can have; `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tournaments/{id}/rounds/{round}/follow")]
pub async fn get_follow(
    state: web::Data<AppState>,
    _caller: Caller,
    path: web::Path<(Uuid, String)>,
) -> Result<web::Json<FollowView>, ApiError> {
    let (id, round) = path.into_inner();
    tournament::check_round(&round)?;
    state
        .store
        .tournament(id)
        .await?
        .ok_or_else(|| tournament_not_found(id))?;
    let follow = state
        .store
        .round_follow(id, &round)
        .await?
        .ok_or_else(|| no_follow(&round))?;
    Ok(web::Json(view(&state, follow).await?))
}

/// Stop following a round's board feed (the setting is kept, disabled; what was recorded
/// stays recorded).
#[utoipa::path(
    tag = "tournaments",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The tournament's id."),
        ("round" = String, Path, description = "The round, e.g. `5`.", max_length = 20, pattern = r"^[^\s/.\x00-\x1F\x7F-\x9F]([^/\x00-\x1F\x7F-\x9F]{0,18}[^\s/\x00-\x1F\x7F-\x9F])?$"),
    ),
    responses(
        (status = 200, description = "The round is no longer followed.", body = FollowView),
        (status = 400, description = "The id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter token for this event.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament, or the round follows no feed.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The round's name is not one a round can have; `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/tournaments/{id}/rounds/{round}/follow")]
pub async fn stop_follow(
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<(Uuid, String)>,
) -> Result<web::Json<FollowView>, ApiError> {
    let (id, round) = path.into_inner();
    tournament::check_round(&round)?;
    let tournament = state
        .store
        .tournament(id)
        .await?
        .ok_or_else(|| tournament_not_found(id))?;
    caller.0.may_create_game(&tournament.settings.name)?;
    let follow = state
        .store
        .stop_round_follow(id, &round, &caller.0.recorder())
        .await?
        .ok_or_else(|| no_follow(&round))?;
    state.followers.stop(follow.follow_id);
    Ok(web::Json(view(&state, follow).await?))
}

/// Decide what a board's feed said that needs the arbiter.
///
/// `accept_correction` (a move taken back, a line that no longer extends the stored one):
/// the stored line is corrected to the board's by `correction` events (a takeback is a
/// correction, never a branch), then the board's moves are recorded. `record_illegal_move`:
/// the board's move is recorded as an `illegal_move`. `record_result`: the proposed result is
/// recorded as the arbiter's decision ending the game. `ignore`: nothing is recorded. What
/// the feed said and the engine's reason are kept in the text of the events recorded, and
/// the attention keeps who decided what.
#[utoipa::path(
    tag = "tournaments",
    security(("bearer" = [])),
    params(("attention_id" = Uuid, Path, description = "The attention's id.")),
    request_body = DecisionRequest,
    responses(
        (status = 200, description = "Decided.", body = Decided),
        (status = 400, description = "The body is not JSON, or the id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter token for this event.", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The attention is not open (decided already, or cleared by the feed), or the log moved on meanwhile.", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The choice does not fit the attention, or the engine refuses what it records.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/follow-attentions/{attention_id}/decision")]
pub async fn decide_attention(
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<Uuid>,
    payload: web::Payload,
) -> Result<web::Json<Decided>, ApiError> {
    let attention_id = path.into_inner();
    let body = read_limited(
        payload,
        16 * 1024,
        "Send only the fields of the setting or the decision.",
    )
    .await?;
    let request: DecisionRequest = decode_at(serde_json::Value::Object(json_object(&body)?), "")?;
    let decided = state
        .followers
        .decide(attention_id, request.choice, &caller.0)
        .await?;
    Ok(web::Json(decided))
}

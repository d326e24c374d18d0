//! Players' statuses (issue 35, item 6) and the tournament's own log: record a withdrawal, an
//! expulsion, a requested bye or a late entry, and read every entry with who and when.

use super::auth::Caller;
use super::body::{json_object, read_limited};
use super::error::{ApiError, Problem};
use super::tournaments::tournament_not_found;
use crate::app::commands::decode_at;
use crate::app::player_status::{self, StatusError};
use crate::state::AppState;
use crate::tournament_log::{LoggedEntry, PlayerStatus};
use actix_web::{HttpResponse, get, post, web};
use uuid::Uuid;

impl From<StatusError> for ApiError {
    fn from(error: StatusError) -> Self {
        match error {
            StatusError::Invalid(problem) => {
                ApiError::invalid_field(problem.field, problem.message)
            }
            StatusError::Report(report) => report.into(),
        }
    }
}

/// Record a player's status.
///
/// A withdrawal or an expulsion from a round on, a half-point or zero-point bye the player
/// asked for in a coming round, or a late entry, with the reason: appended to the tournament's
/// log with who recorded it and when (never changed afterwards). The rounds the player does
/// not play take their codes from it in the TRF export and the standings (`Z` after a
/// withdrawal or an expulsion and before a late entry, `H` or `Z` for a requested bye), and
/// the TRF26 export's trail writes it as a `### Player status` line. Players are named by
/// their start rank in the report.
#[utoipa::path(
    tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The tournament's id.")),
    request_body = PlayerStatus,
    responses(
        (status = 201, description = "The status, as logged (a late entrant with its start rank).", body = LoggedEntry),
        (status = 400, description = "The body is not JSON, or the id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter token for this event.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament.", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field is wrong (no such start rank, a round the player already has a game in, no reason); `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tournaments/{id}/players/status")]
pub async fn record_player_status(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<Uuid>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let body = read_limited(payload, 16 * 1024, "Send one player's status.").await?;
    let status: PlayerStatus = decode_at(serde_json::Value::Object(json_object(&body)?), "")?;
    let tournament = state
        .store
        .tournament(id)
        .await?
        .ok_or_else(|| tournament_not_found(id))?;
    caller.0.may_create_game(&tournament.settings.name)?;
    let logged = player_status::record(
        &state.arbitration,
        &tournament,
        status,
        &caller.0.recorder(),
    )
    .await?;
    Ok(HttpResponse::Created().json(logged))
}

/// Read the tournament's own log.
///
/// Every entry in the order recorded, with who and when: the reports exported (the rounds
/// each carried complete), the pairings loaded, the settings changed, the players' statuses.
#[utoipa::path(
    tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The tournament's id.")),
    responses(
        (status = 200, description = "The entries, oldest first.", body = Vec<LoggedEntry>),
        (status = 400, description = "The id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tournaments/{id}/log")]
pub async fn tournament_log(
    state: web::Data<AppState>,
    _caller: Caller,
    id: web::Path<Uuid>,
) -> Result<web::Json<Vec<LoggedEntry>>, ApiError> {
    let id = id.into_inner();
    state
        .store
        .tournament(id)
        .await?
        .ok_or_else(|| tournament_not_found(id))?;
    Ok(web::Json(state.store.tournament_log(id).await?))
}

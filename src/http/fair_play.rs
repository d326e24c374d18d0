//! The fair-play routes (issue 23), for holders of the `fair_play` capability only: any other
//! caller is answered 404 `no_such_route`, exactly as for a route that does not exist, so
//! that not even the existence of fair-play records leaks.

use super::auth::Caller;
use super::body::{json_object, read_limited};
use super::error::{ApiError, Problem};
use crate::app::commands::{take_optional, take_required};
use crate::app::fair_play::{
    self, FairPlayAudit, FairPlayError, FairPlayItem, FairPlayRecorded, Placement,
};
use crate::game::fair_play::FairPlayRecord;
use crate::problem::RequestCode;
use crate::state::AppState;
use crate::store::FairPlayAccess;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// The body of `POST /v1/games/{id}/fair-play`.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"record": {
    "arbiter": "Chief arbiter", "at": "2026-05-03T15:20:00Z", "player": "black",
    "witnesses": ["Deputy arbiter"],
    "fact": {"type": "device_found", "device": "phone", "location": "on_person",
             "switched_on": true, "found_by": "sound", "seized": true}
}}))]
pub struct FairPlayRequest {
    /// The record.
    pub record: FairPlayRecord,
    /// The client's id for the event. A request sent again with the same id and the same
    /// record (after an answer was lost) is answered 200 with what the first one stored, and
    /// nothing is stored twice; the same id with another record is refused 409
    /// `event_id_reused`. Without it the service makes one, and a resent request is stored
    /// again.
    #[serde(default)]
    pub event_id: Option<Uuid>,
    /// The game's last `seq` as the client saw it, if it wants the record refused (409
    /// `stale_seq`, with `current_seq`) when other events were recorded first.
    #[serde(default)]
    pub expected_seq: Option<u64>,
}

/// The game's fair-play events.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct FairPlayList {
    /// In `seq` order.
    pub items: Vec<FairPlayItem>,
}

/// Who read the game's fair-play events.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct FairPlayAccessLog {
    /// Oldest first.
    pub items: Vec<FairPlayAccess>,
}

/// The 404 of a caller without the capability: the same as for a route that does not exist.
fn hidden(request: &HttpRequest) -> ApiError {
    ApiError::not_found(
        RequestCode::NoSuchRoute,
        format!(
            "There is no {} {} route. The routes are listed at /docs and in \
             /api-docs/openapi.json.",
            request.method(),
            request.path()
        ),
    )
}

fn problem(request: &HttpRequest, error: FairPlayError) -> ApiError {
    match error {
        FairPlayError::NotFound => hidden(request),
        FairPlayError::Field(field) => ApiError::invalid_field(
            field.field,
            format!("{} Nothing was stored.", field.message),
        ),
        FairPlayError::Denied(denied) => denied.into(),
        FairPlayError::Record(record) => record.into(),
        FairPlayError::Store(store) => store.into(),
    }
}

/// Record a fair-play event (restricted).
///
/// Needs the `fair_play` capability. The record is checked (422 naming the field), ruled on by
/// the Laws of the game's edition (11.3.2, 11.3.2.2, 11.3.3, 11.4, 12.9), sealed in the
/// restricted table, and its public row (the payload's SHA-256; the loser and the article when
/// the ruling ends the game) appended to the game's log with the `game_ended` it causes. A
/// Fair Play Officer's record is a proposal: no ruling follows until the chief arbiter records
/// a `proposal_confirmed`.
#[utoipa::path(
    tag = "fair play",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    request_body = FairPlayRequest,
    responses(
        (status = 201, description = "Recorded.", body = FairPlayRecorded),
        (status = 200, description = "A retry: this `event_id` was stored already with this same record; the stored event is answered and nothing is stored.", body = FairPlayRecorded),
        (status = 400, description = "The body is not JSON.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The capability's role may not do this (an FPO confirming a proposal).", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such route for this caller (no `fair_play` capability), or no such game.", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`expected_seq` is stale (`current_seq` says where the log is), or another event was recorded at the same time (send it again), or the `event_id` is stored already with another record or elsewhere (`event_id_reused`).", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field is wrong; `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/fair-play")]
pub async fn record_fair_play(
    state: web::Data<AppState>,
    caller: Caller,
    request: HttpRequest,
    id: web::Path<Uuid>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    if caller.0.fair_play.is_none() {
        return Err(hidden(&request));
    }
    let body = read_limited(
        payload,
        state.limits.body_bytes,
        "Send the evidence file on its own request, or a smaller copy of it (its SHA-256 \
         names the original).",
    )
    .await?;
    let mut object = json_object(&body)?;
    let record: FairPlayRecord = take_required(&mut object, "record", "")?;
    let placement = Placement {
        event_id: take_optional(&mut object, "event_id", "")?,
        expected_seq: take_optional(&mut object, "expected_seq", "")?,
    };
    if let Some(unknown) = object.keys().next() {
        return Err(ApiError::invalid_field(
            unknown.clone(),
            format!(
                "Unknown field `{unknown}`; the body has `record`, and optionally `event_id` \
                 and `expected_seq`."
            ),
        ));
    }
    let recorded = fair_play::record(
        &state.arbitration,
        id.into_inner(),
        &caller.0,
        record,
        placement,
    )
    .await
    .map_err(|e| problem(&request, e))?;
    if recorded.newly_stored {
        Ok(HttpResponse::Created().json(recorded))
    } else {
        Ok(HttpResponse::Ok().json(recorded))
    }
}

/// The game's fair-play events (restricted); the read is logged.
#[utoipa::path(
    tag = "fair play",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    responses(
        (status = 200, description = "The events with their payloads.", body = FairPlayList),
        (status = 400, description = "The id is not a UUID, or the seq not a number of at least 1.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such route for this caller, or no such game.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/fair-play")]
pub async fn list_fair_play(
    state: web::Data<AppState>,
    caller: Caller,
    request: HttpRequest,
    id: web::Path<Uuid>,
) -> Result<web::Json<FairPlayList>, ApiError> {
    let items = fair_play::list(&state.arbitration, id.into_inner(), &caller.0)
        .await
        .map_err(|e| problem(&request, e))?;
    Ok(web::Json(FairPlayList { items }))
}

/// Who read the game's fair-play events, when and what (restricted).
#[utoipa::path(
    tag = "fair play",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    responses(
        (status = 200, description = "The access log.", body = FairPlayAccessLog),
        (status = 400, description = "The id is not a UUID, or the seq not a number of at least 1.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such route for this caller, or no such game.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/fair-play/access")]
pub async fn fair_play_access(
    state: web::Data<AppState>,
    caller: Caller,
    request: HttpRequest,
    id: web::Path<Uuid>,
) -> Result<web::Json<FairPlayAccessLog>, ApiError> {
    let items = fair_play::access_log(&state.arbitration, id.into_inner(), &caller.0)
        .await
        .map_err(|e| problem(&request, e))?;
    Ok(web::Json(FairPlayAccessLog { items }))
}

/// Audit the game's fair-play records (restricted): every sealed payload against the hash in
/// the chain, every evidence file against its SHA-256; a fault names the event.
#[utoipa::path(
    tag = "fair play",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    responses(
        (status = 200, description = "The audit.", body = FairPlayAudit),
        (status = 400, description = "The id is not a UUID, or the seq not a number of at least 1.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such route for this caller, or no such game.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/fair-play/audit")]
pub async fn audit_fair_play(
    state: web::Data<AppState>,
    caller: Caller,
    request: HttpRequest,
    id: web::Path<Uuid>,
) -> Result<web::Json<FairPlayAudit>, ApiError> {
    let audit = fair_play::audit(&state.arbitration, id.into_inner(), &caller.0)
        .await
        .map_err(|e| problem(&request, e))?;
    Ok(web::Json(audit))
}

/// One fair-play event (restricted); the read is logged.
#[utoipa::path(
    tag = "fair play",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The game's id."),
        ("seq" = u64, Path, description = "The event's `seq`.")
    ),
    responses(
        (status = 200, description = "The event with its payload.", body = FairPlayItem),
        (status = 400, description = "The id is not a UUID, or the seq not a number of at least 1.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such route for this caller, or no such game or fair-play event.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/fair-play/{seq}")]
pub async fn read_fair_play(
    state: web::Data<AppState>,
    caller: Caller,
    request: HttpRequest,
    path: web::Path<(Uuid, u64)>,
) -> Result<web::Json<FairPlayItem>, ApiError> {
    let (game_id, seq) = path.into_inner();
    let item = fair_play::read(&state.arbitration, game_id, seq, &caller.0)
        .await
        .map_err(|e| problem(&request, e))?;
    Ok(web::Json(item))
}

/// The evidence file of an `evidence_added` (restricted); the download is logged.
///
/// The bytes as stored, with the media type recorded, `Content-Disposition: attachment` with
/// the file's name, and its SHA-256 (hex) in `X-Content-SHA256`, so that the reader can
/// check the file against the payload's `sha256`.
#[utoipa::path(
    tag = "fair play",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The game's id."),
        ("seq" = u64, Path, description = "The `seq` of the `evidence_added`.")
    ),
    responses(
        (status = 200, description = "The file, with the media type recorded.", body = inline(super::contract::EvidenceFileBody), content_type = "application/octet-stream"),
        (status = 400, description = "The id is not a UUID, or the seq not a number of at least 1.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such route for this caller (no `fair_play` capability), or no such game, no `evidence_added` at that seq, or no file stored for it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/fair-play/{seq}/evidence")]
pub async fn fair_play_evidence(
    state: web::Data<AppState>,
    caller: Caller,
    request: HttpRequest,
    path: web::Path<(Uuid, u64)>,
) -> Result<HttpResponse, ApiError> {
    let (game_id, seq) = path.into_inner();
    let file = fair_play::evidence(&state.arbitration, game_id, seq, &caller.0)
        .await
        .map_err(|e| problem(&request, e))?;
    let name: String = file
        .file_name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' {
                c
            } else {
                '_'
            }
        })
        .collect();
    Ok(HttpResponse::Ok()
        .content_type(file.media_type.as_str())
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"{name}\""),
        ))
        .insert_header(("X-Content-SHA256", file.sha256))
        .insert_header(("Cache-Control", "no-store"))
        .body(file.content))
}

/// The chief arbiter's fair-play report of a tournament (restricted), as JSON: the measures
/// in force, the count of checks, the incidents with their rulings, the complaints and
/// referrals, every fair-play event, and the deadline (the last day plus the regulations'
/// `fair_play_report_days`) with its status as of today. The read is logged.
#[utoipa::path(
    tag = "fair play",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The tournament's id.")),
    responses(
        (status = 200, description = "The report.", body = fair_play::FairPlayReport),
        (status = 400, description = "The id is not a UUID, or the seq not a number of at least 1.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such route for this caller, or no such tournament.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tournaments/{id}/fair-play-report")]
pub async fn fair_play_report(
    state: web::Data<AppState>,
    caller: Caller,
    request: HttpRequest,
    id: web::Path<Uuid>,
) -> Result<web::Json<fair_play::FairPlayReport>, ApiError> {
    if caller.0.fair_play.is_none() {
        return Err(hidden(&request));
    }
    let tournament = state
        .store
        .tournament(id.into_inner())
        .await?
        .ok_or_else(|| hidden(&request))?;
    let report = fair_play::report(
        &state.arbitration,
        &tournament.settings.name,
        &caller.0,
        chrono::Utc::now().date_naive(),
    )
    .await
    .map_err(|e| problem(&request, e))?;
    Ok(web::Json(report))
}

//! Tamper evidence anyone can check: a game's chain head (digest) and its whole log as JSON
//! Lines (export), which `arbiter verify FILE --digest-seq N --digest-hash H` re-checks
//! offline.

use super::auth::Caller;
use super::error::{ApiError, Problem};
use crate::integrity::ChainDigest;
use crate::request::Reads;
use crate::store::StoreError;
use actix_web::{HttpResponse, get, web};
use uuid::Uuid;

/// The media type of an export.
pub const JSON_LINES: &str = "application/x-ndjson";

/// The chain head of a game.
///
/// Publish or note it (e.g. in the round's report): any later copy of the log can be checked
/// against it offline.
#[utoipa::path(
    tag = "integrity",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    responses(
        (status = 200, description = "The last seq and its hash.", body = ChainDigest),
        (status = 400, description = "The id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/digest")]
pub async fn digest(
    _caller: Caller,
    reads: Reads,
    id: web::Path<Uuid>,
) -> Result<web::Json<ChainDigest>, ApiError> {
    let game_id = id.into_inner();
    let (seq, hash) = reads
        .chain_head(game_id)
        .await?
        .ok_or(StoreError::GameNotFound(game_id))?;
    Ok(web::Json(ChainDigest { game_id, seq, hash }))
}

/// The game's whole log as JSON Lines.
///
/// One event envelope per line, in `seq` order, exactly as `GET /v1/games/{id}/events` gives
/// them. `arbiter verify FILE` checks it without a database.
#[utoipa::path(
    tag = "integrity",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    responses(
        (status = 200, description = "One event envelope (as in EventEnvelope) per line.", body = String, content_type = "application/x-ndjson"),
        (status = 400, description = "The id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/export")]
pub async fn export(
    _caller: Caller,
    reads: Reads,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let game_id = id.into_inner();
    let events = reads.game_log(game_id).await?;
    let mut body = String::new();
    for envelope in &events {
        let line = serde_json::to_string(envelope).map_err(|e| ApiError::internal(e.into()))?;
        body.push_str(&line);
        body.push('\n');
    }
    Ok(HttpResponse::Ok()
        .content_type(JSON_LINES)
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"game-{game_id}.jsonl\""),
        ))
        .body(body))
}

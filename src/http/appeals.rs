//! What appeals committees and the chief arbiter read: the distinct positions of a game,
//! the audit that re-runs every decision, decisions across games, and the PGN.

use super::auth::Caller;
use super::error::{ApiError, Problem};
use super::query::{AtSeqQuery, Query, check_query_text, page_limit};
use crate::app::arbitration::AuditReport;
use crate::game::PositionOccurrences;
use crate::game::event::DECISION_TYPES;
use crate::interchange::pgn_export::export_pgn;
use crate::problem::RequestCode;
use crate::request::Reads;
use crate::state::AppState;
use crate::store::{RulingFilter, RulingPage, StoreError};
use actix_web::{HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

/// The distinct positions of a game.
#[derive(Debug, Serialize, ToSchema)]
pub struct PositionsResponse {
    /// The `seq` the log was folded to.
    pub as_of_seq: u64,
    /// Every distinct position (FIDE identity, 9.2.3) with the plies where it stood.
    pub positions: Vec<PositionOccurrences>,
}

/// Every distinct position of the game with the plies where it occurred.
///
/// What an arbiter acts out on a second board to check a repetition claim. Positions are
/// the same under 9.2.3: same player to move, same pieces on the same squares, same castling
/// rights, and an en passant capture only where it is legal.
#[utoipa::path(
    tag = "appeals",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id."), AtSeqQuery),
    responses(
        (status = 200, description = "The positions.", body = PositionsResponse),
        (status = 400, description = "The id is not a UUID, or at_seq is not a number of at least 1.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game, or at_seq beyond the log.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/positions")]
pub async fn positions(
    state: web::Data<AppState>,
    _caller: Caller,
    reads: Reads,
    id: web::Path<Uuid>,
    query: Query<AtSeqQuery>,
) -> Result<web::Json<PositionsResponse>, ApiError> {
    let (game, as_of_seq) = state
        .arbitration
        .state_at_on(&reads, id.into_inner(), query.checked()?)
        .await?;
    Ok(web::Json(PositionsResponse {
        as_of_seq,
        positions: game.positions(),
    }))
}

/// Audit a game: re-run the engine on the prefix of every stored decision.
///
/// For each recorded event that caused decisions, the engine decides again on the log as it
/// stood before it, and the result is compared with what was stored (both versions are shown
/// where they differ). The hash chain is verified too. `verdict` is `reproduced` (the chain
/// verifies and every decision decides the same; a different citation, wording or evidence is
/// a note), `ruled_differently` (the chain verifies but today's engine decides some decision
/// differently from the version that stored it) or `tampered` (the chain does not verify).
#[utoipa::path(
    tag = "appeals",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    responses(
        (status = 200, description = "The audit.", body = AuditReport),
        (status = 400, description = "The id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/audit")]
pub async fn audit(
    state: web::Data<AppState>,
    _caller: Caller,
    reads: Reads,
    id: web::Path<Uuid>,
) -> Result<web::Json<AuditReport>, ApiError> {
    Ok(web::Json(
        state.arbitration.audit_on(&reads, id.into_inner()).await?,
    ))
}

/// The game as PGN.
///
/// The seven-tag roster, `Result`, `Termination`, `TimeControl`, `[%clk]` comments where
/// the clock was read, and comments for offers, claims, rulings and penalties.
#[utoipa::path(
    tag = "records",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    responses(
        (status = 200, description = "The PGN.", body = inline(super::contract::PgnFile), content_type = "application/x-chess-pgn"),
        (status = 400, description = "The id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/pgn")]
pub async fn pgn(
    _caller: Caller,
    reads: Reads,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let game_id = id.into_inner();
    let events = reads.game_log(game_id).await?;
    let Some(first) = events.first() else {
        return Err(StoreError::GameNotFound(game_id).into());
    };
    let log = crate::app::arbitration::pgn_log(&events);
    let date = first.recorded_at.format("%Y.%m.%d").to_string();
    let text = export_pgn(&log, &date).map_err(|e| ApiError::internal(e.into()))?;
    Ok(HttpResponse::Ok()
        .content_type("application/x-chess-pgn")
        .body(text))
}

/// Filters of `GET /v1/rulings`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RulingsQuery {
    /// Only games of this event (exact name).
    #[param(max_length = 200, pattern = r"^[^\x00]*$")]
    pub event: Option<String>,
    /// Only games of this round.
    #[param(max_length = 200, pattern = r"^[^\x00]*$")]
    pub round: Option<String>,
    /// Only this kind of decision: `claim_ruled`, `penalty_applied`, `game_ended`,
    /// `arbiter_decision` or `appeal_decided`.
    #[param(schema_with = crate::game::event::decision_type_schema)]
    pub kind: Option<String>,
    /// Only decisions citing this article (e.g. `9.2.2`).
    #[param(max_length = 200, pattern = r"^[^\x00]*$")]
    pub article: Option<String>,
    /// Only this outcome: `upheld`/`rejected` (claims) or a result such as `1/2-1/2`.
    #[param(max_length = 200, pattern = r"^[^\x00]*$")]
    pub outcome: Option<String>,
    /// The `next` of the previous page.
    #[param(pattern = "^[0-9]{1,19}$")]
    pub after: Option<String>,
    /// Page size, 1 to 500 (default 100).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u64>,
    /// `true`: only decisions still standing. By default decisions retracted by a
    /// `correction` are listed too, marked with `retracted_by`.
    pub standing: Option<bool>,
}

/// Decisions across games.
///
/// For appeals committees and the chief arbiter's report: every claim ruling, penalty, game
/// end, arbiter decision and appeal decision, in the order stored, filtered. A decision a
/// `correction` retracted (a data-entry error undone) no longer stands: it carries
/// `retracted_by` (the correction's seq), and `standing=true` leaves it out.
#[utoipa::path(
    tag = "appeals",
    security(("bearer" = [])),
    params(RulingsQuery),
    responses(
        (status = 200, description = "A page of decisions.", body = RulingPage),
        (status = 400, description = "A query parameter is wrong; `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/rulings")]
pub async fn rulings(
    _caller: Caller,
    reads: Reads,
    query: Query<RulingsQuery>,
) -> Result<web::Json<RulingPage>, ApiError> {
    let query = query.into_inner();
    let limit = page_limit(query.limit, 100, 500)?;
    if let Some(kind) = &query.kind
        && !DECISION_TYPES.contains(&kind.as_str())
    {
        return Err(ApiError::bad_request(
            RequestCode::InvalidQuery,
            format!("`kind` must be one of {}.", DECISION_TYPES.join(", ")),
        )
        .with_field("kind"));
    }
    check_query_text("event", query.event.as_deref())?;
    check_query_text("round", query.round.as_deref())?;
    check_query_text("article", query.article.as_deref())?;
    check_query_text("outcome", query.outcome.as_deref())?;
    let after = match query.after.as_deref() {
        None => 0,
        Some(text) => text
            .parse::<i64>()
            .ok()
            .filter(|p| *p >= 0)
            .ok_or_else(|| {
                ApiError::bad_request(
                    RequestCode::InvalidCursor,
                    "`after` must be the `next` value of the previous page, unchanged.",
                )
                .with_field("after")
            })?,
    };
    let filter = RulingFilter {
        event: query.event,
        round: query.round,
        kind: query.kind,
        article: query.article,
        outcome: query.outcome,
        standing_only: query.standing.unwrap_or(false),
        after,
        limit,
    };
    Ok(web::Json(reads.rulings(&filter).await?))
}

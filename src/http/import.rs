//! `POST /v1/games/import`: a PGN file (one game or many) in, one report per game out. The
//! reading is `interchange::pgn_import`'s and the recording `import::Importer`'s; this
//! handler reads the body, checks the caller's role and renders the report.

use super::auth::Caller;
use super::error::{ApiError, Problem};
use super::query::Query;
use crate::app::import::{ImportReport, Importer};
use crate::interchange::pgn_import::read_games_with;
use crate::problem::RequestCode;
use crate::rules::time_control::tracker::{ClockBehaviour, IncrementCredit, PeriodTimeAdded};
use crate::state::AppState;
use actix_web::{HttpResponse, post, web};
use serde::Deserialize;
use utoipa::IntoParams;

/// The largest PGN body accepted, in bytes (a round of a big open fits many times over).
pub const IMPORT_BODY_BYTES: usize = 32 * 1024 * 1024;

/// The example of the OpenAPI document.
const EXAMPLE_PGN: &str = "[Event \"Open\"]\n[Site \"Tashkent\"]\n[Round \"6.1\"]\n[White \"Praggnanandhaa, R\"]\n[Black \"Rapport, R\"]\n[Result \"*\"]\n[TimeControl \"5400+30\"]\n\n1. d4 {[%clk 1:30:25]} Nf6 {[%clk 1:30:27]} *\n";

/// How the clocks of the imported games behaved, when their `[%clk]` readings do not show it.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ImportQuery {
    /// When the clocks added the next period's time (6.3.2): `at_control_press` (a clock that
    /// counts presses), `at_zero_both_clocks` (the DGT 3000 in its multi-period modes) or
    /// `at_zero_own_clock`. Used only for a game whose readings do not show it.
    pub period_time_added: Option<PeriodTimeAdded>,
    /// When the clocks credited the increment: `after_press`, or `before_move` (the DGT
    /// habit: the first increment is on the clock before move 1). Used only for a game whose
    /// readings do not show it.
    pub increment_credit: Option<IncrementCredit>,
}

impl ImportQuery {
    /// The clock behaviour the caller gave, if any part of it (the other part its default).
    fn given(&self) -> Option<ClockBehaviour> {
        (self.period_time_added.is_some() || self.increment_credit.is_some()).then(|| {
            ClockBehaviour {
                period_time_added: self.period_time_added.unwrap_or_default(),
                increment_credit: self.increment_credit.unwrap_or_default(),
            }
        })
    }
}

/// Import games from PGN.
///
/// Creates a game for every game of the PGN body (`application/x-chess-pgn`) and records
/// its moves with their `[%clk]` readings (the mover's clock after the move) through the
/// engine, in batches, as if an arbiter had recorded them. Tags become settings: `White`,
/// `Black`, `WhiteFideId`, `BlackFideId`, `Event`, `Site`, `Round` (`"r.b"` = round and
/// board; a `Board` tag wins), `TimeControl` (standard, rapid or blitz by the FIDE
/// definitions; absent or unknown: standard, 90 min + 30 s), `FEN`/`SetUp`. A record that
/// goes on past a legal end (mate, stalemate, fivefold, 75 moves, dead position) is stored up
/// to the end and `not_stored` gives the ply and the article. A `Result` not reached on the
/// board is recorded only when `Termination` says how (a time forfeit as a flag fall, a
/// resignation as a resignation); otherwise the game stays in progress and `notes` says so.
/// A game that cannot be read is reported with its index and the reason; the others are
/// imported. Game and event ids are UUID v5s of the content: the same file imported again
/// stores nothing new and answers `already_imported` per game.
///
/// The clock behaviour of each game (when the next period's time was added, when the
/// increment was credited) is read from its `[%clk]` readings where they show it (a DGT
/// 3000: an increment before move 1, no jump at the 40th move); where they do not, the query
/// parameters `period_time_added` and `increment_credit` give it (e.g. a round played on DGT
/// clocks whose broadcast has no readings), and otherwise the default clock is kept. The
/// game's `notes` say which.
#[utoipa::path(
    tag = "games",
    security(("bearer" = [])),
    params(ImportQuery),
    request_body(
        description = "One or more games in PGN, sent as a file. The body is read as PGN \
            whatever its `Content-Type` (`application/x-chess-pgn` and `text/plain` too).",
        content(
            (inline(super::contract::PgnFile) = "application/octet-stream", example = json!(EXAMPLE_PGN))
        )
    ),
    responses(
        (status = 200, description = "One report per game, in file order (some may be unreadable or failed).", body = ImportReport),
        (status = 400, description = "A query parameter is not one of its values (the parameter named).", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Importing needs an arbiter token.", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than 32 MiB.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The body holds no game.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/import")]
pub async fn import_games(
    state: web::Data<AppState>,
    caller: Caller,
    query: Query<ImportQuery>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let principal = caller.0;
    if principal.role != crate::access::Role::Arbiter {
        return Err(crate::access::Denied(format!(
            "Importing games needs an arbiter token; this one has the role `{}`.",
            principal.role.as_str()
        ))
        .into());
    }
    let body = super::body::read_limited(
        payload,
        IMPORT_BODY_BYTES,
        "Split the PGN file and send the parts one after the other (games already imported \
         are recognised).",
    )
    .await?;
    let games = read_games_with(body.as_slice(), query.given())
        .map_err(|e| ApiError::internal(e.into()))?;
    if games.is_empty() {
        return Err(ApiError::unprocessable(
            RequestCode::NoGames,
            "The body holds no PGN game. Send the games as PGN text (tag pairs such as \
             [White \"...\"], then the moves), with Content-Type: application/x-chess-pgn.",
        ));
    }
    let recorded_by = format!("PGN import by {}", principal.recorder());
    let report = Importer::new(state.arbitration.clone())
        .import(games, &recorded_by, |settings| {
            principal
                .may_create_game(&settings.event)
                .and_then(|()| principal.may_record("move", &settings.event))
                .map_err(|denied| denied.0)
        })
        .await;
    Ok(HttpResponse::Ok().json(report))
}

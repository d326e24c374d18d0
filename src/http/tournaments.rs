//! Tournaments: create, list, fetch and change an event's settings, and load a round's
//! pairings (a list, a CSV file or the round lines of a FIDE TRF-16 file) as games, and export
//! the tournament as a FIDE tournament report (TRF).
//! The back office calls the same [`crate::tournament`] functions.

use super::auth::Caller;
use super::body::{json_object, read_limited};
use super::error::{ApiError, Problem};
use super::query::Query;
use crate::app::commands::{decode_at, overrides_by_board, pairings_from};
use crate::app::rounds::{self, LoadError, RoundGame};
use crate::app::trail::{self, TrailError};
use crate::app::trf::{self, TrfError};
use crate::interchange::pairings::{Pairing, Unpaired};
use crate::interchange::trf::TrfVersion;
use crate::problem::RequestCode;
use crate::rules::tie_breaks::{TieBreak, UnplayedRounds};
use crate::state::AppState;
use crate::tournament::{self, GameOverrides, SettingsProblem, Tournament, TournamentSettings};
use actix_web::{HttpResponse, get, post, put, web};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;
use uuid::Uuid;

impl From<SettingsProblem> for ApiError {
    fn from(problem: SettingsProblem) -> Self {
        ApiError::invalid_field(problem.field, problem.message)
    }
}

impl From<LoadError> for ApiError {
    fn from(error: LoadError) -> Self {
        match error {
            LoadError::Invalid(problem) => problem.into(),
            LoadError::Conflict(message) => ApiError::conflict(RequestCode::RoundConflict, message),
            LoadError::Store(store) => store.into(),
        }
    }
}

/// The answer for an unknown tournament.
pub fn tournament_not_found(id: Uuid) -> ApiError {
    ApiError::not_found(
        RequestCode::TournamentNotFound,
        format!("No tournament with id {id} exists; GET /v1/tournaments lists them."),
    )
}

/// Create a tournament.
///
/// Its settings are what the games of its rounds are created with; a game's own settings are
/// recorded in its `game_created`, so changing the tournament later changes no game.
#[utoipa::path(
    tag = "tournaments",
    security(("bearer" = [])),
    request_body = TournamentSettings,
    responses(
        (status = 201, description = "The tournament.", body = Tournament),
        (status = 400, description = "The body is not JSON.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter token for this event.", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The name is taken.", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field is wrong; `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tournaments")]
pub async fn create_tournament(
    state: web::Data<AppState>,
    caller: Caller,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let body = read_limited(payload, 64 * 1024, "Send only the tournament's settings.").await?;
    let settings: TournamentSettings =
        decode_at(serde_json::Value::Object(json_object(&body)?), "")?;
    settings.validate()?;
    caller.0.may_create_game(&settings.name)?;
    let created = state
        .store
        .create_tournament(&settings, &caller.0.recorder())
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/v1/tournaments/{}", created.tournament_id),
        ))
        .json(created))
}

/// List tournaments, the latest first.
#[utoipa::path(
    tag = "tournaments",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Every tournament.", body = Vec<Tournament>),
    )
)]
#[get("/tournaments")]
pub async fn list_tournaments(
    state: web::Data<AppState>,
    _caller: Caller,
) -> Result<web::Json<Vec<Tournament>>, ApiError> {
    Ok(web::Json(state.store.tournaments().await?))
}

/// Fetch a tournament.
#[utoipa::path(
    tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The tournament's id.")),
    responses(
        (status = 200, description = "The tournament.", body = Tournament),
        (status = 400, description = "The id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tournaments/{id}")]
pub async fn get_tournament(
    state: web::Data<AppState>,
    _caller: Caller,
    id: web::Path<Uuid>,
) -> Result<web::Json<Tournament>, ApiError> {
    let id = id.into_inner();
    state
        .store
        .tournament(id)
        .await?
        .map(web::Json)
        .ok_or_else(|| tournament_not_found(id))
}

/// Change a tournament's settings.
///
/// Applies to games created afterwards; existing games keep the settings recorded in their
/// `game_created`. The name cannot change (the games are found by it).
#[utoipa::path(
    tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The tournament's id.")),
    request_body = TournamentSettings,
    responses(
        (status = 200, description = "The tournament as changed.", body = Tournament),
        (status = 400, description = "The body is not JSON, or the id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter token for this event.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament.", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field is wrong (or the name differs); `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[put("/tournaments/{id}")]
pub async fn update_tournament(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<Uuid>,
    payload: web::Payload,
) -> Result<web::Json<Tournament>, ApiError> {
    let id = id.into_inner();
    let body = read_limited(payload, 64 * 1024, "Send only the tournament's settings.").await?;
    let settings: TournamentSettings =
        decode_at(serde_json::Value::Object(json_object(&body)?), "")?;
    settings.validate()?;
    let existing = state
        .store
        .tournament(id)
        .await?
        .ok_or_else(|| tournament_not_found(id))?;
    caller.0.may_create_game(&existing.settings.name)?;
    if settings.name != existing.settings.name {
        return Err(ApiError::invalid_field(
            "name",
            format!(
                "The name of a tournament cannot change (its games carry it): keep `{}`, or \
                 create a new tournament.",
                existing.settings.name
            ),
        ));
    }
    state
        .store
        .update_tournament(id, &settings, &caller.0.recorder())
        .await?
        .map(web::Json)
        .ok_or_else(|| tournament_not_found(id))
}

/// The pairings of a round, in one of three forms (give exactly one).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"csv": "board,white,black,white_fide_id,black_fide_id\n1,\"Sokolova, Anna\",\"Okafor, Ben\",4100001,\n"}))]
pub struct LoadPairingsRequest {
    /// The boards as a list.
    #[serde(default)]
    pub pairings: Option<Vec<Pairing>>,
    /// A CSV file: a header row naming `board`, `white`, `black` and optionally
    /// `white_fide_id`, `black_fide_id`; comma, semicolon or tab separated.
    #[serde(default)]
    pub csv: Option<String>,
    /// A FIDE TRF-16 file (Swiss-Manager, Vega): the round's columns of the `001` player lines
    /// are read; the round in the path must be its number.
    #[serde(default)]
    pub trf: Option<String>,
    /// Settings of single games that differ from the tournament's, by board number.
    #[serde(default)]
    pub overrides: BTreeMap<String, GameOverrides>,
}

/// A loaded round.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LoadedRound {
    /// The tournament.
    pub tournament_id: Uuid,
    /// The event name the games carry.
    pub event: String,
    /// The round.
    pub round: String,
    /// The games, in board order.
    pub games: Vec<RoundGame>,
    /// Players of a TRF file without a board this round (byes).
    pub unpaired: Vec<Unpaired>,
    /// What the file's older conventions needed, line by line: what was kept in another form
    /// than written (`line 31: \`N0001\` ... is not a FIDE id; the player is loaded without
    /// one.`). Empty when the file was read as written.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// Load a round's pairings as games.
///
/// Creates one game per board with the tournament's settings (and the board's overrides).
/// Idempotent: game ids derive from the tournament, the round and the board, so loading the
/// same pairings again creates nothing (200); boards already created with other players are
/// refused (409) before anything is created.
#[utoipa::path(
    tag = "tournaments",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The tournament's id."),
        ("round" = String, Path, description = "The round, e.g. `5` (a TRF file's round number).", max_length = 20, pattern = r"^[^\s/.\x00-\x1F\x7F-\x9F]([^/\x00-\x1F\x7F-\x9F]{0,18}[^\s/\x00-\x1F\x7F-\x9F])?$"),
    ),
    request_body = LoadPairingsRequest,
    responses(
        (status = 201, description = "Games were created.", body = LoadedRound),
        (status = 200, description = "Every game existed already (the round was loaded before).", body = LoadedRound),
        (status = 400, description = "The body is not JSON, or the id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter token for this event.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament.", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Boards already hold other games; nothing was created.", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The pairings cannot be read; `field` names where.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tournaments/{id}/rounds/{round}/pairings")]
pub async fn load_pairings(
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<(Uuid, String)>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (id, round) = path.into_inner();
    tournament::check_round(&round)?;
    let body = read_limited(
        payload,
        state.limits.body_bytes,
        "Send one round's pairings: a list, a CSV of the round's boards, or a TRF file \
         (whose player lines are shorter once the rounds not loaded are left out).",
    )
    .await?;
    let request: LoadPairingsRequest =
        decode_at(serde_json::Value::Object(json_object(&body)?), "")?;
    let tournament = state
        .store
        .tournament(id)
        .await?
        .ok_or_else(|| tournament_not_found(id))?;
    caller.0.may_create_game(&tournament.settings.name)?;
    let read = pairings_from(
        &round,
        request.pairings,
        request.csv.as_deref(),
        request.trf.as_deref(),
    )?;
    let overrides = overrides_by_board(request.overrides)?;
    // The whole file is read before anything is stored: a load is all or nothing.
    let file = request
        .trf
        .as_deref()
        .map(|text| trf::round_file(&round, text))
        .transpose()?;
    let games = rounds::load_round(
        &state.store,
        &tournament,
        &round,
        &read.boards,
        &overrides,
        file.as_ref(),
        &caller.0.recorder(),
    )
    .await?;
    let status = if games.iter().any(|g| g.created) {
        actix_web::http::StatusCode::CREATED
    } else {
        actix_web::http::StatusCode::OK
    };
    Ok(HttpResponse::build(status).json(LoadedRound {
        tournament_id: id,
        event: tournament.settings.name,
        round,
        games,
        unpaired: read.unpaired,
        notes: read.notes,
    }))
}

/// The tie-breaks of a `tie_breaks` parameter, in order.
/// Exactly as the parameter's pattern says: C.07's abbreviations as
/// written there, comma-separated without spaces; empty for none.
fn tie_breaks_of(text: &str) -> Result<Vec<TieBreak>, ApiError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|code| {
            TieBreak::parse(code)
                .filter(|tie_break| tie_break.code() == code)
                .ok_or_else(|| {
                    ApiError::invalid_field(
                        "tie_breaks",
                        format!(
                            "`{code}` is not a tie-break this service computes; give some of {}, \
                         comma-separated, in order.",
                            TieBreak::codes()
                        ),
                    )
                })
        })
        .collect()
}

/// What standings to compute.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StandingsQuery {
    /// The tie-breaks that rank players on equal points, in order, as FIDE C.07 abbreviates
    /// them, comma-separated: `BH`, `BH/C1`, `BH/C2`, `BH/M1`, `BH/M2`, `SB`, `PS`, `KS`,
    /// `DE`, `WIN`, `WON`, `BPG`, `ARO`, `ARO/C1`. Absent: the tournament's `tie_breaks`;
    /// empty: none.
    #[param(
        pattern = r"^((BH|BH/C1|BH/C2|BH/M1|BH/M2|SB|PS|KS|DE|WIN|WON|BPG|ARO|ARO/C1)(,(BH|BH/C1|BH/C2|BH/M1|BH/M2|SB|PS|KS|DE|WIN|WON|BPG|ARO|ARO/C1))*)?$"
    )]
    pub tie_breaks: Option<String>,
    /// The standings after this round (1, 2, ...); all rounds when absent.
    #[param(minimum = 1, maximum = 1000)]
    pub round: Option<u32>,
}

/// The standings of a tournament.
#[derive(Debug, Serialize, ToSchema)]
pub struct StandingsPage {
    /// The round asked for; absent: the standings after every round with a pairing.
    pub after_round: Option<u32>,
    /// The tie-breaks applied, in order.
    pub tie_breaks: Vec<String>,
    /// The text of FIDE C.07 that governed unplayed rounds: the tournament's setting, else
    /// `2023` for events from 1 April 2024 (or without a first day), `before_2023` before.
    pub unplayed_rounds: UnplayedRounds,
    /// One line per player, by place.
    pub standings: Vec<trf::Standing>,
}

/// The standings after a round, with tie-breaks.
///
/// From the log as it stands now (a result changed on appeal as changed), with FIDE's default
/// scoring; players on equal points are ranked by the tie-breaks given, in order, and share a
/// place where those are equal too. The same ranks as the TRF export's rank column.
#[utoipa::path(
    tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The tournament's id."), StandingsQuery),
    responses(
        (status = 200, description = "The standings.", body = StandingsPage),
        (status = 400, description = "The id is not a UUID, or the round is not a number.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A tie-break this service does not compute, or round 0; `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tournaments/{id}/standings")]
pub async fn tournament_standings(
    state: web::Data<AppState>,
    _caller: Caller,
    id: web::Path<Uuid>,
    query: Query<StandingsQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let tournament = state
        .store
        .tournament(id)
        .await?
        .ok_or_else(|| tournament_not_found(id))?;
    let tie_breaks = match query.tie_breaks.as_deref() {
        Some(text) => tie_breaks_of(text)?,
        None => tournament.settings.tie_breaks.clone(),
    };
    if query
        .round
        .is_some_and(|round| !(1..=1000).contains(&round))
    {
        return Err(ApiError::invalid_field(
            "round",
            "Rounds are numbered from 1 (at most 1000): give the round the standings are after.",
        ));
    }
    let standings = trf::standings(
        &state.arbitration,
        &tournament,
        &tie_breaks,
        query.round.map(|r| r as usize),
    )
    .await?;
    Ok(HttpResponse::Ok().json(StandingsPage {
        after_round: query.round,
        tie_breaks: tie_breaks.iter().map(|t| t.code().to_string()).collect(),
        unplayed_rounds: standings.unplayed,
        standings: standings.lines,
    }))
}

/// Which version of the tournament report to write.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TrfQuery {
    /// `26` for TRF26 (in force since 1 September 2025: round count `142`, encoded time
    /// control `222`, bye records `240`), `16` for TRF-16 (older pairing programs; the
    /// default).
    #[param(inline)]
    pub version: Option<TrfVersion>,
    /// The tie-breaks that rank players on equal points in the rank column, in order, as
    /// FIDE C.07 abbreviates them, comma-separated: `BH`, `BH/C1`, `BH/C2`, `BH/M1`, `BH/M2`,
    /// `SB`, `PS`, `KS`, `DE`, `WIN`, `WON`, `BPG`, `ARO`, `ARO/C1` (unplayed rounds by the
    /// tournament's `unplayed_rounds`). Absent: the tournament's `tie_breaks`; empty, or
    /// neither: players on equal points share a rank.
    #[param(
        pattern = r"^((BH|BH/C1|BH/C2|BH/M1|BH/M2|SB|PS|KS|DE|WIN|WON|BPG|ARO|ARO/C1)(,(BH|BH/C1|BH/C2|BH/M1|BH/M2|SB|PS|KS|DE|WIN|WON|BPG|ARO|ARO/C1))*)?$"
    )]
    pub tie_breaks: Option<String>,
    /// `true` for the final report, sent to the rating officer: refused (409) while a board
    /// has no result, naming the boards. Without it the report is provisional while results
    /// are missing (TRF26 says so in a `### Provisional` line per board).
    #[serde(rename = "final")]
    #[param(rename = "final")]
    pub final_report: Option<bool>,
}

impl From<TrailError> for ApiError {
    fn from(error: TrailError) -> Self {
        match error {
            TrailError::ResultsMissing(_) => {
                ApiError::conflict(RequestCode::ResultsMissing, error.to_string())
            }
            TrailError::Trf(trf) => trf.into(),
        }
    }
}

impl From<TrfError> for ApiError {
    fn from(error: TrfError) -> Self {
        match error {
            TrfError::Unreadable(message) => ApiError::invalid_field("trf", message),
            TrfError::Record(record) => record.into(),
            TrfError::Store(store) => store.into(),
        }
    }
}

/// Export the tournament as a FIDE tournament report (TRF).
///
/// Every player's `001` line with every round's opponent, colour and result as the log stands
/// now (a result changed on appeal as changed; forfeits `+`/`-`, games of less than one move
/// `W`/`D`/`L`, the byes of the loaded TRF files `H`/`F`/`U`/`Z`), points and rank (ties share
/// a rank). Players are numbered as in the TRF files the rounds were loaded from. What goes
/// back to the pairing program after a round, and to the rating officer at the end.
///
/// TRF26 ends with the integrity trail as `###` comment lines (docs/interchange.md): each
/// correction and appeal that changed a result, with who, when and why; a `Provisional` line
/// per board without a result; the seal (SHA-256 over every game's chain head) and each
/// game's chain head, which `arbiter verify --report` checks the games' exports against. With
/// `final=true` the report is refused while a board has no result.
#[utoipa::path(
    tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The tournament's id."), TrfQuery),
    responses(
        (status = 200, description = "The report, lines ended by CR LF.", body = String, content_type = "text/plain"),
        (status = 400, description = "The id is not a UUID, or the version is not 16 or 26.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament.", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The final report was asked for while boards have no result; the problem names them (`results_missing`).", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A tie-break this service does not compute; `field` is `tie_breaks`.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tournaments/{id}/trf")]
pub async fn tournament_trf(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<Uuid>,
    query: Query<TrfQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let tournament = state
        .store
        .tournament(id)
        .await?
        .ok_or_else(|| tournament_not_found(id))?;
    let version = query.version.unwrap_or(TrfVersion::Trf16);
    let tie_breaks = match query.tie_breaks.as_deref() {
        Some(text) => tie_breaks_of(text)?,
        None => tournament.settings.tie_breaks.clone(),
    };
    let text = trail::export(
        &state.arbitration,
        &tournament,
        version,
        &tie_breaks,
        query.final_report.unwrap_or(false),
        &caller.0.recorder(),
    )
    .await?;
    let suffix = match version {
        TrfVersion::Trf16 => "trf16",
        TrfVersion::Trf26 => "trf26",
    };
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"tournament-{id}.{suffix}.txt\""),
        ))
        .body(text))
}

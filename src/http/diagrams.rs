//! Board diagrams over HTTP: the SVG of a game's position at any event or ply, and the sheet
//! of the occurrences of a repetition claim. The drawing is `interchange::diagram`'s; these
//! handlers only read the parameters, fold the game through the application service and
//! pick the stored events the caption needs.

use super::auth::Caller;
use super::error::{ApiError, Problem};
use super::query::Query;
use crate::game::event::{ClaimKind, Event, RecordedEvent, ServiceEvent};
use crate::interchange::diagram::{
    Arrow, Circle, DEFAULT_SIZE, Diagram, DrawnAt, MAX_SIZE, MIN_SIZE, board_at,
    last_clock_readings, occurrence_sheet,
};
use crate::problem::RequestCode;
use crate::state::AppState;
use crate::store::StoreError;
use actix_web::{HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

/// The media type of a diagram.
pub const SVG: &str = "image/svg+xml";

/// The most arrows, and the most circles, one diagram takes.
const MAX_MARKS: usize = 64;

/// How a diagram is drawn (both routes).
#[derive(Clone, Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DrawingQuery {
    /// `true` to draw the boards from Black's side (default `false`).
    #[param(value_type = Option<bool>)]
    pub flip: Option<String>,
    /// `false` to leave out the files and ranks (default `true`).
    #[param(value_type = Option<bool>)]
    pub coordinates: Option<String>,
    /// The width of one board in pixels, 64 to 2048 (default 360).
    #[param(value_type = Option<u32>, minimum = 64, maximum = 2048)]
    pub size: Option<String>,
    /// Arrows, comma-separated, as PGN's `[%cal]` writes them: an optional colour letter
    /// (`G` green, the default; `R` red; `Y` yellow; `B` blue) and two squares, e.g.
    /// `Ge2e4,Rg1f3` (at most 64).
    #[param(pattern = "^[GRYB]?[a-h][1-8][a-h][1-8](,[GRYB]?[a-h][1-8][a-h][1-8])*$")]
    pub arrows: Option<String>,
    /// Circled squares, comma-separated, as PGN's `[%csl]` writes them, e.g. `Rd5,Gf7`
    /// (at most 64).
    #[param(pattern = "^[GRYB]?[a-h][1-8](,[GRYB]?[a-h][1-8])*$")]
    pub circles: Option<String>,
}

/// Which position `GET /v1/games/{id}/board.svg` draws.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BoardQuery {
    /// The position as it stood after this event (`seq` 1 or more). Not with `ply`.
    #[param(value_type = Option<u64>, minimum = 1)]
    pub at_seq: Option<String>,
    /// The position after this many half-moves of the moves standing now (0 = the start
    /// position). Not with `at_seq`.
    #[param(value_type = Option<u64>, minimum = 0)]
    pub ply: Option<String>,
    /// `true` to draw the board from Black's side (default `false`).
    #[param(value_type = Option<bool>)]
    pub flip: Option<String>,
    /// `false` to leave out the files and ranks (default `true`).
    #[param(value_type = Option<bool>)]
    pub coordinates: Option<String>,
    /// The width of the board in pixels, 64 to 2048 (default 360).
    #[param(value_type = Option<u32>, minimum = 64, maximum = 2048)]
    pub size: Option<String>,
    /// Arrows, comma-separated, as PGN's `[%cal]` writes them: an optional colour letter
    /// (`G` green, the default; `R` red; `Y` yellow; `B` blue) and two squares, e.g.
    /// `Ge2e4,Rg1f3` (at most 64).
    #[param(pattern = "^[GRYB]?[a-h][1-8][a-h][1-8](,[GRYB]?[a-h][1-8][a-h][1-8])*$")]
    pub arrows: Option<String>,
    /// Circled squares, comma-separated, as PGN's `[%csl]` writes them, e.g. `Rd5,Gf7`
    /// (at most 64).
    #[param(pattern = "^[GRYB]?[a-h][1-8](,[GRYB]?[a-h][1-8])*$")]
    pub circles: Option<String>,
}

impl BoardQuery {
    /// The drawing options (shared with the occurrence sheet).
    fn drawing(&self) -> DrawingQuery {
        DrawingQuery {
            flip: self.flip.clone(),
            coordinates: self.coordinates.clone(),
            size: self.size.clone(),
            arrows: self.arrows.clone(),
            circles: self.circles.clone(),
        }
    }
}

fn bad_parameter(field: &'static str, detail: String) -> ApiError {
    ApiError::bad_request(RequestCode::InvalidQuery, detail).with_field(field)
}

fn parse_flag(field: &'static str, text: Option<&str>, default: bool) -> Result<bool, ApiError> {
    match text {
        None => Ok(default),
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        Some(other) => Err(bad_parameter(
            field,
            format!("`{field}` must be true or false, not `{other}`."),
        )),
    }
}

fn parse_number(field: &'static str, text: &str, min: u64, max: u64) -> Result<u64, ApiError> {
    Some(text)
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse::<u64>().ok())
        .filter(|value| (min..=max).contains(value))
        .ok_or_else(|| {
            bad_parameter(
                field,
                format!("`{field}` must be a whole number from {min} to {max}, not `{text}`."),
            )
        })
}

/// The parsed drawing options, applied to each board.
struct Drawing {
    flip: bool,
    coordinates: bool,
    size: u32,
    arrows: Vec<Arrow>,
    circles: Vec<Circle>,
}

impl Drawing {
    fn parse(fields: &DrawingQuery) -> Result<Drawing, ApiError> {
        let size = match fields.size.as_deref() {
            None => DEFAULT_SIZE,
            Some(text) => {
                parse_number("size", text, u64::from(MIN_SIZE), u64::from(MAX_SIZE))? as u32
            }
        };
        let marks = |field: &'static str, text: Option<&str>| -> Result<Vec<String>, ApiError> {
            let Some(text) = text else {
                return Ok(Vec::new());
            };
            let marks: Vec<String> = text.split(',').map(str::to_owned).collect();
            if marks.len() > MAX_MARKS {
                return Err(bad_parameter(
                    field,
                    format!(
                        "`{field}` holds {} marks; give at most {MAX_MARKS}.",
                        marks.len()
                    ),
                ));
            }
            Ok(marks)
        };
        let arrows = marks("arrows", fields.arrows.as_deref())?
            .iter()
            .map(|m| Arrow::parse(m).map_err(|e| bad_parameter("arrows", format!("{e}."))))
            .collect::<Result<Vec<_>, _>>()?;
        let circles = marks("circles", fields.circles.as_deref())?
            .iter()
            .map(|m| Circle::parse(m).map_err(|e| bad_parameter("circles", format!("{e}."))))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Drawing {
            flip: parse_flag("flip", fields.flip.as_deref(), false)?,
            coordinates: parse_flag("coordinates", fields.coordinates.as_deref(), true)?,
            size,
            arrows,
            circles,
        })
    }

    fn apply(&self, diagram: Diagram) -> Diagram {
        diagram
            .flipped(self.flip)
            .coordinates(self.coordinates)
            .size(self.size)
            .arrows(self.arrows.iter().copied())
            .circles(self.circles.iter().copied())
    }
}

fn svg_response(svg: String) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(SVG)
        .insert_header(("Cache-Control", "no-cache"))
        .body(svg)
}

/// A board diagram of the game (SVG).
///
/// The position as it stands now, after event `at_seq`, or after `ply` half-moves, with the
/// last move, check, the square of a piece touched with intent to move it (4.3), an illegal
/// move drawn as a red arrow when the event drawn at is an `illegal_move` whose description
/// names two squares (e.g. `Ke8-e7`), arrows and circled squares in the colours of PGN's
/// `[%cal]`/`[%csl]`, and a caption: the players, the move number and side to move, the last
/// clock readings, the result once ended, and the event (`seq`, type, `event_id`). Pieces by
/// Colin M.L. Burnett (cburnett; GPL, BSD and GFDL).
#[utoipa::path(
    tag = "records",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id."), BoardQuery),
    responses(
        (status = 200, description = "The diagram.", body = String, content_type = "image/svg+xml"),
        (status = 400, description = "A parameter is wrong (`at_seq` with `ply`, a bad mark or size); `field` names it.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game, or `at_seq`/`ply` beyond the game.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/board.svg")]
pub async fn board_svg(
    state: web::Data<AppState>,
    _caller: Caller,
    id: web::Path<Uuid>,
    query: Query<BoardQuery>,
) -> Result<HttpResponse, ApiError> {
    let game_id = id.into_inner();
    let query = query.into_inner();
    let drawing = Drawing::parse(&query.drawing())?;
    let at_seq = match (query.at_seq.as_deref(), query.ply.as_deref()) {
        (Some(_), Some(_)) => {
            return Err(bad_parameter(
                "ply",
                "Give `at_seq` (a position after an event) or `ply` (after a number of \
                 half-moves), not both."
                    .into(),
            ));
        }
        (Some(text), None) => Some(parse_number("at_seq", text, 1, i64::MAX as u64)?),
        (None, Some(text)) => {
            let ply = parse_number("ply", text, 0, i64::MAX as u64)? as usize;
            let (game, _) = state.arbitration.state_at(game_id, None).await?;
            let seqs = game.move_seqs();
            if ply == 0 {
                Some(1)
            } else {
                Some(seqs.get(ply - 1).copied().ok_or_else(|| {
                    ApiError::not_found(
                        RequestCode::PlyBeyondGame,
                        format!(
                            "The game has {} half-moves standing; there is no ply {ply}. Ask \
                             for ply 0 (the start) to {}.",
                            seqs.len(),
                            seqs.len()
                        ),
                    )
                    .with_field("ply")
                })?)
            }
        }
        (None, None) => None,
    };
    let (game, seq) = state.arbitration.state_at(game_id, at_seq).await?;
    let events = state.store.read_events(game_id, 0, Some(seq), None).await?;
    let Some(last) = events.last() else {
        return Err(StoreError::GameNotFound(game_id).into());
    };
    let (white_ms, black_ms) =
        last_clock_readings(events.iter().map(|e| (&e.event, e.clock.as_ref())));
    let diagram = board_at(
        &game,
        &DrawnAt {
            seq: last.seq,
            event_id: last.event_id,
            event: &last.event,
            white_ms,
            black_ms,
        },
    );
    Ok(svg_response(drawing.apply(diagram).render()))
}

/// The occurrences of a repetition claim, side by side (SVG).
///
/// For the `claim` at `seq` (kind `repetition`): every position where the claimed position
/// occurred, at the plies of the engine's stored ruling (`claim_ruled` evidence
/// `occurrences`), each with the move that led to it, and for a claim with an intended move
/// the position after that move (written, not played, 9.2.1); the title gives the ruling,
/// its article and its reason. A claim ruled incorrect before anything was counted (the
/// claimant had moved, or touched a piece, 9.4) shows the position at the claim.
#[utoipa::path(
    tag = "records",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The game's id."),
        ("seq" = u64, Path, description = "The `seq` of the repetition claim."),
        DrawingQuery
    ),
    responses(
        (status = 200, description = "The sheet.", body = String, content_type = "image/svg+xml"),
        (status = 400, description = "A parameter is wrong; `field` names it.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game, or no claim at that `seq`.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The claim at that `seq` is not a repetition claim.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/claims/{seq}/occurrences.svg")]
pub async fn occurrences_svg(
    state: web::Data<AppState>,
    _caller: Caller,
    path: web::Path<(Uuid, u64)>,
    query: Query<DrawingQuery>,
) -> Result<HttpResponse, ApiError> {
    let (game_id, claim_seq) = path.into_inner();
    let drawing = Drawing::parse(&query)?;
    let log = state.store.game_log(game_id).await?;
    if log.is_empty() {
        return Err(StoreError::GameNotFound(game_id).into());
    }
    let no_claim = || {
        ApiError::not_found(
            RequestCode::NoSuchClaim,
            format!(
                "Event {claim_seq} of this game is not a claim. The claims are the `claim` \
                 events of GET /v1/games/{game_id}/events; give the seq of one."
            ),
        )
        .with_field("seq")
    };
    let claimant = match log.iter().find(|e| e.seq == claim_seq).map(|e| &e.event) {
        Some(Event::Recorded(RecordedEvent::Claim {
            by,
            kind: ClaimKind::Repetition,
            ..
        })) => *by,
        Some(Event::Recorded(RecordedEvent::Claim { kind, .. })) => {
            let kind = serde_json::to_value(kind).unwrap_or_default();
            return Err(ApiError::unprocessable(
                RequestCode::NotARepetitionClaim,
                format!(
                    "Event {claim_seq} is a {kind} claim; only a repetition claim (9.2) has \
                     occurrences to show. Draw its position with board.svg?at_seq={claim_seq}."
                ),
            )
            .with_field("seq"));
        }
        _ => return Err(no_claim()),
    };
    let ruling = log
        .iter()
        .find_map(|e| match &e.event {
            Event::Service(ServiceEvent::ClaimRuled(ruling)) if ruling.claim_seq == claim_seq => {
                Some(ruling.as_ref())
            }
            _ => None,
        })
        .ok_or_else(no_claim)?;
    let (game, _) = state.arbitration.state_at(game_id, Some(claim_seq)).await?;
    let sheet = occurrence_sheet(&game, claim_seq, claimant, ruling, |d| drawing.apply(d));
    Ok(svg_response(sheet.render()))
}

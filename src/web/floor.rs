//! The round floor: every board of a round on one screen, as the chief arbiter follows it:
//! players, status, both clocks and which one runs, the move number, the time since the last
//! event, and badges for what needs the arbiter (a claim to decide, a pending draw offer,
//! illegal moves). The rows are a fragment of their own (`/office/floor/rows`) so
//! that the page's script can replace them when the round's live stream reports an event.

use super::error::WebError;
use super::layout::{self, Nav};
use super::session::Viewer;
use super::{PREFIX, events, periods};
use crate::game::GameView;
use crate::game::board_status::{BoardStatus, board_status};
use crate::game::event::{ClaimKind, GameSettings, Side, TimeControl};
use crate::game::view::GameStatus;
use crate::request::Reads;
use crate::state::AppState;
use crate::store::{GameFilter, GameSummary, Store};
use actix_web::{HttpResponse, web};
use chrono::Utc;
use maud::{Markup, html};
use serde::Deserialize;

/// The route of the round's live stream (`EventSource`, the full view; the session cookie
/// authenticates it): the page's script replaces the rows on each of its messages.
pub const ROUND_STREAM: Option<&str> = Some("/v1/rounds/stream");

/// Which round.
#[derive(Debug, Deserialize)]
pub struct RoundQuery {
    /// The event's name.
    pub event: Option<String>,
    /// The round.
    pub round: Option<String>,
}

impl RoundQuery {
    /// The event and round, or a 400 saying what is missing.
    pub fn require(&self) -> Result<(&str, &str), WebError> {
        match (self.event.as_deref(), self.round.as_deref()) {
            (Some(event), Some(round)) if !event.is_empty() && !round.is_empty() => {
                Ok((event, round))
            }
            _ => Err(WebError::BadRequest(
                "Choose an event and a round: open the floor from the events page.".into(),
            )),
        }
    }
}

/// One board as the floor shows it.
pub struct Board {
    /// The game as listed.
    pub summary: GameSummary,
    /// Its state.
    pub view: GameView,
    /// Its clock and pending claims.
    pub status: BoardStatus,
    /// What its board feed said that needs the arbiter, and the notice of a takeback the
    /// feed applied, if any (each decided on its own).
    pub attentions: Vec<crate::store::FollowAttention>,
}

/// The games of a round in board order, each folded by the engine.
pub async fn boards(
    state: &AppState,
    reads: &Store,
    event: &str,
    round: &str,
) -> Result<Vec<Board>, WebError> {
    let mut games = reads
        .list_games(&GameFilter {
            event: Some(event.to_string()),
            round: Some(round.to_string()),
            status: None,
            after: None,
            limit: 1000,
        })
        .await?
        .items;
    games.sort_by_key(|g| (g.board.unwrap_or(u32::MAX), g.created_at));
    let folded = futures_util::future::join_all(
        games
            .iter()
            .map(|g| state.arbitration.state_at_on(reads, g.game_id, None)),
    )
    .await;
    let ids: Vec<uuid::Uuid> = games.iter().map(|g| g.game_id).collect();
    let attentions = reads.open_attentions_of(&ids).await?;
    let mut boards = Vec::with_capacity(games.len());
    for (summary, folded) in games.into_iter().zip(folded) {
        let (game, _) = folded?;
        let attentions = attentions
            .iter()
            .filter(|a| a.game_id == summary.game_id)
            .cloned()
            .collect();
        boards.push(Board {
            view: game.view(),
            status: board_status(&game),
            summary,
            attentions,
        });
    }
    Ok(boards)
}

/// The move number a game has reached (the move being played).
pub fn move_number(view: &GameView) -> usize {
    view.ply / 2 + 1
}

fn clock_cell(view: &GameView, status: &BoardStatus, control: &TimeControl, side: Side) -> Markup {
    let ms = match side {
        Side::White => view.clocks.white_ms,
        Side::Black => view.clocks.black_ms,
    };
    let running = status.running_clock == Some(side);
    html! {
        span.clockbox {
            span class={ "clock" @if running { " running" } } title=[running.then_some("this clock runs")] {
                @if running { span.run aria-hidden="true" { "▶ " } }
                (layout::clock(ms))
            }
            (periods::floor_caption(view, control, side))
        }
    }
}

/// The badges of a board.
pub fn badges(view: &GameView, status: &BoardStatus, settings: &GameSettings) -> Markup {
    html! {
        @for claim in &view.open_claims {
            (layout::badge("claim", &format!("{} {} to decide{}", layout::side_name(claim.by),
                match claim.kind { ClaimKind::IncrementRequest => "request (III.4)", _ => "claim (III.5)" },
                if claim.postponed { ", postponed" } else { "" })))
        }
        @if let Some(side) = view.flag_fell_awaiting_arbiter {
            (layout::badge("claim", &format!("{}'s flag fell: the arbiter declares the result (III.5.2)", layout::side_name(side))))
        }
        @for offer in &view.pending_offers {
            (layout::badge("offer", &format!("{} offers a draw{}", layout::side_name(offer.by), if offer.forbidden { " (not allowed yet)" } else { "" })))
        }
        @if view.illegal_moves.white + view.illegal_moves.black > 0 {
            (layout::badge("illegal", &format!("illegal moves W{} B{}", view.illegal_moves.white, view.illegal_moves.black)))
        }
        @if let Some(touched) = &view.obligations.touched {
            (layout::badge("touch", &format!("{} touched {}", layout::side_name(touched.by), touched.square)))
        }
        @if let Some(must) = &view.obligations.must_play {
            (layout::badge("touch", &format!("{} must play {}", layout::side_name(must.by), must.san)))
        }
        @if status.paused && view.status == GameStatus::InProgress {
            (layout::badge("paused", "clock paused"))
        }
        (periods::floor_badges(view, &settings.time_control, settings.laws_edition))
    }
}

/// A running board's state in words: paused, not started (no move made and no clock
/// started), or in progress. A finished board shows its result instead.
fn board_state(view: &GameView, status: &BoardStatus) -> &'static str {
    if status.paused {
        "paused"
    } else if view.ply == 0 && status.running_clock.is_none() {
        "not started"
    } else {
        "in progress"
    }
}

fn player(name: &str, fide_id: Option<u64>) -> Markup {
    html! {
        span.player { (name) }
        @if let Some(id) = fide_id { span.fide { (id) } }
    }
}

/// The rows of the floor table.
pub fn rows(boards: &[Board]) -> Markup {
    let now = Utc::now();
    html! {
        tbody #floor-rows {
            @if boards.is_empty() {
                tr { td colspan="8" { "No game in this round yet." } }
            }
            @for board in boards {
                @let view = &board.view;
                @let settings = &board.summary.settings;
                tr data-game=(board.summary.game_id) class={ @if view.status == GameStatus::Ended { "ended" } @if !view.open_claims.is_empty() || view.flag_fell_awaiting_arbiter.is_some() || !board.attentions.is_empty() { " attention" } } {
                    td.num.board {
                        a href={ (PREFIX) "/games/" (board.summary.game_id) } title="Open the game desk" {
                            (board.summary.board.map(|b| b.to_string()).unwrap_or_else(|| "–".into()))
                        }
                    }
                    td { a.plain href={ (PREFIX) "/games/" (board.summary.game_id) } { (player(&settings.white.name, settings.white.fide_id)) } }
                    td { a.plain href={ (PREFIX) "/games/" (board.summary.game_id) } { (player(&settings.black.name, settings.black.fide_id)) } }
                    td.status {
                        @match view.result {
                            Some(result) => { strong { (layout::result_text(result)) } }
                            None => (board_state(view, &board.status)),
                        }
                    }
                    td.clocks { (clock_cell(view, &board.status, &settings.time_control, Side::White)) " " (clock_cell(view, &board.status, &settings.time_control, Side::Black)) }
                    td.num { (move_number(view)) @if view.status == GameStatus::InProgress { span.turn { (if view.side_to_move == Side::White { " w" } else { " b" }) } } }
                    td.since data-since=(board.summary.updated_at.timestamp_millis()) { (layout::elapsed(board.summary.updated_at, now)) }
                    td { div.badges {
                        @for attention in &board.attentions { (super::follow::floor_badge(attention)) }
                        (badges(view, &board.status, settings))
                    } }
                }
            }
        }
    }
}

fn table(boards: &[Board]) -> Markup {
    html! {
        table.list.floor {
            thead {
                tr {
                    th.num { "Board" } th { "White" } th { "Black" } th { "Status" }
                    th { "Clocks (W B)" } th.num { "Move" } th.since { "Last event" } th { "Needs attention" }
                }
            }
            (rows(boards))
        }
    }
}

/// `GET /office/floor?event=&round=`.
pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    reads: Reads,
    query: web::Query<RoundQuery>,
) -> Result<HttpResponse, WebError> {
    let (event, round) = query.require()?;
    let boards = boards(&state, &reads, event, round).await?;
    let tournament = reads.tournament_named(event).await?;
    let follow = match &tournament {
        Some(t) => reads.round_follow(t.tournament_id, round).await?,
        None => None,
    };
    let ended = boards
        .iter()
        .filter(|b| b.view.status == GameStatus::Ended)
        .count();
    let rows_url = format!(
        "{PREFIX}/floor/rows?event={}&round={}",
        layout::query_escape(event),
        layout::query_escape(round)
    );
    let stream_url = ROUND_STREAM.map(|route| {
        format!(
            "{route}?event={}&round={}",
            layout::query_escape(event),
            layout::query_escape(round)
        )
    });
    let body = html! {
        div.page-head {
            h1 { (event) " · round " (round) }
            div.head-links {
                @if let Some(t) = &tournament { a href={ (PREFIX) "/events/" (t.tournament_id) } { "Event" } }
                a href=(layout::round_link("results", event, Some(round))) { "Results" }
                a href=(layout::round_link("incidents", event, Some(round))) { "Incidents" }
            }
        }
        @if let Some(flash) = viewer.flash().filter(|f| !f.refused) {
            p.notice role="status" { (flash.message) }
        }
        (fair_play_report_due(&viewer, event, tournament.as_ref()))
        p.summary {
            (boards.len()) " boards · " (ended) " ended"
            @if let Some(t) = &tournament { " · " (events::time_control_text(&t.settings.time_control)) }
            span #live.live data-state=(if stream_url.is_some() { "connecting" } else { "off" }) {
                @if stream_url.is_some() { "connecting…" } @else { "live updates not available: reload to refresh" }
            }
        }
        section.panel.flush #floor data-rows=(rows_url) data-stream=[stream_url] {
            (table(&boards))
        }
        @if let Some(t) = &tournament {
            (super::follow::floor_panel(&viewer, t, round, follow.as_ref()))
        }
    };
    Ok(layout::ok(layout::page(
        &format!("{event} round {round}"),
        Some(&viewer),
        Nav::Events,
        body,
    )))
}

/// The chief arbiter's notice that the fair-play report is due or overdue (issue 23): shown
/// to the chief arbiter only, when the tournament sets a deadline.
fn fair_play_report_due(
    viewer: &Viewer,
    event: &str,
    tournament: Option<&crate::tournament::Tournament>,
) -> maud::Markup {
    use crate::access::FairPlayRole;
    use crate::app::fair_play::{ReportStatus, report_deadline, report_status};
    let chief = viewer.principal.fair_play_for(event) == Some(FairPlayRole::ChiefArbiter);
    let deadline = tournament.and_then(|t| {
        report_deadline(
            t.settings.ends_on,
            t.settings.regulations.fair_play_report_days,
        )
    });
    let (true, Some(deadline)) = (chief, deadline) else {
        return html! {};
    };
    let link = format!("{PREFIX}/fair-play?event={}", layout::query_escape(event));
    match report_status(Some(deadline), chrono::Utc::now().date_naive()) {
        ReportStatus::Overdue => html! {
            p.notice.attention role="status" { "Fair-play report overdue since " (deadline) ". " a href=(link) { "Report" } }
        },
        _ => html! {
            p.notice role="status" { "Fair-play report due by " (deadline) ". " a href=(link) { "Report" } }
        },
    }
}

/// `GET /office/floor/rows?event=&round=`: the rows alone, for the live update.
pub async fn rows_fragment(
    state: web::Data<AppState>,
    _viewer: Viewer,
    reads: Reads,
    query: web::Query<RoundQuery>,
) -> Result<HttpResponse, WebError> {
    let (event, round) = query.require()?;
    let boards = boards(&state, &reads, event, round).await?;
    Ok(layout::ok(rows(&boards)))
}

//! A round's results as the pairing list writes them, and its PGN.

use super::sheet::{ReportHead, ReportQuery, chooser, report_head};
use crate::game::view::GameStatus;
use crate::request::Reads;
use crate::state::AppState;
use crate::web::PREFIX;
use crate::web::error::WebError;
use crate::web::floor;
use crate::web::layout::{self, Nav};
use crate::web::session::Viewer;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use uuid::Uuid;

/// How a result is written on the pairing list: `1-0`, `½-½`, `0-1`, forfeits `+/−`, `−/+`
/// and the double forfeit `−/−`.
pub(in crate::web) fn result_cell(view: &crate::game::GameView) -> (String, bool) {
    let forfeit = view.outcome.is_some_and(|o| o.is_forfeit());
    (
        layout::pairing_result(view.result, forfeit).into(),
        forfeit && view.result.is_some(),
    )
}

/// `GET /office/results?event=&round=`: a round's results and its PGN.
pub async fn results(
    state: web::Data<AppState>,
    viewer: Viewer,
    reads: Reads,
    query: web::Query<ReportQuery>,
) -> Result<HttpResponse, WebError> {
    let (Some(event), Some(round)) = (
        query.event.as_deref().filter(|e| !e.is_empty()),
        query.round.as_deref().filter(|r| !r.is_empty()),
    ) else {
        let rounds = reads.event_rounds().await?;
        let body = html! { h1 { "Results" } (chooser("results", &rounds)) };
        return Ok(layout::ok(layout::page(
            "Results",
            Some(&viewer),
            Nav::Results,
            body,
        )));
    };
    let boards = floor::boards(&state, &reads, event, round).await?;
    let here = layout::round_link("results", event, Some(round));
    let finished = boards
        .iter()
        .filter(|b| b.view.status == GameStatus::Ended)
        .count();
    let ReportHead { markup: head, .. } =
        report_head(&reads, "Results", event, Some(round)).await?;
    let body = html! {
        (head)
        @if let Some(flash) = viewer.flash() {
            @if flash.refused { p.refusal role="alert" { (flash.message) } } @else { p.notice role="status" { (flash.message) } }
            @if flash.code.as_deref() == Some("needs_confirmation") { (crate::web::desk::confirm_form(&viewer, &flash)) }
        }
        p.screen-only.head-links {
            (finished) " of " (boards.len()) " games finished · "
            a href=(layout::round_pgn_link(event, round)) { "The round's PGN" }
            a href=(layout::round_link("floor", event, Some(round))) { "Floor" }
            button.print type="button" data-print="" { "Print" }
        }
        section.panel.flush {
            table.list.results {
                thead { tr { th.num { "Board" } th { "White" } th.result { "Result" } th { "Black" } th { "How" } th.screen-only { "Record" } } }
                tbody {
                    @for board in &boards {
                        @let (result, _) = result_cell(&board.view);
                        @let s = &board.summary.settings;
                        tr {
                            td.num { a href={ (PREFIX) "/games/" (board.summary.game_id) } { (board.summary.board.map(|b| b.to_string()).unwrap_or_default()) } }
                            td { (s.white.name) }
                            td.result { strong { (result) } }
                            td { (s.black.name) }
                            td {
                                @if let Some(t) = board.view.termination { (layout::ended_text(t, board.view.article.as_deref(), board.view.outcome.as_ref())) }
                                @else { "in progress" }
                            }
                            td.screen-only { (record_cell(&viewer, board, &here)) }
                        }
                    }
                }
            }
        }
        p.hint.screen-only {
            "A result recorded here is an arbiter's decision (game ended) stating that both players reported it (8.7). "
            "A forfeit (one player, or both: a double forfeit, 0-0) is offered only before the first move and is recorded as a game not played (6.7.1), which the reports write +/−. A result reported by the players (8.7) is a game played, whether or not its moves were recorded."
        }
    };
    Ok(layout::ok(layout::page(
        &format!("Results, {event} round {round}"),
        Some(&viewer),
        Nav::Results,
        body,
    )))
}

/// The result's form of a game in progress (a forfeit only before the first move, 6.7.1), or
/// the way to undo the result of a finished one, for an arbiter who may record.
fn record_cell(viewer: &Viewer, board: &floor::Board, here: &str) -> Markup {
    let may_record = viewer
        .principal
        .may_record("arbiter_decision", &board.summary.event)
        .is_ok();
    html! {
        @if board.view.status == GameStatus::InProgress && may_record {
            form.record.inline method="post" action={ (PREFIX) "/games/" (board.summary.game_id) "/record" } {
                (layout::csrf_field(viewer))
                input type="hidden" name="expected_seq" value=(board.summary.last_seq);
                input type="hidden" name="event_id" value=(Uuid::new_v4());
                input type="hidden" name="type" value="result";
                input type="hidden" name="return_to" value=(here);
                select name="result" required aria-label={ "Result of board " (board.summary.board.unwrap_or_default()) } {
                    option value="" { "result…" }
                    option value="1-0" { "1-0" }
                    option value="1/2-1/2" { "½-½" }
                    option value="0-1" { "0-1" }
                    @if board.view.ply == 0 {
                        option value="forfeit:white" { "+/− (Black forfeits)" }
                        option value="forfeit:black" { "−/+ (White forfeits)" }
                        option value="forfeit:both" { "−/− (double forfeit, 0-0)" }
                    }
                }
                button type="submit" { "Record" }
            }
        } @else if board.view.status == GameStatus::Ended && may_record {
            a.undo href={ (PREFIX) "/games/" (board.summary.game_id) "#undo" } { "Wrong result? Undo…" }
        }
    }
}

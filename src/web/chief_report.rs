//! The chief arbiter's report of a tournament, printable from the browser: the event and its
//! settings, the arbiters named and who recorded in its games, every round's results, the
//! incidents with their rulings and the appeals with their decisions, all read from the log
//! (`app::chief_report`).

use super::PREFIX;
use super::error::WebError;
use super::layout::{self, Nav};
use super::reports::{self, ReportHead};
use super::session::Viewer;
use crate::app::chief_report::{self, ChiefArbiterReport, ChiefReportError};
use crate::request::Reads;
use crate::state::AppState;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use uuid::Uuid;

impl From<ChiefReportError> for WebError {
    fn from(error: ChiefReportError) -> Self {
        match error {
            ChiefReportError::Record(error) => error.into(),
            ChiefReportError::Store(error) => error.into(),
            ChiefReportError::Standings(error) => error.into(),
        }
    }
}

/// `GET /office/events/{id}/report`: the chief arbiter's report, printable.
pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    reads: Reads,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, WebError> {
    let id = id.into_inner();
    let tournament = reads
        .tournament(id)
        .await?
        .ok_or_else(|| WebError::NotFound(format!("There is no tournament with id {id}.")))?;
    let report = chief_report::chief_arbiter_report(&state.arbitration, &tournament).await?;
    let name = &tournament.settings.name;
    let ReportHead { markup: head, hall } =
        reports::report_head(&reads, "Chief arbiter's report", name, None).await?;
    let body = html! {
        (head)
        p.screen-only.head-links {
            button.print type="button" data-print="" { "Print" }
            a href={ (PREFIX) "/events/" (id) } { "The tournament" }
        }
        (trail_part(&report, hall))
        (settings_part(&report))
        (arbiters_part(&report, hall))
        (rounds_part(&report))
        (standings_part(&report))
        section.panel {
            h2 { "Incidents and rulings" }
            @if report.incidents.is_empty() { p.hint { "No incident: no claim ruled, penalty, illegal move, arbiter's decision, clock adjustment or correction." } } @else {
                table.list.report {
                    thead { tr { th { (hall.heading()) } th { "Board" } th { "Players" } th { "What" } th { "Recorded by" } } }
                    tbody {
                        @for item in &report.incidents {
                            tr class=(reports::row_class(item)) {
                                td.nowrap { (hall.time_of_day(item.decision.recorded_at)) }
                                td { (reports::board_label(item)) }
                                td { (reports::players(item)) }
                                td { (reports::told(item)) (reports::retracted_mark(item)) }
                                td { (layout::recorder(&item.decision.recorded_by)) }
                            }
                        }
                    }
                }
            }
        }
        section.panel {
            h2 { "Appeals" }
            @if report.appeals.is_empty() { p.hint { "No appeal was lodged." } } @else {
                table.list.report {
                    thead { tr { th { (hall.heading()) } th { "Board" } th { "Players" } th { "Appeal" } th { "Decision of the appeals committee" } } }
                    tbody {
                        @for appeal in &report.appeals {
                            tr class=(reports::row_class(&appeal.lodged)) {
                                td.nowrap { (hall.time_of_day(appeal.lodged.decision.recorded_at)) }
                                td { (reports::board_label(&appeal.lodged)) }
                                td { (reports::players(&appeal.lodged)) }
                                td { (reports::told(&appeal.lodged)) (reports::retracted_mark(&appeal.lodged)) }
                                td {
                                    @match &appeal.decided {
                                        Some(decided) => { (reports::told(decided)) " (" (hall.time_of_day(decided.decision.recorded_at)) ")" }
                                        None => strong { "not decided yet" },
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        p.hint {
            "Read from the event log as it stands: results changed on appeal are shown as changed; "
            "a decision retracted as a data-entry error is shown, marked retracted. "
            "Each game's log and its hash chain can be checked with `arbiter verify`, and every "
            "game's export against the seal with `arbiter verify --report`."
        }
    };
    Ok(layout::ok(layout::page(
        &format!("Chief arbiter's report, {name}"),
        Some(&viewer),
        Nav::Events,
        body,
    )))
}

/// Whether the report is final or provisional (naming the boards without a result), the
/// seal over every game's chain head, and what changed a result after it stood.
fn trail_part(report: &ChiefArbiterReport, hall: layout::HallTime) -> Markup {
    let trail = &report.trail;
    html! {
        section.panel.trail {
            @if trail.missing.is_empty() {
                h2 { "Final report" }
                p { "Every game has a result." }
            } @else {
                h2 { "Provisional report" }
                p {
                    strong { (trail.missing.len()) " board(s) without a result" }
                    ": the final report (and the final TRF) waits for them."
                }
                ul.plain { @for board in &trail.missing { li { (board.describe()) } } }
            }
            p.seal {
                "Seal (SHA-256 over the chain heads of " (trail.sealed.len()) " games): "
                code { (trail.seal()) }
            }
            @if !trail.entries.is_empty() {
                h3 { "Results changed after they stood" }
                table.list.report {
                    thead { tr { th { (hall.heading()) } th { "What" } th { "Recorded by" } th { "Reason" } } }
                    tbody {
                        @for entry in &trail.entries {
                            tr {
                                td.nowrap { (hall.timestamp(entry.at)) }
                                td { (entry.kind.label()) " @ " (entry.place()) ": " (entry.what) }
                                td { (layout::recorder(&entry.by)) }
                                td { (entry.why.as_deref().unwrap_or("")) }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn settings_part(report: &ChiefArbiterReport) -> Markup {
    let settings = &report.tournament.settings;
    html! {
        section.panel {
            h2 { "The tournament" }
            dl.facts {
                dt { "Site" } dd { (settings.site.as_deref().unwrap_or("–")) }
                dt { "Dates" } dd {
                    (settings.starts_on.map(|d| d.to_string()).unwrap_or_else(|| "–".into()))
                    " – "
                    (settings.ends_on.map(|d| d.to_string()).unwrap_or_else(|| "–".into()))
                }
                dt { "Time control" } dd { (crate::interchange::time_control_tag::describe(&settings.time_control)) }
                dt { "Laws" } dd { (super::events::edition_text(settings.laws_edition)) }
                dt { "Rounds in the log" } dd { (report.rounds.len()) }
                dt { "Games" } dd { (report.rounds.iter().map(|r| r.boards.len()).sum::<usize>()) }
            }
        }
    }
}

fn arbiters_part(report: &ChiefArbiterReport, hall: layout::HallTime) -> Markup {
    let settings = &report.tournament.settings;
    html! {
        section.panel {
            h2 { "Arbiters" }
            @if settings.arbiters.is_empty() { p.hint { "The tournament's settings name no arbiter." } } @else {
                ul.plain { @for arbiter in &settings.arbiters { li { (arbiter) } } }
            }
            h3 { "Who recorded in the games" }
            @if report.recorders.is_empty() { p.hint { "Nothing recorded yet." } } @else {
                table.list {
                    thead { tr { th { "Recorded by" } th.num { "Events" } th { "Rounds" } th { "First" } th { "Last" } } }
                    tbody {
                        @for recorder in &report.recorders {
                            tr {
                                td { (layout::recorder(&recorder.recorded_by)) }
                                td.num { (recorder.events) }
                                td { (recorder.rounds.join(", ")) }
                                td.nowrap { (hall.timestamp(recorder.first_at)) }
                                td.nowrap { (hall.timestamp(recorder.last_at)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The standings after the last round, by the tournament's tie-breaks.
fn standings_part(report: &ChiefArbiterReport) -> Markup {
    let standings = &report.standings;
    let tie_breaks = &report.tournament.settings.tie_breaks;
    html! {
        section.panel #standings {
            h2 { "Standings" @if standings.rounds > 0 { " after round " (standings.rounds) } }
            p.hint {
                "By points"
                @for tie_break in tie_breaks { ", " (tie_break.code()) }
                @if tie_breaks.is_empty() { "; players on equal points share a place" }
                @else { " (FIDE Handbook C.07; " (super::standings::unplayed_text(standings.unplayed)) ")" }
                "."
            }
            @if standings.lines.is_empty() { p.hint { "No round loaded yet." } }
            @else { (super::standings::table(tie_breaks, &standings.lines)) }
        }
    }
}

fn rounds_part(report: &ChiefArbiterReport) -> Markup {
    html! {
        @for round in &report.rounds {
            @let (white, draws, black, double, open) = round.tally();
            section.panel.round-report {
                h2 { "Round " (round.round) }
                p.facts {
                    (round.boards.len()) " games: " (white) " won by White, " (draws) " drawn, " (black) " won by Black"
                    @if double > 0 { ", " (double) " double forfeit(s)" }
                    @let uneven = round.boards.len().saturating_sub(white + draws + black + double + open);
                    @if uneven > 0 { ", " (uneven) " lost by one player with ½ for the other (12.9.6)" }
                    @if open > 0 { ", " strong { (open) " without a result" } }
                    "."
                }
                table.list.results {
                    thead { tr { th.num { "Board" } th { "White" } th.result { "Result" } th { "Black" } th { "How" } } }
                    tbody {
                        @for board in &round.boards {
                            tr {
                                td.num { a href={ (PREFIX) "/games/" (board.game_id) } { (board.board.map(|b| b.to_string()).unwrap_or_default()) } }
                                td { (board.white) }
                                td.result { strong { (layout::pairing_result(board.result, board.forfeit)) } }
                                td { (board.black) }
                                td {
                                    @if board.forfeit { "forfeit (6.7.1)" }
                                    @else if let Some(t) = board.termination {
                                        (layout::ended_text(t, board.article.as_deref(), board.outcome.as_ref()))
                                        @if board.plies > 0 { " · " (board.plies.div_ceil(2)) " moves" }
                                    }
                                    @else { "in progress" }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

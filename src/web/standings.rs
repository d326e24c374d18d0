//! The standings of a tournament, printable: after any round, ranked by points then by the
//! tournament's tie-breaks (FIDE C.07, `app::trf::standings`).

use super::PREFIX;
use super::error::WebError;
use super::layout::{self, Nav};
use super::reports::{self, ReportHead};
use super::session::Viewer;
use crate::app::trf::{self, Standing, TrfError};
use crate::request::Reads;
use crate::rules::tie_breaks::{TieBreak, UnplayedRounds};
use crate::state::AppState;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use uuid::Uuid;

impl From<TrfError> for WebError {
    fn from(error: TrfError) -> Self {
        match error {
            TrfError::Unreadable(message) => WebError::BadRequest(message),
            TrfError::Record(error) => error.into(),
            TrfError::Store(error) => error.into(),
        }
    }
}

/// What the standings page is asked for.
#[derive(Debug, serde::Deserialize)]
pub struct StandingsQuery {
    /// The round the standings are after; all rounds when absent.
    pub round: Option<u32>,
}

/// A value as the standings print it: `12`, `12.5`, `12.25`.
fn number(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The words for the text of C.07 that governs unplayed rounds.
pub fn unplayed_text(unplayed: UnplayedRounds) -> &'static str {
    match unplayed {
        UnplayedRounds::Fide2023 => {
            "unplayed rounds by C.07 as revised in 2023 (Article 16: a dummy opponent with the player's own score)"
        }
        UnplayedRounds::Before2023 => {
            "unplayed rounds by C.07 before its 2023 revision (a virtual opponent; opponents' forfeits as draws)"
        }
    }
}

/// The standings table (the page's and the chief arbiter's report's).
pub fn table(tie_breaks: &[TieBreak], lines: &[Standing]) -> Markup {
    html! {
        div.scroll {
            table.list.report.standings {
                thead {
                    tr {
                        th scope="col" { "Place" }
                        th scope="col" { "No." }
                        th scope="col" { "Player" }
                        th scope="col" { "FIDE id" }
                        th scope="col" { "Pts" }
                        @for tie_break in tie_breaks { th scope="col" { (tie_break.code()) } }
                    }
                }
                tbody {
                    @for line in lines {
                        tr {
                            td { (line.rank) }
                            td { (line.start_number) }
                            td { (line.name) }
                            td { @if let Some(id) = line.fide_id { (id) } @else { "–" } }
                            td { strong { (number(line.points)) } }
                            @for value in &line.tie_breaks { td { (number(value.value)) } }
                        }
                    }
                }
            }
        }
    }
}

/// `GET /office/events/{id}/standings?round=N`: the standings after round N (every round
/// when absent), printable.
pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    reads: Reads,
    id: web::Path<Uuid>,
    query: web::Query<StandingsQuery>,
) -> Result<HttpResponse, WebError> {
    let id = id.into_inner();
    let tournament = reads
        .tournament(id)
        .await?
        .ok_or_else(|| WebError::NotFound(format!("There is no tournament with id {id}.")))?;
    if query.round.is_some_and(|r| !(1..=1000).contains(&r)) {
        return Err(WebError::BadRequest(
            "Rounds are numbered from 1 (at most 1000): give the round the standings are after."
                .into(),
        ));
    }
    let tie_breaks = tournament.settings.tie_breaks.clone();
    let standings = trf::standings(
        &state.arbitration,
        &tournament,
        &tie_breaks,
        query.round.map(|r| r as usize),
    )
    .await?;
    let after = query
        .round
        .map(|r| (r as usize).min(standings.rounds))
        .unwrap_or(standings.rounds);
    let name = &tournament.settings.name;
    let round_text = after.to_string();
    let ReportHead { markup: head, .. } = reports::report_head(
        &reads,
        "Standings",
        name,
        (after > 0).then_some(round_text.as_str()),
    )
    .await?;
    let body = html! {
        (head)
        p.screen-only.head-links {
            button.print type="button" data-print="" { "Print" }
            a href={ (PREFIX) "/events/" (id) } { "The tournament" }
        }
        @if standings.rounds > 1 {
            nav.screen-only.round-picker aria-label="Standings after round" {
                "After round: "
                @for round in 1..=standings.rounds {
                    a href={ (PREFIX) "/events/" (id) "/standings?round=" (round) }
                        aria-current=[(round == after).then_some("page")] { (round) }
                    " "
                }
            }
        }
        section.panel {
            h2 { "Standings" @if after > 0 { " after round " (after) } }
            p.hint {
                @if tie_breaks.is_empty() {
                    "By points; players on equal points share a place (the tournament names no tie-breaks)."
                } @else {
                    "By points, then "
                    @for (i, tie_break) in tie_breaks.iter().enumerate() {
                        @if i > 0 { ", " }
                        (tie_break.code())
                    }
                    " (FIDE Handbook C.07); " (unplayed_text(standings.unplayed)) "."
                }
                " From the event log as it stands, appeals included."
            }
            @if standings.lines.is_empty() {
                p.hint { "No round loaded yet." }
            } @else {
                (table(&tie_breaks, &standings.lines))
            }
        }
    };
    Ok(layout::ok(layout::page(
        &format!("Standings · {name}"),
        Some(&viewer),
        Nav::Events,
        body,
    )))
}

//! What every report sheet shares: the event (and round) it is for, the chooser of a page
//! without one, the printed head, and the cells of a row of decisions.

use crate::game::narration::Narrator;
use crate::store::{EventRound, RulingItem, Store};
use crate::web::PREFIX;
use crate::web::desk::{self};
use crate::web::error::WebError;
use crate::web::layout::{self, HallTime};
use chrono::Utc;
use maud::{Markup, html};
use serde::Deserialize;

/// The event (and round) of a report.
#[derive(Debug, Deserialize)]
pub struct ReportQuery {
    /// The event's name.
    pub event: Option<String>,
    /// The round; all rounds when absent.
    pub round: Option<String>,
}

/// A chooser of events (and rounds) for a report page without one.
pub(super) fn chooser(page: &str, rounds: &[EventRound]) -> Markup {
    let mut events: Vec<&str> = rounds.iter().map(|r| r.event.as_str()).collect();
    events.dedup();
    html! {
        section.panel {
            p { "Choose an event" @if page != "appeals" { " and a round" } ":" }
            ul.plain.events {
                @for event in events {
                    li {
                        strong { (event) }
                        " "
                        @if page == "appeals" || page == "incidents" {
                            a href=(layout::round_link(page, event, None)) { "all rounds" } " "
                        }
                        @if page != "appeals" {
                            @for round in rounds.iter().filter(|r| r.event == event) {
                                a.chip href=(layout::round_link(page, event, Some(&round.round))) { "round " (round.round) } " "
                            }
                        }
                    }
                }
            }
        }
    }
}

pub(in crate::web) fn board_label(item: &RulingItem) -> String {
    match item.board {
        Some(board) => format!("{}.{board}", item.round),
        None => item.round.clone(),
    }
}

pub(in crate::web) fn position_link(item: &RulingItem) -> Markup {
    html! {
        a href={ (PREFIX) "/games/" (item.decision.game_id) "?at_seq=" (item.decision.seq) } { "position #" (item.decision.seq) }
    }
}

/// The mark of an event a correction retracted (a data-entry error undone): it no longer
/// stands, and the report says so rather than hiding it.
pub(in crate::web) fn retracted_mark(item: &RulingItem) -> Markup {
    html! {
        @if let Some(correction) = item.retracted_by {
            " " (layout::badge("retracted", &format!("retracted by #{correction}")))
        }
    }
}

pub(in crate::web) fn row_class(item: &RulingItem) -> &'static str {
    if item.retracted_by.is_some() {
        "retracted"
    } else {
        ""
    }
}

/// A ruling item's event in the arbiter's words, naming the game's players.
pub(in crate::web) fn told(item: &RulingItem) -> String {
    desk::unbroken_results(
        Narrator::with_names(&item.white, &item.black).sentence(None, &item.decision.event),
    )
}

pub(in crate::web) fn players(item: &RulingItem) -> Markup {
    html! { (item.white) " – " (item.black) }
}

/// The printed head of a report and how the report prints times.
pub(in crate::web) struct ReportHead {
    /// The event, the round, the venue, the arbiters, when printed.
    pub(in crate::web) markup: Markup,
    /// The venue's time zone, or UTC.
    pub(in crate::web) hall: HallTime,
}

/// The printed head of a report: the event, the round, the arbiters, when printed (in the
/// venue's time, as every time of the report).
pub(in crate::web) async fn report_head(
    reads: &Store,
    title: &str,
    event: &str,
    round: Option<&str>,
) -> Result<ReportHead, WebError> {
    let tournament = reads.tournament_named(event).await?;
    let hall = HallTime::of(tournament.as_ref());
    let markup = html! {
        div.page-head.report-head {
            h1 { (title) }
            p.facts {
                strong { (event) }
                @if let Some(round) = round { ", round " (round) } @else { ", all rounds" }
                @if let Some(t) = &tournament {
                    @if let Some(site) = &t.settings.site { " · " (site) }
                    @if let Some(start) = t.settings.starts_on { " · " (start) }
                    @if let Some(end) = t.settings.ends_on { " – " (end) }
                }
            }
            @if let Some(t) = &tournament {
                @if !t.settings.arbiters.is_empty() {
                    p.facts { "Arbiters: " (t.settings.arbiters.join("; ")) }
                }
            }
            p.facts.print-only { "Printed " (hall.timestamp(Utc::now())) " from the event log of the arbitration record service." }
        }
    };
    Ok(ReportHead { markup, hall })
}

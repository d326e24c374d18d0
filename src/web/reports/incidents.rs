//! The claims and incidents of an event, printable.

use super::sheet::{
    ReportHead, ReportQuery, board_label, chooser, players, position_link, report_head,
    retracted_mark, row_class, told,
};
use crate::game::event::{Event, RecordedEvent, ServiceEvent};
use crate::game::view::OpenClaim;
use crate::request::Reads;
use crate::state::AppState;
use crate::store::{GameSummary, RulingItem};
use crate::web::PREFIX;
use crate::web::desk::{self};
use crate::web::error::WebError;
use crate::web::floor;
use crate::web::layout::{self, HallTime, Nav};
use crate::web::session::Viewer;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};

/// The types of the incident report.
pub(super) const INCIDENT_TYPES: &[&str] = &[
    "claim",
    "claim_ruled",
    "penalty_applied",
    "illegal_move",
    "arbiter_decision",
    "clock_adjust",
    "correction",
    "appeal_lodged",
    "appeal_decided",
];

/// `GET /office/incidents?event=&round=`: the claims and incidents, printable.
pub async fn incidents(
    state: web::Data<AppState>,
    viewer: Viewer,
    reads: Reads,
    query: web::Query<ReportQuery>,
) -> Result<HttpResponse, WebError> {
    let Some(event) = query.event.as_deref().filter(|e| !e.is_empty()) else {
        let rounds = reads.event_rounds().await?;
        let body = html! { h1 { "Claims and incidents" } (chooser("incidents", &rounds)) };
        return Ok(layout::ok(layout::page(
            "Incidents",
            Some(&viewer),
            Nav::Incidents,
            body,
        )));
    };
    let round = query.round.as_deref().filter(|r| !r.is_empty());
    let items = reads
        .event_log_of_types(event, round, INCIDENT_TYPES)
        .await?;
    // Open claims: those the arbiter still has to decide, read from each game's state.
    let mut open = Vec::new();
    if let Some(round) = round {
        for board in floor::boards(&state, &reads, event, round).await? {
            for claim in &board.view.open_claims {
                open.push((board.summary.clone(), claim.clone()));
            }
        }
    }
    let ReportHead { markup: head, hall } =
        report_head(&reads, "Claims and incidents", event, round).await?;
    let body = html! {
        (head)
        p.screen-only.head-links {
            button.print type="button" data-print="" { "Print" }
            @if let Some(round) = round {
                a href=(layout::round_link("incidents", event, None)) { "All rounds" }
                a href=(layout::round_link("floor", event, Some(round))) { "Floor" }
            }
        }
        @if !open.is_empty() { (claims_to_decide(&open)) }
        (claims(&items, &hall))
        (penalties(&items, &hall))
        (other_incidents(&items, &hall))
        (appeals(&items, &hall))
        section.signatures.print-only {
            p { "Chief arbiter: ______________________________  Signature: ________________  Date: ____________" }
        }
    };
    Ok(layout::ok(layout::page(
        &format!("Incidents, {event}"),
        Some(&viewer),
        Nav::Incidents,
        body,
    )))
}

/// The items of one type.
fn of_type<'a>(items: &'a [RulingItem], type_name: &str) -> Vec<&'a RulingItem> {
    items
        .iter()
        .filter(|i| i.decision.event.type_name() == type_name)
        .collect()
}

/// The ruling on a claim, by the engine or by the arbiter (III.5), when there is one.
fn ruling_of<'a>(items: &'a [RulingItem], claim: &RulingItem) -> Option<&'a RulingItem> {
    items.iter().find(|i| {
        i.decision.game_id == claim.decision.game_id
            && match &i.decision.event {
                Event::Service(ServiceEvent::ClaimRuled(r)) => r.claim_seq == claim.decision.seq,
                Event::Recorded(RecordedEvent::ArbiterDecision {
                    subject_seq: Some(s),
                    ..
                }) => *s == claim.decision.seq,
                _ => false,
            }
    })
}

/// The claims of the round the arbiter still has to decide, each with the way to its desk.
fn claims_to_decide(open: &[(GameSummary, OpenClaim)]) -> Markup {
    html! {
        section.panel.attention {
            h2 { "Claims to decide" }
            table.list {
                thead { tr { th { "Board" } th { "Players" } th { "Claimant" } th { "Claim" } th { "Event" } th {} } }
                tbody {
                    @for (summary, claim) in open {
                        tr {
                            td { (summary.round) "." (summary.board.map(|b| b.to_string()).unwrap_or_default()) }
                            td { (summary.white) " – " (summary.black) }
                            td { (layout::side_name(claim.by)) }
                            td { (layout::words(&layout::wire_name(&claim.kind))) " (" (desk::claim_kind_article(claim.kind)) ")" }
                            td { "#" (claim.seq) }
                            td { a href={ (PREFIX) "/games/" (summary.game_id) } { "decide at the desk" } }
                        }
                    }
                }
            }
        }
    }
}

/// Every claim with its ruling, the article and the penalty.
fn claims(items: &[RulingItem], hall: &HallTime) -> Markup {
    let claims = of_type(items, "claim");
    html! {
        section.panel {
            h2 { "Claims" }
            @if claims.is_empty() { p.hint { "No claim." } } @else {
                table.list.report {
                    thead { tr { th { (hall.heading()) } th { "Board" } th { "Players" } th { "Claim" } th { "Ruling" } th { "Article" } th { "Penalty" } th { "Position" } } }
                    tbody {
                        @for claim in claims {
                            @let ruling = ruling_of(items, claim);
                            tr class=(row_class(claim)) {
                                td { (hall.time_of_day(claim.decision.recorded_at)) }
                                td { (board_label(claim)) }
                                td { (players(claim)) }
                                td { (told(claim)) (retracted_mark(claim)) }
                                @match ruling.map(|r| &r.decision.event) {
                                    Some(Event::Service(ServiceEvent::ClaimRuled(r))) => {
                                        td { strong { (layout::wire_name(&r.outcome)) } ": " (r.reason) }
                                        td { (r.article) }
                                        td { @if let Some(p) = &r.penalty { (p.add_ms / 1000) " s to " (layout::side_name(p.side)) } @else { "–" } }
                                    }
                                    Some(Event::Recorded(RecordedEvent::ArbiterDecision { decision, reason, .. })) => {
                                        td { strong { (layout::words(&layout::wire_name(decision))) } ": " (reason) }
                                        td { "III.5" }
                                        td { "–" }
                                    }
                                    _ => { td { em { "to decide" } } td { "–" } td { "–" } }
                                }
                                td {
                                    (position_link(claim))
                                    @if let Some(r) = ruling { " · " a href={ (PREFIX) "/games/" (r.decision.game_id) "/decisions/" (r.decision.seq) } { "review" } }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The time penalties given, to whom and why.
fn penalties(items: &[RulingItem], hall: &HallTime) -> Markup {
    let penalties = of_type(items, "penalty_applied");
    html! {
        section.panel {
            h2 { "Penalties" }
            @if penalties.is_empty() { p.hint { "No penalty." } } @else {
                table.list.report {
                    thead { tr { th { (hall.heading()) } th { "Board" } th { "Players" } th { "To" } th.num { "Seconds" } th { "Article" } th { "Why" } th { "Position" } } }
                    tbody {
                        @for item in penalties {
                            @if let Event::Service(ServiceEvent::PenaltyApplied { side, add_ms, article, reason, .. }) = &item.decision.event {
                                tr class=(row_class(item)) {
                                    td { (hall.time_of_day(item.decision.recorded_at)) }
                                    td { (board_label(item)) }
                                    td { (players(item)) }
                                    td { (layout::side_name(*side)) }
                                    td.num { (add_ms / 1000) }
                                    td { (article) }
                                    td { (reason) (retracted_mark(item)) }
                                    td { (position_link(item)) " · " a href={ (PREFIX) "/games/" (item.decision.game_id) "/decisions/" (item.decision.seq) } { "review" } }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Illegal moves, the arbiter's decisions, clock adjustments and corrections.
fn other_incidents(items: &[RulingItem], hall: &HallTime) -> Markup {
    let others: Vec<&RulingItem> = items
        .iter()
        .filter(|i| {
            matches!(
                i.decision.event.type_name(),
                "illegal_move" | "arbiter_decision" | "clock_adjust" | "correction"
            )
        })
        .collect();
    html! {
        section.panel {
            h2 { "Illegal moves, arbiter's decisions, clock adjustments, corrections" }
            @if others.is_empty() { p.hint { "None." } } @else {
                table.list.report {
                    thead { tr { th { (hall.heading()) } th { "Board" } th { "Players" } th { "What" } th { "Recorded by" } th { "Position" } } }
                    tbody {
                        @for item in others {
                            tr class=(row_class(item)) {
                                td { (hall.time_of_day(item.decision.recorded_at)) }
                                td { (board_label(item)) }
                                td { (players(item)) }
                                td { (told(item)) (retracted_mark(item)) }
                                td.who { (layout::recorder(&item.decision.recorded_by)) }
                                td { (position_link(item)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The appeals lodged and decided, each with the way to the decision appealed.
fn appeals(items: &[RulingItem], hall: &HallTime) -> Markup {
    let appeals: Vec<&RulingItem> = items
        .iter()
        .filter(|i| {
            matches!(
                i.decision.event.type_name(),
                "appeal_lodged" | "appeal_decided"
            )
        })
        .collect();
    html! {
        section.panel {
            h2 { "Appeals" }
            @if appeals.is_empty() { p.hint { "No appeal." } } @else {
                table.list.report {
                    thead { tr { th { (hall.heading()) } th { "Board" } th { "Players" } th { "What" } th { "Recorded by" } th {} } }
                    tbody {
                        @for item in appeals {
                            @let against = match &item.decision.event {
                                Event::Recorded(RecordedEvent::AppealLodged { against_seq, .. }) | Event::Recorded(RecordedEvent::AppealDecided { against_seq, .. }) => *against_seq,
                                _ => item.decision.seq,
                            };
                            tr {
                                td { (hall.time_of_day(item.decision.recorded_at)) }
                                td { (board_label(item)) }
                                td { (players(item)) }
                                td { (told(item)) }
                                td.who { (layout::recorder(&item.decision.recorded_by)) }
                                td { a href={ (PREFIX) "/games/" (item.decision.game_id) "/decisions/" (against) } { "review" } }
                            }
                        }
                    }
                }
            }
        }
    }
}

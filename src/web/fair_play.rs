//! The chief arbiter's fair-play report, printable (issue 23): the page face of
//! `crate::app::fair_play::report`, for holders of the `fair_play` capability only (any other
//! viewer is told there is no such page). The back office's print stylesheet prints it; the
//! same report is exported as JSON at `GET /v1/tournaments/{id}/fair-play-report`.

use super::error::WebError;
use super::layout::{self, Nav};
use super::viewer::Viewer;
use crate::app::fair_play::{self, FairPlayError, ReportEntry, ReportStatus};
use crate::game::fair_play::FairPlayFact;
use crate::state::AppState;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;

/// The event of the report.
#[derive(Debug, Deserialize)]
pub struct FairPlayQuery {
    /// The event's name.
    pub event: Option<String>,
}

fn not_found() -> WebError {
    WebError::NotFound("There is no such page.".into())
}

fn where_(entry: &ReportEntry) -> String {
    format!(
        "{}.{}",
        entry.round,
        entry.board.map(|b| b.to_string()).unwrap_or_default()
    )
}

fn player(entry: &ReportEntry) -> &'static str {
    entry
        .payload
        .record
        .player
        .map(layout::side_name)
        .unwrap_or("")
}

fn complaint_form(entry: &ReportEntry) -> Markup {
    let FairPlayFact::ComplaintLodged {
        stage,
        complainant,
        respondent,
        facts,
        attachments,
        signed_at,
    } = &entry.payload.record.fact
    else {
        return html! {};
    };
    let party = |p: &Option<crate::game::fair_play::Party>| match p {
        Some(p) => format!(
            "{}{}",
            p.name,
            p.fide_id
                .map(|id| format!(" (FIDE ID {id})"))
                .unwrap_or_default()
        ),
        None => String::new(),
    };
    html! {
        section.panel.complaint {
            h3 { "Complaint — board " (where_(entry)) ", event " (entry.seq) }
            table.facts {
                tr { th { "Stage" } td { (layout::wire_name(stage)) } }
                tr { th { "Complainant" } td { (party(complainant)) } }
                tr { th { "Respondent" } td { (party(respondent)) } }
                tr { th { "Facts" } td { (facts.as_deref().unwrap_or("")) } }
                tr { th { "Attachments" } td { (attachments.join(", ")) } }
                tr { th { "Signed" } td { (signed_at.map(layout::timestamp).unwrap_or_default()) } }
                tr { th { "Received by" } td { (entry.payload.record.arbiter) } }
            }
        }
    }
}

/// `GET /office/fair-play?event=`: the chief arbiter's fair-play report, printable.
pub async fn report(
    state: web::Data<AppState>,
    viewer: Viewer,
    query: web::Query<FairPlayQuery>,
) -> Result<HttpResponse, WebError> {
    let event = query
        .event
        .as_deref()
        .filter(|e| !e.is_empty())
        .ok_or_else(not_found)?;
    if viewer.principal.fair_play.is_none() {
        return Err(not_found());
    }
    let report = fair_play::report(
        &state.arbitration,
        event,
        &viewer.principal,
        chrono::Utc::now().date_naive(),
    )
    .await
    .map_err(|e| match e {
        FairPlayError::NotFound => not_found(),
        FairPlayError::Store(e) => e.into(),
        FairPlayError::Record(e) => e.into(),
        FairPlayError::Denied(e) => e.into(),
        FairPlayError::Field(e) => WebError::BadRequest(e.message),
    })?;
    let status = match report.status {
        ReportStatus::NoDeadline => "no deadline set".to_string(),
        ReportStatus::Due => format!(
            "due by {}",
            report.deadline.map(|d| d.to_string()).unwrap_or_default()
        ),
        ReportStatus::Overdue => format!(
            "OVERDUE since {}",
            report.deadline.map(|d| d.to_string()).unwrap_or_default()
        ),
    };
    let m = &report.measures;
    let c = &report.checks;
    let body = html! {
        h1 { "Fair-play report" }
        p.facts { strong { (report.event) } " · Laws of Chess " (layout::wire_name(&report.laws_edition))
            " · 12.2.7: " (report.fair_play_rules) }
        p.facts { "Report " strong { (status) } " (as of " (report.as_of) ")" }
        p.screen-only.head-links { button.print type="button" data-print="" { "Print" } }
        section.panel {
            h2 { "Measures in force" }
            ul {
                li { "Devices in a player's bag, switched off (11.3.2.1): " (if m.bags_allowed { "allowed" } else { "not allowed" }) }
                li { "Device on the person (11.3.2.2): "
                    @match &m.lesser_penalty {
                        Some(p) => { "the regulations' lesser penalty, " (p.article) }
                        None => { "loss of the game" }
                    }
                }
                li { "Broadcast delay: " @match m.broadcast_delay_minutes { Some(min) => { (min) " minutes" } None => { "none recorded" } } }
                li { "Entry scans: " (if m.entry_scans { "yes" } else { "none recorded" }) "; random checks: " (if m.random_checks { "yes" } else { "none recorded" }) }
            }
        }
        section.panel {
            h2 { "Checks" }
            table.list {
                thead { tr { th { "Entry scans" } th { "Random checks" } th { "Inspections requested" } th { "done" } th { "refused" } th { "Devices found" } th { "Departures" } } }
                tbody { tr { td { (c.entry_scans) } td { (c.random_checks) } td { (c.inspections_requested) } td { (c.inspections_done) } td { (c.inspections_refused) } td { (c.devices_found) } td { (c.departures) } } }
            }
        }
        section.panel {
            h2 { "Incidents and rulings" }
            @if report.incidents.is_empty() { p { "None." } } @else {
                table.list {
                    thead { tr { th { "Board" } th { "Event" } th { "Player" } th { "Fact" } th { "Ruling" } th { "Article" } th { "Reason" } } }
                    tbody {
                        @for e in &report.incidents {
                            @let ruling = e.payload.ruling.as_ref();
                            tr {
                                td { (where_(e)) } td { (e.seq) } td { (player(e)) }
                                td { (e.payload.record.fact.type_name()) }
                                td { (ruling.map(|r| layout::wire_name(&r.outcome)).unwrap_or_default()) }
                                td { (ruling.map(|r| r.article.clone()).unwrap_or_default())
                                     @if let Some(a) = ruling.and_then(|r| r.penalty_article.clone()) { ", " (a) } }
                                td { (ruling.map(|r| r.reason.clone()).unwrap_or_default()) }
                            }
                        }
                    }
                }
            }
        }
        section {
            h2 { "Complaints" }
            @if report.complaints.is_empty() { p { "None." } }
            @for e in &report.complaints { (complaint_form(e)) }
        }
        section.panel {
            h2 { "Referrals to the Fair Play panel" }
            @if report.referrals.is_empty() { p { "None." } } @else {
                ul { @for e in &report.referrals {
                    li { "Board " (where_(e)) ", event " (e.seq) ": "
                        @if let FairPlayFact::ReferredToFpl { reason } = &e.payload.record.fact { (reason) } }
                } }
            }
        }
        section.panel {
            h2 { "Every fair-play event" }
            table.list {
                thead { tr { th { "Board" } th { "Event" } th { "When" } th { "Arbiter" } th { "Player" } th { "Fact" } th { "Article" } th { "Proposal" } } }
                tbody {
                    @for e in &report.events {
                        tr {
                            td { (where_(e)) } td { (e.seq) }
                            td { (layout::timestamp(e.payload.record.at)) }
                            td { (e.payload.record.arbiter) } td { (player(e)) }
                            td { (e.payload.record.fact.type_name()) }
                            td { (e.payload.article) }
                            td { (if e.payload.proposal { "FPO proposal" } else { "" }) }
                        }
                    }
                }
            }
        }
    };
    Ok(layout::ok(layout::page(
        "Fair-play report",
        Some(&viewer),
        Nav::Incidents,
        body,
    )))
}

//! What the chief arbiter prints and the appeals committee reads: the claims and incidents of
//! an event (open and decided claims, every penalty, illegal move, arbiter's decision,
//! correction and appeal, with board, players, article and a link to the position), a
//! decision as the arbiter saw it (time travel to the `seq` before it) with the audit's
//! verdict and the appeal forms, and a round's results with its PGN.

use super::PREFIX;
use super::desk::{self, Loaded};
use super::error::WebError;
use super::floor;
use super::layout::{self, HallTime, Nav};
use super::session::Viewer;
use crate::game::event::{Event, RecordedEvent, ServiceEvent};
use crate::game::narration::Narrator;
use crate::game::view::GameStatus;
use crate::request::Reads;
use crate::state::AppState;
use crate::store::{EventRound, RulingItem, Store};
use actix_web::{HttpResponse, web};
use chrono::Utc;
use maud::{Markup, html};
use serde::Deserialize;
use uuid::Uuid;

/// The event (and round) of a report.
#[derive(Debug, Deserialize)]
pub struct ReportQuery {
    /// The event's name.
    pub event: Option<String>,
    /// The round; all rounds when absent.
    pub round: Option<String>,
}

/// The types of the incident report.
const INCIDENT_TYPES: &[&str] = &[
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

/// A chooser of events (and rounds) for a report page without one.
fn chooser(page: &str, rounds: &[EventRound]) -> Markup {
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

pub(super) fn board_label(item: &RulingItem) -> String {
    match item.board {
        Some(board) => format!("{}.{board}", item.round),
        None => item.round.clone(),
    }
}

pub(super) fn position_link(item: &RulingItem) -> Markup {
    html! {
        a href={ (PREFIX) "/games/" (item.decision.game_id) "?at_seq=" (item.decision.seq) } { "position #" (item.decision.seq) }
    }
}

/// The mark of an event a correction retracted (a data-entry error undone): it no longer
/// stands, and the report says so rather than hiding it.
pub(super) fn retracted_mark(item: &RulingItem) -> Markup {
    html! {
        @if let Some(correction) = item.retracted_by {
            " " (layout::badge("retracted", &format!("retracted by #{correction}")))
        }
    }
}

pub(super) fn row_class(item: &RulingItem) -> &'static str {
    if item.retracted_by.is_some() {
        "retracted"
    } else {
        ""
    }
}

/// A ruling item's event in the arbiter's words, naming the game's players.
pub(super) fn told(item: &RulingItem) -> String {
    desk::unbroken_results(
        Narrator::with_names(&item.white, &item.black).sentence(None, &item.decision.event),
    )
}

pub(super) fn players(item: &RulingItem) -> Markup {
    html! { (item.white) " – " (item.black) }
}

/// The printed head of a report and how the report prints times.
pub(super) struct ReportHead {
    /// The event, the round, the venue, the arbiters, when printed.
    pub(super) markup: Markup,
    /// The venue's time zone, or UTC.
    pub(super) hall: HallTime,
}

/// The printed head of a report: the event, the round, the arbiters, when printed (in the
/// venue's time, as every time of the report).
pub(super) async fn report_head(
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
    let of_type = |t: &str| -> Vec<&RulingItem> {
        items
            .iter()
            .filter(|i| i.decision.event.type_name() == t)
            .collect()
    };
    let ruling_of = |claim: &RulingItem| -> Option<&RulingItem> {
        items.iter().find(|i| {
            i.decision.game_id == claim.decision.game_id
                && match &i.decision.event {
                    Event::Service(ServiceEvent::ClaimRuled(r)) => {
                        r.claim_seq == claim.decision.seq
                    }
                    Event::Recorded(RecordedEvent::ArbiterDecision {
                        subject_seq: Some(s),
                        ..
                    }) => *s == claim.decision.seq,
                    _ => false,
                }
        })
    };
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
        @if !open.is_empty() {
            section.panel.attention {
                h2 { "Claims to decide" }
                table.list {
                    thead { tr { th { "Board" } th { "Players" } th { "Claimant" } th { "Claim" } th { "Event" } th {} } }
                    tbody {
                        @for (summary, claim) in &open {
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
        section.panel {
            h2 { "Claims" }
            @let claims = of_type("claim");
            @if claims.is_empty() { p.hint { "No claim." } } @else {
                table.list.report {
                    thead { tr { th { (hall.heading()) } th { "Board" } th { "Players" } th { "Claim" } th { "Ruling" } th { "Article" } th { "Penalty" } th { "Position" } } }
                    tbody {
                        @for claim in claims {
                            @let ruling = ruling_of(claim);
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
        section.panel {
            h2 { "Penalties" }
            @let penalties = of_type("penalty_applied");
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
        section.panel {
            h2 { "Illegal moves, arbiter's decisions, clock adjustments, corrections" }
            @let others: Vec<&RulingItem> = items.iter().filter(|i| matches!(i.decision.event.type_name(), "illegal_move" | "arbiter_decision" | "clock_adjust" | "correction")).collect();
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
        section.panel {
            h2 { "Appeals" }
            @let appeals: Vec<&RulingItem> = items.iter().filter(|i| matches!(i.decision.event.type_name(), "appeal_lodged" | "appeal_decided")).collect();
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

/// The decision types an appeals committee reviews.
const DECISION_TYPES: &[&str] = &[
    "claim_ruled",
    "penalty_applied",
    "game_ended",
    "arbiter_decision",
    "appeal_lodged",
    "appeal_decided",
];

/// `GET /office/appeals?event=`: the decisions of an event and the appeals against them.
pub async fn appeals(
    viewer: Viewer,
    reads: Reads,
    query: web::Query<ReportQuery>,
) -> Result<HttpResponse, WebError> {
    let Some(event) = query.event.as_deref().filter(|e| !e.is_empty()) else {
        let rounds = reads.event_rounds().await?;
        let body = html! { h1 { "Appeals" } (chooser("appeals", &rounds)) };
        return Ok(layout::ok(layout::page(
            "Appeals",
            Some(&viewer),
            Nav::Appeals,
            body,
        )));
    };
    let round = query.round.as_deref().filter(|r| !r.is_empty());
    let items = reads
        .event_log_of_types(event, round, DECISION_TYPES)
        .await?;
    let appeals_against = |item: &RulingItem| -> Vec<&RulingItem> {
        items
            .iter()
            .filter(|a| {
                a.decision.game_id == item.decision.game_id
                    && matches!(&a.decision.event,
                        Event::Recorded(RecordedEvent::AppealLodged { against_seq, .. })
                        | Event::Recorded(RecordedEvent::AppealDecided { against_seq, .. })
                        if *against_seq == item.decision.seq)
            })
            .collect()
    };
    let decisions: Vec<&RulingItem> = items
        .iter()
        .filter(|i| {
            !matches!(
                i.decision.event.type_name(),
                "appeal_lodged" | "appeal_decided"
            )
        })
        .collect();
    let ReportHead { markup: head, hall } = report_head(&reads, "Appeals", event, round).await?;
    let body = html! {
        (head)
        section.panel {
            p.hint {
                "Every decision of the event: the engine's rulings and penalties, the ends of games, the arbiters' decisions. "
                "Open one to see the game as the arbiter saw it, the audit of the ruling, and to lodge or decide an appeal. "
                "FIDE's appeals procedure usually allows an appeal until one hour after the round's last game in standard play, 15 minutes in rapid and blitz; the event's regulations decide."
            }
            @if decisions.is_empty() { p { "No decision yet." } } @else {
                table.list.report {
                    thead { tr { th { (hall.heading()) } th { "Board" } th { "Players" } th { "Decision" } th { "Appeal" } th {} } }
                    tbody {
                        @for item in decisions {
                            @let against = appeals_against(item);
                            tr class={ @if !against.is_empty() { "attention " } (row_class(item)) } {
                                td { (hall.time_of_day(item.decision.recorded_at)) }
                                td { (board_label(item)) }
                                td { (players(item)) }
                                td { (told(item)) (retracted_mark(item)) }
                                td {
                                    @if against.is_empty() { "–" }
                                    @for a in &against {
                                        div { (told(a)) }
                                    }
                                }
                                td { a.button href={ (PREFIX) "/games/" (item.decision.game_id) "/decisions/" (item.decision.seq) } { "Review" } }
                            }
                        }
                    }
                }
            }
        }
    };
    Ok(layout::ok(layout::page(
        &format!("Appeals, {event}"),
        Some(&viewer),
        Nav::Appeals,
        body,
    )))
}

/// The recorded event a stored event rests on: a decision's cause, or the event itself.
fn cause_of(event: &Event, seq: u64) -> u64 {
    match event {
        Event::Service(ServiceEvent::ClaimRuled(ruling)) => ruling.claim_seq,
        Event::Service(ServiceEvent::PenaltyApplied { cause_seq, .. })
        | Event::Service(ServiceEvent::GameEnded { cause_seq, .. }) => *cause_seq,
        _ => seq,
    }
}

/// `GET /office/games/{id}/decisions/{seq}`: a decision as the arbiter saw it, its audit,
/// and its appeals.
pub async fn decision(
    state: web::Data<AppState>,
    viewer: Viewer,
    reads: Reads,
    path: web::Path<(Uuid, u64)>,
) -> Result<HttpResponse, WebError> {
    let (game_id, seq) = path.into_inner();
    let now = desk::load(&state, &reads, game_id, None).await?;
    let Some(decision) = now.log.iter().find(|e| e.seq == seq).cloned() else {
        return Err(WebError::NotFound(format!(
            "The log of this game ends at event #{}; there is no event #{seq}.",
            now.seq
        )));
    };
    let cause = cause_of(&decision.event, seq);
    let before_seq = cause.saturating_sub(1).max(1);
    let Loaded {
        game: before_game,
        log: before_log,
        ..
    } = desk::load(&state, &reads, game_id, Some(before_seq)).await?;
    let before = before_game.view();
    let batch: Vec<&crate::store::EventEnvelope> = now
        .log
        .iter()
        .filter(|e| e.batch_id == decision.batch_id && e.seq >= cause)
        .collect();
    let audit = state.arbitration.audit_on(&reads, game_id).await?;
    // The venue's clock, as on every sheet of the tournament.
    let hall = HallTime::of(reads.tournament_named(&now.summary.event).await?.as_ref());
    let audited = audit
        .decisions
        .iter()
        .find(|d| d.cause_seq == cause || d.stored_seqs.contains(&seq));
    let history: Vec<&crate::store::EventEnvelope> = now
        .log
        .iter()
        .filter(|e| {
            matches!(&e.event,
            Event::Recorded(RecordedEvent::AppealLodged { against_seq, .. })
            | Event::Recorded(RecordedEvent::AppealDecided { against_seq, .. })
            if *against_seq == seq)
        })
        .collect();
    let corrections: Vec<(u64, u64)> = now
        .log
        .iter()
        .filter_map(|e| match e.event {
            Event::Recorded(RecordedEvent::Correction { retracts_seq, .. }) => {
                Some((e.seq, retracts_seq))
            }
            _ => None,
        })
        .collect();
    let standing = |e: &&&crate::store::EventEnvelope| {
        crate::game::retracted_by(&corrections, e.seq, false).is_none()
    };
    let lodged = history
        .iter()
        .filter(standing)
        .any(|e| matches!(e.event, Event::Recorded(RecordedEvent::AppealLodged { .. })));
    // The committee's decision is final (FIDE Tournament Rules VII.4): once one stands, the
    // form to decide is gone.
    let decided = history
        .iter()
        .filter(standing)
        .find(|e| {
            matches!(
                e.event,
                Event::Recorded(RecordedEvent::AppealDecided { .. })
            )
        })
        .map(|e| e.seq);
    let event_name = &now.summary.event;
    let may_lodge = viewer
        .principal
        .may_record("appeal_lodged", event_name)
        .is_ok();
    let may_decide = viewer
        .principal
        .may_record("appeal_decided", event_name)
        .is_ok();
    let flash = viewer.flash_for("record");
    let kept = |name: &str| {
        flash
            .as_ref()
            .filter(|f| f.refused)
            .and_then(|f| f.values.get(name).cloned())
            .unwrap_or_default()
    };
    let here = format!("{PREFIX}/games/{game_id}/decisions/{seq}");
    let cause_event = now.log.iter().find(|e| e.seq == cause);
    let narrator = Narrator::for_log(now.log.iter().map(|e| (e.seq, &e.event)));
    let person_decided = cause_event.is_some_and(|c| {
        matches!(
            c.event,
            Event::Recorded(RecordedEvent::ArbiterDecision { .. })
                | Event::Recorded(RecordedEvent::AppealDecided { .. })
        )
    });
    let form_head = |kind: &str| {
        html! {
            (layout::csrf_field(&viewer))
            input type="hidden" name="expected_seq" value=(now.seq);
            input type="hidden" name="event_id" value=(Uuid::new_v4());
            input type="hidden" name="type" value=(kind);
            input type="hidden" name="against_seq" value=(seq);
            input type="hidden" name="return_to" value=(here);
        }
    };
    let body = html! {
        (desk::game_heading(&now.summary))
        @if let Some(flash) = &flash {
            @if flash.refused { p.refusal role="alert" { (flash.message) } } @else { p.notice role="status" { (flash.message) } }
        }
        div.desk {
            div.desk-board {
                h2 { "As the arbiter saw it" }
                p.hint { "The game as it stood just before " @if let Some(c) = cause_event { "this: " (desk::describe(&narrator, c.seq, &c.event)) } @else { "the decision" } "." }
                (desk::diagram(game_id, before_seq, 320, &format!("After event #{before_seq}: {} to move", layout::side_name(before.side_to_move))))
                dl.facts {
                    dt { "Clocks" } dd { "W " (layout::clock(before.clocks.white_ms)) " · B " (layout::clock(before.clocks.black_ms)) }
                    dt { "50-move count" } dd { (before.halfmove_clock) " half-moves" }
                    dt { "Moves" } dd { (before.scoresheet.join(" ")) }
                }
                p { a href={ (PREFIX) "/games/" (game_id) "?at_seq=" (before_seq) } { "Open the desk as it stood then" } }
            }
            div.desk-side {
                section.panel {
                    h2 { "The decision" }
                    @for e in &batch { (desk::decision_panel(game_id, e, &narrator)) }
                }
                section.panel {
                    h2 { "Audit" }
                    p {
                        "Verdict for the game: " strong { (audit.verdict) } " (" (audit.summary) ") "
                        @match audited {
                            Some(d) if d.reproduced && person_decided => { "The decision is the person's; what the engine (" (audit.engine_version) ") derived from #" (d.cause_seq) " on the log before it is exactly what is stored." }
                            Some(d) if d.reproduced => { "The engine (" (audit.engine_version) "), re-run on the log before #" (d.cause_seq) ", decides exactly what is stored." }
                            Some(d) => { strong { "The engine now decides differently" } " (" (audit.engine_version) ", stored by " (d.stored_engine_version.as_deref().unwrap_or("an unknown engine")) ") on the log before #" (d.cause_seq) ": both versions are shown below." }
                            None => { "This event is a person's decision; the engine derived nothing from it to re-check." }
                        }
                    }
                    @if let Some(d) = audited.filter(|d| !d.notes.is_empty()) {
                        ul.plain.notes { @for note in &d.notes { li { (note) } } }
                    }
                    @if let Some(d) = audited.filter(|d| !d.reproduced) {
                        details open {
                            summary { "Stored and recomputed" }
                            pre.json { (serde_json::to_string_pretty(&d.stored).unwrap_or_default()) }
                            @if let Some(refusal) = &d.refusal {
                                p { "The engine refuses it now: " (refusal.message) " (" code { (refusal.refused) } ")." }
                            } @else {
                                pre.json { (serde_json::to_string_pretty(&d.recomputed).unwrap_or_default()) }
                            }
                        }
                    }
                    p.hint { "Hash chain: " @if audit.chain.intact { "intact" } @else { "broken" } ", head #" (audit.chain.head_seq) "." }
                }
                section.panel {
                    h2 { "Appeals" }
                    @if history.is_empty() { p.hint { "No appeal against this decision." } }
                    ul.plain.history {
                        @for e in &history {
                            li { span.when { (hall.timestamp(e.recorded_at)) } " · " (desk::describe(&narrator, e.seq, &e.event)) " · " span.who { (layout::recorder(&e.recorded_by)) } }
                        }
                    }
                    @if may_lodge {
                        details open[flash.as_ref().is_some_and(|f| f.refused && f.values.get("type").map(String::as_str) == Some("appeal_lodged"))] {
                            summary { "Lodge an appeal" }
                            form.record method="post" action={ (PREFIX) "/games/" (game_id) "/record" } {
                                (form_head("appeal_lodged"))
                                div.row {
                                    label for="appellant" { "Appellant" }
                                    input #appellant name="appellant" required maxlength="200" placeholder="Black (Okafor, Ben)" value=(kept("appellant"));
                                }
                                div.row {
                                    label for="grounds" { "Grounds" }
                                    textarea #grounds name="grounds" required maxlength="4000" rows="3" { (kept("grounds")) }
                                }
                                button.primary type="submit" { "Lodge the appeal" }
                            }
                        }
                    }
                    @if let Some(decided) = decided {
                        p.hint.final-decision { "The committee's decision (#" (decided) ") is final and is not decided again. If it was recorded wrongly, retract it with a correction of #" (decided) " while it is the game's latest event, then record the decision as it was made." }
                    } @else if may_decide && lodged {
                        details open {
                            summary { "Decide the appeal" }
                            form.record method="post" action={ (PREFIX) "/games/" (game_id) "/record" } {
                                (form_head("appeal_decided"))
                                div.row {
                                    label.check { input type="radio" name="upheld" value="yes"; " upheld" }
                                    label.check { input type="radio" name="upheld" value="no" checked; " dismissed" }
                                    label for="appeal-result" { "New result" }
                                    select #appeal-result name="result" {
                                        option value="" { "unchanged" }
                                        option value="1-0" { "1-0" } option value="1/2-1/2" { "½-½" } option value="0-1" { "0-1" }
                                        option value="resume" { "annulled: play resumes" }
                                    }
                                }
                                div.row {
                                    span.hint { "Play resumes (the ruling annulled, 11.10) with the clocks at:" }
                                    label for="resume-white" { "White" }
                                    input #resume-white name="resume_white" size="8" inputmode="numeric" placeholder="1:05:00" value=(kept("resume_white"));
                                    label for="resume-black" { "Black" }
                                    input #resume-black name="resume_black" size="8" inputmode="numeric" placeholder="0:58:30" value=(kept("resume_black"));
                                }
                                div.row {
                                    label for="appeal-reason" { "The committee's reasons" }
                                    textarea #appeal-reason name="reason" required maxlength="2000" rows="3" { (kept("reason")) }
                                }
                                button.primary type="submit" { "Record the committee's decision" }
                            }
                        }
                    }
                    p.hint { "The history keeps both: the original decision stays in the log, and the appeal's decision follows it." }
                }
            }
        }
        @if !before_log.is_empty() {
            p.hint { "The log up to then has " (before_log.len()) " events; the timeline of the desk lists them all." }
        }
    };
    Ok(layout::ok(layout::page(
        &format!("Decision #{seq}"),
        Some(&viewer),
        Nav::Appeals,
        body,
    )))
}

/// How a result is written on the pairing list: `1-0`, `½-½`, `0-1`, forfeits `+/−`, `−/+`
/// and the double forfeit `−/−`.
pub(super) fn result_cell(view: &crate::game::GameView) -> (String, bool) {
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
    let may_record = |board: &floor::Board| {
        viewer
            .principal
            .may_record("arbiter_decision", &board.summary.event)
            .is_ok()
    };
    let ReportHead { markup: head, .. } =
        report_head(&reads, "Results", event, Some(round)).await?;
    let body = html! {
        (head)
        @if let Some(flash) = viewer.flash() {
            @if flash.refused { p.refusal role="alert" { (flash.message) } } @else { p.notice role="status" { (flash.message) } }
            @if flash.code.as_deref() == Some("needs_confirmation") { (super::desk::confirm_form(&viewer, &flash)) }
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
                            td.screen-only {
                                @if board.view.status == GameStatus::InProgress && may_record(board) {
                                    form.record.inline method="post" action={ (PREFIX) "/games/" (board.summary.game_id) "/record" } {
                                        (layout::csrf_field(&viewer))
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
                                } @else if board.view.status == GameStatus::Ended && may_record(board) {
                                    a.undo href={ (PREFIX) "/games/" (board.summary.game_id) "#undo" } { "Wrong result? Undo…" }
                                }
                            }
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

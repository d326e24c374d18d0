//! What an appeals committee reviews: the decisions of an event, with their appeals.

use super::sheet::{
    ReportHead, ReportQuery, board_label, chooser, players, report_head, retracted_mark, row_class,
    told,
};
use crate::game::event::{Event, RecordedEvent};
use crate::request::Reads;
use crate::store::RulingItem;
use crate::web::PREFIX;
use crate::web::error::WebError;
use crate::web::layout::{self, Nav};
use crate::web::session::Viewer;
use actix_web::{HttpResponse, web};
use maud::html;

/// The decision types an appeals committee reviews.
pub(super) const DECISION_TYPES: &[&str] = &[
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

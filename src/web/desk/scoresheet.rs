//! The desk's record of the game: the scoresheet with `(=)` marks and the clock after each
//! move, the facts of the position next to the diagram, and the timeline of the log.

use super::decision::{claim_kind_article, describe};
use crate::game::board_status::{BoardStatus, move_records};
use crate::game::event::{Event, RecordedEvent, ServiceEvent, Side};
use crate::game::narration::Narrator;
use crate::game::view::GameStatus;
use crate::game::{Game, GameView};
use crate::store::EventEnvelope;
use crate::web::PREFIX;
use crate::web::layout;
use maud::{Markup, html};
use std::collections::{BTreeMap, HashSet};
use uuid::Uuid;

/// The scoresheet: moves in pairs with the `(=)` marks and the clock after each move.
pub(super) fn scoresheet(view: &GameView, game: &Game, log: &[EventEnvelope]) -> Markup {
    let records = move_records(game);
    let clock_of = |index: usize| -> Option<u64> {
        let record = records.get(index)?;
        let own = |e: &EventEnvelope| {
            e.clock.as_ref().and_then(|c| match record.by {
                Side::White => c.white_ms,
                Side::Black => c.black_ms,
            })
        };
        let by_seq = |seq: u64| log.iter().find(|e| e.seq == seq);
        record
            .press_ms
            .or_else(|| record.press_seq.and_then(by_seq).and_then(own))
            .or_else(|| by_seq(record.seq).and_then(own))
    };
    let white_first = records.first().is_none_or(|r| r.by == Side::White);
    let start_move = game
        .settings()
        .start_fen
        .as_deref()
        .and_then(|fen| fen.split_whitespace().nth(5))
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(1);
    let rows = scoresheet_rows(view, white_first, start_move);
    // A ply that no move event made (a reconstructed position, an illegal move that stood)
    // has no move record: the clock of ply `i` is that of the record counted without them.
    let unrecorded: Vec<usize> = view
        .reconstructed_positions
        .iter()
        .map(|r| r.ply)
        .chain(view.stood_illegal_moves.iter().map(|s| s.ply))
        .filter_map(|ply| ply.checked_sub(1))
        .collect();
    let record_of = |i: usize| i - unrecorded.iter().filter(|&&u| u < i).count();
    let cell = |i: Option<usize>| {
        html! {
            @if let Some(i) = i {
                span.san { (view.scoresheet[i]) }
                @if let Some(ms) = clock_of(record_of(i)) { span.clk { (layout::clock(Some(ms))) } }
            } @else { "…" }
        }
    };
    html! {
        table.scoresheet {
            thead { tr { th.num { "#" } th { "White" } th { "Black" } } }
            tbody {
                @if rows.is_empty() { tr { td colspan="3" { "No move yet." } } }
                @for row in &rows {
                    @match row {
                        ScoresheetRow::Moves(n, w, b) => {
                            tr { td.num { (n) } td { (cell(*w)) } td { (cell(*b)) } }
                        }
                        ScoresheetRow::Reconstructed(n) => {
                            tr.reconstructed { td colspan="3" { "Position reconstructed by the arbiter; play continues from move " (n) } }
                        }
                    }
                }
            }
        }
    }
}

/// A line of the desk's scoresheet.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum ScoresheetRow {
    /// A move number with the indexes of White's and Black's moves in the view's scoresheet.
    Moves(usize, Option<usize>, Option<usize>),
    /// The arbiter reconstructed the position (7.5.1, 7.6, 8.5.3); the numbering starts again
    /// from this move, as the position's FEN gives it.
    Reconstructed(usize),
}

/// The scoresheet's lines: moves in pairs, numbered from `start_move`, a reconstructed
/// position on a line of its own after which the numbering and the side to move are the
/// reconstructed position's.
pub(super) fn scoresheet_rows(
    view: &GameView,
    white_first: bool,
    start_move: usize,
) -> Vec<ScoresheetRow> {
    let reconstructed: BTreeMap<usize, &str> = view
        .reconstructed_positions
        .iter()
        .filter_map(|r| Some((r.ply.checked_sub(1)?, r.fen.as_str())))
        .collect();
    let plies = view.scoresheet.len();
    let mut rows = Vec::new();
    let (mut index, mut number, mut white) = (0, start_move, white_first);
    while index < plies {
        if let Some(fen) = reconstructed.get(&index) {
            let mut fields = fen.split_whitespace();
            white = fields.nth(1) != Some("b");
            number = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(number);
            rows.push(ScoresheetRow::Reconstructed(number));
            index += 1;
            continue;
        }
        if !white {
            rows.push(ScoresheetRow::Moves(number, None, Some(index)));
            index += 1;
            number += 1;
            white = true;
            continue;
        }
        let black =
            (index + 1 < plies && !reconstructed.contains_key(&(index + 1))).then_some(index + 1);
        rows.push(ScoresheetRow::Moves(number, Some(index), black));
        index += if black.is_some() { 2 } else { 1 };
        if black.is_some() {
            number += 1;
        } else {
            white = false;
        }
    }
    rows
}

/// The facts of the position next to the diagram.
pub(super) fn position_facts(view: &GameView, status: &BoardStatus) -> Markup {
    html! {
        dl.facts.position {
            dt { "Status" }
            dd {
                @match view.result {
                    Some(result) => {
                        strong { (layout::result_text(result)) }
                        @if let (Some(t), Some(a)) = (view.termination, &view.article) { " · " (layout::termination_text(t)) " (" (a) ")" }
                    }
                    None => { "in progress, " (layout::side_name(view.side_to_move)) " to move (move " (view.ply / 2 + 1) ")" }
                }
            }
            dt { "Clocks" }
            dd.clocks {
                span class={ "clock" @if status.running_clock == Some(Side::White) { " running" } } { "W " (layout::clock(view.clocks.white_ms)) }
                " "
                span class={ "clock" @if status.running_clock == Some(Side::Black) { " running" } } { "B " (layout::clock(view.clocks.black_ms)) }
                @if status.paused { " · paused" }
            }
            dt { "50-move count" } dd { (view.halfmove_clock) " half-moves (100 for a claim, 150 end the game)" }
            dt { "Repetition" } dd { "this position has stood " (view.repetition_count) " time(s)" }
            dt { "Illegal moves" } dd { "White " (view.illegal_moves.white) ", Black " (view.illegal_moves.black) " (7.5.5: the second loses)" }
            @for offer in &view.pending_offers {
                dt { "Draw offer" } dd { (layout::side_name(offer.by)) " (#" (offer.seq) ") is open" @if offer.forbidden { ", made while agreement is not allowed (9.1.1)" } }
            }
            @if view.increment_ms != 0 { dt { "Increment" } dd { (view.increment_ms / 1000) " s per move" } }
            @if let Some(touched) = &view.obligations.touched {
                dt { "Touch-move" } dd { (layout::side_name(touched.by)) " touched " (touched.square) " (4.3)" }
            }
            @if let Some(must) = &view.obligations.must_play {
                dt { "Must play" } dd { (layout::side_name(must.by)) ": " (must.san) " (9.5.3)" }
            }
            @if let Some(must) = &view.obligations.must_move_one_of {
                dt { "Must move" } dd { (layout::side_name(must.by)) ": a piece on " (must.squares.join(", ")) " (9.5.3, Article 4)" }
            }
            @if view.status == GameStatus::InProgress && (view.obligations.touched.is_some() || view.obligations.must_play.is_some() || view.obligations.must_move_one_of.is_some()) {
                dt { "Moves allowed" } dd { (view.obligations.acceptable_moves.join(" ")) }
            }
            @for claim in &view.open_claims {
                dt { "To decide" } dd { (layout::side_name(claim.by)) " #" (claim.seq) " (" (layout::words(&layout::wire_name(&claim.kind))) ", " (claim_kind_article(claim.kind)) ")" @if claim.postponed { ", postponed" } }
            }
            @if let Some(side) = view.flag_fell_awaiting_arbiter {
                dt { "Flag" } dd { (layout::side_name(side)) "'s flag fell while the claim was postponed: declare the result (III.5.2)" }
            }
            @for stood in &view.stood_illegal_moves {
                dt { "Illegal move stood" } dd { "#" (stood.seq) " at ply " (stood.ply) @if let Some(m) = &stood.attempted_move { " (" (m) ")" } }
            }
        }
    }
}

/// The timeline: every event of the log, with who recorded it, when, and its hash.
pub(super) fn timeline(
    log: &[EventEnvelope],
    narrator: &Narrator,
    standing: &HashSet<u64>,
    game_id: Uuid,
    hall: layout::HallTime,
) -> Markup {
    html! {
        table.list.timeline {
            thead { tr { th.num { "#" } th { (hall.heading()) } th { "Event" } th { "Recorded by" } th { "Hash" } } }
            tbody {
                @for e in log.iter().rev() {
                    tr class={ @if matches!(e.event, Event::Service(_)) { "decision" } @if !standing.contains(&e.seq) { " retracted" } } {
                        td.num { a href={ (PREFIX) "/games/" (game_id) "?at_seq=" (e.seq) } title="The game as it stood after this event" { (e.seq) } }
                        td.when { time datetime=(e.recorded_at.to_rfc3339()) title=(hall.timestamp(e.recorded_at)) { (hall.time_of_day(e.recorded_at)) } }
                        td {
                            (describe(narrator, e.seq, &e.event))
                            @if !standing.contains(&e.seq) { " " (layout::badge("retracted", "retracted")) }
                            @if matches!(e.event, Event::Service(ServiceEvent::ClaimRuled(_)) | Event::Service(ServiceEvent::PenaltyApplied { .. }) | Event::Service(ServiceEvent::GameEnded { .. }) | Event::Recorded(RecordedEvent::ArbiterDecision { .. })) {
                                " " a.small href={ (PREFIX) "/games/" (game_id) "/decisions/" (e.seq) } { "review" }
                            }
                        }
                        td.who { (layout::recorder(&e.recorded_by)) }
                        td { (layout::short_hash(&e.hash)) }
                    }
                }
            }
        }
    }
}

//! The game desk: one game as the arbiter handles it. The diagram, the scoresheet with `(=)`
//! marks and clock times, the full timeline (who recorded what, when, and the hash chain),
//! forms for every event of the vocabulary, and the engine's answer to what was just recorded
//! as an arbiter reads it: the ruling, its article, the evidence (the occurrences of a
//! repeated position side by side, the 50-move count), the penalty — or the refusal and what
//! to record instead, in which case nothing was stored and the form keeps what was typed.
//!
//! Recording follows post/redirect/get: the form posts, the engine judges it through
//! [`crate::app::arbitration::Arbitration::record`], and the browser is sent back to the desk,
//! which shows the answer (`?recorded=FIRST-LAST`) or the refusal (left in the session).
//! Every form carries the `seq` the page was drawn at (`expected_seq`) and fresh event ids,
//! so a form sent twice is stored once, and a form drawn before someone else recorded is
//! refused with the values kept.

use super::PREFIX;
use super::error::WebError;
use super::forms;
use super::layout::{self, Nav};
use super::session::{Fields, Flash, Posted, Viewer, leave_flash};
use crate::app::arbitration::RecordError;
use crate::game::board_status::{BoardStatus, board_status, move_records};
use crate::game::event::{
    ArbiterRuling, ClaimKind, ClaimOutcome, Event, IllegalMoveKind, RecordedEvent, ServiceEvent,
    Side,
};
use crate::game::narration::Narrator;
use crate::game::view::GameStatus;
use crate::game::{Game, GameView};
use crate::request::Reads;
use crate::state::AppState;
use crate::store::{EventEnvelope, GameSummary, Store, StoreError};
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;
use std::collections::{BTreeMap, HashSet};
use uuid::Uuid;

/// What the desk shows.
#[derive(Debug, Deserialize)]
pub struct DeskQuery {
    /// Time travel: the game as it stood after this event (read-only).
    pub at_seq: Option<u64>,
    /// The events just recorded (`FIRST-LAST`), whose answer is shown.
    pub recorded: Option<String>,
}

/// A diagram of the position after event `at_seq` (the API's `board.svg`).
pub fn diagram(game_id: Uuid, at_seq: u64, size: u32, caption: &str) -> Markup {
    html! {
        figure.diagram {
            // The diagram carries its own caption (players, move, clocks, seq).
            img src={ "/v1/games/" (game_id) "/board.svg?at_seq=" (at_seq) "&size=" (size) }
                width=(size) alt={ "Diagram: " (caption) };
        }
    }
}

/// The occurrences of a repeated position side by side (the API's occurrence sheet).
pub fn occurrence_sheet(game_id: Uuid, claim_seq: u64) -> Markup {
    html! {
        figure.sheet {
            img src={ "/v1/games/" (game_id) "/claims/" (claim_seq) "/occurrences.svg?size=240" }
                alt="The occurrences of the claimed position, side by side";
            figcaption { "Each occurrence of the claimed position, with the move that led to it." }
        }
    }
}

/// A one-line account of an event (its `seq` in the log `narrator` was made from), in the
/// arbiter's words ([`Narrator`]).
pub fn describe(narrator: &Narrator, seq: u64, event: &Event) -> String {
    unbroken_results(narrator.sentence(Some(seq), event))
}

/// A result with a non-breaking hyphen, so that a narrow column never splits "1-0" into "1-"
/// and "0".
pub fn unbroken_results(text: String) -> String {
    ["1-0", "0-1", "½-½", "0-0"]
        .iter()
        .fold(text, |text, result| {
            text.replace(result, &result.replace('-', "\u{2011}"))
        })
}

/// The engine's decisions as an arbiter reads them: ruling, article, evidence, penalty.
pub fn decision_panel(game_id: Uuid, envelope: &EventEnvelope, narrator: &Narrator) -> Markup {
    match &envelope.event {
        Event::Service(ServiceEvent::ClaimRuled(ruling)) => {
            let evidence = &ruling.evidence;
            let upheld = ruling.outcome == ClaimOutcome::Upheld;
            let plies: &[usize] = evidence.occurrences.as_deref().unwrap_or_default();
            let near = evidence.near_misses.as_deref().unwrap_or_default();
            let is_repetition = evidence.claim == ClaimKind::Repetition;
            html! {
                article class={ "ruling " (if upheld { "upheld" } else { "rejected" }) } {
                    header {
                        span.verdict { (if upheld { "Claim correct" } else { "Claim incorrect" }) }
                        span.article { "Article " (ruling.article) }
                        span.seq { "#" (envelope.seq) }
                    }
                    p.reason { (ruling.reason) }
                    dl.evidence {
                        dt { "Claimant" } dd { (narrator.player_and_colour(evidence.claimant)) }
                        dt { "Form" } dd { (match evidence.form {
                            Some(crate::rules::evidence::ClaimForm::HasJustAppeared) => "the position has just appeared (9.2.1.2)",
                            Some(crate::rules::evidence::ClaimForm::IntendedMove) => "the position appears after the written move (9.2.1.1)",
                            None => "–",
                        }) }
                        @if let Some(m) = &evidence.intended_move { dt { "Written move" } dd { (m) } }
                        dt { "50-move count" }
                        dd {
                            (evidence.halfmove_clock.map(|n| n.to_string()).unwrap_or_else(|| "–".into()))
                            " half-moves without a capture or pawn move"
                            @if let Some(after) = evidence.halfmove_clock_after_intended_move {
                                ", " (after) " after the written move"
                            }
                            " (100 are 50 moves, 9.3)"
                        }
                        @if is_repetition {
                            dt { "Occurrences" }
                            dd {
                                @if plies.is_empty() { "–" } @else { (plies.iter().map(|p| narrator.position_after_ply(*p)).collect::<Vec<_>>().join("; ")) }
                                @if evidence.occurrence_after_intended_move.is_some() { "; and again after the written move" }
                            }
                        }
                        dt { "Position" } dd { code.fen { (evidence.fen) } }
                    }
                    @if is_repetition && (!plies.is_empty() || evidence.fen_after_intended_move.is_some()) {
                        (occurrence_sheet(game_id, ruling.claim_seq))
                    }
                    @if !near.is_empty() {
                        h4 { "Same pieces, not the same position (9.2.3)" }
                        ul.near {
                            @for miss in near {
                                li { (narrator.position_after_ply(miss.ply)) ": differs by "
                                    (miss.differs_by.iter().map(|d| layout::words(d.name())).collect::<Vec<_>>().join(", ")) }
                            }
                        }
                    }
                    @if let Some(penalty) = &ruling.penalty {
                        p.penalty { strong { (layout::side_name(penalty.side)) " receives " (penalty.add_ms / 1000) " s." } }
                    }
                    @if let Some(san) = &ruling.must_play {
                        p.penalty { strong { "The claimant must now play " (san) " (9.5.3)." } }
                    }
                    footer.ruled-by { "Ruled by " (ruling.ruled_by.engine_version) " under the Laws of " (layout::wire_name(&ruling.ruled_by.laws_edition)) }
                }
            }
        }
        Event::Service(ServiceEvent::PenaltyApplied {
            side,
            add_ms,
            article,
            reason,
            ..
        }) => html! {
            article.ruling.penalty {
                header { span.verdict { "Penalty" } span.article { "Article " (article) } span.seq { "#" (envelope.seq) } }
                p.reason { strong { (layout::side_name(*side)) " receives " (add_ms / 1000) " s." } " " (reason) }
            }
        },
        Event::Service(ServiceEvent::GameEnded {
            result,
            termination,
            article,
            reason,
            evidence,
            ..
        }) => html! {
            article.ruling.ended {
                header {
                    span.verdict { "Game over: " (layout::result_text(*result)) }
                    span.article { (layout::termination_text(*termination)) ", article " (article) }
                    span.seq { "#" (envelope.seq) }
                }
                p.reason { (reason) }
                @if let Some(evidence) = evidence {
                    p { "Position: " code.fen { (evidence.fen) } }
                }
            }
        },
        other => html! { p.recorded { (describe(narrator, envelope.seq, other)) } },
    }
}

/// The answer to the events stored by one form.
fn answer_panel(
    game_id: Uuid,
    stored: &[&EventEnvelope],
    follows: Option<String>,
    narrator: &Narrator,
) -> Markup {
    let decisions: Vec<&&EventEnvelope> = stored
        .iter()
        .filter(|e| matches!(e.event, Event::Service(_)))
        .collect();
    html! {
        section.panel.answer #answer aria-live="polite" {
            h2 { "The engine's answer" }
            ul.plain {
                @for e in stored.iter().filter(|e| matches!(e.event, Event::Recorded(_))) {
                    li { "Recorded: " (describe(narrator, e.seq, &e.event)) }
                }
            }
            @if let Some(follows) = follows.filter(|_| decisions.is_empty()) {
                p { (follows) }
            } @else if decisions.is_empty() {
                p.hint { "Stored. No ruling follows from it." }
            }
            @for e in decisions { (decision_panel(game_id, e, narrator)) }
        }
    }
}

/// What a stored event binds the players to when no ruling follows from it: a touched piece
/// (4.3) or a draw offer the regulations do not let the players agree yet (9.1.1).
fn follows(game: &Game, view: &GameView, stored: &[&EventEnvelope]) -> Option<String> {
    touch_follows(game, view, stored).or_else(|| offer_follows(game, stored))
}

/// What a piece touched with the intention of moving or capturing it binds its player to
/// (4.3, with 4.5 when none of the pieces touched can be moved or captured) and costs them
/// (9.4: no claim under 9.2 or 9.3 on this move). Read from the game as it stands, so only
/// when nothing was recorded after the touch.
fn touch_follows(game: &Game, view: &GameView, stored: &[&EventEnvelope]) -> Option<String> {
    let (seq, by, square) = stored.iter().find_map(|e| match &e.event {
        Event::Recorded(RecordedEvent::Touch { by, square }) => Some((e.seq, *by, square)),
        _ => None,
    })?;
    let latest = game.standing_events().map(|(seq, _)| seq).max()?;
    if stored.iter().map(|e| e.seq).max()? < latest || seq > latest || game.is_over() {
        return None;
    }
    let side = layout::side_name(by);
    let binds = match &view.obligations.touched {
        Some(touched) if touched.opponents_piece => format!(
            "{side} must capture the piece on {} (4.3.2)",
            touched.square
        ),
        Some(touched) => format!("{side} must move the piece on {} (4.3.1)", touched.square),
        None => format!(
            "none of the pieces {side} touched can be moved or captured, so {side} may make \
             any legal move (4.5); the piece on {square} binds nothing"
        ),
    };
    let moves = &view.obligations.acceptable_moves;
    let choices = if view.obligations.touched.is_some() && !moves.is_empty() && moves.len() <= 12 {
        format!(": {}", moves.join(", "))
    } else {
        String::new()
    };
    Some(format!(
        "Stored. {binds}{choices}. Having touched a piece, {side} can no longer claim a draw \
         under 9.2 or 9.3 on this move (9.4)."
    ))
}

/// What follows from a draw offer the regulations do not let the players agree yet (9.1.1):
/// the engine is asked whether the opponent's acceptance would stand now, and its refusal,
/// if any, is what the arbiter reads. `None` for other events.
fn offer_follows(game: &Game, stored: &[&EventEnvelope]) -> Option<String> {
    let by = stored.iter().find_map(|e| match &e.event {
        Event::Recorded(RecordedEvent::DrawOffer { by }) => Some(*by),
        _ => None,
    })?;
    let next_seq = stored.iter().map(|e| e.seq).max()? + 1;
    let accepted = RecordedEvent::DrawAccept { by: by.opponent() };
    let refusal = game.decide(next_seq, &accepted).err()?;
    Some(format!(
        "The offer is recorded and marked (=) on the scoresheet, but an acceptance now would be \
         refused: {}",
        refusal.message()
    ))
}

fn refusal_panel(flash: &Flash, frame: &FormFrame, event_name: &str) -> Markup {
    html! {
        section.panel.answer.refused #answer role="alert" {
            h2 { "Not recorded" }
            p.refusal {
                @if let Some(title) = flash.code.as_deref().and_then(crate::problem::ProblemCode::parse).and_then(crate::problem::ProblemCode::title) { span.code { (title) } ": " }
                (flash.message)
            }
            @if flash.code.as_deref() == Some("needs_confirmation") {
                (confirm_form(frame.viewer, flash))
            } @else {
                p.hint { "Nothing was stored. The form below keeps what you typed." }
            }
            (played_as_illegal(flash, frame, event_name))
        }
    }
}

/// The form an arbiter confirms an entry with after the evidence was shown
/// ([`crate::app::confirmations`]): the same values again, with `confirmed`. It is drawn at
/// the `seq` the first form was drawn at, so an entry overtaken by another one is refused as
/// stale rather than confirmed blind. Also shown by the results page.
pub fn confirm_form(viewer: &Viewer, flash: &Flash) -> Markup {
    let (Some(game_id), Some(expected_seq)) =
        (flash.values.get("game_id"), flash.values.get("confirm_seq"))
    else {
        return html! {};
    };
    html! {
        form.record.confirm method="post" action={ (PREFIX) "/games/" (game_id) "/record" } {
            (layout::csrf_field(viewer))
            input type="hidden" name="expected_seq" value=(expected_seq);
            input type="hidden" name="event_id" value=(Uuid::new_v4());
            @for (name, value) in flash.values.iter().filter(|(name, _)| !matches!(name.as_str(), "csrf" | "game_id" | "confirm_seq" | "confirmed")) {
                input type="hidden" name=(name) value=(value);
            }
            input type="hidden" name="confirmed" value="yes";
            p.hint { "Nothing was stored. If the entry is right after all, confirm it:" }
            button.danger type="submit" { "Record it as entered" }
        }
    }
}

/// A typed move the engine refused as not legal (or as played out of turn) may be what was
/// played on the board: one button records it as the illegal move it was (7.5.1), with the
/// move as typed (which names the piece touched, 4.3) and completed when the form said the
/// clock was pressed. Nothing for other refusals.
fn played_as_illegal(flash: &Flash, frame: &FormFrame, event_name: &str) -> Markup {
    let values = &flash.values;
    let refused_move = values.get("type").map(String::as_str) == Some("move")
        && matches!(
            flash.code.as_deref(),
            Some("illegal_move" | "not_your_turn")
        );
    let (Some(by), Some(san)) = (values.get("by"), values.get("san")) else {
        return html! {};
    };
    let san = san.trim();
    if !refused_move
        || san.is_empty()
        || frame
            .viewer
            .principal
            .may_record("illegal_move", event_name)
            .is_err()
    {
        return html! {};
    }
    let pressed = values.contains_key("press");
    html! {
        (frame.form("illegal_move", "form-played-as-illegal", "inline", html! {
            input type="hidden" name="by" value=(by);
            input type="hidden" name="kind" value="illegal_move";
            input type="hidden" name="attempted_move" value=(san);
            input type="hidden" name="description" value={ (san) " played on the board, not a legal move there" };
            label.check { input type="checkbox" name="completed" checked[pressed]; " completed (the clock was pressed)" }
            button type="submit" { "Record " (san) " as an illegal move (7.5)" }
        }))
    }
}

/// The scoresheet: moves in pairs with the `(=)` marks and the clock after each move.
fn scoresheet(view: &GameView, game: &Game, log: &[EventEnvelope]) -> Markup {
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
enum ScoresheetRow {
    /// A move number with the indexes of White's and Black's moves in the view's scoresheet.
    Moves(usize, Option<usize>, Option<usize>),
    /// The arbiter reconstructed the position (7.5.1, 7.6, 8.5.3); the numbering starts again
    /// from this move, as the position's FEN gives it.
    Reconstructed(usize),
}

/// The scoresheet's lines: moves in pairs, numbered from `start_move`, a reconstructed
/// position on a line of its own after which the numbering and the side to move are the
/// reconstructed position's.
fn scoresheet_rows(view: &GameView, white_first: bool, start_move: usize) -> Vec<ScoresheetRow> {
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
fn position_facts(view: &GameView, status: &BoardStatus) -> Markup {
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
fn timeline(
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

fn side_options(selected: Option<&str>, default: Side) -> Markup {
    let chosen = selected.unwrap_or(default.name());
    html! {
        option value="white" selected[chosen == "white"] { "White" }
        option value="black" selected[chosen == "black"] { "Black" }
    }
}

/// One recording form.
struct FormFrame<'a> {
    viewer: &'a Viewer,
    game_id: Uuid,
    expected_seq: u64,
    /// The refused form's values, when it is this one.
    kept: Option<&'a Flash>,
}

impl FormFrame<'_> {
    fn kept(&self, kind: &str) -> Option<&Flash> {
        self.kept
            .filter(|f| f.values.get("type").map(String::as_str) == Some(kind))
    }

    fn value(&self, kind: &str, name: &str) -> String {
        self.kept(kind)
            .and_then(|f| f.values.get(name).cloned())
            .unwrap_or_default()
    }

    fn form(&self, kind: &str, id: &str, class: &str, inner: Markup) -> Markup {
        html! {
            form id=(id) class={ "record " (class) } method="post" action={ (PREFIX) "/games/" (self.game_id) "/record" } {
                (layout::csrf_field(self.viewer))
                input type="hidden" name="expected_seq" value=(self.expected_seq);
                input type="hidden" name="event_id" value=(Uuid::new_v4());
                input type="hidden" name="type" value=(kind);
                (inner)
            }
        }
    }
}

/// Every recording form the viewer may use.
fn record_forms(frame: &FormFrame, view: &GameView, event_name: &str) -> Markup {
    // A claim waiting for the arbiter is what a decision is most likely about.
    let open_claim = view.open_claims.first().map(|claim| claim.seq);
    let principal = &frame.viewer.principal;
    let may = |kind: &str| principal.may_record(kind, event_name).is_ok();
    let to_move = view.side_to_move;
    let open = |kinds: &[&str]| kinds.iter().any(|k| frame.kept(k).is_some());
    let by_select = |kind: &str, name: &str, default: Side| {
        let kept = frame.value(kind, name);
        html! {
            select name=(name) aria-label="Player" { (side_options((!kept.is_empty()).then_some(kept.as_str()), default)) }
        }
    };
    let decisions: Vec<String> = arbiter_rulings();
    let over = view.status == GameStatus::Ended;
    html! {
        @if over && (may("correction") || may("appeal_lodged")) {
            section.panel.hint {
                "The game is over"
                @if let (Some(result), Some(article)) = (view.result, &view.article) { " (" (layout::result_text(result)) ", " (article) ")" }
                ". The Laws accept no board event after the end; what can still be recorded: a correction of the latest event if it was a data-entry error, an arbiter's warning, and appeals (on the review page of a decision)."
            }
        }
        @if may("move") && !over {
            section.panel.record-main {
                h2 { "Record" }
                (frame.form("move", "form-move", "move", html! {
                    div.row {
                        label for="move-by" { "Player" }
                        select #move-by name="by" { (side_options(Some(&{ let k = frame.value("move", "by"); if k.is_empty() { to_move.name().to_string() } else { k } }), to_move)) }
                        label for="san" { "Move" }
                        input #san name="san" required maxlength="16" accesskey="m" autocomplete="off" autocapitalize="off" spellcheck="false"
                            placeholder="e4, Nf3, O-O" value=(frame.value("move", "san"));
                    }
                    div.row {
                        label.check { input type="checkbox" name="press" checked[frame.kept("move").is_none_or(|f| f.values.contains_key("press"))]; " and the clock press" }
                        input type="hidden" name="event_id_press" value=(Uuid::new_v4());
                        label for="move-clock" { "Mover's clock" }
                        input #move-clock name="clock" inputmode="numeric" placeholder="1:29:51" value=(frame.value("move", "clock")) size="8";
                        button.primary type="submit" { "Record move" }
                    }
                }))
                div.quick {
                    @for side in [Side::White, Side::Black] {
                        (frame.form("clock_press", &format!("form-press-{}", side.name()), "inline", html! {
                            input type="hidden" name="by" value=(side.name());
                            button type="submit" { (layout::side_name(side)) " presses clock" }
                        }))
                    }
                    (frame.form("clock_pause", "form-pause", "inline", html! { button type="submit" { "Pause clock" } }))
                    (frame.form("clock_resume", "form-resume", "inline", html! { button type="submit" { "Restart clock" } }))
                }
                details open[open(&["clock_press"])] {
                    summary { "Clock press with both times" }
                    (frame.form("clock_press", "form-press-times", "", html! {
                        div.row {
                            label { "Player" } (by_select("clock_press", "by", to_move))
                            label for="white_time" { "White" } input #white_time name="white_time" placeholder="1:29:51" size="8" value=(frame.value("clock_press", "white_time"));
                            label for="black_time" { "Black" } input #black_time name="black_time" placeholder="1:29:48" size="8" value=(frame.value("clock_press", "black_time"));
                            button type="submit" { "Record press" }
                        }
                    }))
                }
                details open[open(&["touch"])] {
                    summary { "Touched piece (4.3)" }
                    (frame.form("touch", "form-touch", "", html! {
                        div.row {
                            label { "Player" } (by_select("touch", "by", to_move))
                            label for="square" { "Square" } input #square name="square" required maxlength="2" size="3" placeholder="g1" value=(frame.value("touch", "square"));
                            button type="submit" { "Record touch" }
                        }
                    }))
                }
                details open[open(&["draw_offer", "draw_accept", "draw_decline"])] {
                    summary { "Draw offer and answer (9.1)" }
                    div.row {
                        @for (kind, label) in [("draw_offer", "offers a draw"), ("draw_accept", "accepts"), ("draw_decline", "declines")] {
                            (frame.form(kind, &format!("form-{kind}"), "inline", html! {
                                (by_select(kind, "by", if kind == "draw_offer" { to_move.opponent() } else { to_move }))
                                button type="submit" { (label) }
                            }))
                        }
                    }
                }
                details open[open(&["claim"])] {
                    summary { "Claim (9.2, 9.3, III.4, III.5)" }
                    (frame.form("claim", "form-claim", "", html! {
                        div.row {
                            label { "Claimant" } (by_select("claim", "by", to_move))
                            label for="kind" { "Claim" }
                            select #kind name="kind" {
                                @for (value, label) in [("repetition", "Threefold repetition (9.2)"), ("fifty_moves", "50 moves (9.3)"), ("quickplay_finish", "Quickplay finish (III.5)"), ("increment_request", "Request for an increment (III.4)")] {
                                    option value=(value) selected[frame.value("claim", "kind") == value] { (label) }
                                }
                            }
                        }
                        div.row {
                            label for="intended_move" { "Written move, not played (9.2.1)" }
                            input #intended_move name="intended_move" maxlength="16" size="8" placeholder="none" value=(frame.value("claim", "intended_move"));
                            button.primary type="submit" { "Record claim" }
                        }
                        p.hint { "Record the clock pause first if the claimant stopped the clocks." }
                    }))
                }
                details open[open(&["illegal_move"])] {
                    summary { "Illegal move (7.5)" }
                    (frame.form("illegal_move", "form-illegal", "", html! {
                        div.row {
                            label { "Player" } (by_select("illegal_move", "by", to_move))
                            label for="illegal-kind" { "What" }
                            select #illegal-kind name="kind" {
                                @for value in enum_values::<IllegalMoveKind>() {
                                    option value=(value) selected[frame.value("illegal_move", "kind") == value] { (layout::words(&value)) }
                                }
                            }
                            label.check { input type="checkbox" name="completed" checked[frame.kept("illegal_move").is_none_or(|f| f.values.contains_key("completed"))]; " completed (clock pressed)" }
                        }
                        div.row {
                            label for="attempted_move" { "The move attempted" }
                            input #attempted_move name="attempted_move" maxlength="16" size="8" placeholder="g8f6 or Nf6" value=(frame.value("illegal_move", "attempted_move"));
                            span.hint { "names the touched piece (7.5.1, 4.3)" }
                        }
                        div.row {
                            label for="description" { "What happened" }
                            input #description name="description" required maxlength="2000" placeholder="Ke7 leaving the king in check" value=(frame.value("illegal_move", "description"));
                            button type="submit" { "Record illegal move" }
                        }
                    }))
                }
                details open[open(&["flag", "resign"])] {
                    summary { "Flag fall (6.9) and resignation (5.1.2)" }
                    div.row {
                        (frame.form("flag", "form-flag", "inline", html! {
                            label { "Flag of" } (by_select("flag", "side", to_move))
                            button type="submit" { "Record flag fall" }
                        }))
                        (frame.form("resign", "form-resign", "inline", html! {
                            (by_select("resign", "by", to_move))
                            button type="submit" { "resigns" }
                        }))
                    }
                }
                details open[open(&["clock_adjust"])] {
                    summary { "Clock adjustment (6.10, 7.5, 9.5)" }
                    (frame.form("clock_adjust", "form-adjust", "", html! {
                        div.row {
                            label { "Clock of" } (by_select("clock_adjust", "side", to_move))
                            label for="delta" { "Change" } input #delta name="delta" required size="7" placeholder="+2:00" value=(frame.value("clock_adjust", "delta"));
                        }
                        div.row {
                            label for="adjust-reason" { "Reason" } input #adjust-reason name="reason" required maxlength="2000" value=(frame.value("clock_adjust", "reason"));
                            button type="submit" { "Record adjustment" }
                        }
                    }))
                }
            }
        }
        @if may("arbiter_decision") {
            details.panel open[open(&["arbiter_decision"])] {
                summary { "Arbiter's decision" }
                (frame.form("arbiter_decision", "form-decision", "", html! {
                    div.row {
                        label for="decision" { "Decision" }
                        select #decision name="decision" {
                            @for value in decisions.iter().filter(|d| !over || d.as_str() == "warning") { option value=(value) selected[frame.value("arbiter_decision", "decision") == *value] { (layout::words(value)) } }
                        }
                        label for="subject_seq" { "On event #" } input #subject_seq name="subject_seq" size="5" placeholder="seq" value=({
                            let kept = frame.value("arbiter_decision", "subject_seq");
                            if kept.is_empty() { open_claim.map(|s| s.to_string()).unwrap_or_default() } else { kept }
                        });
                    }
                    div.row {
                        label for="decision-result" { "Result" }
                        select #decision-result name="result" {
                            option value="" { "none" }
                            @for (value, label) in [("1-0", "1-0"), ("1/2-1/2", "½-½"), ("0-1", "0-1"), ("0-0", "0-0 (both lose)")] {
                                option value=(value) selected[frame.value("arbiter_decision", "result") == value] { (label) }
                            }
                        }
                        label for="decision-cause" { "Ended as" }
                        select #decision-cause name="cause" {
                            @for (value, label) in [("adjudication", "the arbiter's ruling"), ("rules_infraction", "a loss for breaking the Laws (e.g. 11.3.2.2)"), ("reported_result", "the result the players reported (8.7)"), ("forfeit", "a forfeit: not played (6.7.1)")] {
                                option value=(value) selected[frame.value("arbiter_decision", "cause") == value] { (label) }
                            }
                        }
                        label for="penalty_time" { "Time to" } (by_select("arbiter_decision", "penalty_side", to_move.opponent()))
                        input #penalty_time name="penalty_time" size="6" placeholder="2:00" value=(frame.value("arbiter_decision", "penalty_time"));
                    }
                    div.row {
                        label for="decision-move" { "Illegal move that stands" }
                        input #decision-move name="attempted_move" maxlength="16" size="8" placeholder="e.g. Ke2" value=(frame.value("arbiter_decision", "attempted_move"));
                        label for="decision-fen" { "or the position (FEN)" }
                        input #decision-fen name="fen" maxlength="100" placeholder="FEN" value=(frame.value("arbiter_decision", "fen")); span.hint { "for “position reconstructed” (7.5.1, 7.6, 8.5.3): the position the board should show, its move number the moves completed" }
                        label for="decision-increment" { "Increment granted (s)" }
                        input #decision-increment name="increment" size="4" inputmode="numeric" placeholder="5" value=(frame.value("arbiter_decision", "increment"));
                    }
                    div.row {
                        label for="count_moves" { "Move count of" } (by_select("arbiter_decision", "count_side", to_move))
                        input #count_moves name="count_moves" size="4" inputmode="numeric" placeholder="40" value=(frame.value("arbiter_decision", "count_moves"));
                        span.hint { "completed moves, for “move count set”; empty when the count cannot be established (8.6)" }
                    }
                    div.row {
                        label for="decision-reason" { "Reasons (with the article)" }
                        input #decision-reason name="reason" required maxlength="2000" value=(frame.value("arbiter_decision", "reason"));
                        button type="submit" { "Record decision" }
                    }
                }))
            }
        }
        @if may("correction") {
            details.panel open[open(&["correction"])] {
                summary { "Correction of a data-entry error" }
                (frame.form("correction", "form-correction", "", html! {
                    p.hint { "Retracts the latest standing event and what it caused; nothing is deleted. Not for an illegal move on the board: record that as an illegal move." }
                    div.row {
                        label for="retracts_seq" { "Event #" } input #retracts_seq name="retracts_seq" required size="5" value=(frame.value("correction", "retracts_seq"));
                        label for="correction-reason" { "Reason" } input #correction-reason name="reason" required maxlength="2000" placeholder="wrong square typed" value=(frame.value("correction", "reason"));
                        button type="submit" { "Record correction" }
                    }
                }))
            }
        }
        @if may("appeal_lodged") || may("appeal_decided") {
            p.panel.hint { "Appeals are lodged and decided on the review page of a decision (follow “review” in the timeline)." }
        }
    }
}

/// "Undo the last entry": what the last form recorded, shown before anything is retracted,
/// and one button that records its corrections with the arbiter's name and a reason.
fn undo_panel(
    frame: &FormFrame,
    entry: &crate::app::undo::LastEntry<'_>,
    narrator: &Narrator,
) -> Markup {
    if entry.is_empty() {
        return html! {};
    }
    let retracts: Vec<String> = entry.retracted.iter().map(|e| e.seq.to_string()).collect();
    let ids: Vec<String> = entry
        .retracted
        .iter()
        .map(|_| Uuid::new_v4().to_string())
        .collect();
    html! {
        section.panel #undo {
            h2 { "Undo the last entry" }
            (frame.form("undo", "form-undo", "", html! {
                p.hint { "Typed something wrong? This retracts what the last form recorded. Nothing is deleted: each event is retracted by a correction that names you and the reason." }
                ul.retracted {
                    @for envelope in &entry.retracted {
                        li { (describe(narrator, envelope.seq, &envelope.event)) span.hint { " (recorded by " (layout::recorder(&envelope.recorded_by)) ")" } }
                    }
                    @for envelope in &entry.caused {
                        li.caused { (describe(narrator, envelope.seq, &envelope.event)) span.hint { " (retracted with it)" } }
                    }
                }
                input type="hidden" name="retracts" value=(retracts.join(","));
                input type="hidden" name="event_ids" value=(ids.join(","));
                div.row {
                    label for="undo-reason" { "Reason" }
                    input #undo-reason name="reason" required maxlength="2000" placeholder="wrong move typed" value=(frame.value("undo", "reason"));
                    button type="submit" { "Undo" }
                }
            }))
        }
    }
}

/// The values of a unit enum of the vocabulary, as its schema lists them: the forms offer
/// whatever the vocabulary holds.
fn enum_values<T: utoipa::PartialSchema>() -> Vec<String> {
    let schema = serde_json::to_value(T::schema()).unwrap_or_default();
    schema["enum"]
        .as_array()
        .map(|values| {
            values
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The decisions an arbiter may record, as the vocabulary lists them.
pub fn arbiter_rulings() -> Vec<String> {
    let listed = enum_values::<ArbiterRuling>();
    if listed.is_empty() {
        vec![layout::wire_name(&ArbiterRuling::GameEnded)]
    } else {
        listed
    }
}

/// The game, its state at `at_seq` (or now), its log up to there and the standing events.
pub struct Loaded {
    /// The game as listed.
    pub summary: GameSummary,
    /// The folded game.
    pub game: Game,
    /// The `seq` it was folded to.
    pub seq: u64,
    /// The log up to `seq`.
    pub log: Vec<EventEnvelope>,
}

/// Loads a game for a page, reading through `reads` (the read replica when one is
/// configured).
pub async fn load(
    state: &AppState,
    reads: &Store,
    game_id: Uuid,
    at_seq: Option<u64>,
) -> Result<Loaded, WebError> {
    let summary = reads
        .game(game_id)
        .await?
        .ok_or(StoreError::GameNotFound(game_id))?;
    let (game, seq) = state
        .arbitration
        .state_at_on(reads, game_id, at_seq)
        .await?;
    let log = reads.read_events(game_id, 0, Some(seq), None).await?;
    Ok(Loaded {
        summary,
        game,
        seq,
        log,
    })
}

/// The heading of a game's pages.
pub fn game_heading(summary: &GameSummary) -> Markup {
    let s = &summary.settings;
    html! {
        div.page-head.game-head {
            h1 {
                span.player { (s.white.name) } " – " span.player { (s.black.name) }
            }
            p.facts {
                a href=(layout::round_link("floor", &s.event, Some(&s.round))) { (s.event) ", round " (s.round) }
                @if let Some(board) = s.board { ", board " (board) }
                " · " (super::events::time_control_text(&s.time_control))
                " · Laws " (layout::wire_name(&s.laws_edition))
                " · " a href={ "/v1/games/" (summary.game_id) "/pgn" } { "PGN" }
            }
        }
    }
}

/// `GET /office/games/{id}`: the game desk.
pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    reads: Reads,
    id: web::Path<Uuid>,
    query: web::Query<DeskQuery>,
) -> Result<HttpResponse, WebError> {
    let game_id = id.into_inner();
    let Loaded {
        summary,
        game,
        seq,
        log,
    } = load(&state, &reads, game_id, query.at_seq).await?;
    let view = game.view();
    let status = board_status(&game);
    let standing: HashSet<u64> = game.standing_events().map(|(seq, _)| seq).collect();
    let narrator = Narrator::for_log(log.iter().map(|e| (e.seq, &e.event)));
    let time_travel = query.at_seq.is_some() && seq < summary.last_seq;
    let recorded: Vec<&EventEnvelope> = query
        .recorded
        .as_deref()
        .and_then(|r| r.split_once('-'))
        .and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?)))
        .map(|(first, last)| {
            log.iter()
                .filter(|e| e.seq >= first && e.seq <= last)
                .collect()
        })
        .unwrap_or_default();
    let flash = viewer.flash_for("record");
    let attentions = reads.game_open_attentions(game_id).await?;
    // The venue's clock, as on every sheet of the tournament.
    let hall = layout::HallTime::of(reads.tournament_named(&summary.event).await?.as_ref());
    let frame = FormFrame {
        viewer: &viewer,
        game_id,
        expected_seq: seq,
        kept: flash.as_ref().filter(|f| f.refused),
    };
    let caption = format!(
        "After event #{seq}: {} to move{}",
        layout::side_name(view.side_to_move),
        if view.status == GameStatus::Ended {
            " (game over)"
        } else {
            ""
        }
    );
    let body = html! {
        (game_heading(&summary))
        @if viewer.principal.fair_play_for(&summary.settings.event).is_some() {
            p.links { a.button href={ (PREFIX) "/fair-play/games/" (game_id) } { "Fair-play desk" }
                span.hint { " devices, inspections, entry scans, random checks, evidence (fair-play roles only)" } }
        }
        @if time_travel {
            p.notice.time-travel role="status" {
                "As it stood after event #" (seq) " (the log now ends at #" (summary.last_seq) "). "
                a href={ (PREFIX) "/games/" (game_id) } { "Back to the present" }
            }
        }
        @if !time_travel {
            p.notice #desk-news role="status" hidden {
                "Something was recorded in this game on another device since this page was drawn. "
                a href={ (PREFIX) "/games/" (game_id) } { "Show it" }
                " (send or copy what you typed first: the forms are drawn again)."
            }
        }
        div.desk #desk data-stream=[(!time_travel).then(|| format!("/v1/games/{game_id}/stream"))] data-seq=(seq) {
            div.desk-board {
                (diagram(game_id, seq, 360, &caption))
                (position_facts(&view, &status))
                (super::periods::desk_table(&view, &summary.settings.time_control, summary.settings.laws_edition))
                h2 { "Scoresheet" }
                (scoresheet(&view, &game, &log))
            }
            div.desk-side {
                @if !time_travel { @for attention in &attentions { (super::follow::desk_panel(&viewer, attention, &summary.event, hall)) } }
                @if let Some(flash) = flash.as_ref().filter(|f| f.refused) { (refusal_panel(flash, &frame, &summary.event)) }
                @if !recorded.is_empty() { (answer_panel(game_id, &recorded, follows(&game, &view, &recorded), &narrator)) }
                (super::periods::discrepancy_panel(&view, summary.settings.laws_edition))
                @if !time_travel {
                    (record_forms(&frame, &view, &summary.event))
                    @if viewer.principal.may_record("correction", &summary.event).is_ok() {
                        (undo_panel(&frame, &crate::app::undo::last_entry(&log, &standing), &narrator))
                    }
                }
            }
        }
        section.panel #timeline {
            h2 { "Timeline" }
            p.hint { "Every event of the log, newest first, with who recorded it and its hash (each hash covers the one before). Follow a number to see the game as it stood then." }
            (timeline(&log, &narrator, &standing, game_id, hall))
        }
    };
    Ok(layout::ok(layout::page(
        &format!("{} – {}", summary.white, summary.black),
        Some(&viewer),
        Nav::Events,
        body,
    )))
}

/// The refusal to leave for the desk, with the values of the form.
fn refused(fields: &Fields, code: Option<&str>, message: String) -> Flash {
    let mut values = fields.0.clone();
    values.remove("expected_seq");
    values.remove("event_id");
    values.remove("event_id_press");
    Flash {
        form: "record".into(),
        refused: true,
        message,
        values,
        code: code.map(str::to_owned),
    }
}

/// What the clock's or the board's evidence holds against recording `events` after
/// `expected_seq` (an end of the game: a flag, a resignation, a result), for the arbiter to
/// confirm; `None` when nothing does, or when the form was drawn before the log's end (the
/// engine then refuses the stale form anyway).
async fn doubt_of(
    state: &AppState,
    game_id: Uuid,
    expected_seq: u64,
    events: &[crate::store::NewEvent],
) -> Result<Option<String>, WebError> {
    let recorded: Vec<RecordedEvent> = events
        .iter()
        .filter_map(|new| match &new.event {
            Event::Recorded(recorded) => Some(recorded.clone()),
            Event::Service(_) => None,
        })
        .collect();
    let ends = recorded.iter().any(|event| {
        matches!(
            event,
            RecordedEvent::Flag { .. }
                | RecordedEvent::Resign { .. }
                | RecordedEvent::ArbiterDecision {
                    decision: ArbiterRuling::GameEnded,
                    ..
                }
        )
    });
    if !ends {
        return Ok(None);
    }
    let Loaded { game, seq, log, .. } = load(state, &state.store, game_id, None).await?;
    if seq != expected_seq {
        return Ok(None);
    }
    Ok(crate::app::confirmations::doubt(
        &game,
        &log,
        &recorded,
        chrono::Utc::now(),
    ))
}

/// Leaves a refusal for the page at `location` and sends the browser there.
async fn refuse(
    state: &AppState,
    viewer: &Viewer,
    flash: Flash,
    location: &str,
) -> Result<HttpResponse, WebError> {
    leave_flash(state, viewer, &flash).await?;
    Ok(layout::see_other(location))
}

/// `POST /office/games/{id}/record`: judges and records the form's events.
pub async fn record(
    state: web::Data<AppState>,
    posted: Posted,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, WebError> {
    let Posted { viewer, fields } = posted;
    let game_id = id.into_inner();
    let summary = state
        .store
        .game(game_id)
        .await?
        .ok_or(StoreError::GameNotFound(game_id))?;
    let desk = format!("{PREFIX}/games/{game_id}");
    let back = layout::local_path(fields.get("return_to"), desk.clone());
    let back_to_desk = back == desk;
    let refusal_target = if back_to_desk {
        format!("{desk}#answer")
    } else {
        back.clone()
    };
    let expected_seq: u64 = fields
        .get("expected_seq")
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| {
            WebError::BadRequest("The form has no expected_seq; open the desk again.".into())
        })?;
    let objects = match forms::events_from_form(&fields) {
        Ok(objects) => objects,
        Err(message) => {
            return refuse(
                &state,
                &viewer,
                refused(&fields, None, message),
                &refusal_target,
            )
            .await;
        }
    };
    let mut events = Vec::with_capacity(objects.len());
    for object in objects {
        let kind = object["type"].as_str().unwrap_or("event").to_string();
        match crate::app::commands::decode_event(object, &kind) {
            Ok(event) => events.push(event),
            Err(problem) => {
                return refuse(
                    &state,
                    &viewer,
                    refused(&fields, Some(problem.code.as_str()), problem.message),
                    &refusal_target,
                )
                .await;
            }
        }
    }
    if fields.get("confirmed") != Some("yes")
        && let Some(doubt) = doubt_of(&state, game_id, expected_seq, &events).await?
    {
        let mut flash = refused(&fields, Some("needs_confirmation"), doubt);
        flash.values.insert("game_id".into(), game_id.to_string());
        flash
            .values
            .insert("confirm_seq".into(), expected_seq.to_string());
        return refuse(&state, &viewer, flash, &refusal_target).await;
    }
    match state
        .arbitration
        .record_checked(game_id, expected_seq, events, &viewer.principal)
        .await
    {
        Ok(appended) => {
            let first = appended
                .envelopes
                .first()
                .map(|e| e.seq)
                .unwrap_or(expected_seq);
            let last = appended
                .envelopes
                .last()
                .map(|e| e.seq)
                .unwrap_or(expected_seq);
            if back_to_desk {
                let location = format!("{desk}?recorded={first}-{last}#answer");
                Ok(layout::see_other(
                    &layout::after_write(&state, &location).await,
                ))
            } else {
                let message = appended
                    .envelopes
                    .iter()
                    .map(|e| Narrator::default().sentence(None, &e.event))
                    .collect::<Vec<_>>()
                    .join(" · ");
                leave_flash(
                    &state,
                    &viewer,
                    &Flash {
                        form: "record".into(),
                        refused: false,
                        message: format!(
                            "Board {}: {message}",
                            summary.board.map(|b| b.to_string()).unwrap_or_default()
                        ),
                        ..Flash::default()
                    },
                )
                .await?;
                Ok(layout::see_other(&layout::after_write(&state, &back).await))
            }
        }
        Err(RecordError::Refused { refusal, .. }) => {
            let flash = refused(
                &fields,
                Some(refusal.code().as_str()),
                refusal.message().to_string(),
            );
            refuse(&state, &viewer, flash, &refusal_target).await
        }
        Err(RecordError::Store(StoreError::StaleSeq { current, .. })) => refuse(
            &state,
            &viewer,
            refused(
                &fields,
                Some("stale_seq"),
                format!(
                    "Someone recorded in this game while the form was open (the log now ends at \
                     #{current}, the form was drawn at #{expected_seq}). Check the timeline, then \
                     send the form again if it still applies."
                ),
            ),
            &refusal_target,
        )
        .await,
        Err(RecordError::Store(StoreError::EventIdReused { seq, .. })) => refuse(
            &state,
            &viewer,
            refused(
                &fields,
                Some("event_id_reused"),
                format!(
                    "This form was already used for event #{seq}; the desk has been drawn again \
                     with fresh forms."
                ),
            ),
            &refusal_target,
        )
        .await,
        Err(other) => Err(other.into()),
    }
}

/// The kinds of claim, for reports.
pub fn claim_kind_article(kind: ClaimKind) -> &'static str {
    match kind {
        ClaimKind::Repetition => "9.2",
        ClaimKind::FiftyMoves => "9.3",
        ClaimKind::QuickplayFinish => "III.5",
        ClaimKind::IncrementRequest => "III.4",
    }
}

//! The engine's answer on the desk: what a recorded event decided, as an arbiter reads it
//! (the ruling, its article, the evidence, the penalty), and what a stored event binds the
//! players to when no ruling follows (a touched piece, 4.3; an offer, 9.1.1).

use crate::game::event::{ClaimKind, ClaimOutcome, Event, RecordedEvent, ServiceEvent};
use crate::game::narration::Narrator;
use crate::game::{Game, GameView};
use crate::store::EventEnvelope;
use crate::web::layout;
use maud::{Markup, html};
use uuid::Uuid;

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
pub(super) fn answer_panel(
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
pub(super) fn follows(game: &Game, view: &GameView, stored: &[&EventEnvelope]) -> Option<String> {
    touch_follows(game, view, stored).or_else(|| offer_follows(game, stored))
}

/// What a piece touched with the intention of moving or capturing it binds its player to
/// (4.3, with 4.5 when none of the pieces touched can be moved or captured) and costs them
/// (9.4: no claim under 9.2 or 9.3 on this move). Read from the game as it stands, so only
/// when nothing was recorded after the touch.
pub(super) fn touch_follows(
    game: &Game,
    view: &GameView,
    stored: &[&EventEnvelope],
) -> Option<String> {
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
pub(super) fn offer_follows(game: &Game, stored: &[&EventEnvelope]) -> Option<String> {
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

/// The kinds of claim, for reports.
pub fn claim_kind_article(kind: ClaimKind) -> &'static str {
    match kind {
        ClaimKind::Repetition => "9.2",
        ClaimKind::FiftyMoves => "9.3",
        ClaimKind::QuickplayFinish => "III.5",
        ClaimKind::IncrementRequest => "III.4",
    }
}

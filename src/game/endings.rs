//! How a game ends: by itself after a move (5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2, decided by
//! `crate::rules::automatic_end`), by a flag fall (6.9), by resignation (5.1.2), and what
//! is refused once it has ended.
//!
//! A flag fall and a resignation ask whether the opponent can still checkmate "by any
//! possible series of legal moves": a helpmate search, never a material count. 6.9 draws a
//! flag fall then in both editions; 5.1.2 draws a resignation only in the 2023 edition (in
//! 2018 a resignation always loses).

use shakmaty::{Chess, Move, Position};

use crate::rules::automatic_end::{AutomaticEnd, AutomaticEndKind, automatic_end_after};
use crate::rules::evidence::EndEvidence;
use crate::rules::laws::{Rule, resignation_draws_when_opponent_cannot_mate};
use crate::rules::mating_potential::{
    MatingPotential, dead_position_with_witness, mating_potential, still_can_mate_after,
};
use crate::rules::move_parsing::fen_of;
use crate::rules::position_identity::PositionHistory;
use crate::rules::side::Side;

use super::decisions::Decisions;
use super::event::{GameResult, RecordedEvent, ServiceEvent, Termination};
use super::refusal::Refusal;

/// How the game ended.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct GameEnd {
    pub(super) result: GameResult,
    pub(super) termination: Termination,
    pub(super) article: String,
    pub(super) reason: String,
    pub(super) seq: u64,
}

/// The end, if any, after the move `san` (made by `by`) leads from the last position of
/// `history` to `after`, with the evidence it rests on (docs/DESIGN.md, Principle 4).
///
/// Whether the position is dead is the full helpmate search's to say, except where a
/// player proven able to checkmate before the move (`witness`) provably still can after it
/// (`still_can_mate_after`: the players can return to the position before). The player
/// proven able to checkmate after the move, when the check ran and found one, is written to
/// `witness_after` for the next move.
#[allow(clippy::too_many_arguments)]
pub(super) fn after_move(
    decisions: &Decisions<'_>,
    seq: u64,
    by: Side,
    san: &str,
    history: &PositionHistory,
    m: Move,
    after: &Chess,
    witness: Option<Side>,
    witness_after: &mut Option<Side>,
) -> Option<ServiceEvent> {
    let before = history.current();
    let AutomaticEnd {
        kind,
        ply,
        occurrences,
    } = automatic_end_after(history, after, |position| {
        if let Some(side) = witness
            && still_can_mate_after(before, m, position)
        {
            *witness_after = Some(side);
            return false;
        }
        let (potential, side) = dead_position_with_witness(position);
        *witness_after = side.map(Side::from);
        potential == MatingPotential::CannotMate
    })?;
    let (result, termination, reason) = match kind {
        AutomaticEndKind::Checkmate => (
            GameResult::win_for(by),
            Termination::Checkmate,
            format!("{san} checkmates: {} wins.", by.name()),
        ),
        AutomaticEndKind::Stalemate => (
            GameResult::Draw,
            Termination::Stalemate,
            format!(
                "After {san} {} has no legal move and is not in check: stalemate.",
                by.opponent().name()
            ),
        ),
        AutomaticEndKind::DeadPosition => (
            GameResult::Draw,
            Termination::DeadPosition,
            format!(
                "After {san} neither player can checkmate by any series of legal moves: the position is dead."
            ),
        ),
        AutomaticEndKind::FivefoldRepetition => (
            GameResult::Draw,
            Termination::FivefoldRepetition,
            format!(
                "After {san} the same position has appeared for the fifth time (plies {occurrences:?})."
            ),
        ),
        AutomaticEndKind::SeventyFiveMoves => (
            GameResult::Draw,
            Termination::SeventyFiveMoves,
            format!(
                "After {san} 75 moves by each player ({} half-moves) have been made without a pawn move or capture, and the last move did not checkmate.",
                after.halfmoves()
            ),
        ),
    };
    let evidence = EndEvidence {
        fen: fen_of(after),
        halfmove_clock: after.halfmoves(),
        san: san.to_string(),
        occurrences: (kind == AutomaticEndKind::FivefoldRepetition).then_some(occurrences),
        ply,
        other_fields: Default::default(),
    };
    Some(decisions.game_ended(
        seq,
        result,
        termination,
        &[kind.rule()],
        reason,
        Some(evidence),
    ))
}

/// 6.9: `side`'s flag fell in `position`.
pub(super) fn flag_fell(
    decisions: &Decisions<'_>,
    seq: u64,
    side: Side,
    position: &Chess,
) -> ServiceEvent {
    let opponent = side.opponent();
    let (potential, method) = mating_potential(position, opponent.into());
    let (result, reason) = match potential {
        MatingPotential::CannotMate => (
            GameResult::Draw,
            format!(
                "{}'s flag fell, but {} cannot checkmate by any series of legal moves ({}): drawn.",
                side.name(),
                opponent.name(),
                method.name().replace('_', " ")
            ),
        ),
        MatingPotential::CanMate => (
            GameResult::win_for(opponent),
            format!(
                "{}'s flag fell and {} can still checkmate by a series of legal moves: {} wins.",
                side.name(),
                opponent.name(),
                opponent.name()
            ),
        ),
        MatingPotential::Inconclusive => (
            GameResult::win_for(opponent),
            format!(
                "{}'s flag fell: {} wins (the bounded helpmate search for {} was inconclusive; the arbiter should confirm that a mate is possible).",
                side.name(),
                opponent.name(),
                opponent.name()
            ),
        ),
    };
    decisions.game_ended(
        seq,
        result,
        Termination::Flag,
        &[Rule::FlagFall],
        reason,
        None,
    )
}

/// 5.1.2: `by` resigned in `position`.
pub(super) fn resigned(
    decisions: &Decisions<'_>,
    seq: u64,
    by: Side,
    position: &Chess,
) -> ServiceEvent {
    let opponent = by.opponent();
    let draws = resignation_draws_when_opponent_cannot_mate(decisions.edition());
    let cannot_mate =
        draws && mating_potential(position, opponent.into()).0 == MatingPotential::CannotMate;
    let (result, reason) = if cannot_mate {
        (
            GameResult::Draw,
            format!(
                "{} resigned, but {} cannot checkmate by any series of legal moves: drawn.",
                by.name(),
                opponent.name()
            ),
        )
    } else {
        (
            GameResult::win_for(opponent),
            format!("{} resigned: {} wins.", by.name(), opponent.name()),
        )
    };
    decisions.game_ended(
        seq,
        result,
        Termination::Resignation,
        &[Rule::Resignation],
        reason,
        None,
    )
}

/// Which recorded events are refused once the game has ended. Clock presses, pauses and
/// resumes are harmless facts (a clock pressed after the mating move) and are kept; appeals,
/// corrections and arbiter warnings still apply; other arbiter decisions are refused by the
/// arbiter's own rules.
pub(super) fn refused_after_end(event: &RecordedEvent) -> bool {
    !matches!(
        event,
        RecordedEvent::ClockPress { .. }
            | RecordedEvent::ClockPause { .. }
            | RecordedEvent::ClockResume {}
            | RecordedEvent::ArbiterDecision { .. }
            | RecordedEvent::AppealLodged { .. }
            | RecordedEvent::AppealDecided { .. }
            | RecordedEvent::Correction { .. }
    )
}

/// The refusal of `event` after `end`, saying how and when the game ended and what to do.
pub(super) fn refusal_after_end(
    decisions: &Decisions<'_>,
    end: &GameEnd,
    event: &RecordedEvent,
) -> Refusal {
    let what = match event {
        RecordedEvent::Flag { side } => format!(
            "A flag fall of {} noticed now changes nothing: {} applies only while the game is in progress.",
            side.name(),
            decisions.cite(&[Rule::FlagFall])
        ),
        RecordedEvent::Move { .. } => "A move played after the end is void.".to_string(),
        other => format!("A {} after the end changes nothing.", other.type_name()),
    };
    Refusal::new(
        "game_over",
        format!(
            "The game already ended at event {} with {} ({}, article {}: {}). {what} If the end itself was wrong, record an appeal_lodged, or a correction of the latest event if it was a data-entry error.",
            end.seq,
            end.result.pgn(),
            end.termination.in_words(),
            end.article,
            end.reason
        ),
    )
}

//! The ends no claim is needed for: checkmate (5.1.1), stalemate (5.2.1), a dead position
//! (5.2.2), the fifth occurrence of a position (9.6.1) and seventy-five moves (9.6.2).
//!
//! One function decides them, in one order, for both the live engine (after every recorded
//! move) and the PGN analyser (at the first ply where any of them can hold), so that the
//! differential tests of the analyser against python-chess also cover the live engine.
//!
//! The order: a checkmate ends the game even when it is also the 150th half-move (9.6.2,
//! last sentence: "If the last move resulted in checkmate, that shall take precedence");
//! stalemate and a dead position end it at once, before any count; then the fifth
//! occurrence; then the seventy-five moves. Whether the position is dead is asked of the
//! caller, who decides how hard to search (the rulings always run the full helpmate search,
//! the analyser only the sound fast proofs).

use shakmaty::{Chess, Position};

use super::laws::Rule;
use super::move_counting::seventy_five_moves_reached;
use super::position_identity::PositionHistory;

/// Why the game ended by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::IntoStaticStr, strum::EnumIter)]
#[strum(serialize_all = "snake_case")]
pub enum AutomaticEndKind {
    /// 5.1.1
    Checkmate,
    /// 5.2.1
    Stalemate,
    /// 5.2.2
    DeadPosition,
    /// 9.6.1
    FivefoldRepetition,
    /// 9.6.2
    SeventyFiveMoves,
}

impl AutomaticEndKind {
    /// The rule that ends the game.
    pub fn rule(self) -> Rule {
        match self {
            AutomaticEndKind::Checkmate => Rule::Checkmate,
            AutomaticEndKind::Stalemate => Rule::Stalemate,
            AutomaticEndKind::DeadPosition => Rule::DeadPosition,
            AutomaticEndKind::FivefoldRepetition => Rule::FivefoldRepetition,
            AutomaticEndKind::SeventyFiveMoves => Rule::SeventyFiveMoves,
        }
    }

    /// A stable snake_case name (`checkmate`, `dead_position`, ...).
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// The end of the game in the position at `ply` of `history`, if it ended there by itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutomaticEnd {
    /// Why.
    pub kind: AutomaticEndKind,
    /// The ply.
    pub ply: usize,
    /// For a fivefold repetition, the plies where the position stood.
    pub occurrences: Vec<usize>,
}

/// Whether the game ends by itself in the position at `ply` of `history` (5.1.1, 5.2.1,
/// 5.2.2, 9.6.1, 9.6.2, in that order). `is_dead` answers whether a position is dead; it is
/// asked only when the position is neither mate nor stalemate. Used by the analyser.
pub fn automatic_end(
    history: &PositionHistory,
    ply: usize,
    is_dead: impl FnOnce(&Chess) -> bool,
) -> Option<AutomaticEnd> {
    let position = history.at(ply)?;
    decide(position, ply, || history.occurrences_of_ply(ply), is_dead)
}

/// Whether the game ends by itself after the next move, which leads from the last position
/// of `history` to `next` (not yet in the history). Used by the live engine, which judges a
/// move before storing it. Same order and rules as [`automatic_end`].
pub fn automatic_end_after(
    history: &PositionHistory,
    next: &Chess,
    is_dead: impl FnOnce(&Chess) -> bool,
) -> Option<AutomaticEnd> {
    let ply = history.ply() + 1;
    decide(
        next,
        ply,
        || {
            let mut plies = history.occurrences_of(next);
            plies.push(ply);
            plies
        },
        is_dead,
    )
}

/// The one order of the automatic ends, for the position at `ply`; `occurrences` lists the
/// plies where that position stood, itself included.
fn decide(
    position: &Chess,
    ply: usize,
    occurrences: impl FnOnce() -> Vec<usize>,
    is_dead: impl FnOnce(&Chess) -> bool,
) -> Option<AutomaticEnd> {
    let end = |kind| AutomaticEnd {
        kind,
        ply,
        occurrences: Vec::new(),
    };
    let no_legal_move = position.legal_moves().is_empty();
    if no_legal_move && position.is_check() {
        return Some(end(AutomaticEndKind::Checkmate));
    }
    if no_legal_move {
        return Some(end(AutomaticEndKind::Stalemate));
    }
    if is_dead(position) {
        return Some(end(AutomaticEndKind::DeadPosition));
    }
    let occurrences = occurrences();
    if occurrences.len() >= 5 {
        return Some(AutomaticEnd {
            kind: AutomaticEndKind::FivefoldRepetition,
            ply,
            occurrences,
        });
    }
    if seventy_five_moves_reached(position) {
        return Some(end(AutomaticEndKind::SeventyFiveMoves));
    }
    None
}

//! The 50- and 75-move counts (9.3, 9.6.2).
//!
//! The count is in half-moves since the last capture or pawn move (shakmaty's
//! `halfmoves()`, which a start FEN may set). Castling does not reset it. A player may claim
//! at 100 half-moves (9.3); the game ends by itself at 150 unless the last move checkmated
//! (9.6.2, last sentence: mate takes precedence).

use shakmaty::{Chess, Position};

/// Half-moves after which a draw may be claimed (9.3: "the last 50 moves by each player").
pub const FIFTY_MOVES_HALFMOVES: u32 = 100;

/// Half-moves after which the game is drawn automatically (9.6.2).
pub const SEVENTY_FIVE_MOVES_HALFMOVES: u32 = 150;

/// Whether a 9.3 claim on this position (after its last move) is correct.
pub fn fifty_moves_reached(position: &Chess) -> bool {
    position.halfmoves() >= FIFTY_MOVES_HALFMOVES
}

/// Whether the game ends under 9.6.2 in this position: 150 half-moves without a capture or
/// pawn move, and the last move did not checkmate.
pub fn seventy_five_moves_reached(position: &Chess) -> bool {
    position.halfmoves() >= SEVENTY_FIVE_MOVES_HALFMOVES && !position.is_checkmate()
}

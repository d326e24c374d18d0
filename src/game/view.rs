//! Read models of a game, served over HTTP: [`GameView`] and [`PositionOccurrences`].

use serde::Serialize;
use utoipa::ToSchema;

use super::event::{ClaimKind, GameResult, LawsEdition, Side, Termination};

/// Whether the game is still being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// The game is in progress.
    InProgress,
    /// The game has ended.
    Ended,
}

/// The last known clock times, with penalties and adjustments applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct ClockTimes {
    /// White's remaining time in milliseconds.
    pub white_ms: Option<u64>,
    /// Black's remaining time in milliseconds.
    pub black_ms: Option<u64>,
}

/// Completed illegal moves per player (7.5.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct IllegalMoveCounts {
    /// White's completed illegal moves.
    pub white: u32,
    /// Black's completed illegal moves.
    pub black: u32,
}

/// A draw offer, as marked `(=)` on the scoresheets (8.1.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct DrawOfferMark {
    /// The `seq` of the offer (or of the claim that stands as an offer, 9.1.2.3).
    pub seq: u64,
    /// Who offered.
    pub by: Side,
    /// The ply after which the offer was made (the `(=)` follows that move).
    pub after_ply: usize,
    /// Whether it was made at an irregular moment (before moving instead of after; 9.1.2.1,
    /// valid but noted under 11.5).
    pub irregular: bool,
    /// The claim it stems from, when a 9.2 / 9.3 claim stands as an offer (9.1.2.3).
    pub from_claim: Option<ClaimKind>,
}

/// A piece touched with intent to move or capture it (4.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct TouchedPiece {
    /// Who touched.
    pub by: Side,
    /// The square of the touched piece.
    pub square: String,
    /// Whether it is the opponent's piece (which must then be captured, 4.3.2).
    pub opponents_piece: bool,
}

/// A move a player is obliged to play (9.5.3 after an incorrect claim with an intended move).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct MustPlay {
    /// Who must play it.
    pub by: Side,
    /// The move, in SAN.
    pub san: String,
}

/// What the player having the move is bound to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct Obligations {
    /// A touched piece that must be moved or captured (4.3), if any.
    pub touched: Option<TouchedPiece>,
    /// A written move that must be played (9.5.3), if any.
    pub must_play: Option<MustPlay>,
}

/// The state of a game, as an arbiter sees it.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct GameView {
    /// The current position (en passant square only where the capture is legal).
    pub fen: String,
    /// Who has the move.
    pub side_to_move: Side,
    /// Half-moves played.
    pub ply: usize,
    /// The moves in SAN.
    pub moves: Vec<String>,
    /// The moves as on a scoresheet: SAN with `(=)` after a move where a draw was offered.
    pub scoresheet: Vec<String>,
    /// Every draw offer (and claim standing as one).
    pub offers: Vec<DrawOfferMark>,
    /// Last known clock times with penalties and adjustments applied.
    pub clocks: ClockTimes,
    /// Half-moves since the last capture or pawn move (9.3, 9.6.2).
    pub halfmove_clock: u32,
    /// The draw offer still open, if any.
    pub pending_offer: Option<DrawOfferMark>,
    /// Touched piece and must-play obligations.
    pub obligations: Obligations,
    /// Completed illegal moves per player.
    pub illegal_moves: IllegalMoveCounts,
    /// In progress or ended.
    pub status: GameStatus,
    /// The result, once ended.
    pub result: Option<GameResult>,
    /// How the game ended.
    pub termination: Option<Termination>,
    /// The article under which it ended.
    pub article: Option<String>,
    /// Why it ended, in a sentence.
    pub reason: Option<String>,
    /// The `seq` of the `game_ended` event.
    pub ended_at_seq: Option<u64>,
    /// How many times the current position has occurred (9.2, 9.6.1).
    pub repetition_count: usize,
    /// The edition of the Laws governing the game.
    pub laws_edition: LawsEdition,
}

/// A distinct position of the game and the plies at which it occurred.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PositionOccurrences {
    /// The position (en passant square only where the capture is legal).
    pub fen: String,
    /// The plies at which it stood (ply 0 = start position).
    pub plies: Vec<usize>,
}

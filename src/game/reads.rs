//! What one part of the game state reads of another, as narrow read-only views the aggregate
//! builds for each judgement (see `super::parts::JudgeContext`).
//!
//! A part judges with what other parts know: a claim needs the board and the pieces touched
//! (9.2, 9.4), a quickplay-finish claim the clocks (III.4, III.5), a flag fall the claims
//! awaiting the arbiter (III.5.2). Were the parts to import each other's state, or the whole
//! state, every part would depend on every other and on the aggregate above them. Instead
//! each view here is defined below the parts: the part that owns the state builds its view
//! (`Board::view`, `Clocks::view`, `Quickplay::awaiting`, the obligations behind
//! [`MoveObligations`]), the aggregate puts the views in the context, and the part that
//! reads one imports only this module.

use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::rules::claims::ClaimKind;
use crate::rules::position_identity::PositionHistory;
use crate::rules::side::{BySide, Side};
use crate::rules::time_control::tracker::PeriodTracker;

use super::refusal::Refusal;
use super::view::OpenClaim;

/// The board as the other parts read it: every position by ply (for 9.2 and 9.6.1, counted
/// over the whole game) and the castling notation of the game.
#[derive(Clone, Copy, Debug)]
pub(super) struct BoardView<'a> {
    history: &'a PositionHistory,
    castling_mode: CastlingMode,
}

impl<'a> BoardView<'a> {
    /// The view of a board with these positions, written in `castling_mode`.
    pub(super) fn new(history: &'a PositionHistory, castling_mode: CastlingMode) -> Self {
        BoardView {
            history,
            castling_mode,
        }
    }

    /// Every position by ply.
    pub(super) fn history(&self) -> &'a PositionHistory {
        self.history
    }

    /// The current position.
    pub(super) fn position(&self) -> &'a Chess {
        self.history.current()
    }

    /// The player having the move.
    pub(super) fn side_to_move(&self) -> Side {
        Side::from(self.position().turn())
    }

    /// Half-moves played.
    pub(super) fn ply(&self) -> usize {
        self.history.ply()
    }

    /// The castling notation of the game.
    pub(super) fn castling_mode(&self) -> CastlingMode {
        self.castling_mode
    }

    /// The moves both players have completed, as a scoresheet counts them (9.1.1): the move
    /// number on the board minus one.
    pub(super) fn completed_moves(&self) -> u32 {
        self.position().fullmoves().get().saturating_sub(1)
    }

    /// Whether both players have made at least one move in this game (5.2.3), when
    /// `start_turn` had the move in the start position.
    pub(super) fn both_have_moved(&self, start_turn: Side) -> bool {
        let ply = self.ply();
        let (white, black) = match start_turn {
            Side::White => (ply.div_ceil(2), ply / 2),
            Side::Black => (ply / 2, ply.div_ceil(2)),
        };
        white > 0 && black > 0
    }
}

/// The moves `side` made on a board standing at `ply`, when `start_turn` had the move in the
/// start position (made, not necessarily completed: a move is completed by its press, 6.2.1).
pub(super) fn moves_on_board(start_turn: Side, side: Side, ply: usize) -> u32 {
    let ply = u32::try_from(ply).unwrap_or(u32::MAX);
    if side == start_turn {
        ply.div_ceil(2)
    } else {
        ply / 2
    }
}

/// The clocks as the other parts read them when judging an event (Article 6): each player's
/// place in the time control, the increment in force, and the time each player has left as
/// last read, the reading recorded with the event included.
#[derive(Clone, Copy, Debug)]
pub(super) struct ClocksView<'a> {
    periods: &'a PeriodTracker,
    increment_ms: u64,
    read: BySide<Option<u64>>,
    start_turn: Side,
    awaiting_press: BySide<Option<u32>>,
    moves_before: BySide<u32>,
    record_start_ply: usize,
}

impl<'a> ClocksView<'a> {
    /// The view of clocks at `periods` with `increment_ms` in force, whose readings show
    /// `read` (`None` for a clock never read), in a game `start_turn` began.
    pub(super) fn new(
        periods: &'a PeriodTracker,
        increment_ms: u64,
        read: BySide<Option<u64>>,
        start_turn: Side,
    ) -> Self {
        ClocksView {
            periods,
            increment_ms,
            read,
            start_turn,
            awaiting_press: BySide::default(),
            moves_before: BySide::default(),
            record_start_ply: 0,
        }
    }

    /// The same view, knowing the moves each player had completed before the record starts
    /// (a game created from a position) or before the position the arbiter reconstructed
    /// last, and the ply of that position (0 for the start).
    pub(super) fn with_moves_before(
        mut self,
        moves_before: BySide<u32>,
        record_start_ply: usize,
    ) -> Self {
        self.moves_before = moves_before;
        self.record_start_ply = record_start_ply;
        self
    }

    /// The same view, knowing which move of each player is on the board awaiting its press
    /// (6.2.1).
    pub(super) fn with_awaiting_press(mut self, awaiting_press: BySide<Option<u32>>) -> Self {
        self.awaiting_press = awaiting_press;
        self
    }

    /// The number of `side`'s move on the board whose press the record does not show: made,
    /// not completed (6.2.1), its time until the press the player's (6.2.2).
    pub(super) fn move_awaiting_press(&self, side: Side) -> Option<u32> {
        *self.awaiting_press.get(side)
    }

    /// Each player's place in the time control.
    pub(super) fn periods(&self) -> &'a PeriodTracker {
        self.periods
    }

    /// Whether the control has more than one period (a one-period game is ruled exactly as
    /// before periods existed).
    pub(super) fn has_periods(&self) -> bool {
        self.periods.control().periods.len() > 1
    }

    /// The increment in force.
    pub(super) fn increment_ms(&self) -> u64 {
        self.increment_ms
    }

    /// The time `side` has left, when a reading of that clock has been recorded.
    pub(super) fn read_time(&self, side: Side) -> Option<u64> {
        *self.read.get(side)
    }

    /// The moves `side` has made in the game when the board stands at `ply`: those before
    /// the start position and those on the board.
    pub(super) fn board_moves(&self, side: Side, ply: usize) -> u32 {
        self.moves_before.get(side).saturating_add(moves_on_board(
            self.start_turn,
            side,
            ply.saturating_sub(self.record_start_ply),
        ))
    }
}

/// The claims and requests of Guidelines III awaiting the arbiter, and a flag that fell
/// meanwhile (III.4, III.5.2), as the other parts read them.
#[derive(Clone, Copy, Debug)]
pub(super) struct AwaitingArbiter<'a> {
    open: &'a [OpenClaim],
    flag_fell: Option<Side>,
}

impl<'a> AwaitingArbiter<'a> {
    /// The view of these open claims, and of the flag that fell while one awaited.
    pub(super) fn new(open: &'a [OpenClaim], flag_fell: Option<Side>) -> Self {
        AwaitingArbiter { open, flag_fell }
    }

    /// The claims and requests awaiting the arbiter.
    pub(super) fn open(&self) -> &'a [OpenClaim] {
        self.open
    }

    /// The open claim at `seq`.
    pub(super) fn open_claim(&self, seq: u64) -> Option<&'a OpenClaim> {
        self.open.iter().find(|c| c.seq == seq)
    }

    /// Whether a quickplay-finish claim is awaiting the arbiter (so that a flag fall is for
    /// the arbiter to decide, III.5.2).
    pub(super) fn claim_awaits_arbiter(&self) -> bool {
        self.open
            .iter()
            .any(|c| c.kind == ClaimKind::QuickplayFinish)
    }

    /// The flag that fell while a claim awaited the arbiter, if any.
    pub(super) fn fallen_flag(&self) -> Option<Side> {
        self.flag_fell
    }
}

/// What the moves a player is bound to (4.3 to 4.5, 7.5.1 with 4.3, 9.5.3 with Article 4)
/// answer to the parts that judge a move or a claim. `super::touch_move` keeps the
/// obligations and answers; the board asks before a move stands (Article 3 with 4.3), the
/// claims ask whether the claimant touched a piece (9.4) and which moves the written move
/// of an incorrect claim may be (9.5.3).
pub(super) trait MoveObligations {
    /// Whether `side` has touched a piece with the intention of moving or capturing it on
    /// this move (and so lost the right to claim under 9.2 or 9.3 on it, 9.4).
    fn touched_by(&self, side: Side) -> bool;

    /// The moves the player having the move may make in `position`.
    fn acceptable(&self, position: &Chess) -> Vec<Move>;

    /// Whether the legal move `m` by `by` in `position` respects the obligations, and if not
    /// which one it breaks and what to do.
    fn check(&self, position: &Chess, by: Side, m: &Move) -> Result<(), Refusal>;
}

//! Read models of a game, served over HTTP: [`GameView`] and [`PositionOccurrences`].

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::event::{ClaimKind, GameResult, LawsEdition, Side, Termination};

/// Whether the game is still being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
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
    /// The claim it stems from, when a 9.2 / 9.3 claim (or a III.4 request) stands as an
    /// offer (9.1.2.3).
    pub from_claim: Option<ClaimKind>,
    /// Whether it was made while the regulations forbade agreeing a draw (9.1.1): draw
    /// offers forbidden, or fewer moves completed by both players than the regulations'
    /// earliest agreement move. Such an offer is recorded, and cannot be accepted.
    pub forbidden: bool,
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

/// Pieces one of which a player must move (9.5.3 with Article 4, after an incorrect claim
/// whose written move was not legal).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct MustMove {
    /// Who must move.
    pub by: Side,
    /// The squares of the pieces.
    pub squares: Vec<String>,
}

/// What the player having the move is bound to. Obligations bind in the order they arose;
/// one that no legal move can satisfy together with the earlier ones does not bind (4.5),
/// so a game in progress always has an acceptable move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct Obligations {
    /// The touched piece that must be moved or captured (4.3), if any binds.
    pub touched: Option<TouchedPiece>,
    /// Every piece touched on this move with the intention of moving or capturing it, in the
    /// order touched (4.3.3 decides between them).
    pub touched_pieces: Vec<TouchedPiece>,
    /// A written move that must be played (9.5.3), if any binds.
    pub must_play: Option<MustPlay>,
    /// Pieces one of which must be moved (9.5.3 with Article 4), if any bind.
    pub must_move_one_of: Option<MustMove>,
    /// The moves that satisfy every binding obligation, in SAN (all legal moves when nothing
    /// binds). Empty only when the game is over.
    pub acceptable_moves: Vec<String>,
}

/// A claim or request that awaits the arbiter's decision (Guidelines III.4, III.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct OpenClaim {
    /// The `seq` of the claim.
    pub seq: u64,
    /// The claimant.
    pub by: Side,
    /// What is claimed.
    pub kind: ClaimKind,
    /// Whether the arbiter postponed the decision (III.5.2).
    pub postponed: bool,
}

/// An illegal move that stood (Appendix A.5.2 / A.4.2): the game went on from the position
/// on the board, which no legal move leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct StoodIllegalMove {
    /// The `seq` of the arbiter's decision.
    pub seq: u64,
    /// The ply of the position it led to.
    pub ply: usize,
    /// The move as played, where known.
    pub attempted_move: Option<String>,
    /// The position it led to.
    pub fen: String,
}

/// A position the arbiter reconstructed (`position_reconstructed`: 7.5.1, 7.6, 8.5.3): the
/// game went on from it, whatever the log held before.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct ReconstructedPosition {
    /// The `seq` of the arbiter's decision.
    pub seq: u64,
    /// The ply at which the game continues from it (one past the log's last position
    /// before it).
    pub ply: usize,
    /// The position, with the move number and half-move clock the arbiter established.
    pub fen: String,
    /// The arbiter's reasons.
    pub reason: String,
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
    /// The draw offer still open, if any (the latest, when both players have one open).
    pub pending_offer: Option<DrawOfferMark>,
    /// Every draw offer still open: one per player at most (a claim does not cancel the
    /// opponent's offer, 9.1.2.1).
    pub pending_offers: Vec<DrawOfferMark>,
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
    /// Once ended, what the end rests on and whether the game counts as played (a forfeit,
    /// 6.7.1, only when the arbiter recorded one), as the tournament report, the PGN and the
    /// chief arbiter's report write it.
    pub outcome: Option<super::outcome::Outcome>,
    /// How many times the current position has occurred (9.2, 9.6.1).
    pub repetition_count: usize,
    /// The edition of the Laws governing the game.
    pub laws_edition: LawsEdition,
    /// The increment per move in force, in milliseconds (the time control's, or the one
    /// the arbiter granted under Guidelines III.4).
    pub increment_ms: u64,
    /// Claims and requests awaiting the arbiter's decision (Guidelines III.4, III.5).
    pub open_claims: Vec<OpenClaim>,
    /// A flag that fell while a quickplay-finish claim was postponed: the arbiter declares
    /// the result (III.5.2).
    pub flag_fell_awaiting_arbiter: Option<Side>,
    /// Illegal moves that stood (Appendix A.5.2 / A.4.2).
    pub stood_illegal_moves: Vec<StoodIllegalMove>,
    /// Positions the arbiter reconstructed (7.5.1, 7.6, 8.5.3), oldest first; left out when
    /// there is none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reconstructed_positions: Vec<ReconstructedPosition>,
    /// Each player's period, moves to the control and scoresheet duty (6.3.1, 6.4, 8.4).
    pub time_control: PeriodsView,
}

/// Where a player stands in the time control (issue 18): the period, the moves to the
/// control, the "control reached" marker, and whether the player must keep score (8.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PlayerPeriod {
    /// The period in which the player's next move is played (1 for the first).
    pub period: usize,
    /// The period whose time the clock is counting (1 for the first); behind `period` on a
    /// clock that adds the next period only when a display reaches 0:00.
    pub clock_period: usize,
    /// Moves completed (6.2.1: by the press; see `move_awaiting_press`).
    pub moves_completed: u32,
    /// The player's move that is on the board but not completed: the record shows no press
    /// after it yet (6.2.1). Until the press, the time is the player's (6.2.2), and a flag
    /// falls in the period before it. Absent when every move on the board is completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_awaiting_press: Option<u32>,
    /// Moves still to complete before the control; absent in the last period (all the
    /// remaining moves).
    pub moves_to_control: Option<u32>,
    /// Whether the period is the last one (the rest of the game).
    pub last_period: bool,
    /// The moves of the period the clock is counting are completed: a flag now does not
    /// lose, and the next period's time is still to come on the clock (6.4, 6.3.2).
    pub control_reached: bool,
    /// Whether the player must record the moves (8.4: not for the rest of a period in which
    /// they had less than five minutes without 30 seconds a move; never in rapid and blitz,
    /// A.2).
    pub must_keep_score: bool,
    /// The articles behind `must_keep_score` when the player need not keep score.
    pub scoresheet_article: Option<String>,
    /// 8.6: were the count lost now, the next move would count as the first move of this
    /// period (1 for the first); absent in the last period.
    pub if_count_unknown_next_period: Option<usize>,
}

/// Both players' place in the time control.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PeriodsView {
    /// The periods of the control.
    pub periods: usize,
    /// White's place.
    pub white: PlayerPeriod,
    /// Black's place.
    pub black: PlayerPeriod,
    /// Clock readings that do not fit the control, oldest first (left out when there is
    /// none). Each reading was kept as read: the clock is the fact.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reading_discrepancies: Vec<ReadingDiscrepancy>,
}

/// How a clock reading fails to fit the control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DiscrepancyKind {
    /// The display shows more than the control, the increments and the time added since
    /// the last reading can give: the clock was set wrongly, added a period it should not
    /// have, or added one when a display reached 0:00 without a flag being recorded.
    MoreThanPossible,
    /// After the press the display shows less than the time the press added (increment,
    /// next period): the player used more than the display held, so it would have reached
    /// 0:00 during the move, or the clock did not add the next period at the control.
    DisplayWouldHaveReachedZero,
    /// The clock's own count of moves is behind the log's (6.10.2): after the press that
    /// completed the period's moves, the display shows what it would without the next
    /// period's time, so the clock (a counter that missed a press) did not add it. The
    /// Laws count the log's moves: a flag is judged on them (no loss for a flag after the
    /// control), and the arbiter corrects the clock.
    ClockCountBehind,
}

/// A clock reading that does not fit the control's model (issue 18). The reading is kept
/// as read; the arbiter checks the clock and, if it is wrong, corrects the times or the move
/// counter (6.10.2), or records the count of completed moves (`move_count_set`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct ReadingDiscrepancy {
    /// The `seq` of the event the reading was recorded with.
    pub seq: u64,
    /// Whose clock.
    pub side: Side,
    /// What the display showed, in milliseconds.
    pub read_ms: u64,
    /// The bound the reading passes, in milliseconds: the most the display could show
    /// (`more_than_possible`), or the least it could show after the press had it not
    /// reached 0:00 (`display_would_have_reached_zero`).
    pub bound_ms: u64,
    /// Which bound.
    pub kind: DiscrepancyKind,
    /// The moves the player had completed (6.2.1).
    pub moves_completed: u32,
    /// The period of the Laws the player was in (1 for the first).
    pub period: usize,
    /// The next period's time that the press added to the display (0 when none): a reading
    /// below it suggests a clock whose move counter missed the control.
    pub period_time_added_ms: u64,
    /// With `clock_count_behind`: the moves the clock has counted (one press fewer than the
    /// log's) and the period the clock should show, the log's (1 for the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_count: Option<ClockCount>,
}

/// The clock's own count against the log's (6.10.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct ClockCount {
    /// The moves the clock counted.
    pub clock_moves: u32,
    /// The period the clock counts (1 for the first).
    pub clock_period: usize,
    /// The period the clock should show: the one the log's moves give (1 for the first).
    pub period_to_show: usize,
}

/// A distinct position of the game and the plies at which it occurred.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PositionOccurrences {
    /// The position (en passant square only where the capture is legal).
    pub fen: String,
    /// The plies at which it stood (ply 0 = start position).
    pub plies: Vec<usize>,
}

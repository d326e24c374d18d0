//! Refusals: recorded events that are not facts about the board (docs/DESIGN.md,
//! Principle 5). Nothing is stored; the message says why and what to record instead.

use serde::{Deserialize, Serialize};

/// Why the engine refuses a recorded event: a stable machine-readable code, the `code` of
/// the API's problem answer and of the back office's refusal, listed in the OpenAPI
/// document so that a client can act on each.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::EnumIter,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum RefusalCode {
    /// A move in SAN that fits more than one legal move.
    AmbiguousMove,
    /// An appeal that was decided already (appeals are final).
    AppealAlreadyDecided,
    /// An appeal decision that cannot send the players back to the board.
    AppealCannotResume,
    /// An appeal lodged after the deadline the regulations set.
    AppealTooLate,
    /// A draw offer under regulations that need the arbiter's consent.
    ArbiterConsentRequired,
    /// A request that waits for the arbiter's decision on an open claim.
    AwaitingArbiter,
    /// A FEN that is not a legal position.
    BadFen,
    /// A square name that is not one.
    BadSquare,
    /// `both_flags` in a game without Guidelines III.
    BothFlagsOutsideGuidelines,
    /// A draw agreement before both players moved.
    BothMustHaveMoved,
    /// An appeals committee whose members may not decide under the regulations.
    CommitteeIneligible,
    /// A draw agreement the regulations forbid.
    DrawAgreementForbidden,
    /// A touched piece on an empty square.
    EmptySquare,
    /// An arbiter's `game_ended` with the cause `forfeit` in a game whose moves are in the
    /// log: a forfeit is a game not played (6.7.1).
    ForfeitAfterMoves,
    /// An event on the board after the game ended.
    GameOver,
    /// A quickplay-finish request where Guidelines III were not announced.
    GuidelinesNotAnnounced,
    /// A move that is not legal in the position.
    IllegalMove,
    /// An illegal move that cannot stand under the game's edition.
    IllegalMoveCannotStand,
    /// An event the record cannot be consistent with.
    InternalInconsistency,
    /// An "illegal move" whose attempted move is legal.
    LegalAttemptedMove,
    /// A move count the arbiter must give.
    MissingMoveCount,
    /// A penalty the arbiter's decision must give.
    MissingPenalty,
    /// A result the arbiter's decision must give.
    MissingResult,
    /// A move count below the moves on the board.
    MoveCountBelowBoard,
    /// A move that does not move a touched piece (4.3).
    MustMoveObligation,
    /// A move that is not the written move (4.3, 4.2.1 of a written move).
    MustPlayObligation,
    /// An appeal decision with no appeal lodged.
    NoAppealLodged,
    /// A move count that would move the game past its last period.
    NoFollowingPeriod,
    /// An increment granted with no request for one.
    NoIncrementRequest,
    /// No legal move is left after the illegal move.
    NoLegalMoveAfterIllegalMove,
    /// An answer to a draw offer that is not pending.
    NoPendingOffer,
    /// A promotion named on a move that promotes nothing.
    NotAPromotion,
    /// A correction of an event that is not the latest standing one.
    NotLatestStanding,
    /// An event of the player who does not have the move.
    NotYourTurn,
    /// A player answering their own draw offer.
    OwnOffer,
    /// An event that needs the position (FEN) to be given.
    PositionNeeded,
    /// A promotion that was not completed.
    PromotionNotCompleted,
    /// An event only the service records.
    ServiceEventSubmitted,
    /// A draw agreement before the move the regulations set (9.1.1).
    TooEarlyForAgreement,
    /// A move that does not move the touched piece (4.3).
    TouchMoveObligation,
    /// An attempted move where none is expected.
    UnexpectedAttemptedMove,
    /// An event naming a `seq` that is not in the log.
    UnknownSeq,
    /// An attempted move that cannot be read.
    UnreadableAttemptedMove,
    /// A move that cannot be read.
    UnreadableMove,
}

impl RefusalCode {
    /// The code as on the wire: `illegal_move`, `not_your_turn`, ...
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A code equals its wire name (`RefusalCode::GameOver == "game_over"`).
impl PartialEq<&str> for RefusalCode {
    fn eq(&self, name: &&str) -> bool {
        self.as_str() == *name
    }
}

impl std::fmt::Display for RefusalCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A recorded event the engine will not accept, with a stable [`Refusal::code`] and a
/// [`Refusal::message`] for the person recording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    code: RefusalCode,
    message: String,
}

impl Refusal {
    /// A refusal with a stable code and an explanation.
    pub fn new(code: RefusalCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    /// A stable machine-readable code, e.g. `illegal_move`, `not_your_turn`, `game_over`.
    pub fn code(&self) -> RefusalCode {
        self.code
    }

    /// Why the event is refused, and what to record instead.
    pub fn message(&self) -> &str {
        &self.message
    }
}

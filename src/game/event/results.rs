//! How a game ends, in the log's words: the result as PGN writes it (with the results of a
//! game declared lost, 6.7.1, 6.9 and 12.9.6, that PGN has no notation for) and the
//! termination, each named by the article that ends the game. Apart from the events, since
//! results are also what reports, standings and TRF read without reading an event.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::Side;
use crate::rules::electronic_devices::OpponentScore;

/// The result of a game, as written in PGN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum GameResult {
    /// White won.
    #[serde(rename = "1-0")]
    WhiteWins,
    /// Black won.
    #[serde(rename = "0-1")]
    BlackWins,
    /// The game was drawn.
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// Both players lost: a double forfeit (neither player was present at the default time,
    /// 6.7.1, or the arbiter declared the game lost for both). No point for either. PGN has no
    /// notation for it; this is the one FIDE's Olympiad broadcasts and lichess use.
    #[serde(rename = "0-0")]
    BothLose,
    /// White lost and Black scores a draw: the game declared lost by White, Black's score
    /// set at ½ (12.9.6: "the arbiter shall also decide the opponent's score"; or the
    /// regulations' lesser penalty, 11.3.2.2). PGN has no notation for it: the `Result` tag
    /// writes `0-1/2`, as `0-0` for a double forfeit.
    #[serde(rename = "0-1/2")]
    WhiteLosesBlackHalf,
    /// Black lost and White scores a draw (12.9.6), as [`GameResult::WhiteLosesBlackHalf`].
    #[serde(rename = "1/2-0")]
    BlackLosesWhiteHalf,
}

impl GameResult {
    /// The PGN notation of the result.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::BothLose => "0-0",
            GameResult::WhiteLosesBlackHalf => "0-1/2",
            GameResult::BlackLosesWhiteHalf => "1/2-0",
        }
    }

    /// The result of a game declared lost by `loser` with the opponent's score `opponent`
    /// (12.9.6): the opponent's win, ½ for the opponent, or a loss for both (0-0).
    pub fn lost_by(loser: Side, opponent: OpponentScore) -> GameResult {
        match (opponent, loser) {
            (OpponentScore::Win, _) => GameResult::win_for(loser.opponent()),
            (OpponentScore::Draw, Side::White) => GameResult::WhiteLosesBlackHalf,
            (OpponentScore::Draw, Side::Black) => GameResult::BlackLosesWhiteHalf,
            (OpponentScore::Loss, _) => GameResult::BothLose,
        }
    }

    /// The result in which `side` wins.
    pub fn win_for(side: Side) -> GameResult {
        match side {
            Side::White => GameResult::WhiteWins,
            Side::Black => GameResult::BlackWins,
        }
    }

    /// Parses the PGN notation; `None` for anything else.
    pub fn parse(pgn: &str) -> Option<GameResult> {
        match pgn {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "0-0" => Some(GameResult::BothLose),
            "0-1/2" => Some(GameResult::WhiteLosesBlackHalf),
            "1/2-0" => Some(GameResult::BlackLosesWhiteHalf),
            _ => None,
        }
    }
}

/// How a game ended.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    ToSchema,
    strum::IntoStaticStr,
    strum::EnumIter,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Termination {
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
    /// 5.2.3 / 9.1
    Agreement,
    /// 9.2
    RepetitionClaim,
    /// 9.3
    FiftyMovesClaim,
    /// 6.9
    Flag,
    /// 5.1.2
    Resignation,
    /// 7.5.5
    IllegalMoves,
    /// A judgement ruling by the arbiter.
    Arbiter,
    /// An upheld appeal.
    Appeal,
}

impl Termination {
    /// Whether the game ended by the move just made, which completes that move without a
    /// press (6.2.1.1: 5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2).
    pub fn ends_by_the_move(self) -> bool {
        matches!(
            self,
            Termination::Checkmate
                | Termination::Stalemate
                | Termination::DeadPosition
                | Termination::FivefoldRepetition
                | Termination::SeventyFiveMoves
        )
    }

    /// The snake_case name, as on the wire and in the `games` read model.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The termination in words, for reasons and refusals.
    pub fn in_words(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::DeadPosition => "dead position",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::SeventyFiveMoves => "75-move rule",
            Termination::Agreement => "agreement",
            Termination::RepetitionClaim => "repetition claim",
            Termination::FiftyMovesClaim => "fifty-move claim",
            Termination::Flag => "flag fall",
            Termination::Resignation => "resignation",
            Termination::IllegalMoves => "illegal moves",
            Termination::Arbiter => "arbiter's decision",
            Termination::Appeal => "appeal",
        }
    }

    /// Parses the snake_case name; `None` for a name this version does not know.
    pub fn parse(name: &str) -> Option<Termination> {
        ALL_TERMINATIONS.iter().copied().find(|t| t.name() == name)
    }
}

/// Every termination, in the order of [`Termination`].
pub const ALL_TERMINATIONS: [Termination; 13] = [
    Termination::Checkmate,
    Termination::Stalemate,
    Termination::DeadPosition,
    Termination::FivefoldRepetition,
    Termination::SeventyFiveMoves,
    Termination::Agreement,
    Termination::RepetitionClaim,
    Termination::FiftyMovesClaim,
    Termination::Flag,
    Termination::Resignation,
    Termination::IllegalMoves,
    Termination::Arbiter,
    Termination::Appeal,
];

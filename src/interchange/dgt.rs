//! The DGT LiveChess feed, read as broadcast relays read it, and what it says against the log.
//!
//! DGT electronic boards feed DGT LiveChess, which publishes each round as JSON: the round's
//! `index.json` (its `pairings`: players with `fname`/`mname`/`lname`/`title`/`fideid`, and
//! each game's `result`) and one `game-N.json` per board (`moves` as strings such as
//! `"Nc2 34+2"`: the SAN, the mover's seconds left, `+` the seconds the move took; an optional
//! `clock` object, more reliable than the last moves' times; `result`; `chess960`, 518 for the
//! standard position). The format is the one lichess's relay reads (its `DgtJson`); this module
//! parses it and decides, purely, what a feed adds to a stored game:
//!
//! - the moves that legally extend the stored line, with their clock readings, to be
//!   recorded through the engine exactly as an arbiter would record them;
//! - and, where the board and the log disagree, what the arbiter must decide ([`Attention`]):
//!   a move the board misread (not legal in the position), a line that no longer extends the
//!   stored one (a reset board, a move taken back and another played), a move taken back on
//!   the board (a correction of the stored line: truncate, never branch), and a result, which
//!   the boards signal by both kings placed on the centre squares (DGT's convention: both on
//!   light squares d5 and e4, 1-0; both on dark squares d4 and e5, 0-1; one on each,
//!   ½-½). What the feed says is never stored as if it were true: a result is only proposed.

use serde::{Deserialize, Serialize};
use shakmaty::san::San;
use shakmaty::{Chess, Color, Position, Square};
use utoipa::ToSchema;

use super::board_feed::Frame;
pub use super::board_feed::{DgtClock, FeedMove};
use crate::game::event::GameResult;

/// A player of a round's pairings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DgtPlayer {
    /// Given name.
    #[serde(default)]
    pub fname: Option<String>,
    /// Middle name.
    #[serde(default)]
    pub mname: Option<String>,
    /// Surname.
    #[serde(default)]
    pub lname: Option<String>,
    /// FIDE title (`GM`, `IM`, ...).
    #[serde(default)]
    pub title: Option<String>,
    /// FIDE ID.
    #[serde(default)]
    pub fideid: Option<u64>,
}

impl DgtPlayer {
    /// The name as a pairing list writes it: `Surname, Given names` (or whatever is known).
    pub fn name(&self) -> Option<String> {
        let given: Vec<&str> = [&self.fname, &self.mname]
            .into_iter()
            .flatten()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
            .collect();
        match (
            self.lname
                .as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty()),
            given.is_empty(),
        ) {
            (Some(last), true) => Some(last.to_string()),
            (Some(last), false) => Some(format!("{last}, {}", given.join(" "))),
            (None, false) => Some(given.join(" ")),
            (None, true) => None,
        }
    }
}

/// One board of a round's `index.json`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DgtPairing {
    /// White.
    #[serde(default)]
    pub white: Option<DgtPlayer>,
    /// Black.
    #[serde(default)]
    pub black: Option<DgtPlayer>,
    /// The result as the feed gives it (`1-0`, `0-1`, `1/2-1/2`, `*`).
    #[serde(default)]
    pub result: Option<String>,
}

/// A round's `index.json`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DgtRound {
    /// The round's date, as the feed writes it.
    #[serde(default)]
    pub date: Option<String>,
    /// The boards, in board order (board N is `game-N.json`).
    #[serde(default)]
    pub pairings: Vec<DgtPairing>,
}

/// A board's `game-N.json`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DgtGame {
    /// The moves as the feed writes them: `"e4 5399"`, `"Nc2 34+2"`, `"fxe4 +31"`, `"Nf3"`.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The result as the feed gives it (`1-0`, `0-1`, `1/2-1/2`, `*`).
    #[serde(default)]
    pub result: Option<String>,
    /// The clocks, more reliable than the last moves' times.
    #[serde(default)]
    pub clock: Option<DgtClock>,
    /// The Chess960 start position number (518 is the standard position).
    #[serde(default)]
    pub chess960: Option<u32>,
}

/// A feed that cannot be read at all (its JSON); what is merely wrong in it is an
/// [`Attention`], not an error.
#[derive(Debug, thiserror::Error)]
#[error("the DGT feed cannot be read: {0}")]
pub struct DgtError(String);

/// Reads a round's `index.json`.
pub fn read_round(json: &str) -> Result<DgtRound, DgtError> {
    serde_json::from_str(json).map_err(|e| DgtError(e.to_string()))
}

/// Reads a board's `game-N.json`.
pub fn read_game(json: &str) -> Result<DgtGame, DgtError> {
    serde_json::from_str(json).map_err(|e| DgtError(e.to_string()))
}

/// Reads one move string: `"Nc2 34+2"` (SAN, seconds left, `+` seconds used), `"fxe4 +31"`,
/// `"dxe4 63"` or a bare SAN.
pub fn read_move(text: &str) -> FeedMove {
    let mut parts = text.split_whitespace();
    let san = parts.next().unwrap_or_default().to_string();
    let (seconds_left, seconds_used) = match parts.next() {
        None => (None, None),
        Some(times) => match times.split_once('+') {
            None => (times.parse().ok(), None),
            Some((left, used)) => (left.parse().ok(), used.parse().ok()),
        },
    };
    FeedMove {
        san,
        seconds_left,
        seconds_used,
    }
}

impl DgtGame {
    /// The moves, each with its own time as the move string gives it. The `clock` object is
    /// read against the previous frames ([`super::board_feed::BoardMemory`]): it gives the
    /// last move its time only when it describes the position the feed shows.
    pub fn feed_moves(&self) -> Vec<FeedMove> {
        self.moves.iter().map(|m| read_move(m)).collect()
    }

    /// This game as a frame of the board feed.
    pub fn frame(&self) -> Frame {
        Frame {
            moves: self.feed_moves(),
            result: self.result.clone(),
            clock: self.clock.clone(),
        }
    }

    /// Whether the board starts from a Chess960 position other than the standard one.
    pub fn is_chess960(&self) -> bool {
        self.chess960.is_some_and(|n| n != 518)
    }
}

/// A result as the feed writes it, if it is one (`*` and anything else is none).
pub fn feed_result(text: &str) -> Option<GameResult> {
    match text.trim() {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" | "½-½" => Some(GameResult::Draw),
        _ => None,
    }
}

/// What the feed says against the stored line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct FeedReading {
    /// The moves that legally extend the stored line, in order, starting at ply
    /// `stored.len() + 1`: record them through the engine with their clock readings.
    pub to_record: Vec<FeedMove>,
    /// What the arbiter must decide, if anything.
    pub attention: Option<Attention>,
}

/// Where the board and the log disagree: never stored as if it were true, shown to the
/// arbiter ("needs the arbiter") with the feed's moves and the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Attention {
    /// The board gives a move that is not legal in the position (a misread, or an illegal
    /// move on the board: the arbiter records it as an illegal move, or ignores it).
    IllegalMove {
        /// The ply the move would have been (1 = White's first move).
        ply: usize,
        /// The move as the board read it.
        san: String,
        /// Why it cannot be recorded.
        reason: String,
    },
    /// The board has fewer moves than the log: moves were taken back on the board. Accepting
    /// it corrects the stored line (the moves after `keep_plies` are retracted), never
    /// branches it.
    TakenBack {
        /// The plies the board still shows.
        keep_plies: usize,
        /// The stored plies.
        stored_plies: usize,
    },
    /// The board's line leaves the stored one (a reset board, a move taken back and another
    /// played).
    Diverges {
        /// The first ply that differs.
        ply: usize,
        /// The stored move there.
        stored: String,
        /// The board's move there.
        board: String,
    },
    /// The board signals a result (both kings on the centre squares, or the feed's result
    /// field): proposed to the arbiter, who records it or not.
    ProposedResult {
        /// The result.
        result: GameResult,
        /// How the board signalled it.
        signal: ResultSignal,
        /// How the game ended, as the feed states it (a round PGN's `Termination` tag: `Time
        /// forfeit`, `Black resigns`, ...); recorded with the result as the PGN import
        /// records it (a time forfeit as the loser's flag fall, a resignation as the loser's).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        termination: Option<String>,
    },
    /// Not a disagreement but a notice: the board took back moves that nothing the arbiter
    /// entered stood on, and the follower retracted them itself, as the board feed (the
    /// round's `takebacks` setting `by_feed`). Shown to the arbiter, who keeps it or undoes
    /// it (the moves taken back are recorded again). Never produced by [`read_against`].
    CorrectedByFeed {
        /// The plies the board showed (the log kept them).
        keep_plies: usize,
        /// The plies the log had.
        stored_plies: usize,
        /// The moves retracted, with their stored readings, the first first.
        retracted: Vec<FeedMove>,
    },
    /// A move legal in the position that the engine still refuses to record (the game has
    /// ended in the log, for instance): shown with the engine's reason.
    Refused {
        /// The ply the move would have been.
        ply: usize,
        /// The move as the board read it.
        san: String,
        /// The engine's reason.
        reason: String,
    },
}

/// How a board signalled a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResultSignal {
    /// Both kings placed on the centre squares (the following "moves" are not moves).
    KingsInCentre,
    /// The feed's `result` field.
    FeedResult,
}

/// What `feed` says against the `stored` line (the standing moves, in SAN as the log holds
/// them) of a game that started from `start`, given the result the log holds (none while
/// the game goes on).
pub fn read_against(
    start: &Chess,
    stored: &[String],
    feed: &[FeedMove],
    stored_result: Option<GameResult>,
    feed_result_text: Option<&str>,
) -> FeedReading {
    let mut position = start.clone();
    for (index, stored_san) in stored.iter().enumerate() {
        let Some(board) = feed.get(index) else {
            return FeedReading {
                to_record: Vec::new(),
                attention: Some(Attention::TakenBack {
                    keep_plies: feed.len(),
                    stored_plies: stored.len(),
                }),
            };
        };
        if !same_move(&position, stored_san, &board.san) {
            if let Some(result) = kings_in_centre(&position, &feed[index..]) {
                return proposed(result, ResultSignal::KingsInCentre);
            }
            return FeedReading {
                to_record: Vec::new(),
                attention: Some(Attention::Diverges {
                    ply: index + 1,
                    stored: stored_san.clone(),
                    board: board.san.clone(),
                }),
            };
        }
        match play(&position, stored_san) {
            Some(next) => position = next,
            None => break, // the log is the engine's: a stored move always plays
        }
    }
    let mut to_record = Vec::new();
    for (index, board) in feed.iter().enumerate().skip(stored.len()) {
        match play(&position, &board.san) {
            Some(next) => {
                position = next;
                to_record.push(board.clone());
            }
            None => {
                let attention = match kings_in_centre(&position, &feed[index..]) {
                    Some(result) => Attention::ProposedResult {
                        result,
                        signal: ResultSignal::KingsInCentre,
                        termination: None,
                    },
                    None => Attention::IllegalMove {
                        ply: index + 1,
                        san: board.san.clone(),
                        reason: format!(
                            "{} is not a legal move for {} here; the board may have misread it",
                            board.san,
                            if position.turn() == Color::White {
                                "White"
                            } else {
                                "Black"
                            }
                        ),
                    },
                };
                return FeedReading {
                    to_record,
                    attention: Some(attention),
                };
            }
        }
    }
    let attention = feed_result_text
        .and_then(feed_result)
        .filter(|result| stored_result != Some(*result))
        .map(|result| Attention::ProposedResult {
            result,
            signal: ResultSignal::FeedResult,
            termination: None,
        });
    FeedReading {
        to_record,
        attention,
    }
}

fn proposed(result: GameResult, signal: ResultSignal) -> FeedReading {
    FeedReading {
        to_record: Vec::new(),
        attention: Some(Attention::ProposedResult {
            result,
            signal,
            termination: None,
        }),
    }
}

/// The position after `san`, if it is legal.
fn play(position: &Chess, san: &str) -> Option<Chess> {
    let san: San = san.trim_end_matches(['+', '#', '!', '?']).parse().ok()?;
    let m = san.to_move(position).ok()?;
    let mut next = position.clone();
    next.play_unchecked(m);
    Some(next)
}

/// Whether two SAN strings are the same move in `position` (`Nf3` and `Nf3+`, `Ngf3` and
/// `Nf3` are).
fn same_move(position: &Chess, a: &str, b: &str) -> bool {
    let parse = |s: &str| -> Option<shakmaty::Move> {
        s.trim_end_matches(['+', '#', '!', '?'])
            .parse::<San>()
            .ok()?
            .to_move(position)
            .ok()
    };
    match (parse(a), parse(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// The result both kings placed on the centre squares signal, if the rest of the feed
/// (`tail`, from the first move that is not legal or not stored) is only such king
/// placements: each taken as the king of the side it would be a move of, the kings must end
/// on two centre squares (d5 and e4 light: 1-0; d4 and e5 dark: 0-1; one of each: ½-½).
fn kings_in_centre(position: &Chess, tail: &[FeedMove]) -> Option<GameResult> {
    if tail.is_empty() || tail.len() > 2 {
        return None;
    }
    let board = position.board();
    let mut white = board.king_of(Color::White)?;
    let mut black = board.king_of(Color::Black)?;
    let mut mover = position.turn();
    for placement in tail {
        let square = king_target(&placement.san)?;
        match mover {
            Color::White => white = square,
            Color::Black => black = square,
        }
        mover = !mover;
    }
    const CENTRE: [Square; 4] = [Square::D4, Square::D5, Square::E4, Square::E5];
    if white == black || !CENTRE.contains(&white) || !CENTRE.contains(&black) {
        return None;
    }
    Some(match (white.is_light(), black.is_light()) {
        (true, true) => GameResult::WhiteWins,
        (false, false) => GameResult::BlackWins,
        _ => GameResult::Draw,
    })
}

/// The square of a king "move" (`Kd5`, `Kxe4`, `Ke4+`), if it is one.
fn king_target(san: &str) -> Option<Square> {
    let san = san.trim_end_matches(['+', '#', '!', '?']);
    let rest = san.strip_prefix('K')?;
    let rest = rest.strip_prefix('x').unwrap_or(rest);
    let square: Square = rest.get(rest.len().checked_sub(2)?..)?.parse().ok()?;
    Some(square)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::side::Side;

    fn moves(sans: &[&str]) -> Vec<FeedMove> {
        sans.iter().map(|s| read_move(s)).collect()
    }

    fn stored(sans: &[&str]) -> Vec<String> {
        sans.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_move_string_gives_the_san_the_time_left_and_the_time_used() {
        assert_eq!(
            read_move("Nc2 34+2"),
            FeedMove {
                san: "Nc2".into(),
                seconds_left: Some(34),
                seconds_used: Some(2)
            }
        );
        assert_eq!(read_move("fxe4 +31").seconds_used, Some(31));
        assert_eq!(read_move("fxe4 +31").seconds_left, None);
        assert_eq!(read_move("dxe4 63").seconds_left, Some(63));
        assert_eq!(read_move("O-O").seconds_left, None);
    }

    #[test]
    fn the_moves_keep_their_own_times_and_the_clock_object_says_whose_clock_runs() {
        let game = read_game(
            r#"{"moves": ["e4 5390", "e5 5395", "Nf3 5300", "Nc6 5380"],
                "clock": {"white": 5290, "black": 5370, "time": 1, "run": "white"}, "result": "*"}"#,
        )
        .expect("readable");
        let moves = game.feed_moves();
        assert_eq!(moves[2].seconds_left, Some(5300));
        assert_eq!(moves[3].seconds_left, Some(5380));
        let clock = game.clock.expect("the clock object");
        assert_eq!(clock.running_side(), Some(Side::White));
    }

    #[test]
    fn names_are_written_surname_first() {
        let player = DgtPlayer {
            fname: Some("Magnus".into()),
            lname: Some("Carlsen".into()),
            ..DgtPlayer::default()
        };
        assert_eq!(player.name().as_deref(), Some("Carlsen, Magnus"));
    }

    #[test]
    fn new_legal_moves_extend_the_stored_line() {
        let reading = read_against(
            &Chess::default(),
            &stored(&["e4"]),
            &moves(&["e4 5390", "c5 5395", "Nf3 5300"]),
            None,
            Some("*"),
        );
        assert_eq!(
            reading
                .to_record
                .iter()
                .map(|m| m.san.as_str())
                .collect::<Vec<_>>(),
            ["c5", "Nf3"]
        );
        assert_eq!(reading.attention, None);
    }

    #[test]
    fn a_misread_move_is_shown_to_the_arbiter_after_the_legal_ones_are_recorded() {
        let reading = read_against(
            &Chess::default(),
            &stored(&[]),
            &moves(&["e4", "e5", "Ke3"]),
            None,
            None,
        );
        assert_eq!(reading.to_record.len(), 2);
        assert!(matches!(
            reading.attention,
            Some(Attention::IllegalMove { ply: 3, ref san, .. }) if san == "Ke3"
        ));
    }

    #[test]
    fn a_move_taken_back_on_the_board_asks_to_truncate_the_stored_line() {
        let reading = read_against(
            &Chess::default(),
            &stored(&["e4", "e5", "Nf3"]),
            &moves(&["e4", "e5"]),
            None,
            None,
        );
        assert_eq!(
            reading.attention,
            Some(Attention::TakenBack {
                keep_plies: 2,
                stored_plies: 3
            })
        );
        assert!(reading.to_record.is_empty());
    }

    #[test]
    fn a_reset_board_diverges_and_nothing_is_recorded() {
        let reading = read_against(
            &Chess::default(),
            &stored(&["e4", "e5"]),
            &moves(&["d4", "d5", "c4"]),
            None,
            None,
        );
        assert!(matches!(
            reading.attention,
            Some(Attention::Diverges { ply: 1, .. })
        ));
        assert!(reading.to_record.is_empty());
    }

    #[test]
    fn both_kings_on_the_light_centre_squares_propose_a_win_for_white_never_moves() {
        // 1.e4 e5 2.Ke2 Ke7: then the kings are put on d5 and e4 (not legal moves).
        let reading = read_against(
            &Chess::default(),
            &stored(&["e4", "e5", "Ke2", "Ke7"]),
            &moves(&["e4", "e5", "Ke2", "Ke7", "Kd5", "Ke4"]),
            None,
            None,
        );
        assert!(reading.to_record.is_empty(), "{reading:?}");
        assert_eq!(
            reading.attention,
            Some(Attention::ProposedResult {
                result: GameResult::WhiteWins,
                signal: ResultSignal::KingsInCentre,
                termination: None,
            })
        );
        // One king on a light square, the other on a dark one: a draw.
        let reading = read_against(
            &Chess::default(),
            &stored(&["e4", "e5", "Ke2", "Ke7"]),
            &moves(&["e4", "e5", "Ke2", "Ke7", "Kd4", "Kd5"]),
            None,
            None,
        );
        assert!(matches!(
            reading.attention,
            Some(Attention::ProposedResult {
                result: GameResult::Draw,
                ..
            })
        ));
    }

    #[test]
    fn the_feeds_result_is_proposed_unless_the_log_already_holds_it() {
        let reading = read_against(
            &Chess::default(),
            &stored(&["e4"]),
            &moves(&["e4"]),
            None,
            Some("1-0"),
        );
        assert_eq!(
            reading.attention,
            Some(Attention::ProposedResult {
                result: GameResult::WhiteWins,
                signal: ResultSignal::FeedResult,
                termination: None,
            })
        );
        let agreed = read_against(
            &Chess::default(),
            &stored(&["e4"]),
            &moves(&["e4"]),
            Some(GameResult::WhiteWins),
            Some("1-0"),
        );
        assert_eq!(agreed.attention, None);
    }
}

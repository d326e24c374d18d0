//! A round's PGN as a board feed: the second source a round can be followed from, beside the
//! DGT LiveChess JSON ([`super::dgt`]). Broadcasts publish a round as one PGN file that relays
//! poll (lichess's relay reads the same): one game per board, its moves with `[%clk]`
//! comments, its result.
//!
//! Each game is read *as written*: the moves are SAN tokens not yet checked against any
//! position, so that a move a board misread reaches the arbiter as a disagreement
//! ([`super::dgt::read_against`] judges them, exactly as for the DGT feed), instead of cutting
//! the game where the PGN importer would refuse it. A game's board is its `Board` tag, else
//! the board of a `Round` tag such as `5.3`, else its place in the file (the first game is
//! board 1), as round files list their boards in order.

use pgn_reader::Reader;

use super::board_feed::FeedMove;
use super::pgn_import::{CollectingVisitor, RawGame, round_and_board};

/// One game of a round's PGN, as a board feed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnFeedGame {
    /// The board it was played on.
    pub board: u32,
    /// The moves as written, each with the mover's clock (`[%clk]`) in whole seconds.
    pub moves: Vec<FeedMove>,
    /// The result as the file gives it (`Result` tag, else the movetext's), `*` while playing.
    pub result: Option<String>,
    /// How the game ended as the file states it (`Termination` tag), if it does.
    pub termination: Option<String>,
}

/// A round's PGN that cannot be read at all.
#[derive(Debug, thiserror::Error)]
#[error("the round's PGN cannot be read: {0}")]
pub struct PgnFeedError(String);

/// The games of a round's PGN, by board (a game that is unreadable PGN is left out: the next
/// poll reads the file again).
pub fn read_round_pgn(text: &str) -> Result<Vec<PgnFeedGame>, PgnFeedError> {
    let mut reader = Reader::new(text.as_bytes());
    let mut visitor = CollectingVisitor::default();
    let mut raws: Vec<RawGame> = Vec::new();
    loop {
        match reader.read_game(&mut visitor) {
            Ok(Some(raw)) => {
                if raw.is_game() {
                    raws.push(raw);
                }
            }
            Ok(None) => break,
            Err(error) if error.kind() == std::io::ErrorKind::InvalidData => {
                reader
                    .skip_game()
                    .map_err(|e| PgnFeedError(e.to_string()))?;
            }
            Err(error) => return Err(PgnFeedError(error.to_string())),
        }
    }
    Ok(raws
        .into_iter()
        .enumerate()
        .map(|(index, raw)| {
            let board = raw
                .tag("Board")
                .and_then(|b| b.trim().parse::<u32>().ok())
                .filter(|b| *b > 0)
                .or_else(|| raw.tag("Round").and_then(|r| round_and_board(r).1))
                .unwrap_or_else(|| u32::try_from(index + 1).unwrap_or(u32::MAX));
            let result = raw
                .tag("Result")
                .map(str::to_owned)
                .or_else(|| raw.outcome.clone());
            let moves = raw
                .moves
                .iter()
                .map(|(san, clock_ms)| FeedMove {
                    san: san.to_string(),
                    seconds_left: clock_ms.map(|ms| ms / 1000),
                    seconds_used: None,
                })
                .collect();
            PgnFeedGame {
                board,
                moves,
                result,
                termination: raw
                    .tag("Termination")
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(str::to_owned),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_read_by_board_with_their_clocks_and_a_misread_move_is_kept_as_written() {
        let text = "[Event \"Open\"]\n[Round \"5\"]\n[Board \"2\"]\n[Result \"*\"]\n\n\
                    1. e4 { [%clk 1:29:57] } e5 { [%clk 1:29:50] } 2. Nf3 *\n\n\
                    [Event \"Open\"]\n[Round \"5.7\"]\n[Result \"1-0\"]\n\
                    [Termination \"Time forfeit\"]\n\n1. d4 Qh4 1-0\n\n\
                    [Event \"Open\"]\n[Result \"*\"]\n\n1. c4 *\n";
        let games = read_round_pgn(text).expect("reads");
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].board, 2, "the Board tag");
        assert_eq!(games[0].moves[0].san, "e4");
        assert_eq!(games[0].moves[0].seconds_left, Some(5397));
        assert_eq!(games[0].moves[1].seconds_left, Some(5390));
        assert_eq!(games[0].moves[2].seconds_left, None);
        assert_eq!(games[0].result.as_deref(), Some("*"));
        assert_eq!(games[1].board, 7, "the Round tag's board");
        assert_eq!(
            games[1].moves[1].san, "Qh4",
            "not legal after 1. d4, kept as written for the arbiter"
        );
        assert_eq!(games[1].result.as_deref(), Some("1-0"));
        assert_eq!(games[1].termination.as_deref(), Some("Time forfeit"));
        assert_eq!(games[0].termination, None);
        assert_eq!(games[2].board, 3, "its place in the file");
    }
}

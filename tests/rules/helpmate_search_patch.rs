//! The patched chasolver (`vendor/chasolver-arbiter`) against chasolver 3.0.0 as published:
//! the same answer, and the same helpmate, for both players in every position the game files
//! reach and in every position of chasolver's own classified test set. The patch only skips
//! work whose result it knows (vendor/chasolver-arbiter/README.md); this is where that claim
//! is checked, so that no dead-position ruling (5.2.2) can change with it.

use std::str::FromStr;

use arbiter::rules::move_parsing::parse_move;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use crate::dead_position_check::games;

/// An answer of either crate in one comparable form: decided or not, and the helpmate.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    Winnable(Vec<chess::ChessMove>),
    Unwinnable,
    Undecided,
}

fn patched(board: &chess::Board, winner: chess::Color) -> Answer {
    match chasolver::winnability(board, winner) {
        Some(chasolver::Winnability::Winnable { helpmate }) => Answer::Winnable(helpmate),
        Some(chasolver::Winnability::Unwinnable) => Answer::Unwinnable,
        None => Answer::Undecided,
    }
}

fn upstream(board: &chess::Board, winner: chess::Color) -> Answer {
    match chasolver_upstream::winnability(board, winner) {
        Some(chasolver_upstream::Winnability::Winnable { helpmate }) => Answer::Winnable(helpmate),
        Some(chasolver_upstream::Winnability::Unwinnable) => Answer::Unwinnable,
        None => Answer::Undecided,
    }
}

/// Compares the two for both players in `board`; returns how many answers were not
/// "winnable" (so that the test can show it reached the unwinnable and undecided paths too).
fn compare(board: &chess::Board, place: &str) -> usize {
    let mut other = 0;
    for winner in [chess::Color::White, chess::Color::Black] {
        let answer = patched(board, winner);
        assert_eq!(
            answer,
            upstream(board, winner),
            "{place}: {board} for {winner:?}: the patched search answers otherwise than chasolver 3.0.0"
        );
        other += usize::from(!matches!(answer, Answer::Winnable(_)));
    }
    other
}

#[test]
fn the_patched_helpmate_search_answers_as_published_chasolver_in_every_position_of_the_game_files()
{
    let mut positions = 0;
    let mut not_winnable = 0;
    for name in ["twic1599", "lichess-2025-05"] {
        for (index, sans) in games(name).iter().enumerate() {
            let mut position = Chess::default();
            for (ply, san) in sans.iter().enumerate() {
                let m = parse_move(&position, san, CastlingMode::Standard).expect("a legal move");
                position.play_unchecked(m);
                if position.is_game_over() {
                    break;
                }
                let fen = Fen::from_position(&position, EnPassantMode::Legal).to_string();
                let board = chess::Board::from_str(&fen).expect("the chess crate reads the FEN");
                not_winnable += compare(&board, &format!("{name} game {index} ply {}", ply + 1));
                positions += 1;
            }
        }
    }
    assert!(positions > 120_000, "only {positions} positions compared");
    assert!(not_winnable > 0, "no position reached the unwinnable paths");
}

#[test]
fn the_patched_helpmate_search_answers_as_published_chasolver_in_every_classified_test_position() {
    let text = std::fs::read_to_string(crate::shared::shared(
        "data/dead-positions/cha-positions.txt",
    ))
    .expect("positions readable");
    let mut compared = 0;
    let mut not_winnable = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fen = format!("{} 0 1", line[2..].trim());
        // The chess crate refuses a few submitted positions (impossible checks, too much
        // material); both crates take only its boards, so there is nothing to compare there.
        let Ok(board) = chess::Board::from_str(&fen) else {
            continue;
        };
        not_winnable += compare(&board, line);
        compared += 1;
    }
    assert!(compared > 3_000, "only {compared} positions compared");
    assert!(
        not_winnable > 1_000,
        "only {not_winnable} answers were not winnable"
    );
}

//! Whether a player can still checkmate "by any possible series of legal moves"
//! (5.2.2 dead position, 5.1.2, 6.9 flag fall, 7.5.5 second illegal move).
//!
//! This is a helpmate question, not a material count: locked pawn walls and forced lines
//! matter. The answer comes from `chasolver` (the CHA algorithm), which either finds a
//! helpmate or proves none exists, within its own node bound; when the bound is hit the answer
//! is [`MatingPotential::Inconclusive`] and rulings say so.
//!
//! Cheap sound shortcuts come first: a checkmated or stalemated position needs no search,
//! and shakmaty's `has_insufficient_material(color)` is only ever true when that colour
//! cannot mate (it never errs in that direction). `chasolver::is_unwinnable_fast` is sound
//! too (true only when proven unwinnable); only when both are inconclusive does the full
//! search run.

use std::str::FromStr;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

/// Whether a side can still deliver checkmate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatingPotential {
    /// A helpmate exists (or the opponent is already checkmated).
    CanMate,
    /// Proven: no series of legal moves ends in checkmate by this side.
    CannotMate,
    /// The bounded search did not decide.
    Inconclusive,
}

impl MatingPotential {
    /// A stable name for evidence.
    pub fn name(self) -> &'static str {
        match self {
            MatingPotential::CanMate => "can_mate",
            MatingPotential::CannotMate => "cannot_mate",
            MatingPotential::Inconclusive => "inconclusive",
        }
    }
}

/// How the answer was obtained (for ruling evidence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The position is already over the board (mate or stalemate).
    GameOver,
    /// shakmaty's material rule (sound when it says "cannot").
    InsufficientMaterial,
    /// `chasolver::is_unwinnable_fast`.
    FastProof,
    /// `chasolver::winnability` (full helpmate search, bounded).
    HelpmateSearch,
}

impl Method {
    /// A stable name for evidence.
    pub fn name(self) -> &'static str {
        match self {
            Method::GameOver => "position_is_final",
            Method::InsufficientMaterial => "insufficient_material",
            Method::FastProof => "chasolver_fast_proof",
            Method::HelpmateSearch => "chasolver_helpmate_search",
        }
    }
}

/// Decide whether `winner` can checkmate in `position`, and how that was decided.
pub fn mating_potential(position: &Chess, winner: Color) -> (MatingPotential, Method) {
    if position.is_checkmate() {
        let answer = if position.turn() == winner {
            MatingPotential::CannotMate
        } else {
            MatingPotential::CanMate
        };
        return (answer, Method::GameOver);
    }
    if position.is_stalemate() {
        return (MatingPotential::CannotMate, Method::GameOver);
    }
    if position.has_insufficient_material(winner) {
        return (MatingPotential::CannotMate, Method::InsufficientMaterial);
    }
    let Some(board) = chess_board(position) else {
        return (MatingPotential::Inconclusive, Method::HelpmateSearch);
    };
    let color = match winner {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    };
    if chasolver::is_unwinnable_fast(&board, color) {
        return (MatingPotential::CannotMate, Method::FastProof);
    }
    let answer = match chasolver::winnability(&board, color) {
        Some(chasolver::Winnability::Winnable { .. }) => MatingPotential::CanMate,
        Some(chasolver::Winnability::Unwinnable) => MatingPotential::CannotMate,
        None => MatingPotential::Inconclusive,
    };
    (answer, Method::HelpmateSearch)
}

/// Whether the position is dead (5.2.2): neither player can checkmate. `Inconclusive` when
/// one side is proven unable and the other undecided.
pub fn dead_position(position: &Chess) -> MatingPotential {
    let white = mating_potential(position, Color::White).0;
    if white == MatingPotential::CanMate {
        return MatingPotential::CanMate;
    }
    let black = mating_potential(position, Color::Black).0;
    match (white, black) {
        (_, MatingPotential::CanMate) => MatingPotential::CanMate,
        (MatingPotential::CannotMate, MatingPotential::CannotMate) => MatingPotential::CannotMate,
        _ => MatingPotential::Inconclusive,
    }
}

/// The position as a board of the `chess` crate, which chasolver uses. Chess960 castling
/// rights cannot be expressed there and are dropped (castling never decides whether a
/// helpmate exists in practice; the loss is noted here as a known limitation).
fn chess_board(position: &Chess) -> Option<chess::Board> {
    let mut setup = position.to_setup(EnPassantMode::Legal);
    if position.castles().mode() == CastlingMode::Chess960 {
        setup.castling_rights = shakmaty::Bitboard::EMPTY;
    }
    let fen = Fen::try_from_setup(setup).ok()?.to_string();
    chess::Board::from_str(&fen).ok()
}

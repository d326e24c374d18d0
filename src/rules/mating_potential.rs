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
use shakmaty::{CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role};

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

/// How hard to look for a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchEffort {
    /// Only the sound shortcuts and `chasolver::is_unwinnable_fast` (about a microsecond):
    /// `CannotMate` is proven, anything else is `Inconclusive`.
    FastProof,
    /// Also the full, bounded helpmate search (`chasolver::winnability`).
    Full,
}

/// Decide whether `winner` can checkmate in `position`, and how that was decided (full
/// search; used for every ruling).
pub fn mating_potential(position: &Chess, winner: Color) -> (MatingPotential, Method) {
    mating_potential_with(position, winner, SearchEffort::Full)
}

/// [`mating_potential`] with a choice of effort.
pub fn mating_potential_with(
    position: &Chess,
    winner: Color,
    effort: SearchEffort,
) -> (MatingPotential, Method) {
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
    let color = chess_color(winner);
    if chasolver::is_unwinnable_fast(&board, color) {
        return (MatingPotential::CannotMate, Method::FastProof);
    }
    if effort == SearchEffort::FastProof {
        return (MatingPotential::Inconclusive, Method::FastProof);
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
    dead_position_with_witness(position).0
}

/// [`dead_position`], with the side proven able to checkmate when the position is not dead
/// (the witness the next move's check can start from, see [`still_can_mate_after`]).
pub fn dead_position_with_witness(position: &Chess) -> (MatingPotential, Option<Color>) {
    let white = mating_potential(position, Color::White).0;
    if white == MatingPotential::CanMate {
        return (MatingPotential::CanMate, Some(Color::White));
    }
    let black = mating_potential(position, Color::Black).0;
    match (white, black) {
        (_, MatingPotential::CanMate) => (MatingPotential::CanMate, Some(Color::Black)),
        (MatingPotential::CannotMate, MatingPotential::CannotMate) => {
            (MatingPotential::CannotMate, None)
        }
        _ => (MatingPotential::Inconclusive, None),
    }
}

/// How the dead-position check after a move (5.2.2) reached its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AfterMoveProof {
    /// The player proven able to checkmate before the move can return to the position before
    /// it ([`still_can_mate_after`]): no search.
    WayBack,
    /// The helpmate search ([`dead_position_with_witness`]) ran.
    Search,
}

impl AfterMoveProof {
    /// A stable name (for figures).
    pub fn name(self) -> &'static str {
        match self {
            AfterMoveProof::WayBack => "way_back",
            AfterMoveProof::Search => "search",
        }
    }
}

/// The answer of the dead-position check after a move (5.2.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AfterMoveCheck {
    /// Whether the position after the move is dead (`CannotMate`), proven not dead
    /// (`CanMate`), or undecided (`Inconclusive`, which is not dead).
    pub potential: MatingPotential,
    /// A player proven able to checkmate after the move, for the next move's check.
    pub witness: Option<Color>,
    /// How the answer was reached.
    pub proof: AfterMoveProof,
}

/// Whether the position `after`, reached from `before` by the legal move `m`, is dead
/// (5.2.2), starting from `witness`, a player proven able to checkmate in `before` (from the
/// previous move's check; `None` when unknown).
///
/// The witness is only ever used to skip a search whose answer is already proven; the
/// verdict (dead or not) is the one the full search of [`dead_position_with_witness`] gives.
pub fn dead_position_after_move(
    before: &Chess,
    m: Move,
    after: &Chess,
    witness: Option<Color>,
) -> AfterMoveCheck {
    if let Some(side) = witness
        && still_can_mate_after(before, m, after)
    {
        return AfterMoveCheck {
            potential: MatingPotential::CanMate,
            witness: Some(side),
            proof: AfterMoveProof::WayBack,
        };
    }
    let (potential, witness) = dead_position_with_witness(after);
    AfterMoveCheck {
        potential,
        witness,
        proof: AfterMoveProof::Search,
    }
}

/// Whether a side that could checkmate in `before` provably still can after the move `m`,
/// which leads to `after`, without a helpmate search: the fast path of the dead-position
/// check after every move (5.2.2).
///
/// The proof is a way back: when `m` is a quiet piece move (no capture, no pawn, no
/// promotion, no castling, castling rights unchanged, and no en passant capture possible
/// before it), and the opponent has a quiet reply after which `m` can be taken back and the
/// reply too, the players can return to `before` by legal moves, and from there the side
/// checkmates as it could before. The returned position is compared with `before` in full
/// (FIDE identity). When no such way back exists the answer is `false` and the full search
/// decides: this never calls a live position dead, nor a dead one live.
pub fn still_can_mate_after(before: &Chess, m: Move, after: &Chess) -> bool {
    let quiet = |position: &Chess, m: &Move| {
        matches!(
            m,
            Move::Normal {
                role,
                capture: None,
                promotion: None,
                ..
            } if *role != Role::Pawn
        ) && !matches!(m, Move::Castle { .. })
            && position.castles().castling_rights() == {
                let mut next = position.clone();
                next.play_unchecked(*m);
                next.castles().castling_rights()
            }
    };
    let undo = |m: &Move| match *m {
        Move::Normal { role, from, to, .. } => Some(Move::Normal {
            role,
            from: to,
            capture: None,
            to: from,
            promotion: None,
        }),
        _ => None,
    };
    if before.legal_ep_square().is_some() || !quiet(before, &m) {
        return false;
    }
    let Some(back) = undo(&m) else {
        return false;
    };
    for reply in after.legal_moves() {
        if !quiet(after, &reply) {
            continue;
        }
        let Some(reply_back) = undo(&reply) else {
            continue;
        };
        let mut position = after.clone();
        position.play_unchecked(reply);
        if !position.is_legal(back) {
            continue;
        }
        position.play_unchecked(back);
        if !position.is_legal(reply_back) {
            continue;
        }
        position.play_unchecked(reply_back);
        if position == *before {
            return true;
        }
    }
    false
}

/// The position as a board of the `chess` crate, which chasolver uses. Chess960 castling
/// rights cannot be expressed there and are dropped (a known limitation: castling would have
/// to decide whether a helpmate exists at all).
fn chess_board(position: &Chess) -> Option<chess::Board> {
    if position.legal_ep_square().is_some() {
        return chess_board_via_fen(position);
    }
    let mut builder = chess::BoardBuilder::new();
    for (square, piece) in position.board().iter() {
        let role = match piece.role {
            Role::Pawn => chess::Piece::Pawn,
            Role::Knight => chess::Piece::Knight,
            Role::Bishop => chess::Piece::Bishop,
            Role::Rook => chess::Piece::Rook,
            Role::Queen => chess::Piece::Queen,
            Role::King => chess::Piece::King,
        };
        builder.piece(
            chess::ALL_SQUARES[square.to_usize()],
            role,
            chess_color(piece.color),
        );
    }
    builder.side_to_move(chess_color(position.turn()));
    if position.castles().mode() == CastlingMode::Standard {
        for color in [Color::White, Color::Black] {
            let castles = position.castles();
            let rights = usize::from(castles.has(color, CastlingSide::KingSide))
                | (usize::from(castles.has(color, CastlingSide::QueenSide)) << 1);
            builder.castle_rights(chess_color(color), chess::CastleRights::from_index(rights));
        }
    }
    chess::Board::try_from(&builder).ok()
}

fn chess_color(color: Color) -> chess::Color {
    match color {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    }
}

/// The general conversion, through FEN (used when an en passant capture is legal).
fn chess_board_via_fen(position: &Chess) -> Option<chess::Board> {
    let mut setup = position.to_setup(EnPassantMode::Legal);
    if position.castles().mode() == CastlingMode::Chess960 {
        setup.castling_rights = shakmaty::Bitboard::EMPTY;
    }
    let fen = Fen::try_from_setup(setup).ok()?.to_string();
    chess::Board::from_str(&fen).ok()
}

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
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role};

/// Whether a side can still deliver checkmate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
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
        self.into()
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
    let (potential, method, _) = potential_with_helpmate(position, winner, effort);
    (potential, method)
}

/// The answers that need no chasolver call: a position already over the board (mate or
/// stalemate) and shakmaty's material rule (sound when it says "cannot").
fn settled_without_search(position: &Chess, winner: Color) -> Option<(MatingPotential, Method)> {
    if position.is_checkmate() {
        let answer = if position.turn() == winner {
            MatingPotential::CannotMate
        } else {
            MatingPotential::CanMate
        };
        return Some((answer, Method::GameOver));
    }
    if position.is_stalemate() {
        return Some((MatingPotential::CannotMate, Method::GameOver));
    }
    if position.has_insufficient_material(winner) {
        return Some((MatingPotential::CannotMate, Method::InsufficientMaterial));
    }
    None
}

/// [`mating_potential_with`], with the helpmate the search found when it found one (as the
/// `chess` crate's moves, from `position`; empty otherwise). The fast proof runs before the
/// search, so that a ruling's evidence names the cheapest proof that decided.
fn potential_with_helpmate(
    position: &Chess,
    winner: Color,
    effort: SearchEffort,
) -> (MatingPotential, Method, Vec<chess::ChessMove>) {
    if let Some((answer, method)) = settled_without_search(position, winner) {
        return (answer, method, Vec::new());
    }
    let Some(board) = chess_board(position) else {
        return (
            MatingPotential::Inconclusive,
            Method::HelpmateSearch,
            Vec::new(),
        );
    };
    let color = chess_color(winner);
    if chasolver::is_unwinnable_fast(&board, color) {
        return (MatingPotential::CannotMate, Method::FastProof, Vec::new());
    }
    if effort == SearchEffort::FastProof {
        return (MatingPotential::Inconclusive, Method::FastProof, Vec::new());
    }
    let (answer, helpmate) = match chasolver::winnability(&board, color) {
        Some(chasolver::Winnability::Winnable { helpmate }) => (MatingPotential::CanMate, helpmate),
        Some(chasolver::Winnability::Unwinnable) => (MatingPotential::CannotMate, Vec::new()),
        None => (MatingPotential::Inconclusive, Vec::new()),
    };
    (answer, Method::HelpmateSearch, helpmate)
}

/// Whether `winner` can checkmate in `position` by the full search, with the helpmate it
/// found (empty otherwise), for the dead-position check, which keeps no evidence of the
/// method: the search runs first and the fast proof only when the search does not decide.
/// The answer is [`mating_potential`]'s, since both are sound: the fast proof never says
/// "cannot" where a helpmate exists, and the search only says "cannot" when none does.
/// Most positions of a game are not dead, and there the fast proof is time lost before the
/// search finds its helpmate.
fn potential_search_first(
    position: &Chess,
    winner: Color,
) -> (MatingPotential, Vec<chess::ChessMove>) {
    if let Some((answer, _)) = settled_without_search(position, winner) {
        return (answer, Vec::new());
    }
    let Some(board) = chess_board(position) else {
        return (MatingPotential::Inconclusive, Vec::new());
    };
    let color = chess_color(winner);
    match chasolver::winnability(&board, color) {
        Some(chasolver::Winnability::Winnable { helpmate }) => (MatingPotential::CanMate, helpmate),
        Some(chasolver::Winnability::Unwinnable) => (MatingPotential::CannotMate, Vec::new()),
        None if chasolver::is_unwinnable_fast(&board, color) => {
            (MatingPotential::CannotMate, Vec::new())
        }
        None => (MatingPotential::Inconclusive, Vec::new()),
    }
}

/// Whether the position is dead (5.2.2): neither player can checkmate. `Inconclusive` when
/// one side is proven unable and the other undecided.
pub fn dead_position(position: &Chess) -> MatingPotential {
    dead_position_with_witness(position).0
}

/// [`dead_position`], with the side proven able to checkmate when the position is not dead
/// (the witness the next move's check can start from, see [`dead_position_after_move`]).
pub fn dead_position_with_witness(position: &Chess) -> (MatingPotential, Option<Color>) {
    let (potential, witness) = search_both(position, Color::White);
    (potential, witness.map(|witness| witness.side))
}

/// The full search for both players, `first` first (the verdict does not depend on the
/// order: the position is dead only when both are proven unable to checkmate, 5.2.2), with
/// the player found able to checkmate and the helpmate the search returned (kept as
/// [`MateWitness::searched_line`], not played through: see [`MateWitness`]).
fn search_both(position: &Chess, first: Color) -> (MatingPotential, Option<MateWitness>) {
    let found = |side: Color, helpmate: &[chess::ChessMove]| {
        (
            MatingPotential::CanMate,
            Some(MateWitness {
                side,
                line: WitnessLine::Searched(helpmate.iter().map(uci_of).collect()),
                position: position.clone(),
            }),
        )
    };
    let (one, helpmate) = potential_search_first(position, first);
    if one == MatingPotential::CanMate {
        return found(first, &helpmate);
    }
    let (other, helpmate) = potential_search_first(position, !first);
    match (one, other) {
        (_, MatingPotential::CanMate) => found(!first, &helpmate),
        (MatingPotential::CannotMate, MatingPotential::CannotMate) => {
            (MatingPotential::CannotMate, None)
        }
        _ => (MatingPotential::Inconclusive, None),
    }
}

/// A player proven able to checkmate in a position (5.2.2), with a helpmate that proves it
/// when one is known: what the next move's check starts from.
///
/// Only a proof makes one: the helpmate search, a helpmate played and checked move by move
/// ([`MateWitness::from_helpmate`], [`witness_along`]), or a way back to a position with a
/// witness. It belongs to one position, and a check that starts from another position ignores
/// it. It carries at most one of two lines:
///
/// * [`MateWitness::helpmate`]: a series of legal moves from its position ending in checkmate
///   by its player, each move checked by playing it. A check that starts from it may take the
///   rest of that series as proven without playing it again.
/// * [`MateWitness::searched_line`]: the helpmate chasolver returned with its verdict, as it
///   returned it. The verdict (the player can checkmate) is the search's; the line itself is
///   relied upon only after it has been played and checked move by move, which the next
///   move's check does when the game follows its first move. Most lines are never followed,
///   and playing every one through as it is found cost as much as a fifth of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateWitness {
    /// The player proven able to checkmate.
    side: Color,
    /// The line from `position` that proves it, if one is known.
    line: WitnessLine,
    /// The position the proof is about.
    position: Chess,
}

/// The line a [`MateWitness`] keeps: one of the two, never both.
#[derive(Clone, Debug, PartialEq, Eq)]
enum WitnessLine {
    /// None known (a way back proved the witness).
    None,
    /// A series of legal moves ending in checkmate by the witness's player, checked move by
    /// move.
    Checked(Vec<Move>),
    /// The helpmate the search returned, not yet played through.
    Searched(Vec<UciMove>),
}

impl WitnessLine {
    /// The line as UCI, each move to be read in the position it is played from.
    fn uci(&self) -> Vec<UciMove> {
        match self {
            WitnessLine::None => Vec::new(),
            WitnessLine::Checked(moves) => moves
                .iter()
                .map(|m| m.to_uci(CastlingMode::Standard))
                .collect(),
            WitnessLine::Searched(line) => line.clone(),
        }
    }
}

impl MateWitness {
    /// A witness that `side` can checkmate in `position`, proven by `helpmate`: `None` unless
    /// `helpmate` is a series of legal moves from `position` (each checked in turn) ending in
    /// checkmate by `side` (5.2.2).
    pub fn from_helpmate(position: &Chess, side: Color, helpmate: &[Move]) -> Option<MateWitness> {
        let mut reached = position.clone();
        for m in helpmate {
            if !reached.is_legal(*m) {
                return None;
            }
            reached.play_unchecked(*m);
        }
        (reached.turn() != side && reached.is_checkmate()).then(|| MateWitness {
            side,
            line: WitnessLine::Checked(helpmate.to_vec()),
            position: position.clone(),
        })
    }

    /// The player proven able to checkmate.
    pub fn side(&self) -> Color {
        self.side
    }

    /// A series of legal moves from the witness's position ending in checkmate by
    /// [`MateWitness::side`], checked move by move; empty when the proof was not a helpmate
    /// (a way back) or its line is still [`MateWitness::searched_line`].
    pub fn helpmate(&self) -> &[Move] {
        match &self.line {
            WitnessLine::Checked(moves) => moves,
            WitnessLine::None | WitnessLine::Searched(_) => &[],
        }
    }

    /// The helpmate the search returned from the witness's position, not yet played through
    /// here (see [`MateWitness`]); empty when the witness has none kept this way.
    pub fn searched_line(&self) -> &[UciMove] {
        match &self.line {
            WitnessLine::Searched(line) => line,
            WitnessLine::None | WitnessLine::Checked(_) => &[],
        }
    }

    /// The position the witness is about.
    pub fn position(&self) -> &Chess {
        &self.position
    }
}

/// A witness for `position` from the `line` of moves that follows it (the moves of one
/// append, for example), found with one dead-position check (5.2.2) at the end of the line:
/// a player able to checkmate where the line ends can from every position of the line, by the
/// rest of the line followed by a helpmate from its end. `None` when a move of the line is
/// not legal in turn, or when no helpmate is known from its end (it is dead there, the search
/// did not decide, or none could be converted): the checks after the line's moves then run
/// as they would without it.
pub fn witness_along(position: &Chess, line: &[Move]) -> Option<MateWitness> {
    let mut end = position.clone();
    for m in line {
        if !end.is_legal(*m) {
            return None;
        }
        end.play_unchecked(*m);
    }
    let (tail_side, tail) = if end.is_checkmate() {
        // The line itself ends in checkmate by the player who made its last move.
        (!end.turn(), Vec::new())
    } else if end.is_game_over() {
        return None;
    } else {
        let (potential, witness) = search_both(&end, Color::White);
        let witness = witness.filter(|_| potential == MatingPotential::CanMate)?;
        let tail = helpmate_of_uci(&end, witness.side, witness.searched_line())?;
        (witness.side, tail)
    };
    let mut helpmate = Vec::with_capacity(line.len() + tail.len());
    helpmate.extend_from_slice(line);
    helpmate.extend(tail);
    Some(MateWitness {
        side: tail_side,
        line: WitnessLine::Checked(helpmate),
        position: position.clone(),
    })
}

/// How the dead-position check after a move (5.2.2) reached its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum AfterMoveProof {
    /// The move is the first move of the witness's helpmate: the rest of it is a helpmate
    /// from the position after the move, proven when the witness was made (no search, nothing
    /// played again).
    FollowsHelpmate,
    /// The witness's helpmate from the position before the move, without its first move (or
    /// without the move, when the helpmate makes it later, and reordered), is still a series
    /// of legal moves ending in checkmate by the same player after it (played and checked
    /// move by move): no search.
    Helpmate,
    /// The player proven able to checkmate before the move can return to the position before
    /// it ([`still_can_mate_after`]): no search.
    WayBack,
    /// The helpmate search ran, for the witness's player first.
    Search,
}

impl AfterMoveProof {
    /// A stable name (for figures).
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// The answer of the dead-position check after a move (5.2.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AfterMoveCheck {
    /// Whether the position after the move is dead (`CannotMate`), proven not dead
    /// (`CanMate`), or undecided (`Inconclusive`, which is not dead).
    pub potential: MatingPotential,
    /// A player proven able to checkmate after the move, for the next move's check.
    pub witness: Option<MateWitness>,
    /// How the answer was reached.
    pub proof: AfterMoveProof,
}

/// Whether the position `after`, reached from `before` by the legal move `m`, is dead
/// (5.2.2), starting from `witness`, a player proven able to checkmate in `before` (from the
/// previous move's check; `None` when unknown).
///
/// The witness only ever skips a search whose answer is already proven, in this order: its
/// helpmate, without its first move, still mates after the move (checked by playing it);
/// the players can go back to `before` ([`still_can_mate_after`]); otherwise the full search
/// runs for both players, the witness's player first. The verdict (dead or not) is the one the full search of
/// [`dead_position`] gives: a position is called dead only when both players are proven
/// unable to checkmate, and a proof that one can never calls a dead position live.
pub fn dead_position_after_move(
    before: &Chess,
    m: Move,
    after: &Chess,
    witness: Option<&MateWitness>,
) -> AfterMoveCheck {
    let can_mate = |side, line, proof| AfterMoveCheck {
        potential: MatingPotential::CanMate,
        witness: Some(MateWitness {
            side,
            line,
            position: after.clone(),
        }),
        proof,
    };
    // A witness about another position proves nothing here.
    let witness = witness.filter(|witness| witness.position == *before);
    if let Some(witness) = witness {
        let followed = match &witness.line {
            WitnessLine::None => None,
            WitnessLine::Checked(moves) => moves
                .split_first()
                .filter(|(first, _)| **first == m)
                .map(|(_, rest)| rest.to_vec()),
            // The game follows the searched line: its rest, played through and checked here,
            // is the proof from now on.
            WitnessLine::Searched(line) => line
                .split_first()
                .filter(|(first, _)| **first == m.to_uci(CastlingMode::Standard))
                .and_then(|(_, rest)| helpmate_of_uci(after, witness.side, rest)),
        };
        if let Some(rest) = followed {
            let line = WitnessLine::Checked(rest);
            return can_mate(witness.side, line, AfterMoveProof::FollowsHelpmate);
        }
        if let Some(helpmate) = helpmate_after_move(after, m, witness) {
            let line = WitnessLine::Checked(helpmate);
            return can_mate(witness.side, line, AfterMoveProof::Helpmate);
        }
        if way_back(before, m, after).is_some() {
            // The helpmate kept is from `before`; none is known from `after` (the way back
            // followed by it would be one, but a line the game does not follow is of no use
            // to the next move's check).
            return can_mate(witness.side, WitnessLine::None, AfterMoveProof::WayBack);
        }
    }
    let first = witness.map_or(Color::White, |witness| witness.side);
    if let Some(witness) = search_after_recapture(after, m, first) {
        return AfterMoveCheck {
            potential: MatingPotential::CanMate,
            witness: Some(witness),
            proof: AfterMoveProof::Search,
        };
    }
    let (potential, witness) = search_both(after, first);
    AfterMoveCheck {
        potential,
        witness,
        proof: AfterMoveProof::Search,
    }
}

/// After a capture, the search one move ahead: from the position after the likeliest reply,
/// a recapture on the same square (by the least valuable piece that can make it). A player
/// able to checkmate there can from `after` too, by the recapture and then the helpmate
/// (5.2.2: "any possible series of legal moves"), so the witness for `after` is the
/// recapture followed by the searched line, and when the game does recapture so, the next
/// move's check follows it instead of searching again. `None` when the move was not a
/// capture, no recapture is legal, or the search there does not find a player able to
/// checkmate: then `after` is searched itself, and its verdict is the search's.
fn search_after_recapture(after: &Chess, m: Move, first: Color) -> Option<MateWitness> {
    m.capture()?;
    let recapture = after
        .legal_moves()
        .into_iter()
        .filter(|reply| reply.is_capture() && reply.to() == m.to())
        .min_by_key(|reply| reply.role())?;
    let mut next = after.clone();
    next.play_unchecked(recapture);
    let (potential, witness) = search_both(&next, first);
    let witness = witness.filter(|_| potential == MatingPotential::CanMate)?;
    let mut line = vec![recapture.to_uci(CastlingMode::Standard)];
    line.extend_from_slice(witness.searched_line());
    Some(MateWitness {
        side: witness.side,
        line: WitnessLine::Searched(line),
        position: after.clone(),
    })
}

/// A helpmate by the witness's player from `after`, made of the witness's helpmate from the
/// position before the move `m` that led there (5.2.2), checked by playing it:
///
/// * the helpmate without its first move, when `m` took that move's place without spoiling
///   the rest;
/// * when `m` is a later move of the same player in the helpmate (a pawn step it makes
///   further on, say): the helpmate without that move, the moves before it exchanged pair by
///   pair so that the other player, now to move, goes first.
fn helpmate_after_move(after: &Chess, m: Move, witness: &MateWitness) -> Option<Vec<Move>> {
    let line = witness.line.uci();
    let played = m.to_uci(CastlingMode::Standard);
    let (_, rest) = line.split_first()?;
    if let Some(helpmate) = helpmate_of_uci(after, witness.side, rest) {
        return Some(helpmate);
    }
    for at in (2..line.len()).step_by(2) {
        if line[at] != played {
            continue;
        }
        let mut reordered = Vec::with_capacity(line.len() - 1);
        for pair in line[..at].chunks_exact(2) {
            reordered.push(pair[1]);
            reordered.push(pair[0]);
        }
        reordered.extend_from_slice(&line[at + 1..]);
        if let Some(helpmate) = helpmate_of_uci(after, witness.side, &reordered) {
            return Some(helpmate);
        }
    }
    None
}

/// `line` played from `position` move by move, when every move is legal and the last
/// checkmates `winner`'s opponent: a proof that `winner` can checkmate there (5.2.2). The
/// moves are read afresh in each position (a capture may now take another piece).
fn helpmate_of_uci(position: &Chess, winner: Color, line: &[UciMove]) -> Option<Vec<Move>> {
    let mut position = position.clone();
    let mut helpmate = Vec::with_capacity(line.len());
    for uci in line {
        let m = uci.to_move(&position).ok()?;
        position.play_unchecked(m);
        helpmate.push(m);
    }
    (position.turn() != winner && position.is_checkmate()).then_some(helpmate)
}

/// A move of chasolver's helpmate (the `chess` crate's move: from, to, promotion) as UCI,
/// which [`helpmate_of_uci`] reads in the position it is played from (castling is the king's
/// two-square step in both).
fn uci_of(m: &chess::ChessMove) -> UciMove {
    let square = |s: chess::Square| shakmaty::Square::new(u32::from(s.to_int()));
    UciMove::Normal {
        from: square(m.get_source()),
        to: square(m.get_dest()),
        promotion: m.get_promotion().map(|piece| match piece {
            chess::Piece::Knight => Role::Knight,
            chess::Piece::Bishop => Role::Bishop,
            chess::Piece::Rook => Role::Rook,
            chess::Piece::Queen => Role::Queen,
            chess::Piece::Pawn => Role::Pawn,
            chess::Piece::King => Role::King,
        }),
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
    way_back(before, m, after).is_some()
}

/// The way back of [`still_can_mate_after`]: the opponent's quiet reply, `m` taken back and
/// the reply taken back, which lead from `after` to `before`.
fn way_back(before: &Chess, m: Move, after: &Chess) -> Option<[Move; 3]> {
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
        return None;
    }
    let back = undo(&m)?;
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
            return Some([reply, back, reply_back]);
        }
    }
    None
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

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> Chess {
        Fen::from_str(fen)
            .expect("a FEN")
            .into_position(CastlingMode::Standard)
            .expect("a legal position")
    }

    #[test]
    fn a_searched_line_that_does_not_mate_when_played_is_not_taken_as_proof() {
        // Given a witness whose searched line begins with the game's move but does not go on
        // to mate (forged: the search never returns one; only this module can make it)
        let before = position("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3");
        let uci = |text: &str| UciMove::from_ascii(text.as_bytes()).expect("UCI");
        let witness = MateWitness {
            side: Color::White,
            line: WitnessLine::Searched(vec![uci("a7a6"), uci("h5h6"), uci("g8f6")]),
            position: before.clone(),
        };
        let m = uci("a7a6").to_move(&before).expect("legal");
        let mut after = before.clone();
        after.play_unchecked(m);
        // When the game plays its first move
        let check = dead_position_after_move(&before, m, &after, Some(&witness));
        // Then the rest is played through, found wanting, and the search decides
        assert_eq!(check.proof, AfterMoveProof::Search);
        assert_eq!(check.potential, dead_position(&after));
    }
}

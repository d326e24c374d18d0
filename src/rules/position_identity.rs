//! Position identity and counting (9.2.3, 9.2, 9.6.1).
//!
//! Positions are the same when the same player has the move, pieces of the same kind and
//! colour occupy the same squares and the possible moves of all pieces are the same:
//! castling rights (not castling legality, 9.2.3.2) and an en passant capture only where it
//! is legal (9.2.3.1). shakmaty's `Chess` implements exactly this in `Eq`; its
//! `zobrist_hash::<Zobrist64>(EnPassantMode::Legal)` is the matching fast key. Keys are only a
//! filter: every occurrence is confirmed by full equality, so a hash collision can never
//! make two different positions count as one.
//!
//! Counts run over the whole game, not only consecutive moves (9.6.1 since 2017). Because a
//! capture or pawn move can never be undone, a position can only recur within the
//! half-moves since the last such move; the search is restricted to that window.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use super::evidence::{NearMiss, PositionDifference};
use super::move_parsing::fen_of;

/// The fast identity key of a position (must be confirmed by `==`).
pub fn position_key(position: &Chess) -> Zobrist64 {
    position.zobrist_hash(EnPassantMode::Legal)
}

/// A position the arbiter reconstructed (7.5.1, 7.6, 8.5.3) at ply `at`. When it is a
/// position the log holds (the position before an irregularity reinstated), it is that
/// occurrence again, and the plies after it up to the reconstruction (played on a board that
/// was wrong) did not appear in the game: `set_aside` holds them, and `at` itself. A
/// position the log does not hold is a new occurrence, and sets nothing aside.
#[derive(Clone, Debug)]
struct Reinstatement {
    at: usize,
    set_aside: std::ops::Range<usize>,
}

/// Every position of a game, by ply (ply 0 = start position), with their identity keys.
#[derive(Clone, Debug)]
pub struct PositionHistory {
    positions: Vec<Chess>,
    keys: Vec<Zobrist64>,
    /// The positions the arbiter reconstructed, in order, with the plies each set aside.
    reinstatements: Vec<Reinstatement>,
}

impl PositionHistory {
    /// A history holding only the start position.
    pub fn new(start: Chess) -> PositionHistory {
        let key = position_key(&start);
        PositionHistory {
            positions: vec![start],
            keys: vec![key],
            reinstatements: Vec::new(),
        }
    }

    /// Forget everything and start again from `start` (keeps the allocation).
    pub fn reset(&mut self, start: Chess) {
        self.positions.clear();
        self.keys.clear();
        self.keys.push(position_key(&start));
        self.positions.push(start);
        self.reinstatements.clear();
    }

    /// Records `position` as reconstructed by the arbiter (7.5.1, 7.6, 8.5.3): the game
    /// continues from it. When the log holds it (the latest standing occurrence), it is that
    /// position reinstated: that occurrence again, with the positions after it set aside
    /// (9.2 counts what appeared in the game, and they appeared on a board that was wrong).
    /// Otherwise it is a new occurrence, and the log's positions before it still count.
    pub fn push_reconstructed(&mut self, position: Chess) {
        let at = self.positions.len();
        let key = position_key(&position);
        let reinstated = (0..at).rev().find(|&i| {
            !self.set_aside(i, at) && self.keys[i] == key && self.positions[i] == position
        });
        self.push(position);
        self.reinstatements.push(Reinstatement {
            at,
            set_aside: match reinstated {
                Some(ply) => ply + 1..at + 1,
                None => at..at,
            },
        });
    }

    /// The plies of the positions the arbiter reconstructed.
    pub fn reconstructed_plies(&self) -> Vec<usize> {
        self.reinstatements.iter().map(|r| r.at).collect()
    }

    /// Whether the position at ply `i` is set aside for a count made at ply `as_of`.
    fn set_aside(&self, i: usize, as_of: usize) -> bool {
        self.reinstatements
            .iter()
            .any(|r| r.at <= as_of && r.set_aside.contains(&i))
    }

    /// Whether a count made at ply `as_of` comes after a reconstruction.
    fn reconstructed_by(&self, as_of: usize) -> bool {
        self.reinstatements.iter().any(|r| r.at <= as_of)
    }

    /// Record the position after the next move.
    pub fn push(&mut self, position: Chess) {
        self.keys.push(position_key(&position));
        self.positions.push(position);
    }

    /// Play the legal move `m` from the current position and record the result, updating
    /// the identity key incrementally where shakmaty can.
    pub fn play(&mut self, m: Move) {
        let last = self.positions.len() - 1;
        let key =
            self.positions[last].update_zobrist_hash(self.keys[last], m, EnPassantMode::Legal);
        self.positions.push(self.positions[last].clone());
        let next = &mut self.positions[last + 1];
        next.play_unchecked(m);
        let key = key.unwrap_or_else(|| position_key(next));
        self.keys.push(key);
    }

    /// Drop the last position (never the start position).
    pub fn pop(&mut self) {
        if self.positions.len() > 1 {
            self.positions.pop();
            self.keys.pop();
            let ply = self.ply();
            self.reinstatements.retain(|r| r.at <= ply);
        }
    }

    /// The number of half-moves played.
    pub fn ply(&self) -> usize {
        self.positions.len() - 1
    }

    /// The current position.
    pub fn current(&self) -> &Chess {
        // The history always holds at least the start position.
        &self.positions[self.positions.len() - 1]
    }

    /// The position after `ply` half-moves.
    pub fn at(&self, ply: usize) -> Option<&Chess> {
        self.positions.get(ply)
    }

    /// All positions by ply.
    pub fn positions(&self) -> &[Chess] {
        &self.positions
    }

    /// The plies (up to and including `ply`) at which the position at `ply` occurred.
    pub fn occurrences_of_ply(&self, ply: usize) -> Vec<usize> {
        match self.positions.get(ply) {
            Some(position) => self.occurrences_before(position, self.keys[ply], ply + 1, true),
            None => Vec::new(),
        }
    }

    /// How many times the position at `ply` has occurred up to and including `ply`.
    pub fn count_at_ply(&self, ply: usize) -> usize {
        let Some(position) = self.positions.get(ply) else {
            return 0;
        };
        let key = self.keys[ply];
        if self.reconstructed_by(ply) {
            // Across a reconstruction no move links the plies: every standing one is looked at.
            return (0..=ply)
                .filter(|&i| {
                    !self.set_aside(i, ply) && self.keys[i] == key && self.positions[i] == *position
                })
                .count();
        }
        let window = window_start(position, ply);
        let mut count = 0;
        let mut q = ply as isize;
        while q >= window as isize {
            let i = q as usize;
            if self.keys[i] == key && self.positions[i] == *position {
                count += 1;
            }
            q -= 2;
        }
        count
    }

    /// The plies at which `position` occurred in this history, when it would be the position
    /// after the next move (for a claim with an intended move, 9.2.1). The returned list does
    /// not include the new occurrence itself.
    pub fn occurrences_of(&self, position: &Chess) -> Vec<usize> {
        let next_ply = self.positions.len();
        self.occurrences_before(position, position_key(position), next_ply, false)
    }

    fn occurrences_before(
        &self,
        position: &Chess,
        key: Zobrist64,
        end: usize,
        includes_self: bool,
    ) -> Vec<usize> {
        let reference_ply = if includes_self { end - 1 } else { end };
        if self.reconstructed_by(reference_ply) {
            return (0..end)
                .filter(|&i| {
                    !self.set_aside(i, reference_ply)
                        && self.keys[i] == key
                        && self.positions[i] == *position
                })
                .collect();
        }
        let window = window_start(position, reference_ply);
        (window..end)
            .filter(|&i| self.keys[i] == key && self.positions[i] == *position)
            .collect()
    }

    /// Positions with the same piece placement as `position` that are nevertheless not the
    /// same position, with what made them differ (evidence for 9.2.3).
    pub fn near_misses(&self, position: &Chess) -> Vec<NearMiss> {
        self.positions
            .iter()
            .enumerate()
            .filter(|(_, other)| other.board() == position.board() && *other != position)
            .map(|(ply, other)| NearMiss {
                differs_by: differences(position, other),
                fen: fen_of(other),
                ply,
                other_fields: Default::default(),
            })
            .collect()
    }
}

/// The first ply at which a position equal to `position` (the position at `ply`) could
/// have stood: positions before the last capture or pawn move can never recur.
fn window_start(position: &Chess, ply: usize) -> usize {
    ply.saturating_sub(position.halfmoves() as usize)
}

/// What makes two positions differ, in the terms of 9.2.3: the placement, the side to move,
/// the castling rights, a legal en passant capture.
pub fn differences(a: &Chess, b: &Chess) -> Vec<PositionDifference> {
    let mut found = Vec::new();
    if a.board() != b.board() {
        found.push(PositionDifference::PiecePlacement);
    }
    if a.turn() != b.turn() {
        found.push(PositionDifference::SideToMove);
    }
    if a.castles().castling_rights() != b.castles().castling_rights() {
        found.push(PositionDifference::CastlingRights);
    }
    if a.legal_ep_square() != b.legal_ep_square() {
        found.push(PositionDifference::EnPassant);
    }
    found
}

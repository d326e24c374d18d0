//! What judging a recorded event (or reading a stored one) works out for folding it, so that
//! folding parses nothing again: the move, what an illegal move did, the position an illegal
//! move stood in, the square touched, what the written move of an incorrect claim obliges to.
//!
//! These values sit at the bottom of `src/game` because one part works them out and others
//! fold them: the effect of an illegal move is read by `super::illegal_moves` and folded by
//! the board, the obligations and the offers (7.5.1, 9.1.2.1); the written obligation is read
//! from a `claim_ruled` and folded by the obligations (9.5.3). Defined here, neither part
//! imports the other.

use shakmaty::{CastlingMode, Chess, Move, Square};

use crate::rules::mating_potential::MateWitness;
use crate::rules::move_parsing::{fen_of, parse_move};

use super::event::{ArbiterRuling, ClaimRuling, Event, RecordedEvent, ServiceEvent};

/// What judging a recorded event (or reading a stored one) worked out, so that folding it
/// parses nothing again.
#[derive(Clone, Debug)]
pub(super) enum Prepared {
    /// Nothing to prepare: the event carries all its part needs.
    Nothing,
    /// The move, and a player the dead-position check proved able to checkmate after it.
    Move(Move, Option<MateWitness>),
    /// What an `illegal_move` did (7.5).
    IllegalMove(IllegalMoveEffect),
    /// The position an illegal move that stood led to (A.5.2).
    Stood(Box<Chess>),
    /// The position the arbiter reconstructed (7.5.1, 7.6, 8.5.3).
    Reconstructed(Box<Chess>),
    /// The square touched (4.3).
    Touch(Square),
    /// What the written move of an incorrect claim obliges the claimant to (9.5.3).
    Written(WrittenObligation),
}

impl Prepared {
    /// Whether this prepared value belongs to `event`.
    pub(super) fn fits(&self, event: &Event) -> bool {
        use RecordedEvent as R;
        match (event, self) {
            (Event::Recorded(R::Move { .. }), prepared) => matches!(prepared, Prepared::Move(..)),
            (Event::Recorded(R::IllegalMove { .. }), prepared) => {
                matches!(prepared, Prepared::IllegalMove(_))
            }
            (Event::Recorded(R::Touch { .. }), prepared) => matches!(prepared, Prepared::Touch(_)),
            (
                Event::Recorded(R::ArbiterDecision {
                    decision: ArbiterRuling::IllegalMoveStands,
                    ..
                }),
                prepared,
            ) => matches!(prepared, Prepared::Stood(_)),
            (
                Event::Recorded(R::ArbiterDecision {
                    decision: ArbiterRuling::PositionReconstructed,
                    ..
                }),
                prepared,
            ) => matches!(prepared, Prepared::Reconstructed(_)),
            (Event::Service(ServiceEvent::ClaimRuled(_)), prepared) => {
                matches!(prepared, Prepared::Written(_))
            }
            (_, prepared) => matches!(prepared, Prepared::Nothing),
        }
    }

    /// What was prepared, in a word (for a `CorruptLog`).
    pub(super) fn name(&self) -> &'static str {
        match self {
            Prepared::Nothing => "nothing",
            Prepared::Move(..) => "a move",
            Prepared::IllegalMove(_) => "an illegal move",
            Prepared::Stood(_) => "a position",
            Prepared::Reconstructed(_) => "a reconstructed position",
            Prepared::Touch(_) => "a square",
            Prepared::Written(_) => "a written move",
        }
    }
}

/// What an `illegal_move` does to the board and the obligations, besides the penalty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum IllegalMoveEffect {
    /// The position stays as it was, and nothing is known of the piece (7.5.3, or an
    /// illegal move recorded without the move).
    Nothing,
    /// The position before it is reinstated; these pieces were touched, in this order (the
    /// piece moved, then the piece it would have captured): 7.5.1 and 7.5.4 with 4.3.
    Touched(Vec<Square>),
    /// The move stands as this legal move (7.5.2: the pawn becomes a queen).
    Stands(Move),
}

/// What the written move of an incorrect claim obliges the claimant to (9.5.3), read from
/// the `claim_ruled` once, so that the state keeps the move and the squares typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct WrittenObligation {
    /// The written move, compulsory, with its SAN as the ruling gives it.
    pub(super) must_play: Option<(Move, String)>,
    /// The pieces one of which must be moved: the written move was not legal.
    pub(super) must_move_one_of: Vec<Square>,
}

impl WrittenObligation {
    /// What `ruling` obliges the claimant to, in `position` (where the claim was made), or
    /// what in it cannot be read.
    pub(super) fn read(
        ruling: &ClaimRuling,
        position: &Chess,
        castling_mode: CastlingMode,
    ) -> Result<WrittenObligation, String> {
        let must_play = match &ruling.must_play {
            Some(san) => {
                let m = parse_move(position, san, castling_mode).map_err(|e| {
                    format!(
                        "its must_play {san} is not a legal move in {}: {e}",
                        fen_of(position)
                    )
                })?;
                Some((m, san.clone()))
            }
            None => None,
        };
        let must_move_one_of = ruling
            .must_move_one_of
            .iter()
            .flatten()
            .map(|square| {
                square.parse::<Square>().map_err(|_| {
                    format!("its must_move_one_of names `{square}`, which is no square")
                })
            })
            .collect::<Result<Vec<Square>, String>>()?;
        Ok(WrittenObligation {
            must_play,
            must_move_one_of,
        })
    }
}

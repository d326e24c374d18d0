//! Article 3 in play: the board, the moves made on it, and the refusal of a "move" that is
//! not a fact about the board (docs/DESIGN.md, Principle 5): a move out of turn, or one that
//! is not legal, is not stored; it is recorded as an `illegal_move` instead.
//!
//! The board keeps every position by ply (for 9.2 and 9.6.1, counted over the whole game)
//! and the moves in SAN. An illegal move that stood (Appendix A.5.2) moves the game on to a
//! position no legal move leads to; it is kept as a ply like any other, with the move as it
//! was written, and listed so that the PGN and the arbiter's screens can show it.

use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::rules::mating_potential::{MateWitness, witness_along};
use crate::rules::move_parsing::{MoveParseError, parse_move, san_of};
use crate::rules::position_identity::PositionHistory;
use crate::rules::side::Side;

use super::endings;
use super::event::{ArbiterRuling, Event, RecordedEvent};
use super::parts::{CorruptLog, Fold, FoldContext, JudgeContext, Judged, Judgement};
use super::prepared::{IllegalMoveEffect, Prepared};
use super::reads::BoardView;
use super::refusal::{Refusal, RefusalCode};
use super::view::{ReconstructedPosition, StoodIllegalMove};

/// The board and what was played on it.
#[derive(Clone, Debug)]
pub(super) struct Board {
    history: PositionHistory,
    moves: Vec<String>,
    stood: Vec<StoodIllegalMove>,
    reconstructed: Vec<ReconstructedPosition>,
    castling_mode: CastlingMode,
    /// A player proven able to checkmate in the current position, with a helpmate from it when
    /// one is known (by the dead-position check of the move that led here, 5.2.2), from which
    /// the next move's check can start. Folding a stored move leaves it empty (nothing is
    /// searched while folding); it never changes a ruling, only which search is skipped.
    mate_witness: Option<MateWitness>,
    /// The `seq` of the event that reached each ply (entry `n - 1` reached ply `n`).
    ply_seqs: Vec<u64>,
}

impl Board {
    /// The board at the start position.
    pub(super) fn new(start: Chess, castling_mode: CastlingMode) -> Board {
        Board {
            history: PositionHistory::new(start),
            moves: Vec::new(),
            stood: Vec::new(),
            reconstructed: Vec::new(),
            castling_mode,
            mate_witness: None,
            ply_seqs: Vec::new(),
        }
    }

    /// Every position by ply.
    pub(super) fn history(&self) -> &PositionHistory {
        &self.history
    }

    /// The current position.
    pub(super) fn position(&self) -> &Chess {
        self.history.current()
    }

    /// The board as the other parts read it.
    pub(super) fn view(&self) -> BoardView<'_> {
        BoardView::new(&self.history, self.castling_mode)
    }

    /// Half-moves played.
    pub(super) fn ply(&self) -> usize {
        self.history.ply()
    }

    /// The moves in SAN (an illegal move that stood as written).
    pub(super) fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The illegal moves that stood.
    pub(super) fn stood(&self) -> &[StoodIllegalMove] {
        &self.stood
    }

    /// The positions the arbiter reconstructed.
    pub(super) fn reconstructed(&self) -> &[ReconstructedPosition] {
        &self.reconstructed
    }

    /// The legal move `text` denotes for `by`, or why it is not one (Article 3).
    pub(super) fn judge_move(&self, by: Side, text: &str) -> Result<Move, Refusal> {
        let turn = self.view().side_to_move();
        if by != turn {
            return Err(Refusal::new(
                RefusalCode::NotYourTurn,
                format!(
                    "It is {}'s move, not {}'s. If {} moved out of turn, record it as an illegal_move.",
                    turn.name(),
                    by.name(),
                    by.name()
                ),
            ));
        }
        parse_move(self.position(), text, self.castling_mode).map_err(|error| match error {
            MoveParseError::Illegal { .. } => Refusal::new(
                RefusalCode::IllegalMove,
                format!("{error}. If it was played on the board, record an illegal_move (7.5) instead; the position stays as it is."),
            ),
            MoveParseError::Ambiguous { .. } => Refusal::new(RefusalCode::AmbiguousMove, error.to_string()),
            MoveParseError::Unreadable { .. } => Refusal::new(RefusalCode::UnreadableMove, error.to_string()),
        })
    }

    /// Judges a `move`: it must be a legal move of the player having the move (Article 3)
    /// that the obligations allow (4.3, 9.5.3); it may end the game by itself (5.1.1, 5.2.1,
    /// 5.2.2, 9.6). Other events are not this part's to judge.
    pub(super) fn judge(&self, ctx: &JudgeContext<'_>, event: &RecordedEvent) -> Judgement {
        let RecordedEvent::Move { by, san } = event else {
            return Ok(Judged::nothing());
        };
        let m = self.judge_move(*by, san)?;
        ctx.obligations.check(self.position(), *by, &m)?;
        let after = endings::after_move(ctx, *by, m, self.mate_witness());
        Ok(Judged {
            decisions: after.end.into_iter().collect(),
            prepared: Prepared::Move(m, after.witness),
        })
    }

    /// Plays the legal move `m`, recorded at `seq`; `mate_witness` is a player the
    /// dead-position check proved able to checkmate after it, if it ran.
    fn play(&mut self, seq: u64, m: Move, mate_witness: Option<MateWitness>) {
        let san = san_of(self.position(), m);
        self.history.play(m);
        self.moves.push(san);
        self.ply_seqs.push(seq);
        self.mate_witness = mate_witness;
    }

    /// The `seq` of the event that reached each ply: entry `n - 1` reached ply `n`.
    pub(super) fn ply_seqs(&self) -> &[u64] {
        &self.ply_seqs
    }

    /// A player proven able to checkmate in the current position, if known.
    fn mate_witness(&self) -> Option<&MateWitness> {
        self.mate_witness.as_ref()
    }

    /// Before the events of one append are recorded: when they begin with a run of two or
    /// more moves, each legal in turn, the dead-position check (5.2.2) runs once, on the
    /// position the run ends in. A player able to checkmate there can from every position of
    /// the run (5.2.2 asks for "any possible series of legal moves": the rest of the run, then
    /// a helpmate), so the check after each of its moves follows that helpmate instead of
    /// searching (`AfterMoveProof::FollowsHelpmate`). A dead position inside the run is still
    /// found where it stands: then no witness is known at the end and every move is checked
    /// as usual. Nothing else changes; the moves are judged one by one as before.
    pub(super) fn look_ahead<'a>(&mut self, upcoming: impl IntoIterator<Item = &'a Event>) {
        let mut position = self.position().clone();
        let mut line = Vec::new();
        for event in upcoming {
            let Event::Recorded(RecordedEvent::Move { by, san }) = event else {
                break;
            };
            if Side::from(position.turn()) != *by {
                break;
            }
            let Ok(m) = parse_move(&position, san, self.castling_mode) else {
                break;
            };
            position.play_unchecked(m);
            line.push(m);
        }
        if line.len() < 2 {
            return;
        }
        if let Some(witness) = witness_along(self.position(), &line) {
            self.mate_witness = Some(witness);
        }
    }

    /// The game goes on from `position`, reached by an illegal move that stood (A.5.2).
    fn stand(&mut self, seq: u64, attempted_move: Option<&str>, position: Chess) {
        let fen = crate::rules::move_parsing::fen_of(&position);
        self.history.push(position);
        self.ply_seqs.push(seq);
        self.mate_witness = None;
        self.moves.push(
            attempted_move
                .map(str::to_string)
                .unwrap_or_else(|| "--".into()),
        );
        self.stood.push(StoodIllegalMove {
            seq,
            ply: self.history.ply(),
            attempted_move: attempted_move.map(str::to_string),
            fen,
        });
    }
}

impl Board {
    /// The game goes on from `position`, which the arbiter reconstructed (7.5.1, 7.6,
    /// 8.5.3): a ply of its own (no move leads to it), from which repetitions are counted.
    fn reconstruct(&mut self, seq: u64, position: Chess, reason: &str) {
        let fen = crate::rules::move_parsing::fen_of(&position);
        self.history.push_reconstructed(position);
        self.ply_seqs.push(seq);
        self.mate_witness = None;
        self.moves.push("--".into());
        self.reconstructed.push(ReconstructedPosition {
            seq,
            ply: self.history.ply(),
            fen,
            reason: reason.to_string(),
        });
    }
}

impl Fold for Board {
    /// A move is played; an illegal move stands as a legal one (7.5.2: the pawn becomes a
    /// queen), or as the arbiter found it on the board (A.5.2).
    fn apply(&mut self, ctx: &FoldContext<'_>, event: &Event) -> Result<(), CorruptLog> {
        let seq = ctx.seq;
        match event {
            Event::Recorded(RecordedEvent::Move { .. }) => {
                let Prepared::Move(m, witness) = &ctx.prepared else {
                    return Err(ctx.mismatch("the move"));
                };
                self.play(seq, *m, witness.clone());
            }
            Event::Recorded(RecordedEvent::IllegalMove { .. }) => match &ctx.prepared {
                Prepared::IllegalMove(IllegalMoveEffect::Stands(m)) => self.play(seq, *m, None),
                Prepared::IllegalMove(_) => {}
                _ => return Err(ctx.mismatch("the effect of the illegal move")),
            },
            Event::Recorded(RecordedEvent::ArbiterDecision {
                decision: ArbiterRuling::IllegalMoveStands,
                attempted_move,
                ..
            }) => {
                let Prepared::Stood(position) = &ctx.prepared else {
                    return Err(ctx.mismatch("the position the illegal move stood in"));
                };
                self.stand(seq, attempted_move.as_deref(), (**position).clone());
            }
            Event::Recorded(RecordedEvent::ArbiterDecision {
                decision: ArbiterRuling::PositionReconstructed,
                reason,
                ..
            }) => {
                let Prepared::Reconstructed(position) = &ctx.prepared else {
                    return Err(ctx.mismatch("the position the arbiter reconstructed"));
                };
                self.reconstruct(seq, (**position).clone(), reason);
            }
            _ => {}
        }
        Ok(())
    }
}

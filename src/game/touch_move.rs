//! Article 4 in play, and the moves a player is bound to: what the player having the move
//! may still play after touching pieces (4.3, 4.4, 4.5), after an illegal move (7.5.1:
//! "Articles 4.3 and 4.7 apply to the move replacing the illegal move"), and after an
//! incorrect claim with a written move (9.5.3: "this move must be made in accordance with
//! Articles 3 and 4"; when it was not legal, "another move with this piece must be made",
//! Arbiters' Manual).
//!
//! Obligations bind in the order they arose. Each narrows the moves the earlier ones left;
//! one that would leave no move does not bind, as 4.5 frees a player whose touched pieces
//! cannot be moved or captured. So a game in progress always has an acceptable move (it has
//! a legal move, or it has ended by mate or stalemate): no sequence of events can leave a
//! player with nothing to play. A touch after a written move became compulsory therefore
//! binds only when it touches that move's piece, and a written move of another piece than
//! the one touched is not compulsory: the touched piece must be moved (9.4, 4.3).

use shakmaty::{Chess, Move, Position, Role, Square};

use crate::rules::move_parsing::fen_of;
use crate::rules::side::Side;

use super::event::{ArbiterRuling, Event, RecordedEvent, ServiceEvent};
use super::parts::{CorruptLog, Fold, FoldContext, JudgeContext, Judged, Judgement};
use super::prepared::{IllegalMoveEffect, Prepared, WrittenObligation};
use super::reads::MoveObligations;
use super::refusal::{Refusal, RefusalCode};
use super::view::{MustMove, MustPlay, Obligations as ObligationsView, TouchedPiece};

/// A piece touched with the intention of moving or capturing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Touched {
    square: Square,
    opponents: bool,
}

/// One obligation, in the order it arose.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Binding {
    /// The pieces touched (4.3, 4.4), read from the list of touched pieces.
    Touch,
    /// The written move of an incorrect claim (9.5.3).
    WrittenMove { m: Move, san: String },
    /// A move with one of these pieces: the written move was not legal (9.5.3, Article 4).
    WrittenPieces(Vec<Square>),
}

/// What the player having the move is bound to on this move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Obligations {
    by: Option<Side>,
    touched: Vec<Touched>,
    bindings: Vec<Binding>,
}

/// The square of the piece a move captures (the pawn beside the destination for en passant).
pub(super) fn captured_square(m: &Move) -> Option<Square> {
    match *m {
        Move::Normal {
            capture: Some(_),
            to,
            ..
        } => Some(to),
        Move::EnPassant { from, to } => Some(Square::from_coords(to.file(), from.rank())),
        _ => None,
    }
}

/// 4.4.1 / 4.4.3: the king touched first, then a rook (`own` lists the own pieces touched,
/// in order): castle on that side if legal, else another king move (which may be castling
/// with the other rook); no king move frees (4.5). `None` when the king was not touched
/// first, then a rook.
fn king_then_rook(own: &[Square], legal: &[Move], position: &Chess) -> Option<Vec<Move>> {
    let king = position.board().king_of(position.turn())?;
    let is_rook = |square: Square| position.board().role_at(square) == Some(Role::Rook);
    if own.first() != Some(&king) {
        return None;
    }
    let rook = own.iter().skip(1).find(|&&sq| is_rook(sq))?;
    let castle: Vec<Move> = legal
        .iter()
        .filter(|m| castles_with(m, *rook))
        .copied()
        .collect();
    if !castle.is_empty() {
        return Some(castle);
    }
    Some(
        legal
            .iter()
            .filter(|m| m.from() == Some(king))
            .copied()
            .collect(),
    )
}

/// Whether `m` castles with the rook on `rook`.
fn castles_with(m: &Move, rook: Square) -> bool {
    matches!(*m, Move::Castle { rook: r, .. } if r == rook)
}

impl Obligations {
    /// Nothing binds (a new move begins).
    pub(super) fn clear(&mut self) {
        *self = Obligations::default();
    }

    fn start_for(&mut self, by: Side) {
        if self.by != Some(by) {
            self.clear();
            self.by = Some(by);
        }
    }

    /// `by` touched the piece on `square` with the intention of moving or capturing it.
    pub(super) fn touch(&mut self, by: Side, square: Square, position: &Chess) {
        let Some(piece) = position.board().piece_at(square) else {
            return;
        };
        if Side::from(position.turn()) != by {
            return;
        }
        self.start_for(by);
        if self.touched.iter().any(|t| t.square == square) {
            return;
        }
        if self.touched.is_empty() {
            self.bindings.push(Binding::Touch);
        }
        self.touched.push(Touched {
            square,
            opponents: piece.color != position.turn(),
        });
    }

    /// The written move of an incorrect claim by `by` is compulsory, or one of the pieces it
    /// named must be moved when it was not legal (9.5.3, Article 4).
    fn bind_written(&mut self, by: Side, written: &WrittenObligation) {
        if let Some((m, san)) = &written.must_play {
            self.start_for(by);
            self.bindings.push(Binding::WrittenMove {
                m: *m,
                san: san.clone(),
            });
        }
        if !written.must_move_one_of.is_empty() {
            self.start_for(by);
            self.bindings
                .push(Binding::WrittenPieces(written.must_move_one_of.clone()));
        }
    }

    /// Judges a `touch`: it must name a square with a piece, touched by the player having the
    /// move (4.3). Other events are not this part's to judge.
    pub(super) fn judge(&self, ctx: &JudgeContext<'_>, event: &RecordedEvent) -> Judgement {
        let RecordedEvent::Touch { by, square } = event else {
            return Ok(Judged::nothing());
        };
        let square = touched_square(ctx.board().position(), *by, square)?;
        Ok(Judged {
            decisions: Vec::new(),
            prepared: Prepared::Touch(square),
        })
    }

    /// The moves that satisfy the touched pieces under 4.3 and 4.4, among `legal`; empty
    /// when none of them can be moved or captured (4.5).
    fn touch_set(&self, legal: &[Move], position: &Chess) -> Vec<Move> {
        let king = position.board().king_of(position.turn());
        let own: Vec<Square> = self
            .touched
            .iter()
            .filter(|t| !t.opponents)
            .map(|t| t.square)
            .collect();
        let opponents: Vec<Square> = self
            .touched
            .iter()
            .filter(|t| t.opponents)
            .map(|t| t.square)
            .collect();
        let moves_of = |square: Square| -> Vec<Move> {
            legal
                .iter()
                .filter(|m| m.from() == Some(square))
                .copied()
                .collect()
        };
        let captures_of = |square: Square| -> Vec<Move> {
            legal
                .iter()
                .filter(|m| captured_square(m) == Some(square))
                .copied()
                .collect()
        };
        let is_rook = |square: Square| position.board().role_at(square) == Some(Role::Rook);
        if let Some(set) = king_then_rook(&own, legal, position) {
            return set;
        }
        // 4.4.2: a rook, then the king: no castling on that side on this move; 4.3.1 governs.
        let no_castling_with: Option<Square> = match (own.first(), king) {
            (Some(&first), Some(king)) if is_rook(first) && own.contains(&king) => Some(first),
            _ => None,
        };
        let without_barred_castling = |moves: Vec<Move>| -> Vec<Move> {
            match no_castling_with {
                Some(rook) => moves
                    .into_iter()
                    .filter(|m| !castles_with(m, rook))
                    .collect(),
                None => moves,
            }
        };
        // 4.3.3: pieces of both colours: capture the first touched opponent's piece with the
        // first touched own piece, or if that is illegal move or capture the first piece
        // touched that can be moved or captured (own pieces count as touched first when the
        // order is unclear; the recorded order is the order of the events).
        if let (Some(&mine), Some(&theirs)) = (own.first(), opponents.first()) {
            let both: Vec<Move> = moves_of(mine)
                .into_iter()
                .filter(|m| captured_square(m) == Some(theirs))
                .collect();
            if !both.is_empty() {
                return both;
            }
        }
        // 4.3.1 / 4.3.2 (and the rest of 4.3.3): the first touched piece that can be moved
        // (own) or captured (opponent's).
        for touched in &self.touched {
            let set = if touched.opponents {
                captures_of(touched.square)
            } else {
                without_barred_castling(moves_of(touched.square))
            };
            if !set.is_empty() {
                return set;
            }
        }
        Vec::new()
    }

    /// The moves a binding allows, among `legal`.
    fn allowed_by(&self, binding: &Binding, legal: &[Move], position: &Chess) -> Vec<Move> {
        match binding {
            Binding::Touch => self.touch_set(legal, position),
            Binding::WrittenMove { m, .. } => legal.iter().filter(|l| *l == m).copied().collect(),
            Binding::WrittenPieces(squares) => legal
                .iter()
                .filter(|m| m.from().is_some_and(|from| squares.contains(&from)))
                .copied()
                .collect(),
        }
    }

    /// The acceptable moves for the player having the move in `position`, and for each
    /// binding whether it binds (false: no move satisfies it with the earlier ones).
    fn acceptable_with(&self, position: &Chess) -> (Vec<Move>, Vec<bool>) {
        let legal: Vec<Move> = position.legal_moves().into_iter().collect();
        let applies = self.by == Some(Side::from(position.turn()));
        let mut set = legal.clone();
        let mut binds = Vec::with_capacity(self.bindings.len());
        for binding in &self.bindings {
            if !applies {
                binds.push(false);
                continue;
            }
            let allowed = self.allowed_by(binding, &legal, position);
            let narrowed: Vec<Move> = set
                .iter()
                .filter(|m| allowed.contains(m))
                .copied()
                .collect();
            if narrowed.is_empty() {
                binds.push(false);
            } else {
                set = narrowed;
                binds.push(true);
            }
        }
        (set, binds)
    }

    /// The touched piece that binds: the first one whose moves (or captures) the touch
    /// obligation allows.
    fn binding_touch(&self, position: &Chess) -> Option<Touched> {
        let legal: Vec<Move> = position.legal_moves().into_iter().collect();
        let set = self.touch_set(&legal, position);
        self.touched.iter().copied().find(|t| {
            set.iter().any(|m| {
                if t.opponents {
                    captured_square(m) == Some(t.square)
                } else {
                    m.from() == Some(t.square)
                }
            })
        })
    }

    /// The obligations as the arbiter sees them, in `position`.
    pub(super) fn view(&self, position: &Chess) -> ObligationsView {
        let (set, binds) = self.acceptable_with(position);
        let Some(by) = self.by.filter(|by| *by == Side::from(position.turn())) else {
            return ObligationsView {
                acceptable_moves: set.iter().map(|m| san(position, m)).collect(),
                ..ObligationsView::default()
            };
        };
        let touched_piece = |t: &Touched| TouchedPiece {
            by,
            square: t.square.to_string(),
            opponents_piece: t.opponents,
        };
        let mut view = ObligationsView {
            touched_pieces: self.touched.iter().map(touched_piece).collect(),
            acceptable_moves: set.iter().map(|m| san(position, m)).collect(),
            ..ObligationsView::default()
        };
        for (binding, binds) in self.bindings.iter().zip(binds) {
            if !binds {
                continue;
            }
            match binding {
                Binding::Touch => {
                    view.touched = self.binding_touch(position).as_ref().map(touched_piece);
                }
                Binding::WrittenMove { san, .. } => {
                    view.must_play = Some(MustPlay {
                        by,
                        san: san.clone(),
                    });
                }
                Binding::WrittenPieces(squares) => {
                    view.must_move_one_of = Some(MustMove {
                        by,
                        squares: squares.iter().map(|s| s.to_string()).collect(),
                    });
                }
            }
        }
        view
    }
}

impl MoveObligations for Obligations {
    /// Whether `side` has touched a piece with the intention of moving or capturing it on
    /// this move (and so lost the right to claim under 9.2 or 9.3 on it, 9.4).
    fn touched_by(&self, side: Side) -> bool {
        self.by == Some(side) && !self.touched.is_empty()
    }

    /// The moves the player having the move may make.
    fn acceptable(&self, position: &Chess) -> Vec<Move> {
        self.acceptable_with(position).0
    }

    /// Whether the legal move `m` by `by` respects the obligations, and if not which one it
    /// breaks and what to do.
    fn check(&self, position: &Chess, by: Side, m: &Move) -> Result<(), Refusal> {
        let (set, binds) = self.acceptable_with(position);
        if set.contains(m) {
            return Ok(());
        }
        let legal: Vec<Move> = position.legal_moves().into_iter().collect();
        let broken = self
            .bindings
            .iter()
            .zip(&binds)
            .filter(|(_, binds)| **binds)
            .map(|(binding, _)| binding)
            .find(|binding| !self.allowed_by(binding, &legal, position).contains(m));
        Err(match broken {
            Some(Binding::WrittenMove { san, .. }) => Refusal::new(
                RefusalCode::MustPlayObligation,
                format!(
                    "{} must play {san}, the move written for the incorrect claim (9.5.3). If the arbiter ruled otherwise, record the arbiter_decision first.",
                    by.name()
                ),
            ),
            Some(Binding::WrittenPieces(squares)) => Refusal::new(
                RefusalCode::MustMoveObligation,
                format!(
                    "{} must move the piece on {} named by the written move of the incorrect claim, which was not legal (9.5.3 with Article 4).",
                    by.name(),
                    squares
                        .iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            ),
            _ => {
                let (square, verb) = self
                    .binding_touch(position)
                    .map(|t| {
                        (
                            t.square.to_string(),
                            if t.opponents { "capture" } else { "move" },
                        )
                    })
                    .unwrap_or_else(|| ("the touched square".to_string(), "move"));
                Refusal::new(
                    RefusalCode::TouchMoveObligation,
                    format!(
                        "{} touched the piece on {square} and must {verb} it (4.3). If the touch was not deliberate (4.2 adjusting), retract the touch with a correction first.",
                        by.name()
                    ),
                )
            }
        })
    }
}

impl Fold for Obligations {
    /// A move (or an illegal move that stands, A.5.2) begins a new move: nothing binds any
    /// more. A touch, or an illegal move whose piece is known (7.5.1 with 4.3), binds; so
    /// does the written move of an incorrect claim (9.5.3).
    fn apply(&mut self, ctx: &FoldContext<'_>, event: &Event) -> Result<(), CorruptLog> {
        match event {
            Event::Recorded(RecordedEvent::Move { .. })
            | Event::Recorded(RecordedEvent::ArbiterDecision {
                decision: ArbiterRuling::IllegalMoveStands,
                ..
            }) => self.clear(),
            Event::Recorded(RecordedEvent::IllegalMove { by, .. }) => match &ctx.prepared {
                Prepared::IllegalMove(IllegalMoveEffect::Touched(pieces)) => {
                    for square in pieces {
                        self.touch(*by, *square, &ctx.position);
                    }
                }
                Prepared::IllegalMove(IllegalMoveEffect::Stands(_)) => self.clear(),
                Prepared::IllegalMove(IllegalMoveEffect::Nothing) => {}
                _ => return Err(ctx.mismatch("the effect of the illegal move")),
            },
            Event::Recorded(RecordedEvent::Touch { by, .. }) => {
                let Prepared::Touch(square) = ctx.prepared else {
                    return Err(ctx.mismatch("the square touched"));
                };
                self.touch(*by, square, &ctx.position);
            }
            Event::Service(ServiceEvent::ClaimRuled(_)) => {
                let (Prepared::Written(written), Some((by, _))) = (&ctx.prepared, ctx.claim) else {
                    return Err(ctx.mismatch("the claimant and the written move"));
                };
                self.bind_written(by, written);
            }
            _ => {}
        }
        Ok(())
    }
}

/// The square a `touch` by `by` names, when it holds a piece and `by` has the move (4.3).
fn touched_square(position: &Chess, by: Side, square: &str) -> Result<Square, Refusal> {
    let parsed: Square = square.trim().parse().map_err(|_| {
        Refusal::new(
            RefusalCode::BadSquare,
            format!("`{square}` is not a square; write it like e2 or b8."),
        )
    })?;
    if position.board().piece_at(parsed).is_none() {
        return Err(Refusal::new(
            RefusalCode::EmptySquare,
            format!(
                "There is no piece on {parsed} in the current position ({}).",
                fen_of(position)
            ),
        ));
    }
    let turn = Side::from(position.turn());
    if by != turn {
        return Err(Refusal::new(
            RefusalCode::NotYourTurn,
            format!(
                "It is {}'s move; touching a piece binds only the player having the move (4.3).",
                turn.name()
            ),
        ));
    }
    Ok(parsed)
}

fn san(position: &Chess, m: &Move) -> String {
    crate::rules::move_parsing::san_of(position, *m)
}

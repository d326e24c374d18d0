//! Article 7.5 (illegal moves and the irregularities penalised as one) and, in rapid and
//! blitz, the illegal move that stands (Appendix A.5.2 in 2023, A.4.2 in 2018; blitz
//! through B.3 / B.4).
//!
//! * 7.5.1: the position before the illegal move is reinstated, and "Articles 4.3 and 4.7
//!   apply to the move replacing the illegal move": when the attempted move is recorded, the
//!   piece moved is a touched piece and the piece it would have captured another (4.3.3), so
//!   the player must move (or capture) them where possible; touching them also rejects a
//!   pending draw offer of the opponent (9.1.2.1).
//! * 7.5.2: a pawn moved to the last rank and the clock pressed without replacing it: the
//!   pawn becomes a queen and the move stands.
//! * 7.5.3: the clock pressed without a move; 7.5.4: a move made with two hands. Both are
//!   penalised as an illegal move; after 7.5.4 the position before it is reinstated and the
//!   piece moved must be moved again (4.3), as after 7.5.1.
//! * 7.5.5: the first completed one gives the opponent extra time (two minutes, or one in
//!   rapid and blitz under the 2023 Laws and in blitz under 2018, from the table in
//!   `crate::rules::laws`); the second loses, unless the opponent cannot checkmate by any
//!   series of legal moves.
//! * A.5.2: in rapid and blitz not fully supervised, an illegal move neither the opponent nor
//!   the arbiter acted on before the opponent's next move stands. The arbiter records that
//!   with an `arbiter_decision` (`illegal_move_stands`) giving the move or the position as it
//!   stands; the game goes on from there, without penalty.

use shakmaty::{Chess, Move, Position, Role, Square};

use crate::rules::laws::{ExtraTimeCause, Rule, extra_time, illegal_move_stands};
use crate::rules::mating_potential::{MatingPotential, mating_potential};
use crate::rules::move_parsing::{
    WrittenMove, fen_of, play_as_it_stood, position_as_it_stands, read_written_move,
};
use crate::rules::side::Side;

use super::decisions::{Decisions, minutes};
use super::endings;
use super::event::{Event, GameResult, IllegalMoveKind, RecordedEvent, ServiceEvent, Termination};
use super::parts::{CorruptLog, Fold, FoldContext, JudgeContext, Judged, Judgement};
use super::prepared::{IllegalMoveEffect, Prepared};
use super::reads::BoardView;
use super::refusal::{Refusal, RefusalCode};
use super::touch_move::captured_square;
use super::view::IllegalMoveCounts;

/// The completed illegal moves of each player (7.5.5 counts them).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct IllegalMoves {
    counts: IllegalMoveCounts,
}

impl IllegalMoves {
    /// The completed illegal moves per player.
    pub(super) fn counts(&self) -> IllegalMoveCounts {
        self.counts
    }

    /// The completed illegal moves of `side` so far.
    fn count_of(&self, side: Side) -> u32 {
        match side {
            Side::White => self.counts.white,
            Side::Black => self.counts.black,
        }
    }

    /// Judges an `illegal_move`: what it did (7.5.1-7.5.4), the penalty or the loss it
    /// causes (7.5.5), and, when it stands as a legal move (7.5.2), the end that move may
    /// cause by itself. Other events are not this part's to judge.
    pub(super) fn judge(&self, ctx: &JudgeContext<'_>, event: &RecordedEvent) -> Judgement {
        let RecordedEvent::IllegalMove {
            by,
            completed,
            attempted_move,
            kind,
            ..
        } = event
        else {
            return Ok(Judged::nothing());
        };
        let board = ctx.board();
        let kind = kind.unwrap_or(IllegalMoveKind::IllegalMove);
        let effect = effect_of(board, *by, *completed, attempted_move.as_deref(), kind)?;
        let offence = Offence {
            by: *by,
            completed: *completed,
            kind,
            effect: &effect,
        };
        let mut decisions = self.penalise(ctx, &offence);
        let lost = decisions
            .iter()
            .any(|d| matches!(d, ServiceEvent::GameEnded { .. }));
        if let (false, IllegalMoveEffect::Stands(m)) = (lost, &effect) {
            decisions.extend(endings::after_move(ctx, *by, *m, None).end);
        }
        Ok(Judged {
            decisions,
            prepared: Prepared::IllegalMove(effect),
        })
    }
}

impl Fold for IllegalMoves {
    /// A completed illegal move counts (7.5.5).
    fn apply(&mut self, _ctx: &FoldContext<'_>, event: &Event) -> Result<(), CorruptLog> {
        if let Event::Recorded(RecordedEvent::IllegalMove {
            by,
            completed: true,
            ..
        }) = event
        {
            match by {
                Side::White => self.counts.white += 1,
                Side::Black => self.counts.black += 1,
            }
        }
        Ok(())
    }
}

/// A completed illegal move (or an irregularity penalised as one) to penalise (7.5.5).
struct Offence<'a> {
    by: Side,
    completed: bool,
    kind: IllegalMoveKind,
    effect: &'a IllegalMoveEffect,
}

/// What the recorded `illegal_move` did, read in `board`'s position; the refusal when it
/// cannot have happened there.
pub(super) fn effect_of(
    board: BoardView<'_>,
    by: Side,
    completed: bool,
    attempted_move: Option<&str>,
    kind: IllegalMoveKind,
) -> Result<IllegalMoveEffect, Refusal> {
    let position = board.position();
    let own_turn = board.side_to_move() == by;
    let read = attempted_move.map(|text| read_written_move(position, text, board.castling_mode()));
    match kind {
        IllegalMoveKind::ClockWithoutMove => {
            if attempted_move.is_some() {
                return Err(Refusal::new(
                    RefusalCode::UnexpectedAttemptedMove,
                    "A clock pressed without a move (7.5.3) has no attempted move; leave attempted_move out, or record the move's irregularity as illegal_move or two_hands.",
                ));
            }
            Ok(IllegalMoveEffect::Nothing)
        }
        IllegalMoveKind::PromotionWithoutPiece => {
            promotion_without_piece(position, own_turn, completed, read)
        }
        IllegalMoveKind::IllegalMove | IllegalMoveKind::TwoHands => {
            let attempted = attempted_move.unwrap_or_default();
            illegal_move(position, by, own_turn, kind, attempted, read)
        }
    }
}

/// 7.5.2: a pawn moved to the last rank and the clock pressed without replacing it: the
/// pawn becomes a queen and the move stands.
fn promotion_without_piece(
    position: &Chess,
    own_turn: bool,
    completed: bool,
    read: Option<WrittenMove>,
) -> Result<IllegalMoveEffect, Refusal> {
    if !completed {
        return Err(Refusal::new(
            RefusalCode::PromotionNotCompleted,
            "7.5.2 applies once the clock was pressed without replacing the pawn; until then the player completes the promotion (4.6, 4.7). Record the move with the piece chosen, e.g. e8=N.",
        ));
    }
    let promotion = match &read {
        Some(WrittenMove::Illegal {
            pieces,
            to: Some(to),
            ..
        }) if own_turn && pieces.len() == 1 => queen_promotion(position, pieces[0], *to),
        Some(WrittenMove::Legal(m)) if own_turn && m.is_promotion() => m
            .from()
            .and_then(|from| queen_promotion(position, from, m.to())),
        _ => None,
    };
    promotion.map(IllegalMoveEffect::Stands).ok_or_else(|| {
        Refusal::new(
            RefusalCode::NotAPromotion,
            format!(
                "7.5.2 is a pawn of the player having the move reaching the last rank; give attempted_move as its from and to squares (e.g. e7e8). {}",
                if own_turn {
                    "If the move was illegal anyway, record kind illegal_move."
                } else {
                    "It is not this player's move."
                }
            ),
        )
    })
}

/// 7.5.1 and 7.5.4: an illegal move, or a move made with two hands, `attempted` as `read`:
/// the position before it is reinstated, and the pieces it touched are known when the text
/// names one piece of the player having the move.
fn illegal_move(
    position: &Chess,
    by: Side,
    own_turn: bool,
    kind: IllegalMoveKind,
    attempted: &str,
    read: Option<WrittenMove>,
) -> Result<IllegalMoveEffect, Refusal> {
    match read {
        None => Ok(IllegalMoveEffect::Nothing),
        Some(WrittenMove::Legal(m)) => {
            if kind == IllegalMoveKind::TwoHands {
                let mut touched: Vec<Square> = m.from().into_iter().collect();
                touched.extend(captured_square(&m));
                Ok(IllegalMoveEffect::Touched(touched))
            } else {
                Err(Refusal::new(
                    RefusalCode::LegalAttemptedMove,
                    format!(
                        "`{attempted}` is a legal move in this position; record it as a move. If it was made with two hands (7.5.4), record kind two_hands."
                    ),
                ))
            }
        }
        Some(WrittenMove::Illegal {
            pieces, captured, ..
        }) if own_turn => {
            // A text naming several pieces does not say which one was touched.
            let mut touched = if pieces.len() == 1 {
                pieces
            } else {
                Vec::new()
            };
            if !touched.is_empty() {
                touched.extend(captured);
            }
            Ok(IllegalMoveEffect::Touched(touched))
        }
        Some(WrittenMove::Illegal { .. }) => Ok(IllegalMoveEffect::Nothing),
        Some(WrittenMove::Unreadable) if own_turn => Err(Refusal::new(
            RefusalCode::UnreadableAttemptedMove,
            format!(
                "`{attempted}` does not name a piece of {} in this position ({}); write the attempted move as from and to squares (g8f6) or as SAN (Nf6), or leave it out.",
                by.name(),
                fen_of(position)
            ),
        )),
        // Out of turn, the position is the opponent's: the text cannot be checked here.
        Some(WrittenMove::Unreadable) => Ok(IllegalMoveEffect::Nothing),
    }
}

/// The legal promotion to a queen from `from` to `to`, if there is one.
fn queen_promotion(position: &Chess, from: Square, to: Square) -> Option<Move> {
    position
        .legal_moves()
        .into_iter()
        .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(Role::Queen))
}

/// The rule the irregularity falls under.
fn rule_of(kind: IllegalMoveKind) -> Rule {
    match kind {
        IllegalMoveKind::IllegalMove => Rule::IllegalMove,
        IllegalMoveKind::PromotionWithoutPiece => Rule::PromotionWithoutPiece,
        IllegalMoveKind::ClockWithoutMove => Rule::ClockWithoutMove,
        IllegalMoveKind::TwoHands => Rule::TwoHands,
    }
}

/// What happened, in words, with the article, for the reason of a ruling (item 10 of the
/// rules review: the reason says what was done, not always "reinstated").
fn what_happened(
    decisions: &Decisions<'_>,
    by: Side,
    kind: IllegalMoveKind,
    effect: &IllegalMoveEffect,
) -> String {
    let article = decisions.cite(&[rule_of(kind)]);
    let touch = decisions.cite(&[Rule::TouchMove]);
    match (kind, effect) {
        (IllegalMoveKind::PromotionWithoutPiece, _) => format!(
            "the pawn {} moved to the last rank without replacing it becomes a queen and the move stands ({article})",
            by.name()
        ),
        (IllegalMoveKind::ClockWithoutMove, _) => format!(
            "{} pressed the clock without making a move ({article}); the position stays as it is",
            by.name()
        ),
        (IllegalMoveKind::TwoHands, _) => format!(
            "{} made a move with two hands ({article}); the position before it is reinstated and the move replacing it must be made with the piece touched ({touch})",
            by.name()
        ),
        (IllegalMoveKind::IllegalMove, IllegalMoveEffect::Touched(pieces))
            if !pieces.is_empty() =>
        {
            format!(
                "the position before it is reinstated ({article}) and {} must make the move replacing it with the piece touched where possible ({touch})",
                by.name()
            )
        }
        (IllegalMoveKind::IllegalMove, _) => {
            format!("the position before it is reinstated ({article})")
        }
    }
}

impl IllegalMoves {
    /// The penalty or the loss `offence` causes under 7.5.5, if it was completed.
    fn penalise(&self, ctx: &JudgeContext<'_>, offence: &Offence<'_>) -> Vec<ServiceEvent> {
        let Offence {
            by,
            completed,
            kind,
            effect,
        } = *offence;
        if !completed {
            return Vec::new();
        }
        let (decisions, seq) = (&ctx.decisions, ctx.seq);
        let settings = decisions.settings;
        let count = self.count_of(by) + 1;
        let extra = extra_time(
            decisions.edition(),
            settings.time_control.kind,
            ExtraTimeCause::IllegalMove,
        );
        let article = decisions.cite(&extra.rules);
        let what = what_happened(decisions, by, kind, effect);
        if count == 1 {
            return vec![decisions.penalty(
                seq,
                by.opponent(),
                extra.ms,
                article,
                format!(
                    "First completed illegal move by {}: {what}; {} receives {} extra.",
                    by.name(),
                    by.opponent().name(),
                    minutes(extra.ms)
                ),
            )];
        }
        vec![second_illegal_move(ctx, offence, article, &what)]
    }
}

/// 7.5.5: the second completed illegal move loses, unless the opponent cannot checkmate by
/// any series of legal moves (in the position after it, when it stands).
fn second_illegal_move(
    ctx: &JudgeContext<'_>,
    offence: &Offence<'_>,
    article: String,
    what: &str,
) -> ServiceEvent {
    let (decisions, seq, by) = (&ctx.decisions, ctx.seq, offence.by);
    let stood;
    let position_for_mate = match offence.effect {
        IllegalMoveEffect::Stands(m) => {
            let mut after = ctx.board().position().clone();
            after.play_unchecked(*m);
            stood = after;
            &stood
        }
        _ => ctx.board().position(),
    };
    let (potential, _) = mating_potential(position_for_mate, by.opponent().into());
    let (result, reason) = match potential {
        MatingPotential::CannotMate => (
            GameResult::Draw,
            format!(
                "Second completed illegal move by {} ({what}); the game is drawn because {} cannot checkmate by any series of legal moves.",
                by.name(),
                by.opponent().name()
            ),
        ),
        MatingPotential::CanMate => (
            GameResult::win_for(by.opponent()),
            format!(
                "Second completed illegal move by {} ({what}): the game is lost.",
                by.name()
            ),
        ),
        MatingPotential::Inconclusive => (
            GameResult::win_for(by.opponent()),
            format!(
                "Second completed illegal move by {} ({what}): the game is lost (the helpmate search for {} was inconclusive; the arbiter should confirm that a mate is possible).",
                by.name(),
                by.opponent().name()
            ),
        ),
    };
    ServiceEvent::GameEnded {
        result,
        termination: Termination::IllegalMoves,
        article,
        reason,
        cause_seq: seq,
        ruled_by: decisions.ruled_by(),
        evidence: None,
    }
}

/// The position an illegal move that stood leads to (A.5.2), from the arbiter's decision:
/// its FEN, or else the move as played. The refusal says what to give instead.
pub(super) fn position_it_stood_in(
    decisions: &Decisions<'_>,
    board: BoardView<'_>,
    attempted_move: Option<&str>,
    fen: Option<&str>,
) -> Result<Chess, Refusal> {
    let rate = decisions.settings.time_control.kind;
    if illegal_move_stands(rate).is_none() {
        return Err(Refusal::new(
            RefusalCode::IllegalMoveCannotStand,
            format!(
                "In standard play an illegal move found during the game is always corrected: the position before it is reinstated ({}). Record an illegal_move instead.",
                decisions.cite(&[Rule::IllegalMove])
            ),
        ));
    }
    let castling_mode = board.castling_mode();
    let position = match (fen, attempted_move) {
        (Some(fen), _) => position_as_it_stands(fen, castling_mode)
            .map_err(|e| Refusal::new(RefusalCode::BadFen, format!("fen: {e}. Give the position as it stands on the board, with the player having the move.")))?,
        (None, Some(text)) => {
            let current = board.position();
            match read_written_move(current, text, castling_mode) {
                WrittenMove::Legal(_) => {
                    return Err(Refusal::new(
                        RefusalCode::LegalAttemptedMove,
                        format!("`{text}` is a legal move here: record it as a move."),
                    ));
                }
                WrittenMove::Illegal {
                    pieces,
                    to: Some(to),
                    ..
                } if pieces.len() == 1 => play_as_it_stood(current, pieces[0], to, castling_mode)
                    .ok_or_else(|| {
                        Refusal::new(
                            RefusalCode::PositionNeeded,
                            format!(
                                "`{text}` played on the board leaves a position the game cannot continue from as it is (the king of the player who moved would stand in check); give the position as it stands now, after the opponent's reply, as `fen`."
                            ),
                        )
                    })?,
                _ => {
                    return Err(Refusal::new(
                        RefusalCode::PositionNeeded,
                        format!(
                            "`{text}` does not say which piece went where; give attempted_move as from and to squares (e.g. e1e2), or the position as it stands as `fen`."
                        ),
                    ));
                }
            }
        }
        (None, None) => {
            return Err(Refusal::new(
                RefusalCode::PositionNeeded,
                "An illegal move that stands needs the move as played (attempted_move, e.g. e1e2) or the position as it stands on the board (fen).",
            ));
        }
    };
    if position.legal_moves().is_empty() {
        return Err(Refusal::new(
            RefusalCode::NoLegalMoveAfterIllegalMove,
            format!(
                "In the position as it stands ({}) the player having the move has no legal move; checkmate and stalemate count only after a legal move ({}), so the arbiter decides the result: record an arbiter_decision with decision game_ended.",
                fen_of(&position),
                decisions.cite(&[Rule::Checkmate, Rule::Stalemate])
            ),
        ));
    }
    Ok(position)
}

//! The game state: one part per part of the Laws, run in turn. This module sits above every
//! part and is the only one that knows them all: it folds an event into each part, sends a
//! recorded event to the part that judges it, and builds what the parts are given
//! (`super::parts`): the values of a [`FoldContext`], looked up before any part changes, and
//! the views of a [`JudgeContext`] (`super::reads`), so that no part reads another's state
//! but through them.

use shakmaty::{CastlingMode, Chess, Position};

use crate::rules::claims::ClaimKind;
use crate::rules::move_parsing::parse_move;
use crate::rules::side::Side;

use super::appeals::Appeals;
use super::arbiter;
use super::arbiter::reconstructed_position;
use super::claims::Claims;
use super::clocks::Clocks;
use super::decisions::Decisions;
use super::endings::Ending;
use super::event::{
    ArbiterRuling, ClockReading, Event, GameSettings, IllegalMoveKind, RecordedEvent, ServiceEvent,
};
use super::illegal_moves::{IllegalMoves, effect_of, position_it_stood_in};
use super::moves::Board;
use super::offers::Offers;
use super::parts::{CorruptLog, Fold, FoldContext, JudgeContext, Judged, Judgement, LoggedEvent};
use super::prepared::{Prepared, WrittenObligation};
use super::quickplay::Quickplay;
use super::refusal::Refusal;
use super::touch_move::Obligations;

/// Everything derived from the standing events, one part per part of the Laws.
#[derive(Clone, Debug)]
pub(super) struct State {
    pub(super) board: Board,
    pub(super) obligations: Obligations,
    pub(super) offers: Offers,
    pub(super) claims: Claims,
    pub(super) illegal_moves: IllegalMoves,
    pub(super) clocks: Clocks,
    pub(super) quickplay: Quickplay,
    pub(super) appeals: Appeals,
    pub(super) end: Ending,
}

/// What a judgement is made with besides the state: the game's settings, the player who had
/// the move in the start position, and the stored events.
#[derive(Clone, Copy)]
pub(super) struct GameInputs<'a> {
    pub(super) settings: &'a GameSettings,
    pub(super) start_turn: Side,
    pub(super) log: &'a [LoggedEvent],
}

impl State {
    /// The state before any event.
    pub(super) fn new(start: Chess, castling_mode: CastlingMode, settings: &GameSettings) -> State {
        let start_turn = Side::from(start.turn());
        let moves_before = super::settings::start_moves(settings, &start);
        State {
            board: Board::new(start, castling_mode),
            obligations: Obligations::default(),
            offers: Offers::default(),
            claims: Claims::default(),
            illegal_moves: IllegalMoves::default(),
            clocks: Clocks::new(
                &settings.time_control,
                settings.clock_behaviour,
                start_turn,
                moves_before,
                settings.start_clocks.as_ref(),
            ),
            quickplay: Quickplay::default(),
            appeals: Appeals::default(),
            end: Ending::default(),
        }
    }

    /// Folds `event` into every part, in turn. The context was built from this state before
    /// the event, so the order of the parts does not matter; the clocks come first only
    /// because a reading recorded with the event is the first thing known of it.
    pub(super) fn fold(&mut self, ctx: &FoldContext<'_>, event: &Event) -> Result<(), CorruptLog> {
        let parts: [&mut dyn Fold; 9] = [
            &mut self.clocks,
            &mut self.offers,
            &mut self.obligations,
            &mut self.claims,
            &mut self.illegal_moves,
            &mut self.quickplay,
            &mut self.appeals,
            &mut self.end,
            &mut self.board,
        ];
        for part in parts {
            part.apply(ctx, event)?;
        }
        // The moves completed are known once the board has folded the event.
        self.clocks.after_event(self.board.ply(), event, ctx.clock);
        Ok(())
    }

    /// The context of `event` at `seq` in this state, or why the log is corrupt: what the
    /// event refers to in other parts is looked up here, before any part changes.
    pub(super) fn fold_context<'a>(
        &self,
        settings: &'a GameSettings,
        seq: u64,
        event: &Event,
        clock: Option<&'a ClockReading>,
        prepared: Prepared,
    ) -> Result<FoldContext<'a>, CorruptLog> {
        if !prepared.fits(event) {
            return Err(CorruptLog {
                seq,
                problem: format!(
                    "what was prepared for it ({}) does not belong to a {} event",
                    prepared.name(),
                    event.type_name()
                ),
            });
        }
        let board = self.board.view();
        Ok(FoldContext {
            settings,
            seq,
            clock,
            position: board.position().clone(),
            ply: board.ply(),
            completed_moves: board.completed_moves(),
            prepared,
            claim: self.claim_referred_to(seq, event)?,
            open_claim: match event {
                Event::Recorded(RecordedEvent::ArbiterDecision {
                    subject_seq: Some(subject),
                    ..
                }) => self.quickplay.awaiting().open_claim(*subject).cloned(),
                _ => None,
            },
            void_extra_time: match event {
                Event::Recorded(RecordedEvent::DrawAccept { by }) => {
                    self.offers.extra_time_void_on_acceptance(*by)
                }
                _ => None,
            },
        })
    }

    /// The claimant and kind of the claim `event` at `seq` refers to (a `claim_ruled` must
    /// rule on a claim; a `penalty_applied` may follow one), or why the log is corrupt.
    fn claim_referred_to(
        &self,
        seq: u64,
        event: &Event,
    ) -> Result<Option<(Side, ClaimKind)>, CorruptLog> {
        Ok(match event {
            Event::Service(ServiceEvent::ClaimRuled(ruling)) => Some(
                self.claims
                    .kind_of(ruling.claim_seq)
                    .ok_or_else(|| CorruptLog {
                        seq,
                        problem: format!(
                            "it rules on event {}, which is no claim",
                            ruling.claim_seq
                        ),
                    })?,
            ),
            Event::Service(ServiceEvent::PenaltyApplied { cause_seq, .. }) => {
                self.claims.kind_of(*cause_seq)
            }
            _ => None,
        })
    }

    /// What the parts are given to judge a recorded event at `seq`, recorded with `clock`,
    /// in `game`: the views of the parts the others read.
    pub(super) fn judge_context<'a>(
        &'a self,
        game: GameInputs<'a>,
        seq: u64,
        clock: Option<&'a ClockReading>,
    ) -> JudgeContext<'a> {
        JudgeContext {
            decisions: Decisions {
                settings: game.settings,
            },
            seq,
            start_turn: game.start_turn,
            log: game.log,
            board: self.board.view(),
            clocks: self.clocks.view(clock),
            awaiting: self.quickplay.awaiting(),
            obligations: &self.obligations,
        }
    }

    /// Judges `event`: its decisions and what applying it needs. Each kind of event is judged
    /// by the part of the Laws that decides it; the others have no say, but the end of the
    /// game (5.1, 5.2, 6.9) and a flag fall awaiting the arbiter (III.5.2) refuse first.
    pub(super) fn judge(&self, ctx: &JudgeContext<'_>, event: &RecordedEvent) -> Judgement {
        self.end.guard(ctx, event)?;
        self.quickplay.guard(ctx, event)?;
        match event {
            RecordedEvent::Move { .. } => self.board.judge(ctx, event),
            RecordedEvent::IllegalMove { .. } => self.illegal_moves.judge(ctx, event),
            RecordedEvent::Touch { .. } => self.obligations.judge(ctx, event),
            RecordedEvent::DrawAccept { .. } | RecordedEvent::DrawDecline { .. } => {
                self.offers.judge(ctx, event)
            }
            RecordedEvent::Claim {
                kind: ClaimKind::Repetition | ClaimKind::FiftyMoves,
                ..
            } => self.claims.judge(ctx, event),
            RecordedEvent::Claim { .. } => self.quickplay.judge(ctx, event),
            RecordedEvent::Flag { .. }
            | RecordedEvent::BothFlags {}
            | RecordedEvent::Resign { .. } => self.end.judge(ctx, event),
            RecordedEvent::ArbiterDecision { .. } => arbiter::judge(ctx, event),
            RecordedEvent::FairPlay { .. } => super::fair_play::judge(ctx, event),
            RecordedEvent::AppealLodged { .. }
            | RecordedEvent::AppealDecided { .. }
            | RecordedEvent::Correction { .. } => self.appeals.judge(ctx, event),
            // Facts about the clocks, and an offer, cause no decision by themselves.
            RecordedEvent::ClockPress { .. }
            | RecordedEvent::ClockPause { .. }
            | RecordedEvent::ClockResume {}
            | RecordedEvent::ClockAdjust { .. }
            | RecordedEvent::DrawOffer { .. } => Ok(Judged::nothing()),
        }
    }

    /// What folding a stored `event` at `seq` in this state needs (the move parsed, the
    /// illegal move read, the position an illegal move stood in, the square touched, what
    /// the written move of an incorrect claim obliges to), or why the log is corrupt.
    /// Nothing changes.
    pub(super) fn prepare(
        &self,
        settings: &GameSettings,
        seq: u64,
        event: &Event,
    ) -> Result<Prepared, CorruptLog> {
        let corrupt = |problem: String| CorruptLog { seq, problem };
        let refused = |refusal: Refusal| corrupt(refusal.message().to_string());
        let board = self.board.view();
        Ok(match event {
            Event::Recorded(RecordedEvent::Move { by, san }) => {
                if board.side_to_move() != *by {
                    return Err(corrupt(format!("{} moved out of turn", by.name())));
                }
                Prepared::Move(
                    parse_move(board.position(), san, board.castling_mode())
                        .map_err(|e| corrupt(e.to_string()))?,
                    None,
                )
            }
            Event::Recorded(RecordedEvent::IllegalMove {
                by,
                completed,
                attempted_move,
                kind,
                ..
            }) => Prepared::IllegalMove(
                effect_of(
                    board,
                    *by,
                    *completed,
                    attempted_move.as_deref(),
                    kind.unwrap_or(IllegalMoveKind::IllegalMove),
                )
                .map_err(refused)?,
            ),
            Event::Recorded(RecordedEvent::ArbiterDecision {
                decision: ArbiterRuling::IllegalMoveStands,
                attempted_move,
                fen,
                ..
            }) => Prepared::Stood(Box::new(
                position_it_stood_in(
                    &Decisions { settings },
                    board,
                    attempted_move.as_deref(),
                    fen.as_deref(),
                )
                .map_err(refused)?,
            )),
            Event::Recorded(RecordedEvent::ArbiterDecision {
                decision: ArbiterRuling::PositionReconstructed,
                fen,
                ..
            }) => Prepared::Reconstructed(Box::new(
                reconstructed_position(&Decisions { settings }, board, fen.as_deref())
                    .map_err(refused)?,
            )),
            Event::Recorded(RecordedEvent::Touch { square, .. }) => {
                Prepared::Touch(square.trim().parse().map_err(|_| {
                    corrupt(format!("the square touched, `{square}`, is not a square"))
                })?)
            }
            Event::Service(ServiceEvent::ClaimRuled(ruling)) => Prepared::Written(
                WrittenObligation::read(ruling, board.position(), board.castling_mode())
                    .map_err(corrupt)?,
            ),
            _ => Prepared::Nothing,
        })
    }
}

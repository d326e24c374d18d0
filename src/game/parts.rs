//! The parts of the game state, and what each part is given to fold an event or to judge a
//! request.
//!
//! Each part of the Laws keeps its own state (the board, the touch-move obligations, the draw
//! offers, ...), folds the events it cares about itself ([`Fold::apply`]) and judges the
//! requests it decides (a `judge` method on the part). The aggregate only runs the parts in
//! turn. A part reads the rest of the game through one context, never through positional
//! arguments, so that what a rule depends on is named in one place: [`FoldContext`] for
//! folding, [`JudgeContext`] for judging.
//!
//! Folding a log the service wrote cannot fail. What could fail on a corrupt log (a decision
//! on a claim that was never made, a written move that does not parse, a prepared value that
//! does not belong to the event) is found while the [`FoldContext`] is built, before any part
//! changes, and returned as [`CorruptLog`]; the state is then unchanged. A part that still
//! meets such a mismatch returns the error too: nothing is dropped silently.

use shakmaty::{CastlingMode, Chess, Move, Position, Square};

use crate::rules::claims::ClaimKind;
use crate::rules::side::Side;

use super::aggregate::CorruptLog;
use super::appeals::Appeals;
use super::claims::Claims;
use super::clocks::Clocks;
use super::decisions::Decisions;
use super::endings::Ending;
use super::event::{ArbiterRuling, ClockReading, Event, GameSettings, RecordedEvent, ServiceEvent};
use super::illegal_moves::{IllegalMoveEffect, IllegalMoves};
use super::moves::Board;
use super::offers::Offers;
use super::quickplay::Quickplay;
use super::refusal::Refusal;
use super::touch_move::{Obligations, WrittenObligation};
use super::view::OpenClaim;

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

impl State {
    /// The state before any event.
    pub(super) fn new(start: Chess, castling_mode: CastlingMode, settings: &GameSettings) -> State {
        let start_turn = Side::from(start.turn());
        State {
            board: Board::new(start, castling_mode),
            obligations: Obligations::default(),
            offers: Offers::default(),
            claims: Claims::default(),
            illegal_moves: IllegalMoves::default(),
            clocks: Clocks::new(&settings.time_control, settings.clock_behaviour, start_turn),
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
}

/// A part of the game state that folds the events it cares about (and ignores the others).
pub(super) trait Fold {
    /// Folds `event`, stored at `ctx.seq`, into this part.
    fn apply(&mut self, ctx: &FoldContext<'_>, event: &Event) -> Result<(), CorruptLog>;
}

/// What judging a recorded event (or reading a stored one) worked out, so that folding it
/// parses nothing again.
#[derive(Clone, Debug)]
pub(super) enum Prepared {
    /// Nothing to prepare: the event carries all its part needs.
    Nothing,
    /// The move, and a player the dead-position check proved able to checkmate after it.
    Move(Move, Option<Side>),
    /// What an `illegal_move` did (7.5).
    IllegalMove(IllegalMoveEffect),
    /// The position an illegal move that stood led to (A.5.2).
    Stood(Box<Chess>),
    /// The square touched (4.3).
    Touch(Square),
    /// What the written move of an incorrect claim obliges the claimant to (9.5.3).
    Written(WrittenObligation),
}

impl Prepared {
    /// Whether this prepared value belongs to `event`.
    fn fits(&self, event: &Event) -> bool {
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
            (Event::Service(ServiceEvent::ClaimRuled(_)), prepared) => {
                matches!(prepared, Prepared::Written(_))
            }
            (_, prepared) => matches!(prepared, Prepared::Nothing),
        }
    }

    /// What was prepared, in a word (for a [`CorruptLog`]).
    fn name(&self) -> &'static str {
        match self {
            Prepared::Nothing => "nothing",
            Prepared::Move(..) => "a move",
            Prepared::IllegalMove(_) => "an illegal move",
            Prepared::Stood(_) => "a position",
            Prepared::Touch(_) => "a square",
            Prepared::Written(_) => "a written move",
        }
    }
}

/// What every part is given to fold one event: the settings, the event's `seq`, the board as
/// it stood before the event, what judging or reading it prepared, and what the event refers
/// to in other parts, looked up before any part changes.
pub(super) struct FoldContext<'a> {
    /// The game's settings.
    pub(super) settings: &'a GameSettings,
    /// The `seq` of the event.
    pub(super) seq: u64,
    /// The clock reading recorded with the event.
    pub(super) clock: Option<&'a ClockReading>,
    /// The position before the event.
    pub(super) position: Chess,
    /// Half-moves played before the event.
    pub(super) ply: usize,
    /// The moves both players had completed before the event (9.1.1).
    pub(super) completed_moves: u32,
    /// What judging or reading the event prepared.
    pub(super) prepared: Prepared,
    /// The claimant and kind of the claim the event refers to (`claim_ruled`,
    /// `penalty_applied`), if it refers to one.
    pub(super) claim: Option<(Side, ClaimKind)>,
    /// The claim or request awaiting the arbiter that an `arbiter_decision` answers.
    pub(super) open_claim: Option<OpenClaim>,
    /// The extra time that becomes void when a `draw_accept` accepts an incorrect claim
    /// (9.1.2.3, REP-17): who received it and how much.
    pub(super) void_extra_time: Option<(Side, u64)>,
}

impl<'a> FoldContext<'a> {
    /// The context of `event` at `seq` in `state`, or why the log is corrupt.
    pub(super) fn new(
        settings: &'a GameSettings,
        state: &State,
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
        let claim = match event {
            Event::Service(ServiceEvent::ClaimRuled(ruling)) => Some(
                state
                    .claims
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
                state.claims.kind_of(*cause_seq)
            }
            _ => None,
        };
        let open_claim = match event {
            Event::Recorded(RecordedEvent::ArbiterDecision {
                subject_seq: Some(subject),
                ..
            }) => state.quickplay.open_claim(*subject).cloned(),
            _ => None,
        };
        let void_extra_time = match event {
            Event::Recorded(RecordedEvent::DrawAccept { by }) => {
                state.offers.extra_time_void_on_acceptance(*by)
            }
            _ => None,
        };
        let board = &state.board;
        Ok(FoldContext {
            settings,
            seq,
            clock,
            position: board.position().clone(),
            ply: board.ply(),
            completed_moves: board.completed_moves(),
            prepared,
            claim,
            open_claim,
            void_extra_time,
        })
    }

    /// The player who had the move before the event.
    pub(super) fn side_to_move(&self) -> Side {
        Side::from(self.position.turn())
    }

    /// The error for a prepared value that does not belong to the event (found earlier by
    /// [`FoldContext::new`], so only a bug in a part can reach it).
    pub(super) fn mismatch(&self, what: &str) -> CorruptLog {
        CorruptLog {
            seq: self.seq,
            problem: format!("{what} was not prepared for it"),
        }
    }
}

/// A stored event with its clock reading, and whether a correction retracted it.
#[derive(Clone, Debug)]
pub(super) struct LoggedEvent {
    pub(super) seq: u64,
    pub(super) event: Event,
    pub(super) clock: Option<ClockReading>,
    pub(super) retracted: bool,
}

/// The index in `log` of the latest standing recorded event (corrections excluded).
pub(super) fn latest_standing_index(log: &[LoggedEvent]) -> Option<usize> {
    log.iter().rposition(|l| {
        !l.retracted
            && matches!(&l.event, Event::Recorded(e) if !matches!(e, RecordedEvent::Correction { .. }))
    })
}

/// What judging a recorded event worked out: the decisions it causes (stored after it), and
/// what folding it needs.
#[derive(Debug)]
pub(super) struct Judged {
    pub(super) decisions: Vec<ServiceEvent>,
    pub(super) prepared: Prepared,
}

impl Judged {
    /// No decision, nothing prepared.
    pub(super) fn nothing() -> Judged {
        Judged::decisions(Vec::new())
    }

    /// These decisions, nothing prepared.
    pub(super) fn decisions(decisions: Vec<ServiceEvent>) -> Judged {
        Judged {
            decisions,
            prepared: Prepared::Nothing,
        }
    }
}

/// What every part is given to judge a recorded event: the settings (through the writer of
/// decisions), the event's `seq` and clock reading, the whole state before it (a part judges
/// with what the others know: a claim needs the board and the touched pieces), and the log.
pub(super) struct JudgeContext<'a> {
    /// Writes the decisions, in the game's edition of the Laws.
    pub(super) decisions: Decisions<'a>,
    /// The `seq` the event will be stored at.
    pub(super) seq: u64,
    /// The clock reading recorded with the event.
    pub(super) clock: Option<&'a ClockReading>,
    /// The state before the event.
    pub(super) state: &'a State,
    /// The player who had the move in the start position (5.2.3 counts moves from there).
    pub(super) start_turn: Side,
    /// The stored events.
    pub(super) log: &'a [LoggedEvent],
}

impl JudgeContext<'_> {
    /// The board before the event.
    pub(super) fn board(&self) -> &Board {
        &self.state.board
    }

    /// The game's settings.
    pub(super) fn settings(&self) -> &GameSettings {
        self.decisions.settings
    }

    /// Whether an event is stored at `seq`.
    pub(super) fn is_stored(&self, seq: u64) -> bool {
        self.log.iter().any(|l| l.seq == seq)
    }

    /// The `seq` of the latest standing recorded event (corrections excluded).
    pub(super) fn latest_standing(&self) -> Option<u64> {
        latest_standing_index(self.log).map(|i| self.log[i].seq)
    }

    /// The article numbers of `rules` in the game's edition.
    pub(super) fn cite(&self, rules: &[crate::rules::laws::Rule]) -> String {
        self.decisions.cite(rules)
    }
}

/// What a part's `judge` returns: what judging worked out, or why the event must not be
/// stored.
pub(super) type Judgement = Result<Judged, Refusal>;

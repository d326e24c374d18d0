//! What every part of the game state shares, and what it is given to fold an event or to
//! judge a request: the bottom of `src/game`, below every part.
//!
//! Each part of the Laws keeps its own state (the board, the touch-move obligations, the draw
//! offers, ...), folds the events it cares about itself ([`Fold::apply`]) and judges the
//! requests it decides (a `judge` method on the part). The aggregate (`super::state`) only
//! runs the parts in turn. A part reads the rest of the game through one context, never
//! through positional arguments, so that what a rule depends on is named in one place:
//! [`FoldContext`] for folding, [`JudgeContext`] for judging.
//!
//! Neither context holds the whole state. [`FoldContext`] carries plain values looked up
//! before any part changes (the position, the claim an event refers to, ...);
//! [`JudgeContext`] carries narrow read-only views of the parts others read
//! (`super::reads`). So a part imports this module and the views, never the state or
//! another part's state, and the import graph of `src/game` has no circle: the vocabulary
//! (`event`, `refusal`, `view`, `decisions`, `prepared`, `reads`) at the bottom, this
//! module on it, the parts above, the state and the aggregate on top.
//!
//! Folding a log the service wrote cannot fail. What could fail on a corrupt log (a decision
//! on a claim that was never made, a written move that does not parse, a prepared value that
//! does not belong to the event) is found while the [`FoldContext`] is built, before any part
//! changes, and returned as [`CorruptLog`]; the state is then unchanged. A part that still
//! meets such a mismatch returns the error too: nothing is dropped silently.

use shakmaty::{Chess, Position};

use crate::rules::claims::ClaimKind;
use crate::rules::laws::Rule;
use crate::rules::side::Side;

use super::decisions::Decisions;
use super::event::{ClockReading, Event, GameSettings, RecordedEvent, ServiceEvent};
use super::prepared::Prepared;
use super::reads::{AwaitingArbiter, BoardView, ClocksView, MoveObligations};
use super::refusal::Refusal;
use super::view::OpenClaim;

/// A stored event that cannot be folded: the log is corrupt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("event {seq} cannot be applied: {problem}")]
pub struct CorruptLog {
    /// The `seq` of the event.
    pub seq: u64,
    /// What is wrong.
    pub problem: String,
}

/// A part of the game state that folds the events it cares about (and ignores the others).
pub(super) trait Fold {
    /// Folds `event`, stored at `ctx.seq`, into this part.
    fn apply(&mut self, ctx: &FoldContext<'_>, event: &Event) -> Result<(), CorruptLog>;
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

impl FoldContext<'_> {
    /// The player who had the move before the event.
    pub(super) fn side_to_move(&self) -> Side {
        Side::from(self.position.turn())
    }

    /// The error for a prepared value that does not belong to the event (found earlier, when
    /// the aggregate built the context, so only a bug in a part can reach it).
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
    /// Whether a standing `game_resumed` (an upheld appeal) annulled it: it no longer counts.
    pub(super) annulled: bool,
}

impl LoggedEvent {
    /// Whether it still counts: neither retracted by a correction nor annulled on appeal.
    pub(super) fn counts(&self) -> bool {
        !self.retracted && !self.annulled
    }
}

/// The index in `log` of the latest standing recorded event (corrections excluded).
pub(super) fn latest_standing_index(log: &[LoggedEvent]) -> Option<usize> {
    log.iter().rposition(|l| {
        l.counts()
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
/// decisions), the event's `seq` and clock reading, the log, and what the parts read of each
/// other before the event, as narrow views (`super::reads`): a part judges with what the
/// others know (a claim needs the board and the touched pieces), never with the whole state.
pub(super) struct JudgeContext<'a> {
    /// Writes the decisions, in the game's edition of the Laws.
    pub(super) decisions: Decisions<'a>,
    /// The `seq` the event will be stored at.
    pub(super) seq: u64,
    /// The player who had the move in the start position (5.2.3 counts moves from there).
    pub(super) start_turn: Side,
    /// The stored events.
    pub(super) log: &'a [LoggedEvent],
    /// The board before the event.
    pub(super) board: BoardView<'a>,
    /// The clocks before the event, with the reading recorded with it.
    pub(super) clocks: ClocksView<'a>,
    /// The claims and requests awaiting the arbiter (Guidelines III).
    pub(super) awaiting: AwaitingArbiter<'a>,
    /// The moves the player having the move is bound to (4.3, 9.5.3).
    pub(super) obligations: &'a dyn MoveObligations,
}

impl<'a> JudgeContext<'a> {
    /// The board before the event.
    pub(super) fn board(&self) -> BoardView<'a> {
        self.board
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
    pub(super) fn cite(&self, rules: &[Rule]) -> String {
        self.decisions.cite(rules)
    }
}

/// What a part's `judge` returns: what judging worked out, or why the event must not be
/// stored.
pub(super) type Judgement = Result<Judged, Refusal>;

//! Guidelines III (games without increment, including quickplay finishes): the engine checks
//! the preconditions; the arbiter decides (docs/DESIGN.md, Principle 6).
//!
//! * III.2.1: only where the event announced them; III.2.2: only standard and rapid games
//!   without increment, never blitz.
//! * III.4: the player having the move, with less than two minutes on the clock, may ask for
//!   an increment of five seconds for both players. The request is a draw offer; if it is
//!   refused and the arbiter agrees, the increment applies from then on and the opponent
//!   receives two extra minutes (`arbiter_decision` `increment_granted`).
//! * III.5: the player having the move, with less than two minutes on the clock, may claim
//!   that the opponent cannot win, or makes no effort to win, by normal means. III.5.1: the
//!   arbiter declares the draw, postpones, or rejects; III.5.2: a postponed claim is decided
//!   later, or after a flag falls (so a flag fall then does not end the game by 6.9: the
//!   arbiter declares the result); III.5.3: a rejected claim gives the opponent two extra
//!   minutes.
//!
//! "Less than two minutes" is checked against the last reading of the claimant's clock; when
//! no reading was recorded the engine cannot check it, admits the claim and says so in the
//! evidence for the arbiter to verify.

use crate::rules::claims::{ClaimKind, ClaimOutcome};
use crate::rules::evidence::ClaimEvidence;
use crate::rules::laws::{Rule, TimeControlKind};
use crate::rules::move_parsing::fen_of;
use crate::rules::side::Side;

use super::event::{ArbiterRuling, ClaimRuling, Event, RecordedEvent, ServiceEvent};
use super::parts::{CorruptLog, Fold, FoldContext, JudgeContext, Judged, Judgement};
use super::reads::AwaitingArbiter;
use super::refusal::{Refusal, RefusalCode};
use super::view::OpenClaim;

/// "Less than two minutes" (III.4, III.5).
const TWO_MINUTES_MS: u64 = 120_000;

/// The extra time of III.4, III.5.2 and III.5.3: "two extra minutes".
pub(super) const TWO_EXTRA_MINUTES_MS: u64 = 120_000;

/// The increment of III.4 when the arbiter does not say otherwise: five seconds.
pub(super) const GRANTED_INCREMENT_MS: u64 = 5_000;

/// Claims and requests awaiting the arbiter, and a flag that fell meanwhile.
#[derive(Clone, Debug, Default)]
pub(super) struct Quickplay {
    open: Vec<OpenClaim>,
    flag_fell: Option<Side>,
}

impl Quickplay {
    /// The claims and requests awaiting the arbiter, and a flag that fell meanwhile, as the
    /// other parts read them.
    pub(super) fn awaiting(&self) -> AwaitingArbiter<'_> {
        AwaitingArbiter::new(&self.open, self.flag_fell)
    }

    /// A claim or request admitted: it awaits the arbiter.
    fn admitted(&mut self, seq: u64, by: Side, kind: ClaimKind) {
        self.open.push(OpenClaim {
            seq,
            by,
            kind,
            postponed: false,
        });
    }

    /// The arbiter postponed the decision on `seq` (III.5.2).
    fn postponed(&mut self, seq: u64) {
        if let Some(claim) = self.open.iter_mut().find(|c| c.seq == seq) {
            claim.postponed = true;
        }
    }

    /// The arbiter decided on `seq`.
    fn decided(&mut self, seq: u64) {
        self.open.retain(|c| c.seq != seq);
    }

    /// The game ended: nothing awaits the arbiter any more.
    fn game_concluded(&mut self) {
        self.open.clear();
        self.flag_fell = None;
    }

    /// A flag fell while a quickplay-finish claim awaited the arbiter.
    fn flag_fell(&mut self, side: Side) {
        self.flag_fell = Some(side);
    }

    /// Refuses the events at the board while a flag fall awaits the arbiter's decision: the
    /// arbiter declares the result (III.5.2).
    pub(super) fn guard(
        &self,
        ctx: &JudgeContext<'_>,
        event: &RecordedEvent,
    ) -> Result<(), Refusal> {
        match self.flag_fell {
            Some(side) if is_board_event(event) => Err(Refusal::new(
                RefusalCode::AwaitingArbiter,
                format!(
                    "{}'s flag fell while a quickplay-finish claim awaited the arbiter: the arbiter declares the result ({}). Record the arbiter_decision (game_ended with the result) first.",
                    side.name(),
                    ctx.cite(&[Rule::QuickplayClaimPostponed])
                ),
            )),
            _ => Ok(()),
        }
    }

    /// Judges a III.4 request for an increment and a III.5 quickplay-finish claim: the
    /// engine checks only that they are admissible; the arbiter decides. Other events are not
    /// this part's to judge.
    pub(super) fn judge(&self, ctx: &JudgeContext<'_>, event: &RecordedEvent) -> Judgement {
        match event {
            RecordedEvent::Claim {
                by,
                kind: kind @ (ClaimKind::QuickplayFinish | ClaimKind::IncrementRequest),
                ..
            } => Ok(Judged::decisions(rule_on(ctx, *by, *kind))),
            _ => Ok(Judged::nothing()),
        }
    }
}

impl Fold for Quickplay {
    /// A claim or request is admitted; the arbiter postpones or decides it (III.5.1); a flag
    /// falls while a claim awaits the arbiter (III.5.2); the game ends.
    fn apply(&mut self, ctx: &FoldContext<'_>, event: &Event) -> Result<(), CorruptLog> {
        match event {
            Event::Recorded(RecordedEvent::Claim {
                by,
                kind: kind @ (ClaimKind::QuickplayFinish | ClaimKind::IncrementRequest),
                ..
            }) => self.admitted(ctx.seq, *by, *kind),
            Event::Recorded(RecordedEvent::Flag { side })
                if self.awaiting().claim_awaits_arbiter() =>
            {
                self.flag_fell(*side)
            }
            Event::Recorded(RecordedEvent::ArbiterDecision {
                subject_seq: Some(subject),
                decision,
                ..
            }) => match decision {
                ArbiterRuling::ClaimPostponed => self.postponed(*subject),
                ArbiterRuling::GameEnded
                | ArbiterRuling::ClaimRejected
                | ArbiterRuling::IncrementGranted => self.decided(*subject),
                _ => {}
            },
            Event::Service(ServiceEvent::ClaimRuled(ruling)) => self.decided(ruling.claim_seq),
            Event::Service(ServiceEvent::GameEnded { .. }) => self.game_concluded(),
            _ => {}
        }
        Ok(())
    }
}

/// Events at the board, refused while a flag fall awaits the arbiter's decision (III.5.2).
fn is_board_event(event: &RecordedEvent) -> bool {
    matches!(
        event,
        RecordedEvent::Move { .. }
            | RecordedEvent::IllegalMove { .. }
            | RecordedEvent::Touch { .. }
            | RecordedEvent::DrawOffer { .. }
            | RecordedEvent::DrawAccept { .. }
            | RecordedEvent::DrawDecline { .. }
            | RecordedEvent::Claim { .. }
            | RecordedEvent::Flag { .. }
            | RecordedEvent::Resign { .. }
    )
}

/// Why a III.4 request or a III.5 claim by `by` is not admissible, if it is not; the clocks
/// of `ctx` show the reading recorded with the claim.
fn inadmissible(ctx: &JudgeContext<'_>, by: Side, kind: ClaimKind) -> Option<(String, String)> {
    let clocks = ctx.clocks;
    let (settings, board) = (ctx.settings(), ctx.board());
    let own_rule = if kind == ClaimKind::IncrementRequest {
        Rule::QuickplayIncrement
    } else {
        Rule::QuickplayClaim
    };
    if !settings.regulations.quickplay_finish {
        return Some((
            ctx.cite(&[Rule::QuickplayAnnounced]),
            "Guidelines III were not announced for this event, so they do not apply.".into(),
        ));
    }
    if settings.time_control.kind == TimeControlKind::Blitz {
        return Some((
            ctx.cite(&[Rule::QuickplayScope]),
            "Guidelines III do not apply to blitz games.".into(),
        ));
    }
    if clocks.increment_ms() > 0 {
        return Some((
            ctx.cite(&[Rule::QuickplayScope]),
            "Guidelines III apply only to games without increment.".into(),
        ));
    }
    // III.1: the quickplay finish is the last period, "when all the remaining moves must be
    // completed in a limited time"; a game with periods reaches it only there.
    if clocks.has_periods() {
        let periods = clocks.periods();
        let scope = periods.quickplay_scope(by);
        if !scope.applies {
            let status = periods.status(by);
            return Some((
                scope.article(settings.laws_edition),
                format!(
                    "{} is in period {} of {}, and Guidelines III apply only in the last \
                     period, the quickplay finish (without increment).",
                    by.name(),
                    status.period + 1,
                    periods.control().periods.len()
                ),
            ));
        }
    }
    if board.side_to_move() != by {
        return Some((
            ctx.cite(&[own_rule]),
            "Only the player having the move may claim or ask under Guidelines III, before the flag falls.".into(),
        ));
    }
    if let Some(ms) = clocks.read_time(by)
        && ms >= TWO_MINUTES_MS
    {
        return Some((
            ctx.cite(&[own_rule]),
            format!(
                "{} has {} s on the clock; Guidelines III need less than two minutes.",
                by.name(),
                ms / 1000
            ),
        ));
    }
    None
}

/// The engine's answer to a III.4 request or III.5 claim: nothing when it is admissible (it
/// awaits the arbiter), else a rejection saying why, without extra time (it was not
/// examined on its merits).
fn rule_on(ctx: &JudgeContext<'_>, by: Side, kind: ClaimKind) -> Vec<ServiceEvent> {
    let (decisions, board, seq) = (&ctx.decisions, ctx.board(), ctx.seq);
    let clocks = ctx.clocks;
    let Some((article, sentence)) = inadmissible(ctx, by, kind) else {
        return Vec::new();
    };
    let settings = decisions.settings;
    let what = if kind == ClaimKind::IncrementRequest {
        "The request for an increment"
    } else {
        "The quickplay-finish claim"
    };
    vec![ServiceEvent::ClaimRuled(Box::new(ClaimRuling {
        claim_seq: seq,
        outcome: ClaimOutcome::Rejected,
        article,
        reason: format!("{what} is not admissible: {sentence}"),
        evidence: ClaimEvidence {
            quickplay_finish_in_force: Some(settings.regulations.quickplay_finish),
            time_control: Some(settings.time_control.kind),
            increment_ms: Some(clocks.increment_ms()),
            claimant_clock_ms: Some(clocks.read_time(by)),
            ..ClaimEvidence::new(kind, by, board.side_to_move(), fen_of(board.position()))
        },
        penalty: None,
        must_play: None,
        must_move_one_of: None,
        ruled_by: decisions.ruled_by(),
    }))]
}

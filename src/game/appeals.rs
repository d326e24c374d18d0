//! Appeals and corrections: how a decision is reviewed and a data-entry error undone without
//! rewriting the log (docs/DESIGN.md, Principles 1 and 3).
//!
//! * An appeal is lodged against a stored event and decided by the appeals committee; an
//!   upheld appeal with a result ends the game anew (termination `appeal`). The history keeps
//!   both the original decision and the appeal. The committee's decision is final (FIDE
//!   Tournament Rules, VII.4): a second decision on the same appeal is refused; a decision
//!   recorded wrongly is retracted with a correction, as any data-entry error.
//! * A correction retracts the latest standing recorded event and the decisions it caused:
//!   nothing is deleted, the retraction is itself recorded, and the state is folded again
//!   from the events still standing. [`retracted_by`] says which stored events a correction
//!   retracted, for readers of the log that do not fold it (the rulings list).

use crate::rules::laws::Rule;

use super::event::{Event, RecordedEvent, ServiceEvent, Termination};
use super::parts::{CorruptLog, Fold, FoldContext, JudgeContext, Judged, Judgement};
use super::refusal::{Refusal, RefusalCode};

/// The appeals lodged, by the `seq` of the event appealed against, and those decided.
#[derive(Clone, Debug, Default)]
pub(super) struct Appeals {
    lodged: Vec<u64>,
    /// `(against_seq, seq of the standing appeal_decided)`: a decision is final.
    decided: Vec<(u64, u64)>,
}

impl Appeals {
    /// Judges an `appeal_lodged`, an `appeal_decided` and a `correction`. Other events are not
    /// this part's to judge.
    pub(super) fn judge(&self, ctx: &JudgeContext<'_>, event: &RecordedEvent) -> Judgement {
        match event {
            RecordedEvent::AppealLodged { against_seq, .. } => {
                check_lodged(ctx, *against_seq)?;
                Ok(Judged::nothing())
            }
            RecordedEvent::AppealDecided { .. } => Ok(Judged::decisions(self.decide(ctx, event)?)),
            RecordedEvent::Correction { retracts_seq, .. } => {
                check_correction(*retracts_seq, ctx.latest_standing())?;
                Ok(Judged::nothing())
            }
            _ => Ok(Judged::nothing()),
        }
    }
}

impl Fold for Appeals {
    /// An appeal is lodged, or decided.
    fn apply(&mut self, ctx: &FoldContext<'_>, event: &Event) -> Result<(), CorruptLog> {
        match event {
            Event::Recorded(RecordedEvent::AppealLodged { against_seq, .. }) => {
                self.lodged.push(*against_seq);
            }
            Event::Recorded(RecordedEvent::AppealDecided { against_seq, .. }) => {
                self.decided.push((*against_seq, ctx.seq));
            }
            _ => {}
        }
        Ok(())
    }
}

/// An appeal against `against_seq` needs that event to be stored before it.
fn check_lodged(ctx: &JudgeContext<'_>, against_seq: u64) -> Result<(), Refusal> {
    if against_seq >= ctx.seq || !ctx.is_stored(against_seq) {
        return Err(Refusal::new(
            RefusalCode::UnknownSeq,
            format!(
                "There is no event {against_seq} in this game to appeal against; give the seq of the decision appealed against."
            ),
        ));
    }
    Ok(())
}

impl Appeals {
    /// The committee's decision `event` (an `appeal_decided`).
    fn decide(
        &self,
        ctx: &JudgeContext<'_>,
        event: &RecordedEvent,
    ) -> Result<Vec<ServiceEvent>, Refusal> {
        let RecordedEvent::AppealDecided {
            against_seq,
            upheld,
            result,
            reason,
        } = event
        else {
            return Ok(Vec::new());
        };
        let (decisions, seq, against_seq) = (&ctx.decisions, ctx.seq, *against_seq);
        if !self.lodged.contains(&against_seq) {
            return Err(Refusal::new(
                RefusalCode::NoAppealLodged,
                format!(
                    "No appeal against event {against_seq} has been lodged; record the appeal_lodged first."
                ),
            ));
        }
        if let Some(&(_, decided_seq)) = self.decided.iter().find(|(a, _)| *a == against_seq) {
            return Err(Refusal::new(
                RefusalCode::AppealAlreadyDecided,
                format!(
                    "The appeal against event {against_seq} was decided at event {decided_seq}, \
                     and a decision of the appeals committee is final (FIDE Tournament Rules, \
                     VII.4): it is not decided a second time. If event {decided_seq} was \
                     recorded wrongly (a data-entry error, not a change of mind), retract it \
                     with a correction (retracts_seq {decided_seq}) while it is the latest \
                     standing event, then record the decision as the committee made it."
                ),
            ));
        }
        Ok(match (*upheld, *result) {
            (true, Some(result)) => vec![ServiceEvent::GameEnded {
                result,
                termination: Termination::Appeal,
                article: decisions.cite(&[Rule::Appeal]),
                reason: format!(
                    "The appeal against event {against_seq} was upheld and the result is {}: {reason}",
                    result.pgn()
                ),
                cause_seq: seq,
                ruled_by: decisions.ruled_by(),
                evidence: None,
            }],
            _ => Vec::new(),
        })
    }
}

/// The refusal of a correction of `retracts_seq` when `latest` is the latest standing
/// recorded event.
fn check_correction(retracts_seq: u64, latest: Option<u64>) -> Result<(), Refusal> {
    if latest == Some(retracts_seq) {
        return Ok(());
    }
    let what = match latest {
        Some(s) => format!("the latest standing event is {s}"),
        None => "no recorded event is standing".to_string(),
    };
    Err(Refusal::new(
        RefusalCode::NotLatestStanding,
        format!(
            "Only the latest standing recorded event can be retracted, and {what}, not {retracts_seq}; retract the later events first, one by one."
        ),
    ))
}

/// Which stored event a correction retracted: given the game's corrections as
/// `(correction seq, retracted seq)`, the `seq` of the correction that retracted the stored
/// event at `seq` of the kind given (`is_decision`: appended by the service), if any.
///
/// A correction at `c` retracting the recorded event `n` retracts `n` and every decision
/// stored between them (the decisions `n` caused; any other event between them was already
/// retracted, since `n` was the latest standing one).
pub fn retracted_by(corrections: &[(u64, u64)], seq: u64, is_decision: bool) -> Option<u64> {
    corrections
        .iter()
        .find(|(correction, retracted)| {
            seq == *retracted || (is_decision && *retracted < seq && seq < *correction)
        })
        .map(|(correction, _)| *correction)
}

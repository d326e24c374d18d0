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

use crate::rules::appeals::{AppealRegulations, CommitteeRole, Sitting, check_committee};
use crate::rules::laws::Rule;

use super::event::{Event, GameResult, RecordedEvent, Resume, ServiceEvent, Termination};
use super::parts::{CorruptLog, Fold, FoldContext, JudgeContext, Judged, Judgement, LoggedEvent};
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
    /// The committee's decision `event` (an `appeal_decided`): on an appeal lodged and not
    /// decided yet, by a committee the regulations allow, either a new result, play resumed
    /// on the board, or (under a procedure of the regulations) the appeal upheld or
    /// dismissed.
    fn decide(
        &self,
        ctx: &JudgeContext<'_>,
        event: &RecordedEvent,
    ) -> Result<Vec<ServiceEvent>, Refusal> {
        let RecordedEvent::AppealDecided {
            against_seq,
            upheld,
            result,
            resume,
            committee,
            reason,
        } = event
        else {
            return Ok(Vec::new());
        };
        let against_seq = *against_seq;
        self.check_open(against_seq)?;
        let regulations = &ctx.decisions.settings.regulations.appeals;
        check_eligible(regulations, committee)?;
        // What the decision adds to its reasons: the regulation applied, the deposit and
        // who sat.
        let procedure = procedure_text(regulations, *upheld, committee);
        let reason = &format!("{reason}{procedure}");
        if let Some(resume) = resume {
            check_resumable(against_seq, *upheld, result.is_some())?;
            return Ok(vec![resumed(ctx, against_seq, *resume, reason)?]);
        }
        Ok(decided(
            ctx,
            regulations,
            against_seq,
            *upheld,
            *result,
            reason,
        ))
    }

    /// An appeal against `against_seq` was lodged and is not decided yet: a decision of the
    /// appeals committee is final (FIDE Tournament Rules, VII.4).
    fn check_open(&self, against_seq: u64) -> Result<(), Refusal> {
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
        Ok(())
    }
}

/// The committee that sat may decide under the event's appeals regulations.
fn check_eligible(regulations: &AppealRegulations, committee: &[Sitting]) -> Result<(), Refusal> {
    check_committee(regulations, committee).map_err(|problems| {
        Refusal::new(
            RefusalCode::CommitteeIneligible,
            format!(
                "This committee may not decide the appeal: {} Nothing was stored.",
                problems.join(" ")
            ),
        )
    })
}

/// Play resumes only on an upheld appeal that sets no result.
fn check_resumable(against_seq: u64, upheld: bool, sets_result: bool) -> Result<(), Refusal> {
    if !upheld {
        return Err(Refusal::new(
            RefusalCode::AppealCannotResume,
            format!(
                "A dismissed appeal leaves the ruling of event {against_seq} standing, so play \
                 cannot resume on it: leave out `resume`, or record the appeal as upheld."
            ),
        ));
    }
    if sets_result {
        return Err(Refusal::new(
            RefusalCode::AppealCannotResume,
            "An upheld appeal either sets a result (`result`) or sends the players back to the \
             board with the clock times the committee sets (`resume`), not both: leave out one \
             of them.",
        ));
    }
    Ok(())
}

/// The decision on an appeal that does not resume play: an upheld appeal with a result ends
/// the game anew (termination `appeal`); under the regulations' procedure, an appeal upheld
/// without a result or dismissed is recorded as such, citing the right of appeal and the
/// regulation. Otherwise a dismissed appeal leaves nothing to decide.
fn decided(
    ctx: &JudgeContext<'_>,
    regulations: &AppealRegulations,
    against_seq: u64,
    upheld: bool,
    result: Option<GameResult>,
    reason: &str,
) -> Vec<ServiceEvent> {
    let (decisions, seq) = (&ctx.decisions, ctx.seq);
    match (upheld, result) {
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
        // Upheld under the regulations' procedure with neither a result nor a
        // resumption: the decision cites the right of appeal and the regulation, and says
        // the deposit is returned.
        (true, None) if !regulations.is_default() => vec![ServiceEvent::AppealUpheld {
            against_seq,
            article: decisions.cite(&[Rule::Appeal]),
            reason: format!("The appeal against event {against_seq} was upheld: {reason}"),
            cause_seq: seq,
            ruled_by: decisions.ruled_by(),
        }],
        // Dismissed under the regulations' procedure: the decision cites the right of
        // appeal and the regulation, and says the deposit is kept.
        (false, _) if !regulations.is_default() => vec![ServiceEvent::AppealDismissed {
            against_seq,
            article: decisions.cite(&[Rule::Appeal]),
            reason: format!(
                "The appeal against event {against_seq} was dismissed, and the ruling stands: {reason}"
            ),
            cause_seq: seq,
            ruled_by: decisions.ruled_by(),
        }],
        _ => Vec::new(),
    }
}

/// The `game_resumed` of an upheld appeal against `against_seq` that sends the players back
/// to the board with the committee's clock times (`resume`), or why it cannot.
///
/// The ruling appealed against is annulled with the event it answered (the claim, the flag
/// fall, the illegal move, the arbiter's or the fair-play decision) and every decision that
/// event caused: the game is then folded without them, so that the position, the offers,
/// the move count and the illegal moves counted stand as they stood before it, and the
/// events recorded since (clock presses, the appeal itself) still count.
fn resumed(
    ctx: &JudgeContext<'_>,
    against_seq: u64,
    resume: Resume,
    reason: &str,
) -> Result<ServiceEvent, Refusal> {
    let log = ctx.log;
    let index = standing_event(log, against_seq)?;
    let cause = annullable_cause(log, index, against_seq)?;
    let mut annulled = vec![log[cause].seq];
    annulled.extend(
        log[cause + 1..]
            .iter()
            .take_while(|l| matches!(l.event, Event::Service(_)))
            .filter(|l| l.counts())
            .map(|l| l.seq),
    );
    check_no_other_end(log, &annulled)?;
    Ok(ServiceEvent::GameResumed {
        against_seq,
        reason: format!(
            "The appeal against event {against_seq} was upheld: {} annulled, and play resumes \
             with {} on White's clock and {} on Black's: {reason}",
            if annulled.len() == 1 {
                format!("event {} is", annulled[0])
            } else {
                format!("events {} are", seqs_text(&annulled))
            },
            clock_text(resume.white_ms),
            clock_text(resume.black_ms)
        ),
        annulled,
        white_ms: resume.white_ms,
        black_ms: resume.black_ms,
        article: ctx.decisions.cite(&[Rule::Appeal]),
        cause_seq: ctx.seq,
        ruled_by: ctx.decisions.ruled_by(),
    })
}

/// A refusal to resume play on an appeal.
fn cannot_resume(message: String) -> Refusal {
    Refusal::new(RefusalCode::AppealCannotResume, message)
}

/// The index in `log` of the event appealed against, which must still count.
fn standing_event(log: &[LoggedEvent], against_seq: u64) -> Result<usize, Refusal> {
    let Some(index) = log.iter().position(|l| l.seq == against_seq) else {
        return Err(cannot_resume(format!(
            "There is no event {against_seq} in this game to annul; give the seq of the ruling appealed against."
        )));
    };
    if !log[index].counts() {
        return Err(cannot_resume(format!(
            "Event {against_seq} no longer counts (a correction retracted it, or an appeal \
             annulled it already): there is nothing left of it to annul."
        )));
    }
    Ok(index)
}

/// The index of the event the ruling at `index` answered: the ruling itself when it was
/// recorded (an arbiter's or a fair-play decision, a flag fall, an illegal move, a claim),
/// else the recorded event its decisions were stored after. Only a ruling can be annulled,
/// not a fact about the board.
fn annullable_cause(log: &[LoggedEvent], index: usize, against_seq: u64) -> Result<usize, Refusal> {
    let cause = match &log[index].event {
        Event::Recorded(_) => index,
        Event::Service(ServiceEvent::GameCreated(_) | ServiceEvent::GameResumed { .. }) => {
            return Err(cannot_resume(format!(
                "Event {against_seq} is a {}, not a ruling a committee can annul.",
                log[index].event.type_name()
            )));
        }
        Event::Service(_) => log[..index]
            .iter()
            .rposition(|l| l.counts() && matches!(l.event, Event::Recorded(_)))
            .ok_or_else(|| {
                cannot_resume(format!(
                    "No recorded event stands before event {against_seq}: there is no ruling to annul."
                ))
            })?,
    };
    let Event::Recorded(recorded) = &log[cause].event else {
        return Err(cannot_resume(format!(
            "Event {} is not a recorded event.",
            log[cause].seq
        )));
    };
    let annullable = matches!(
        recorded,
        RecordedEvent::Claim { .. }
            | RecordedEvent::Flag { .. }
            | RecordedEvent::BothFlags {}
            | RecordedEvent::IllegalMove { .. }
            | RecordedEvent::ArbiterDecision { .. }
            | RecordedEvent::FairPlay { .. }
    );
    if !annullable {
        return Err(cannot_resume(format!(
            "The ruling of event {against_seq} answers event {} ({}), which is a fact about the \
             board rather than a ruling: an appeal that sends the players back to the board \
             annuls a claim's ruling, a flag fall ruled on, an illegal move's penalty, or an \
             arbiter's or fair-play decision. Give a `result` instead, or record what happens \
             on the board.",
            log[cause].seq,
            recorded.type_name()
        )));
    }
    Ok(cause)
}

/// Play resumes only if no other end of the game stands than those `annulled`.
fn check_no_other_end(log: &[LoggedEvent], annulled: &[u64]) -> Result<(), Refusal> {
    match log.iter().find(|l| {
        l.counts()
            && !annulled.contains(&l.seq)
            && matches!(l.event, Event::Service(ServiceEvent::GameEnded { .. }))
    }) {
        Some(end) => Err(cannot_resume(format!(
            "The game ended at event {}, which this appeal does not annul (it annuls events \
             {}): play cannot resume. Appeal against that end, or give a `result`.",
            end.seq,
            seqs_text(annulled)
        ))),
        None => Ok(()),
    }
}

/// What a decision says of the procedure: ` (ECU Tournament Rules; the deposit of 100 EUR is
/// returned; the committee: A (chairman), B (by video))`, or nothing when the regulations
/// say nothing of appeals.
fn procedure_text(regulations: &AppealRegulations, upheld: bool, sitting: &[Sitting]) -> String {
    let mut parts = Vec::new();
    if let Some(regulation) = &regulations.regulation {
        parts.push(regulation.clone());
    }
    if let Some(deposit) = &regulations.deposit {
        parts.push(format!(
            "the deposit of {deposit} is {}",
            if upheld { "returned" } else { "kept" }
        ));
    }
    if !sitting.is_empty() {
        let names: Vec<String> = sitting
            .iter()
            .map(|seat| {
                let chairman = regulations.committee.iter().any(|m| {
                    m.role == CommitteeRole::Chairman
                        && m.name.trim().eq_ignore_ascii_case(seat.name.trim())
                });
                let mut name = seat.name.clone();
                if chairman {
                    name.push_str(" (chairman)");
                }
                if seat.by_video {
                    name.push_str(" (by video)");
                }
                name
            })
            .collect();
        parts.push(format!("the committee: {}", names.join(", ")));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join("; "))
    }
}

/// `3, 4 and 5`.
fn seqs_text(seqs: &[u64]) -> String {
    let texts: Vec<String> = seqs.iter().map(u64::to_string).collect();
    match texts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => texts.join(""),
    }
}

/// `1:05:00` or `9:30`.
fn clock_text(ms: u64) -> String {
    let seconds = ms / 1000;
    let (h, m, s) = (seconds / 3600, (seconds / 60) % 60, seconds % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
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

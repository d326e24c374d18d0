//! The audit an appeals committee reads: every recorded event is judged again on the log as
//! it stood before it, and what the engine decides now is compared with the decisions
//! stored after it (docs/DESIGN.md, Principle 3).
//!
//! What is compared is what a decision *decides*: its kind, the event it answers, the claim's
//! outcome and kind, the result and termination, the extra time (who and how much), and the
//! move or pieces the claimant is bound to. How it is justified is not: the engine version
//! that wrote it, the article(s) it cites, the wording of its reason and the evidence it
//! records are reported as notes ("stored by arbiter-rules 0.1.0 citing 9.1.2.2, 5.2.3;
//! arbiter-rules 0.2.0 cites 9.1.2.1, 5.2.3"), never as a difference, so that a log written by
//! an older release reproduces as long as the rulings themselves are the same.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::rules::claims::ClaimOutcome;
use crate::rules::side::Side;

use super::Game;
use super::event::{
    ClockReading, Event, GameResult, RecordedEvent, RuledBy, ServiceEvent, Termination,
};

/// What an audit concludes about a game: three words an appeals committee can tell apart.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    ToSchema,
    strum::IntoStaticStr,
    strum::EnumIter,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum AuditVerdict {
    /// The hash chain verifies and every stored decision decides what the engine decides
    /// today, whatever release stored it (a different citation, wording or evidence is a
    /// note).
    Reproduced,
    /// The hash chain verifies (the log is as it was written), but today's engine decides at
    /// least one decision differently from the engine version that stored it: a change of
    /// rules between releases, not an alteration of the record.
    RuledDifferently,
    /// The hash chain does not verify: the stored log was altered after it was written.
    Tampered,
}

impl AuditVerdict {
    /// The verdict for a log whose chain is (or is not) `chain_intact`, with the first
    /// decision that does not reproduce, if any. An altered log is `tampered` whatever its
    /// decisions say.
    pub fn of(chain_intact: bool, first_divergence: Option<u64>) -> AuditVerdict {
        if !chain_intact {
            AuditVerdict::Tampered
        } else if first_divergence.is_some() {
            AuditVerdict::RuledDifferently
        } else {
            AuditVerdict::Reproduced
        }
    }

    /// The word as it appears in the API.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl std::fmt::Display for AuditVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One stored event, as the audit reads it.
#[derive(Clone, Copy, Debug)]
pub struct StoredEvent<'a> {
    /// Its `seq`.
    pub seq: u64,
    /// The event.
    pub event: &'a Event,
    /// The clock reading stored with it.
    pub clock: Option<&'a ClockReading>,
    /// Whether it was stored by the same append as the event before it (decisions are
    /// always stored with their cause).
    pub same_append_as_previous: bool,
}

/// What a decision decides, without its citation, wording, evidence or the engine that wrote
/// it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DecisionEssence {
    /// `claim_ruled`, `penalty_applied` or `game_ended`.
    pub kind: String,
    /// The event it answers (the claim, or the cause).
    pub cause_seq: u64,
    /// For a claim: upheld or rejected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<ClaimOutcome>,
    /// For a claim: what was claimed, as in its evidence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim_kind: Option<String>,
    /// For an end: the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// For an end: how.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination: Option<Termination>,
    /// Extra time: who receives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty_side: Option<Side>,
    /// Extra time: how much, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty_ms: Option<u64>,
    /// The written move the claimant must play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub must_play: Option<String>,
    /// The pieces one of which the claimant must move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub must_move_one_of: Option<Vec<String>>,
    /// For play resumed on appeal: the events annulled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annulled: Option<Vec<u64>>,
    /// For play resumed on appeal: White's and Black's times, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume_ms: Option<(u64, u64)>,
}

impl DecisionEssence {
    /// What `decision` decides.
    pub fn of(decision: &ServiceEvent) -> Option<DecisionEssence> {
        let blank = |kind: &str, cause_seq: u64| DecisionEssence {
            kind: kind.to_string(),
            cause_seq,
            outcome: None,
            claim_kind: None,
            result: None,
            termination: None,
            penalty_side: None,
            penalty_ms: None,
            must_play: None,
            must_move_one_of: None,
            annulled: None,
            resume_ms: None,
        };
        Some(match decision {
            ServiceEvent::GameCreated(_) => return None,
            ServiceEvent::ClaimRuled(ruling) => DecisionEssence {
                outcome: Some(ruling.outcome),
                claim_kind: Some(ruling.evidence.claim.name().to_string()),
                penalty_side: ruling.penalty.as_ref().map(|p| p.side),
                penalty_ms: ruling.penalty.as_ref().map(|p| p.add_ms),
                must_play: ruling.must_play.clone(),
                must_move_one_of: ruling.must_move_one_of.clone(),
                ..blank("claim_ruled", ruling.claim_seq)
            },
            ServiceEvent::PenaltyApplied {
                side,
                add_ms,
                cause_seq,
                ..
            } => DecisionEssence {
                penalty_side: Some(*side),
                penalty_ms: Some(*add_ms),
                ..blank("penalty_applied", *cause_seq)
            },
            ServiceEvent::GameEnded {
                result,
                termination,
                cause_seq,
                ..
            } => DecisionEssence {
                result: Some(*result),
                termination: Some(*termination),
                ..blank("game_ended", *cause_seq)
            },
            ServiceEvent::AppealDismissed { cause_seq, .. } => {
                blank("appeal_dismissed", *cause_seq)
            }
            ServiceEvent::AppealUpheld { cause_seq, .. } => blank("appeal_upheld", *cause_seq),
            ServiceEvent::GameResumed {
                annulled,
                white_ms,
                black_ms,
                cause_seq,
                ..
            } => DecisionEssence {
                annulled: Some(annulled.clone()),
                resume_ms: Some((*white_ms, *black_ms)),
                ..blank("game_resumed", *cause_seq)
            },
        })
    }
}

/// Whether the decisions stored after a recorded event are what the engine decides today.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AuditedDecision {
    /// The recorded event whose consequences were checked.
    pub cause_seq: u64,
    /// Its type.
    #[schema(schema_with = super::event::event_type_schema)]
    pub cause_type: String,
    /// The `seq`s of the decisions stored after it.
    pub stored_seqs: Vec<u64>,
    /// True when the engine, re-run on the prefix, decides the same (same kinds, outcomes,
    /// claims answered, results, terminations, extra time and obligations).
    pub reproduced: bool,
    /// The engine version that wrote the stored decisions (absent when none is stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored_engine_version: Option<String>,
    /// What differs besides the decisions themselves: a different engine version, Laws
    /// edition, citation, wording or evidence. Information only: the decision reproduces.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The decisions as stored (when not reproduced).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored: Option<Vec<ServiceEvent>>,
    /// The decisions the engine gives now (when not reproduced and it decides).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recomputed: Option<Vec<ServiceEvent>>,
    /// Why the engine gives no decision now: it refuses the recorded event, or the stored
    /// log cannot be folded from here (`corrupt_log`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<AuditRefusal>,
}

/// What the engine decides today on a stored prefix: the decisions it would store, or why it
/// refuses the recorded event.
#[derive(Clone, Debug, PartialEq)]
enum Recomputed {
    /// The decisions the engine gives now, in the order it would store them.
    Decisions(Vec<ServiceEvent>),
    /// The engine refuses the recorded event.
    Refused(AuditRefusal),
}

/// Why the engine, re-run on a stored prefix, gives no decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AuditRefusal {
    /// The refusal's code (`corrupt_log` when the stored events cannot be folded from here).
    pub refused: String,
    /// The refusal in words.
    pub message: String,
}

impl AuditRefusal {
    fn of(refusal: &super::Refusal) -> AuditRefusal {
        AuditRefusal {
            refused: refusal.code().to_string(),
            message: refusal.message().to_string(),
        }
    }
}

/// The decisions re-checked, and the first that does not reproduce.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionsAudit {
    /// Every recorded event that caused decisions (or should have), with the check.
    pub decisions: Vec<AuditedDecision>,
    /// The `seq` of the first decision that does not reproduce (or of its cause).
    pub first_divergence: Option<u64>,
}

fn reason_of(event: &ServiceEvent) -> Option<&str> {
    match event {
        ServiceEvent::ClaimRuled(ruling) => Some(&ruling.reason),
        ServiceEvent::PenaltyApplied { reason, .. }
        | ServiceEvent::GameEnded { reason, .. }
        | ServiceEvent::GameResumed { reason, .. }
        | ServiceEvent::AppealDismissed { reason, .. }
        | ServiceEvent::AppealUpheld { reason, .. } => Some(reason),
        ServiceEvent::GameCreated(_) => None,
    }
}

fn ruled_by_of(event: &ServiceEvent) -> Option<&RuledBy> {
    match event {
        ServiceEvent::ClaimRuled(ruling) => Some(&ruling.ruled_by),
        ServiceEvent::PenaltyApplied { ruled_by, .. }
        | ServiceEvent::GameEnded { ruled_by, .. }
        | ServiceEvent::GameResumed { ruled_by, .. }
        | ServiceEvent::AppealDismissed { ruled_by, .. }
        | ServiceEvent::AppealUpheld { ruled_by, .. } => Some(ruled_by),
        ServiceEvent::GameCreated(_) => None,
    }
}

fn engine_of(event: &ServiceEvent) -> Option<&str> {
    ruled_by_of(event).map(|r| r.engine_version.as_str())
}

fn article_of(event: &ServiceEvent) -> Option<&str> {
    match event {
        ServiceEvent::ClaimRuled(ruling) => Some(&ruling.article),
        ServiceEvent::PenaltyApplied { article, .. }
        | ServiceEvent::GameEnded { article, .. }
        | ServiceEvent::GameResumed { article, .. }
        | ServiceEvent::AppealDismissed { article, .. }
        | ServiceEvent::AppealUpheld { article, .. } => Some(article),
        ServiceEvent::GameCreated(_) => None,
    }
}

/// The top-level fields of a claim's evidence that differ between `stored` and `now`.
fn evidence_differences(stored: &ServiceEvent, now: &ServiceEvent) -> Vec<String> {
    let (ServiceEvent::ClaimRuled(stored), ServiceEvent::ClaimRuled(now)) = (stored, now) else {
        return Vec::new();
    };
    let as_map = |evidence: &super::event::ClaimEvidence| match serde_json::to_value(evidence) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let (stored, now) = (as_map(&stored.evidence), as_map(&now.evidence));
    let mut fields: Vec<String> = stored
        .keys()
        .chain(now.keys())
        .filter(|k| stored.get(*k) != now.get(*k))
        .cloned()
        .collect();
    fields.sort();
    fields.dedup();
    fields
}

/// Notes on how a stored decision and today's, deciding the same, are justified differently.
fn justification_notes(stored: &ServiceEvent, now: &ServiceEvent) -> Vec<String> {
    let mut notes = Vec::new();
    let old = engine_of(stored).unwrap_or("an unknown engine");
    let new = engine_of(now).unwrap_or(super::ENGINE_VERSION);
    let what = stored.type_name();
    if let (Some(was), Some(is)) = (article_of(stored), article_of(now))
        && was != is
    {
        notes.push(format!(
            "{what}: stored by {old} citing {was}; {new} cites {is}"
        ));
    }
    if let (Some(was), Some(is)) = (ruled_by_of(stored), ruled_by_of(now))
        && was.laws_edition != is.laws_edition
    {
        let edition = |r: &RuledBy| {
            serde_json::to_value(r.laws_edition)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        };
        notes.push(format!(
            "{what}: stored under the {} Laws; {new} applies the {} Laws",
            edition(was),
            edition(is)
        ));
    }
    if reason_of(stored) != reason_of(now) {
        notes.push(format!(
            "{what}: the reason is worded differently today (stored by {old}: \"{}\")",
            reason_of(stored).unwrap_or_default()
        ));
    }
    let fields = evidence_differences(stored, now);
    if !fields.is_empty() {
        notes.push(format!(
            "{what}: the claim's evidence is recorded differently by {new} than by {old} ({})",
            fields.join(", ")
        ));
    }
    notes
}

/// Re-decides every recorded event of a log on its prefix and compares with what is stored.
/// `log` starts with `game_created`.
pub fn audit_decisions(log: &[StoredEvent<'_>]) -> DecisionsAudit {
    let mut decisions = Vec::new();
    let mut game: Option<Game> = None;
    let mut index = 0;
    while index < log.len() {
        let cause = log[index];
        let stored: Vec<StoredEvent<'_>> = log[index + 1..]
            .iter()
            .take_while(|e| matches!(e.event, Event::Service(_)) && e.same_append_as_previous)
            .copied()
            .collect();
        let group_end = index + 1 + stored.len();
        let refold = match (game.as_mut(), cause.event) {
            (Some(current), Event::Recorded(recorded)) => {
                let (audited, diverged) = decide_again(current, cause, recorded, &stored);
                decisions.extend(audited);
                // The state must follow the log as stored: where today's decisions differ, or
                // today's rules refuse the event, fold the stored ones instead.
                diverged
            }
            _ => true,
        };
        if refold {
            match fold_prefix(&log[..group_end]) {
                Ok(folded) => game = Some(folded),
                Err(()) => {
                    decisions.push(cannot_fold(cause, &stored));
                    break;
                }
            }
        }
        index = group_end;
    }
    let first_divergence = decisions
        .iter()
        .find(|d| !d.reproduced)
        .map(|d| d.stored_seqs.first().copied().unwrap_or(d.cause_seq));
    DecisionsAudit {
        decisions,
        first_divergence,
    }
}

/// Records `recorded` (the event `cause`) on `current` as the engine judges it today and
/// compares what it decides with the decisions `stored` after it: the audited decision when
/// there is one to show (decisions stored, or a divergence), and whether today's engine
/// diverged (other decisions, or a refusal).
fn decide_again(
    current: &mut Game,
    cause: StoredEvent<'_>,
    recorded: &RecordedEvent,
    stored: &[StoredEvent<'_>],
) -> (Option<AuditedDecision>, bool) {
    let stored_services: Vec<&ServiceEvent> = stored
        .iter()
        .filter_map(|e| match e.event {
            Event::Service(service) => Some(service),
            Event::Recorded(_) => None,
        })
        .collect();
    let outcome = current.record_with_clock(cause.seq, recorded, cause.clock);
    let (reproduced, recomputed, notes) = compare(&outcome, &stored_services);
    let diverged = !reproduced || outcome.is_err();
    if stored.is_empty() && !diverged {
        return (None, false);
    }
    let audited = AuditedDecision {
        cause_seq: cause.seq,
        cause_type: cause.event.type_name().to_string(),
        stored_seqs: stored.iter().map(|e| e.seq).collect(),
        reproduced,
        stored_engine_version: stored_services
            .iter()
            .find_map(|d| engine_of(d))
            .map(str::to_string),
        notes,
        stored: (!reproduced).then(|| stored_services.iter().map(|d| (*d).clone()).collect()),
        recomputed: match &recomputed {
            Recomputed::Decisions(now) if !reproduced => Some(now.clone()),
            _ => None,
        },
        refusal: match recomputed {
            Recomputed::Refused(refusal) if !reproduced => Some(refusal),
            _ => None,
        },
    };
    (Some(audited), diverged)
}

/// The audited decision where the stored events cannot be folded from `cause` on: the audit
/// stops there.
fn cannot_fold(cause: StoredEvent<'_>, stored: &[StoredEvent<'_>]) -> AuditedDecision {
    AuditedDecision {
        cause_seq: cause.seq,
        cause_type: cause.event.type_name().to_string(),
        stored_seqs: stored.iter().map(|e| e.seq).collect(),
        reproduced: false,
        stored_engine_version: None,
        notes: Vec::new(),
        stored: None,
        recomputed: None,
        refusal: Some(AuditRefusal {
            refused: "corrupt_log".to_string(),
            message: "the stored events cannot be folded from here on".to_string(),
        }),
    }
}

/// Compares the decisions the engine makes now (or its refusal) with those `stored`: whether
/// they decide the same, today's decisions as JSON, and notes on what differs only in
/// wording or engine version.
fn compare(
    outcome: &Result<Vec<ServiceEvent>, super::Refusal>,
    stored_services: &[&ServiceEvent],
) -> (bool, Recomputed, Vec<String>) {
    match outcome {
        Ok(now) => {
            let same = now.len() == stored_services.len()
                && now
                    .iter()
                    .zip(stored_services)
                    .all(|(a, b)| DecisionEssence::of(a) == DecisionEssence::of(b));
            let mut notes = Vec::new();
            if let Some(old) = stored_services
                .iter()
                .filter_map(|d| engine_of(d))
                .find(|e| *e != super::ENGINE_VERSION)
            {
                notes.push(format!(
                    "stored by {old}, re-run by {}",
                    super::ENGINE_VERSION
                ));
            }
            if same {
                for (a, b) in now.iter().zip(stored_services) {
                    notes.extend(justification_notes(b, a));
                }
            }
            (same, Recomputed::Decisions(now.clone()), notes)
        }
        // An event stored without a decision that today's rules refuse (an appeal decided a
        // second time, accepted before appeals were final): no decision of the engine rests
        // on it, so none is ruled differently; the note says what the rules say now.
        Err(refusal) if stored_services.is_empty() => (
            true,
            Recomputed::Refused(AuditRefusal::of(refusal)),
            vec![format!(
                "accepted when it was recorded; {} would refuse it now ({}: {}); no decision \
                 rests on it",
                super::ENGINE_VERSION,
                refusal.code(),
                refusal.message()
            )],
        ),
        Err(refusal) => (
            false,
            Recomputed::Refused(AuditRefusal::of(refusal)),
            Vec::new(),
        ),
    }
}

/// The game folded from a stored prefix (starting with `game_created`).
fn fold_prefix(prefix: &[StoredEvent<'_>]) -> Result<Game, ()> {
    let Some(first) = prefix.first() else {
        return Err(());
    };
    let Event::Service(ServiceEvent::GameCreated(settings)) = first.event else {
        return Err(());
    };
    let mut game = Game::new(settings).map_err(|_| ())?;
    for stored in prefix {
        game.apply_with_clock(stored.seq, stored.event, stored.clock)
            .map_err(|_| ())?;
    }
    Ok(game)
}

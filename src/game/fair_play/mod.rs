//! Fair-play events in the game's log (11.3.2.2, 12.9.6): the engine sees only their public
//! row, the SHA-256 of the sealed payload and, when the ruling ends the game, the loser and
//! the article. The ruling itself is made from the payload by `crate::rules::electronic_devices`
//! before the event is stored; here the engine checks that the row is well formed and writes
//! the `game_ended` the public sees, with the result and the article only.
//!
//! A fair-play event without a forfeit changes nothing in the game, and is accepted after
//! the end too (a device found on a player who has finished is a spectator's, 11.4; a
//! complaint may come after the tournament). One with a forfeit is refused once the game has
//! ended (`super::endings`), as every other end.
//!
//! The module also holds the vocabulary of the sealed payloads ([`FairPlayRecord`],
//! [`FairPlayFact`], [`SealedPayload`]), the checks a record must pass against the fair-play
//! events stored before it ([`validate`], each refusal naming its field), the rulings
//! ([`ruling`], from `crate::rules::electronic_devices`) and what the report counts
//! ([`count_checks`]): all pure, for the application service `crate::app::fair_play`.
//!
//! Here: the row the game judges and its public part (the forfeit, the time penalty, the
//! appeal citing it); the payloads' vocabulary and counts are in `records.rs`, the checks of
//! a new record and its ruling in `checks.rs`.

use super::event::{GameResult, RecordedEvent, Termination};
use super::parts::{JudgeContext, Judged, Judgement};
use super::refusal::{Refusal, RefusalCode};

pub use crate::rules::electronic_devices::{
    ArbiterChoice, DeviceLocation, FairPlayRuling, OpponentScore, PenaltyOption, RulingOutcome,
};

use crate::rules::laws::{LawsEdition, Rule, citation};

mod checks;
mod records;

pub use checks::{FairPlayContext, FieldError, Prior, article_of, ruling, validate};
pub use records::{
    CheckCounts, CheckResult, ComplaintStage, CustodyAction, EvidenceKind, FairPlayFact,
    FairPlayRecord, FairPlayRole, FoundBy, Party, SealedPayload, broadcast_delay, count_checks,
};

/// Whether `sealed` is a SHA-256 in lower-case hex.
pub fn is_sealed_hash(sealed: &str) -> bool {
    sealed.len() == 64
        && sealed
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Judges a `fair_play` event: a forfeit ends the game as the loser's loss with the
/// opponent's win, or the opponent's score it carries (12.9.6: ½ or nothing), citing the
/// forfeit's article, with no other word (the reason is the article). Other events are not
/// this module's to judge.
pub(super) fn judge(ctx: &JudgeContext<'_>, event: &RecordedEvent) -> Judgement {
    let RecordedEvent::FairPlay {
        sealed,
        forfeit,
        time_penalty,
    } = event
    else {
        return Ok(Judged::nothing());
    };
    if !is_sealed_hash(sealed) {
        return Err(Refusal::new(
            RefusalCode::InternalInconsistency,
            "A fair_play event carries the SHA-256 of its sealed payload as 64 lower-case hex \
             digits; record fair-play events through POST /v1/games/{id}/fair-play.",
        ));
    }
    if let Some(penalty) = time_penalty {
        if forfeit.is_some() || penalty.delta_ms == 0 {
            return Err(Refusal::new(
                RefusalCode::InternalInconsistency,
                "A fair_play event's time_penalty changes a clock by a time other than 0, and \
                 comes without a forfeit; record fair-play events through \
                 POST /v1/games/{id}/fair-play.",
            ));
        }
        // 12.9.2 as every time given in the Laws: a `penalty_applied` to the opponent. 12.9.3
        // takes time, which `penalty_applied` cannot: the clocks fold it from this row, as
        // they fold a `clock_adjust` (`super::clocks`).
        return Ok(match u64::try_from(penalty.delta_ms) {
            Ok(add_ms) => Judged::decisions(vec![ctx.decisions.penalty(
                ctx.seq,
                penalty.side,
                add_ms,
                penalty.article.clone(),
                format!("Article {}.", penalty.article),
            )]),
            Err(_) => Judged::nothing(),
        });
    }
    let Some(forfeit) = forfeit else {
        return Ok(Judged::nothing());
    };
    Ok(Judged::decisions(vec![ctx.decisions.game_ended_citing(
        ctx.seq,
        GameResult::lost_by(
            forfeit.loser,
            forfeit.opponent_score.unwrap_or(OpponentScore::Win),
        ),
        Termination::Arbiter,
        forfeit.article.clone(),
        format!("Article {}.", forfeit.article),
    )]))
}

/// The public part of `ruling`: the loser, the article the game ends under (11.3.2.2 for
/// a device on the person; 12.9.6 where the arbiter chose it or the regulations set it as
/// the lesser penalty) and the opponent's score when it is not the win.
pub fn forfeit_of(edition: LawsEdition, ruling: &FairPlayRuling) -> Option<super::event::Forfeit> {
    let loser = ruling.ends_game()?;
    let article = match ruling.outcome {
        RulingOutcome::Loss => citation(edition, &[Rule::DeviceOnPerson]),
        RulingOutcome::LesserPenalty => match &ruling.penalty_article {
            Some(penalty) => format!("{}, {penalty}", citation(edition, &[Rule::DeviceOnPerson])),
            None => citation(edition, &[Rule::DeviceOnPerson]),
        },
        _ => ruling
            .penalty_article
            .clone()
            .unwrap_or_else(|| citation(edition, &[Rule::ArbiterPenalties])),
    };
    Some(super::event::Forfeit {
        loser,
        article,
        opponent_score: ruling
            .opponent_score
            .filter(|score| *score != OpponentScore::Win),
    })
}

/// The public part of `ruling` when it changes a clock (12.9.2, 12.9.3, with the time known):
/// whose clock, by how much, and the option's article.
pub fn time_penalty_of(
    edition: LawsEdition,
    ruling: &FairPlayRuling,
) -> Option<super::event::TimePenalty> {
    let change = ruling.time_change?;
    let article = ruling
        .penalty
        .map(|p| p.article(edition))
        .unwrap_or_else(|| citation(edition, &[Rule::ArbiterPenalties]));
    Some(super::event::TimePenalty {
        side: change.side,
        delta_ms: change.delta_ms,
        article,
    })
}

/// Whether an appeal lodged in the game cites the fair-play event at `seq`: an `appeal_lodged`
/// against it, or against the `game_ended` it caused. The designated appeals member reads
/// such an event, and only such an event (ECU Tournament Rules Q.2.2).
pub fn appeal_cites(events: &[(u64, &super::event::Event)], seq: u64) -> bool {
    use super::event::{Event, ServiceEvent};
    let caused: Vec<u64> = events
        .iter()
        .filter_map(|(s, event)| match event {
            Event::Service(ServiceEvent::GameEnded { cause_seq, .. }) if *cause_seq == seq => {
                Some(*s)
            }
            _ => None,
        })
        .collect();
    events.iter().any(|(_, event)| {
        matches!(event, Event::Recorded(RecordedEvent::AppealLodged { against_seq, .. })
            if *against_seq == seq || caused.contains(against_seq))
    })
}

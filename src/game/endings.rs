//! How a game ends: by itself after a move (5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2, decided by
//! `crate::rules::automatic_end`), by a flag fall (6.9), by resignation (5.1.2), and what
//! is refused once it has ended.
//!
//! A flag fall and a resignation ask whether the opponent can still checkmate "by any
//! possible series of legal moves": a helpmate search, never a material count. 6.9 draws a
//! flag fall then in both editions; 5.1.2 draws a resignation only in the 2023 edition (in
//! 2018 a resignation always loses).

use shakmaty::{Chess, Move, Position};

use crate::rules::automatic_end::{AutomaticEnd, AutomaticEndKind, automatic_end_after};
use crate::rules::evidence::EndEvidence;
use crate::rules::laws::{Rule, resignation_draws_when_opponent_cannot_mate};
use crate::rules::mating_potential::{
    MateWitness, MatingPotential, dead_position_after_move, mating_potential,
};
use crate::rules::move_parsing::{fen_of, san_of};
use crate::rules::side::Side;
use crate::rules::time_control::articles::{TimeRule, citation};
use crate::rules::time_control::minutes_text;
use crate::rules::time_control::tracker::{BothFlagsOutcome, FlagFinding, FlagOutcome};

use super::decisions::Decisions;
use super::event::{ArbiterRuling, Event, GameResult, RecordedEvent, ServiceEvent, Termination};
use super::parts::{CorruptLog, Fold, FoldContext, JudgeContext, Judged, Judgement};
use super::refusal::{Refusal, RefusalCode};

/// How the game ended.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct GameEnd {
    pub(super) result: GameResult,
    pub(super) termination: Termination,
    pub(super) article: String,
    pub(super) reason: String,
    pub(super) seq: u64,
}

/// What the dead-position check worked out after a move: the end it causes, if any, and a
/// player proven able to checkmate after it, when the check ran and found one (for the next
/// move's check to start from).
pub(super) struct AfterMove {
    pub(super) end: Option<ServiceEvent>,
    pub(super) witness: Option<MateWitness>,
}

/// The end, if any, after `by` plays the legal move `m` on the board of `ctx`, with the
/// evidence it rests on (docs/DESIGN.md, Principle 4).
///
/// Whether the position is dead is the full helpmate search's to say, except where a
/// player proven able to checkmate before the move (`witness`) provably still can after it
/// (`dead_position_after_move`).
pub(super) fn after_move(
    ctx: &JudgeContext<'_>,
    by: Side,
    m: Move,
    witness: Option<&MateWitness>,
) -> AfterMove {
    let history = ctx.board().history();
    let before = history.current();
    let mut after = before.clone();
    after.play_unchecked(m);
    let mut witness_after = None;
    let end = automatic_end_after(history, &after, |position| {
        let check = dead_position_after_move(before, m, position, witness);
        witness_after = check.witness;
        check.potential == MatingPotential::CannotMate
    });
    AfterMove {
        // The move's SAN is only needed for the evidence of an end (most moves end nothing).
        end: end.map(|end| automatic_end(ctx, by, &san_of(before, m), &after, end)),
        witness: witness_after,
    }
}

/// The `game_ended` of an end by itself after the move `san` by `by` led to `after`.
fn automatic_end(
    ctx: &JudgeContext<'_>,
    by: Side,
    san: &str,
    after: &Chess,
    end: AutomaticEnd,
) -> ServiceEvent {
    let decisions = &ctx.decisions;
    let seq = ctx.seq;
    let AutomaticEnd {
        kind,
        ply,
        occurrences,
    } = end;
    let (result, termination, reason) = verdict(kind, by, san, after, &occurrences);
    let evidence = EndEvidence {
        fen: fen_of(after),
        halfmove_clock: after.halfmoves(),
        san: san.to_string(),
        occurrences: (kind == AutomaticEndKind::FivefoldRepetition).then_some(occurrences),
        ply,
        other_fields: Default::default(),
    };
    decisions.game_ended(
        seq,
        result,
        termination,
        &[kind.rule()],
        reason,
        Some(evidence),
    )
}

/// The result, the termination and the reason of an end by itself (5.1.1, 5.2.1, 5.2.2,
/// 9.6.1, 9.6.2) after the move `san` by `by` led to `after`.
fn verdict(
    kind: AutomaticEndKind,
    by: Side,
    san: &str,
    after: &Chess,
    occurrences: &[usize],
) -> (GameResult, Termination, String) {
    match kind {
        AutomaticEndKind::Checkmate => (
            GameResult::win_for(by),
            Termination::Checkmate,
            format!("{san} checkmates: {} wins.", by.name()),
        ),
        AutomaticEndKind::Stalemate => (
            GameResult::Draw,
            Termination::Stalemate,
            format!(
                "After {san} {} has no legal move and is not in check: stalemate.",
                by.opponent().name()
            ),
        ),
        AutomaticEndKind::DeadPosition => (
            GameResult::Draw,
            Termination::DeadPosition,
            format!(
                "After {san} neither player can checkmate by any series of legal moves: the position is dead."
            ),
        ),
        AutomaticEndKind::FivefoldRepetition => (
            GameResult::Draw,
            Termination::FivefoldRepetition,
            format!(
                "After {san} the same position has appeared for the fifth time (plies {occurrences:?})."
            ),
        ),
        AutomaticEndKind::SeventyFiveMoves => (
            GameResult::Draw,
            Termination::SeventyFiveMoves,
            format!(
                "After {san} 75 moves by each player ({} half-moves) have been made without a pawn move or capture, and the last move did not checkmate.",
                after.halfmoves()
            ),
        ),
    }
}

/// A flag (6.1) under the time control. A control of one period is ruled as it always was
/// ([`flag_fell`], 6.9). With periods the requirements of 6.3.1 are checked first (6.4): when
/// the player had completed the moves of the period the clock was counting, the flag does not
/// end the game and the next period's time is added (6.3.2; appended as `penalty_applied`,
/// the event by which time is added to a clock); otherwise 6.9 applies, citing 6.4 too.
fn flag(ctx: &JudgeContext<'_>, side: Side) -> Vec<ServiceEvent> {
    let clocks = ctx.clocks;
    if !clocks.has_periods() {
        return vec![flag_fell(ctx, side, None)];
    }
    let (decisions, seq) = (&ctx.decisions, ctx.seq);
    let edition = decisions.edition();
    let mut finding = clocks.periods().flag_ruling(side);
    if let Some(number) = clocks.move_awaiting_press(side) {
        // 6.2.1, 6.2.2: the move on the board without its press does not count.
        finding = finding.with_move_awaiting_press(number);
    }
    match finding.outcome {
        FlagOutcome::LossUnlessOpponentCannotMate => vec![flag_fell(ctx, side, Some(&finding))],
        FlagOutcome::ControlReached {
            time_added_ms,
            added_to_opponent,
        } => {
            let mut added = vec![decisions.penalty(
                seq,
                side,
                time_added_ms,
                finding.article(edition),
                finding.reason(),
            )];
            if added_to_opponent {
                let opponent = side.opponent();
                added.push(decisions.penalty(
                    seq,
                    opponent,
                    time_added_ms,
                    citation(edition, &[TimeRule::TimeSavedCarriesOver]),
                    format!(
                        "The clock adds the next period to both displays when one reaches 0:00: \
                         {}'s {} are on the clock too, for the moves of the next period.",
                        opponent.name(),
                        minutes_text(time_added_ms)
                    ),
                ));
            }
            added
        }
    }
}

/// Both flags down and which fell first cannot be established (Guidelines III.3.1): in a
/// period that is not the last the game goes on and each player gets the next period's time
/// (III.3.1.1, 6.3.2); in the last it is drawn (III.3.1.2). Outside Guidelines III (a control
/// with increment, blitz: III.2.2; the Guidelines not announced: III.2.1) the event is
/// refused with what to record instead. Flags in different periods are the arbiter's to rule
/// on (the event is stored, nothing is decided).
fn both_flags(ctx: &JudgeContext<'_>) -> Judgement {
    let (decisions, seq) = (&ctx.decisions, ctx.seq);
    let edition = decisions.edition();
    let periods = ctx.clocks.periods();
    let finding = periods.both_flags_order_unknown();
    if !finding.within_guidelines {
        return Err(Refusal::new(
            RefusalCode::BothFlagsOutsideGuidelines,
            format!(
                "Guidelines III.3.1 is for games without increment that are not blitz ({} {}): \
                 the clock shows which flag fell first; record a `flag` for that player.",
                citation(edition, &[TimeRule::GuidelinesScope]),
                crate::rules::time_control::kind_name(ctx.settings().time_control.kind)
            ),
        ));
    }
    if !ctx.settings().regulations.quickplay_finish {
        return Err(Refusal::new(
            RefusalCode::GuidelinesNotAnnounced,
            format!(
                "Guidelines III (with III.3.1 on both flags) were not announced for this event \
                 ({}): the arbiter rules on both flags with an `arbiter_decision`.",
                ctx.cite(&[Rule::QuickplayAnnounced])
            ),
        ));
    }
    let article = finding.article(edition);
    Ok(Judged::decisions(match finding.outcome {
        BothFlagsOutcome::Drawn => vec![decisions.game_ended_citing(
            seq,
            GameResult::Draw,
            Termination::Flag,
            article,
            "Both flags fell in the last period and it cannot be established which fell first: \
             drawn."
                .to_string(),
        )],
        BothFlagsOutcome::GameContinues => [Side::White, Side::Black]
            .into_iter()
            .filter_map(|side| {
                let period = *finding.periods.get(side);
                let next = periods.control().periods.get(period + 1)?;
                (next.time_ms > 0).then(|| {
                    decisions.penalty(
                        seq,
                        side,
                        next.time_ms,
                        article.clone(),
                        format!(
                            "Both flags fell in period {} and it cannot be established which \
                             fell first: the game goes on, and {} has the next period's {}.",
                            period + 1,
                            side.name(),
                            minutes_text(next.time_ms)
                        ),
                    )
                })
            })
            .collect(),
        BothFlagsOutcome::ArbiterDecides => Vec::new(),
    }))
}

/// 6.9: `side`'s flag fell and the moves were not completed; with periods, `finding` says
/// which period's moves were missing (6.4), and its articles are cited.
fn flag_fell(ctx: &JudgeContext<'_>, side: Side, finding: Option<&FlagFinding>) -> ServiceEvent {
    let (decisions, seq, position) = (&ctx.decisions, ctx.seq, ctx.board().position());
    let opponent = side.opponent();
    let (potential, method) = mating_potential(position, opponent.into());
    let (result, reason) = match potential {
        MatingPotential::CannotMate => (
            GameResult::Draw,
            format!(
                "{}'s flag fell, but {} cannot checkmate by any series of legal moves ({}): drawn.",
                side.name(),
                opponent.name(),
                method.name().replace('_', " ")
            ),
        ),
        MatingPotential::CanMate => (
            GameResult::win_for(opponent),
            format!(
                "{}'s flag fell and {} can still checkmate by a series of legal moves: {} wins.",
                side.name(),
                opponent.name(),
                opponent.name()
            ),
        ),
        MatingPotential::Inconclusive => (
            GameResult::win_for(opponent),
            format!(
                "{}'s flag fell: {} wins (the bounded helpmate search for {} was inconclusive; the arbiter should confirm that a mate is possible).",
                side.name(),
                opponent.name(),
                opponent.name()
            ),
        ),
    };
    match finding {
        None => decisions.game_ended(
            seq,
            result,
            Termination::Flag,
            &[Rule::FlagFall],
            reason,
            None,
        ),
        Some(finding) => decisions.game_ended_citing(
            seq,
            result,
            Termination::Flag,
            finding.article(decisions.edition()),
            format!("{} {reason}", finding.reason()),
        ),
    }
}

/// 5.1.2: `by` resigned.
fn resigned(ctx: &JudgeContext<'_>, by: Side) -> ServiceEvent {
    let (decisions, seq, position) = (&ctx.decisions, ctx.seq, ctx.board().position());
    let opponent = by.opponent();
    let draws = resignation_draws_when_opponent_cannot_mate(decisions.edition());
    let cannot_mate =
        draws && mating_potential(position, opponent.into()).0 == MatingPotential::CannotMate;
    let (result, reason) = if cannot_mate {
        (
            GameResult::Draw,
            format!(
                "{} resigned, but {} cannot checkmate by any series of legal moves: drawn.",
                by.name(),
                opponent.name()
            ),
        )
    } else {
        (
            GameResult::win_for(opponent),
            format!("{} resigned: {} wins.", by.name(), opponent.name()),
        )
    };
    decisions.game_ended(
        seq,
        result,
        Termination::Resignation,
        &[Rule::Resignation],
        reason,
        None,
    )
}

/// The end of the game, once it has ended.
#[derive(Clone, Debug, Default)]
pub(super) struct Ending {
    end: Option<GameEnd>,
}

impl Ending {
    /// How the game ended, if it has.
    pub(super) fn get(&self) -> Option<&GameEnd> {
        self.end.as_ref()
    }

    /// Refuses `event` when the game has ended and it is refused then (see
    /// [`refused_after_end`]).
    pub(super) fn guard(
        &self,
        ctx: &JudgeContext<'_>,
        event: &RecordedEvent,
    ) -> Result<(), Refusal> {
        match &self.end {
            Some(end) if refused_after_end(event) => {
                Err(refusal_after_end(&ctx.decisions, end, event))
            }
            _ => Ok(()),
        }
    }

    /// Judges a `flag` (6.9) and a `resign` (5.1.2). A flag fall while a quickplay-finish
    /// claim awaits the arbiter ends nothing by itself: the arbiter declares the result
    /// (III.5.2). Other events are not this part's to judge.
    pub(super) fn judge(&self, ctx: &JudgeContext<'_>, event: &RecordedEvent) -> Judgement {
        Ok(Judged::decisions(match event {
            RecordedEvent::Flag { .. } if ctx.awaiting.claim_awaits_arbiter() => Vec::new(),
            RecordedEvent::Flag { side } => flag(ctx, *side),
            RecordedEvent::BothFlags {} if ctx.awaiting.claim_awaits_arbiter() => Vec::new(),
            RecordedEvent::BothFlags {} => return both_flags(ctx),
            RecordedEvent::Resign { by } => vec![resigned(ctx, *by)],
            _ => Vec::new(),
        }))
    }
}

impl Fold for Ending {
    /// A `game_ended` ends the game.
    fn apply(&mut self, ctx: &FoldContext<'_>, event: &Event) -> Result<(), CorruptLog> {
        if let Event::Service(ServiceEvent::GameEnded {
            result,
            termination,
            article,
            reason,
            ..
        }) = event
        {
            self.end = Some(GameEnd {
                result: *result,
                termination: *termination,
                article: article.clone(),
                reason: reason.clone(),
                seq: ctx.seq,
            });
        }
        Ok(())
    }
}

/// Which recorded events are refused once the game has ended. Clock presses, pauses and
/// resumes are harmless facts (a clock pressed after the mating move) and are kept; appeals,
/// corrections, the arbiter's warnings and fair-play events that end nothing (11.4) still
/// apply; the arbiter's other decisions are
/// refused (the arbiter ends a game once, 12.2; a wrong end is appealed or corrected).
fn refused_after_end(event: &RecordedEvent) -> bool {
    !matches!(
        event,
        RecordedEvent::ClockPress { .. }
            | RecordedEvent::ClockPause { .. }
            | RecordedEvent::ClockResume {}
            | RecordedEvent::ArbiterDecision {
                decision: ArbiterRuling::Warning,
                ..
            }
            | RecordedEvent::AppealLodged { .. }
            | RecordedEvent::AppealDecided { .. }
            | RecordedEvent::Correction { .. }
            | RecordedEvent::FairPlay {
                forfeit: None,
                time_penalty: None,
                ..
            }
    )
}

/// The refusal of `event` after `end`, saying how and when the game ended and what to do.
fn refusal_after_end(decisions: &Decisions<'_>, end: &GameEnd, event: &RecordedEvent) -> Refusal {
    let what = match event {
        RecordedEvent::Flag { side } => format!(
            "A flag fall of {} noticed now changes nothing: {} applies only while the game is in progress.",
            side.name(),
            decisions.cite(&[Rule::FlagFall])
        ),
        RecordedEvent::Move { .. } => "A move played after the end is void.".to_string(),
        other => format!("A {} after the end changes nothing.", other.type_name()),
    };
    Refusal::new(
        RefusalCode::GameOver,
        format!(
            "The game already ended at event {} with {} ({}, article {}: {}). {what} If the end itself was wrong, record an appeal_lodged, or a correction of the latest event if it was a data-entry error.",
            end.seq,
            end.result.pgn(),
            end.termination.in_words(),
            end.article,
            end.reason
        ),
    )
}

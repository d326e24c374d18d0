//! The period each player is in during a game, and the rulings that depend on it.
//!
//! Why: under a control with periods, the same event means different things at different
//! moves. A flag when the player has not completed the moves of the period loses (6.4 with
//! 6.3.1, 6.9); a flag after they were completed does not, and the next period's time is
//! added (6.3.2: the time saved carries over). Whether the scoresheet must be kept (8.4),
//! whether the quickplay finish applies (III.1), what both flags down mean (III.3.1) and what
//! the next move is when the count is lost (8.6) all depend on the period. The
//! [`PeriodTracker`] keeps, for each player, what the Laws count:
//!
//! * the completed moves: a move is completed by the clock press (6.2.1), so a move made on
//!   the board whose clock was not pressed does not count;
//! * the period of the Laws (from the completed moves) and the period the clock is counting,
//!   which differ on clocks that add the next period late;
//! * the time the model expects the clock to show, with the increment or delay of 6.3.2.
//!
//! Clocks differ in when they add a period's time ([`PeriodTimeAdded`]): some count presses
//! and add it at the press that completes the period's moves (and their counter can be
//! wrong); the DGT 3000 in its multi-period modes cannot count moves and adds it when a
//! display reaches 0:00, at which moment the arbiter checks the scoresheets (6.4). Clocks also
//! differ in when they credit an increment ([`IncrementCredit`]): after the press, or (the
//! DGT habit) for the move about to be played, so that the first increment is on the clock
//! before move 1. A reading that does not fit the model is the fact ([`PeriodTracker::
//! record_reading`] keeps it and reports the difference for the arbiter, 6.10.2).
//!
//! The cannot-checkmate exception of 6.9 is decided elsewhere (by `mating_potential`):
//! [`FlagOutcome::LossUnlessOpponentCannotMate`] says only that the period's moves were not
//! completed.
//!
//! Here: the clocks' behaviour and the tracker; what it finds (each ruling with its article)
//! is in `findings.rs`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::articles::TimeRule;
use super::{BonusMode, TimeControl};
use crate::rules::laws::TimeControlKind;
use crate::rules::side::{BySide, Side};

mod findings;
#[cfg(test)]
mod tests;

pub use findings::{
    BothFlagsFinding, BothFlagsOutcome, FlagFinding, FlagOutcome, MoveCountError, MoveCountRuling,
    PeriodStatus, PressOutcome, QuickplayScope, ReadingCheck, ScoresheetDuty,
};

/// Five minutes: below this, without 30 seconds a move, the scoresheet duty lapses (8.4).
pub const SCORESHEET_THRESHOLD_MS: u64 = 300_000;
/// Thirty seconds: the bonus that keeps the scoresheet duty under five minutes (8.4).
pub const SCORESHEET_BONUS_MS: u64 = 30_000;

/// When the clock adds the time of the next period.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PeriodTimeAdded {
    /// The clock counts presses and adds the next period's time at the press that completes
    /// the period's moves (its counter can be wrong: then the arbiter corrects it, 6.10.2).
    #[default]
    AtControlPress,
    /// The clock cannot count moves: when either display reaches 0:00 it adds the next
    /// period's time to both displays, and the arbiter checks on the scoresheets that the
    /// period's moves were completed (6.4). The DGT 3000 in its multi-period modes.
    AtZeroBothClocks,
    /// The clock cannot count moves and adds the next period's time only to the display that
    /// reached 0:00.
    AtZeroOwnClock,
}

/// When the clock credits an increment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum IncrementCredit {
    /// With the press that completes the move.
    #[default]
    AfterPress,
    /// For the move about to be played: the first increment is on the clock before move 1,
    /// and each press credits the next move's (DGT clocks: 1:30:00 + 30 s shows 1:30:30 at
    /// the start, and 1:30:55 after a five-second first move).
    BeforeMove,
}

/// How the game's clocks behave (a setting of the game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"period_time_added": "at_zero_both_clocks", "increment_credit": "before_move"}))]
pub struct ClockBehaviour {
    /// When the next period's time is added.
    #[serde(default)]
    pub period_time_added: PeriodTimeAdded,
    /// When an increment is credited.
    #[serde(default)]
    pub increment_credit: IncrementCredit,
}

impl ClockBehaviour {
    /// A DGT 3000 in a FIDE multi-period mode: adds the next period at 0:00 on both displays
    /// and credits each increment before the move.
    pub const DGT_3000_MULTI_PERIOD: ClockBehaviour = ClockBehaviour {
        period_time_added: PeriodTimeAdded::AtZeroBothClocks,
        increment_credit: IncrementCredit::BeforeMove,
    };
}

/// What the model holds for one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PlayerClock {
    /// Moves completed by a press (6.2.1).
    moves_completed: u32,
    /// The period whose time the display is counting down (its time and all before it have
    /// been credited to the display).
    clock_period: usize,
    /// What the display shows (as the model expects it, or as last read).
    display_ms: u64,
    /// The period in which the scoresheet duty lapsed (8.4), if it has.
    relieved_in_period: Option<usize>,
}

/// Each player's completed moves and period under a control, and the rulings that depend on
/// them. Pure: the caller says what was used, read and decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeriodTracker {
    control: TimeControl,
    behaviour: ClockBehaviour,
    players: BySide<PlayerClock>,
}

impl PeriodTracker {
    /// The clocks at the start of the game: the first period's time on each display (and
    /// the first increment too with [`IncrementCredit::BeforeMove`]).
    pub fn new(control: TimeControl, behaviour: ClockBehaviour) -> PeriodTracker {
        let first = control.periods.first().map_or(0, |p| p.time_ms);
        let early = match (behaviour.increment_credit, control.bonus_for_move(1)) {
            (IncrementCredit::BeforeMove, Some(bonus)) if bonus.mode == BonusMode::Increment => {
                bonus.ms
            }
            _ => 0,
        };
        let start = PlayerClock {
            display_ms: first.saturating_add(early),
            ..PlayerClock::default()
        };
        PeriodTracker {
            control,
            behaviour,
            players: BySide::new(|_| start),
        }
    }

    /// The control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// The clocks' behaviour.
    pub fn behaviour(&self) -> ClockBehaviour {
        self.behaviour
    }

    /// What the model expects `side`'s display to show.
    pub fn display_ms(&self, side: Side) -> u64 {
        self.players.get(side).display_ms
    }

    /// The moves `side` has completed (6.2.1).
    pub fn moves_completed(&self, side: Side) -> u32 {
        self.players.get(side).moves_completed
    }

    /// The period of the Laws in which `side` plays their next move.
    pub fn period(&self, side: Side) -> usize {
        let next = self.players.get(side).moves_completed.saturating_add(1);
        self.control.period_of_move(next)
    }

    /// Whether `side` is in the last period (the one for all the remaining moves).
    pub fn is_last_period(&self, side: Side) -> bool {
        self.control.is_last_period(self.period(side))
    }

    /// The time of the periods the Laws have given `side` (6.3.2) that the clock has not yet
    /// added (clocks that add them at 0:00).
    fn pending_period_time(&self, side: Side) -> u64 {
        let player = self.players.get(side);
        let period = self.period(side);
        self.control
            .periods
            .iter()
            .enumerate()
            .filter(|(index, _)| *index > player.clock_period && *index <= period)
            .map(|(_, p)| p.time_ms)
            .sum()
    }

    /// Where `side` stands in the control.
    pub fn status(&self, side: Side) -> PeriodStatus {
        let player = *self.players.get(side);
        let period = self.period(side);
        let clock_last = self.control.last_move_of_period(player.clock_period);
        PeriodStatus {
            period,
            clock_period: player.clock_period,
            moves_completed: player.moves_completed,
            moves_to_control: self
                .control
                .last_move_of_period(period)
                .map(|last| last.saturating_sub(player.moves_completed)),
            last_period: self.control.is_last_period(period),
            control_reached_on_clock: clock_last.is_some_and(|last| player.moves_completed >= last),
            display_ms: player.display_ms,
            time_left_ms: player
                .display_ms
                .saturating_add(self.pending_period_time(side)),
        }
    }

    /// `side` pressed the clock after `used_ms` on their move: the move is completed (6.2.1),
    /// the bonus of 6.3.2 applies (an increment is added; a delay spares the main time up to
    /// the delay), and when the press completes the moves of a period, a clock that counts
    /// presses adds the next period's time (6.3.2: the time saved carries over).
    pub fn press(&mut self, side: Side, used_ms: u64) -> PressOutcome {
        let number = self.players.get(side).moves_completed.saturating_add(1);
        let bonus = self.control.bonus_for_move(number);
        let period_of_move = self.control.period_of_move(number);
        let mut rules = vec![TimeRule::ClockPressCompletesMove];
        let before = self.players.get(side).display_ms;
        let (charged, increment, lowest, reached_zero) = match bonus {
            Some(b) if b.mode == BonusMode::Delay => {
                // The main time waits for the delay (6.3.2).
                rules.push(TimeRule::TimeSavedCarriesOver);
                let charged = used_ms.saturating_sub(b.ms);
                (charged, 0, before.saturating_sub(charged), charged > before)
            }
            Some(b) if b.mode == BonusMode::Bronstein => {
                // The main time runs, and up to the delay is given back at the press.
                rules.push(TimeRule::TimeSavedCarriesOver);
                let charged = used_ms.saturating_sub(b.ms);
                (charged, 0, before.saturating_sub(used_ms), used_ms > before)
            }
            Some(b) => {
                let after_press = match self.behaviour.increment_credit {
                    IncrementCredit::AfterPress => b.ms,
                    IncrementCredit::BeforeMove => 0,
                };
                (
                    used_ms,
                    after_press,
                    before.saturating_sub(used_ms),
                    used_ms > before,
                )
            }
            None => (used_ms, 0, before.saturating_sub(used_ms), used_ms > before),
        };
        let mut increment_ms = increment;
        let mut display = before.saturating_sub(charged).saturating_add(increment);

        // 8.4: under five minutes at some stage of the period, without 30 s a move.
        let time_left_low =
            lowest.saturating_add(self.pending_period_time(side)) < SCORESHEET_THRESHOLD_MS;
        let big_bonus = bonus.is_some_and(|b| b.ms >= SCORESHEET_BONUS_MS);
        if time_left_low && !big_bonus {
            self.players.get_mut(side).relieved_in_period = Some(period_of_move);
        }

        let completed_period = (self.control.last_move_of_period(period_of_move) == Some(number))
            .then_some(period_of_move);
        let mut period_time_ms = 0;
        if completed_period.is_some() {
            rules.push(TimeRule::PeriodsSpecifiedInAdvance);
            let player = self.players.get(side);
            if self.behaviour.period_time_added == PeriodTimeAdded::AtControlPress
                && player.clock_period == period_of_move
                && let Some(next) = self.control.periods.get(period_of_move + 1)
            {
                period_time_ms = next.time_ms;
                display = display.saturating_add(next.time_ms);
                self.players.get_mut(side).clock_period = period_of_move + 1;
                rules.push(TimeRule::TimeSavedCarriesOver);
            }
        }
        if self.behaviour.increment_credit == IncrementCredit::BeforeMove
            && let Some(next) = self.control.bonus_for_move(number.saturating_add(1))
            && next.mode == BonusMode::Increment
        {
            increment_ms = next.ms;
            display = display.saturating_add(next.ms);
        }
        let player = self.players.get_mut(side);
        player.moves_completed = number;
        player.display_ms = display;
        rules.dedup();
        PressOutcome {
            side,
            move_number: number,
            charged_ms: charged,
            increment_ms,
            period_time_ms,
            completed_period,
            reached_zero,
            display_ms: display,
            rules,
        }
    }

    /// Whether `side`'s display would show 0:00 after `elapsed_ms` on the move now being
    /// played: with a simple delay only once the delay and the main time are spent; with a
    /// Bronstein delay or an increment once the display is spent.
    pub fn would_flag(&self, side: Side, elapsed_ms: u64) -> bool {
        let player = self.players.get(side);
        let number = player.moves_completed.saturating_add(1);
        match self.control.bonus_for_move(number) {
            Some(b) if b.mode == BonusMode::Delay => {
                elapsed_ms > player.display_ms.saturating_add(b.ms)
            }
            _ => elapsed_ms > player.display_ms,
        }
    }

    /// A reading of `side`'s display: the clock is the fact, so the model takes it, and the
    /// difference from what the model expected is returned for the arbiter (6.10.2). The
    /// scoresheet duty of 8.4 is judged on the reading.
    pub fn record_reading(&mut self, side: Side, read_ms: u64) -> ReadingCheck {
        let expected_ms = self.players.get(side).display_ms;
        let period = self.period(side);
        let left = read_ms.saturating_add(self.pending_period_time(side));
        let number = self.players.get(side).moves_completed.saturating_add(1);
        let big_bonus = self
            .control
            .bonus_for_move(number)
            .is_some_and(|b| b.ms >= SCORESHEET_BONUS_MS);
        let player = self.players.get_mut(side);
        player.display_ms = read_ms;
        if left < SCORESHEET_THRESHOLD_MS && !big_bonus {
            player.relieved_in_period = Some(period);
        }
        ReadingCheck {
            expected_ms,
            read_ms,
        }
    }

    /// The press count a counting clock shows for `side` (its counter can be wrong: a press
    /// it missed means it has not added the period whose moves the scoresheets show were
    /// completed). The period the clock is counting follows the counter; the display is
    /// left to [`PeriodTracker::record_reading`].
    pub fn record_clock_counter(&mut self, side: Side, counted: u32) {
        let period = self.control.period_of_move(counted.saturating_add(1));
        self.players.get_mut(side).clock_period = period;
    }

    /// `side`'s display reached 0:00 (a flag fall, 6.1). The requirements of 6.3.1 are
    /// checked at once (6.4): if the moves of the period the clock was counting were
    /// completed, the game goes on and the next period's time is added (by the clock at 0:00,
    /// or by the arbiter correcting a clock whose counter missed the control, 6.10.2); if not,
    /// the player has not completed the prescribed moves in the allotted time (6.9).
    pub fn display_reached_zero(&mut self, side: Side) -> FlagFinding {
        let player = *self.players.get(side);
        let period = player.clock_period;
        let required = self.control.last_move_of_period(period);
        let reached = required.is_some_and(|last| player.moves_completed >= last);
        let next = self.control.periods.get(period + 1).copied();
        match (reached, next) {
            (true, Some(next)) => {
                let mut rules = vec![TimeRule::FlagChecksMoves, TimeRule::TimeSavedCarriesOver];
                let p = self.players.get_mut(side);
                p.display_ms = next.time_ms;
                p.clock_period = period + 1;
                let mut added_to_opponent = false;
                match self.behaviour.period_time_added {
                    PeriodTimeAdded::AtControlPress => rules.push(TimeRule::ClockSettingCorrected),
                    PeriodTimeAdded::AtZeroOwnClock => {}
                    PeriodTimeAdded::AtZeroBothClocks => {
                        let opponent = self.players.get_mut(side.opponent());
                        if opponent.clock_period == period {
                            opponent.clock_period = period + 1;
                            opponent.display_ms = opponent.display_ms.saturating_add(next.time_ms);
                            added_to_opponent = true;
                        }
                    }
                }
                FlagFinding {
                    side,
                    period,
                    moves_completed: player.moves_completed,
                    moves_required: required,
                    outcome: FlagOutcome::ControlReached {
                        time_added_ms: next.time_ms,
                        added_to_opponent,
                    },
                    move_awaiting_press: None,
                    rules,
                }
            }
            _ => {
                self.players.get_mut(side).display_ms = 0;
                FlagFinding {
                    side,
                    period,
                    moves_completed: player.moves_completed,
                    moves_required: required,
                    outcome: FlagOutcome::LossUnlessOpponentCannotMate,
                    move_awaiting_press: None,
                    rules: vec![TimeRule::FlagChecksMoves, TimeRule::FlagFall],
                }
            }
        }
    }

    /// What a flag would mean now, without changing the model (see
    /// [`PeriodTracker::display_reached_zero`]).
    pub fn flag_ruling(&self, side: Side) -> FlagFinding {
        self.clone().display_reached_zero(side)
    }

    /// Both flags down and it cannot be established which fell first (III.3.1): in a period
    /// that is not the last the game goes on (III.3.1.1), in the last it is drawn
    /// (III.3.1.2). The finding also says whether the game is within Guidelines III at all
    /// (III.2.2: standard or rapid, without increment) and whether each player had completed
    /// the period's moves (6.4).
    pub fn both_flags_order_unknown(&self) -> BothFlagsFinding {
        let periods = BySide::new(|side| self.players.get(side).clock_period);
        let control_reached = BySide::new(|side| {
            let player = self.players.get(side);
            self.control
                .last_move_of_period(player.clock_period)
                .is_some_and(|last| player.moves_completed >= last)
        });
        let last = BySide::new(|side| self.control.is_last_period(*periods.get(side)));
        let (outcome, rule) = match (last.white, last.black) {
            (true, true) => (BothFlagsOutcome::Drawn, Some(TimeRule::BothFlagsDrawn)),
            (false, false) => (
                BothFlagsOutcome::GameContinues,
                Some(TimeRule::BothFlagsContinue),
            ),
            _ => (BothFlagsOutcome::ArbiterDecides, None),
        };
        let within_guidelines =
            !self.control.has_bonus() && self.control.kind != TimeControlKind::Blitz;
        let mut rules: Vec<TimeRule> = rule.into_iter().collect();
        rules.push(TimeRule::GuidelinesScope);
        BothFlagsFinding {
            outcome,
            periods,
            control_reached,
            within_guidelines,
            rules,
        }
    }

    /// Whether the quickplay finish of Guidelines III can apply to `side` now: only in the
    /// last period, the phase "when all the remaining moves must be completed in a limited
    /// time" (III.1), and only without increment and not in blitz (III.2.2). Whether the
    /// event announced Guidelines III (III.2.1) is the caller's to add.
    pub fn quickplay_scope(&self, side: Side) -> QuickplayScope {
        let period = self.period(side);
        let last = self.control.is_last_period(period);
        let without_bonus = self
            .control
            .periods
            .get(period)
            .is_some_and(|p| p.bonus.is_none());
        QuickplayScope {
            applies: last && without_bonus && self.control.kind != TimeControlKind::Blitz,
            rules: vec![
                TimeRule::QuickplayFinishDefinition,
                TimeRule::GuidelinesScope,
            ],
        }
    }

    /// Whether `side` must keep score now: in rapid and blitz never (A.2; blitz through 2023
    /// B.3 / 2018 B.4, the rules for games not supervised one arbiter to a game, which is the
    /// usual case; under 2023 B.2 the Competitive Rules apply, where 8.4 relieves a blitz
    /// player anyway once under five minutes); in standard play always, except for the rest
    /// of a period in which the player had less than five minutes (2018: "at some stage in a
    /// period"; 2023: "during an allotted period of time") without 30 seconds or more added
    /// with each move (8.4). A delay of 30 seconds counts as additional time like an
    /// increment. "Left on his/her clock" is read as the time the Laws give the player, so
    /// on a clock that adds the next period only at 0:00, the period time still to come
    /// counts.
    pub fn scoresheet_duty(&self, side: Side) -> ScoresheetDuty {
        match self.control.kind {
            TimeControlKind::Rapid => ScoresheetDuty {
                must_record: false,
                rules: vec![TimeRule::RapidNoScoresheet],
            },
            TimeControlKind::Blitz => ScoresheetDuty {
                must_record: false,
                rules: vec![TimeRule::BlitzFollowsRapid, TimeRule::RapidNoScoresheet],
            },
            TimeControlKind::Standard => {
                let relieved = self.players.get(side).relieved_in_period == Some(self.period(side));
                ScoresheetDuty {
                    must_record: !relieved,
                    rules: if relieved {
                        vec![TimeRule::ScoresheetDutyLapses]
                    } else {
                        Vec::new()
                    },
                }
            }
        }
    }

    /// 8.6: the scoresheets cannot be brought up to date to show that `side` overstepped the
    /// time of the period the clock was counting, so the next move is the first of the
    /// following period, unless `evidence_moves` shows more moves were completed. The
    /// following period's time is credited if the clock has not added it.
    pub fn move_count_unknown(
        &mut self,
        side: Side,
        evidence_moves: Option<u32>,
    ) -> Result<MoveCountRuling, MoveCountError> {
        let player = *self.players.get(side);
        let Some(last) = self.control.last_move_of_period(player.clock_period) else {
            return Err(MoveCountError::LastPeriod(side.name()));
        };
        let counted = last
            .max(player.moves_completed)
            .max(evidence_moves.unwrap_or(0));
        let mut ruling = self.set_moves_completed(side, counted);
        ruling.rules = vec![TimeRule::UnknownMoveCount];
        Ok(ruling)
    }

    /// The arbiter's count of `side`'s completed moves (a reconstruction under 8.5, or a
    /// corrected move counter under 6.10.2). Period time the Laws now give and the clock has
    /// not added is credited; a counter set back does not take credited time away (that is an
    /// adjustment of the times the arbiter records separately).
    pub fn set_moves_completed(&mut self, side: Side, moves: u32) -> MoveCountRuling {
        let pending_before = {
            let player = self.players.get_mut(side);
            player.moves_completed = moves;
            player.clock_period
        };
        let period = self.period(side);
        let mut time_added_ms = 0;
        if period > pending_before {
            time_added_ms = self.pending_period_time(side);
            let player = self.players.get_mut(side);
            player.display_ms = player.display_ms.saturating_add(time_added_ms);
            player.clock_period = period;
        }
        MoveCountRuling {
            side,
            moves_completed: moves,
            period,
            time_added_ms,
            rules: vec![TimeRule::ClockSettingCorrected],
        }
    }
}

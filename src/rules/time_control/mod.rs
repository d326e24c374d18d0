//! Time controls as the Laws define them: a list of periods (Article 6.3.1), each with its
//! time, its number of moves or "the rest of the game", and a per-move bonus (an increment,
//! or the time-delay mode of 6.3.2).
//!
//! Why: a game's control used to be one base time and one increment. That is right for rapid
//! and blitz and wrong for nearly every FIDE-rated standard game ("90 minutes for 40 moves,
//! then 30 minutes, with 30 seconds a move from move 1"), and the rulings that depend on the
//! period (a flag at move 38 loses, a flag after move 40 was completed does not, 6.4 and 6.9;
//! both flags in a period that is not the last, III.3.1; the scoresheet duty of 8.4; 8.6)
//! cannot be right without the periods. This module is the pure model:
//!
//! * [`TimeControlSpec`]: the wire form (serde, OpenAPI). It accepts the old one-period form
//!   (`kind`, `base_ms`, `increment_ms`) unchanged, a list of `periods`, or a named `preset`.
//! * [`TimeControl`]: a resolved control. [`TimeControl::from_legacy`] turns the old form into
//!   one period without loss and without judging it (stored games read as they always did);
//!   [`TimeControlSpec::validate`] refuses what no clock can run ([`TimeControlError`]) and a
//!   stated rate of play that contradicts the control.
//! * [`TimeControl::rate_of_play`]: standard, rapid or blitz by Appendices A.1 and B.1.
//! * [`Preset`]: the common FIDE controls.
//! * [`tracker`]: each player's completed moves and period during a game, and the rulings
//!   that depend on them. [`articles`]: the article numbers per edition.
//!
//! Nothing here reads a clock: times are what the caller says was used or read.
//!
//! Here: the periods, the wire form and the resolved control. The presets are in
//! `presets.rs`, the rate of play (A.1, B.1) in `rate_of_play.rs`, the checks of what a
//! clock can run (6.3.1) and the refusals in `checks.rs`.

pub mod articles;
mod checks;
mod presets;
mod rate_of_play;
#[cfg(test)]
mod tests;
pub mod tracker;

pub use checks::{TimeControlError, check_periods};
pub use presets::Preset;
pub use rate_of_play::{KindName, RateOfPlay, kind_name, rate_of};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::rules::laws::TimeControlKind;

/// The longest time a period may give, in milliseconds (24 hours, the bound the one-period
/// form has always had).
pub const MAX_PERIOD_MS: u64 = 86_400_000;
/// The largest per-move bonus, in milliseconds (one hour, the bound of the one-period form).
pub const MAX_BONUS_MS: u64 = 3_600_000;
/// The most periods a control may have. The title-match control has three; no clock the
/// service knows of offers more than five.
pub const MAX_PERIODS: usize = 8;
/// The most moves a period may require.
pub const MAX_PERIOD_MOVES: u32 = 200;
/// The latest move from which a bonus may start. The longest tournament game on record went
/// 269 moves (Nikolić-Arsović, Belgrade 1989); a bonus that starts after move 300 would never
/// be given.
pub const MAX_BONUS_FROM_MOVE: u32 = 300;
/// The number of moves Appendices A.1 and B.1 multiply the increment by.
pub const RATE_MOVES: u32 = 60;
/// Blitz: 10 minutes or less (B.1).
pub const BLITZ_MAX_MS: u64 = 600_000;
/// Standard: 60 minutes or more (rapid is less than 60 minutes, A.1).
pub const STANDARD_MIN_MS: u64 = 3_600_000;

/// How the per-move bonus is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BonusMode {
    /// Fischer increment: the bonus is added to the player's time with each move, and time
    /// saved carries over (6.3.1 "including any additional amount of time with each move",
    /// 6.3.2).
    Increment,
    /// Bronstein delay (the time-delay mode of 6.3.2, as most clocks run it): the main time
    /// runs from the start of the move and the time used, up to the delay, is given back at
    /// the press. A press inside the delay leaves the main time unchanged.
    Bronstein,
    /// Simple (US) delay (6.3.2 "the countdown of the main thinking time only commences
    /// after the fixed extra time has expired"): the main time waits for the delay to run
    /// out. A press inside the delay leaves the main time unchanged.
    Delay,
}

/// The per-move bonus of a period.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"mode": "increment", "ms": 30_000}))]
pub struct Bonus {
    /// Increment or delay.
    pub mode: BonusMode,
    /// The bonus per move, in milliseconds (at most an hour).
    #[schema(minimum = 1, maximum = 3_600_000)]
    pub ms: u64,
    /// The first move (counted from move 1 of the game) that gets the bonus; the first move
    /// of the period when absent. "30 seconds per move from move 61" in the title-match
    /// control is the bonus of its third period, which starts at move 61.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 300)]
    pub from_move: Option<u32>,
}

impl Bonus {
    /// A Fischer increment of `ms` from the first move of its period.
    pub const fn increment(ms: u64) -> Bonus {
        Bonus {
            mode: BonusMode::Increment,
            ms,
            from_move: None,
        }
    }
}

/// One period of a control (6.3.1: "a minimum number of moves or all moves in an allotted
/// period of time").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"time_ms": 5_400_000, "moves": 40, "bonus": {"mode": "increment", "ms": 30_000}}))]
pub struct Period {
    /// The time the period gives, in milliseconds (added to what is left of the previous
    /// period, 6.3.2).
    #[schema(minimum = 0, maximum = 86_400_000)]
    pub time_ms: u64,
    /// The moves to complete in the period; absent for "the rest of the game" (only the
    /// last period).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 200)]
    pub moves: Option<u32>,
    /// The per-move bonus in this period, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<Bonus>,
}

/// A time control as clients send it and as it is stored: the old one-period form, a list
/// of periods, or a preset (exactly one of the three).
///
/// In the OpenAPI document it keeps the name the one-period form always had there,
/// `TimeControl`, so that clients generated before periods existed still compile and run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TimeControl, example = json!({"kind": "standard", "periods": [
    {"time_ms": 5_400_000, "moves": 40, "bonus": {"mode": "increment", "ms": 30_000}},
    {"time_ms": 1_800_000, "bonus": {"mode": "increment", "ms": 30_000}}
]}))]
pub struct TimeControlSpec {
    /// Standard, rapid or blitz. Follows from the control when absent (Appendices A.1 and
    /// B.1); refused when it contradicts the control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<TimeControlKind>,
    /// One-period form: each player's time for the whole game in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 86_400_000)]
    pub base_ms: Option<u64>,
    /// One-period form: the increment per move from move 1 in milliseconds (0 for none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 3_600_000)]
    pub increment_ms: Option<u64>,
    /// The periods in order; the last is for the rest of the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub periods: Option<Vec<Period>>,
    /// A named FIDE control instead of the periods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
}

/// A control whose form is resolved: its rate of play and its periods.
///
/// Serialises as a [`TimeControlSpec`]: in the one-period form when it has one period and at
/// most an increment from move 1 (so stored games and old clients see what they always saw),
/// else with its periods.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "TimeControlSpec", try_from = "TimeControlSpec")]
pub struct TimeControl {
    /// The rate of play that governs the game (stated, or derived when not stated).
    pub kind: TimeControlKind,
    /// The periods in order.
    pub periods: Vec<Period>,
}

/// The periods with a bonus start that is its period's first move written as absent (the
/// same control either way: "30 s from move 61" on the period that starts at move 61).
fn normalise(mut periods: Vec<Period>) -> Vec<Period> {
    let ranges = period_ranges(&periods);
    for (period, (first, _)) in periods.iter_mut().zip(ranges) {
        if let Some(bonus) = period.bonus.as_mut()
            && bonus.from_move == Some(first)
        {
            bonus.from_move = None;
        }
    }
    periods
}

/// The first move of each period (move 1 for the first), and the last (`None` for the rest
/// of the game).
fn period_ranges(periods: &[Period]) -> Vec<(u32, Option<u32>)> {
    let mut first = 1u32;
    let mut ranges = Vec::with_capacity(periods.len());
    for period in periods {
        match period.moves {
            Some(moves) => {
                let last = first.saturating_add(moves.saturating_sub(1));
                ranges.push((first, Some(last)));
                first = last.saturating_add(1);
            }
            None => {
                ranges.push((first, None));
                first = u32::MAX;
            }
        }
    }
    ranges
}

/// The index of the period in which move `number` (1 for the first) is played; the last
/// period for any move beyond the moves of the others.
pub fn period_of_move(periods: &[Period], number: u32) -> usize {
    period_ranges(periods)
        .iter()
        .position(|&(first, last)| number >= first && last.is_none_or(|last| number <= last))
        .unwrap_or(periods.len().saturating_sub(1))
}

/// The bonus move `number` (1 for the first) receives, if any.
pub fn bonus_for_move(periods: &[Period], number: u32) -> Option<Bonus> {
    let index = period_of_move(periods, number);
    let (first, _) = *period_ranges(periods).get(index)?;
    let bonus = periods.get(index)?.bonus?;
    (number >= bonus.from_move.unwrap_or(first)).then_some(bonus)
}

impl TimeControl {
    /// The old one-period form as a control, without loss and without judging it: the
    /// stated kind is kept even where the control contradicts it, so that a stored game
    /// reads, and is audited, exactly as it was recorded.
    pub fn from_legacy(kind: TimeControlKind, base_ms: u64, increment_ms: u64) -> TimeControl {
        TimeControl {
            kind,
            periods: vec![Period {
                time_ms: base_ms,
                moves: None,
                bonus: (increment_ms > 0).then_some(Bonus::increment(increment_ms)),
            }],
        }
    }

    /// The old one-period form (`kind`, `base_ms`, `increment_ms`) when the control has one:
    /// a single period with no bonus or an increment from move 1.
    pub fn as_legacy(&self) -> Option<(TimeControlKind, u64, u64)> {
        match self.periods.as_slice() {
            [
                Period {
                    time_ms,
                    moves: None,
                    bonus,
                },
            ] => match bonus {
                None => Some((self.kind, *time_ms, 0)),
                Some(Bonus {
                    mode: BonusMode::Increment,
                    ms,
                    from_move: None | Some(1),
                }) => Some((self.kind, *time_ms, *ms)),
                Some(_) => None,
            },
            _ => None,
        }
    }

    /// The control with the given periods, its kind derived from them, after the checks of
    /// [`check_periods`].
    pub fn from_periods(periods: Vec<Period>) -> Result<TimeControl, TimeControlError> {
        let periods = normalise(periods);
        check_periods(&periods)?;
        let kind = rate_of(&periods).kind;
        Ok(TimeControl { kind, periods })
    }

    /// The rate of play by A.1 and B.1 (see [`rate_of`]).
    pub fn rate_of_play(&self) -> RateOfPlay {
        rate_of(&self.periods)
    }

    /// Refuses what no clock can run ([`check_periods`]) and a kind that contradicts the
    /// rate of play.
    pub fn validate(&self) -> Result<(), TimeControlError> {
        check_periods(&self.periods)?;
        let rate = self.rate_of_play();
        if rate.kind != self.kind {
            let article = match rate.kind {
                TimeControlKind::Blitz => "B.1",
                TimeControlKind::Rapid | TimeControlKind::Standard => "A.1",
            };
            return Err(TimeControlError::KindContradicts {
                stated: KindName(self.kind),
                derived: KindName(rate.kind),
                article,
                minutes: minutes_text(rate.time_for_60_moves_ms),
            });
        }
        Ok(())
    }

    /// The index of the period in which move `number` is played.
    pub fn period_of_move(&self, number: u32) -> usize {
        period_of_move(&self.periods, number)
    }

    /// The bonus move `number` receives, if any.
    pub fn bonus_for_move(&self, number: u32) -> Option<Bonus> {
        bonus_for_move(&self.periods, number)
    }

    /// The last move of period `index` (the move that completes it), `None` for the rest of
    /// the game.
    pub fn last_move_of_period(&self, index: usize) -> Option<u32> {
        period_ranges(&self.periods)
            .get(index)
            .and_then(|&(_, last)| last)
    }

    /// The first move of period `index`.
    pub fn first_move_of_period(&self, index: usize) -> u32 {
        period_ranges(&self.periods)
            .get(index)
            .map_or(1, |&(first, _)| first)
    }

    /// Whether period `index` is the last one (the rest of the game).
    pub fn is_last_period(&self, index: usize) -> bool {
        index + 1 >= self.periods.len()
    }

    /// Whether any period has a bonus (Guidelines III are for games without increment,
    /// III.2.2).
    pub fn has_bonus(&self) -> bool {
        self.periods.iter().any(|p| p.bonus.is_some())
    }
}

/// "90 min", "1 h 30 min", "2 min 30 s": a duration for messages.
pub fn minutes_text(ms: u64) -> String {
    let seconds = ms / 1000;
    let (h, m, s) = (seconds / 3600, (seconds % 3600) / 60, seconds % 60);
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(format!("{h} h"));
    }
    if m > 0 {
        parts.push(format!("{m} min"));
    }
    if s > 0 || parts.is_empty() {
        parts.push(format!("{s} s"));
    }
    parts.join(" ")
}

impl TimeControlSpec {
    /// The control this spec names, without judging whether a clock can run it or whether
    /// the stated kind fits (see [`TimeControlSpec::validate`]). The one-period form becomes
    /// one period ([`TimeControl::from_legacy`]); a kind that is not stated is derived.
    pub fn resolve(&self) -> Result<TimeControl, TimeControlError> {
        let legacy = self.base_ms.is_some() || self.increment_ms.is_some();
        let forms: Vec<&str> = [
            (legacy, "base_ms"),
            (self.periods.is_some(), "periods"),
            (self.preset.is_some(), "preset"),
        ]
        .iter()
        .filter(|(given, _)| *given)
        .map(|(_, name)| *name)
        .collect();
        if forms.len() > 1 {
            return Err(TimeControlError::MixedForms(forms.join(", ")));
        }
        let periods = if let Some(base_ms) = self.base_ms {
            TimeControl::from_legacy(
                TimeControlKind::Standard,
                base_ms,
                self.increment_ms.unwrap_or(0),
            )
            .periods
        } else if self.increment_ms.is_some() {
            return Err(TimeControlError::IncrementWithoutBase);
        } else if let Some(periods) = &self.periods {
            periods.clone()
        } else if let Some(preset) = self.preset {
            preset.periods()
        } else {
            return Err(TimeControlError::NoForm);
        };
        let periods = normalise(periods);
        let kind = match self.kind {
            Some(kind) => kind,
            None => rate_of(&periods).kind,
        };
        Ok(TimeControl { kind, periods })
    }

    /// The control, refused when no clock can run it or when the stated kind contradicts it
    /// (for new games; stored games are read with [`TimeControlSpec::resolve`]).
    pub fn validate(&self) -> Result<TimeControl, TimeControlError> {
        let control = self.resolve()?;
        control.validate()?;
        Ok(control)
    }
}

impl From<TimeControl> for TimeControlSpec {
    fn from(control: TimeControl) -> TimeControlSpec {
        match control.as_legacy() {
            Some((kind, base_ms, increment_ms)) => TimeControlSpec {
                kind: Some(kind),
                base_ms: Some(base_ms),
                increment_ms: Some(increment_ms),
                periods: None,
                preset: None,
            },
            None => TimeControlSpec {
                kind: Some(control.kind),
                base_ms: None,
                increment_ms: None,
                periods: Some(control.periods),
                preset: None,
            },
        }
    }
}

impl TryFrom<TimeControlSpec> for TimeControl {
    type Error = TimeControlError;

    fn try_from(spec: TimeControlSpec) -> Result<TimeControl, TimeControlError> {
        spec.resolve()
    }
}

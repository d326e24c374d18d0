//! Article 6 as the engine keeps it: the clock times last read, with the extra time the
//! rulings give (7.5.5, 9.5.3, Guidelines III) and the arbiter's adjustments, and the
//! increment in force (the time control's, or five seconds granted under Guidelines III.4).
//!
//! The engine does not run the clocks: it keeps what was read off them (a `clock_press`, or
//! the `clock` reading recorded with any event) and what the rulings added since.

use crate::rules::side::{BySide, Side};
use crate::rules::time_control::TimeControl;
use crate::rules::time_control::tracker::{ClockBehaviour, PeriodTracker};

use super::aggregate::CorruptLog;
use super::event::{ArbiterRuling, ClockReading, Event, RecordedEvent, ServiceEvent};
use super::parts::{Fold, FoldContext};
use super::quickplay::GRANTED_INCREMENT_MS;
use super::view::ClockTimes;

/// The clocks as the engine knows them.
#[derive(Clone, Debug)]
pub(super) struct Clocks {
    times: BySide<Option<u64>>,
    /// Whether a reading of each player's clock has been recorded (before that, the time is
    /// the base time of the time control, an assumption rather than a reading).
    read: BySide<bool>,
    increment_ms: u64,
}

impl Clocks {
    /// Both clocks at the first period's time (with the first increment too on clocks that
    /// credit it before the move), and the increment of the last period: the one-period
    /// control's own increment, and the one the quickplay finish of the last period is judged
    /// with (III.2.2).
    pub(super) fn new(control: &TimeControl, behaviour: ClockBehaviour) -> Clocks {
        let tracker = PeriodTracker::new(control.clone(), behaviour);
        let start = BySide::new(|side| Some(tracker.display_ms(side)));
        Clocks {
            times: start,
            read: BySide::default(),
            increment_ms: control
                .periods
                .last()
                .and_then(|p| p.bonus)
                .map_or(0, |b| b.ms),
        }
    }

    /// These clocks with `reading`, if any, observed (for judging an event recorded with a
    /// reading, before it is folded).
    pub(super) fn with_reading(&self, reading: Option<&ClockReading>) -> Clocks {
        let mut clocks = self.clone();
        if let Some(reading) = reading {
            clocks.observe(reading);
        }
        clocks
    }

    /// A reading off the clock: the times shown replace what the engine kept.
    fn observe(&mut self, reading: &ClockReading) {
        self.set(Side::White, reading.white_ms);
        self.set(Side::Black, reading.black_ms);
    }

    /// The times read at a clock press.
    fn pressed(&mut self, white_ms: Option<u64>, black_ms: Option<u64>) {
        self.set(Side::White, white_ms);
        self.set(Side::Black, black_ms);
    }

    fn set(&mut self, side: Side, ms: Option<u64>) {
        if let Some(ms) = ms {
            *self.times.get_mut(side) = Some(ms);
            *self.read.get_mut(side) = true;
        }
    }

    /// Time added (a penalty for the opponent, 7.5.5, 9.5.3) or, when negative, removed.
    fn adjust(&mut self, side: Side, delta_ms: i64) {
        if let Some(ms) = self.times.get_mut(side) {
            *ms = ms.saturating_add_signed(delta_ms);
        }
    }

    /// Extra time given to `side`.
    fn add(&mut self, side: Side, ms: u64) {
        if let Some(time) = self.times.get_mut(side) {
            *time = time.saturating_add(ms);
        }
    }

    /// Extra time taken back (void, as after an incorrect claim accepted as an offer).
    fn take_back(&mut self, side: Side, ms: u64) {
        if let Some(time) = self.times.get_mut(side) {
            *time = time.saturating_sub(ms);
        }
    }

    /// The time `side` has left, when a reading of that clock has been recorded.
    pub(super) fn read_time(&self, side: Side) -> Option<u64> {
        if *self.read.get(side) {
            *self.times.get(side)
        } else {
            None
        }
    }

    /// The increment in force.
    pub(super) fn increment_ms(&self) -> u64 {
        self.increment_ms
    }

    /// From now on both players have this increment (Guidelines III.4).
    fn set_increment(&mut self, increment_ms: u64) {
        self.increment_ms = increment_ms;
    }

    /// The times as shown to the arbiter.
    pub(super) fn times(&self) -> ClockTimes {
        ClockTimes {
            white_ms: self.times.white,
            black_ms: self.times.black,
        }
    }
}

impl Fold for Clocks {
    /// A reading recorded with any event, and a `clock_press`, replace the times kept; the
    /// extra time of a penalty is added (7.5.5, 9.5.3, III), or taken back when it becomes
    /// void (9.1.2.3); the arbiter adjusts the clocks, or grants an increment (III.4).
    fn apply(&mut self, ctx: &FoldContext<'_>, event: &Event) -> Result<(), CorruptLog> {
        if let Some(reading) = ctx.clock {
            self.observe(reading);
        }
        match event {
            Event::Recorded(RecordedEvent::ClockPress {
                white_ms, black_ms, ..
            }) => self.pressed(*white_ms, *black_ms),
            Event::Recorded(RecordedEvent::ClockAdjust { side, delta_ms, .. }) => {
                self.adjust(*side, *delta_ms)
            }
            Event::Recorded(RecordedEvent::DrawAccept { .. }) => {
                // 9.1.2.3 (REP-17): the extra time for the incorrect claim is void.
                if let Some((side, add_ms)) = ctx.void_extra_time {
                    self.take_back(side, add_ms);
                }
            }
            Event::Recorded(RecordedEvent::ArbiterDecision {
                decision: ArbiterRuling::IncrementGranted,
                increment_ms,
                ..
            }) => self.set_increment(increment_ms.unwrap_or(GRANTED_INCREMENT_MS)),
            Event::Service(ServiceEvent::PenaltyApplied { side, add_ms, .. }) => {
                self.add(*side, *add_ms)
            }
            _ => {}
        }
        Ok(())
    }
}

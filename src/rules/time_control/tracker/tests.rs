//! The tracker against the clocks' two habits and the last period.

use super::*;
use crate::rules::time_control::Preset;

#[test]
fn a_counting_clock_adds_thirty_minutes_at_the_press_that_completes_move_forty() {
    let mut t = PeriodTracker::new(Preset::FideStandard.control(), ClockBehaviour::default());
    for _ in 0..39 {
        t.press(Side::White, 60_000);
    }
    let before = t.display_ms(Side::White);
    let press = t.press(Side::White, 60_000);
    assert_eq!(press.completed_period, Some(0));
    assert_eq!(press.period_time_ms, 1_800_000);
    assert_eq!(
        t.display_ms(Side::White),
        before - 60_000 + 30_000 + 1_800_000
    );
    assert_eq!(t.period(Side::White), 1);
    assert!(t.is_last_period(Side::White));
}

#[test]
fn a_flag_in_the_last_period_loses_whatever_the_move_count() {
    let mut t = PeriodTracker::new(Preset::Blitz3Plus2.control(), ClockBehaviour::default());
    t.press(Side::White, 1_000);
    let flag = t.display_reached_zero(Side::White);
    assert_eq!(flag.outcome, FlagOutcome::LossUnlessOpponentCannotMate);
    assert_eq!(flag.moves_required, None);
    assert!(flag.reason().contains("last period"), "{}", flag.reason());
}

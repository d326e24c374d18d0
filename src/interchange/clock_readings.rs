//! How a game's clocks behaved, read from its `[%clk]` readings (issue 36): when the
//! increment was credited and when the next period's time was added, for the PGN import
//! (`super::pgn_import`), and the words its notes use for a clock behaviour.

use pgn_reader::SanPlus;
use shakmaty::{Chess, Color, Position};

use crate::rules::time_control::TimeControl;
use crate::rules::time_control::tracker::{ClockBehaviour, IncrementCredit, PeriodTimeAdded};

/// How the clocks behaved, as far as the `[%clk]` readings show it (issue 36), with a note
/// for the report; `None` when they do not show it (the default clock is kept).
///
/// * **Increment before the move** (the DGT habit): a reading in the first period above the
///   most a clock that credits after the press can show (the first period's time and one
///   increment for each move made) is read only by a clock that credited the next move's
///   increment already. Judged from the standard start only.
/// * **When the next period is added**: at the control move (the 40th of 90/40 + 30) a
///   clock that counts presses shows the next period's time at once; a clock that adds it
///   at 0:00 shows no jump. A jump of more than half the next period's time from the
///   player's previous reading is the former, anything less the latter (both displays: the
///   DGT 3000's multi-period modes).
pub fn clock_behaviour_of(
    control: &TimeControl,
    start: &Chess,
    moves: &[(SanPlus, Option<u64>)],
) -> Option<(ClockBehaviour, String)> {
    let increment = |number: u32| {
        control
            .bonus_for_move(number)
            .filter(|b| b.mode == crate::rules::time_control::BonusMode::Increment)
            .map_or(0, |b| b.ms)
    };
    let first_ms = control.periods.first().map(|p| p.time_ms)?;
    let control_move = (control.periods.len() > 1)
        .then(|| control.last_move_of_period(0))
        .flatten();
    let standard_start = *start == Chess::default();
    let before_count = start.fullmoves().get().saturating_sub(1);
    let mut number = [before_count, before_count];
    if start.turn() == Color::Black {
        number[0] += 1;
    }
    let mut previous: [Option<(u32, u64)>; 2] = [None, None];
    let mut bound = [first_ms, first_ms];
    let mut before_move = false;
    let mut added: Option<PeriodTimeAdded> = None;
    let mut turn = start.turn();
    for (_, reading) in moves {
        let index = usize::from(turn == Color::Black);
        number[index] += 1;
        let n = number[index];
        bound[index] = bound[index].saturating_add(increment(n));
        if let Some(ms) = *reading {
            let in_first_period = control_move.is_none_or(|last| n < last);
            if standard_start && in_first_period && ms > bound[index].saturating_add(1_000) {
                before_move = true;
            }
            if let (Some(last), Some((prev_n, prev_ms))) = (control_move, previous[index])
                && n == last
                && prev_n + 1 == last
                && let Some(next) = control.periods.get(1)
            {
                let jump = ms.saturating_sub(prev_ms);
                added = Some(if jump > next.time_ms / 2 {
                    PeriodTimeAdded::AtControlPress
                } else {
                    PeriodTimeAdded::AtZeroBothClocks
                });
            }
            previous[index] = Some((n, ms));
        }
        turn = !turn;
    }
    if !before_move && added.is_none_or(|a| a == PeriodTimeAdded::AtControlPress) {
        return None;
    }
    let behaviour = ClockBehaviour {
        period_time_added: added.unwrap_or_default(),
        increment_credit: if before_move {
            IncrementCredit::BeforeMove
        } else {
            IncrementCredit::AfterPress
        },
    };
    let mut said = Vec::new();
    if before_move {
        said.push("each increment credited before the move (a reading in the first period shows more than the period's time and the increments of the moves made)");
    }
    if added == Some(PeriodTimeAdded::AtZeroBothClocks) {
        said.push(
            "the next period added when a display reaches 0:00 (no jump at the control move)",
        );
    }
    Some((
        behaviour,
        format!(
            "The clock readings show a clock with {}: the game is imported with that clock behaviour.",
            said.join(" and ")
        ),
    ))
}

/// `behaviour` in words, for the import's notes.
pub(super) fn describe_behaviour(behaviour: ClockBehaviour) -> String {
    let added = match behaviour.period_time_added {
        PeriodTimeAdded::AtControlPress => {
            "the next period added at the press that completes the period's moves"
        }
        PeriodTimeAdded::AtZeroBothClocks => {
            "the next period added to both displays when one reaches 0:00"
        }
        PeriodTimeAdded::AtZeroOwnClock => {
            "the next period added to a display when it reaches 0:00"
        }
    };
    let credit = match behaviour.increment_credit {
        IncrementCredit::AfterPress => "each increment credited after the press",
        IncrementCredit::BeforeMove => "each increment credited before the move",
    };
    format!("{added}, {credit}")
}

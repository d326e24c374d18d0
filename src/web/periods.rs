//! The time control's periods as the back office shows them (issue 18): for each player the
//! period, the moves to the control, the "control reached" marker and the scoresheet duty
//! (8.4), and the clock readings that do not fit the control. Everything here is read off the
//! game view the engine computed ([`crate::game::view::PeriodsView`]); the article numbers
//! come from the table of [`crate::rules::time_control::articles`].

use super::layout;
use crate::game::GameView;
use crate::game::event::{LawsEdition, Side, TimeControl, TimeControlKind};
use crate::game::view::{DiscrepancyKind, PlayerPeriod, ReadingDiscrepancy};
use crate::rules::time_control::articles::{TimeRule, citation};
use crate::rules::time_control::minutes_text;
use maud::{Markup, html};

/// A player's place in the control.
fn player(view: &GameView, side: Side) -> &PlayerPeriod {
    match side {
        Side::White => &view.time_control.white,
        Side::Black => &view.time_control.black,
    }
}

/// Whether the control has more than one period (a one-period game shows no period).
pub fn has_periods(view: &GameView) -> bool {
    view.time_control.periods > 1
}

/// Whether `side`'s scoresheet duty lapsed under 8.4 (in standard play; rapid and blitz
/// players have none at all, A.2, which is not news on the floor).
pub fn duty_lapsed(view: &GameView, control: &TimeControl, side: Side) -> bool {
    control.kind == TimeControlKind::Standard && !player(view, side).must_keep_score
}

/// The move that completes the period the clock of a player who reached the control is still
/// counting (`clock_period` is 1 for the first).
fn control_move(control: &TimeControl, p: &PlayerPeriod) -> Option<u32> {
    control.last_move_of_period(p.clock_period.saturating_sub(1))
}

/// The line under a clock on the round floor: `P1 · 12 to go`, `P2 · last period`, or the
/// "control reached" marker. Nothing for a one-period control.
pub fn floor_caption(view: &GameView, control: &TimeControl, side: Side) -> Markup {
    if !has_periods(view) {
        return html! {};
    }
    let p = player(view, side);
    let n = view.time_control.periods;
    let who = layout::side_name(side);
    html! {
        @if p.control_reached {
            span.period.reached title={ (who) " completed the moves of period " (p.clock_period)
                ": a flag now does not lose; the next period is added when the display reaches 0:00" } {
                "✓ control" @if let Some(last) = control_move(control, p) { " " (last) }
            }
        } @else if let Some(to_go) = p.moves_to_control {
            span class={ "period" @if to_go <= 5 { " near" } }
                title={ (who) ": period " (p.period) " of " (n) ", " (to_go) " moves to complete by move " (p.moves_completed + to_go) } {
                "P" (p.period) " · " (to_go) " to go"
            }
        } @else {
            span.period title={ (who) ": period " (p.period) " of " (n) ", all the remaining moves" } {
                "P" (p.period) " · last"
            }
        }
    }
}

/// The floor's badges for the time control: a scoresheet duty that lapsed (8.4).
pub fn floor_badges(view: &GameView, control: &TimeControl, edition: LawsEdition) -> Markup {
    let lapses = citation(edition, &[TimeRule::ScoresheetDutyLapses]);
    html! {
        @for side in [Side::White, Side::Black] {
            @if view.result.is_none() && duty_lapsed(view, control, side) {
                (layout::badge("score", &format!("{} need not keep score ({lapses})", layout::side_name(side))))
            }
        }
    }
}

/// The desk's table of both players' place in the control. With one period only a lapsed
/// scoresheet duty is shown (nothing else changes during such a game).
pub fn desk_table(view: &GameView, control: &TimeControl, edition: LawsEdition) -> Markup {
    let periods = has_periods(view);
    let lapsed = [Side::White, Side::Black]
        .iter()
        .any(|&side| duty_lapsed(view, control, side));
    if !periods && !lapsed {
        return html! {};
    }
    let n = view.time_control.periods;
    let sides = [Side::White, Side::Black];
    let reached = sides.iter().any(|&side| player(view, side).control_reached);
    let cite = |rules: &[TimeRule]| citation(edition, rules);
    let period_cell = |p: &PlayerPeriod| {
        html! {
            (p.period) " of " (n) @if p.last_period { " (last)" }
            @if p.clock_period != p.period { br; span.hint { "the clock: period " (p.clock_period) } }
        }
    };
    let control_cell = |p: &PlayerPeriod| {
        html! {
            @if p.control_reached {
                strong.reached { "✓ reached" }
                @if let Some(last) = control_move(control, p) { " at move " (last) }
            } @else if let Some(to_go) = p.moves_to_control {
                span class={ @if to_go <= 5 { "near" } } { (to_go) " to go" }
                " (move " (p.moves_completed + to_go) ")"
            } @else {
                "all remaining moves"
            }
        }
    };
    let duty_cell = |side: Side| {
        let p = player(view, side);
        html! {
            @if p.must_keep_score {
                "must keep score"
            } @else {
                span class={ @if duty_lapsed(view, control, side) { "lapsed" } } {
                    "need not"
                    @if let Some(article) = &p.scoresheet_article { " (" (article) ")" }
                }
            }
        }
    };
    html! {
        table.periods #periods {
            caption { "Time control" }
            thead { tr { th {} th { "White" } th { "Black" } } }
            tbody {
                @if periods {
                    tr.period { th { "Period" } @for side in sides { td class=(side.name()) { (period_cell(player(view, side))) } } }
                    tr.moves { th { "Moves completed" } @for side in sides { td class=(side.name()) { (player(view, side).moves_completed) } } }
                    tr.control { th { "Control" } @for side in sides { td class=(side.name()) { (control_cell(player(view, side))) } } }
                }
                tr.duty { th { "Scoresheet" } @for side in sides { td class=(side.name()) { (duty_cell(side)) } } }
                @if periods {
                    tr.unknown {
                        th { "Count lost (" (cite(&[TimeRule::UnknownMoveCount])) ")" }
                        @for side in sides {
                            td class=(side.name()) {
                                @match player(view, side).if_count_unknown_next_period {
                                    Some(next) => { "next move opens period " (next) }
                                    None => { "–" }
                                }
                            }
                        }
                    }
                }
            }
        }
        @if reached {
            p.hint.periods-note {
                "✓ reached: the moves of the period were completed, so a flag now does not lose ("
                (cite(&[TimeRule::FlagChecksMoves])) "); the clock adds the next period when its display reaches 0:00 ("
                (cite(&[TimeRule::TimeSavedCarriesOver])) ")."
            }
        }
        @if sides.iter().all(|&side| duty_lapsed(view, control, side)) {
            p.hint.periods-note {
                "Neither player need keep score: the arbiter or an assistant keeps it ("
                (cite(&[TimeRule::ScoresheetsUpdatedAfterFlag])) ")."
            }
        }
    }
}

/// What a discrepancy means, and what the arbiter can do, in sentences.
pub fn discrepancy_text(d: &ReadingDiscrepancy, edition: LawsEdition) -> (String, String) {
    let who = layout::side_name(d.side);
    let read = layout::clock(Some(d.read_ms));
    let bound = layout::clock(Some(d.bound_ms));
    let corrected = citation(edition, &[TimeRule::ClockSettingCorrected]);
    let flag = citation(edition, &[TimeRule::FlagChecksMoves]);
    match d.kind {
        DiscrepancyKind::MoreThanPossible => (
            format!(
                "{who}'s clock read {read}, more than the {bound} it could show (the last \
                 reading with the increments, period time and extra time given since)."
            ),
            format!(
                "Check the clock. If it is set wrongly, record a clock adjustment with the \
                 correct time ({corrected}). If its display reached 0:00 and it added the next \
                 period, record the flag, so that the moves of the period are checked ({flag})."
            ),
        ),
        DiscrepancyKind::ClockCountBehind => {
            let count = d.clock_count;
            (
                format!(
                    "{who}'s clock read {read} after the press that completed move {}: the \
                     clock did not add the next period's {}. Its own count is behind the \
                     record's ({} moves); the Laws count {}, so a flag now does not lose \
                     ({flag}).",
                    d.moves_completed,
                    minutes_text(d.period_time_added_ms),
                    count.map_or(d.moves_completed.saturating_sub(1), |c| c.clock_moves),
                    d.moves_completed,
                ),
                format!(
                    "Correct the clock ({corrected}): set it to period {} with +{} (a clock \
                     adjustment), or record the arbiter's move count of {} \
                     (move_count_set), which credits the period.",
                    count.map_or(d.period, |c| c.period_to_show),
                    minutes_text(d.period_time_added_ms),
                    d.moves_completed,
                ),
            )
        }
        DiscrepancyKind::DisplayWouldHaveReachedZero if d.period_time_added_ms > 0 => (
            format!(
                "{who}'s clock read {read} after the press that completed move {}, less than \
                 the {bound} the control adds then (the next period's {}): the clock did not \
                 add the period.",
                d.moves_completed,
                minutes_text(d.period_time_added_ms)
            ),
            format!(
                "The clock's move counter is probably behind the scoresheet. Set the clock \
                 right and record a clock adjustment of +{} ({corrected}); if the scoresheets \
                 show a different number of moves, record the arbiter's move count instead.",
                minutes_text(d.period_time_added_ms)
            ),
        ),
        DiscrepancyKind::DisplayWouldHaveReachedZero => (
            format!(
                "{who}'s clock read {read} after the press, less than the {bound} the press \
                 added: {who} used more time than the display held, so it would have shown \
                 0:00 during move {}.",
                d.moves_completed
            ),
            format!(
                "If the flag fell, record it ({flag}). If the clock or the reading is wrong, \
                 record a clock adjustment or the arbiter's move count ({corrected})."
            ),
        ),
    }
}

/// The desk's panel of readings that do not fit the control, newest first (the latest five).
pub fn discrepancy_panel(view: &GameView, edition: LawsEdition) -> Markup {
    let found = &view.time_control.reading_discrepancies;
    if found.is_empty() {
        return html! {};
    }
    let count_set = citation(
        edition,
        &[TimeRule::ClockSettingCorrected, TimeRule::UnknownMoveCount],
    );
    html! {
        section.panel.discrepancies #discrepancies {
            h2 { "Clock readings that do not fit the control" }
            p.hint { "Each reading was kept as read: the clock is the fact. The arbiter checks the clock." }
            ul.plain {
                @for d in found.iter().rev().take(5) {
                    @let (what, todo) = discrepancy_text(d, edition);
                    li data-seq=(d.seq) {
                        span.seq { "#" (d.seq) " " } (what)
                        br;
                        span.todo { (todo) }
                    }
                }
            }
            @if found.len() > 5 { p.hint { (found.len() - 5) " earlier ones are in the game view (API)." } }
            p.hint {
                "To record a count of completed moves: Arbiter's decision, “move count set”, with the player and the moves, or the moves left empty when the count cannot be established ("
                (count_set) ")."
            }
        }
    }
}

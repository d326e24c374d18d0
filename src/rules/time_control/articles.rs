//! The articles of the Laws that the time control and its periods rest on, per edition.
//!
//! Why a table of its own: [`crate::rules::laws`] keys the engine's rules by what they say and
//! gives each edition's number; this module follows the same style for the rules of Article 6
//! (the clock), Article 8 (the scoresheet, as far as it depends on the period), Appendices A
//! and B (the rates of play) and Guidelines III (games without increment), so that no article
//! number is written anywhere else in `time_control`. It is a separate table only because
//! other work is changing `laws.rs` at the same time; the two can be merged when the periods
//! are wired into the engine.
//!
//! Where each number was read is in docs/time-controls.md ("Articles per edition"). In
//! short: every number of the 2023 column was read in a transcription of the 2023 text
//! (handbook.fide.com chapter E012023); the 2018 column rests on the 2017 text of Articles 6
//! and 8 and Guidelines III, on the Arbiters' Manual 2022 (written on the 2018 Laws), on the
//! revision list of the Arbiters' Manual 2018 (the 2018 edition changed only 7.5-7.8, A.4.2,
//! A.4.3 and A.4.5 of the 2017 text) and, for B.4, on `laws.rs`. The two editions number
//! these rules alike except where blitz reaches the rules of rapid (2023 B.3, 2018 B.4).

use crate::rules::laws::LawsEdition;

/// A rule of the Laws about time controls and periods, named by what it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeRule {
    /// A move is completed when the player presses the clock (2018/2023 6.2.1).
    ClockPressCompletesMove,
    /// A player may press after making the move, even after the opponent's next move; the
    /// time between the move and the press is the player's (2018/2023 6.2.2).
    TimeUntilPressIsPlayers,
    /// Each player must complete a minimum number of moves, or all moves, in an allotted
    /// period, including any additional time with each move, specified in advance (6.3.1).
    PeriodsSpecifiedInAdvance,
    /// Time saved in one period is added to the next; the time-delay mode (6.3.2).
    TimeSavedCarriesOver,
    /// Immediately after a flag falls, the requirements of 6.3.1 must be checked (6.4).
    FlagChecksMoves,
    /// Not completing the prescribed moves in the allotted time loses, unless the opponent
    /// cannot checkmate (6.9).
    FlagFall,
    /// A wrong clock setting (times or move counter) is corrected by the arbiter (6.10.2).
    ClockSettingCorrected,
    /// Under five minutes in a period without 30 seconds added per move: no duty to record
    /// the moves for the rest of the period (8.4).
    ScoresheetDutyLapses,
    /// Neither player keeping score: the arbiter keeps it; scoresheets are updated after a
    /// flag falls (8.5.1).
    ScoresheetsUpdatedAfterFlag,
    /// Scoresheets that cannot show the control was passed: the next move is the first of
    /// the following period unless there is evidence of more moves (8.6).
    UnknownMoveCount,
    /// The definition of rapid chess (A.1).
    RapidDefinition,
    /// Rapid players need not record the moves (A.2).
    RapidNoScoresheet,
    /// The definition of blitz (B.1).
    BlitzDefinition,
    /// Blitz follows the rules of rapid named there (2023 B.3, 2018 B.4), among them A.2.
    BlitzFollowsRapid,
    /// A quickplay finish is the phase in which all the remaining moves must be completed in
    /// a limited time (III.1).
    QuickplayFinishDefinition,
    /// Guidelines III apply only to standard and rapid games without increment (III.2.2).
    GuidelinesScope,
    /// Both flags down, order unknown, in a period that is not the last: play on (III.3.1.1).
    BothFlagsContinue,
    /// Both flags down, order unknown, in the last period: drawn (III.3.1.2).
    BothFlagsDrawn,
}

struct Row {
    rule: TimeRule,
    y2023: &'static str,
    y2018: &'static str,
}

const fn row(rule: TimeRule, y2023: &'static str, y2018: &'static str) -> Row {
    Row { rule, y2023, y2018 }
}

/// What each edition numbers each rule. One row per rule (a test checks it).
const TABLE: &[Row] = &[
    row(TimeRule::ClockPressCompletesMove, "6.2.1", "6.2.1"),
    row(TimeRule::TimeUntilPressIsPlayers, "6.2.2", "6.2.2"),
    row(TimeRule::PeriodsSpecifiedInAdvance, "6.3.1", "6.3.1"),
    row(TimeRule::TimeSavedCarriesOver, "6.3.2", "6.3.2"),
    row(TimeRule::FlagChecksMoves, "6.4", "6.4"),
    row(TimeRule::FlagFall, "6.9", "6.9"),
    row(TimeRule::ClockSettingCorrected, "6.10.2", "6.10.2"),
    row(TimeRule::ScoresheetDutyLapses, "8.4", "8.4"),
    row(TimeRule::ScoresheetsUpdatedAfterFlag, "8.5.1", "8.5.1"),
    row(TimeRule::UnknownMoveCount, "8.6", "8.6"),
    row(TimeRule::RapidDefinition, "A.1", "A.1"),
    row(TimeRule::RapidNoScoresheet, "A.2", "A.2"),
    row(TimeRule::BlitzDefinition, "B.1", "B.1"),
    row(TimeRule::BlitzFollowsRapid, "B.3", "B.4"),
    row(TimeRule::QuickplayFinishDefinition, "III.1", "III.1"),
    row(TimeRule::GuidelinesScope, "III.2.2", "III.2.2"),
    row(TimeRule::BothFlagsContinue, "III.3.1.1", "III.3.1.1"),
    row(TimeRule::BothFlagsDrawn, "III.3.1.2", "III.3.1.2"),
];

/// The number of `rule` in `edition`.
pub fn article(edition: LawsEdition, rule: TimeRule) -> &'static str {
    let row = TABLE.iter().find(|row| row.rule == rule);
    match (row, edition) {
        (Some(row), LawsEdition::Y2023) => row.y2023,
        (Some(row), LawsEdition::Y2018) => row.y2018,
        // Every rule has a row (tested); this arm only keeps the function total.
        (None, _) => "",
    }
}

/// The numbers of several rules in `edition`, as cited in a ruling: `"6.4, 6.9"`.
pub fn citation(edition: LawsEdition, rules: &[TimeRule]) -> String {
    rules
        .iter()
        .map(|&rule| article(edition, rule))
        .filter(|number| !number.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_time_rule_has_exactly_one_row_in_both_editions() {
        for row in TABLE {
            let rows = TABLE.iter().filter(|other| other.rule == row.rule).count();
            assert_eq!(rows, 1, "{:?} has {rows} rows", row.rule);
            assert!(!row.y2018.is_empty() && !row.y2023.is_empty());
        }
        assert_eq!(TABLE.len(), 18);
    }

    #[test]
    fn blitz_reaches_the_rapid_rules_through_b3_in_2023_and_b4_in_2018() {
        let rules = [TimeRule::BlitzFollowsRapid, TimeRule::RapidNoScoresheet];
        assert_eq!(citation(LawsEdition::Y2023, &rules), "B.3, A.2");
        assert_eq!(citation(LawsEdition::Y2018, &rules), "B.4, A.2");
    }
}

//! The rate of play of a control by Appendices A.1 (rapid) and B.1 (blitz): the time of all
//! periods plus the bonus of the first 60 moves, and the articles that decide. Apart from
//! the periods, since it is the one place where the Laws' definitions of rapid, blitz and
//! (by exclusion) standard play are applied.

use super::articles::{self, TimeRule};
use super::{BLITZ_MAX_MS, Period, RATE_MOVES, STANDARD_MIN_MS, bonus_for_move};
use crate::rules::laws::TimeControlKind;

/// A rate of play as written in messages (`standard`, `rapid`, `blitz`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindName(pub TimeControlKind);

impl std::fmt::Display for KindName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(kind_name(self.0))
    }
}

/// The wire name of a rate of play.
pub fn kind_name(kind: TimeControlKind) -> &'static str {
    kind.into()
}

/// The rate of play of a control and what it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateOfPlay {
    /// Standard, rapid or blitz.
    pub kind: TimeControlKind,
    /// The time of all periods plus the bonus of the first 60 moves, in milliseconds.
    pub time_for_60_moves_ms: u64,
    /// The definition that decides: A.1 for rapid, B.1 for blitz, both for standard (a
    /// standard game is one that is neither).
    pub rules: Vec<TimeRule>,
}

impl RateOfPlay {
    /// The articles to cite in `edition` (A.1, B.1).
    pub fn article(&self, edition: crate::rules::laws::LawsEdition) -> String {
        articles::citation(edition, &self.rules)
    }
}

/// The rate of play of `periods` by Appendices A.1 and B.1 (both editions):
///
/// * A.1: rapid when "all the moves must be completed in a fixed time of more than 10
///   minutes but less than 60 minutes for each player; or the time allotted plus 60 times
///   any increment is of more than 10 minutes but less than 60 minutes";
/// * B.1: blitz when that time is "10 minutes or less";
/// * standard otherwise (the Laws define standard play only as what is neither).
///
/// "All the moves" are completed in the time of all the periods together, so every period's
/// time counts, not only the first. The Laws do not say how to count an increment that does
/// not start at move 1 (the title-match control gives it from move 61) or a delay: the
/// service counts the bonus the first 60 moves receive, which is exactly "60 times the
/// increment" for every increment from move 1, and counts a delay like an increment (6.3.2
/// calls it "a fixed extra time with every move"). The FIDE Rating Regulations assume the
/// same 60-move game.
pub fn rate_of(periods: &[Period]) -> RateOfPlay {
    let time: u64 = periods.iter().map(|p| p.time_ms).sum();
    let bonus: u64 = (1..=RATE_MOVES)
        .filter_map(|m| bonus_for_move(periods, m))
        .map(|b| b.ms)
        .sum();
    let total = time.saturating_add(bonus);
    let (kind, rules) = if total <= BLITZ_MAX_MS {
        (TimeControlKind::Blitz, vec![TimeRule::BlitzDefinition])
    } else if total < STANDARD_MIN_MS {
        (TimeControlKind::Rapid, vec![TimeRule::RapidDefinition])
    } else {
        (
            TimeControlKind::Standard,
            vec![TimeRule::RapidDefinition, TimeRule::BlitzDefinition],
        )
    };
    RateOfPlay {
        kind,
        time_for_60_moves_ms: total,
        rules,
    }
}

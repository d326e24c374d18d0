//! What the tracker finds, each with the article it rests on: a press (6.3.2, the next
//! period's time), a reading against the model (6.10.2), a flag (6.9 with 6.3.1), both flags
//! down (III.3.1), the scoresheet duty (8.4), the quickplay finish's scope (III.1) and a lost
//! move count (8.6). Apart from the tracker, since these are the words the rest of the
//! service reads, and the tracker is how they are worked out.

use super::super::articles::{TimeRule, citation};
use crate::rules::laws::LawsEdition;
use crate::rules::side::{BySide, Side};

/// The result of a clock press: what the model expects the clock to show, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PressOutcome {
    /// The player who pressed.
    pub side: Side,
    /// The move the press completed (1 for the first).
    pub move_number: u32,
    /// What the main time lost (the time used, less a delay).
    pub charged_ms: u64,
    /// The increment credited by this press (for this move, or for the next with
    /// [`super::IncrementCredit::BeforeMove`]).
    pub increment_ms: u64,
    /// The time of the next period added by this press (0 unless the clock counts presses
    /// and the press completed a period's moves).
    pub period_time_ms: u64,
    /// The press completed the moves of a period (the control is reached, whether or not the
    /// clock adds the time now).
    pub completed_period: Option<usize>,
    /// The display reached 0:00 during the move (a flag fell before the press).
    pub reached_zero: bool,
    /// What the display shows after the press.
    pub display_ms: u64,
    /// The rules applied.
    pub rules: Vec<TimeRule>,
}

impl PressOutcome {
    /// The articles to cite in `edition`.
    pub fn article(&self, edition: LawsEdition) -> String {
        citation(edition, &self.rules)
    }
}

/// A clock reading compared with the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadingCheck {
    /// What the model expected.
    pub expected_ms: u64,
    /// What the clock showed (now the model's value: the clock is the fact).
    pub read_ms: u64,
}

impl ReadingCheck {
    /// The reading less the expectation, in milliseconds (positive: the clock shows more).
    pub fn difference_ms(&self) -> i64 {
        i64::try_from(self.read_ms).unwrap_or(i64::MAX)
            - i64::try_from(self.expected_ms).unwrap_or(i64::MAX)
    }

    /// Whether the reading differs from the model by more than `tolerance_ms` (a reading is
    /// taken by a person or a board a little after the press).
    pub fn is_discrepancy(&self, tolerance_ms: u64) -> bool {
        self.difference_ms().unsigned_abs() > tolerance_ms
    }
}

/// What a flag means at this moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagOutcome {
    /// The period's moves were not completed: the game is lost on time unless the opponent
    /// cannot checkmate by any series of legal moves (6.9, decided elsewhere).
    LossUnlessOpponentCannotMate,
    /// The period's moves were completed: not a loss; the next period's time was added.
    ControlReached {
        /// The time of the next period, added to the player's display.
        time_added_ms: u64,
        /// Whether it was also added to the opponent's display (clocks that add it to both).
        added_to_opponent: bool,
    },
}

/// The ruling on a flag (a display at 0:00), with the facts it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlagFinding {
    /// Whose flag.
    pub side: Side,
    /// The period whose time ran out (0 for the first).
    pub period: usize,
    /// The moves the player had completed (6.2.1).
    pub moves_completed: u32,
    /// The moves the period required (up to and including this move), `None` in the last
    /// period (all the moves).
    pub moves_required: Option<u32>,
    /// Loss or control reached.
    pub outcome: FlagOutcome,
    /// The player's move that was on the board but not completed when the flag fell (made,
    /// the clock not pressed, 6.2.1): it does not count, and the time until the press was
    /// the player's (6.2.2).
    pub move_awaiting_press: Option<u32>,
    /// The rules to cite.
    pub rules: Vec<TimeRule>,
}

impl FlagFinding {
    /// The articles to cite in `edition`.
    pub fn article(&self, edition: LawsEdition) -> String {
        citation(edition, &self.rules)
    }

    /// The same finding, knowing that the player's move `number` was on the board without
    /// its press when the flag fell: the move was not completed (6.2.1), and the time until
    /// the press is the player's (6.2.2), so the flag is judged on the moves before it.
    pub fn with_move_awaiting_press(mut self, number: u32) -> FlagFinding {
        self.move_awaiting_press = Some(number);
        let mut rules = vec![
            TimeRule::ClockPressCompletesMove,
            TimeRule::TimeUntilPressIsPlayers,
        ];
        rules.append(&mut self.rules);
        self.rules = rules;
        self
    }

    /// One plain sentence for the players.
    pub fn reason(&self) -> String {
        let who = self.side.name();
        let unpressed = self.move_awaiting_press.map_or(String::new(), |number| {
            format!(
                "{who}'s move {number} was on the board but the clock was not pressed: the \
                 move was not completed, and the time until the press is {who}'s. "
            )
        });
        format!("{unpressed}{}", self.judged())
    }

    /// The sentence on the moves and the period.
    fn judged(&self) -> String {
        let who = self.side.name();
        let period = self.period + 1;
        match (self.outcome, self.moves_required) {
            (FlagOutcome::LossUnlessOpponentCannotMate, Some(required)) => format!(
                "{who}'s time for period {period} ran out after {} completed moves; the \
                 period required {required}: the game is lost on time unless the opponent \
                 cannot checkmate.",
                self.moves_completed
            ),
            (FlagOutcome::LossUnlessOpponentCannotMate, None) => format!(
                "{who}'s time ran out in the last period, in which all the remaining moves \
                 must be completed: the game is lost on time unless the opponent cannot \
                 checkmate."
            ),
            (FlagOutcome::ControlReached { time_added_ms, .. }, required) => format!(
                "{who}'s time for period {period} ran out after {} completed moves, and the \
                 period required {}: the control was reached, the game goes on, and the next \
                 period's {} are added.",
                self.moves_completed,
                required.unwrap_or(self.moves_completed),
                super::super::minutes_text(time_added_ms)
            ),
        }
    }
}

/// Both flags down and the order unknown (III.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BothFlagsOutcome {
    /// In a period that is not the last: the game goes on (III.3.1.1).
    GameContinues,
    /// In the last period: drawn (III.3.1.2).
    Drawn,
    /// The flags fell in different periods (one player in the last, the other not): III.3.1
    /// speaks of one period, so the arbiter decides on the evidence.
    ArbiterDecides,
}

/// The ruling on both flags down with the order unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BothFlagsFinding {
    /// The outcome.
    pub outcome: BothFlagsOutcome,
    /// The period each display was counting (0 for the first).
    pub periods: BySide<usize>,
    /// Whether each player had completed the moves of that period (6.4).
    pub control_reached: BySide<bool>,
    /// Whether the game is within Guidelines III at all (III.2.2: standard or rapid without
    /// increment); when not, the digital clock's record of which flag fell first decides.
    pub within_guidelines: bool,
    /// The rules to cite.
    pub rules: Vec<TimeRule>,
}

impl BothFlagsFinding {
    /// The articles to cite in `edition`.
    pub fn article(&self, edition: LawsEdition) -> String {
        citation(edition, &self.rules)
    }
}

/// Where a player stands in the control (for the arbiter's screens: period, moves to the
/// control, "control reached").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeriodStatus {
    /// The period of the Laws: the one in which the player's next move is played (0 for the
    /// first).
    pub period: usize,
    /// The period whose time the clock is counting (behind `period` on clocks that add the
    /// next period at 0:00).
    pub clock_period: usize,
    /// Moves completed (6.2.1).
    pub moves_completed: u32,
    /// Moves still to complete in this period; `None` in the last period.
    pub moves_to_control: Option<u32>,
    /// Whether `period` is the last (all the remaining moves).
    pub last_period: bool,
    /// Whether the player has completed the moves of the period the clock is still counting
    /// (the "control reached" marker: the next period's time is still to come on the clock).
    pub control_reached_on_clock: bool,
    /// What the display shows.
    pub display_ms: u64,
    /// The time the Laws give the player: the display plus any period time the clock has not
    /// yet added (6.3.2).
    pub time_left_ms: u64,
}

/// Whether a player must keep score now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoresheetDuty {
    /// Must record the moves.
    pub must_record: bool,
    /// The rules it rests on (none when the ordinary duty of 8.1 applies).
    pub rules: Vec<TimeRule>,
}

impl ScoresheetDuty {
    /// The articles to cite in `edition`.
    pub fn article(&self, edition: LawsEdition) -> String {
        citation(edition, &self.rules)
    }
}

/// Whether the quickplay finish (Guidelines III) can apply to a player now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuickplayScope {
    /// In the last period, without increment, and not blitz.
    pub applies: bool,
    /// The rules it rests on.
    pub rules: Vec<TimeRule>,
}

impl QuickplayScope {
    /// The articles to cite in `edition`.
    pub fn article(&self, edition: LawsEdition) -> String {
        citation(edition, &self.rules)
    }
}

/// The ruling of 8.6 (or of a count the arbiter reconstructed, 8.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveCountRuling {
    /// The player.
    pub side: Side,
    /// The completed moves now counted.
    pub moves_completed: u32,
    /// The period in which the next move is played (0 for the first).
    pub period: usize,
    /// Period time added to the display by the ruling.
    pub time_added_ms: u64,
    /// The rules to cite.
    pub rules: Vec<TimeRule>,
}

impl MoveCountRuling {
    /// The articles to cite in `edition`.
    pub fn article(&self, edition: LawsEdition) -> String {
        citation(edition, &self.rules)
    }
}

/// Why an 8.6 ruling cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveCountError {
    /// There is no following period.
    #[error(
        "{0} is in the last period, which has no following period: 8.6 does not apply (all \
         the remaining moves must be completed in it)"
    )]
    LastPeriod(&'static str),
}

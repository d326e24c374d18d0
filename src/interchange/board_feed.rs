//! A board as a feed shows it, whichever the source (DGT LiveChess JSON in `interchange::dgt`, a
//! round's PGN in [`super::pgn_feed`]): the frames a follower reads poll after poll, and what
//! of them has settled enough to be stored.
//!
//! Real boards fail between frames: a piece slid across a square is read as a move and then
//! read right a moment later; a line is taken back and put back; DGT's `clock` object lags the
//! moves by a frame or two. So a frame is never taken alone:
//!
//! - **A move stands** when it has a successor in the frame, or when the previous poll showed
//!   the same line ([`BoardMemory::read`] says whether the frame *stood*). What the feed changes
//!   (a new last move, a takeback, a line that leaves the stored one) is acted on only once it
//!   has stood: a misread put right by the next frame, and a line taken back and replayed
//!   identically, leave no trace.
//! - **A clock reading belongs to its ply.** DGT's `clock` object gives the last move's time
//!   only when it describes the position the feed shows: its running side (`run`, when the
//!   feed says) is the side to move, and it is newer than every clock object seen before the
//!   last move appeared (its `time`, else its readings). Otherwise the move's own time is
//!   kept ([`BoardMemory::read`]).
//! - **A clock never goes up without a reason** ([`admissible_rise_ms`]): a reading above the
//!   side's previous one by more than the increment of the move (and the time of the next
//!   period, for the move that completes a period) is evidence of a faulty frame, never a
//!   reading.
//!
//! Pure: no HTTP, no database; the follower (`crate::app::follower`) keeps one memory per
//! board between polls.

use crate::rules::side::Side;
use crate::rules::time_control::{BonusMode, TimeControl};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A move as the feed gives it (any source: a DGT move string, a PGN move with its `%clk`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FeedMove {
    /// The move in SAN, as the board read it (it may not be legal: boards misread).
    pub san: String,
    /// The mover's time left after the move, in seconds, when the feed gives it.
    #[serde(default)]
    pub seconds_left: Option<u64>,
    /// The seconds the move took, when the feed gives it.
    #[serde(default)]
    pub seconds_used: Option<u64>,
}

/// DGT's `clock` object of a game (the name the DGT feed gives it; the frame of any source
/// may carry one): the seconds left on each side when the feed was written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DgtClock {
    /// White's seconds left.
    #[serde(default)]
    pub white: Option<u64>,
    /// Black's seconds left.
    #[serde(default)]
    pub black: Option<u64>,
    /// When it was read (milliseconds since 1970), as the feed writes it.
    #[serde(default)]
    pub time: Option<i64>,
    /// Whose clock runs (`white` or `black`), where the feed says.
    #[serde(default)]
    pub run: Option<String>,
}

impl DgtClock {
    /// The side whose clock runs, where the feed says (`white`/`w`, `black`/`b`).
    pub fn running_side(&self) -> Option<Side> {
        match self
            .run
            .as_deref()
            .map(str::trim)
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("white" | "w") => Some(Side::White),
            Some("black" | "b") => Some(Side::Black),
            _ => None,
        }
    }
}

/// How many clock objects a board's memory keeps (the latest ones).
const CLOCKS_KEPT: usize = 16;

/// One poll's view of a board: its moves as the source writes them (each with its own time,
/// when the source gives one), its result, and DGT's `clock` object where the source has one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    /// The moves, in order from the start position (White's first move first).
    pub moves: Vec<FeedMove>,
    /// The result as the source writes it (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub result: Option<String>,
    /// DGT's clock object, if any.
    pub clock: Option<DgtClock>,
}

/// What the follower remembers of one board between polls: the line of the last frame, and
/// the clock objects seen before and since its last move appeared.
#[derive(Clone, Debug, Default)]
pub struct BoardMemory {
    /// The moves (SAN as written) of the last frame read; `None` before the first.
    last: Option<Vec<String>>,
    /// Whether a frame without the current last move was seen (so that the clock objects
    /// before it are known).
    witnessed: bool,
    /// Clock objects seen in frames before the current line appeared.
    clocks_before: Vec<DgtClock>,
    /// Clock objects seen in frames of the current line.
    clocks_since: Vec<DgtClock>,
}

/// A frame as far as it has settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    /// The frame's moves, each with the reading that belongs to its ply (the `clock` object's
    /// for the last move where it describes the position, else the move's own time).
    pub moves: Vec<FeedMove>,
    /// Whether the frame stood: the previous poll showed the same line. When it did not,
    /// only the moves that have a successor are settled, and nothing else is acted on.
    pub stood: bool,
}

impl Settled {
    /// How many of the frame's plies are settled: all of them when the frame stood, else
    /// those with a successor.
    pub fn settled_plies(&self) -> usize {
        if self.stood {
            self.moves.len()
        } else {
            self.moves.len().saturating_sub(1)
        }
    }
}

impl BoardMemory {
    /// Reads this poll's frame against what the previous polls showed, and remembers it.
    pub fn read(&mut self, frame: &Frame) -> Settled {
        let line: Vec<String> = frame.moves.iter().map(|m| m.san.clone()).collect();
        let stood = self.last.as_ref() == Some(&line);
        if !stood {
            // A new line: every clock object seen so far predates its last move.
            self.witnessed = self.last.is_some();
            let since = std::mem::take(&mut self.clocks_since);
            self.clocks_before.extend(since);
            keep_latest(&mut self.clocks_before);
        }
        let mut moves = frame.moves.clone();
        if let Some(clock) = &frame.clock {
            let plies = moves.len();
            if self.witnessed && clock_is_current(clock, &self.clocks_before, &moves) {
                let reading = if plies % 2 == 1 {
                    clock.white
                } else {
                    clock.black
                };
                if let Some(last) = moves.last_mut() {
                    last.seconds_left = reading;
                }
            }
            if !self.clocks_since.contains(clock) {
                self.clocks_since.push(clock.clone());
                keep_latest(&mut self.clocks_since);
            }
        }
        self.last = Some(line);
        Settled { moves, stood }
    }
}

fn keep_latest(clocks: &mut Vec<DgtClock>) {
    if clocks.len() > CLOCKS_KEPT {
        clocks.drain(..clocks.len() - CLOCKS_KEPT);
    }
}

/// Whether a clock object describes the position after the frame's `moves` (White moved
/// first), so that its reading of the side that made the last move is that move's:
///
/// - its running side, when given, is the side to move;
/// - it is newer than every object seen `before` the last move appeared (a later `time`;
///   other readings where the feed writes no time);
/// - it is not older than the last move: it does not show the mover more time than the
///   move's own time says, nor exactly the mover's reading at its previous move (the clock
///   object of two frames ago, say, written before this move was made).
pub fn clock_is_current(clock: &DgtClock, before: &[DgtClock], moves: &[FeedMove]) -> bool {
    let plies = moves.len();
    let Some(last) = moves.last() else {
        return false;
    };
    let (mover, to_move) = if plies % 2 == 1 {
        (Side::White, Side::Black)
    } else {
        (Side::Black, Side::White)
    };
    if clock.running_side().is_some_and(|side| side != to_move) {
        return false;
    }
    let newer = match clock.time {
        Some(time) => before
            .iter()
            .filter_map(|old| old.time)
            .all(|old| old < time),
        None => !before
            .iter()
            .any(|old| old.white == clock.white && old.black == clock.black),
    };
    if !newer {
        return false;
    }
    let Some(reading) = (match mover {
        Side::White => clock.white,
        Side::Black => clock.black,
    }) else {
        return false;
    };
    if last.seconds_left.is_some_and(|own| reading > own) {
        return false;
    }
    let previous = plies
        .checked_sub(3)
        .and_then(|index| moves.get(index))
        .and_then(|m| m.seconds_left);
    previous != Some(reading)
}

/// The move number (1 for the side's first move) of the side making ply `ply` (1 = the first
/// move of the game), in a game whose first move is `first`'s.
pub fn move_number(ply: usize, by: Side, first: Side) -> u32 {
    let number = if by == first {
        ply.div_ceil(2)
    } else {
        ply / 2
    };
    u32::try_from(number).unwrap_or(u32::MAX)
}

/// How much a side's clock may rise with its move `number` (6.3.2): the increment of that
/// move (a delay gives none: it only stops the clock running down), plus the time of the next
/// period when the move completes a period.
pub fn admissible_rise_ms(control: &TimeControl, number: u32) -> u64 {
    let increment = control
        .bonus_for_move(number)
        .filter(|bonus| bonus.mode == BonusMode::Increment)
        .map_or(0, |bonus| bonus.ms);
    let period = control.period_of_move(number);
    let next_period = if control.last_move_of_period(period) == Some(number) {
        control.periods.get(period + 1).map_or(0, |p| p.time_ms)
    } else {
        0
    };
    increment.saturating_add(next_period)
}

/// Readings are whole seconds: a reading within a second of what is allowed is the same.
const READING_TOLERANCE_MS: u64 = 999;

/// Whether `reading_ms` may follow `previous_ms` (the side's last reading) after a move that
/// may add `rise_ms` ([`admissible_rise_ms`]).
pub fn reading_admissible(previous_ms: Option<u64>, reading_ms: u64, rise_ms: u64) -> bool {
    previous_ms.is_none_or(|previous| {
        reading_ms
            <= previous
                .saturating_add(rise_ms)
                .saturating_add(READING_TOLERANCE_MS)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::laws::TimeControlKind;
    use crate::rules::time_control::{Bonus, Period};

    /// `"e4 5390"`: the move and the mover's seconds left, if given.
    fn read_move(text: &str) -> FeedMove {
        let mut parts = text.split_whitespace();
        FeedMove {
            san: parts.next().unwrap_or_default().to_string(),
            seconds_left: parts.next().and_then(|s| s.parse().ok()),
            seconds_used: None,
        }
    }

    fn frame(moves: &[&str], clock: Option<DgtClock>) -> Frame {
        Frame {
            moves: moves.iter().map(|m| read_move(m)).collect(),
            result: None,
            clock,
        }
    }

    fn clock(white: u64, black: u64, time: i64, run: &str) -> Option<DgtClock> {
        Some(DgtClock {
            white: Some(white),
            black: Some(black),
            time: Some(time),
            run: Some(run.to_string()),
        })
    }

    #[test]
    fn a_new_last_move_stands_only_when_the_next_poll_shows_it_again_or_a_successor() {
        let mut memory = BoardMemory::default();
        let first = memory.read(&frame(&["e4", "e5", "Nf3"], None));
        assert!(!first.stood, "never seen before");
        assert_eq!(first.settled_plies(), 2, "Nf3 has no successor yet");
        let again = memory.read(&frame(&["e4", "e5", "Nf3"], None));
        assert!(again.stood);
        assert_eq!(again.settled_plies(), 3);
        // A misread (Nh3 for Nf3) put right by the next frame never settles.
        let misread = memory.read(&frame(&["e4", "e5", "Nf3", "Nh6"], None));
        assert_eq!(misread.settled_plies(), 3);
        let right = memory.read(&frame(&["e4", "e5", "Nf3", "Nc6"], None));
        assert!(!right.stood);
        assert_eq!(right.settled_plies(), 3);
        assert!(memory.read(&frame(&["e4", "e5", "Nf3", "Nc6"], None)).stood);
    }

    #[test]
    fn the_clock_object_gives_the_last_move_its_time_only_when_it_describes_the_position() {
        let mut memory = BoardMemory::default();
        memory.read(&frame(
            &["e4 5390", "e5 5395"],
            clock(5390, 5395, 10, "white"),
        ));
        // Fresh: written after Nf3, Black's clock running.
        let fresh = memory.read(&frame(
            &["e4 5390", "e5 5395", "Nf3 5301"],
            clock(5300, 5394, 20, "black"),
        ));
        assert_eq!(fresh.moves[2].seconds_left, Some(5300));
        assert_eq!(
            fresh.moves[1].seconds_left,
            Some(5395),
            "the earlier move's own"
        );
    }

    #[test]
    fn a_clock_object_lagging_one_or_two_frames_is_not_the_new_moves_reading() {
        let mut memory = BoardMemory::default();
        memory.read(&frame(&["e4 5390"], clock(5390, 5400, 10, "black")));
        // Lag of one frame: the object of the frame before.
        let lag1 = memory.read(&frame(
            &["e4 5390", "e5 5395"],
            clock(5390, 5400, 10, "black"),
        ));
        assert_eq!(
            lag1.moves[1].seconds_left,
            Some(5395),
            "the move's own time"
        );
        memory.read(&frame(
            &["e4 5390", "e5 5395", "Nf3 5300"],
            clock(5390, 5395, 20, "white"),
        ));
        // Lag of two frames: the object of two frames ago (its side to move is right, but it
        // is no newer than one seen before the move appeared).
        let lag2 = memory.read(&frame(
            &["e4 5390", "e5 5395", "Nf3 5300", "Nc6 5380"],
            clock(5390, 5395, 20, "white"),
        ));
        assert_eq!(lag2.moves[3].seconds_left, Some(5380));
        // Lag of two frames where each frame brings a new object (newer `time`, the right
        // running side): the mover's reading is still its reading at its previous move.
        let lag2 = memory.read(&frame(
            // Bb5 played fast with an increment: its own time above Nf3's.
            &["e4 5390", "e5 5395", "Nf3 5300", "Nc6 5380", "Bb5 5302"],
            clock(5300, 5385, 30, "black"),
        ));
        assert_eq!(lag2.moves[4].seconds_left, Some(5302));
        // More time for the mover than its move says: older than the move.
        let older = memory.read(&frame(
            &[
                "e4 5390", "e5 5395", "Nf3 5300", "Nc6 5380", "Bb5 5302", "a6 5370",
            ],
            clock(5302, 5375, 40, "white"),
        ));
        assert_eq!(older.moves[5].seconds_left, Some(5370));
        // Without `time` and `run`, an object equal to an older one is still recognised.
        let mut memory = BoardMemory::default();
        let old = DgtClock {
            white: Some(5390),
            black: Some(5400),
            time: None,
            run: None,
        };
        memory.read(&frame(&["e4 5390"], Some(old.clone())));
        let lag = memory.read(&frame(&["e4 5390", "e5 5395"], Some(old)));
        assert_eq!(lag.moves[1].seconds_left, Some(5395));
    }

    #[test]
    fn a_clock_object_whose_running_side_is_not_the_side_to_move_is_not_used() {
        let mut memory = BoardMemory::default();
        memory.read(&frame(&["e4 5390"], clock(5390, 5400, 10, "black")));
        let wrong = memory.read(&frame(
            &["e4 5390", "e5 5395"],
            clock(5380, 5390, 30, "black"),
        ));
        assert_eq!(wrong.moves[1].seconds_left, Some(5395));
    }

    #[test]
    fn the_first_frame_a_follower_sees_keeps_the_moves_own_times() {
        let mut memory = BoardMemory::default();
        let first = memory.read(&frame(&["e4 5390", "e5 5395"], clock(1, 2, 99, "white")));
        assert_eq!(
            first.moves[1].seconds_left,
            Some(5395),
            "nothing to tell a lag by"
        );
    }

    #[test]
    fn move_numbers_count_each_sides_moves() {
        assert_eq!(move_number(1, Side::White, Side::White), 1);
        assert_eq!(move_number(2, Side::Black, Side::White), 1);
        assert_eq!(move_number(79, Side::White, Side::White), 40);
        assert_eq!(move_number(1, Side::Black, Side::Black), 1);
        assert_eq!(move_number(2, Side::White, Side::Black), 1);
    }

    #[test]
    fn a_clock_may_rise_by_the_increment_and_by_the_next_period_after_the_control_move() {
        let classical = TimeControl::from_periods(vec![
            Period {
                time_ms: 5_400_000,
                moves: Some(40),
                bonus: Some(Bonus::increment(30_000)),
            },
            Period {
                time_ms: 1_800_000,
                moves: None,
                bonus: Some(Bonus::increment(30_000)),
            },
        ])
        .expect("90/40 + 30 + 30 s");
        assert_eq!(admissible_rise_ms(&classical, 1), 30_000);
        assert_eq!(admissible_rise_ms(&classical, 40), 1_830_000);
        assert_eq!(admissible_rise_ms(&classical, 41), 30_000);
        let sudden_death = TimeControl::from_legacy(TimeControlKind::Standard, 7_200_000, 0);
        assert_eq!(admissible_rise_ms(&sudden_death, 12), 0);
        assert!(reading_admissible(Some(300_000), 300_000, 0));
        assert!(reading_admissible(None, 300_000, 0));
        assert!(!reading_admissible(Some(280_000), 300_000, 0));
        assert!(reading_admissible(Some(280_000), 282_000, 3_000));
        assert!(!reading_admissible(Some(280_000), 290_000, 3_000));
    }
}

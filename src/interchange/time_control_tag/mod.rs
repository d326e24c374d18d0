//! The PGN `TimeControl` tag, read and written as the PGN standard gives it (section 9.6.1),
//! and the free-text controls found in real files.
//!
//! Why: the tag is how a control travels with a game (archives, broadcasts, imports). The
//! standard's forms are exact and are read and written exactly ([`TimeControlTag`]), so that
//! a value read is written back unchanged. Real files also carry controls written for
//! people ("90 min/40 moves + 30 min, 30 s per move from move 1", "15 min + 10 sec"); those
//! are read when they can mean only one control ([`read_free_text`]) and reported with the
//! reason when they could mean two. Converting between the tag and the service's control
//! ([`TimeControlTag::to_control`], [`TimeControlTag::from_control`]) says what does not fit
//! either way instead of guessing.
//!
//! PGN standard 9.6.1 ("Tag: TimeControl"): one or more descriptors separated by `:`, in the
//! order of the periods, "the last field appearing is considered to be implicitly repeated";
//! six kinds: `?` (unknown), `-` (no time control), `moves/seconds` (`40/9000`: 40 moves in
//! 2 1/2 hours), `seconds` (sudden death, `300`, only as the last descriptor),
//! `seconds+increment` (incremental, `4500+60`: 90 minutes plus one minute per move, only as
//! the last descriptor) and `*seconds` (sandclock, `*180`). The form `40/5400+30` (a moves
//! period with an increment), which FIDE broadcasts write for `40/5400+30:1800+30`, is not in
//! the standard's list; it is read and written as that natural extension.
//!
//! The standard's forms and the words that describe a control are here; free text is read
//! in `free_text.rs`.

use std::fmt;
use std::str::FromStr;

use crate::rules::time_control::{
    Bonus, BonusMode, Period, TimeControl, TimeControlError, minutes_text,
};

mod free_text;

pub use free_text::read_free_text;

/// One descriptor of the tag (one period).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Descriptor {
    /// `moves/seconds` (third kind), or `moves/seconds+increment` (the broadcast extension).
    Moves {
        /// Moves in the period.
        moves: u32,
        /// Seconds in the period.
        seconds: u64,
        /// Seconds added per move, if written.
        increment: Option<u64>,
    },
    /// `seconds`: sudden death (fourth kind).
    SuddenDeath {
        /// Seconds in the period.
        seconds: u64,
    },
    /// `seconds+increment`: incremental (fifth kind).
    Incremental {
        /// Seconds allocated for the period.
        seconds: u64,
        /// Seconds added after each move.
        increment: u64,
    },
    /// `*seconds`: sandclock (sixth kind).
    Sandclock {
        /// Seconds in the sandclock.
        seconds: u64,
    },
}

/// A `TimeControl` tag value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControlTag {
    /// `?`: unknown.
    Unknown,
    /// `-`: no time control.
    NoControl,
    /// The descriptors, in the order of the periods.
    Periods(Vec<Descriptor>),
}

/// Why a tag value or a free text cannot be read, or a control cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TagError {
    /// The value is empty.
    #[error("the TimeControl value is empty: write `?` when the control is unknown")]
    Empty,
    /// A descriptor is not one of the standard's forms.
    #[error(
        "`{descriptor}` is not a TimeControl descriptor of the PGN standard (9.6.1): write \
         `moves/seconds`, `seconds`, `seconds+increment` or `*seconds`, separated by `:`"
    )]
    Descriptor {
        /// The descriptor as written.
        descriptor: String,
    },
    /// `?` or `-` among other descriptors.
    #[error("`{0}` must be the only descriptor of the TimeControl value")]
    NotAlone(char),
    /// The last descriptor gives a number of moves: by 9.6.1 it repeats, which the service's
    /// controls cannot express.
    #[error(
        "the last descriptor `{0}` gives a number of moves, so by PGN 9.6.1 it repeats for \
         every further period; the service's controls end with a period for the rest of the \
         game: add one (e.g. `{0}:1800`)"
    )]
    Repeating(String),
    /// A sandclock, which no chess clock mode of the service models.
    #[error("`*{0}` is a sandclock (hourglass) control, which the service's clocks do not model")]
    Sandclock(u64),
    /// The value reads as a control no clock can run.
    #[error("the TimeControl `{text}` cannot be run: {source}")]
    Invalid {
        /// The value.
        text: String,
        /// What is wrong.
        source: TimeControlError,
    },
    /// A value the standard reads one way and people write meaning another.
    #[error("`{text}` is ambiguous: {why}")]
    Ambiguous {
        /// The value.
        text: String,
        /// The two readings.
        why: String,
    },
    /// A free text from which no control can be read.
    #[error("`{text}` cannot be read as a time control: {why}")]
    Unreadable {
        /// The text.
        text: String,
        /// What was missing or not understood.
        why: String,
    },
    /// A control the tag cannot express.
    #[error("this time control has no PGN TimeControl form: {0}")]
    NotExpressible(String),
}

pub(super) fn number<T: FromStr>(text: &str) -> Option<T> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

impl Descriptor {
    fn parse(text: &str) -> Result<Descriptor, TagError> {
        let wrong = || TagError::Descriptor {
            descriptor: text.to_string(),
        };
        if let Some(seconds) = text.strip_prefix('*') {
            return number(seconds)
                .map(|seconds| Descriptor::Sandclock { seconds })
                .ok_or_else(wrong);
        }
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => (Some(number::<u32>(moves).ok_or_else(wrong)?), rest),
            None => (None, text),
        };
        let (seconds, increment) = match rest.split_once('+') {
            Some((seconds, increment)) => (
                number::<u64>(seconds).ok_or_else(wrong)?,
                Some(number::<u64>(increment).ok_or_else(wrong)?),
            ),
            None => (number::<u64>(rest).ok_or_else(wrong)?, None),
        };
        Ok(match (moves, increment) {
            (Some(moves), increment) => Descriptor::Moves {
                moves,
                seconds,
                increment,
            },
            (None, Some(increment)) => Descriptor::Incremental { seconds, increment },
            (None, None) => Descriptor::SuddenDeath { seconds },
        })
    }

    /// The descriptor's period in the service's model.
    fn period(self) -> Result<Period, TagError> {
        let increment =
            |seconds: u64| (seconds > 0).then_some(Bonus::increment(seconds.saturating_mul(1000)));
        match self {
            Descriptor::Moves {
                moves,
                seconds,
                increment: inc,
            } => Ok(Period {
                time_ms: seconds.saturating_mul(1000),
                moves: Some(moves),
                bonus: inc.and_then(increment),
            }),
            Descriptor::SuddenDeath { seconds } => Ok(Period {
                time_ms: seconds.saturating_mul(1000),
                moves: None,
                bonus: None,
            }),
            Descriptor::Incremental {
                seconds,
                increment: inc,
            } => Ok(Period {
                time_ms: seconds.saturating_mul(1000),
                moves: None,
                bonus: increment(inc),
            }),
            Descriptor::Sandclock { seconds } => Err(TagError::Sandclock(seconds)),
        }
    }
}

impl fmt::Display for Descriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Descriptor::Moves {
                moves,
                seconds,
                increment: None,
            } => write!(f, "{moves}/{seconds}"),
            Descriptor::Moves {
                moves,
                seconds,
                increment: Some(increment),
            } => write!(f, "{moves}/{seconds}+{increment}"),
            Descriptor::SuddenDeath { seconds } => write!(f, "{seconds}"),
            Descriptor::Incremental { seconds, increment } => write!(f, "{seconds}+{increment}"),
            Descriptor::Sandclock { seconds } => write!(f, "*{seconds}"),
        }
    }
}

impl fmt::Display for TimeControlTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlTag::Unknown => f.write_str("?"),
            TimeControlTag::NoControl => f.write_str("-"),
            TimeControlTag::Periods(descriptors) => {
                for (index, descriptor) in descriptors.iter().enumerate() {
                    if index > 0 {
                        f.write_str(":")?;
                    }
                    write!(f, "{descriptor}")?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for TimeControlTag {
    type Err = TagError;

    /// Reads a tag value exactly as PGN 9.6.1 gives it (surrounding blanks ignored).
    fn from_str(text: &str) -> Result<TimeControlTag, TagError> {
        let text = text.trim();
        match text {
            "" => Err(TagError::Empty),
            "?" => Ok(TimeControlTag::Unknown),
            "-" => Ok(TimeControlTag::NoControl),
            _ => {
                let fields: Vec<&str> = text.split(':').map(str::trim).collect();
                for special in ['?', '-'] {
                    if fields.iter().any(|f| *f == special.to_string()) {
                        return Err(TagError::NotAlone(special));
                    }
                }
                fields
                    .into_iter()
                    .map(Descriptor::parse)
                    .collect::<Result<Vec<_>, _>>()
                    .map(TimeControlTag::Periods)
            }
        }
    }
}

impl TimeControlTag {
    /// The control the tag gives: `None` for `?` and `-`. Refused: a sandclock, a last
    /// descriptor with a number of moves (it repeats, 9.6.1), and anything no clock can run.
    pub fn to_control(&self) -> Result<Option<TimeControl>, TagError> {
        let TimeControlTag::Periods(descriptors) = self else {
            return Ok(None);
        };
        if let Some(last @ Descriptor::Moves { .. }) = descriptors.last() {
            return Err(TagError::Repeating(last.to_string()));
        }
        let periods = descriptors
            .iter()
            .map(|d| d.period())
            .collect::<Result<Vec<_>, _>>()?;
        TimeControl::from_periods(periods)
            .map(Some)
            .map_err(|source| TagError::Invalid {
                text: self.to_string(),
                source,
            })
    }

    /// The tag of a control. Not expressible: a delay (the tag has no form for it), an
    /// increment that starts after the first move of its period, and times that are not
    /// whole seconds.
    pub fn from_control(control: &TimeControl) -> Result<TimeControlTag, TagError> {
        let mut descriptors = Vec::with_capacity(control.periods.len());
        for (index, period) in control.periods.iter().enumerate() {
            let number = index + 1;
            if period.time_ms % 1000 != 0 {
                return Err(TagError::NotExpressible(format!(
                    "period {number} gives {} ms, not whole seconds",
                    period.time_ms
                )));
            }
            let seconds = period.time_ms / 1000;
            let increment = match period.bonus {
                None => None,
                Some(Bonus {
                    mode: BonusMode::Increment,
                    ms,
                    from_move,
                }) => {
                    let first = control.first_move_of_period(index);
                    if from_move.is_some_and(|m| m != first) {
                        return Err(TagError::NotExpressible(format!(
                            "the increment of period {number} starts at move {}, not at the \
                             period's first move {first}",
                            from_move.unwrap_or(first)
                        )));
                    }
                    if ms % 1000 != 0 {
                        return Err(TagError::NotExpressible(format!(
                            "the increment of period {number} is {ms} ms, not whole seconds"
                        )));
                    }
                    Some(ms / 1000)
                }
                Some(Bonus { mode, .. }) => {
                    return Err(TagError::NotExpressible(format!(
                        "period {number} has a {} delay; the tag has forms only for \
                         increments",
                        match mode {
                            BonusMode::Bronstein => "Bronstein",
                            _ => "simple",
                        }
                    )));
                }
            };
            descriptors.push(match (period.moves, increment) {
                (Some(moves), increment) => Descriptor::Moves {
                    moves,
                    seconds,
                    increment,
                },
                (None, Some(increment)) => Descriptor::Incremental { seconds, increment },
                (None, None) => Descriptor::SuddenDeath { seconds },
            });
        }
        Ok(TimeControlTag::Periods(descriptors))
    }
}

/// The tag value of a control (see [`TimeControlTag::from_control`]).
pub fn write_tag(control: &TimeControl) -> Result<String, TagError> {
    TimeControlTag::from_control(control).map(|tag| tag.to_string())
}

/// What a `TimeControl` tag value in a real file says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagReading {
    /// `?`.
    Unknown,
    /// `-`.
    NoControl,
    /// A control read from the standard's form.
    Standard(TimeControl),
    /// A control read from free text.
    FreeText(TimeControl),
}

/// Whether the standard's reading of `tag` is one a person would hardly mean, while the
/// chess shorthand (minutes, then seconds) reads it as a common control: an incremental
/// `B+I` of at most 180 seconds with a base of at most four times the increment (`90+30`,
/// `15+10`, `3+2`), or a moves period of at most 180 seconds (`40/90`).
fn shorthand_reading(tag: &TimeControlTag) -> Option<String> {
    let TimeControlTag::Periods(descriptors) = tag else {
        return None;
    };
    for descriptor in descriptors {
        match *descriptor {
            Descriptor::Incremental { seconds, increment }
                if increment > 0 && seconds <= 180 && seconds <= 4 * increment =>
            {
                return Some(format!(
                    "PGN 9.6.1 reads it as {seconds} seconds plus {increment} seconds a move, \
                     but written for people it means {seconds} minutes plus {increment} \
                     seconds; write `{}+{increment}` for the latter",
                    seconds * 60
                ));
            }
            Descriptor::Moves { moves, seconds, .. } if seconds <= 180 => {
                return Some(format!(
                    "PGN 9.6.1 reads it as {moves} moves in {seconds} seconds, but written \
                     for people it means {moves} moves in {seconds} minutes; write \
                     `{moves}/{}` for the latter",
                    seconds * 60
                ));
            }
            _ => {}
        }
    }
    None
}

/// Reads a `TimeControl` value as found in a real file: the standard's form first
/// (refused as ambiguous where the chess shorthand would read it otherwise, see the
/// message), else a free text ([`read_free_text`]).
pub fn read_tag_value(text: &str) -> Result<TagReading, TagError> {
    let trimmed = text.trim();
    match trimmed.parse::<TimeControlTag>() {
        Ok(TimeControlTag::Unknown) => Ok(TagReading::Unknown),
        Ok(TimeControlTag::NoControl) => Ok(TagReading::NoControl),
        Ok(tag) => {
            if let Some(why) = shorthand_reading(&tag) {
                return Err(TagError::Ambiguous {
                    text: trimmed.to_string(),
                    why,
                });
            }
            match tag.to_control()? {
                Some(control) => Ok(TagReading::Standard(control)),
                None => Ok(TagReading::Unknown),
            }
        }
        Err(TagError::Empty) => Err(TagError::Empty),
        Err(_) => read_free_text(trimmed).map(TagReading::FreeText),
    }
}

// ---------------------------------------------------------------------------------------

/// A control described for people: "90 min for 40 moves, then 30 min for the rest of the
/// game, 30 s a move from move 1".
pub fn describe(control: &TimeControl) -> String {
    let mut parts = Vec::new();
    for (index, period) in control.periods.iter().enumerate() {
        let time = minutes_text(period.time_ms);
        let mut text = match period.moves {
            Some(moves) => format!("{time} for {moves} moves"),
            None if index == 0 => format!("{time} for the game"),
            None => format!("{time} for the rest of the game"),
        };
        if let Some(bonus) = period.bonus {
            let from = bonus
                .from_move
                .unwrap_or_else(|| control.first_move_of_period(index));
            let what = match bonus.mode {
                BonusMode::Increment => "a move",
                BonusMode::Bronstein => "Bronstein delay a move",
                BonusMode::Delay => "delay a move",
            };
            text.push_str(&format!(
                " + {} {what} from move {from}",
                minutes_text(bonus.ms)
            ));
        }
        parts.push(text);
    }
    parts.join(", then ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_forms_round_trip() {
        for text in [
            "?",
            "-",
            "40/9000:1800",
            "300",
            "4500+60",
            "*180",
            "40/5400+30:1800+30",
        ] {
            let tag: TimeControlTag = text.parse().expect("reads");
            assert_eq!(tag.to_string(), text);
        }
    }

    #[test]
    fn a_lone_moves_descriptor_repeats_and_is_refused_as_a_control() {
        let tag: TimeControlTag = "40/9000".parse().expect("reads");
        let error = tag.to_control().expect_err("repeats");
        assert!(error.to_string().contains("repeats"), "{error}");
    }
}

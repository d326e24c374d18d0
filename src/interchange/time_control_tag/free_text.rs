//! Controls written for people in real files ("90 min/40 moves + 30 min, 30 s per move from
//! move 1", "15 min + 10 sec", `90+30`), read when they can mean only one control and
//! refused with the reason when they could mean two. Apart from the standard's tag, whose
//! forms are exact: here the text is split into words, units and numbers and each part is
//! guessed at only as far as it cannot be misread.

use super::{TagError, number};
use crate::rules::time_control::{Bonus, BonusMode, Period, TimeControl};

/// A unit of time in free text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Hours,
    Minutes,
    Seconds,
}

impl Unit {
    fn ms(self) -> u64 {
        match self {
            Unit::Hours => 3_600_000,
            Unit::Minutes => 60_000,
            Unit::Seconds => 1000,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(f64),
    Unit(Unit),
    Moves,
    Slash,
    Word(String),
}

fn unit_word(word: &str) -> Option<Unit> {
    match word {
        "h" | "hr" | "hrs" | "hour" | "hours" => Some(Unit::Hours),
        "m" | "min" | "mins" | "minute" | "minutes" | "'" => Some(Unit::Minutes),
        "s" | "sec" | "secs" | "second" | "seconds" | "\"" | "''" => Some(Unit::Seconds),
        _ => None,
    }
}

/// The words that separate the parts of a control.
const SEPARATOR_WORDS: [&str; 5] = ["then", "followed", "plus", "and", "with"];

/// Words after which a separator is sometimes written without a space.
const GLUE_PREFIXES: [&str; 8] = [
    "game", "moves", "move", "minutes", "seconds", "min", "sec", "rest",
];

/// The text split into segments (at `+ , ; :` and the words "then", "followed", "plus",
/// "and", "with"), each a list of tokens.
fn segments(text: &str) -> Result<Vec<Vec<Token>>, String> {
    let normalised = text
        .to_lowercase()
        .replace(['’', '′', '`'], "'")
        .replace(['″', '”', '“'], "\"")
        .replace("''", "\"");
    let mut segments: Vec<Vec<Token>> = vec![Vec::new()];
    let chars: Vec<char> = normalised.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit)) {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            let value: f64 = digits
                .parse()
                .map_err(|_| format!("`{digits}` is not a number"))?;
            if let Some(current) = segments.last_mut() {
                current.push(Token::Number(value));
            }
            continue;
        }
        if c.is_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_alphabetic() {
                i += 1;
            }
            let mut word: String = chars[start..i].iter().collect();
            // A separator glued to the word before it, as in a real broadcast tag: "the rest
            // of the gamewith an increment of 30 seconds".
            let glued = SEPARATOR_WORDS.iter().find_map(|separator| {
                word.strip_suffix(separator)
                    .filter(|prefix| GLUE_PREFIXES.contains(prefix))
                    .map(str::to_string)
            });
            if let Some(prefix) = &glued {
                word = prefix.clone();
            }
            let token = if let Some(unit) = unit_word(&word) {
                Some(Token::Unit(unit))
            } else {
                match word.as_str() {
                    "move" | "moves" | "mv" | "mvs" => Some(Token::Moves),
                    word if SEPARATOR_WORDS.contains(&word) => {
                        segments.push(Vec::new());
                        None
                    }
                    _ => Some(Token::Word(word)),
                }
            };
            if let Some(token) = token
                && let Some(current) = segments.last_mut()
            {
                current.push(token);
            }
            if glued.is_some() {
                segments.push(Vec::new());
            }
            continue;
        }
        match c {
            '+' | ',' | ';' | ':' => segments.push(Vec::new()),
            '/' => {
                if let Some(current) = segments.last_mut() {
                    current.push(Token::Slash);
                }
            }
            '\'' | '"' => {
                let unit = if c == '"' {
                    Unit::Seconds
                } else {
                    Unit::Minutes
                };
                if let Some(current) = segments.last_mut() {
                    current.push(Token::Unit(unit));
                }
            }
            _ => {}
        }
        i += 1;
    }
    Ok(segments.into_iter().filter(|s| !s.is_empty()).collect())
}

/// What one segment says.
#[derive(Clone, Debug, PartialEq)]
enum Part {
    /// A period: its time, and its moves (None: not said).
    Period {
        time_ms: Option<u64>,
        moves: Option<u32>,
        rest_of_game: bool,
        bare: Option<f64>,
    },
    /// A per-move bonus.
    Bonus {
        ms: Option<u64>,
        mode: BonusMode,
        from_move: Option<u32>,
        bare: Option<f64>,
    },
    /// Only "from move N".
    FromMove(u32),
}

fn word_in(tokens: &[Token], words: &[&str]) -> bool {
    tokens
        .iter()
        .any(|t| matches!(t, Token::Word(w) if words.contains(&w.as_str())))
}

/// Whether the number at `i` counts moves: "40 moves", "from move 61", "90 min/40",
/// "40/90 min".
fn counts_moves(tokens: &[Token], i: usize) -> bool {
    let next = tokens.get(i + 1);
    let previous = i.checked_sub(1).and_then(|p| tokens.get(p));
    let unit_follows = matches!(next, Some(Token::Unit(_)));
    matches!(next, Some(Token::Moves))
        || matches!(previous, Some(Token::Moves))
        || (matches!(previous, Some(Token::Slash)) && !unit_follows)
        || (i == 0
            && matches!(next, Some(Token::Slash))
            && matches!(tokens.get(i + 3), Some(Token::Unit(_))))
}

/// The duration in a segment (number-unit pairs, "1h30" as an hour and 30 minutes), and a
/// bare number if one has no unit. Numbers that count moves are skipped.
fn duration(tokens: &[Token]) -> (Option<u64>, Option<f64>) {
    let mut total: Option<f64> = None;
    let mut bare = None;
    let mut last_unit: Option<Unit> = None;
    let mut i = 0;
    while i < tokens.len() {
        if let Token::Number(value) = tokens[i] {
            let counts_moves = counts_moves(tokens, i);
            if counts_moves {
                i += 1;
                continue;
            }
            match tokens.get(i + 1) {
                Some(Token::Unit(unit)) => {
                    *total.get_or_insert(0.0) += value * unit.ms() as f64;
                    last_unit = Some(*unit);
                    i += 2;
                    continue;
                }
                _ if last_unit == Some(Unit::Hours) => {
                    // "1h30": the minutes after the hours.
                    *total.get_or_insert(0.0) += value * Unit::Minutes.ms() as f64;
                    last_unit = Some(Unit::Minutes);
                }
                _ => bare = Some(value),
            }
        }
        i += 1;
    }
    (total.map(|ms| ms.round() as u64), bare)
}

/// "from move N" in a segment.
fn from_move(tokens: &[Token]) -> Option<u32> {
    tokens.windows(3).find_map(|w| match w {
        [Token::Word(from), Token::Moves, Token::Number(n)] if from == "from" => Some(*n as u32),
        _ => None,
    })
}

/// The moves a segment gives a period: "40 moves", "90 min/40", "40/90 min", "for 40".
fn moves_of(tokens: &[Token]) -> Option<u32> {
    tokens
        .iter()
        .enumerate()
        .find_map(|(i, token)| match token {
            Token::Number(n)
                if counts_moves(tokens, i)
                    && !matches!(
                        i.checked_sub(1).and_then(|p| tokens.get(p)),
                        Some(Token::Moves)
                    ) =>
            {
                Some(*n as u32)
            }
            _ => None,
        })
}

fn part_of(tokens: &[Token]) -> Part {
    let from = from_move(tokens);
    let delay = word_in(tokens, &["delay", "d"]);
    let bronstein = word_in(tokens, &["bronstein"]);
    let per_move = word_in(
        tokens,
        &[
            "per",
            "each",
            "every",
            "increment",
            "increments",
            "inc",
            "incr",
            "bonus",
            "added",
            "add",
            "fischer",
        ],
    ) || delay
        || bronstein
        || tokens
            .windows(2)
            .any(|w| matches!(w, [Token::Slash, Token::Moves]));
    let (time_ms, bare) = duration(tokens);
    let only_from = time_ms.is_none() && bare.is_none() && from.is_some();
    if only_from {
        return Part::FromMove(from.unwrap_or(1));
    }
    if per_move {
        let mode = if bronstein {
            BonusMode::Bronstein
        } else if delay {
            BonusMode::Delay
        } else {
            BonusMode::Increment
        };
        return Part::Bonus {
            ms: time_ms,
            mode,
            from_move: from,
            bare,
        };
    }
    let seconds_only = time_ms.is_some()
        && tokens
            .iter()
            .filter_map(|t| match t {
                Token::Unit(u) => Some(*u),
                _ => None,
            })
            .all(|u| u == Unit::Seconds);
    let moves = moves_of(tokens);
    if seconds_only && moves.is_none() {
        // "90 min + 30 s": a time in seconds alone is the per-move bonus.
        return Part::Bonus {
            ms: time_ms,
            mode: BonusMode::Increment,
            from_move: from,
            bare,
        };
    }
    Part::Period {
        time_ms,
        moves,
        rest_of_game: word_in(tokens, &["rest", "all", "remaining", "game", "sd"]),
        bare,
    }
}

/// Reads a control written for people, when it can mean only one control: periods with
/// their times in hours, minutes or seconds ("90 min/40 moves", "40 moves in 2 hours",
/// "30 min for the rest of the game"), one per-move bonus ("30 s per move", "increment of
/// 30 seconds", "10 s delay", "Bronstein 5 s") with "from move N" (from move 1 when not
/// said), and the chess shorthand `90+30` (minutes plus seconds). A number without a unit
/// where it could be minutes or seconds, two bonuses, or a control that ends with a number
/// of moves are reported with the reason.
pub fn read_free_text(text: &str) -> Result<TimeControl, TagError> {
    let unreadable = |why: String| TagError::Unreadable {
        text: text.to_string(),
        why,
    };
    let trimmed = text.trim();
    // The shorthand "90+30" (minutes, then seconds a move) and "90" alone.
    if let Some((base, increment)) = trimmed.split_once('+')
        && let (Some(base), Some(increment)) =
            (number::<u64>(base.trim()), number::<u64>(increment.trim()))
    {
        let periods = vec![Period {
            time_ms: base.saturating_mul(60_000),
            moves: None,
            bonus: (increment > 0).then_some(Bonus::increment(increment.saturating_mul(1000))),
        }];
        return TimeControl::from_periods(periods).map_err(|source| TagError::Invalid {
            text: text.to_string(),
            source,
        });
    }
    let parts: Vec<Part> = segments(trimmed)
        .map_err(unreadable)?
        .iter()
        // A part without a number ("Standard:", "FIDE rated") says nothing about the times.
        .filter(|s| s.iter().any(|t| matches!(t, Token::Number(_))))
        .map(|s| part_of(s))
        .collect();
    let mut periods: Vec<Period> = Vec::new();
    let mut bonus: Option<(Bonus, Option<u32>)> = None;
    let mut last_from: Option<u32> = None;
    for part in &parts {
        match part {
            Part::Period {
                time_ms,
                moves,
                rest_of_game,
                bare,
            } => {
                let Some(time_ms) = time_ms else {
                    let why = match (bare, periods.last()) {
                        (Some(n), Some(previous)) if previous.moves.is_some() => format!(
                            "`{n}` has no unit: after a period of {} moves it can be {n} \
                             minutes for the rest of the game or {n} seconds a move; write \
                             the unit",
                            previous.moves.unwrap_or(0)
                        ),
                        (Some(n), _) => {
                            format!("`{n}` has no unit: write minutes or seconds")
                        }
                        (None, _) => format!(
                            "a part gives no time{}",
                            moves
                                .map(|m| format!(
                                    " (`{m}` is read as a number of moves); write the unit of \
                                     the time"
                                ))
                                .unwrap_or_default()
                        ),
                    };
                    return Err(unreadable(why));
                };
                if *rest_of_game && moves.is_some() {
                    return Err(unreadable(
                        "a part gives both a number of moves and the rest of the game".into(),
                    ));
                }
                periods.push(Period {
                    time_ms: *time_ms,
                    moves: *moves,
                    bonus: None,
                });
            }
            Part::Bonus {
                ms,
                mode,
                from_move,
                bare,
            } => {
                let Some(ms) = ms else {
                    let why = match bare {
                        Some(n) => format!(
                            "the per-move `{n}` has no unit: write seconds (e.g. `{n} s per \
                             move`)"
                        ),
                        None => "a per-move bonus gives no time".into(),
                    };
                    return Err(unreadable(why));
                };
                if bonus.is_some() {
                    return Err(unreadable(
                        "it gives two per-move bonuses; write the control per period (e.g. \
                         40/5400+30:1800+30)"
                            .into(),
                    ));
                }
                bonus = Some((
                    Bonus {
                        mode: *mode,
                        ms: *ms,
                        from_move: None,
                    },
                    *from_move,
                ));
            }
            Part::FromMove(n) => last_from = Some(*n),
        }
    }
    if periods.is_empty() {
        return Err(unreadable("it gives no period of time".into()));
    }
    let rest_periods = periods.iter().filter(|p| p.moves.is_none()).count();
    if rest_periods > 1 {
        return Err(unreadable(format!(
            "{rest_periods} periods give no number of moves; only the last can be for the \
             rest of the game"
        )));
    }
    if let Some((bonus, from)) = bonus {
        apply_bonus(&mut periods, bonus, from.or(last_from).unwrap_or(1));
    }
    TimeControl::from_periods(periods).map_err(|source| TagError::Invalid {
        text: text.to_string(),
        source,
    })
}

/// Puts `bonus` on every period that contains a move from `from_move` on.
fn apply_bonus(periods: &mut [Period], bonus: Bonus, from_move: u32) {
    let mut first = 1u32;
    for period in periods.iter_mut() {
        let last = period
            .moves
            .map(|m| first.saturating_add(m.saturating_sub(1)));
        if last.is_none_or(|last| last >= from_move) {
            period.bonus = Some(Bonus {
                from_move: (from_move > first).then_some(from_move),
                ..bonus
            });
        }
        first = last.map_or(u32::MAX, |last| last.saturating_add(1));
    }
}

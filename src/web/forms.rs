//! What a person types in a form, read: a field that must be filled in, and clock times as
//! written (`1:29:51`, `4:05`, `+2:00`) for the desk's forms ([`super::desk::DeskCommand`]).
//! The form types take text, so that a value that does not read is answered by the page with
//! what to fix. This module knows nothing of chess.

/// A field of a form type that must be filled in (the form type holds it trimmed, `None` when
/// left blank), or the message that says so.
pub fn required<'a>(value: &'a Option<String>, label: &str) -> Result<&'a str, String> {
    value
        .as_deref()
        .ok_or_else(|| format!("{label} is missing; fill it in."))
}

/// Reads a clock time: `h:mm:ss`, `mm:ss` or a number of seconds; milliseconds.
pub fn parse_clock(text: &str) -> Result<u64, String> {
    let parts: Vec<&str> = text.trim().split(':').collect();
    let numbers: Option<Vec<u64>> = parts.iter().map(|p| p.trim().parse().ok()).collect();
    let seconds = match numbers.as_deref() {
        Some([s]) => Some(*s),
        Some([m, s]) if *s < 60 => Some(m * 60 + s),
        Some([h, m, s]) if *m < 60 && *s < 60 => Some(h * 3600 + m * 60 + s),
        _ => None,
    };
    match seconds {
        Some(s) if s <= 86_400 => Ok(s * 1000),
        _ => Err(format!(
            "`{text}` is not a clock time: write it as the clock shows it, e.g. 1:29:51 or \
             4:05 (or a number of seconds)."
        )),
    }
}

/// Reads a signed change of a clock: `+2:00`, `-1:00`, `+120` (seconds); milliseconds.
pub fn parse_delta(text: &str) -> Result<i64, String> {
    let text = text.trim();
    let (sign, rest) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text.strip_prefix('+').unwrap_or(text)),
    };
    let ms = parse_clock(rest).map_err(|_| {
        format!("`{text}` is not a change of time: write e.g. +2:00 to add two minutes or -1:00 to take one away.")
    })?;
    Ok(sign * i64::try_from(ms).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_times_are_read_as_the_clock_shows_them() {
        assert_eq!(parse_clock("1:29:51"), Ok(5_391_000));
        assert_eq!(parse_clock("4:05"), Ok(245_000));
        assert_eq!(parse_clock("90"), Ok(90_000));
        assert!(parse_clock("4:75").is_err());
        assert!(parse_clock("soon").is_err());
        assert_eq!(parse_delta("+2:00"), Ok(120_000));
        assert_eq!(parse_delta("-1:00"), Ok(-60_000));
    }
}

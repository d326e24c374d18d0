//! The `[%clk]` command of PGN comments (the PGN Specification Supplement's embedded command,
//! as broadcasts and lichess write it): the mover's clock after the move, `h:mm:ss` with an
//! optional fraction of a second. Read here for the import, the feed and the analyser, and
//! written here for the export, so that both directions agree on one text.

/// Reads `[%clk h:mm:ss]` (seconds may have a fraction) from a PGN comment, in milliseconds.
///
/// Promises: `None` when the comment holds no `[%clk]`, or one whose minutes or seconds are
/// not below 60 or that has more or fewer than three fields; the first `[%clk]` wins.
pub fn parse_clock_comment(comment: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(comment).ok()?;
    let start = text.find("[%clk")? + "[%clk".len();
    let rest = &text[start..];
    let end = rest.find(']')?;
    let mut parts = rest[..end].trim().split(':');
    let hours: u64 = parts.next()?.trim().parse().ok()?;
    let minutes: u64 = parts.next()?.trim().parse().ok()?;
    let seconds: f64 = parts.next()?.trim().parse().ok()?;
    if parts.next().is_some() || !(0.0..60.0).contains(&seconds) || minutes >= 60 {
        return None;
    }
    Some((hours * 3600 + minutes * 60) * 1000 + (seconds * 1000.0).round() as u64)
}

/// `h:mm:ss` for a `[%clk]` comment (whole seconds, rounded down, as clocks show them).
pub fn clock_text(ms: u64) -> String {
    let seconds = ms / 1000;
    format!(
        "{}:{:02}:{:02}",
        seconds / 3600,
        (seconds / 60) % 60,
        seconds % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_written_reads_back_as_the_same_whole_seconds() {
        for ms in [0, 59_000, 3_599_000, 5_400_000, 36_000_000] {
            let comment = format!("[%clk {}]", clock_text(ms));
            assert_eq!(parse_clock_comment(comment.as_bytes()), Some(ms));
        }
    }

    #[test]
    fn a_clock_with_sixty_minutes_or_a_missing_field_is_not_read() {
        assert_eq!(parse_clock_comment(b"[%clk 1:60:00]"), None);
        assert_eq!(parse_clock_comment(b"[%clk 1:00]"), None);
        assert_eq!(parse_clock_comment(b"[%clk 0:00:60]"), None);
    }
}

//! What the back office asks an arbiter to confirm before it records an end of the game that
//! the clock's or the board's own evidence contradicts.
//!
//! The Laws let these events stand whatever the evidence: a flag is observed by the arbiter
//! or claimed by a player, a player may resign a position the opponent cannot win (5.1.2), a
//! result is what both players signed (8.7). So nothing here is refused; but the usual cause
//! of such an entry at a desk is a slip (the wrong player, the wrong board, a flag entered for
//! the clock that still runs), and a game's end is the hardest entry to take back. The desk
//! therefore shows what the evidence says and records only when the arbiter confirms. The
//! API records at once: a relay or a pairing program has no one to ask.

use crate::game::Game;
use crate::game::board_status::board_status;
use crate::game::event::{ArbiterRuling, Event, GameResult, RecordedEvent};
use crate::rules::mating_potential::{MatingPotential, mating_potential};
use crate::rules::side::Side;
use crate::store::EventEnvelope;
use chrono::{DateTime, Utc};

/// Slack for readings typed to the second and for the time between the board and the desk.
const SLACK_MS: u64 = 2_000;

/// The first of `events` that the evidence of `game` (whose log is `log`) contradicts, with
/// what the evidence says, in words; `None` when nothing needs confirming. `now` is when the
/// events are being recorded.
pub fn doubt(
    game: &Game,
    log: &[EventEnvelope],
    events: &[RecordedEvent],
    now: DateTime<Utc>,
) -> Option<String> {
    if game.is_over() {
        return None;
    }
    events.iter().find_map(|event| match event {
        RecordedEvent::Flag { side } => flag_doubt(game, log, *side, now),
        RecordedEvent::Resign { by } => resignation_doubt(game, *by),
        RecordedEvent::ArbiterDecision {
            decision: ArbiterRuling::GameEnded,
            result: Some(result),
            ..
        } => result_doubt(game, *result),
        _ => None,
    })
}

/// A flag recorded for a clock whose last reading cannot have run down to 0:00 since: the
/// clock was not running (paused, or the opponent's clock runs), or too little time has
/// passed since it was read.
fn flag_doubt(
    game: &Game,
    log: &[EventEnvelope],
    side: Side,
    now: DateTime<Utc>,
) -> Option<String> {
    let view = game.view();
    let remaining = match side {
        Side::White => view.clocks.white_ms,
        Side::Black => view.clocks.black_ms,
    }?;
    if remaining <= SLACK_MS {
        return None;
    }
    let read_at = last_reading_at(log, side)?;
    let status = board_status(game);
    let running = status.running_clock == Some(side) && !status.paused;
    let elapsed = if running {
        u64::try_from((now - read_at).num_milliseconds()).unwrap_or(0)
    } else {
        0
    };
    if remaining <= elapsed + SLACK_MS {
        return None;
    }
    let name = colour(side);
    let reading = clock_text(remaining);
    let ago = minutes_text(u64::try_from((now - read_at).num_milliseconds()).unwrap_or(0));
    Some(if running {
        format!(
            "{name}'s clock read {reading} {ago} and has run since: it cannot show 0:00 for \
             another {} unless a reading was wrong. Look at the clock: record {name}'s flag \
             only if its display shows 0:00.",
            clock_text(remaining - elapsed)
        )
    } else {
        format!(
            "{name}'s clock read {reading} {ago} and has not run since ({}): it cannot show \
             0:00 unless a reading was wrong. Look at the clock: record {name}'s flag only if \
             its display shows 0:00.",
            if status.paused {
                "the clocks are paused".to_string()
            } else {
                format!("{}'s clock runs", colour(side.opponent()))
            }
        )
    })
}

/// A resignation by a player whose opponent cannot checkmate by any series of legal moves:
/// it stands (5.1.2), but the usual cause is the wrong player entered.
fn resignation_doubt(game: &Game, by: Side) -> Option<String> {
    let winner = by.opponent();
    cannot_mate(game, winner).then(|| {
        format!(
            "{} cannot checkmate {} by any series of legal moves in the position on the board \
             (proven by the helpmate search). A resignation stands all the same (5.1.2); check \
             that it is {} who resigned, not {}.",
            colour(winner),
            colour(by),
            colour(by),
            colour(winner)
        )
    })
}

/// A result whose winner cannot checkmate by any series of legal moves in the position on the
/// board: possible (the loser resigned, 5.1.2; a loss under 7.5.5 or 11.3), but more often a
/// result entered for the wrong board or the wrong way round.
fn result_doubt(game: &Game, result: GameResult) -> Option<String> {
    let (winner, text) = match result {
        GameResult::WhiteWins => (Side::White, "1-0"),
        GameResult::BlackWins => (Side::Black, "0-1"),
        GameResult::Draw
        | GameResult::BothLose
        | GameResult::WhiteLosesBlackHalf
        | GameResult::BlackLosesWhiteHalf => return None,
    };
    (game.ply() > 0 && cannot_mate(game, winner)).then(|| {
        format!(
            "{} cannot checkmate by any series of legal moves in the position on the board \
             (proven by the helpmate search), so {text} cannot come from the board itself; it \
             stands if {} resigned (5.1.2) or lost under another article. Check the result \
             the players signed and the board it belongs to.",
            colour(winner),
            colour(winner.opponent())
        )
    })
}

/// A player's colour as a sentence starts it: `White`, `Black`.
fn colour(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// Whether `side` is proven unable to checkmate in the game's position.
fn cannot_mate(game: &Game, side: Side) -> bool {
    mating_potential(game.position(), side.into()).0 == MatingPotential::CannotMate
}

/// When `side`'s clock was last read: the latest event that carried its time, as a press's
/// reading or in the event's clock reading.
fn last_reading_at(log: &[EventEnvelope], side: Side) -> Option<DateTime<Utc>> {
    log.iter().rev().find_map(|envelope| {
        let pressed = match &envelope.event {
            Event::Recorded(RecordedEvent::ClockPress {
                white_ms, black_ms, ..
            }) => match side {
                Side::White => white_ms.is_some(),
                Side::Black => black_ms.is_some(),
            },
            _ => false,
        };
        let read = envelope.clock.as_ref().is_some_and(|clock| match side {
            Side::White => clock.white_ms.is_some(),
            Side::Black => clock.black_ms.is_some(),
        });
        (pressed || read).then(|| envelope.occurred_at.unwrap_or(envelope.recorded_at))
    })
}

/// A clock's time as its display shows it: `1:29:51`, or `4:05` under an hour.
fn clock_text(ms: u64) -> String {
    let seconds = ms / 1000;
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

/// How long ago, in words.
fn minutes_text(ms: u64) -> String {
    match ms / 60_000 {
        0 => "less than a minute ago".to_string(),
        1 => "a minute ago".to_string(),
        minutes => format!("{minutes} minutes ago"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_reads_as_its_display_shows_it() {
        assert_eq!(clock_text(5_391_000), "1:29:51");
        assert_eq!(clock_text(245_000), "4:05");
        assert_eq!(minutes_text(30_000), "less than a minute ago");
        assert_eq!(minutes_text(12 * 60_000 + 5), "12 minutes ago");
    }
}

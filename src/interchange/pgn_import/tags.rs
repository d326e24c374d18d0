//! A game's tags as the service's settings and ending: names, event, site, date, round and
//! board, the `TimeControl` tag, and the `Result` with its `Termination` (a time forfeit as
//! the loser's flag, ruled on under 6.9; a resignation as a resignation, 5.1.2; any other
//! result kept as the file reports it). Apart from the moves, since a tag is text to clean
//! and never a position.

use super::{MAX_TEXT, RawGame, default_time_control};
use crate::game::event::{
    ArbiterRuling, EndCause, GameResult, GameSettings, LawsEdition, Player, RecordedEvent,
    Regulations, Side, TimeControl,
};
use crate::interchange::time_control_tag::{TagReading, describe, read_tag_value};

/// A tag's text as a setting: no control characters, at most 200 characters, `?` if empty.
pub(super) fn clean_text(text: Option<&str>, notes: &mut Vec<String>, tag: &str) -> String {
    let cleaned: String = text
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let trimmed = cleaned.trim();
    if trimmed.chars().count() > MAX_TEXT {
        notes.push(format!("The {tag} tag was cut to {MAX_TEXT} characters."));
        return trimmed.chars().take(MAX_TEXT).collect();
    }
    if trimmed.is_empty() {
        "?".to_string()
    } else {
        trimmed.to_string()
    }
}

/// The game's own day from its `Date` tag (kept as written, `2026.03.??` too); none when the
/// tag is absent or wholly unknown (`????.??.??`), and none with a note when it is not a PGN
/// date.
pub(super) fn date_of(text: Option<&str>, notes: &mut Vec<String>) -> Option<String> {
    let text = text.map(str::trim).filter(|t| !t.is_empty())?;
    if text == "????.??.??" {
        return None;
    }
    if crate::game::settings::is_pgn_date(text) {
        return Some(text.to_string());
    }
    notes.push(format!(
        "The Date tag `{}` is not a PGN date (YYYY.MM.DD); the game is kept without its date.",
        text.chars()
            .filter(|c| !c.is_control())
            .take(40)
            .collect::<String>()
    ));
    None
}

/// A FIDE id tag: digits, not zero.
pub(super) fn fide_id(text: Option<&str>) -> Option<u64> {
    text.map(str::trim)
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse().ok())
        .filter(|id| *id > 0)
}

/// The round and board of a `Round` tag: `"5.3"` is round 5, board 3 (a last part after a
/// dot that is a positive number is the board); otherwise the whole text is the round.
pub fn round_and_board(round: &str) -> (String, Option<u32>) {
    if let Some((r, b)) = round.rsplit_once('.')
        && !r.is_empty()
        && !b.is_empty()
        && b.bytes().all(|c| c.is_ascii_digit())
        && let Ok(board) = b.parse::<u32>()
        && board > 0
    {
        return (r.to_string(), Some(board));
    }
    (round.to_string(), None)
}

/// The time control of a PGN `TimeControl` tag, and a note when it is absent or could not
/// be read (then [`default_time_control`]).
///
/// Read with [`read_tag_value`]: the forms of PGN standard 9.6.1 (`5400+30`,
/// `40/5400+30:1800+30` with all its periods, `300`, `-`, `?`), refused as ambiguous where the
/// chess shorthand would read it otherwise (`90+30`), else free text when it means one control
/// ("90 min/40 moves + 30 min, 30 s per move from move 1", noted), reported otherwise. A
/// sandclock (`*180`) is reported: no clock mode of the service models it. The rate of play
/// follows from the control (Appendices A.1 and B.1: all periods plus 60 times the
/// increment), and a control no clock can run is reported.
pub fn time_control_from_tag(tag: Option<&str>) -> (TimeControl, Option<String>) {
    let default_note = |why: &str| {
        Some(format!(
            "{why}: recorded as standard play, 90 minutes plus 30 seconds a move (the rate \
             only decides the penalties of Appendices A and B)."
        ))
    };
    let Some(text) = tag.map(str::trim) else {
        return (default_time_control(), default_note("No TimeControl tag"));
    };
    let (control, note) = match read_tag_value(text) {
        Ok(TagReading::Standard(control)) => (control, None),
        Ok(TagReading::FreeText(control)) => {
            let note = format!(
                "TimeControl `{text}` was read as free text: {}.",
                describe(&control)
            );
            (control, Some(note))
        }
        Ok(TagReading::Unknown) => {
            return (
                default_time_control(),
                default_note("TimeControl unknown (?)"),
            );
        }
        Ok(TagReading::NoControl) => {
            return (
                default_time_control(),
                default_note("TimeControl `-` (no time control)"),
            );
        }
        Err(error) => {
            return (
                default_time_control(),
                default_note(&format!("TimeControl `{text}` cannot be read ({error})")),
            );
        }
    };
    match control.validate() {
        Ok(()) => (control, note),
        Err(error) => (
            default_time_control(),
            default_note(&format!("TimeControl `{text}` cannot be run ({error})")),
        ),
    }
}

pub(super) fn result_of(text: &str) -> Option<GameResult> {
    match text.trim() {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" | "½-½" => Some(GameResult::Draw),
        "0-0" => Some(GameResult::BothLose),
        "0-1/2" | "0-½" => Some(GameResult::WhiteLosesBlackHalf),
        "1/2-0" | "½-0" => Some(GameResult::BlackLosesWhiteHalf),
        _ => None,
    }
}

/// The end a `Termination` tag names for a decisive result, as a recorded event: a time
/// forfeit is the loser's flag fall (6.9), a resignation the loser's (5.1.2). The round PGN
/// the follower reads is read by the same rule.
pub fn tag_ending(termination: Option<&str>, result: Option<GameResult>) -> Option<RecordedEvent> {
    let loser = match result? {
        GameResult::WhiteWins => Side::Black,
        GameResult::BlackWins => Side::White,
        GameResult::Draw
        | GameResult::BothLose
        | GameResult::WhiteLosesBlackHalf
        | GameResult::BlackLosesWhiteHalf => return None,
    };
    let termination = termination?.to_lowercase();
    if termination.contains("time forfeit") || termination.contains("on time") {
        Some(RecordedEvent::Flag { side: loser })
    } else if termination.contains("resign") {
        Some(RecordedEvent::Resign { by: loser })
    } else {
        None
    }
}

/// A result the file states that no flag fall or resignation explains (a draw by agreement,
/// a decisive result without a `Termination`, an adjudication), recorded as reported: the
/// arbiter's decision ending the game with that result, its reason saying it is the file's.
/// A result the board reached first (a mate) stands, and this one is then refused.
pub(super) fn reported_result(result: GameResult, termination: Option<&str>) -> RecordedEvent {
    RecordedEvent::ArbiterDecision {
        subject_seq: None,
        decision: ArbiterRuling::GameEnded,
        reason: format!(
            "the result {} as the imported file reports it ({}); it was not reached on the \
             board",
            result.pgn(),
            match termination {
                Some(termination) => format!("Termination `{termination}`"),
                None => "the file states no Termination".to_string(),
            }
        ),
        result: Some(result),
        penalty: None,
        attempted_move: None,
        fen: None,
        increment_ms: None,
        move_count: None,
        // A played game whose result the file reports; an adjudication stays one (TRF and
        // the report code both as played games: docs/interchange.md).
        cause: Some(
            if termination.is_some_and(|t| t.to_lowercase().contains("adjudication")) {
                EndCause::Adjudication
            } else {
                EndCause::ReportedResult
            },
        ),
    }
}

pub(super) fn settings_of(raw: &RawGame, notes: &mut Vec<String>) -> GameSettings {
    let (round, board_in_round) = round_and_board(&clean_text(raw.tag("Round"), notes, "Round"));
    let board = raw
        .tag("Board")
        .and_then(|b| b.trim().parse::<u32>().ok())
        .filter(|b| *b > 0)
        .or(board_in_round);
    let (time_control, note) = time_control_from_tag(raw.tag("TimeControl"));
    notes.extend(note);
    let site = clean_text(raw.tag("Site"), notes, "Site");
    let date = date_of(raw.tag("Date"), notes);
    GameSettings {
        white: Player {
            name: clean_text(raw.tag("White"), notes, "White"),
            fide_id: fide_id(raw.tag("WhiteFideId")),
        },
        black: Player {
            name: clean_text(raw.tag("Black"), notes, "Black"),
            fide_id: fide_id(raw.tag("BlackFideId")),
        },
        event: clean_text(raw.tag("Event"), notes, "Event"),
        round,
        board,
        site: (site != "?").then_some(site),
        start_fen: raw.tag("FEN").map(|f| f.trim().to_string()),
        date,
        start_moves_completed: None,
        start_clocks: None,
        time_control,
        clock_behaviour: Default::default(),
        laws_edition: LawsEdition::default(),
        regulations: Regulations::default(),
    }
}

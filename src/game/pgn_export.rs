//! PGN export of a recorded game: the seven-tag roster, `Result`, `Termination`, `[%clk]`
//! clock comments where the clock was read, and comments for offers, claims, rulings and
//! penalties, so that the record can be read in any chess program.

use super::event::{
    ClockReading, Event, GameResult, RecordedEvent, ServiceEvent, Side, Termination,
};
use super::{CorruptLog, Game};
use shakmaty::{Color, Position};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One stored event, as the export needs it.
#[derive(Clone, Debug)]
pub struct LoggedEvent<'a> {
    /// Its `seq`.
    pub seq: u64,
    /// The event.
    pub event: &'a Event,
    /// The clock reading stored with it.
    pub clock: Option<&'a ClockReading>,
}

/// `h:mm:ss` for a `[%clk]` comment.
fn clock_text(ms: u64) -> String {
    let seconds = ms / 1000;
    format!(
        "{}:{:02}:{:02}",
        seconds / 3600,
        (seconds / 60) % 60,
        seconds % 60
    )
}

fn escape_tag(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

fn escape_comment(text: &str) -> String {
    text.replace('}', ")").replace('{', "(")
}

/// The PGN `Termination` tag value (PGN standard 9.8.1) and words for a comment.
fn termination_tag(termination: Option<Termination>) -> &'static str {
    match termination {
        None => "unterminated",
        Some(Termination::Flag) => "time forfeit",
        Some(Termination::IllegalMoves) => "rules infraction",
        Some(Termination::Arbiter) | Some(Termination::Appeal) => "adjudication",
        Some(_) => "normal",
    }
}

/// The comment an event leaves in the movetext, if any.
fn comment_for(event: &Event) -> Option<String> {
    let text = match event {
        Event::Recorded(recorded) => match recorded {
            RecordedEvent::DrawOffer { by } => format!("{} offers a draw (=)", by.name()),
            RecordedEvent::DrawAccept { by } => format!("{} accepts the draw", by.name()),
            RecordedEvent::DrawDecline { by } => format!("{} declines the draw", by.name()),
            RecordedEvent::Claim {
                by,
                kind,
                intended_move,
            } => {
                let kind = serde_json::to_value(kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default()
                    .replace('_', " ");
                match intended_move {
                    Some(m) => format!(
                        "{} claims a draw ({kind}) with the intended move {m}",
                        by.name()
                    ),
                    None => format!("{} claims a draw ({kind})", by.name()),
                }
            }
            RecordedEvent::IllegalMove {
                by,
                description,
                attempted_move,
                ..
            } => match attempted_move {
                Some(attempted) => {
                    format!("illegal move by {} ({attempted}): {description}", by.name())
                }
                None => format!("illegal move by {}: {description}", by.name()),
            },
            RecordedEvent::Touch { by, square } => format!("{} touched {square}", by.name()),
            RecordedEvent::Flag { side } => format!("{}'s flag fell", side.name()),
            RecordedEvent::Resign { by } => format!("{} resigns", by.name()),
            RecordedEvent::ClockAdjust {
                side,
                delta_ms,
                reason,
            } => format!(
                "arbiter adjusts {}'s clock by {} s: {reason}",
                side.name(),
                delta_ms / 1000
            ),
            RecordedEvent::ArbiterDecision { reason, .. } => format!("arbiter: {reason}"),
            RecordedEvent::AppealLodged {
                by,
                against_seq,
                grounds,
            } => format!("appeal by {by} against event {against_seq}: {grounds}"),
            RecordedEvent::AppealDecided {
                against_seq,
                upheld,
                reason,
                ..
            } => format!(
                "appeal against event {against_seq} {}: {reason}",
                if *upheld { "upheld" } else { "dismissed" }
            ),
            RecordedEvent::Correction {
                retracts_seq,
                reason,
            } => format!("correction: event {retracts_seq} retracted ({reason})"),
            RecordedEvent::Move { .. }
            | RecordedEvent::ClockPress { .. }
            | RecordedEvent::ClockPause { .. }
            | RecordedEvent::ClockResume {} => return None,
        },
        Event::Service(service) => match service {
            ServiceEvent::GameCreated(_) => return None,
            ServiceEvent::ClaimRuled(ruling) => format!(
                "claim {}, {}: {}",
                match ruling.outcome {
                    super::event::ClaimOutcome::Upheld => "upheld",
                    super::event::ClaimOutcome::Rejected => "rejected",
                },
                ruling.article,
                ruling.reason
            ),
            ServiceEvent::PenaltyApplied {
                side,
                add_ms,
                article,
                reason,
                ..
            } => format!(
                "{} s added to {}'s clock ({article}): {reason}",
                add_ms / 1000,
                side.name()
            ),
            ServiceEvent::GameEnded {
                result,
                article,
                reason,
                ..
            } => format!("game ended {} ({article}): {reason}", result.pgn()),
        },
    };
    Some(escape_comment(&text))
}

/// Writes the PGN of a game's log. `date` is the PGN `Date` (`YYYY.MM.DD`).
///
/// A PGN game holds only legal moves. When an illegal move stood (Appendix A.5.2) the game
/// went on from a position no legal move leads to: the record then ends at that move with a
/// comment saying what happened, and continues as a second game record with the same tags,
/// `SetUp` and the `FEN` of the position as it stood, so that every chess program reads it.
pub fn export_pgn(game_log: &[LoggedEvent<'_>], date: &str) -> Result<String, CorruptLog> {
    let Some(first) = game_log.first() else {
        return Err(CorruptLog {
            seq: 1,
            problem: "the log is empty".into(),
        });
    };
    let Event::Service(ServiceEvent::GameCreated(settings)) = first.event else {
        return Err(CorruptLog {
            seq: first.seq,
            problem: "the log does not begin with game_created".into(),
        });
    };
    let mut game = Game::new(settings).map_err(|e| CorruptLog {
        seq: first.seq,
        problem: e.to_string(),
    })?;
    let mut clocks: BTreeMap<usize, String> = BTreeMap::new();
    let mut comments: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for logged in game_log {
        game.apply_with_clock(logged.seq, logged.event, logged.clock)?;
        let ply = game.ply();
        if ply > 0 {
            let mover = if game.position().turn() == Color::White {
                Side::Black
            } else {
                Side::White
            };
            let reading = match logged.event {
                Event::Recorded(RecordedEvent::ClockPress {
                    by,
                    white_ms,
                    black_ms,
                }) if *by == mover => match mover {
                    Side::White => *white_ms,
                    Side::Black => *black_ms,
                },
                Event::Recorded(RecordedEvent::Move { .. })
                | Event::Recorded(RecordedEvent::ClockPress { .. }) => {
                    logged.clock.and_then(|c| match mover {
                        Side::White => c.white_ms,
                        Side::Black => c.black_ms,
                    })
                }
                _ => None,
            };
            if let Some(ms) = reading {
                clocks.insert(ply, format!("[%clk {}]", clock_text(ms)));
            }
        }
        if let Some(comment) = comment_for(logged.event) {
            comments.entry(ply).or_default().push(comment);
        }
    }
    let view = game.view();
    // Where the game went on from a position no legal move leads to, a new record begins.
    let mut segments: Vec<(usize, Option<String>)> = vec![(0, settings.start_fen.clone())];
    for stood in &view.stood_illegal_moves {
        segments.push((stood.ply, Some(stood.fen.clone())));
    }
    let last_ply = view.moves.len();
    let mut pgn = String::new();
    for (index, (from_ply, fen)) in segments.iter().enumerate() {
        let to_ply = segments
            .get(index + 1)
            .map(|(p, _)| p - 1)
            .unwrap_or(last_ply);
        let last_segment = index + 1 == segments.len();
        let result = if last_segment {
            view.result.map(GameResult::pgn).unwrap_or("*")
        } else {
            "*"
        };
        let start = match index {
            0 => game.position_at_ply(0),
            _ => game.position_at_ply(*from_ply),
        }
        .cloned()
        .unwrap_or_default();
        write_tags(
            &mut pgn,
            settings,
            date,
            result,
            &view,
            fen.as_deref(),
            last_segment,
        );
        let mut tokens: Vec<String> = Vec::new();
        let annotation = |ply: usize, rest: bool| -> Option<String> {
            let mut parts: Vec<String> = clocks.get(&ply).into_iter().cloned().collect();
            if rest {
                // Comments left after a retracted last move belong here too.
                parts.extend(
                    comments
                        .range(ply..)
                        .flat_map(|(_, texts)| texts.iter().cloned()),
                );
            } else if let Some(texts) = comments.get(&ply) {
                parts.extend(texts.iter().cloned());
            }
            (!parts.is_empty()).then(|| format!("{{{}}}", parts.join("; ")))
        };
        if index > 0 {
            let stood = &view.stood_illegal_moves[index - 1];
            tokens.push(format!(
                "{{{}}}",
                escape_comment(&format!(
                    "the game continues from the position as it stood after the illegal move {} (event {})",
                    stood.attempted_move.as_deref().unwrap_or("--"),
                    stood.seq
                ))
            ));
        }
        // Comments at the segment's first position; after an illegal move that stood they
        // were written at the end of the record before.
        if index == 0
            && let Some(before) = annotation(0, last_ply == 0 && last_segment)
        {
            tokens.push(before);
        }
        let white_first = start.turn() == Color::White;
        let first_move_number = start.fullmoves().get() as usize;
        let moves_here = if to_ply > *from_ply {
            &view.moves[*from_ply..to_ply]
        } else {
            &[][..]
        };
        for (offset, san) in moves_here.iter().enumerate() {
            let ply = from_ply + offset + 1;
            let white_to_move = (offset % 2 == 0) == white_first;
            let number = first_move_number + (offset + usize::from(!white_first)) / 2;
            if white_to_move {
                tokens.push(format!("{number}."));
            } else if offset == 0 {
                tokens.push(format!("{number}..."));
            }
            tokens.push(san.clone());
            let is_last = ply == to_ply;
            if let Some(text) = annotation(ply, is_last && last_segment) {
                tokens.push(text);
                if !white_to_move || is_last {
                    continue;
                }
                // After a comment on White's move, Black's move repeats the number (PGN 8.2.2.2).
                tokens.push(format!("{number}..."));
            }
        }
        if !last_segment {
            let stood = &view.stood_illegal_moves[index];
            let illegal = stood.attempted_move.as_deref().unwrap_or("an illegal move");
            tokens.push(format!(
                "{{{}}}",
                escape_comment(&format!(
                    "{illegal} (illegal) stood: neither the opponent nor the arbiter acted before the opponent's next move, so the game continued from {}",
                    stood.fen
                ))
            ));
            if let Some(text) = annotation(stood.ply, false) {
                tokens.push(text);
            }
        }
        tokens.push(result.to_string());
        write_movetext(&mut pgn, &tokens);
    }
    Ok(pgn)
}

/// The tag section of one record.
fn write_tags(
    pgn: &mut String,
    settings: &super::event::GameSettings,
    date: &str,
    result: &str,
    view: &super::GameView,
    fen: Option<&str>,
    last_segment: bool,
) {
    let tag = |pgn: &mut String, name: &str, value: &str| {
        let _ = writeln!(pgn, "[{name} \"{}\"]", escape_tag(value));
    };
    tag(pgn, "Event", &settings.event);
    tag(pgn, "Site", settings.site.as_deref().unwrap_or("?"));
    tag(pgn, "Date", date);
    tag(pgn, "Round", &settings.round);
    tag(pgn, "White", &settings.white.name);
    tag(pgn, "Black", &settings.black.name);
    tag(pgn, "Result", result);
    if let Some(board) = settings.board {
        tag(pgn, "Board", &board.to_string());
    }
    if let Some(id) = settings.white.fide_id {
        tag(pgn, "WhiteFideId", &id.to_string());
    }
    if let Some(id) = settings.black.fide_id {
        tag(pgn, "BlackFideId", &id.to_string());
    }
    let control = &settings.time_control;
    tag(
        pgn,
        "TimeControl",
        &format!("{}+{}", control.base_ms / 1000, control.increment_ms / 1000),
    );
    let termination = if last_segment {
        termination_tag(view.termination)
    } else {
        "unterminated"
    };
    tag(pgn, "Termination", termination);
    if let Some(fen) = fen {
        tag(pgn, "SetUp", "1");
        tag(pgn, "FEN", fen);
    }
    pgn.push('\n');
}

/// Movetext in lines of at most 79 characters (PGN export format); comments wrap between
/// words.
fn write_movetext(pgn: &mut String, tokens: &[String]) {
    let mut line = String::new();
    for token in tokens.iter().flat_map(|t| t.split(' ')) {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            pgn.push_str(&line);
            pgn.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    pgn.push_str(&line);
    pgn.push_str("\n\n");
}

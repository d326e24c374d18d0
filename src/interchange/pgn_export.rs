//! PGN export of a recorded game: the seven-tag roster, `Result`, `Termination`, `[%clk]`
//! clock comments, and comments for offers, claims, rulings and penalties, so that the record
//! can be read in any chess program.
//!
//! Two styles: the archive ([`export_pgn`], `GET /v1/games/{id}/pgn`) gives `[%clk]` where the
//! clock was read and every comment; the broadcast ([`export_broadcast_pgn`], the round PGN that
//! relays poll) writes `Round "r.b"` (round.board), a `[%clk]` after every move (the clock the
//! engine keeps where no reading came with the move) and, for the public, only the comments
//! the public may see ([`super::broadcast::Disclosure`]). Moves are always the engine's legal
//! SAN; an illegal move (7.5) appears only in a comment.

use super::broadcast::{Audience, Disclosure};
use crate::game::event::{
    ClockReading, Event, GameResult, RecordedEvent, ServiceEvent, Side, Termination,
};
use crate::game::{CorruptLog, Game};
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

/// The half-moves played in `game`'s current position since its start.
fn ply_of(game: &Game, start_ply: u32) -> usize {
    let position = game.position();
    let ply = (position.fullmoves().get() - 1) * 2 + u32::from(position.turn() == Color::Black);
    ply.saturating_sub(start_ply) as usize
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
                by, description, ..
            } => {
                format!("illegal move by {}: {description}", by.name())
            }
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
                    crate::game::event::ClaimOutcome::Upheld => "upheld",
                    crate::game::event::ClaimOutcome::Rejected => "rejected",
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

/// How a PGN is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PgnStyle {
    /// `Round "r.b"` (round.board) instead of the round alone.
    pub round_with_board: bool,
    /// A `[%clk]` after every move: the reading sent with the move (or the mover's clock
    /// press), else the mover's clock as the engine keeps it.
    pub clock_every_move: bool,
    /// Who reads it: the public sees only the comments it may see.
    pub audience: Audience,
}

impl PgnStyle {
    /// The archive: `[%clk]` only where the clock was read, every comment.
    pub const ARCHIVE: PgnStyle = PgnStyle {
        round_with_board: false,
        clock_every_move: false,
        audience: Audience::Full,
    };

    /// A broadcast for `audience`.
    pub fn broadcast(audience: Audience) -> PgnStyle {
        PgnStyle {
            round_with_board: true,
            clock_every_move: true,
            audience,
        }
    }
}

/// Writes the PGN of a game's log (archive style). `date` is the PGN `Date` (`YYYY.MM.DD`).
pub fn export_pgn(game_log: &[LoggedEvent<'_>], date: &str) -> Result<String, CorruptLog> {
    export_pgn_styled(game_log, date, PgnStyle::ARCHIVE)
}

/// Writes the PGN of a game's log for a broadcast relay (see the module documentation);
/// `game_log` is what the audience may see of the log so far (for the public: the events
/// older than the broadcast delay).
pub fn export_broadcast_pgn(
    game_log: &[LoggedEvent<'_>],
    date: &str,
    audience: Audience,
) -> Result<String, CorruptLog> {
    export_pgn_styled(game_log, date, PgnStyle::broadcast(audience))
}

/// `Round` as relays read it: `r.b` (round.board) when the board is known and the round has
/// no board part yet.
fn round_tag(round: &str, board: Option<u32>) -> String {
    match board {
        Some(board) if !round.contains('.') => format!("{round}.{board}"),
        _ => round.to_string(),
    }
}

/// Writes the PGN of a game's log in `style`.
pub fn export_pgn_styled(
    game_log: &[LoggedEvent<'_>],
    date: &str,
    style: PgnStyle,
) -> Result<String, CorruptLog> {
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
    let start = game.position().clone();
    let start_ply = (start.fullmoves().get() - 1) * 2 + u32::from(start.turn() == Color::Black);
    let mut clocks: BTreeMap<usize, String> = BTreeMap::new();
    // The mover's clock as the engine keeps it, per ply (broadcast style).
    let mut engine_clocks: BTreeMap<usize, u64> = BTreeMap::new();
    let mut comments: BTreeMap<usize, Vec<(u64, String)>> = BTreeMap::new();
    let mut disclosure = Disclosure::new(style.audience);
    let mut previous_ply = 0;
    for logged in game_log {
        game.apply(logged.seq, logged.event)?;
        disclosure.observe(logged.seq, logged.event);
        let ply = ply_of(&game, start_ply);
        if ply < previous_ply {
            // A correction retracted moves: their clock readings go with them.
            clocks.retain(|&p, _| p <= ply);
            engine_clocks.retain(|&p, _| p <= ply);
        }
        previous_ply = ply;
        // The mover's clock as the engine keeps it when the move is made or the mover
        // presses the clock (not after a penalty or adjustment that comes later in the ply).
        let sets_movers_clock = match logged.event {
            Event::Recorded(RecordedEvent::Move { .. }) => true,
            Event::Recorded(RecordedEvent::ClockPress { by, .. }) => {
                Side::from(game.position().turn()) != *by
            }
            _ => false,
        };
        if ply > 0 && sets_movers_clock {
            let mover = if game.position().turn() == Color::White {
                Side::Black
            } else {
                Side::White
            };
            let kept = game.clocks();
            let kept = match mover {
                Side::White => kept.white_ms,
                Side::Black => kept.black_ms,
            };
            if let Some(ms) = kept {
                engine_clocks.insert(ply, ms);
            }
        }
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
            comments.entry(ply).or_default().push((logged.seq, comment));
        }
    }
    let view = game.view();
    let ended = game.is_over();
    let comments: BTreeMap<usize, Vec<String>> = comments
        .into_iter()
        .map(|(ply, texts)| {
            let shown = texts
                .into_iter()
                .filter(|(seq, _)| disclosure.shows(*seq, ended))
                .map(|(_, text)| text)
                .collect::<Vec<_>>();
            (ply, shown)
        })
        .filter(|(_, texts)| !texts.is_empty())
        .collect();
    if style.clock_every_move {
        for (ply, ms) in &engine_clocks {
            clocks
                .entry(*ply)
                .or_insert_with(|| format!("[%clk {}]", clock_text(*ms)));
        }
    }
    let result = view.result.map(GameResult::pgn).unwrap_or("*");
    let mut pgn = String::new();
    let tag = |pgn: &mut String, name: &str, value: &str| {
        let _ = writeln!(pgn, "[{name} \"{}\"]", escape_tag(value));
    };
    tag(&mut pgn, "Event", &settings.event);
    tag(&mut pgn, "Site", settings.site.as_deref().unwrap_or("?"));
    tag(&mut pgn, "Date", date);
    if style.round_with_board {
        tag(
            &mut pgn,
            "Round",
            &round_tag(&settings.round, settings.board),
        );
    } else {
        tag(&mut pgn, "Round", &settings.round);
    }
    tag(&mut pgn, "White", &settings.white.name);
    tag(&mut pgn, "Black", &settings.black.name);
    tag(&mut pgn, "Result", result);
    if let Some(board) = settings.board {
        tag(&mut pgn, "Board", &board.to_string());
    }
    if let Some(id) = settings.white.fide_id {
        tag(&mut pgn, "WhiteFideId", &id.to_string());
    }
    if let Some(id) = settings.black.fide_id {
        tag(&mut pgn, "BlackFideId", &id.to_string());
    }
    let control = &settings.time_control;
    tag(
        &mut pgn,
        "TimeControl",
        &format!("{}+{}", control.base_ms / 1000, control.increment_ms / 1000),
    );
    tag(&mut pgn, "Termination", termination_tag(view.termination));
    if let Some(fen) = &settings.start_fen {
        tag(&mut pgn, "SetUp", "1");
        tag(&mut pgn, "FEN", fen);
    }
    pgn.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    let annotation = |ply: usize| -> Option<String> {
        let mut parts: Vec<String> = Vec::new();
        if let Some(clock) = clocks.get(&ply) {
            parts.push(clock.clone());
        }
        if let Some(texts) = comments.get(&ply) {
            parts.extend(texts.iter().cloned());
        }
        (!parts.is_empty()).then(|| format!("{{{}}}", parts.join("; ")))
    };
    if let Some(before) = annotation(0) {
        tokens.push(before);
    }
    let white_first = start.turn() == Color::White;
    let first_move_number = start.fullmoves().get();
    let last_ply = view.moves.len();
    for (index, san) in view.moves.iter().enumerate() {
        let ply = index + 1;
        let white_to_move = (index % 2 == 0) == white_first;
        let number = first_move_number as usize + (index + usize::from(!white_first)) / 2;
        if white_to_move {
            tokens.push(format!("{number}."));
        } else if index == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(san.clone());
        if ply == last_ply {
            // Comments left after a retracted last move belong here too.
            let rest: Vec<String> = comments
                .range(ply..)
                .flat_map(|(_, texts)| texts.iter().cloned())
                .collect();
            let mut parts: Vec<String> = clocks.get(&ply).into_iter().cloned().collect();
            parts.extend(rest);
            if !parts.is_empty() {
                tokens.push(format!("{{{}}}", parts.join("; ")));
            }
        } else if let Some(text) = annotation(ply) {
            tokens.push(text);
            if !white_to_move {
                continue;
            }
            // After a comment on White's move, Black's move repeats the number (PGN 8.2.2.2).
            tokens.push(format!("{number}..."));
        }
    }
    tokens.push(result.to_string());
    // Lines of at most 79 characters (PGN export format); comments wrap between words.
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
    Ok(pgn)
}

#[cfg(test)]
mod tests {
    use super::round_tag;

    #[test]
    fn a_broadcast_round_is_written_round_dot_board_unless_it_already_names_the_board() {
        assert_eq!(round_tag("5", Some(3)), "5.3");
        assert_eq!(round_tag("5.3", Some(3)), "5.3");
        assert_eq!(round_tag("5", None), "5");
    }
}

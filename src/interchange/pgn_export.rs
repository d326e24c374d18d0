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
use super::pgn_clock::clock_text;
use crate::game::event::{
    ClockReading, Event, GameResult, RecordedEvent, ServiceEvent, Side, Termination,
};
use crate::game::narration::Narrator;
use crate::game::outcome::Outcome;
use crate::game::{CorruptLog, Game};
use shakmaty::{Color, Position};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One stored event, as the export needs it.
#[derive(Clone, Debug)]
pub struct ExportedEvent<'a> {
    /// Its `seq`.
    pub seq: u64,
    /// The event.
    pub event: &'a Event,
    /// The clock reading stored with it.
    pub clock: Option<&'a ClockReading>,
}

fn escape_tag(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

fn escape_comment(text: &str) -> String {
    text.replace('}', ")").replace('{', "(")
}

/// The PGN `Termination` tag value (PGN standard 9.8.1), from what the end rests on
/// ([`crate::game::outcome`]): a forfeit is `abandoned`, a reported result `normal`, a loss
/// for breaking the Laws (7.5.5, 11.3.2.2) `rules infraction`, a flag fall `time forfeit`, an
/// arbiter's other ruling `adjudication`.
fn termination_tag(termination: Option<Termination>, outcome: Option<&Outcome>) -> &'static str {
    match (termination, outcome) {
        (None, _) => "unterminated",
        (termination, Some(outcome)) => outcome.pgn_termination(termination),
        (Some(Termination::Flag), None) => "time forfeit",
        (Some(Termination::IllegalMoves), None) => "rules infraction",
        (Some(Termination::Arbiter) | Some(Termination::Appeal), None) => "adjudication",
        (Some(_), None) => "normal",
    }
}

/// The comment an event leaves in the movetext, if any: the event in the arbiter's words
/// ([`Narrator`]: the players' names, numbered moves, the articles; never a `seq`), a draw
/// offer marked `(=)` as the scoresheet marks it (8.1.1). Moves, clock presses and pauses are
/// the movetext and its `[%clk]`; a fair-play event leaves nothing (its payload is sealed; the
/// game it ends says so through its `game_ended`).
fn comment_for(narrator: &Narrator, seq: u64, event: &Event) -> Option<String> {
    let text = match event {
        Event::Recorded(
            RecordedEvent::Move { .. }
            | RecordedEvent::ClockPress { .. }
            | RecordedEvent::ClockPause { .. }
            | RecordedEvent::ClockResume {}
            | RecordedEvent::FairPlay { .. },
        )
        | Event::Service(ServiceEvent::GameCreated(_)) => return None,
        Event::Recorded(RecordedEvent::DrawOffer { by }) => {
            format!("{} offers a draw (=)", narrator.player(*by))
        }
        // A result as PGN writes it (`1/2-1/2`), not as a pairing list prints it.
        other => narrator
            .sentence(Some(seq), other)
            .replace("½-½", "1/2-1/2"),
    };
    Some(escape_comment(&text))
}

/// The comment of a fair-play measure's clock change while the game runs (its effect only,
/// without the article, which could tell the public a device was found): the
/// `penalty_applied` of a `fair_play` event among `fair_play_seqs` (12.9.2).
fn measure_effect(event: &Event, fair_play_seqs: &[u64]) -> Option<String> {
    match event {
        Event::Service(ServiceEvent::PenaltyApplied {
            side,
            add_ms,
            cause_seq,
            ..
        }) if fair_play_seqs.contains(cause_seq) => Some(escape_comment(&format!(
            "{} s added to {}'s clock",
            add_ms / 1000,
            side.name()
        ))),
        _ => None,
    }
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

/// The articles under which the arbiter reconstructs a position, in `edition`.
fn reconstruction_articles(edition: crate::rules::laws::LawsEdition) -> String {
    use crate::rules::laws::{Rule, citation};
    citation(
        edition,
        &[
            Rule::IllegalMove,
            Rule::DisplacedPiecesReinstated,
            Rule::GameReconstructed,
            Rule::ClockAfterRestoration,
        ],
    )
}

/// Writes the PGN of a game's log (archive style). `date` is the PGN `Date` (`YYYY.MM.DD`)
/// for a game whose settings keep no `date` of their own.
///
/// A PGN game holds only legal moves. When an illegal move stood (Appendix A.5.2) the game
/// went on from a position no legal move leads to: the record then ends at that move with a
/// comment saying what happened, and continues as a second game record with the same tags,
/// `SetUp` and the `FEN` of the position as it stood, so that every chess program reads it.
pub fn export_pgn(game_log: &[ExportedEvent<'_>], date: &str) -> Result<String, CorruptLog> {
    export_pgn_styled(game_log, date, PgnStyle::ARCHIVE)
}

/// Writes the PGN of a game's log for a broadcast relay (see the module documentation);
/// `game_log` is what the audience may see of the log so far (for the public: the events
/// older than the broadcast delay).
pub fn export_broadcast_pgn(
    game_log: &[ExportedEvent<'_>],
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
    game_log: &[ExportedEvent<'_>],
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
    let mut clocks: BTreeMap<usize, String> = BTreeMap::new();
    // The mover's clock as the engine keeps it, per ply (broadcast style).
    let mut engine_clocks: BTreeMap<usize, u64> = BTreeMap::new();
    let mut comments: BTreeMap<usize, Vec<(u64, String)>> = BTreeMap::new();
    let mut disclosure = Disclosure::new(style.audience);
    let mut previous_ply = 0;
    let mut fair_play_seqs: Vec<u64> = Vec::new();
    let mut measure_effects: BTreeMap<u64, String> = BTreeMap::new();
    let narrator = Narrator::for_log(game_log.iter().map(|logged| (logged.seq, logged.event)));
    for logged in game_log {
        game.apply_with_clock(logged.seq, logged.event, logged.clock)?;
        disclosure.observe(logged.seq, logged.event);
        let ply = game.ply();
        if ply < previous_ply {
            // A correction retracted moves: their clock readings go with them, and what was
            // said about them (an offer, a correction of their press) is told after the move
            // the game went back to, before the moves played instead.
            clocks.retain(|&p, _| p <= ply);
            engine_clocks.retain(|&p, _| p <= ply);
            let later: Vec<(u64, String)> = comments
                .split_off(&(ply + 1))
                .into_values()
                .flatten()
                .collect();
            comments.entry(ply).or_default().extend(later);
        }
        previous_ply = ply;
        let mover = if game.position().turn() == Color::White {
            Side::Black
        } else {
            Side::White
        };
        // The mover's clock as the engine keeps it when the move is made or the mover
        // presses the clock (not after a penalty or adjustment that comes later in the ply).
        let sets_movers_clock = match logged.event {
            Event::Recorded(RecordedEvent::Move { .. }) => true,
            Event::Recorded(RecordedEvent::ClockPress { by, .. }) => *by == mover,
            _ => false,
        };
        if ply > 0 && sets_movers_clock {
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
        if let Event::Recorded(RecordedEvent::FairPlay { .. }) = logged.event {
            fair_play_seqs.push(logged.seq);
        }
        if let Some(comment) = comment_for(&narrator, logged.seq, logged.event) {
            comments.entry(ply).or_default().push((logged.seq, comment));
        }
        if let Some(effect) = measure_effect(logged.event, &fair_play_seqs) {
            measure_effects.insert(logged.seq, effect);
        }
    }
    let view = game.view();
    let ended = game.is_over();
    let comments: BTreeMap<usize, Vec<String>> = comments
        .into_iter()
        .map(|(ply, texts)| {
            let shown = texts
                .into_iter()
                .filter(|(seq, _)| disclosure.shows_in_record(*seq, ended))
                .map(|(seq, text)| match measure_effects.get(&seq) {
                    // While the game runs, a fair-play measure shows only its effect on the
                    // clock; its article and reason once the game has ended.
                    Some(effect) if !ended => effect.clone(),
                    _ => text,
                })
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
    // Where the game went on from a position no legal move leads to, a new record begins.
    // A start position numbered by the arbiter's count (`start_moves_completed`) is written
    // with that number, as the movetext is.
    let start_fen = match settings.start_moves_completed {
        Some(_) => game
            .position_at_ply(0)
            .map(crate::rules::move_parsing::fen_of),
        None => settings.start_fen.clone(),
    };
    let mut segments: Vec<(usize, Option<String>)> = vec![(0, start_fen)];
    for stood in &view.stood_illegal_moves {
        segments.push((stood.ply, Some(stood.fen.clone())));
    }
    for reconstructed in &view.reconstructed_positions {
        segments.push((reconstructed.ply, Some(reconstructed.fen.clone())));
    }
    segments.sort_by_key(|(ply, _)| *ply);
    // What began each record after the first: the illegal move that stood, or the position
    // the arbiter reconstructed, at that ply.
    let stood_at = |ply: usize| view.stood_illegal_moves.iter().find(|s| s.ply == ply);
    let reconstructed_at = |ply: usize| view.reconstructed_positions.iter().find(|r| r.ply == ply);
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
        let start = game.position_at_ply(*from_ply).cloned().unwrap_or_default();
        write_tags(
            &mut pgn,
            settings,
            date,
            result,
            TagsOf {
                termination: if last_segment {
                    termination_tag(view.termination, view.outcome.as_ref())
                } else {
                    "unterminated"
                },
                fen: fen.as_deref(),
                round_with_board: style.round_with_board,
            },
        );
        let mut tokens: Vec<String> = Vec::new();
        let annotation = |ply: usize, rest: bool| -> Option<String> {
            let mut texts: Vec<String> = Vec::new();
            if rest {
                // Comments left after a retracted last move belong here too.
                texts.extend(
                    comments
                        .range(ply..)
                        .flat_map(|(_, texts)| texts.iter().cloned()),
                );
            } else if let Some(at_ply) = comments.get(&ply) {
                texts.extend(at_ply.iter().cloned());
            }
            // Sentences joined as sentences: "... reason; White offers a draw (=)", never
            // "reason.;".
            let said = texts
                .iter()
                .map(|text| text.trim_end().trim_end_matches('.'))
                .filter(|text| !text.is_empty())
                .collect::<Vec<_>>()
                .join("; ");
            let parts: Vec<&str> = clocks
                .get(&ply)
                .map(String::as_str)
                .into_iter()
                .chain((!said.is_empty()).then_some(said.as_str()))
                .collect();
            (!parts.is_empty()).then(|| format!("{{{}}}", parts.join(" ")))
        };
        if index > 0 {
            let text = match (stood_at(*from_ply), reconstructed_at(*from_ply)) {
                (Some(stood), _) => format!(
                    "the game continues from the position as it stood after the illegal move {} (event {})",
                    stood.attempted_move.as_deref().unwrap_or("--"),
                    stood.seq
                ),
                (None, Some(reconstructed)) => format!(
                    "the game continues from the position the arbiter reconstructed (event {})",
                    reconstructed.seq
                ),
                (None, None) => String::new(),
            };
            tokens.push(format!("{{{}}}", escape_comment(&text)));
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
        if let Some((next_ply, _)) = segments.get(index + 1) {
            if let Some(stood) = stood_at(*next_ply) {
                let illegal = stood.attempted_move.as_deref().unwrap_or("an illegal move");
                tokens.push(format!(
                    "{{{}}}",
                    escape_comment(&format!(
                        "{illegal} (illegal) stood: neither the opponent nor the arbiter acted before the opponent's next move, so the game continued from {}",
                        stood.fen
                    ))
                ));
            } else if let Some(reconstructed) = reconstructed_at(*next_ply) {
                tokens.push(format!(
                    "{{{}}}",
                    escape_comment(&format!(
                        "The arbiter reconstructed the position the board should show ({}): the game continued from {}",
                        reconstruction_articles(settings.laws_edition),
                        reconstructed.fen
                    ))
                ));
            }
            if let Some(text) = annotation(*next_ply, false) {
                tokens.push(text);
            }
        }
        if let Some(words) = uneven_result_words(result) {
            // Neither is a PGN result token: the `Result` tag gives it, the movetext says it
            // in a comment and ends with `*`, as for 0-0 below.
            tokens.push(format!("{{{words}}}"));
            tokens.push("*".to_string());
        } else if result == GameResult::BothLose.pgn() {
            // PGN's movetext has no token for 0-0, and parsers read `0-0` there as castling:
            // the `Result` tag says 0-0 (as FIDE's Olympiad broadcasts and lichess write it),
            // the movetext says it in a comment and ends with `*`, which every reader takes.
            tokens.push("{Double forfeit: both players lost, 0-0}".to_string());
            tokens.push("*".to_string());
        } else {
            tokens.push(result.to_string());
        }
        write_movetext(&mut pgn, &tokens);
    }
    Ok(pgn)
}

/// What differs between the tag sections of a game's records.
struct TagsOf<'a> {
    termination: &'static str,
    fen: Option<&'a str>,
    round_with_board: bool,
}

/// The tag section of one record.
fn write_tags(
    pgn: &mut String,
    settings: &crate::game::event::GameSettings,
    date: &str,
    result: &str,
    tags: TagsOf<'_>,
) {
    let tag = |pgn: &mut String, name: &str, value: &str| {
        let _ = writeln!(pgn, "[{name} \"{}\"]", escape_tag(value));
    };
    tag(pgn, "Event", &settings.event);
    tag(pgn, "Site", settings.site.as_deref().unwrap_or("?"));
    // The game's own day where its settings keep one (an imported game's `Date`).
    tag(pgn, "Date", settings.date.as_deref().unwrap_or(date));
    if tags.round_with_board {
        tag(pgn, "Round", &round_tag(&settings.round, settings.board));
    } else {
        tag(pgn, "Round", &settings.round);
    }
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
    // PGN standard 9.6.1 (`40/5400+30:1800+30`, `900+10`, `300`); `?` for a control the
    // standard cannot write (a delay, an increment from a later move, times that are not
    // whole seconds).
    let control = crate::interchange::time_control_tag::write_tag(&settings.time_control)
        .unwrap_or_else(|_| "?".to_string());
    tag(pgn, "TimeControl", &control);
    tag(pgn, "Termination", tags.termination);
    if let Some(fen) = tags.fen {
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

/// The words of a result where one player lost and the other scores ½ (12.9.6), which PGN's
/// movetext has no token for; `None` for any other result.
fn uneven_result_words(result: &str) -> Option<&'static str> {
    match GameResult::parse(result)? {
        GameResult::WhiteLosesBlackHalf => Some("White lost, Black scores 1/2 (0-1/2)"),
        GameResult::BlackLosesWhiteHalf => Some("Black lost, White scores 1/2 (1/2-0)"),
        _ => None,
    }
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

//! Reading PGN files into games to record: tags to settings, moves with their `[%clk]`
//! readings, ids derived from the content, and the end the tags name when the board does not.
//!
//! Why a plan and not events straight away: a tournament file is messy. A game whose moves
//! cannot be read must be reported and stored not at all, while the others go in; a game
//! that goes on past its legal end (mate, stalemate, fivefold, 75 moves, dead position) must
//! go in up to that end. So each game is first read into a [`GamePlan`] here (pure, cheap:
//! shakmaty resolves every SAN), and the application service (`crate::app::import`) then records
//! the plan through the engine exactly as an arbiter's events are recorded; the engine finds
//! the end and refuses what follows it.
//!
//! Choices (see `docs/interchange.md`):
//! * **Ids from the content.** The game id is a UUID v5 of the game's tags, moves as written,
//!   clock readings and result, in a namespace of our own ([`import_namespace`]); event ids
//!   are UUID v5s of the game id and the ply. Importing the same file again finds the same
//!   games; changing a comment does not make a new game, changing a move or a tag does.
//! * **Tags to settings.** `White`/`Black` (+ `WhiteFideId`/`BlackFideId`), `Event`, `Site`,
//!   `Date` (the game's own day, as written), `Round` (`"r.b"` is round `r`, board `b`; a
//!   `Board` tag wins), `FEN` (with or without
//!   `SetUp`), `TimeControl` (see [`time_control_from_tag`]). Texts lose control characters
//!   and are cut to 200 characters; an empty one becomes `?`.
//! * **The result.** A result reached on the board is the engine's. A decisive `Result` with
//!   a `Termination` that says how it happened is recorded as that fact: a time forfeit
//!   (`Time forfeit`, `won on time`) as the loser's `flag` (which the engine then rules on
//!   under 6.9), a resignation as the loser's `resign`. Any other result the file states (a
//!   draw by agreement, a decisive result without a `Termination`, an adjudication) is kept
//!   as reported, not dropped: an `arbiter_decision` ending the game with that result, whose
//!   reason says it is the file's and names its `Termination` (or its absence).
//!
//! Here: the plan and the moves played out on the board. The file as written (tags, moves,
//! unclosed comments) is read in `raw.rs`, the tags become settings and an ending in
//! `tags.rs`.

use std::io::{self, Read};

use pgn_reader::Reader;
use shakmaty::{Chess, Color, Position};
use uuid::Uuid;

use crate::game::Game;
use crate::game::event::{
    ClockReading, Event, GameResult, GameSettings, RecordedEvent, ServiceEvent, TimeControl,
    TimeControlKind,
};
use crate::rules::move_parsing::{fen_of, position_from_fen, san_of};
use crate::rules::time_control::tracker::ClockBehaviour;

pub use super::clock_readings::clock_behaviour_of;
use super::clock_readings::describe_behaviour;

mod raw;
mod tags;

pub(crate) use raw::{CollectingVisitor, RawGame};
use raw::{unreadable_by_comment, unterminated_comments};
use tags::{reported_result, result_of, settings_of};
pub use tags::{round_and_board, tag_ending, time_control_from_tag};

/// The longest text kept from a tag (names, event, site, round).
const MAX_TEXT: usize = 200;

/// The time control given to a game whose `TimeControl` tag is absent or unknown: standard
/// play, 90 minutes and 30 seconds a move.
pub fn default_time_control() -> TimeControl {
    TimeControl::from_legacy(TimeControlKind::Standard, 5_400_000, 30_000)
}

/// The namespace of the UUID v5 ids of imported games: the v5 id of
/// `urn:arbiter:pgn-import` in the URL namespace.
pub fn import_namespace() -> Uuid {
    Uuid::new_v5(&Uuid::NAMESPACE_URL, b"urn:arbiter:pgn-import")
}

/// One event to record, with its id and clock reading.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedEvent {
    /// The event's id (UUID v5 of the game id and the ply, or `end`).
    pub event_id: Uuid,
    /// The event.
    pub event: RecordedEvent,
    /// The mover's clock after the move (`[%clk]`), in the envelope's `clock`.
    pub clock: Option<ClockReading>,
}

/// A readable game of a PGN file and what to record for it.
#[derive(Clone, Debug, PartialEq)]
pub struct GamePlan {
    /// The game's 0-based position in the file.
    pub index: usize,
    /// The game's id (UUID v5 of the content).
    pub game_id: Uuid,
    /// The id of its `game_created` event.
    pub created_event_id: Uuid,
    /// The settings from the tags.
    pub settings: GameSettings,
    /// The events to record: the moves, then the end the tags name (a `flag` or a
    /// `resign`), if any.
    pub events: Vec<PlannedEvent>,
    /// How many of `events` are moves.
    pub moves: usize,
    /// Moves of the record that could not even be read because the game had already ended
    /// on the board before them (a move after mate or stalemate), as written.
    pub unplayable_tail: Vec<String>,
    /// The `Result` tag (or the movetext's result), unless `*` or absent.
    pub pgn_result: Option<GameResult>,
    /// The `Termination` tag, if any.
    pub termination_tag: Option<String>,
    /// What the reader assumed or changed, in sentences.
    pub notes: Vec<String>,
}

/// A game of the file that cannot be read: nothing of it is recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnreadableGame {
    /// The game's 0-based position in the file.
    pub index: usize,
    /// Why, in a sentence.
    pub error: String,
    /// The `White` tag, if any.
    pub white: Option<String>,
    /// The `Black` tag, if any.
    pub black: Option<String>,
    /// The `Event` tag, if any.
    pub event: Option<String>,
}

/// What reading one game of a file gives.
#[derive(Clone, Debug, PartialEq)]
pub enum ReadGame {
    /// A game to record.
    Planned(Box<GamePlan>),
    /// A game that cannot be read.
    Unreadable(UnreadableGame),
}

/// Reads every game of a PGN stream, in file order (0-based `index`). Text with no move and
/// none of the seven roster tags (`Event`, `Site`, `Date`, `Round`, `White`, `Black`,
/// `Result`) is not a game and is skipped.
///
/// A comment opened with `{` and never closed would run into the games after it and hide
/// them (up to the next `}` anywhere in the file). Where such a comment crosses the tags of
/// a following game, the game it was opened in is unreadable, and reading resumes at those
/// tags: every game of the file is accounted for.
pub fn read_games(reader: impl Read) -> io::Result<Vec<ReadGame>> {
    read_games_with(reader, None)
}

/// Reads every game of a PGN stream as [`read_games`] does; a game whose `[%clk]` readings
/// do not show how its clocks behaved ([`clock_behaviour_of`]) gets `given` (the importer's
/// word: "these were DGT clocks"), with a note, instead of the default clock. What the
/// readings show wins over `given`.
pub fn read_games_with(
    mut reader: impl Read,
    given: Option<ClockBehaviour>,
) -> io::Result<Vec<ReadGame>> {
    let mut text = Vec::new();
    reader.read_to_end(&mut text)?;
    let mut games = Vec::new();
    let mut start = 0;
    for broken in unterminated_comments(&text) {
        let before = games.len();
        read_segment(&text[start..broken.resume_at], &mut games, given)?;
        if games.len() > before
            && let Some(last) = games.pop()
        {
            games.push(ReadGame::Unreadable(unreadable_by_comment(last, &broken)));
        }
        start = broken.resume_at;
    }
    read_segment(&text[start..], &mut games, given)?;
    Ok(games)
}

/// Reads the games of `text` (a part of a file) onto `games`, numbering them on.
fn read_segment(
    text: &[u8],
    games: &mut Vec<ReadGame>,
    given: Option<ClockBehaviour>,
) -> io::Result<()> {
    let mut pgn = Reader::new(text);
    let mut visitor = CollectingVisitor::default();
    loop {
        match pgn.read_game(&mut visitor) {
            Ok(Some(raw)) => {
                if raw.is_game() {
                    games.push(plan(games.len(), raw, given));
                }
            }
            Ok(None) => break,
            // Broken PGN syntax (an unterminated tag or comment): that game is unreadable.
            // The reader stops after the broken line; the rest of that game is skipped, so
            // that it is not read as a game of its own.
            Err(error) if error.kind() == io::ErrorKind::InvalidData => {
                let raw = std::mem::take(&mut visitor.game);
                match pgn.skip_game() {
                    Ok(_) => {}
                    Err(skipped) if skipped.kind() == io::ErrorKind::InvalidData => {}
                    Err(skipped) => return Err(skipped),
                }
                if raw.is_game() {
                    games.push(ReadGame::Unreadable(UnreadableGame {
                        index: games.len(),
                        error: format!("The PGN cannot be read here: {error}."),
                        white: raw.tag("White").map(str::to_owned),
                        black: raw.tag("Black").map(str::to_owned),
                        event: raw.tag("Event").map(str::to_owned),
                    }));
                }
            }
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// The text the game id is derived from: the tags in file order, the moves as written with
/// their clock readings, and the result.
fn canonical_text(raw: &RawGame) -> String {
    let mut text = String::new();
    for (name, value) in &raw.tags {
        text.push_str(name);
        text.push('\t');
        text.push_str(value);
        text.push('\n');
    }
    text.push('\n');
    for (san, clock) in &raw.moves {
        text.push_str(&san.to_string());
        text.push('\t');
        if let Some(ms) = clock {
            text.push_str(&ms.to_string());
        }
        text.push('\n');
    }
    text.push_str(raw.outcome.as_deref().unwrap_or(""));
    text
}

/// The move number and dots of the `ply`-th half-move (1-based) from `start`.
fn move_label(start: &Chess, ply: usize) -> String {
    let before = ply - 1 + usize::from(start.turn() == Color::Black);
    let number = start.fullmoves().get() as usize + before / 2;
    if before.is_multiple_of(2) {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

fn plan(index: usize, raw: RawGame, given: Option<ClockBehaviour>) -> ReadGame {
    let unreadable = |error: String| {
        ReadGame::Unreadable(UnreadableGame {
            index,
            error,
            white: raw.tag("White").map(str::to_owned),
            black: raw.tag("Black").map(str::to_owned),
            event: raw.tag("Event").map(str::to_owned),
        })
    };
    if let Some(variant) = raw.tag("Variant") {
        let supported = [
            "standard",
            "chess960",
            "from position",
            "fischerandom",
            "chess 960",
        ];
        if !supported.contains(&variant.to_ascii_lowercase().as_str()) {
            return unreadable(format!(
                "The variant `{variant}` is not chess under the FIDE Laws."
            ));
        }
    }
    let start = match raw.tag("FEN") {
        None => Chess::default(),
        Some(fen) => match position_from_fen(fen) {
            Ok((start, _)) => start,
            Err(error) => return unreadable(format!("The FEN tag cannot be used: {error}.")),
        },
    };
    let mut notes = Vec::new();
    let mut settings = settings_of(&raw, &mut notes);
    if let Some((behaviour, note)) = clock_behaviour_of(&settings.time_control, &start, &raw.moves)
    {
        settings.clock_behaviour = behaviour;
        notes.push(note);
    } else if let Some(given) = given {
        settings.clock_behaviour = given;
        notes.push(format!(
            "The clock readings do not show how the clocks behaved: the game is imported with \
             the clock behaviour given with the import ({}).",
            describe_behaviour(given)
        ));
    }
    let game_id = Uuid::new_v5(&import_namespace(), canonical_text(&raw).as_bytes());
    let pgn_result = raw
        .tag("Result")
        .and_then(result_of)
        .or_else(|| raw.outcome.as_deref().and_then(result_of));

    let mut position = start.clone();
    let mut events = Vec::with_capacity(raw.moves.len() + 1);
    let mut unplayable_tail = Vec::new();
    for (offset, (san_plus, clock)) in raw.moves.iter().enumerate() {
        let ply = offset + 1;
        let m = match san_plus.san.to_move(&position) {
            Ok(m) => m,
            Err(error) => {
                let tail: Vec<String> = raw.moves[offset..]
                    .iter()
                    .map(|(san, _)| san.to_string())
                    .collect();
                if position.is_game_over() || engine_ends_before(&settings, &events) {
                    notes.push(format!(
                        "{} {san_plus} (ply {ply}) cannot be played, but the game had already \
                         ended on the board before it.",
                        move_label(&start, ply)
                    ));
                    unplayable_tail = tail;
                    break;
                }
                return unreadable(format!(
                    "{} {san_plus} (ply {ply}) is not a legal move in the position {} ({error}).",
                    move_label(&start, ply),
                    fen_of(&position)
                ));
            }
        };
        let mover = position.turn();
        let san = san_of(&position, m);
        position.play_unchecked(m);
        events.push(PlannedEvent {
            event_id: Uuid::new_v5(&game_id, format!("ply {ply}").as_bytes()),
            event: RecordedEvent::Move {
                by: mover.into(),
                san,
            },
            clock: clock.map(|ms| match mover {
                Color::White => ClockReading {
                    white_ms: Some(ms),
                    black_ms: None,
                },
                Color::Black => ClockReading {
                    white_ms: None,
                    black_ms: Some(ms),
                },
            }),
        });
    }
    let moves = events.len();
    let reported = pgn_result.map(|result| reported_result(result, raw.tag("Termination")));
    if let Some(ending) = tag_ending(raw.tag("Termination"), pgn_result).or(reported) {
        events.push(PlannedEvent {
            event_id: Uuid::new_v5(&game_id, b"end"),
            event: ending,
            clock: None,
        });
    }
    ReadGame::Planned(Box::new(GamePlan {
        index,
        game_id,
        created_event_id: Uuid::new_v5(&game_id, b"game_created"),
        settings,
        events,
        moves,
        unplayable_tail,
        pgn_result,
        termination_tag: raw.tag("Termination").map(str::to_owned),
        notes,
    }))
}

/// Whether the engine ends the game (fivefold, 75 moves, dead position, ...) within the
/// moves before an unreadable one: then the unreadable move comes after the end and the
/// game can still be imported up to it. Runs the engine only for such rare games.
fn engine_ends_before(settings: &GameSettings, moves: &[PlannedEvent]) -> bool {
    let Ok(mut game) = Game::new(settings) else {
        return false;
    };
    let created = Event::Service(ServiceEvent::GameCreated(Box::new(settings.clone())));
    if game.apply(1, &created).is_err() {
        return false;
    }
    let mut seq = 1;
    for planned in moves {
        seq += 1;
        let Ok(decisions) = game.decide(seq, &planned.event) else {
            return false;
        };
        if game
            .apply(seq, &Event::Recorded(planned.event.clone()))
            .is_err()
        {
            return false;
        }
        for decision in decisions {
            seq += 1;
            if game.apply(seq, &Event::Service(decision)).is_err() {
                return false;
            }
        }
        if game.is_over() {
            return true;
        }
    }
    false
}

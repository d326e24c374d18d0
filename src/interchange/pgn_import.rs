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

use std::io::{self, Read};
use std::ops::ControlFlow;

use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Chess, Color, Position};
use uuid::Uuid;

use super::pgn_clock::parse_clock_comment;
use crate::game::Game;
use crate::game::event::{
    ArbiterRuling, ClockReading, EndCause, Event, GameResult, GameSettings, LawsEdition, Player,
    RecordedEvent, Regulations, ServiceEvent, Side, TimeControl, TimeControlKind,
};
use crate::interchange::time_control_tag::{TagReading, describe, read_tag_value};
use crate::rules::move_parsing::{fen_of, position_from_fen, san_of};
use crate::rules::time_control::tracker::ClockBehaviour;

pub use super::clock_readings::clock_behaviour_of;
use super::clock_readings::describe_behaviour;

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

/// A comment opened with `{` (on 1-based `line`) that runs into the tags of a following game,
/// which start at byte `resume_at` (on `resume_line`).
#[derive(Clone, Copy, Debug)]
struct UnterminatedComment {
    line: usize,
    resume_at: usize,
    resume_line: usize,
}

/// The comments of `text` that are not closed before the tags of a following game begin (a
/// line starting `[Name "`), in file order. Tag values, `;` comments and `%` escape lines
/// are skipped, so a brace inside them opens nothing.
fn unterminated_comments(text: &[u8]) -> Vec<UnterminatedComment> {
    let line_of = |at: usize| text[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let tag_line_at = |at: usize| {
        let rest = &text[at..];
        let name = rest
            .iter()
            .skip(1)
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        rest.first() == Some(&b'[')
            && name > 0
            && rest[1 + name..]
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|&b| b == b'"')
    };
    let end_of_line = |at: usize| {
        text[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |n| at + n)
    };
    let mut found = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let at_line_start = i == 0 || text[i - 1] == b'\n';
        match text[i] {
            b'%' if at_line_start => i = end_of_line(i),
            b';' => i = end_of_line(i),
            b'[' => {
                // A tag: skip its quoted value (with `\"` escapes) up to `]`.
                let mut j = i + 1;
                let mut quoted = false;
                while j < text.len() && (quoted || text[j] != b']') && text[j] != b'\n' {
                    match text[j] {
                        b'\\' if quoted => j += 1,
                        b'"' => quoted = !quoted,
                        _ => {}
                    }
                    j += 1;
                }
                i = j + 1;
            }
            b'{' => {
                let mut j = i + 1;
                let mut hidden = None;
                while j < text.len() && text[j] != b'}' {
                    if text[j - 1] == b'\n' && tag_line_at(j) {
                        hidden = Some(j);
                        break;
                    }
                    j += 1;
                }
                match hidden {
                    Some(resume_at) => {
                        found.push(UnterminatedComment {
                            line: line_of(i),
                            resume_at,
                            resume_line: line_of(resume_at),
                        });
                        i = resume_at;
                    }
                    None => i = j + 1,
                }
            }
            _ => i += 1,
        }
    }
    found
}

/// The game a comment was left open in, as an unreadable game.
fn unreadable_by_comment(game: ReadGame, broken: &UnterminatedComment) -> UnreadableGame {
    let error = format!(
        "The comment opened with `{{` on line {} is never closed: it runs into the next \
         game's tags on line {}. Nothing of this game is recorded; close the comment with `}}` \
         and import the file again (the games after it are read as usual).",
        broken.line, broken.resume_line
    );
    match game {
        ReadGame::Planned(plan) => UnreadableGame {
            index: plan.index,
            error,
            white: Some(plan.settings.white.name.clone()),
            black: Some(plan.settings.black.name.clone()),
            event: Some(plan.settings.event.clone()),
        },
        ReadGame::Unreadable(unreadable) => UnreadableGame {
            error,
            ..unreadable
        },
    }
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

/// A game as written in the file.
#[derive(Clone, Debug, Default)]
pub(crate) struct RawGame {
    /// The tags, in file order.
    pub(crate) tags: Vec<(String, String)>,
    /// The moves as written (not checked against any position), each with its `[%clk]`
    /// reading in milliseconds.
    pub(crate) moves: Vec<(SanPlus, Option<u64>)>,
    /// The movetext's result token.
    pub(crate) outcome: Option<String>,
}

impl RawGame {
    /// Whether this is a game: it has a move or one of the seven tags of the PGN roster. Text
    /// with neither (a note before the first game, stray words or brackets) is not.
    pub(crate) fn is_game(&self) -> bool {
        let roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
        !self.moves.is_empty()
            || self
                .tags
                .iter()
                .any(|(name, _)| roster.contains(&name.as_str()))
    }

    pub(crate) fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Collects each game of a file as written ([`RawGame`]).
#[derive(Default)]
pub(crate) struct CollectingVisitor {
    game: RawGame,
}

impl Visitor for CollectingVisitor {
    type Tags = ();
    type Movetext = ();
    type Output = RawGame;

    fn begin_tags(&mut self) -> ControlFlow<RawGame, ()> {
        self.game = RawGame::default();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<RawGame> {
        self.game.tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<RawGame, ()> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _movetext: &mut (), san_plus: SanPlus) -> ControlFlow<RawGame> {
        self.game.moves.push((san_plus, None));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _movetext: &mut (), comment: RawComment<'_>) -> ControlFlow<RawGame> {
        if let Some(ms) = parse_clock_comment(comment.as_bytes())
            && let Some((_, clock)) = self.game.moves.last_mut()
        {
            *clock = Some(ms);
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, _movetext: &mut (), outcome: shakmaty::Outcome) -> ControlFlow<RawGame> {
        self.game.outcome = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _movetext: ()) -> RawGame {
        std::mem::take(&mut self.game)
    }
}

/// A tag's text as a setting: no control characters, at most 200 characters, `?` if empty.
fn clean_text(text: Option<&str>, notes: &mut Vec<String>, tag: &str) -> String {
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
fn date_of(text: Option<&str>, notes: &mut Vec<String>) -> Option<String> {
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
fn fide_id(text: Option<&str>) -> Option<u64> {
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

fn result_of(text: &str) -> Option<GameResult> {
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
fn reported_result(result: GameResult, termination: Option<&str>) -> RecordedEvent {
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

fn settings_of(raw: &RawGame, notes: &mut Vec<String>) -> GameSettings {
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

//! The FIDE Tournament Report File, whole: what the chief arbiter hands back to the pairing
//! program between rounds and sends to the rating officer at the end (a tournament's header
//! lines and one `001` line per player with every round's opponent, colour and result).
//!
//! Two versions are written:
//!
//! * **TRF-16** (FIDE Handbook C.04 Annex 2, "FIDE Data Exchange Format", 2016; the version
//!   Swiss-Manager, Vega and JaVaFo have written for a decade), checked column by column
//!   against the real file `tests/data/gros-2010.trf` (the sample of the JaVaFo manual):
//!   every `001` line of that file is read and written back identical.
//! * **TRF26** ("Format of Tournament Report File (TRF) — Version 2026", approved by the FIDE
//!   Council on 12 May 2025 and applied from 1 September 2025,
//!   <https://handbook.fide.com/files/handbook/TRF26.pdf>; read here in the transcription
//!   of the `echecsjs/trf` repository, `SPEC.md`). The `001` columns are those of TRF-16;
//!   what changes is written: dates as `YYYY/MM/DD`, titles as `GM`, `IM`, `WGM`, ...
//!   (TRF-16: `g`, `m`, `wg`, ...), the number of rounds (`142`), the encoded time control
//!   (`222`, e.g. `5400+30`, `40/6000+30:900+30`) and the byes that bring points again as
//!   `240` records (`240 H 003   26   47`: type, round, start numbers). The scoring line `162`
//!   is written only when the points differ from FIDE's defaults, which the service never
//!   does (1, ½, 0; a forfeit win, a full-point and a pairing-allocated bye 1; a half-point bye
//!   ½), so it is not written.
//!
//! The `001` line (both versions; columns numbered from 1):
//!
//! | Columns | Field |
//! |---|---|
//! | 1-3 | `001` |
//! | 5-8 | start rank, right-aligned |
//! | 10 | sex (`m`, `w`) |
//! | 11-13 | title, right-aligned |
//! | 15-47 | name, `Lastname, Firstname` (cut at 33 characters) |
//! | 49-52 | FIDE rating |
//! | 54-56 | federation |
//! | 58-68 | FIDE id, right-aligned |
//! | 70-79 | birth date |
//! | 81-84 | points, `11.5` |
//! | 86-89 | rank (ties allowed) |
//! | 92-95, 97, 99 | round 1: opponent's start rank (`0000` none), colour (`w`, `b`, `-`), result |
//! | +10 per round | the next rounds |
//!
//! Result codes: `1` `=` `0` a game played; `+` `-` a forfeit (the game was not played);
//! `W` `D` `L` a game that lasted less than one move (not rated); `H` `F` `U` `Z` the
//! half-point, full-point, pairing-allocated and zero-point byes; blank nothing known (a
//! pairing without a result yet, or a round not paired yet; in a result column blank is `Z`).
//! A double forfeit is each player's `-` against the other.
//!
//! Reading and writing are pure; [`crate::app::trf`] builds a report from the log.

use super::pairings::PairingFileError;

/// The version of the format to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, utoipa::ToSchema)]
pub enum TrfVersion {
    /// TRF-16, for the pairing programs of before September 2025.
    #[serde(rename = "16")]
    Trf16,
    /// TRF26, in force since 1 September 2025.
    #[serde(rename = "26")]
    Trf26,
}

/// A round's result code of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrfResult {
    /// `1`: a game won.
    Win,
    /// `=`: a game drawn.
    Draw,
    /// `0`: a game lost.
    Loss,
    /// `+`: won by forfeit (the game was not played).
    ForfeitWin,
    /// `-`: lost by forfeit (the game was not played); both players' code in a double forfeit.
    ForfeitLoss,
    /// `W`: won in a game that lasted less than one move (not rated).
    UnratedWin,
    /// `D`: drawn in a game that lasted less than one move (not rated).
    UnratedDraw,
    /// `L`: lost in a game that lasted less than one move (not rated).
    UnratedLoss,
    /// `H`: a half-point bye.
    HalfPointBye,
    /// `F`: a full-point bye.
    FullPointBye,
    /// `U`: the pairing-allocated bye.
    PairingBye,
    /// `Z`: a zero-point bye (a known absence).
    ZeroPointBye,
    /// Blank: no result (a pairing not played yet, or nothing known).
    Blank,
}

impl TrfResult {
    /// The code written in the result column.
    pub fn code(self) -> char {
        match self {
            TrfResult::Win => '1',
            TrfResult::Draw => '=',
            TrfResult::Loss => '0',
            TrfResult::ForfeitWin => '+',
            TrfResult::ForfeitLoss => '-',
            TrfResult::UnratedWin => 'W',
            TrfResult::UnratedDraw => 'D',
            TrfResult::UnratedLoss => 'L',
            TrfResult::HalfPointBye => 'H',
            TrfResult::FullPointBye => 'F',
            TrfResult::PairingBye => 'U',
            TrfResult::ZeroPointBye => 'Z',
            TrfResult::Blank => ' ',
        }
    }

    /// The result of a code (letters in either case, as the format allows); `None` for a
    /// character that is not a result code.
    pub fn from_code(code: char) -> Option<TrfResult> {
        Some(match code.to_ascii_uppercase() {
            '1' => TrfResult::Win,
            '=' => TrfResult::Draw,
            '0' => TrfResult::Loss,
            '+' => TrfResult::ForfeitWin,
            '-' => TrfResult::ForfeitLoss,
            'W' => TrfResult::UnratedWin,
            'D' => TrfResult::UnratedDraw,
            'L' => TrfResult::UnratedLoss,
            'H' => TrfResult::HalfPointBye,
            'F' => TrfResult::FullPointBye,
            'U' => TrfResult::PairingBye,
            'Z' => TrfResult::ZeroPointBye,
            ' ' => TrfResult::Blank,
            _ => return None,
        })
    }

    /// What the result is worth under FIDE's default scoring, in half points.
    pub fn half_points(self) -> u32 {
        match self {
            TrfResult::Win
            | TrfResult::ForfeitWin
            | TrfResult::UnratedWin
            | TrfResult::FullPointBye
            | TrfResult::PairingBye => 2,
            TrfResult::Draw | TrfResult::UnratedDraw | TrfResult::HalfPointBye => 1,
            _ => 0,
        }
    }

    /// The result of the opponent in the same game (a bye has no opponent: itself). A double
    /// forfeit, where both have `-`, is not one result and its opposite.
    pub fn opposite(self) -> TrfResult {
        match self {
            TrfResult::Win => TrfResult::Loss,
            TrfResult::Loss => TrfResult::Win,
            TrfResult::ForfeitWin => TrfResult::ForfeitLoss,
            TrfResult::ForfeitLoss => TrfResult::ForfeitWin,
            TrfResult::UnratedWin => TrfResult::UnratedLoss,
            TrfResult::UnratedLoss => TrfResult::UnratedWin,
            other => other,
        }
    }
}

/// The colour a player had (or was scheduled to have) in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrfColour {
    /// `w`
    White,
    /// `b`
    Black,
    /// `-`: a bye, or not paired.
    None,
}

/// One player's round: opponent, colour and result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrfRound {
    /// The opponent's start rank; `None` for a bye or no pairing (`0000`).
    pub opponent: Option<u32>,
    /// The colour.
    pub colour: TrfColour,
    /// The result.
    pub result: TrfResult,
}

impl TrfRound {
    /// A round column left blank (nothing known).
    pub const BLANK: TrfRound = TrfRound {
        opponent: None,
        colour: TrfColour::None,
        result: TrfResult::Blank,
    };

    /// A round without a game: a bye, or an absence.
    pub fn bye(result: TrfResult) -> TrfRound {
        TrfRound {
            opponent: None,
            colour: TrfColour::None,
            result,
        }
    }

    fn is_blank(&self) -> bool {
        self.opponent.is_none() && self.result == TrfResult::Blank
    }
}

/// A player's `001` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrfPlayer {
    /// The start rank (1 to 9999).
    pub start_number: u32,
    /// `m` or `w`, or empty.
    pub sex: String,
    /// The title as read or given (`g`/`GM`, `m`/`IM`, ...), or empty.
    pub title: String,
    /// The name, `Lastname, Firstname`.
    pub name: String,
    /// The FIDE rating (0 written as `0` for an unrated player), or none (blank).
    pub rating: Option<u32>,
    /// The federation, e.g. `ESP`, or empty.
    pub federation: String,
    /// The FIDE id (0 as written by programs for a player without one), or none (blank).
    pub fide_id: Option<u64>,
    /// The birth date as written (`1978`, `1978/05/12`), or empty.
    pub birth_date: String,
    /// The points, in half points.
    pub half_points: u32,
    /// The rank, or none (blank).
    pub rank: Option<u32>,
    /// Round 1, round 2, ...
    pub rounds: Vec<TrfRound>,
}

/// The tournament's header lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrfTournament {
    /// `012` the name.
    pub name: String,
    /// `022` the city.
    pub city: Option<String>,
    /// `032` the federation.
    pub federation: Option<String>,
    /// `042` the first day, as written.
    pub starts_on: Option<String>,
    /// `052` the last day, as written.
    pub ends_on: Option<String>,
    /// `092` the type of tournament.
    pub kind: Option<String>,
    /// `102` the chief arbiter (name and FIDE id as the arbiters list gives them).
    pub chief_arbiter: Option<String>,
    /// `112` the deputies, one line each.
    pub deputies: Vec<String>,
    /// `122` the allotted times, in words.
    pub time_control: Option<String>,
    /// `202` (TRF26): the tie-breaks, C.07's abbreviations comma-separated (`212` adds `PTS`).
    pub tie_breaks: Option<String>,
    /// `222` the encoded time control (TRF26).
    pub encoded_time_control: Option<String>,
    /// `142` (TRF26) or `XXR` (JaVaFo's TRF(x)): the number of rounds.
    pub rounds: Option<u32>,
}

/// A whole report: the header and the players, by start rank.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrfReport {
    /// The header lines.
    pub tournament: TrfTournament,
    /// The `001` lines.
    pub players: Vec<TrfPlayer>,
}

fn fail<T>(message: impl Into<String>) -> Result<T, PairingFileError> {
    Err(PairingFileError(message.into()))
}

/// The characters of columns `from..=to` (1-based), trimmed.
fn field(line: &[char], from: usize, to: usize) -> String {
    line.iter()
        .skip(from - 1)
        .take(to + 1 - from)
        .collect::<String>()
        .trim()
        .to_string()
}

/// Points written as `11.5`, in half points; `None` for anything else.
fn parse_points(text: &str) -> Option<u32> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, "0"));
    let whole: u32 = whole.parse().ok()?;
    let half = match fraction {
        "0" | "" => 0,
        "5" => 1,
        _ => return None,
    };
    Some(whole * 2 + half)
}

/// Half points written as `4.0`, `3.5`.
pub fn points_text(half_points: u32) -> String {
    format!(
        "{}.{}",
        half_points / 2,
        if half_points % 2 == 1 { 5 } else { 0 }
    )
}

/// Reads a TRF-16 or TRF26 file: the header lines named in [`TrfTournament`] and every `001`
/// line with its fixed columns. Other lines (comments `###`, `XXC`, team records) are skipped.
/// What the file's older conventions needed (see [`read_report_noting`]) is not reported.
pub fn read_report(text: &str) -> Result<TrfReport, PairingFileError> {
    read_report_noting(text).map(|(report, _)| report)
}

/// Reads a TRF file as [`read_report`] does, with a note for each thing kept in another form
/// than written (issue 35): real files carry older conventions, and what can be kept is kept.
///
/// * A FIDE id or a rating that is not a number (a club code, `N0001` of Irish Swiss Master
///   exports): the player is kept without it.
/// * A birth date written `yyyy.mm.dd` or `yyyy-mm-dd`: kept as `yyyy/mm/dd` (TRF26's form).
/// * Points or a rank that cannot be read: the points are counted from the results, the rank
///   left out.
/// * Lines ended by CR LF, or by CR alone (TRF's Remark 1: "Each line shall have a CR as last
///   character"); short lines (a player who withdrew has no columns for the later rounds).
///
/// Refused, with the line and the columns, is only what cannot be paired: a start rank, an
/// opponent or a colour that is not one, a result code that is not one.
pub fn read_report_noting(text: &str) -> Result<(TrfReport, Vec<String>), PairingFileError> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut report = TrfReport::default();
    let mut notes = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let tag = raw.get(..3).unwrap_or_default();
        let rest = || raw.get(4..).unwrap_or_default().trim().to_string();
        let some = || Some(rest()).filter(|t| !t.is_empty());
        let header = &mut report.tournament;
        match tag {
            "012" => header.name = rest(),
            "022" => header.city = some(),
            "032" => header.federation = some(),
            "042" => header.starts_on = some(),
            "052" => header.ends_on = some(),
            "092" => header.kind = some(),
            "102" => header.chief_arbiter = some(),
            "112" => header.deputies.extend(some()),
            "122" => header.time_control = some(),
            "222" => header.encoded_time_control = some(),
            "142" | "XXR" => header.rounds = rest().parse().ok(),
            "001" => report
                .players
                .push(read_player(raw, index + 1, &mut notes)?),
            _ => {}
        }
    }
    if report.players.is_empty() {
        return fail("The file has no player lines (`001`): is it a FIDE TRF file?");
    }
    Ok((report, notes))
}

/// A birth date as TRF26 writes it (`yyyy/mm/dd`) from `yyyy.mm.dd` or `yyyy-mm-dd`; `None`
/// when it is not in one of those forms.
fn birth_date_with_slashes(text: &str) -> Option<String> {
    let parts: Vec<&str> = text.split(['.', '-']).collect();
    let digits =
        |part: &str, len: usize| part.len() == len && part.bytes().all(|b| b.is_ascii_digit());
    (parts.len() == 3 && digits(parts[0], 4) && digits(parts[1], 2) && digits(parts[2], 2))
        .then(|| parts.join("/"))
}

fn read_player(
    raw: &str,
    line_number: usize,
    notes: &mut Vec<String>,
) -> Result<TrfPlayer, PairingFileError> {
    let line: Vec<char> = raw.chars().collect();
    let at = |what: &str, from: usize, to: usize, text: &str| {
        PairingFileError(format!(
            "TRF line {line_number}: columns {from}-{to} must hold the {what}, not `{text}`."
        ))
    };
    let start = field(&line, 5, 8);
    let start_number = start
        .parse::<u32>()
        .map_err(|_| at("start rank", 5, 8, &start))?;
    let name = field(&line, 15, 47);
    // A number the pairing does not need: kept when it is one, else left out with a note.
    let mut optional = |from, to, what: &str, without: &str| -> Option<u64> {
        let text = field(&line, from, to);
        if text.is_empty() {
            return None;
        }
        let read = text.parse::<u64>().ok();
        if read.is_none() {
            notes.push(format!(
                "line {line_number}: `{text}` (columns {from}-{to}, {name}) is not a {what}; \
                 {without}."
            ));
        }
        read
    };
    let rating = optional(
        49,
        52,
        "FIDE rating",
        "the player is loaded without a rating",
    )
    .map(|r| u32::try_from(r).unwrap_or(u32::MAX));
    let fide_id = optional(58, 68, "FIDE id", "the player is loaded without one");
    let rank = optional(86, 89, "rank", "the rank is left out")
        .map(|r| u32::try_from(r).unwrap_or(u32::MAX));
    let points = field(&line, 81, 84);
    let half_points = if points.is_empty() {
        0
    } else if let Some(points) = parse_points(&points) {
        points
    } else {
        notes.push(format!(
            "line {line_number}: `{points}` (columns 81-84, {name}) are not points (`11.5`); \
             the points are counted from the results."
        ));
        0
    };
    let mut birth_date = field(&line, 70, 79);
    if let Some(with_slashes) = birth_date_with_slashes(&birth_date) {
        notes.push(format!(
            "line {line_number}: the birth date `{birth_date}` of {name} is kept as \
             `{with_slashes}`."
        ));
        birth_date = with_slashes;
    }
    let mut rounds = Vec::new();
    let mut from = 92;
    while from <= line.len() {
        let round = rounds.len() + 1;
        let opponent = field(&line, from, from + 3);
        let opponent = match opponent.as_str() {
            "" | "0000" => None,
            text => Some(
                text.parse::<u32>()
                    .map_err(|_| at(&format!("opponent of round {round}"), from, from + 3, text))?,
            ),
        };
        let char_at = |column: usize| line.get(column - 1).copied().unwrap_or(' ');
        let colour = match char_at(from + 5).to_ascii_lowercase() {
            'w' => TrfColour::White,
            'b' => TrfColour::Black,
            ' ' | '-' => TrfColour::None,
            other => {
                return Err(at(
                    "colour (w, b or -)",
                    from + 5,
                    from + 5,
                    &other.to_string(),
                ));
            }
        };
        let code = char_at(from + 7);
        let result = TrfResult::from_code(code)
            .ok_or_else(|| at("result code", from + 7, from + 7, &code.to_string()))?;
        rounds.push(TrfRound {
            opponent,
            colour,
            result,
        });
        from += 10;
    }
    while rounds.last().is_some_and(TrfRound::is_blank) {
        rounds.pop();
    }
    Ok(TrfPlayer {
        start_number,
        sex: field(&line, 10, 10),
        title: field(&line, 11, 13),
        name,
        rating,
        federation: field(&line, 54, 56),
        fide_id,
        birth_date,
        half_points,
        rank,
        rounds,
    })
}

/// Titles: TRF-16 writes one or two lower-case letters, TRF26 the title's abbreviation.
const TITLES: [(&str, &str); 8] = [
    ("g", "GM"),
    ("m", "IM"),
    ("f", "FM"),
    ("c", "CM"),
    ("wg", "WGM"),
    ("wm", "WIM"),
    ("wf", "WFM"),
    ("wc", "WCM"),
];

fn title_for(title: &str, version: TrfVersion) -> String {
    let found = TITLES
        .iter()
        .find(|(old, new)| title.eq_ignore_ascii_case(old) || title.eq_ignore_ascii_case(new));
    match (found, version) {
        (Some((old, _)), TrfVersion::Trf16) => (*old).to_string(),
        (Some((_, new)), TrfVersion::Trf26) => (*new).to_string(),
        (None, _) => title.to_string(),
    }
}

/// Cuts `text` to `width` characters, then pads it on the right.
fn left(text: &str, width: usize) -> String {
    let cut: String = text.chars().take(width).collect();
    format!("{cut:<width$}")
}

/// Cuts `text` to `width` characters, then pads it on the left.
fn right(text: &str, width: usize) -> String {
    let cut: String = text.chars().take(width).collect();
    format!("{cut:>width$}")
}

/// One player's `001` line, without trailing blanks.
pub fn player_line(player: &TrfPlayer, version: TrfVersion) -> String {
    let optional = |value: Option<u64>| value.map(|v| v.to_string()).unwrap_or_default();
    let mut line = format!(
        "001 {} {}{} {} {} {} {} {} {} {}  ",
        right(&player.start_number.to_string(), 4),
        left(&player.sex, 1),
        right(&title_for(&player.title, version), 3),
        left(&player.name, 33),
        right(&optional(player.rating.map(u64::from)), 4),
        left(&player.federation, 3),
        right(&optional(player.fide_id), 11),
        left(&player.birth_date, 10),
        right(&points_text(player.half_points), 4),
        right(&optional(player.rank.map(u64::from)), 4),
    );
    for round in &player.rounds {
        if round.is_blank() {
            line.push_str("          ");
            continue;
        }
        let opponent = round
            .opponent
            .map(|o| right(&o.to_string(), 4))
            .unwrap_or_else(|| "0000".to_string());
        let colour = match round.colour {
            TrfColour::White => 'w',
            TrfColour::Black => 'b',
            TrfColour::None => '-',
        };
        line.push_str(&format!("{opponent} {colour} {}  ", round.result.code()));
    }
    line.trim_end().to_string()
}

/// The number of rounds: the header's, or the most any player has.
fn rounds_of(report: &TrfReport) -> u32 {
    let most = report
        .players
        .iter()
        .map(|p| p.rounds.len() as u32)
        .max()
        .unwrap_or(0);
    report.tournament.rounds.unwrap_or(0).max(most)
}

/// Writes the report in `version`, each line ended by CR LF (the format asks for a carriage
/// return at the end of every line).
pub fn write_report(report: &TrfReport, version: TrfVersion) -> String {
    let header = &report.tournament;
    let mut lines: Vec<String> = Vec::new();
    let mut put = |tag: &str, text: Option<&str>| {
        if let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) {
            lines.push(format!("{tag} {}", one_line(text)));
        }
    };
    put("012", Some(&header.name));
    put("022", header.city.as_deref());
    put("032", header.federation.as_deref());
    put("042", header.starts_on.as_deref());
    put("052", header.ends_on.as_deref());
    put("062", Some(&report.players.len().to_string()));
    let rated = report
        .players
        .iter()
        .filter(|p| p.rating.is_some_and(|r| r > 0))
        .count();
    put("072", Some(&rated.to_string()));
    put("092", header.kind.as_deref());
    put("102", header.chief_arbiter.as_deref());
    for deputy in &header.deputies {
        put("112", Some(deputy));
    }
    put("122", header.time_control.as_deref());
    let rounds = rounds_of(report);
    if version == TrfVersion::Trf26 {
        if rounds > 0 {
            put("142", Some(&rounds.to_string()));
        }
        let standings = header.tie_breaks.as_ref().map(|t| format!("PTS,{t}"));
        put("202", header.tie_breaks.as_deref());
        put("212", standings.as_deref());
        put("222", header.encoded_time_control.as_deref());
    }
    let mut players: Vec<&TrfPlayer> = report.players.iter().collect();
    players.sort_by_key(|p| p.start_number);
    for player in &players {
        lines.push(player_line(player, version));
    }
    if version == TrfVersion::Trf26 {
        lines.extend(bye_records(&players));
    }
    let mut text = lines.join("\r\n");
    text.push_str("\r\n");
    text
}

/// A header text on one line (the format has no way to continue a line).
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// TRF26's `240` records: per round and type (`F`, `H`, `Z`), the players given that bye,
/// at most twenty a line.
fn bye_records(players: &[&TrfPlayer]) -> Vec<String> {
    let mut lines = Vec::new();
    let rounds = players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    for round in 1..=rounds {
        for (kind, result) in [
            ('F', TrfResult::FullPointBye),
            ('H', TrfResult::HalfPointBye),
            ('Z', TrfResult::ZeroPointBye),
        ] {
            let given: Vec<u32> = players
                .iter()
                .filter(|p| {
                    p.rounds
                        .get(round - 1)
                        .is_some_and(|r| r.opponent.is_none() && r.result == result)
                })
                .map(|p| p.start_number)
                .collect();
            for chunk in given.chunks(20) {
                let numbers: Vec<String> = chunk.iter().map(|n| format!("{n:>4}")).collect();
                lines.push(format!("240 {kind} {round:03} {}", numbers.join(" ")));
            }
        }
    }
    lines
}

/// Computes every player's points (FIDE's default scoring) and rank: by points, players on
/// the same points sharing the better rank (`1, 2, 2, 4`), as the format allows ("ties
/// allowed"); no tie-break is applied, since the service does not know the tournament's.
pub fn score(players: &mut [TrfPlayer]) {
    for player in players.iter_mut() {
        player.half_points = player.rounds.iter().map(|r| r.result.half_points()).sum();
    }
    let all: Vec<u32> = players.iter().map(|p| p.half_points).collect();
    for player in players.iter_mut() {
        let better = all.iter().filter(|&&p| p > player.half_points).count() as u32;
        player.rank = Some(better + 1);
    }
}

/// The encoded time control of TRF26's line `222` for one period of `base_ms` with
/// `increment_ms` a move (`5400+30`, `900`), in whole seconds.
pub fn encoded_time_control(base_ms: u64, increment_ms: u64) -> String {
    let (base, increment) = (base_ms / 1000, increment_ms / 1000);
    if increment == 0 {
        base.to_string()
    } else {
        format!("{base}+{increment}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GROS: &str = include_str!("../../tests/data/gros-2010.trf");

    #[test]
    fn every_player_line_of_the_real_tournament_is_written_back_identical() {
        let report = read_report(GROS).expect("readable");
        assert_eq!(report.players.len(), 52);
        let original: Vec<&str> = GROS
            .lines()
            .filter(|l| l.starts_with("001"))
            .map(str::trim_end)
            .collect();
        let written = write_report(&report, TrfVersion::Trf16);
        let ours: Vec<&str> = written.lines().filter(|l| l.starts_with("001")).collect();
        assert_eq!(ours.len(), original.len());
        for (ours, original) in ours.iter().zip(&original) {
            assert_eq!(ours, original);
        }
    }

    #[test]
    fn the_header_of_the_real_tournament_is_read_and_written() {
        let report = read_report(GROS).expect("readable");
        let header = &report.tournament;
        assert_eq!(header.name, "XX Open Internacional de Gros");
        assert_eq!(header.city.as_deref(), Some("Donostia"));
        assert_eq!(
            header.chief_arbiter.as_deref(),
            Some("IA Mikel Larreategi Arana (22232540)")
        );
        assert!(header.deputies.is_empty());
        assert_eq!(header.rounds, Some(9));
        let written = write_report(&report, TrfVersion::Trf16);
        assert!(written.starts_with("012 XX Open Internacional de Gros\r\n022 Donostia\r\n"));
        assert!(written.contains("\r\n062 52\r\n072 41\r\n"));
        assert!(written.contains("\r\n102 IA Mikel Larreategi Arana (22232540)\r\n"));
        assert!(written.ends_with("\r\n"));
        assert!(!written.contains("\r\n142 "), "TRF-16 has no 142");
    }

    #[test]
    fn the_real_tournament_scores_as_its_file_says() {
        let report = read_report(GROS).expect("readable");
        let mut players = report.players.clone();
        score(&mut players);
        for (scored, original) in players.iter().zip(&report.players) {
            assert_eq!(
                scored.half_points, original.half_points,
                "{}",
                original.name
            );
        }
        // Ranks: the file's come from tie-breaks; ours share the rank on equal points.
        assert_eq!(players[0].rank, Some(1));
        assert_eq!(players[1].rank, Some(1));
        assert_eq!(players[2].rank, Some(3));
    }

    #[test]
    fn trf26_writes_titles_rounds_time_control_and_bye_records() {
        let mut report = read_report(GROS).expect("readable");
        report.tournament.encoded_time_control = Some(encoded_time_control(5_400_000, 30_000));
        let written = write_report(&report, TrfVersion::Trf26);
        assert!(
            written.contains("\r\n142 9\r\n222 5400+30\r\n"),
            "{written}"
        );
        let first = written
            .lines()
            .find(|l| l.starts_with("001"))
            .expect("a player");
        assert_eq!(&first[9..13], "m GM");
        // Round 3: 14, 16, 29, 35, 36, 39, 45, 47 half-point byes; round 5: 28 and 22 absent.
        assert!(
            written.contains("\r\n240 H 003   14   16   29   35   36   38   39   45   47\r\n"),
            "{written}"
        );
        assert!(written.contains("\r\n240 Z 005   22   28\r\n"), "{written}");
        let again = read_report(&written).expect("readable again");
        let untitled = |players: &[TrfPlayer]| {
            players
                .iter()
                .map(|p| TrfPlayer {
                    title: String::new(),
                    ..p.clone()
                })
                .collect::<Vec<_>>()
        };
        assert!(untitled(&again.players) == untitled(&report.players));
        assert_eq!(again.players[1].title, "IM");
        assert_eq!(again.tournament.rounds, Some(9));
    }

    #[test]
    fn a_double_forfeit_and_games_of_less_than_one_move_are_written_with_their_codes() {
        let round = |opponent, colour, result| TrfRound {
            opponent: Some(opponent),
            colour,
            result,
        };
        let mut players = vec![
            TrfPlayer {
                start_number: 1,
                name: "One".into(),
                rounds: vec![
                    round(2, TrfColour::White, TrfResult::ForfeitLoss),
                    round(2, TrfColour::Black, TrfResult::UnratedWin),
                ],
                ..TrfPlayer::default()
            },
            TrfPlayer {
                start_number: 2,
                name: "Two".into(),
                rounds: vec![
                    round(1, TrfColour::Black, TrfResult::ForfeitLoss),
                    round(1, TrfColour::White, TrfResult::UnratedLoss),
                ],
                ..TrfPlayer::default()
            },
        ];
        score(&mut players);
        let report = TrfReport {
            tournament: TrfTournament {
                name: "Test".into(),
                ..TrfTournament::default()
            },
            players,
        };
        let written = write_report(&report, TrfVersion::Trf16);
        let lines: Vec<&str> = written.lines().filter(|l| l.starts_with("001")).collect();
        assert_eq!(&lines[0][80..], " 1.0    1     2 w -     2 b W");
        assert_eq!(&lines[1][80..], " 0.0    2     1 b -     1 w L");
    }

    #[test]
    fn a_result_code_that_is_not_one_is_named_with_its_column() {
        let line = format!("{:<91}   2 w X", "001    1 m    A");
        let error = read_report(&line).expect_err("refused");
        assert!(error.0.contains("columns 99-99"), "{error}");
    }
}

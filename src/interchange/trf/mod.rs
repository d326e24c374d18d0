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
//! Reading and writing are pure; [`crate::app::trf`] builds a report from the log, and
//! [`super::pairings`] reads a round's pairings from the players' lines. This module is the
//! one reader and the one writer of the format: the record types here, the reader in
//! `read.rs` (with its notes on older conventions) and the writer in `write.rs`, so that
//! neither pairing files nor reports keep a second idea of the columns.

mod read;
#[cfg(test)]
mod tests;
mod write;

pub use read::{TrfReadError, read_report, read_report_noting};
pub use write::{encoded_time_control, player_line, points_text, score, write_report};

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

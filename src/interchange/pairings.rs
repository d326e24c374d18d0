//! Pairing files: a round's pairings as the chief arbiter receives them from the pairing
//! program, read into boards of two players.
//!
//! Two formats are read:
//!
//! * **CSV** with a header row naming the columns `board`, `white`, `black` and optionally
//!   `white_fide_id`, `black_fide_id` (any order, any case; comma, semicolon or tab
//!   separated; names holding the separator are quoted, `"Carlsen, Magnus"`).
//! * **FIDE TRF-16 and TRF26** (read by the one TRF reader, [`read_report_noting`], with its
//!   notes on older conventions; the Tournament Report File that Swiss-Manager, Vega and
//!   JaVaFo write):
//!   the player lines `001` in fixed columns (start number 5-8, name 15-47, FIDE id 58-68)
//!   and, per round, the opponent's start number (columns 92-95 for round 1, ten columns
//!   further for each next round), the colour (97: `w`, `b` or `-`) and the result (99).
//!   TRF has no board numbers: boards are numbered in the order pairing programs print them,
//!   by the higher score of the pair before the round, then the sum of both scores, then the
//!   better (lower) start number in the pair.
//!
//! Reading is pure: the caller decides what the pairings become (games, in
//! `crate::tournament`).

use super::trf::{TrfColour, TrfPlayer, TrfReadError, TrfResult, TrfRound, read_report_noting};
use crate::game::event::Player;
use std::collections::{BTreeMap, HashMap};

/// One board of a round.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct Pairing {
    /// The board number (1, 2, ...).
    pub board: u32,
    /// The player of the white pieces.
    pub white: Player,
    /// The player of the black pieces.
    pub black: Player,
}

/// A player of the round without a game on a board (TRF only): a bye or an absence.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct Unpaired {
    /// The player's start number in the file.
    pub start_number: u32,
    /// The player.
    pub name: String,
    /// The TRF code of the round (`H` half-point bye, `F` full-point bye, `U` pairing-allocated
    /// bye, `Z` zero-point bye, blank when not paired yet).
    pub code: String,
}

/// A round read from a pairing file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundPairings {
    /// The boards, in board order.
    pub boards: Vec<Pairing>,
    /// Players without a board this round (TRF byes).
    pub unpaired: Vec<Unpaired>,
    /// What was kept in another form than written, line by line (TRF: an id that is not a
    /// FIDE id, a pair without colours, ...).
    pub notes: Vec<String>,
}

/// Why a pairing file cannot be read; the message names the line and what to fix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PairingFileError(pub String);

impl From<TrfReadError> for PairingFileError {
    fn from(error: TrfReadError) -> Self {
        PairingFileError(error.0)
    }
}

fn fail<T>(message: impl Into<String>) -> Result<T, PairingFileError> {
    Err(PairingFileError(message.into()))
}

/// Names are bounded like every name the service keeps.
const MAX_NAME_CHARS: usize = 200;

/// Checks the boards of a round: numbered from 1 without a repeat, two different, named
/// players each, and nobody on two boards.
pub fn check_boards(boards: &[Pairing]) -> Result<(), PairingFileError> {
    if boards.is_empty() {
        return fail("The round has no boards: give at least one pairing.");
    }
    let mut seen_boards = HashMap::new();
    let mut seen_players: HashMap<String, u32> = HashMap::new();
    for pairing in boards {
        if pairing.board == 0 {
            return fail("Board numbers start at 1; board 0 is not a board.");
        }
        if let Some(_previous) = seen_boards.insert(pairing.board, ()) {
            return fail(format!(
                "Board {} appears twice; give each board once.",
                pairing.board
            ));
        }
        for (colour, player) in [("white", &pairing.white), ("black", &pairing.black)] {
            let name = player.name.trim();
            if name.is_empty() {
                return fail(format!(
                    "Board {}: the {colour} player has no name.",
                    pairing.board
                ));
            }
            if name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control) {
                return fail(format!(
                    "Board {}: the {colour} player's name must be at most {MAX_NAME_CHARS} \
                     characters without control characters.",
                    pairing.board
                ));
            }
            let key = player
                .fide_id
                .map(|id| format!("fide:{id}"))
                .unwrap_or_else(|| format!("name:{}", name.to_lowercase()));
            if let Some(other) = seen_players.insert(key, pairing.board) {
                return fail(format!(
                    "{name} is paired on board {other} and on board {}; a player plays one \
                     game per round.",
                    pairing.board
                ));
            }
        }
    }
    Ok(())
}

/// Reads a CSV pairing list (see the module documentation for the columns).
pub fn parse_csv(text: &str) -> Result<RoundPairings, PairingFileError> {
    let text = text.trim_start_matches('\u{feff}');
    let first_line = text.lines().next().unwrap_or_default();
    let delimiter = [b';', b'\t', b',']
        .into_iter()
        .max_by_key(|d| first_line.bytes().filter(|b| b == d).count())
        .unwrap_or(b',');
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = match reader.headers() {
        Ok(headers) => headers.clone(),
        Err(error) => return fail(format!("The CSV header row cannot be read: {error}.")),
    };
    let column = |names: &[&str]| {
        headers.iter().position(|h| {
            let h = h.trim().to_lowercase().replace([' ', '-'], "_");
            names.contains(&h.as_str())
        })
    };
    let (Some(board), Some(white), Some(black)) = (
        column(&["board", "bo", "brd", "table"]),
        column(&["white", "white_name"]),
        column(&["black", "black_name"]),
    ) else {
        return fail(format!(
            "The CSV header row must name the columns board, white and black (and optionally \
             white_fide_id, black_fide_id); it has: {}.",
            headers.iter().collect::<Vec<_>>().join(", ")
        ));
    };
    let white_id = column(&["white_fide_id", "white_fideid", "white_id"]);
    let black_id = column(&["black_fide_id", "black_fideid", "black_id"]);
    let mut boards = Vec::new();
    for (index, record) in reader.records().enumerate() {
        let line = index + 2;
        let record = match record {
            Ok(record) => record,
            Err(error) => return fail(format!("CSV line {line} cannot be read: {error}.")),
        };
        if record.iter().all(|field| field.trim().is_empty()) {
            continue;
        }
        let field = |i: usize| record.get(i).unwrap_or_default().trim();
        let board_number = field(board).parse::<u32>().or_else(|_| {
            fail(format!(
                "CSV line {line}: the board `{}` is not a number.",
                field(board)
            ))
        })?;
        let fide_id = |column: Option<usize>, colour: &str| -> Result<_, PairingFileError> {
            match column.map(field).filter(|f| !f.is_empty() && *f != "0") {
                None => Ok(None),
                Some(text) => text.parse::<u64>().map(Some).or_else(|_| {
                    fail(format!(
                        "CSV line {line}: the {colour} FIDE id `{text}` is not a number."
                    ))
                }),
            }
        };
        boards.push(Pairing {
            board: board_number,
            white: Player {
                name: field(white).to_string(),
                fide_id: fide_id(white_id, "white")?,
            },
            black: Player {
                name: field(black).to_string(),
                fide_id: fide_id(black_id, "black")?,
            },
        });
    }
    boards.sort_by_key(|p| p.board);
    check_boards(&boards)?;
    Ok(RoundPairings {
        boards,
        unpaired: Vec::new(),
        notes: Vec::new(),
    })
}

/// Decodes a file as UTF-8, or as Latin-1 (what older Windows programs write) when it is not.
pub fn decode_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Points a result is worth under FIDE's default scoring, in half points (so that sorting
/// stays exact).
fn points(result: TrfResult) -> u32 {
    result.half_points()
}

/// Reads the pairings of round `round` (1-based) from a TRF-16 or TRF26 file, with the one
/// reader of the format ([`read_report_noting`]) and its notes. A pair written without
/// colours (`204 - +`: a forfeit as FIDE's 2005 example report and older programs write it),
/// or with one player's colour only, is loaded with the colour given, else with the lower
/// start rank as White, and a note saying so.
pub fn parse_trf_round(text: &str, round: u32) -> Result<RoundPairings, PairingFileError> {
    if round == 0 {
        return fail("Rounds are numbered from 1.");
    }
    let (report, mut notes) = read_report_noting(text)?;
    let players = report.players;
    let index = (round - 1) as usize;
    let by_number: BTreeMap<u32, &TrfPlayer> =
        players.iter().map(|p| (p.start_number, p)).collect();
    if by_number.len() != players.len() {
        return fail("Two player lines have the same start number.");
    }
    let score = |player: &TrfPlayer| -> u32 {
        player
            .rounds
            .iter()
            .take(index)
            .map(|r| points(r.result))
            .sum()
    };
    let column = 92 + 10 * index + 5;
    let mut pairs = Vec::new();
    let mut unpaired = Vec::new();
    for player in &players {
        let entry = player.rounds.get(index).copied().unwrap_or(TrfRound::BLANK);
        let Some(opponent) = entry.opponent.filter(|o| *o != 0) else {
            unpaired.push(Unpaired {
                start_number: player.start_number,
                name: player.name.clone(),
                code: entry.result.code().to_string().trim().to_string(),
            });
            continue;
        };
        let Some(other) = by_number.get(&opponent) else {
            return fail(format!(
                "Round {round}: {} (start number {}) is paired with start number {opponent}, \
                 which has no player line.",
                player.name, player.start_number
            ));
        };
        let back = other.rounds.get(index).copied().unwrap_or(TrfRound::BLANK);
        if back.opponent != Some(player.start_number) {
            return fail(format!(
                "Round {round}: {} (start number {}) is paired with {} (start number \
                 {opponent}), but that player's line names start number {}.",
                player.name,
                player.start_number,
                other.name,
                back.opponent.unwrap_or(0)
            ));
        }
        // Each pair once, from the lower start rank's line.
        if player.start_number > opponent {
            continue;
        }
        let (first, second) = (player, *other);
        let pair = match (entry.colour, back.colour) {
            (TrfColour::White, TrfColour::Black) => (first, second),
            (TrfColour::Black, TrfColour::White) => (second, first),
            (TrfColour::White, TrfColour::None) | (TrfColour::None, TrfColour::Black) => {
                (first, second)
            }
            (TrfColour::Black, TrfColour::None) | (TrfColour::None, TrfColour::White) => {
                (second, first)
            }
            (TrfColour::None, TrfColour::None) => (first, second),
            (colour, back_colour) => {
                let letter = |c: TrfColour| match c {
                    TrfColour::White => 'w',
                    TrfColour::Black => 'b',
                    TrfColour::None => '-',
                };
                return fail(format!(
                    "Round {round}: {} and {} must have the colours w and b (column \
                     {column}), not `{}` and `{}`.",
                    first.name,
                    second.name,
                    letter(colour),
                    letter(back_colour)
                ));
            }
        };
        if entry.colour == TrfColour::None || back.colour == TrfColour::None {
            notes.push(format!(
                "round {round}: {} ({}) and {} ({}) are paired without both colours (column \
                 {column}, `{}` and `{}`, as older programs write a forfeit); {} is loaded as \
                 White.",
                first.name,
                first.start_number,
                second.name,
                second.start_number,
                entry.result.code(),
                back.result.code(),
                pair.0.name
            ));
        }
        pairs.push(pair);
    }
    if pairs.is_empty() {
        return fail(format!(
            "Round {round} has no pairings in this file (no player line has an opponent in \
             columns {}-{}).",
            92 + 10 * index,
            95 + 10 * index
        ));
    }
    pairs.sort_by_key(|(white, black)| {
        let (a, b) = (score(white), score(black));
        (
            std::cmp::Reverse(a.max(b)),
            std::cmp::Reverse(a + b),
            white.start_number.min(black.start_number),
        )
    });
    let boards: Vec<Pairing> = pairs
        .into_iter()
        .enumerate()
        .map(|(i, (white, black))| Pairing {
            board: i as u32 + 1,
            white: Player {
                name: white.name.clone(),
                fide_id: white.fide_id.filter(|id| *id != 0),
            },
            black: Player {
                name: black.name.clone(),
                fide_id: black.fide_id.filter(|id| *id != 0),
            },
        })
        .collect();
    check_boards(&boards)?;
    Ok(RoundPairings {
        boards,
        unpaired,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_csv_with_quoted_names_and_semicolons_is_read_in_board_order() {
        let text = "Board;White;Black;White FIDE id;Black FIDE id\n\
                    2;\"Okafor, Ben\";\"Lee, Ann\";;4100002\n\
                    1;\"Carlsen; Magnus\";Nepo;1503014;\n";
        let round = parse_csv(text).expect("readable");
        assert_eq!(round.boards.len(), 2);
        assert_eq!(round.boards[0].board, 1);
        assert_eq!(round.boards[0].white.name, "Carlsen; Magnus");
        assert_eq!(round.boards[0].white.fide_id, Some(1503014));
        assert_eq!(round.boards[1].black.fide_id, Some(4100002));
    }

    #[test]
    fn a_csv_without_the_needed_columns_names_them() {
        let error = parse_csv("table,home,away\n1,a,b\n").expect_err("refused");
        assert!(error.0.contains("board, white and black"), "{error}");
    }

    #[test]
    fn a_player_on_two_boards_is_refused() {
        let error = parse_csv("board,white,black\n1,A,B\n2,C,A\n").expect_err("refused");
        assert!(error.0.contains("board 1 and on board 2"), "{error}");
    }

    /// A player line with the fields at their TRF-16 columns.
    fn trf_line(start: u32, name: &str, rounds: &[(u32, char, char)]) -> String {
        let mut line = vec![' '; 91];
        let mut put = |from: usize, text: &str| {
            for (i, c) in text.chars().enumerate() {
                line[from - 1 + i] = c;
            }
        };
        put(1, "001");
        put(5, &format!("{start:>4}"));
        put(15, name);
        let mut text: String = line.into_iter().collect();
        for (opponent, colour, result) in rounds {
            text.push_str(&format!("{opponent:>4} {colour} {result}  "));
        }
        text
    }

    #[test]
    fn a_trf_round_with_mismatched_colours_is_refused() {
        let text = format!(
            "{}\n{}\n",
            trf_line(1, "A", &[(2, 'w', ' ')]),
            trf_line(2, "B", &[(1, 'w', ' ')])
        );
        let error = parse_trf_round(&text, 1).expect_err("refused");
        assert!(error.0.contains("colours w and b"), "{error}");
    }

    #[test]
    fn trf_boards_follow_the_scores_before_the_round() {
        // Round 1: 1-4 (1 wins), 2-3 (draw). Round 2: 3 (0.5) vs 4 (0) and 1 (1) vs 2 (0.5).
        let text = [
            trf_line(1, "One", &[(4, 'w', '1'), (2, 'b', ' ')]),
            trf_line(2, "Two", &[(3, 'b', '='), (1, 'w', ' ')]),
            trf_line(3, "Three", &[(2, 'w', '='), (4, 'w', ' ')]),
            trf_line(4, "Four", &[(1, 'b', '0'), (3, 'b', ' ')]),
            trf_line(5, "Five", &[(0, '-', 'H'), (0, '-', 'U')]),
        ]
        .join("\r\n");
        let round = parse_trf_round(&text, 2).expect("readable");
        let boards: Vec<(u32, &str, &str)> = round
            .boards
            .iter()
            .map(|p| (p.board, p.white.name.as_str(), p.black.name.as_str()))
            .collect();
        assert_eq!(boards, vec![(1, "Two", "One"), (2, "Three", "Four")]);
        assert_eq!(round.unpaired.len(), 1);
        assert_eq!(round.unpaired[0].code, "U");
    }

    #[test]
    fn a_file_with_club_ids_short_lines_and_forfeits_without_colours_is_read_with_notes() {
        let mut one = trf_line(1, "One", &[(4, '-', '+'), (2, 'w', ' ')]);
        one.replace_range(57..68, "     CLB12");
        let mut two = trf_line(2, "Two", &[(3, 'b', '='), (1, 'b', ' ')]);
        two.replace_range(48..52, "abc ");
        let three = trf_line(3, "Three", &[(2, 'w', '='), (0, '-', 'Z')]);
        // Four withdrew after round 1: the line ends there.
        let four = trf_line(4, "Four", &[(1, 'w', '-')]);
        let text = [one, two, three, four].join("\r\n");
        let first = parse_trf_round(&text, 1).expect("readable");
        let boards: Vec<(&str, &str)> = first
            .boards
            .iter()
            .map(|p| (p.white.name.as_str(), p.black.name.as_str()))
            .collect();
        // One has no colour and Four has `w`: Four's colour is kept. Board order: equal
        // scores, so the better start rank first.
        assert_eq!(boards, vec![("Four", "One"), ("Three", "Two")]);
        assert_eq!(first.boards[0].black.fide_id, None);
        assert!(
            first
                .notes
                .contains(&"line 1: `CLB12` (columns 58-68, One) is not a FIDE id; the player is loaded without one.".to_string()),
            "{:#?}",
            first.notes
        );
        assert!(
            first.notes.iter().any(|n| n.starts_with("line 2: `abc`")),
            "{:#?}",
            first.notes
        );
        assert!(
            first
                .notes
                .iter()
                .any(|n| n
                    .starts_with("round 1: One (1) and Four (4) are paired without both colours")),
            "{:#?}",
            first.notes
        );
        // Round 2: the short line is a player without a pairing, not a refusal.
        let second = parse_trf_round(&text, 2).expect("readable");
        assert_eq!(second.boards.len(), 1);
        let unpaired: Vec<(u32, &str)> = second
            .unpaired
            .iter()
            .map(|u| (u.start_number, u.code.as_str()))
            .collect();
        assert_eq!(unpaired, vec![(3, "Z"), (4, "")]);
    }
}

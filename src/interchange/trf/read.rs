//! Reading a TRF file: the header lines and the fixed columns of every `001` line, keeping
//! what real files write in older conventions and saying so in notes (issue 35). Apart from
//! the writer, since what is accepted (CR alone, short lines, a club code for an id) is wider
//! than what is written.

use super::{TrfColour, TrfPlayer, TrfReport, TrfResult, TrfRound};

/// Why a TRF file cannot be read; the message names the line, the columns and what to fix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TrfReadError(pub String);

fn fail<T>(message: impl Into<String>) -> Result<T, TrfReadError> {
    Err(TrfReadError(message.into()))
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

/// Reads a TRF-16 or TRF26 file: the header lines named in [`super::TrfTournament`] and every `001`
/// line with its fixed columns. Other lines (comments `###`, `XXC`, team records) are skipped.
/// What the file's older conventions needed (see [`read_report_noting`]) is not reported.
pub fn read_report(text: &str) -> Result<TrfReport, TrfReadError> {
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
pub fn read_report_noting(text: &str) -> Result<(TrfReport, Vec<String>), TrfReadError> {
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
) -> Result<TrfPlayer, TrfReadError> {
    let line: Vec<char> = raw.chars().collect();
    let at = |what: &str, from: usize, to: usize, text: &str| {
        TrfReadError(format!(
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

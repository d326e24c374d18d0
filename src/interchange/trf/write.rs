//! Writing a TRF file in either version: the `001` lines column by column, the header lines,
//! TRF26's records of byes, and the points and ranks the report carries. Apart from the
//! reader, since what is written is one exact form per version.

use super::{TrfColour, TrfPlayer, TrfReport, TrfResult, TrfVersion};

/// Half points written as `4.0`, `3.5`.
pub fn points_text(half_points: u32) -> String {
    format!(
        "{}.{}",
        half_points / 2,
        if half_points % 2 == 1 { 5 } else { 0 }
    )
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

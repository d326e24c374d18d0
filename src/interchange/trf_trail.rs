//! The integrity trail of a tournament report (issue 35): the `###` comment lines the TRF26
//! export carries after its records, and reading back the seal they hold.
//!
//! TRF26 allows them: "Comment lines are allowed as long as the first three characters of the
//! line are `###` (triple pound sign)" (TRF26, Remark 1). FIDE's checklist for endorsed
//! tournament software (Handbook C.02, March 2026, as issue 35 quotes it) asks that result
//! corrections, imports, manual pairings and configuration changes be logged and written into
//! the TRF as such lines, in the form `### Correction @ Round 3: ...`; the lines below follow
//! that form: a label, `@` and where (round and board), then what changed, who recorded it,
//! when (UTC) and why, all on one line.
//!
//! The seal's lines (`### Seal: ...` and one `### Chain head @ ...` per game) are read back by
//! [`read_seal`] for `arbiter verify --report`, which checks the games' exported logs against
//! them offline.
//!
//! Pure: the application service [`crate::app::trail`] gathers the facts from the log.

use crate::integrity::{ChainDigest, tournament_seal};
use chrono::{DateTime, Utc};

/// What kind of fact a trail line reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrailKind {
    /// A correction (a data-entry error undone) that changed a game's result.
    Correction,
    /// An appeals committee's decision that changed a game's result.
    Appeal,
    /// A result entered or changed after a TRF export that carried its round.
    ResultAfterExport,
    /// A round's pairings loaded again.
    PairingsReloaded,
    /// The tournament's settings changed after its first round was loaded.
    SettingsChanged,
    /// A player's status: withdrawal, expulsion, a requested bye, a late entry.
    PlayerStatus,
}

impl TrailKind {
    /// The label the line begins with.
    pub fn label(self) -> &'static str {
        match self {
            TrailKind::Correction => "Correction",
            TrailKind::Appeal => "Appeal",
            TrailKind::ResultAfterExport => "Result after export",
            TrailKind::PairingsReloaded => "Pairings re-loaded",
            TrailKind::SettingsChanged => "Settings changed",
            TrailKind::PlayerStatus => "Player status",
        }
    }
}

/// One fact of the trail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrailEntry {
    /// What kind of fact.
    pub kind: TrailKind,
    /// The round it concerns, when it concerns one.
    pub round: Option<String>,
    /// The board, when it concerns one game.
    pub board: Option<u32>,
    /// What changed, in words (`1-0 became 1/2-1/2`).
    pub what: String,
    /// Who recorded it (the envelope's `recorded_by`).
    pub by: String,
    /// When it was recorded.
    pub at: DateTime<Utc>,
    /// Why, as recorded.
    pub why: Option<String>,
}

impl TrailEntry {
    /// Where: `Round 3, board 2`, `Round 3` or `the tournament`.
    pub fn place(&self) -> String {
        place(self.round.as_deref(), self.board)
    }
}

/// A board whose game has no result yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingResult {
    /// The game.
    pub game_id: uuid::Uuid,
    /// Its round.
    pub round: String,
    /// Its board.
    pub board: Option<u32>,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
}

impl MissingResult {
    /// `Round 4, board 2 (White - Black)`.
    pub fn describe(&self) -> String {
        format!(
            "{} ({} - {})",
            place(Some(&self.round), self.board),
            self.white,
            self.black
        )
    }
}

/// A game's chain head as the seal covers it, with where it was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SealedGame {
    /// Its round.
    pub round: String,
    /// Its board.
    pub board: Option<u32>,
    /// The last `seq` and hash of its log.
    pub head: ChainDigest,
}

/// `Round 3, board 2`, `Round 3` or `the tournament`.
fn place(round: Option<&str>, board: Option<u32>) -> String {
    match (round, board) {
        (Some(round), Some(board)) => format!("Round {round}, board {board}"),
        (Some(round), None) => format!("Round {round}"),
        (None, _) => "the tournament".into(),
    }
}

/// A text on one line (a comment line cannot continue).
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// The time as the trail writes it: UTC to the second, `2026-11-28T13:05:00Z`.
pub fn trail_time(at: &DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The `###` lines of the trail: the facts in the order given, then one `Provisional` line
/// per board without a result, then the seal over `sealed` and each game's chain head.
pub fn trail_lines(
    entries: &[TrailEntry],
    missing: &[MissingResult],
    sealed: &[SealedGame],
) -> Vec<String> {
    let mut lines = Vec::new();
    for entry in entries {
        let mut line = format!(
            "### {} @ {}: {}; recorded by {} at {}",
            entry.kind.label(),
            place(entry.round.as_deref(), entry.board),
            one_line(&entry.what),
            one_line(&entry.by),
            trail_time(&entry.at)
        );
        if let Some(why) = entry.why.as_deref().map(one_line).filter(|w| !w.is_empty()) {
            line.push_str(&format!("; reason: {why}"));
        }
        lines.push(line);
    }
    for board in missing {
        lines.push(format!(
            "### Provisional @ {}: no result yet ({} - {}); this report is not final",
            place(Some(&board.round), board.board),
            one_line(&board.white),
            one_line(&board.black)
        ));
    }
    let heads: Vec<ChainDigest> = sealed.iter().map(|s| s.head.clone()).collect();
    lines.push(format!(
        "### Seal: SHA-256 {} over the chain heads of {} games (check the games' exported \
         logs with `arbiter verify --report`)",
        tournament_seal(&heads),
        heads.len()
    ));
    for game in sealed {
        lines.push(format!(
            "### Chain head @ {}: game {} seq {} hash {}",
            place(Some(&game.round), game.board),
            game.head.game_id,
            game.head.seq,
            game.head.hash
        ));
    }
    lines
}

/// The seal a report carries, read back from its `###` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadSeal {
    /// The seal's hash, as written.
    pub seal: String,
    /// The games' heads, with where each was played (`Round 3, board 2`).
    pub games: Vec<(String, ChainDigest)>,
}

/// Reads the seal and the chain heads from a report's `###` lines. Refuses a report without
/// a seal, with a chain head line that cannot be read, or whose heads do not give its seal
/// (the report itself was edited).
pub fn read_seal(text: &str) -> Result<ReadSeal, String> {
    let mut seal = None;
    let mut games = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if let Some(rest) = line.strip_prefix("### Seal: SHA-256 ") {
            seal = rest.split_whitespace().next().map(str::to_string);
        } else if let Some(rest) = line.strip_prefix("### Chain head @ ") {
            let unreadable = || {
                format!(
                    "line {}: `{line}` is not a chain head (`### Chain head @ Round R, board \
                     B: game ID seq N hash H`)",
                    index + 1
                )
            };
            let at = rest.rfind(": game ").ok_or_else(unreadable)?;
            let words: Vec<&str> = rest[at + 7..].split_whitespace().collect();
            let [game_id, "seq", seq, "hash", hash] = words[..] else {
                return Err(unreadable());
            };
            games.push((
                rest[..at].to_string(),
                ChainDigest {
                    game_id: game_id.parse().map_err(|_| unreadable())?,
                    seq: seq.parse().map_err(|_| unreadable())?,
                    hash: hash.to_string(),
                },
            ));
        }
    }
    let seal = seal.ok_or(
        "the report has no `### Seal: SHA-256 ...` line: export it as TRF26 \
         (`GET /v1/tournaments/{id}/trf?version=26&final=true`)",
    )?;
    let heads: Vec<ChainDigest> = games.iter().map(|(_, head)| head.clone()).collect();
    let computed = tournament_seal(&heads);
    if !computed.eq_ignore_ascii_case(&seal) {
        return Err(format!(
            "the report's chain heads give the seal {computed}, not the {seal} it carries: the \
             report was edited after it was written"
        ));
    }
    Ok(ReadSeal { seal, games })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at() -> DateTime<Utc> {
        "2026-11-22T14:05:09Z".parse().expect("time")
    }

    #[test]
    fn a_correction_is_one_line_with_where_what_who_when_and_why() {
        let lines = trail_lines(
            &[TrailEntry {
                kind: TrailKind::Correction,
                round: Some("3".into()),
                board: Some(2),
                what: "1-0 became no result".into(),
                by: "Anna (arbiter)".into(),
                at: at(),
                why: Some("wrong board\ntyped".into()),
            }],
            &[],
            &[],
        );
        assert_eq!(
            lines[0],
            "### Correction @ Round 3, board 2: 1-0 became no result; recorded by Anna \
             (arbiter) at 2026-11-22T14:05:09Z; reason: wrong board typed"
        );
        assert!(lines[1].starts_with("### Seal: SHA-256 "));
    }

    #[test]
    fn the_seal_lines_read_back_and_an_edited_head_is_refused() {
        let sealed = vec![
            SealedGame {
                round: "1".into(),
                board: Some(1),
                head: ChainDigest {
                    game_id: uuid::Uuid::from_u128(7),
                    seq: 12,
                    hash: "ab".repeat(32),
                },
            },
            SealedGame {
                round: "1".into(),
                board: Some(2),
                head: ChainDigest {
                    game_id: uuid::Uuid::from_u128(8),
                    seq: 3,
                    hash: "cd".repeat(32),
                },
            },
        ];
        let text = trail_lines(&[], &[], &sealed).join("\r\n");
        let read = read_seal(&text).expect("the seal reads back");
        assert_eq!(read.games.len(), 2);
        assert_eq!(read.games[1].0, "Round 1, board 2");
        assert_eq!(read.games[1].1, sealed[1].head);
        let edited = text.replace(" seq 3 ", " seq 4 ");
        assert!(
            read_seal(&edited)
                .expect_err("edited")
                .contains("the report was edited")
        );
        assert!(read_seal("012 No seal\r\n").is_err());
    }
}

//! The integrity trail of a tournament's report (issue 35, item 5): what changed a result after
//! it stood (corrections, appeals), the boards still without a result, and the seal over every
//! game's chain head, gathered from the log for the TRF26 export's `###` lines
//! ([`crate::interchange::trf_trail`]) and the chief arbiter's report.
//!
//! * **A result changed.** Each game's log is folded event by event; a recorded event (with
//!   the decisions it caused) after which the game's result is not what it was before changed
//!   it. A `correction` that did is a `Correction` line, an `appeal_decided` an `Appeal` line,
//!   with who recorded it, when, and the reason recorded with it.
//! * **Missing results.** Every game of the event without a result: the report is provisional
//!   (a `### Provisional` line per board), and the final report is refused, naming the boards.
//! * **The seal.** The chain head (last `seq` and hash) of every game of the event, and the
//!   SHA-256 over them ([`crate::integrity::tournament_seal`]).

use super::arbitration::{Arbitration, RecordError};
use super::trf::TrfError;
use crate::game::event::{Event, GameResult, RecordedEvent, ServiceEvent};
use crate::game::{CorruptLog, Game};
use crate::integrity::ChainDigest;
use crate::interchange::trf::{TrfPlayer, TrfVersion, write_report};
use crate::interchange::trf_trail::{
    MissingResult, SealedGame, TrailEntry, TrailKind, trail_lines, trail_time,
};
use crate::rules::tie_breaks::TieBreak;
use crate::store::{EventEnvelope, StoreError};
use crate::tournament::Tournament;
use crate::tournament_log::{LoggedEntry, PairingSource, PlayerStatus, TournamentEntry};
use chrono::{DateTime, Utc};
use uuid::Uuid;

/// The trail of a tournament, as the log stands now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trail {
    /// The facts, in the order they were recorded.
    pub entries: Vec<TrailEntry>,
    /// The boards without a result, in round and board order.
    pub missing: Vec<MissingResult>,
    /// Every game's chain head, in round and board order.
    pub sealed: Vec<SealedGame>,
}

impl Trail {
    /// The seal over every game's chain head.
    pub fn seal(&self) -> String {
        let heads: Vec<ChainDigest> = self.sealed.iter().map(|s| s.head.clone()).collect();
        crate::integrity::tournament_seal(&heads)
    }
}

/// Why a report is refused or cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum TrailError {
    /// The final report was asked for while boards have no result.
    #[error(
        "The final report cannot be made while {} board{} ha{} no result: {}. Record the \
         result of each (or a forfeit, or an arbiter's decision), or export the provisional \
         report (without `final=true`).",
        .0.len(),
        if .0.len() == 1 { "" } else { "s" },
        if .0.len() == 1 { "s" } else { "ve" },
        .0.iter().map(MissingResult::describe).collect::<Vec<_>>().join("; ")
    )]
    ResultsMissing(Vec<MissingResult>),
    /// The report cannot be made.
    #[error(transparent)]
    Trf(#[from] TrfError),
}

impl From<RecordError> for TrailError {
    fn from(error: RecordError) -> Self {
        TrailError::Trf(error.into())
    }
}

impl From<StoreError> for TrailError {
    fn from(error: StoreError) -> Self {
        TrailError::Trf(error.into())
    }
}

/// A recorded event after which (with the decisions it caused) the game's result differs.
struct ResultChange<'a> {
    cause: &'a EventEnvelope,
    before: Option<GameResult>,
    after: Option<GameResult>,
}

/// Ends the change `open` began: kept when the result is not what it was before.
fn close<'a>(
    open: Option<(&'a EventEnvelope, Option<GameResult>)>,
    now: Option<GameResult>,
    changes: &mut Vec<ResultChange<'a>>,
) {
    if let Some((cause, before)) = open
        && before != now
    {
        changes.push(ResultChange {
            cause,
            before,
            after: now,
        });
    }
}

/// The result changes of a game's log, folded event by event, and its result at the end.
fn result_changes(
    game_id: Uuid,
    log: &[EventEnvelope],
) -> Result<(Vec<ResultChange<'_>>, Option<GameResult>), RecordError> {
    let corrupt = |seq: u64, problem: String| RecordError::Corrupt {
        game_id,
        source: CorruptLog { seq, problem },
    };
    let mut game: Option<Game> = None;
    let mut changes = Vec::new();
    let mut open: Option<(&EventEnvelope, Option<GameResult>)> = None;
    for envelope in log {
        let folded = match game.as_mut() {
            None => {
                let Event::Service(ServiceEvent::GameCreated(settings)) = &envelope.event else {
                    return Err(corrupt(
                        envelope.seq,
                        "the log does not begin with game_created".into(),
                    ));
                };
                game.insert(Game::new(settings).map_err(|e| corrupt(envelope.seq, e.to_string()))?)
            }
            Some(folded) => folded,
        };
        if let Event::Recorded(_) = &envelope.event {
            close(open.take(), folded.result(), &mut changes);
            open = Some((envelope, folded.result()));
        }
        folded
            .apply_with_clock(envelope.seq, &envelope.event, envelope.clock.as_ref())
            .map_err(|source| RecordError::Corrupt { game_id, source })?;
    }
    let result = game.as_ref().and_then(Game::result);
    close(open, result, &mut changes);
    Ok((changes, result))
}

/// A result in words: its PGN notation, or `no result`.
fn result_words(result: Option<GameResult>) -> &'static str {
    result.map_or("no result", GameResult::pgn)
}

/// The exports of the tournament's log: when, and the rounds each carried complete.
fn exports(log: &[LoggedEntry]) -> Vec<(DateTime<Utc>, &[u32])> {
    log.iter()
        .filter_map(|logged| match &logged.entry {
            TournamentEntry::ReportExported {
                complete_rounds, ..
            } => Some((logged.recorded_at, complete_rounds.as_slice())),
            _ => None,
        })
        .collect()
}

/// The first export before `at` that carried `round` complete.
fn exported_before(
    exports: &[(DateTime<Utc>, &[u32])],
    round: &str,
    at: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    let round: u32 = round.parse().ok()?;
    exports
        .iter()
        .find(|(when, rounds)| *when < at && rounds.contains(&round))
        .map(|(when, _)| *when)
}

/// The trail lines of the tournament's own log: pairings loaded again, settings changed after
/// the first round was loaded, and the players' statuses (named as the report names them).
fn log_entries(log: &[LoggedEntry], players: &[TrfPlayer]) -> Vec<TrailEntry> {
    let mut entries = Vec::new();
    let mut loaded: Vec<&str> = Vec::new();
    for logged in log {
        let entry = |kind, round: Option<String>, what: String, why: Option<String>| TrailEntry {
            kind,
            round,
            board: None,
            what,
            by: logged.recorded_by.clone(),
            at: logged.recorded_at,
            why,
        };
        match &logged.entry {
            TournamentEntry::PairingsLoaded {
                round,
                source,
                created,
                kept,
            } => {
                if loaded.contains(&round.as_str()) {
                    entries.push(entry(
                        TrailKind::PairingsReloaded,
                        Some(round.clone()),
                        format!(
                            "the round's pairings were loaded again from {}: {created} games \
                             created, {kept} kept",
                            match source {
                                PairingSource::Trf => "a TRF file",
                                PairingSource::Boards => "a list of boards",
                            }
                        ),
                        None,
                    ));
                }
                loaded.push(round);
            }
            TournamentEntry::SettingsChanged { fields } if !loaded.is_empty() => {
                entries.push(entry(
                    TrailKind::SettingsChanged,
                    None,
                    format!(
                        "{} changed after the first round was loaded",
                        fields.join(", ")
                    ),
                    None,
                ));
            }
            TournamentEntry::PlayerStatus { status } => {
                let name = status
                    .start_number()
                    .and_then(|n| players.iter().find(|p| p.start_number == n))
                    .map(|p| p.name.as_str());
                let round = match status {
                    PlayerStatus::Withdrawal { from_round, .. }
                    | PlayerStatus::Expulsion { from_round, .. }
                    | PlayerStatus::LateEntry { from_round, .. } => *from_round,
                    PlayerStatus::ByeRequest { round, .. } => *round,
                };
                entries.push(entry(
                    TrailKind::PlayerStatus,
                    Some(round.to_string()),
                    status.describe(name),
                    Some(status.reason().to_string()),
                ));
            }
            _ => {}
        }
    }
    entries
}

/// Gathers the trail of `tournament` from the log, naming players as `players` (the
/// report's) do.
pub async fn trail(
    arbitration: &Arbitration,
    tournament: &Tournament,
    players: &[TrfPlayer],
) -> Result<Trail, RecordError> {
    let store = arbitration.store();
    let tournament_log = store.tournament_log(tournament.tournament_id).await?;
    let exports = exports(&tournament_log);
    let mut trail = Trail {
        entries: log_entries(&tournament_log, players),
        ..Trail::default()
    };
    for game in store.event_games(&tournament.settings.name).await? {
        let log = store.read_events(game.game_id, 0, None, None).await?;
        let (changes, result) = result_changes(game.game_id, &log)?;
        for change in changes {
            let after_export = exported_before(&exports, &game.round, change.cause.recorded_at);
            let (kind, why) = match (&change.cause.event, after_export) {
                (Event::Recorded(RecordedEvent::Correction { reason, .. }), _) => {
                    (TrailKind::Correction, Some(reason.clone()))
                }
                (Event::Recorded(RecordedEvent::AppealDecided { reason, .. }), _) => {
                    (TrailKind::Appeal, Some(reason.clone()))
                }
                (_, Some(_)) => (TrailKind::ResultAfterExport, None),
                _ => continue,
            };
            let mut what = format!(
                "{} became {} ({} - {})",
                result_words(change.before),
                result_words(change.after),
                game.white,
                game.black
            );
            if let Some(exported) = after_export {
                what.push_str(&format!(
                    ", after round {} was exported complete at {}",
                    game.round,
                    trail_time(&exported)
                ));
            }
            trail.entries.push(TrailEntry {
                kind,
                round: Some(game.round.clone()),
                board: game.board,
                what,
                by: change.cause.recorded_by.clone(),
                at: change.cause.recorded_at,
                why,
            });
        }
        if result.is_none() {
            trail.missing.push(MissingResult {
                game_id: game.game_id,
                round: game.round.clone(),
                board: game.board,
                white: game.white.clone(),
                black: game.black.clone(),
            });
        }
        if let Some(last) = log.last() {
            trail.sealed.push(SealedGame {
                round: game.round.clone(),
                board: game.board,
                head: ChainDigest {
                    game_id: game.game_id,
                    seq: last.seq,
                    hash: last.hash.clone(),
                },
            });
        }
    }
    trail.entries.sort_by_key(|entry| entry.at);
    Ok(trail)
}

/// The tournament's report as a file in `version`, refused while a board has no result when
/// `final_report`; TRF26 carries the trail's `###` lines after its records (TRF-16 has no
/// comment lines, so it is written as before). The export is logged (`report_exported`, by
/// `recorded_by`), with the rounds it carried complete.
pub async fn export(
    arbitration: &Arbitration,
    tournament: &Tournament,
    version: TrfVersion,
    tie_breaks: &[TieBreak],
    final_report: bool,
    recorded_by: &str,
) -> Result<String, TrailError> {
    let report = super::trf::report(arbitration, tournament, tie_breaks).await?;
    let trail = trail(arbitration, tournament, &report.players).await?;
    if final_report && !trail.missing.is_empty() {
        return Err(TrailError::ResultsMissing(trail.missing));
    }
    let mut text = write_report(&report, version);
    if version == TrfVersion::Trf26 {
        for line in trail_lines(&trail.entries, &trail.missing, &trail.sealed) {
            text.push_str(&line);
            text.push_str("\r\n");
        }
    }
    let rounds = report
        .players
        .iter()
        .map(|p| p.rounds.len())
        .max()
        .unwrap_or(0) as u32;
    let complete_rounds = (1..=rounds)
        .filter(|round| {
            let round = round.to_string();
            !trail.missing.iter().any(|m| m.round == round)
        })
        .collect();
    arbitration
        .store()
        .append_tournament_entry(
            tournament.tournament_id,
            &TournamentEntry::ReportExported {
                version: match version {
                    TrfVersion::Trf16 => 16,
                    TrfVersion::Trf26 => 26,
                },
                final_report,
                complete_rounds,
            },
            recorded_by,
        )
        .await?;
    Ok(text)
}

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
use crate::interchange::trf_report::TrfVersion;
use crate::interchange::trf_trail::{
    MissingResult, SealedGame, TrailEntry, TrailKind, trail_lines,
};
use crate::rules::tie_breaks::TieBreak;
use crate::store::{EventEnvelope, StoreError};
use crate::tournament::Tournament;
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

/// Gathers the trail of `tournament` from the log.
pub async fn trail(
    arbitration: &Arbitration,
    tournament: &Tournament,
) -> Result<Trail, RecordError> {
    let store = arbitration.store();
    let mut trail = Trail::default();
    for game in store.event_games(&tournament.settings.name).await? {
        let log = store.read_events(game.game_id, 0, None, None).await?;
        let (changes, result) = result_changes(game.game_id, &log)?;
        for change in changes {
            let (kind, why) = match &change.cause.event {
                Event::Recorded(RecordedEvent::Correction { reason, .. }) => {
                    (TrailKind::Correction, reason)
                }
                Event::Recorded(RecordedEvent::AppealDecided { reason, .. }) => {
                    (TrailKind::Appeal, reason)
                }
                _ => continue,
            };
            trail.entries.push(TrailEntry {
                kind,
                round: Some(game.round.clone()),
                board: game.board,
                what: format!(
                    "{} became {} ({} - {})",
                    result_words(change.before),
                    result_words(change.after),
                    game.white,
                    game.black
                ),
                by: change.cause.recorded_by.clone(),
                at: change.cause.recorded_at,
                why: Some(why.clone()),
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
/// comment lines, so it is written as before).
pub async fn export(
    arbitration: &Arbitration,
    tournament: &Tournament,
    version: TrfVersion,
    tie_breaks: &[TieBreak],
    final_report: bool,
) -> Result<String, TrailError> {
    let trail = trail(arbitration, tournament).await?;
    if final_report && !trail.missing.is_empty() {
        return Err(TrailError::ResultsMissing(trail.missing));
    }
    let mut text = super::trf::export(arbitration, tournament, version, tie_breaks).await?;
    if version == TrfVersion::Trf26 {
        for line in trail_lines(&trail.entries, &trail.missing, &trail.sealed) {
            text.push_str(&line);
            text.push_str("\r\n");
        }
    }
    Ok(text)
}

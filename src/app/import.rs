//! Importing PGN: the application service behind `POST /v1/games/import` and
//! `arbiter import FILE.pgn`. It has no SQL and no chess logic of its own.
//!
//! Each readable game of the file ([`crate::interchange::pgn_import`]) is created with its
//! content-derived id and its moves are recorded through [`Arbitration::record`] in batches,
//! exactly as an arbiter's would be: the engine judges every move (and the dead-position
//! check runs on every one), appends its decisions, and refuses what comes after the game's
//! end. When it refuses a batch because the game ended inside it, the part before the
//! refused event is recorded and the rest is reported as not stored, with the ply and the
//! article of the end.
//!
//! Idempotent: a game already stored under its id is not stored again ("already
//! imported"); one whose earlier import was interrupted is continued where it stopped (its
//! events have the same ids, so a repeated batch is a retry).

use std::time::Instant;

use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::app::arbitration::{Arbitration, RecordError};
use crate::game::event::{Event, GameResult, GameSettings, RecordedEvent, Termination};
use crate::game::view::GameStatus;
use crate::interchange::pgn_import::{GamePlan, ReadGame};
use crate::store::NewEvent;

/// The most events recorded in one append.
pub const DEFAULT_BATCH: usize = 200;

/// What happened to one game of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImportOutcome {
    /// The game was created, or an interrupted import of it continued, and events stored.
    Imported,
    /// The game was already stored as the file has it: nothing new was stored.
    AlreadyImported,
    /// The game cannot be read (bad SAN, bad FEN, another variant): nothing was stored.
    Unreadable,
    /// Storing failed or was not allowed: see `error`.
    Failed,
}

/// Moves of the record that were not stored because the game had ended before them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct MovesNotStored {
    /// The ply of the first move not stored (ply 1 = the record's first half-move).
    pub from_ply: usize,
    /// How many moves were not stored.
    pub moves: usize,
    /// The first of them, as written.
    pub first_move: String,
    /// How the game had ended.
    pub termination: Option<Termination>,
    /// The article of the end, in the game's edition of the Laws.
    pub article: Option<String>,
    /// The engine's sentence about the end.
    pub reason: Option<String>,
}

/// The import of one game of the file.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct GameImport {
    /// The game's 0-based position in the file.
    pub index: usize,
    /// What happened.
    pub outcome: ImportOutcome,
    /// The game's id (derived from the content), when it was readable.
    pub game_id: Option<Uuid>,
    /// The `White` tag.
    pub white: Option<String>,
    /// The `Black` tag.
    pub black: Option<String>,
    /// The `Event` tag.
    pub event: Option<String>,
    /// The half-moves in the file's record.
    pub moves_in_record: usize,
    /// The half-moves the game holds after the import.
    pub moves_stored: usize,
    /// The half-moves this import stored (0 when already imported).
    pub moves_added: usize,
    /// The events this import stored (moves, their decisions, the end), 0 when already
    /// imported.
    pub events_stored: usize,
    /// `in_progress` or `ended`, after the import.
    pub status: Option<GameStatus>,
    /// The result stored, once ended.
    pub result: Option<GameResult>,
    /// How the game ended.
    pub termination: Option<Termination>,
    /// The article of the end.
    pub article: Option<String>,
    /// Moves of the record after the game's end, not stored.
    pub not_stored: Option<MovesNotStored>,
    /// What was assumed or not recorded, in sentences (time control, result, ...).
    pub notes: Vec<String>,
    /// Why the game could not be read or stored.
    pub error: Option<String>,
}

/// The answer to an import: one entry per game of the file, in file order, and totals.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct ImportReport {
    /// Games in the file.
    pub games: usize,
    /// Games imported now.
    pub imported: usize,
    /// Games that were already stored.
    pub already_imported: usize,
    /// Games that cannot be read.
    pub unreadable: usize,
    /// Games that could not be stored.
    pub failed: usize,
    /// Half-moves stored by this import.
    pub moves_stored: usize,
    /// Events stored by this import (moves, decisions, ends).
    pub events_stored: usize,
    /// Milliseconds the import took.
    pub elapsed_ms: u64,
    /// Every game, in file order.
    pub results: Vec<GameImport>,
}

/// Imports PGN games through the engine.
#[derive(Clone, Debug)]
pub struct Importer {
    arbitration: Arbitration,
    batch: usize,
}

impl Importer {
    /// An importer recording through `arbitration`, [`DEFAULT_BATCH`] events an append.
    pub fn new(arbitration: Arbitration) -> Self {
        Importer {
            arbitration,
            batch: DEFAULT_BATCH,
        }
    }

    /// Records at most `batch` events an append (at least 1).
    pub fn with_batch(mut self, batch: usize) -> Self {
        self.batch = batch.max(1);
        self
    }

    /// Imports every game of `games` (as read from one file), recording as `recorded_by`.
    /// `permit` says whether the caller may import a game with these settings (a token
    /// limited to other events may not).
    pub async fn import(
        &self,
        games: Vec<ReadGame>,
        recorded_by: &str,
        permit: impl Fn(&GameSettings) -> Result<(), String>,
    ) -> ImportReport {
        let started = Instant::now();
        let mut results = Vec::with_capacity(games.len());
        for game in games {
            let result = match game {
                ReadGame::Unreadable(unreadable) => GameImport {
                    index: unreadable.index,
                    outcome: ImportOutcome::Unreadable,
                    game_id: None,
                    white: unreadable.white,
                    black: unreadable.black,
                    event: unreadable.event,
                    moves_in_record: 0,
                    moves_stored: 0,
                    moves_added: 0,
                    events_stored: 0,
                    status: None,
                    result: None,
                    termination: None,
                    article: None,
                    not_stored: None,
                    notes: Vec::new(),
                    error: Some(unreadable.error),
                },
                ReadGame::Planned(plan) => {
                    let mut report = blank_report(&plan);
                    match permit(&plan.settings) {
                        Err(denied) => {
                            report.outcome = ImportOutcome::Failed;
                            report.error = Some(denied);
                        }
                        Ok(()) => {
                            if let Err(error) =
                                self.import_game(&plan, recorded_by, &mut report).await
                            {
                                tracing::warn!(game = %plan.game_id, index = plan.index, error = ?error, "PGN import of a game failed");
                                report.outcome = ImportOutcome::Failed;
                                report.error = Some(failure_text(&error));
                            }
                        }
                    }
                    report
                }
            };
            results.push(result);
        }
        let count = |outcome| results.iter().filter(|r| r.outcome == outcome).count();
        ImportReport {
            games: results.len(),
            imported: count(ImportOutcome::Imported),
            already_imported: count(ImportOutcome::AlreadyImported),
            unreadable: count(ImportOutcome::Unreadable),
            failed: count(ImportOutcome::Failed),
            moves_stored: results.iter().map(|r| r.moves_added).sum(),
            events_stored: results.iter().map(|r| r.events_stored).sum(),
            elapsed_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            results,
        }
    }

    /// Creates the game (or finds it) and records what is not stored yet.
    async fn import_game(
        &self,
        plan: &GamePlan,
        recorded_by: &str,
        report: &mut GameImport,
    ) -> Result<(), RecordError> {
        let store = self.arbitration.store();
        let created = store
            .create_game(
                Some(plan.game_id),
                Some(plan.created_event_id),
                &plan.settings,
                recorded_by,
            )
            .await?;
        let mut events_stored = usize::from(created.newly_created);
        let (game, mut last_seq) = self.arbitration.state_at(plan.game_id, None).await?;
        let stored_moves = game.view().ply;
        // Continue an interrupted import where it stopped; a game that has ended takes
        // nothing more.
        let mut next = if game.is_over() {
            plan.events.len()
        } else {
            stored_moves.min(plan.events.len())
        };
        while next < plan.events.len() {
            let end = (next + self.batch).min(plan.events.len());
            match self
                .record(plan, last_seq, &plan.events[next..end], recorded_by)
                .await
            {
                Ok((seq, stored)) => {
                    last_seq = seq;
                    events_stored += stored;
                    next = end;
                }
                Err(RecordError::Refused { index, refusal, .. })
                    if refusal.code() == crate::game::RefusalCode::GameOver =>
                {
                    // The game ended inside this batch: record what came before the refused
                    // event, and no more.
                    if index > 0 {
                        let (_, stored) = self
                            .record(
                                plan,
                                last_seq,
                                &plan.events[next..next + index],
                                recorded_by,
                            )
                            .await?;
                        events_stored += stored;
                    }
                    break;
                }
                Err(other) => return Err(other),
            }
        }
        let (game, _) = self.arbitration.state_at(plan.game_id, None).await?;
        let view = game.view();
        report.outcome = if events_stored > 0 {
            ImportOutcome::Imported
        } else {
            ImportOutcome::AlreadyImported
        };
        report.events_stored = events_stored;
        report.moves_stored = view.ply;
        report.moves_added = view.ply.saturating_sub(stored_moves);
        report.status = Some(view.status);
        report.result = view.result;
        report.termination = view.termination;
        report.article = view.article.clone();
        let unstored_moves = plan.moves.saturating_sub(view.ply) + plan.unplayable_tail.len();
        if game.is_over() && unstored_moves > 0 {
            let first_move = match plan.events.get(view.ply) {
                Some(planned) if view.ply < plan.moves => match &planned.event {
                    RecordedEvent::Move { san, .. } => san.clone(),
                    other => other.type_name().to_string(),
                },
                _ => plan.unplayable_tail.first().cloned().unwrap_or_default(),
            };
            report.not_stored = Some(MovesNotStored {
                from_ply: view.ply + 1,
                moves: unstored_moves,
                first_move,
                termination: view.termination,
                article: view.article.clone(),
                reason: view.reason.clone(),
            });
        }
        let ending_recorded = matches!(
            view.termination,
            Some(Termination::Flag | Termination::Resignation | Termination::Arbiter)
        );
        if plan.events.len() > plan.moves && game.is_over() && !ending_recorded {
            report.notes.push(
                "The end the file states (its Result and Termination) was not recorded: the \
                 game had already ended on the board."
                    .to_string(),
            );
        }
        if let Some(result) = plan.pgn_result
            && !game.is_over()
        {
            report.notes.push(format!(
                "The result {} is not recorded: it was not reached on the board and the file \
                 does not say how the game ended{}, so the game stays in progress.",
                result.pgn(),
                plan.termination_tag
                    .as_deref()
                    .map(|t| format!(" (Termination `{t}`)"))
                    .unwrap_or_default()
            ));
        }
        if let (Some(pgn), Some(board)) = (plan.pgn_result, view.result)
            && pgn != board
        {
            report.notes.push(format!(
                "The file gives the result {}, but the game ended {} under article {}: the \
                 result stored is the board's.",
                pgn.pgn(),
                board.pgn(),
                view.article.as_deref().unwrap_or("?")
            ));
        }
        if !created.newly_created && events_stored > 0 {
            report.notes.push(format!(
                "An earlier import of this game had stopped after {stored_moves} half-moves; \
                 it was continued."
            ));
        }
        Ok(())
    }

    /// Records `events` after `expected_seq`; the last `seq` and how many events were stored.
    async fn record(
        &self,
        plan: &GamePlan,
        expected_seq: u64,
        events: &[crate::interchange::pgn_import::PlannedEvent],
        recorded_by: &str,
    ) -> Result<(u64, usize), RecordError> {
        let batch: Vec<NewEvent> = events
            .iter()
            .map(|planned| NewEvent {
                event_id: planned.event_id,
                event: Event::Recorded(planned.event.clone()),
                occurred_at: None,
                clock: planned.clock.clone(),
            })
            .collect();
        let appended = self
            .arbitration
            .record(plan.game_id, expected_seq, batch, recorded_by)
            .await?;
        let last = appended
            .envelopes
            .last()
            .map_or(expected_seq, |envelope| envelope.seq);
        let stored = if appended.newly_stored {
            appended.envelopes.len()
        } else {
            0
        };
        Ok((last, stored))
    }
}

fn blank_report(plan: &GamePlan) -> GameImport {
    GameImport {
        index: plan.index,
        outcome: ImportOutcome::Failed,
        game_id: Some(plan.game_id),
        white: Some(plan.settings.white.name.clone()),
        black: Some(plan.settings.black.name.clone()),
        event: Some(plan.settings.event.clone()),
        moves_in_record: plan.moves + plan.unplayable_tail.len(),
        moves_stored: 0,
        moves_added: 0,
        events_stored: 0,
        status: None,
        result: None,
        termination: None,
        article: None,
        not_stored: None,
        notes: plan.notes.clone(),
        error: None,
    }
}

/// A sentence for a game that could not be stored (the details go to the log).
fn failure_text(error: &RecordError) -> String {
    match error {
        RecordError::Refused {
            index,
            seq,
            refusal,
        } => format!(
            "The engine refused event {index} of a batch (it would have been seq {seq}): {}",
            refusal.message()
        ),
        RecordError::Store(crate::store::StoreError::GameIdTaken(id)) => {
            format!("A game with id {id} already exists with other settings; it was not changed.")
        }
        RecordError::Store(crate::store::StoreError::StaleSeq { .. }) => {
            "Another writer recorded events in this game at the same time; import the file \
             again to continue."
                .to_string()
        }
        _ => "The service failed while storing this game; import the file again to continue \
              (what was stored is kept, nothing is stored twice)."
            .to_string(),
    }
}

//! Loading a round: a round's pairings turned into games, with the tournament's settings.
//!
//! Loading a round is idempotent: each game's id is derived from the tournament, the round and
//! the board (UUID v5, [`crate::tournament::game_id`]), so loading the same pairings again
//! finds the games it created and creates nothing twice; other players on a board already
//! created are refused before anything is created.
//!
//! A load is all or nothing (issue 35): everything that can refuse it (the pairings, the
//! settings, the boards already created, a TRF file's player lines) is read first, and the
//! games, the file's players and the round's byes are then stored in one transaction.

use crate::interchange::pairings::Pairing;
use crate::store::{GameFilter, Store, StoreError};
use crate::tournament::{
    GameOverrides, SettingsProblem, Tournament, check_round, game_id, game_settings,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// A game of a loaded round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RoundGame {
    /// The board.
    pub board: u32,
    /// The game's id.
    pub game_id: Uuid,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// False when the game already existed (the round was loaded before).
    pub created: bool,
}

/// Why a round cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The pairings or their settings are wrong; nothing was created.
    #[error("{0}")]
    Invalid(SettingsProblem),
    /// Games already created for the round disagree with these pairings; nothing was created.
    #[error("{0}")]
    Conflict(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Creates the games of `round` from `pairings` (the tournament's settings, with `overrides`
/// per board). Games that already exist with the same settings are kept; a board whose game
/// has other players or settings, or holds a game created another way, refuses the whole
/// load before anything is created.
pub async fn load_round(
    store: &Store,
    tournament: &Tournament,
    round: &str,
    pairings: &[Pairing],
    overrides: &std::collections::HashMap<u32, GameOverrides>,
    file: Option<&RoundFile>,
    recorded_by: &str,
) -> Result<Vec<RoundGame>, LoadError> {
    check_round(round).map_err(LoadError::Invalid)?;
    crate::interchange::pairings::check_boards(pairings).map_err(|e| {
        LoadError::Invalid(SettingsProblem {
            field: "pairings".into(),
            message: e.0,
        })
    })?;
    let existing = store
        .list_games(&GameFilter {
            event: Some(tournament.settings.name.clone()),
            round: Some(round.to_string()),
            status: None,
            after: None,
            limit: 5000,
        })
        .await?
        .items;
    let mut planned = Vec::with_capacity(pairings.len());
    let mut conflicts = Vec::new();
    for pairing in pairings {
        let settings = game_settings(
            &tournament.settings,
            round,
            pairing,
            overrides.get(&pairing.board),
        );
        if let Some(override_) = overrides.get(&pairing.board) {
            override_.validate().map_err(LoadError::Invalid)?;
        }
        crate::game::Game::new(&settings).map_err(|e| {
            LoadError::Invalid(SettingsProblem {
                field: format!("board {}: {}", pairing.board, e.field()),
                message: format!("Board {}: {e}", pairing.board),
            })
        })?;
        let id = game_id(tournament.tournament_id, round, pairing.board);
        if let Some(game) = existing.iter().find(|g| g.board == Some(pairing.board)) {
            if game.game_id != id {
                conflicts.push(format!(
                    "board {} already holds a game created another way ({} - {}, game {})",
                    pairing.board, game.white, game.black, game.game_id
                ));
            } else if game.settings != settings {
                conflicts.push(format!(
                    "board {} was loaded before with {} - {}",
                    pairing.board, game.white, game.black
                ));
            }
        }
        planned.push((pairing, id, settings));
    }
    if !conflicts.is_empty() {
        return Err(LoadError::Conflict(format!(
            "Round {round} of {} was not loaded, and nothing was created: {}. A game once \
             created stays in the log; record a forfeit or an arbiter's decision on it, or \
             load the changed boards under another round name.",
            tournament.settings.name,
            conflicts.join("; ")
        )));
    }
    let exists = |id: Uuid| existing.iter().any(|g| g.game_id == id);
    let to_create: Vec<(Uuid, crate::game::event::GameSettings)> = planned
        .iter()
        .filter(|(_, id, _)| !exists(*id))
        .map(|(_, id, settings)| (*id, settings.clone()))
        .collect();
    let roster = file.map(|file| crate::store::RoundRoster {
        tournament_id: tournament.tournament_id,
        round,
        players: &file.players,
        byes: &file.byes,
    });
    match store.create_round(&to_create, roster, recorded_by).await {
        Ok(()) => {}
        Err(StoreError::GameIdTaken(taken)) => {
            let board = planned
                .iter()
                .find(|(_, id, _)| *id == taken)
                .map(|(pairing, _, _)| pairing.board)
                .unwrap_or_default();
            return Err(LoadError::Conflict(format!(
                "Round {round} of {} was not loaded, and nothing was stored: the game of board \
                 {board} (id {taken}) was created while this load ran (another load of the \
                 same round?). Load the round again: the games already created are kept.",
                tournament.settings.name
            )));
        }
        Err(other) => return Err(other.into()),
    }
    let created = to_create.len() as u32;
    store
        .append_tournament_entry(
            tournament.tournament_id,
            &crate::tournament_log::TournamentEntry::PairingsLoaded {
                round: round.to_string(),
                source: if file.is_some() {
                    crate::tournament_log::PairingSource::Trf
                } else {
                    crate::tournament_log::PairingSource::Boards
                },
                created,
                kept: planned.len() as u32 - created,
            },
            recorded_by,
        )
        .await?;
    Ok(planned
        .into_iter()
        .map(|(pairing, id, settings)| RoundGame {
            board: pairing.board,
            game_id: id,
            white: settings.white.name.clone(),
            black: settings.black.name.clone(),
            created: !exists(id),
        })
        .collect())
}

/// What a round's TRF file says besides its boards: the players (their static columns) and
/// the byes of the round, read before anything is stored.
#[derive(Clone, Debug, Default)]
pub struct RoundFile {
    /// The file's players.
    pub players: Vec<crate::interchange::trf::TrfPlayer>,
    /// The round's byes: start rank and `H`, `F`, `U` or `Z`.
    pub byes: Vec<(u32, char)>,
}

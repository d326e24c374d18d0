//! Validation of the settings a game is created with.

use shakmaty::{CastlingMode, Chess};

use super::event::{GameSettings, Side};
use crate::rules::move_parsing::position_from_fen;

/// Why a game cannot be created with the given settings. [`SettingsError::field`] names
/// the offending field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// The start FEN cannot be read or is not a legal position.
    #[error(
        "start_fen: {0}; give a FEN like `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`, or leave it out for the standard start"
    )]
    StartFen(String),
    /// The base time is zero.
    #[error(
        "time_control.base_ms must be more than 0 (milliseconds each player starts with, e.g. 5400000 for 90 minutes)"
    )]
    BaseTime,
    /// The earliest agreement move is zero.
    #[error(
        "regulations.earliest_agreement_move must be 1 or more (a move number), or left out when agreement is unrestricted"
    )]
    EarliestAgreementMove,
    /// A player's name is empty.
    #[error("{}.name must not be empty: give the name as on the pairing list (`Surname, Given name`)", .0.name())]
    PlayerName(Side),
}

impl SettingsError {
    /// The path of the offending field, e.g. `start_fen` or `time_control.base_ms`.
    pub fn field(&self) -> &'static str {
        match self {
            SettingsError::StartFen(_) => "start_fen",
            SettingsError::BaseTime => "time_control.base_ms",
            SettingsError::EarliestAgreementMove => "regulations.earliest_agreement_move",
            SettingsError::PlayerName(Side::White) => "white.name",
            SettingsError::PlayerName(Side::Black) => "black.name",
        }
    }
}

/// Check `settings` and return the start position with its castling notation.
pub fn validate(settings: &GameSettings) -> Result<(Chess, CastlingMode), SettingsError> {
    if settings.white.name.trim().is_empty() {
        return Err(SettingsError::PlayerName(Side::White));
    }
    if settings.black.name.trim().is_empty() {
        return Err(SettingsError::PlayerName(Side::Black));
    }
    if settings.time_control.base_ms == 0 {
        return Err(SettingsError::BaseTime);
    }
    if settings.regulations.earliest_agreement_move == Some(0) {
        return Err(SettingsError::EarliestAgreementMove);
    }
    match &settings.start_fen {
        None => Ok((Chess::default(), CastlingMode::Standard)),
        Some(fen) => position_from_fen(fen).map_err(SettingsError::StartFen),
    }
}

//! Validation of the settings a game is created with: everything the Laws and the record
//! need from them, in one place (the HTTP layer only maps a [`SettingsError`] to a problem
//! naming its [`SettingsError::field`]).
//!
//! * The players, event, round and site are names on a scoresheet: present, at most 200
//!   characters, no control characters.
//! * The time control: a base time between 1 ms and 24 hours, an increment of at most an
//!   hour (Article 6; Appendix A.1 and B.1 classify rapid and blitz by these figures).
//! * The regulations: an earliest agreement move of 1 or more (9.1.1), an incorrect-claim
//!   penalty of at most an hour (9.5.3 lets the event set it).
//! * The start position: a legal position in FEN (Chess960 castling where the rights say so).

use shakmaty::{CastlingMode, Chess};

use super::event::{GameSettings, Regulations, TimeControl};
use crate::rules::move_parsing::position_from_fen;

/// The longest name accepted on a scoresheet field.
const NAME_CHARS: usize = 200;
/// The longest base time: 24 hours.
const MAX_BASE_MS: u64 = 86_400_000;
/// The longest increment, and the largest incorrect-claim penalty: one hour.
const MAX_EXTRA_MS: u64 = 3_600_000;

/// Why a game cannot be created with the given settings. [`SettingsError::field`] names
/// the offending field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// The start FEN cannot be read or is not a legal position.
    #[error(
        "start_fen: {0}; give a FEN like `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`, or leave it out for the standard start"
    )]
    StartFen(String),
    /// A name is empty.
    #[error("Field `{0}` is empty; give it a value.")]
    Empty(&'static str),
    /// A name is too long or holds control characters.
    #[error("Field `{0}` must be at most 200 characters with no control characters.")]
    BadText(&'static str),
    /// The base time is zero or longer than a day.
    #[error(
        "time_control.base_ms must be between 1 and 86400000 (24 hours) milliseconds: the time each player starts with, e.g. 5400000 for 90 minutes."
    )]
    BaseTime,
    /// The increment is longer than an hour.
    #[error("time_control.increment_ms must be at most 3600000 (one hour) milliseconds.")]
    Increment,
    /// The incorrect-claim penalty is longer than an hour.
    #[error("regulations.incorrect_claim_penalty_ms must be at most 3600000 (one hour).")]
    IncorrectClaimPenalty,
    /// The earliest agreement move is zero or beyond any game.
    #[error(
        "regulations.earliest_agreement_move must be a number of moves from 1 to 500, or left out when agreement is unrestricted"
    )]
    EarliestAgreementMove,
    /// The board number is zero or too large.
    #[error("board must be a board number from 1 to 9999, or left out")]
    Board,
}

impl SettingsError {
    /// The path of the offending field, e.g. `start_fen` or `time_control.base_ms`.
    pub fn field(&self) -> &'static str {
        match self {
            SettingsError::StartFen(_) => "start_fen",
            SettingsError::Empty(field) | SettingsError::BadText(field) => field,
            SettingsError::BaseTime => "time_control.base_ms",
            SettingsError::Increment => "time_control.increment_ms",
            SettingsError::IncorrectClaimPenalty => "regulations.incorrect_claim_penalty_ms",
            SettingsError::EarliestAgreementMove => "regulations.earliest_agreement_move",
            SettingsError::Board => "board",
        }
    }
}

/// Check a time control: a base time between 1 ms and 24 hours, an increment of at most an
/// hour. Errors name the field under `time_control.`.
pub fn validate_time_control(control: &TimeControl) -> Result<(), SettingsError> {
    if control.base_ms == 0 || control.base_ms > MAX_BASE_MS {
        return Err(SettingsError::BaseTime);
    }
    if control.increment_ms > MAX_EXTRA_MS {
        return Err(SettingsError::Increment);
    }
    Ok(())
}

/// Check an event's regulations: an earliest agreement move from 1 to 500 moves (9.1.1), an
/// incorrect-claim penalty of at most an hour (9.5.3). Errors name the field under
/// `regulations.`.
pub fn validate_regulations(regulations: &Regulations) -> Result<(), SettingsError> {
    if regulations
        .incorrect_claim_penalty_ms
        .is_some_and(|ms| ms > MAX_EXTRA_MS)
    {
        return Err(SettingsError::IncorrectClaimPenalty);
    }
    if regulations
        .earliest_agreement_move
        .is_some_and(|moves| !(1..=500).contains(&moves))
    {
        return Err(SettingsError::EarliestAgreementMove);
    }
    Ok(())
}

/// Check `settings` and return the start position with its castling notation.
pub fn validate(settings: &GameSettings) -> Result<(Chess, CastlingMode), SettingsError> {
    let names = [
        ("white.name", Some(settings.white.name.as_str())),
        ("black.name", Some(settings.black.name.as_str())),
        ("event", Some(settings.event.as_str())),
        ("round", Some(settings.round.as_str())),
        ("site", settings.site.as_deref()),
    ];
    for (field, text) in names {
        let Some(text) = text else { continue };
        if text.trim().is_empty() {
            return Err(SettingsError::Empty(field));
        }
        if text.chars().count() > NAME_CHARS || text.chars().any(char::is_control) {
            return Err(SettingsError::BadText(field));
        }
    }
    validate_time_control(&settings.time_control)?;
    validate_regulations(&settings.regulations)?;
    if settings
        .board
        .is_some_and(|board| !(1..=9999).contains(&board))
    {
        return Err(SettingsError::Board);
    }
    match &settings.start_fen {
        None => Ok((Chess::default(), CastlingMode::Standard)),
        Some(fen) => position_from_fen(fen).map_err(SettingsError::StartFen),
    }
}

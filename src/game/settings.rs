//! Validation of the settings a game is created with: everything the Laws and the record
//! need from them, in one place (the HTTP layer only maps a [`SettingsError`] to a problem
//! naming its [`SettingsError::field`]).
//!
//! * The players, event, round and site are names on a scoresheet: present, at most 200
//!   characters, no control characters.
//! * The time control: in the one-period form a base time between 1 ms and 24 hours and an
//!   increment of at most an hour; with periods, what a clock can run (6.3.1, the model's
//!   `check_periods`). A new game's stated kind must also fit the control (Appendices A.1
//!   and B.1: [`validate_new`]); a stored game is read as it was recorded.
//! * The regulations: an earliest agreement move of 1 or more (9.1.1), an incorrect-claim
//!   penalty of at most an hour (9.5.3 lets the event set it).
//! * The start position: a legal position in FEN (Chess960 castling where the rights say so).

use shakmaty::{CastlingMode, Chess, Position};

use super::event::{GameSettings, Regulations, StartMoves, TimeControl};
use crate::rules::move_parsing::position_from_fen;
use crate::rules::time_control::{TimeControlError, check_periods};

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
    /// A control with periods that no clock can run, or a stated kind the control
    /// contradicts (6.3.1; A.1, B.1).
    #[error("{0}")]
    TimeControl(TimeControlError),
    /// The incorrect-claim penalty is longer than an hour.
    #[error("regulations.incorrect_claim_penalty_ms must be at most 3600000 (one hour).")]
    IncorrectClaimPenalty,
    /// The earliest agreement move is zero or beyond any game.
    #[error(
        "regulations.earliest_agreement_move must be a number of moves from 1 to 500, or left out when agreement is unrestricted"
    )]
    EarliestAgreementMove,
    /// The fair-play report's deadline is beyond a year.
    #[error(
        "regulations.fair_play_report_days must be a number of days from 0 to 365 after the event's last day, or left out when no deadline is set"
    )]
    FairPlayReportDays,
    /// The time of a lesser penalty of 12.9.2 or 12.9.3 is zero or beyond an hour.
    #[error(
        "regulations.electronic_devices.lesser_penalty_ms must be from 1 to 3600000 milliseconds (an hour): the time a lesser penalty of 12.9.2 gives or of 12.9.3 takes, or left out for the arbiter to set"
    )]
    LesserPenaltyTime,
    /// An opponent's score set for a lesser penalty other than 12.9.6.
    #[error(
        "regulations.electronic_devices.lesser_penalty_opponent_score goes with a lesser penalty of 12.9.6 only (lesser_penalty game_lost: the game declared lost by the offending player, the opponent scoring win, draw or loss); leave it out with any other penalty"
    )]
    LesserPenaltyOpponentScore,
    /// The moves completed at the start do not fit the start position.
    #[error(
        "start_moves_completed: {0}; give {{\"white\": n, \"black\": n}} with White to move, {{\"white\": n + 1, \"black\": n}} with Black to move, with a start_fen, or leave it out to count from the FEN's move number"
    )]
    StartMoves(String),
    /// A clock reading at the start is beyond a day.
    #[error(
        "start_clocks: each time must be at most 86400000 milliseconds (24 hours): the time the player has left when the game starts from the position"
    )]
    StartClocks,
    /// The board number is zero or too large.
    #[error("board must be a board number from 1 to 9999, or left out")]
    Board,
    /// The date is not a PGN date.
    #[error(
        "date must be the day the game was played as PGN writes it, `YYYY.MM.DD` with `??` for a part not known (`2026.03.01`, `2026.03.??`), or left out"
    )]
    Date,
    /// A field of the appeals procedure is out of its range (its path, and what it takes).
    #[error("{0} {1}")]
    Appeals(&'static str, &'static str),
}

impl SettingsError {
    /// The path of the offending field, e.g. `start_fen` or `time_control.base_ms`.
    pub fn field(&self) -> &'static str {
        match self {
            SettingsError::StartFen(_) => "start_fen",
            SettingsError::StartMoves(_) => "start_moves_completed",
            SettingsError::StartClocks => "start_clocks",
            SettingsError::Empty(field) | SettingsError::BadText(field) => field,
            SettingsError::BaseTime => "time_control.base_ms",
            SettingsError::Increment => "time_control.increment_ms",
            SettingsError::TimeControl(error) => time_control_field(error),
            SettingsError::IncorrectClaimPenalty => "regulations.incorrect_claim_penalty_ms",
            SettingsError::EarliestAgreementMove => "regulations.earliest_agreement_move",
            SettingsError::FairPlayReportDays => "regulations.fair_play_report_days",
            SettingsError::LesserPenaltyTime => "regulations.electronic_devices.lesser_penalty_ms",
            SettingsError::LesserPenaltyOpponentScore => {
                "regulations.electronic_devices.lesser_penalty_opponent_score"
            }
            SettingsError::Board => "board",
            SettingsError::Date => "date",
            SettingsError::Appeals(field, _) => field,
        }
    }
}

/// Whether `text` is a date as PGN writes it (PGN standard 8.1.1.3): `YYYY.MM.DD`, each part
/// digits or question marks for a part not known, a month from 01 to 12 and a day from 01
/// to 31 where they are known.
pub fn is_pgn_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    let [year, month, day] = parts.as_slice() else {
        return false;
    };
    let part = |text: &str, width: usize, range: std::ops::RangeInclusive<u32>| {
        text.len() == width
            && (text.bytes().all(|b| b == b'?')
                || (text.bytes().all(|b| b.is_ascii_digit())
                    && text.parse::<u32>().is_ok_and(|n| range.contains(&n))))
    };
    part(year, 4, 0..=9999) && part(month, 2, 1..=12) && part(day, 2, 1..=31)
}

/// The field of the time control a [`TimeControlError`] is about. Periods are numbered from 1
/// in the messages and indexed from 0 in the field path (`time_control.periods[0].moves`).
fn time_control_field(error: &TimeControlError) -> &'static str {
    use TimeControlError as E;
    const PERIOD: [&str; 8] = [
        "time_control.periods[0]",
        "time_control.periods[1]",
        "time_control.periods[2]",
        "time_control.periods[3]",
        "time_control.periods[4]",
        "time_control.periods[5]",
        "time_control.periods[6]",
        "time_control.periods[7]",
    ];
    let period = |number: usize| {
        PERIOD
            .get(number.saturating_sub(1))
            .copied()
            .unwrap_or("time_control.periods")
    };
    match error {
        E::NoForm | E::MixedForms(_) => "time_control",
        E::IncrementWithoutBase => "time_control.base_ms",
        E::NoPeriods | E::TooManyPeriods(_) => "time_control.periods",
        E::KindContradicts { .. } => "time_control.kind",
        E::NoTime { period: p }
        | E::PeriodTooLong { period: p, .. }
        | E::ZeroMoves { period: p }
        | E::TooManyMoves { period: p, .. }
        | E::PeriodAfterRestOfGame { period: p, .. }
        | E::LastPeriodHasMoves { period: p, .. }
        | E::ZeroBonus { period: p }
        | E::BonusTooLarge { period: p, .. }
        | E::BonusStartOutsidePeriod { period: p, .. }
        | E::BonusStartBeyondGame { period: p, .. } => period(*p),
    }
}

/// Check that a clock can run a time control: in the one-period form a base time between
/// 1 ms and 24 hours and an increment of at most an hour, as always; otherwise the checks of
/// the model (6.3.1: the moves and times of every period "specified in advance"). The stated
/// kind is not judged here: a stored game reads as it was recorded. Errors name the field
/// under `time_control.`.
pub fn check_time_control(control: &TimeControl) -> Result<(), SettingsError> {
    if let Some((_, base_ms, increment_ms)) = control.as_legacy() {
        if base_ms == 0 || base_ms > MAX_BASE_MS {
            return Err(SettingsError::BaseTime);
        }
        if increment_ms > MAX_EXTRA_MS {
            return Err(SettingsError::Increment);
        }
    }
    check_periods(&control.periods).map_err(SettingsError::TimeControl)
}

/// Check the time control of a new game: what [`check_time_control`] checks, and that the
/// stated kind fits the control by Appendices A.1 and B.1 (a 3-minute game entered as
/// "standard" is refused: it is blitz, and would get standard-play penalties). Errors name
/// the field under `time_control.`.
pub fn validate_time_control(control: &TimeControl) -> Result<(), SettingsError> {
    check_time_control(control)?;
    control.validate().map_err(SettingsError::TimeControl)
}

/// Check an event's regulations: an earliest agreement move from 1 to 500 moves (9.1.1), an
/// incorrect-claim penalty of at most an hour (9.5.3), a fair-play report due at most a year
/// after the event. Errors name the field under `regulations.`.
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
    if regulations
        .fair_play_report_days
        .is_some_and(|days| days > 365)
    {
        return Err(SettingsError::FairPlayReportDays);
    }
    if regulations
        .electronic_devices
        .lesser_penalty_ms
        .is_some_and(|ms| ms == 0 || ms > MAX_EXTRA_MS)
    {
        return Err(SettingsError::LesserPenaltyTime);
    }
    let devices = &regulations.electronic_devices;
    if devices.lesser_penalty_opponent_score.is_some()
        && devices.lesser_penalty != Some(crate::rules::electronic_devices::PenaltyOption::GameLost)
    {
        return Err(SettingsError::LesserPenaltyOpponentScore);
    }
    validate_appeals(&regulations.appeals)
}

/// The appeals procedure's fields within the ranges the OpenAPI document declares.
fn validate_appeals(
    appeals: &crate::rules::appeals::AppealRegulations,
) -> Result<(), SettingsError> {
    let longer = |text: &Option<String>, most: usize| {
        text.as_ref().is_some_and(|t| t.chars().count() > most)
    };
    if longer(&appeals.regulation, 200) {
        return Err(SettingsError::Appeals(
            "regulations.appeals.regulation",
            "must be at most 200 characters: the regulation as decisions cite it, e.g. `FIDE Handbook C.11`",
        ));
    }
    if appeals
        .deadline_minutes
        .is_some_and(|minutes| !(1..=10080).contains(&minutes))
    {
        return Err(SettingsError::Appeals(
            "regulations.appeals.deadline_minutes",
            "must be from 1 to 10080 minutes (a week), or left out for no deadline",
        ));
    }
    if longer(&appeals.deposit, 200) {
        return Err(SettingsError::Appeals(
            "regulations.appeals.deposit",
            "must be at most 200 characters: the amount and currency, e.g. `100 EUR`",
        ));
    }
    if longer(&appeals.chief_arbiter_federation, 3) {
        return Err(SettingsError::Appeals(
            "regulations.appeals.chief_arbiter_federation",
            "must be a FIDE federation code of at most 3 letters, e.g. `GER`",
        ));
    }
    if appeals
        .committee
        .iter()
        .any(|member| member.name.chars().count() > 200 || member.federation.chars().count() > 3)
    {
        return Err(SettingsError::Appeals(
            "regulations.appeals.committee",
            "each member needs a name of at most 200 characters and a FIDE federation code of at most 3 letters",
        ));
    }
    Ok(())
}

/// Check the settings of a new game: [`validate`], and that the stated kind of the time
/// control fits it ([`validate_time_control`]).
pub fn validate_new(settings: &GameSettings) -> Result<(Chess, CastlingMode), SettingsError> {
    let start = validate(settings)?;
    validate_time_control(&settings.time_control)?;
    Ok(start)
}

/// Check `settings` and return the start position with its castling notation. This is what
/// every game, new or stored, must satisfy; a new game is checked with [`validate_new`].
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
    check_time_control(&settings.time_control)?;
    validate_regulations(&settings.regulations)?;
    if settings
        .board
        .is_some_and(|board| !(1..=9999).contains(&board))
    {
        return Err(SettingsError::Board);
    }
    if settings
        .date
        .as_deref()
        .is_some_and(|date| !is_pgn_date(date))
    {
        return Err(SettingsError::Date);
    }
    if let Some(clocks) = &settings.start_clocks
        && [clocks.white_ms, clocks.black_ms]
            .into_iter()
            .flatten()
            .any(|ms| ms > MAX_BASE_MS)
    {
        return Err(SettingsError::StartClocks);
    }
    let (start, mode) = match &settings.start_fen {
        None => (Chess::default(), CastlingMode::Standard),
        Some(fen) => position_from_fen(fen).map_err(SettingsError::StartFen)?,
    };
    match settings.start_moves_completed {
        None => Ok((start, mode)),
        Some(_) if settings.start_fen.is_none() => Err(SettingsError::StartMoves(
            "the standard start has no moves before it".to_string(),
        )),
        Some(count) => Ok((with_move_count(start, mode, count)?, mode)),
    }
}

/// The start position numbered as the arbiter counts it: the fullmove number follows the
/// moves completed, so that 9.1.1, the scoresheet and the PGN export count as the periods do.
fn with_move_count(
    start: Chess,
    mode: CastlingMode,
    count: StartMoves,
) -> Result<Chess, SettingsError> {
    let white_to_move = start.turn() == shakmaty::Color::White;
    let fits = if white_to_move {
        count.white == count.black
    } else {
        count.white == count.black.saturating_add(1)
    };
    if !fits {
        return Err(SettingsError::StartMoves(format!(
            "{} and {} completed moves do not fit a position with {} to move",
            count.white,
            count.black,
            if white_to_move { "White" } else { "Black" }
        )));
    }
    if count.white > 1_000 {
        return Err(SettingsError::StartMoves(format!(
            "{} moves is beyond any game",
            count.white
        )));
    }
    let mut setup = start.to_setup(shakmaty::EnPassantMode::Legal);
    setup.fullmoves = std::num::NonZeroU32::MIN.saturating_add(count.black);
    setup
        .position(mode)
        .map_err(|e| SettingsError::StartMoves(format!("the position cannot be renumbered: {e}")))
}

/// The moves each player had completed at the start: as the settings say, or from the
/// start position's fullmove number (at move N with White to move, N - 1 each; with Black
/// to move, White N and Black N - 1).
pub fn start_moves(settings: &GameSettings, start: &Chess) -> StartMoves {
    settings.start_moves_completed.unwrap_or_else(|| {
        let before = start.fullmoves().get().saturating_sub(1);
        if start.turn() == shakmaty::Color::White {
            StartMoves {
                white: before,
                black: before,
            }
        } else {
            StartMoves {
                white: before.saturating_add(1),
                black: before,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::is_pgn_date;

    #[test]
    fn a_pgn_date_has_four_two_and_two_digits_or_question_marks() {
        for good in [
            "2026.03.01",
            "2026.03.??",
            "2026.??.??",
            "????.??.??",
            "1851.12.31",
        ] {
            assert!(is_pgn_date(good), "{good}");
        }
        for bad in [
            "2026-03-01",
            "2026.3.1",
            "2026.13.01",
            "2026.00.10",
            "2026.01.32",
            "26.01.01",
            "2026.01.0?",
            "2026.01.01.",
            "",
        ] {
            assert!(!is_pgn_date(bad), "{bad}");
        }
    }
}

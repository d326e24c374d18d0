//! Players' statuses (issue 35, item 6): a withdrawal, an expulsion, a requested bye for a
//! coming round, a late entry, each recorded in the tournament's log with who, when and why
//! ([`crate::tournament_log::PlayerStatus`]), and what they give the report (TRF) and the
//! standings: the codes of the rounds the player does not play.
//!
//! * A **withdrawal** or an **expulsion** from round R: every round from R on in which the
//!   player has no game is `Z` (TRF26's "zero-point-bye (known absence)"; TRF's blank is
//!   "equivalent to `Z`", the code is written so the reader sees the absence was known).
//! * A **requested bye** in round R: `H` (half-point bye) or `Z` (zero-point bye), once round
//!   R is in the report (a round is in the report once a game or a bye of it is); a game the
//!   player has in that round wins over it.
//! * A **late entry** from round R: the player is added with the start rank recorded (the
//!   next free one, unless another was asked for and is free), and the rounds before R in
//!   which the player has no game are `Z`.
//!
//! Rounds the player plays are never overwritten: the log of the games is the truth of what
//! was played. `U` (pairing-allocated bye) and `F` (full-point bye) are the pairing program's
//! to give: they come with a loaded TRF file, not from a status.

use super::arbitration::Arbitration;
use super::status_codes::same_player;
pub use super::status_codes::statuses;
use super::trf::TrfError;
use crate::store::StoreError;
use crate::tournament::Tournament;
use crate::tournament_log::{LoggedEntry, PlayerStatus, StatusProblem, TournamentEntry};

/// Why a status is refused.
#[derive(Debug, thiserror::Error)]
pub enum StatusError {
    /// The status is wrong (the field is named); nothing was recorded.
    #[error("{0}")]
    Invalid(StatusProblem),
    /// The report cannot be made, or the store failed.
    #[error(transparent)]
    Report(#[from] TrfError),
}

impl From<StoreError> for StatusError {
    fn from(error: StoreError) -> Self {
        StatusError::Report(error.into())
    }
}

fn invalid(field: &str, message: String) -> StatusError {
    StatusError::Invalid(StatusProblem {
        field: field.into(),
        message,
    })
}

/// Records `status` in the tournament's log, after checking it against the report as it
/// stands: the player exists (a late entrant does not yet), and a requested bye's round is
/// one the player has no game in. A late entrant is given its start rank here.
pub async fn record(
    arbitration: &Arbitration,
    tournament: &Tournament,
    status: PlayerStatus,
    recorded_by: &str,
) -> Result<LoggedEntry, StatusError> {
    status.validate().map_err(StatusError::Invalid)?;
    let report = super::trf::report(arbitration, tournament, &[]).await?;
    let players = &report.players;
    let status = match status {
        PlayerStatus::LateEntry {
            name,
            fide_id,
            rating,
            federation,
            start_number,
            from_round,
            reason,
        } => {
            if let Some(player) = players.iter().find(|p| same_player(p, &name, fide_id)) {
                return Err(invalid(
                    "name",
                    format!(
                        "{} is already in the tournament (start rank {}): a late entry is for \
                         a player who is not.",
                        player.name, player.start_number
                    ),
                ));
            }
            let taken = |n: u32| players.iter().any(|p| p.start_number == n);
            if let Some(asked) = start_number.filter(|n| taken(*n)) {
                return Err(invalid(
                    "start_number",
                    format!("Start rank {asked} is taken; leave it out to give the next free one."),
                ));
            }
            let next = players.iter().map(|p| p.start_number).max().unwrap_or(0) + 1;
            PlayerStatus::LateEntry {
                name: name.trim().to_string(),
                fide_id,
                rating,
                federation,
                start_number: Some(start_number.unwrap_or(next)),
                from_round,
                reason,
            }
        }
        other => {
            let number = other.start_number().unwrap_or_default();
            let Some(player) = players.iter().find(|p| p.start_number == number) else {
                return Err(invalid(
                    "start_number",
                    format!(
                        "No player has start rank {number} in the tournament's report: give \
                         the start rank the report and the standings show."
                    ),
                ));
            };
            if let PlayerStatus::ByeRequest { round, .. } = &other
                && let Some(entry) = player.rounds.get(*round as usize - 1)
                && entry.opponent.is_some()
            {
                return Err(invalid(
                    "round",
                    format!(
                        "{} already has a game in round {round}: a bye is asked for a coming \
                         round. Record the game's result (a forfeit, or an arbiter's \
                         decision) instead.",
                        player.name
                    ),
                ));
            }
            other
        }
    };
    Ok(arbitration
        .store()
        .append_tournament_entry(
            tournament.tournament_id,
            &TournamentEntry::PlayerStatus { status },
            recorded_by,
        )
        .await?)
}

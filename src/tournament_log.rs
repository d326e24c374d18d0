//! The tournament's own log (issue 35): what happens to a tournament outside its games, one
//! decoded type per entry, stored append-only with who recorded it and when
//! (`migrations/0024_tournament_log.sql`, [`crate::store::Store::tournament_log`]).
//!
//! * What the service records itself: a report exported ([`TournamentEntry::ReportExported`]),
//!   a round's pairings loaded ([`TournamentEntry::PairingsLoaded`]), the settings changed
//!   ([`TournamentEntry::SettingsChanged`]). The TRF26 export's `###` lines are written from
//!   them (results changed after their round was exported, pairings loaded again, settings
//!   changed after the first round: [`crate::app::trail`]).
//! * What an arbiter records: a player's status ([`PlayerStatus`]): a withdrawal, an
//!   expulsion, a requested bye for a coming round (half or zero point), a late entry. They
//!   give the codes of the rounds the player does not play in the report (TRF) and the
//!   standings ([`crate::app::player_status`]).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The points a requested bye gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ByePoints {
    /// A half-point bye (TRF `H`).
    Half,
    /// A zero-point bye (TRF `Z`: a known absence).
    Zero,
}

/// A player's status, as an arbiter records it. Players are named by their start rank in the
/// tournament report (`GET /v1/tournaments/{id}/trf`, columns 5-8; the standings'
/// `start_number`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"type": "withdrawal", "start_number": 4, "from_round": 3,
    "reason": "Left the tournament for family reasons; told the chief arbiter at 18:10."}))]
pub enum PlayerStatus {
    /// The player withdrew: not paired from `from_round` on; those rounds are zero-point
    /// byes (`Z`, a known absence) in the report.
    Withdrawal {
        /// The player's start rank.
        start_number: u32,
        /// The first round the player does not play.
        from_round: u32,
        /// Why, as the player or the arbiter gave it.
        reason: String,
    },
    /// The player was expelled (Laws 12.9.7): not paired from `from_round` on; those rounds
    /// are `Z` in the report, as a withdrawal's.
    Expulsion {
        /// The player's start rank.
        start_number: u32,
        /// The first round the player does not play.
        from_round: u32,
        /// The decision's reasons and the article.
        reason: String,
    },
    /// The player asked not to be paired in `round` (a coming round) and receives a half-point
    /// (`H`) or zero-point (`Z`) bye, as the regulations allow.
    ByeRequest {
        /// The player's start rank.
        start_number: u32,
        /// The round.
        round: u32,
        /// Half a point or none.
        points: ByePoints,
        /// Why, as the player gave it.
        reason: String,
    },
    /// A player entered after the start: given the next start rank (or the one asked for,
    /// when free); the rounds before `from_round` are zero-point byes (`Z`).
    LateEntry {
        /// The player's name, `Lastname, Firstname`.
        name: String,
        /// The FIDE id, when the player has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fide_id: Option<u64>,
        /// The FIDE rating, when the player has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rating: Option<u32>,
        /// The federation (three letters).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        federation: Option<String>,
        /// The start rank to give, when free (the service fills in the one given).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        start_number: Option<u32>,
        /// The first round the player plays.
        from_round: u32,
        /// Why the entry was accepted late.
        reason: String,
    },
}

/// What is wrong with a status, naming the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct StatusProblem {
    /// The field.
    pub field: String,
    /// What to change.
    pub message: String,
}

fn problem(field: &str, message: impl Into<String>) -> StatusProblem {
    StatusProblem {
        field: field.into(),
        message: message.into(),
    }
}

impl PlayerStatus {
    /// The start rank of the player it concerns (a late entry's once given).
    pub fn start_number(&self) -> Option<u32> {
        match self {
            PlayerStatus::Withdrawal { start_number, .. }
            | PlayerStatus::Expulsion { start_number, .. }
            | PlayerStatus::ByeRequest { start_number, .. } => Some(*start_number),
            PlayerStatus::LateEntry { start_number, .. } => *start_number,
        }
    }

    /// The reason recorded.
    pub fn reason(&self) -> &str {
        match self {
            PlayerStatus::Withdrawal { reason, .. }
            | PlayerStatus::Expulsion { reason, .. }
            | PlayerStatus::ByeRequest { reason, .. }
            | PlayerStatus::LateEntry { reason, .. } => reason,
        }
    }

    /// The status in words, naming the player `name (start rank)` when the name is known,
    /// else `Start rank N` (a late entrant by the name recorded): `... withdrew from round 3
    /// on`.
    pub fn describe(&self, name: Option<&str>) -> String {
        let who = |start_number: Option<u32>| {
            let number = start_number.map_or_else(|| "no start rank".into(), |n| n.to_string());
            match name {
                Some(name) => format!("{name} ({number})"),
                None => format!("Start rank {number}"),
            }
        };
        match self {
            PlayerStatus::Withdrawal {
                start_number,
                from_round,
                ..
            } => format!(
                "{} withdrew from round {from_round} on",
                who(Some(*start_number))
            ),
            PlayerStatus::Expulsion {
                start_number,
                from_round,
                ..
            } => format!(
                "{} was expelled from round {from_round} on",
                who(Some(*start_number))
            ),
            PlayerStatus::ByeRequest {
                start_number,
                round,
                points,
                ..
            } => format!(
                "{} is given a {} bye in round {round} at their request",
                who(Some(*start_number)),
                match points {
                    ByePoints::Half => "half-point",
                    ByePoints::Zero => "zero-point",
                }
            ),
            PlayerStatus::LateEntry {
                name: entrant,
                start_number,
                from_round,
                ..
            } => format!(
                "{entrant} ({}) entered late, from round {from_round}",
                start_number.map_or_else(|| "no start rank".into(), |n| n.to_string())
            ),
        }
    }

    /// Checks what can be checked without the tournament: rounds from 1 to 1000, a reason of
    /// 1 to 500 characters, a late entrant's name (1 to 33 characters, the TRF's column width)
    /// and federation (3 letters), a start rank from 1 to 9999.
    pub fn validate(&self) -> Result<(), StatusProblem> {
        let round = |field: &str, round: u32| {
            if (1..=1000).contains(&round) {
                Ok(())
            } else {
                Err(problem(
                    field,
                    format!("Round {round} is not a round: rounds are numbered from 1 to 1000."),
                ))
            }
        };
        let start = |start: u32| {
            if (1..=9999).contains(&start) {
                Ok(())
            } else {
                Err(problem(
                    "start_number",
                    "A start rank is a number from 1 to 9999 (the report's columns 5-8).",
                ))
            }
        };
        let reason = self.reason().trim();
        if reason.is_empty() || reason.chars().count() > 500 {
            return Err(problem(
                "reason",
                "Say why in 1 to 500 characters: the reason is written into the report's trail.",
            ));
        }
        match self {
            PlayerStatus::Withdrawal {
                start_number,
                from_round,
                ..
            }
            | PlayerStatus::Expulsion {
                start_number,
                from_round,
                ..
            } => {
                start(*start_number)?;
                round("from_round", *from_round)
            }
            PlayerStatus::ByeRequest {
                start_number,
                round: bye_round,
                ..
            } => {
                start(*start_number)?;
                round("round", *bye_round)
            }
            PlayerStatus::LateEntry {
                name,
                federation,
                start_number,
                from_round,
                ..
            } => {
                let length = name.trim().chars().count();
                if length == 0 || length > 33 || name.chars().any(char::is_control) {
                    return Err(problem(
                        "name",
                        "Give the player's name, `Lastname, Firstname`, in 1 to 33 characters \
                         (the report's columns 15-47).",
                    ));
                }
                if let Some(federation) = federation
                    && !(federation.len() == 3
                        && federation.chars().all(|c| c.is_ascii_uppercase()))
                {
                    return Err(problem(
                        "federation",
                        format!(
                            "`{federation}` is not a federation: give its three capital \
                             letters, such as `IRL`."
                        ),
                    ));
                }
                if let Some(number) = start_number {
                    start(*number)?;
                }
                round("from_round", *from_round)
            }
        }
    }
}

/// The settings that differ between `before` and `after`, by their names in the API
/// (`site`, `time_control`, `regulations`, ...), in the order the settings list them.
pub fn changed_fields(
    before: &crate::tournament::TournamentSettings,
    after: &crate::tournament::TournamentSettings,
) -> Vec<String> {
    let (serde_json::Value::Object(before), serde_json::Value::Object(after)) =
        (serde_json::json!(before), serde_json::json!(after))
    else {
        return Vec::new();
    };
    let mut names: Vec<&String> = before.keys().chain(after.keys()).collect();
    names.dedup();
    let mut changed: Vec<String> = Vec::new();
    for name in names {
        if before.get(name) != after.get(name) && !changed.contains(name) {
            changed.push(name.clone());
        }
    }
    changed
}

/// Where a round's pairings came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PairingSource {
    /// A TRF file (its players and the round's byes were kept too).
    Trf,
    /// A list of boards or a CSV file.
    Boards,
}

/// An entry of the tournament's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TournamentEntry {
    /// A tournament report (TRF) was exported.
    ReportExported {
        /// 16 or 26.
        version: u8,
        /// Asked for as the final report.
        final_report: bool,
        /// The rounds the report carried complete (every board with a result): a result of
        /// one of them entered or changed later is written into the next report's trail.
        complete_rounds: Vec<u32>,
    },
    /// A round's pairings were loaded (again, when an earlier entry loaded the same round).
    PairingsLoaded {
        /// The round.
        round: String,
        /// Where the pairings came from.
        source: PairingSource,
        /// Games created by this load.
        created: u32,
        /// Games the load found already created (a load again).
        kept: u32,
    },
    /// The tournament's settings were changed.
    SettingsChanged {
        /// The settings that changed (`time_control`, `regulations`, ...).
        fields: Vec<String>,
    },
    /// A player's status.
    PlayerStatus {
        /// The status.
        status: PlayerStatus,
    },
}

/// A stored entry of the tournament's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LoggedEntry {
    /// The entry's number (increasing across all tournaments).
    pub entry_id: u64,
    /// Who recorded it.
    pub recorded_by: String,
    /// When.
    pub recorded_at: DateTime<Utc>,
    /// The entry.
    pub entry: TournamentEntry,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_status_reads_as_its_own_type_and_refuses_a_field_it_does_not_have() {
        let bye: PlayerStatus = serde_json::from_value(serde_json::json!({
            "type": "bye_request", "start_number": 7, "round": 5, "points": "half",
            "reason": "exam"
        }))
        .expect("a bye request");
        assert_eq!(
            bye,
            PlayerStatus::ByeRequest {
                start_number: 7,
                round: 5,
                points: ByePoints::Half,
                reason: "exam".into()
            }
        );
        assert!(
            serde_json::from_value::<PlayerStatus>(serde_json::json!({
                "type": "withdrawal", "start_number": 7, "from_round": 5, "reason": "x",
                "points": "half"
            }))
            .is_err()
        );
    }

    #[test]
    fn a_status_without_a_reason_or_with_round_zero_is_refused_naming_the_field() {
        let withdrawal = |from_round, reason: &str| PlayerStatus::Withdrawal {
            start_number: 3,
            from_round,
            reason: reason.into(),
        };
        assert_eq!(
            withdrawal(2, " ").validate().expect_err("no reason").field,
            "reason"
        );
        assert_eq!(
            withdrawal(0, "ill").validate().expect_err("round 0").field,
            "from_round"
        );
        assert!(withdrawal(2, "ill").validate().is_ok());
        let late = PlayerStatus::LateEntry {
            name: "Doe, Jane".into(),
            fide_id: None,
            rating: None,
            federation: Some("irl".into()),
            start_number: None,
            from_round: 2,
            reason: "arrived on day 2".into(),
        };
        assert_eq!(late.validate().expect_err("federation").field, "federation");
    }
}

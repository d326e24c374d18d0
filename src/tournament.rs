//! Tournaments: the settings every game of an event takes (pure types; loading a round's
//! pairings as games is the application service [`crate::app::rounds`]).
//!
//! A tournament is not part of the event log. Its settings (time control, edition of the
//! Laws, regulations) reach a game only through the game's `game_created` event, so changing a
//! tournament later changes no existing game, and every ruling stays reproducible from the
//! log alone. Games are found by the tournament's name (the `event` of their settings), so
//! games created through `POST /v1/games` with that event name belong to it too, and events
//! without a tournament record keep working everywhere.

use crate::game::event::{
    ClockBehaviour, ClockReading, GameSettings, LawsEdition, Player, Regulations, StartMoves,
    TimeControl, TimeControlSpec,
};
use crate::interchange::pairings::Pairing;
use crate::rules::tie_breaks::{TieBreak, UnplayedRounds};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// What a tournament is set up with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "name": "City Open 2026", "site": "Town Hall, Ghent",
    "starts_on": "2026-11-20", "ends_on": "2026-11-24",
    "time_control": {"preset": "fide_standard"},
    "clock_behaviour": {"period_time_added": "at_zero_both_clocks", "increment_credit": "before_move"},
    "laws_edition": "2023",
    "regulations": {"draw_offers": "allowed", "earliest_agreement_move": 30},
    "arbiters": ["IA Anna Sokolova (chief)", "FA Ben Okafor"]
}))]
pub struct TournamentSettings {
    /// The event's name, carried by every game (PGN `Event`). It cannot change later.
    pub name: String,
    /// The venue (PGN `Site`).
    #[serde(default)]
    pub site: Option<String>,
    /// The first day.
    #[serde(default)]
    pub starts_on: Option<NaiveDate>,
    /// The last day.
    #[serde(default)]
    pub ends_on: Option<NaiveDate>,
    /// The time control of the games: the one-period form, `periods`, or a `preset`.
    #[schema(value_type = TimeControlSpec)]
    pub time_control: TimeControl,
    /// How the games' clocks add the next period's time and credit increments (6.3.2): the
    /// default is a clock that counts presses and adds the time at the press that completes
    /// the period's moves; a DGT 3000 in its multi-period modes adds it when a display
    /// reaches 0:00. Left out when it is the default.
    #[serde(default, skip_serializing_if = "is_default")]
    pub clock_behaviour: ClockBehaviour,
    /// The edition of the Laws that governs the games (default 2023).
    #[serde(default)]
    pub laws_edition: LawsEdition,
    /// The regulations: draw offers allowed, forbidden or with the arbiter's consent, the
    /// earliest move of agreement, whether Guidelines III (quickplay finish) are in force,
    /// the incorrect-claim penalty.
    #[serde(default)]
    pub regulations: Regulations,
    /// The arbiters assigned, chief arbiter first (as printed on the incident report).
    #[serde(default)]
    pub arbiters: Vec<String>,
    /// The venue's time zone (an IANA name such as `Europe/Brussels`): printed sheets show
    /// the times of the log in it, with its abbreviation. Without one they show UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, example = "Europe/Brussels")]
    pub time_zone: Option<TimeZone>,
    /// The tie-breaks that rank players on equal points, in order, as FIDE Handbook C.07
    /// abbreviates them (`DE`, `BH/C1`, `BH`, `SB`, ...): the standings, the TRF rank column
    /// and the chief arbiter's report use them unless others are asked for. None: players on
    /// equal points share a place.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<String>, example = json!(["BH/C1", "BH", "SB", "DE"]))]
    pub tie_breaks: Vec<TieBreak>,
    /// Which text of C.07 governs unplayed rounds (forfeits, byes, absences) in the
    /// tie-breaks: `2023` (the 2023 revision, Article 16: a dummy opponent with the player's
    /// own score) or `before_2023` (the virtual opponent; opponents' forfeits drawn). Left
    /// out: `2023` for events from 1 April 2024 (or without a first day), the older rules
    /// before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unplayed_rounds: Option<UnplayedRounds>,
}

/// A time zone of the IANA database (`Europe/Brussels`, `America/Sao_Paulo`, `UTC`), as a
/// venue's clocks show the time. On the wire it is the zone's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeZone(pub chrono_tz::Tz);

impl TimeZone {
    /// The zone's IANA name.
    pub fn name(self) -> &'static str {
        self.0.name()
    }
}

impl std::str::FromStr for TimeZone {
    type Err = String;

    fn from_str(name: &str) -> Result<TimeZone, String> {
        name.parse::<chrono_tz::Tz>().map(TimeZone).map_err(|_| {
            format!(
                "`{name}` is not a time zone of the IANA database; give the venue's zone by \
                 its name, such as `Europe/Brussels`, `Asia/Kolkata` or `UTC`."
            )
        })
    }
}

impl Serialize for TimeZone {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for TimeZone {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<TimeZone, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// A stored tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Tournament {
    /// The tournament's id.
    pub tournament_id: Uuid,
    /// Its settings.
    #[serde(flatten)]
    pub settings: TournamentSettings,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// Who created it.
    pub created_by: String,
    /// When its settings last changed.
    pub updated_at: DateTime<Utc>,
}

/// What one game may set differently from its tournament (recorded in its `game_created`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameOverrides {
    /// Another time control for this game.
    #[serde(default)]
    #[schema(value_type = Option<TimeControlSpec>)]
    pub time_control: Option<TimeControl>,
    /// Other clocks for this game (how they add the next period's time, 6.3.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_behaviour: Option<ClockBehaviour>,
    /// Another edition of the Laws.
    #[serde(default)]
    pub laws_edition: Option<LawsEdition>,
    /// Other regulations.
    #[serde(default)]
    pub regulations: Option<Regulations>,
    /// A start position (FEN), e.g. for a Chess960 event or an adjourned game.
    #[serde(default)]
    pub start_fen: Option<String>,
    /// The moves each player has completed at `start_fen`, when the FEN's move number is not
    /// the game's (a resumed or replayed game written from move 1); it needs `start_fen`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_moves_completed: Option<StartMoves>,
    /// The clocks' readings when the game starts from `start_fen` (the times the players have
    /// left); absent: the control's times for the periods reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_clocks: Option<ClockReading>,
}

/// Whether `value` is its type's default (left out when serialised).
fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// A field of the settings that is wrong, with what to do about it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SettingsProblem {
    /// The field's path, e.g. `time_control.base_ms`.
    pub field: String,
    /// What is wrong and what to give instead.
    pub message: String,
}

fn problem(field: &str, message: impl Into<String>) -> SettingsProblem {
    SettingsProblem {
        field: field.to_string(),
        message: message.into(),
    }
}

/// Checks a text field: present when required, at most 200 characters, no control
/// characters.
fn check_text(field: &str, text: Option<&str>, required: bool) -> Result<(), SettingsProblem> {
    match text {
        None if required => Err(problem(field, format!("`{field}` is required."))),
        None => Ok(()),
        Some(text) if text.trim().is_empty() => Err(problem(
            field,
            format!("`{field}` is empty; give it a value or leave it out."),
        )),
        Some(text) if text.chars().count() > 200 || text.chars().any(char::is_control) => {
            Err(problem(
                field,
                format!("`{field}` must be at most 200 characters with no control characters."),
            ))
        }
        Some(_) => Ok(()),
    }
}

/// A game core's settings error, its field placed under `field` (e.g.
/// `overrides.time_control`) instead of its own first segment.
fn placed(field: &str, error: crate::game::SettingsError) -> SettingsProblem {
    let own = error.field();
    let rest = own.split_once('.').map(|(_, rest)| rest).unwrap_or(own);
    problem(&format!("{field}.{rest}"), error.to_string())
}

/// Checks a time control with the game core's rules.
fn check_time_control(field: &str, control: &TimeControl) -> Result<(), SettingsProblem> {
    crate::game::settings::validate_time_control(control).map_err(|e| placed(field, e))
}

/// Checks regulations with the game core's rules.
fn check_regulations(field: &str, regulations: &Regulations) -> Result<(), SettingsProblem> {
    crate::game::settings::validate_regulations(regulations).map_err(|e| placed(field, e))
}

impl TournamentSettings {
    /// Checks the settings; the problem names the field.
    pub fn validate(&self) -> Result<(), SettingsProblem> {
        check_text("name", Some(&self.name), true)?;
        check_text("site", self.site.as_deref(), false)?;
        if let (Some(start), Some(end)) = (self.starts_on, self.ends_on)
            && end < start
        {
            return Err(problem(
                "ends_on",
                format!("The last day ({end}) is before the first ({start})."),
            ));
        }
        check_time_control("time_control", &self.time_control)?;
        check_regulations("regulations", &self.regulations)?;
        if self.arbiters.len() > 50 {
            return Err(problem("arbiters", "At most 50 arbiters can be listed."));
        }
        for (index, arbiter) in self.arbiters.iter().enumerate() {
            check_text(&format!("arbiters[{index}]"), Some(arbiter), true)?;
        }
        for (index, tie_break) in self.tie_breaks.iter().enumerate() {
            if self.tie_breaks[..index].contains(tie_break) {
                return Err(problem(
                    &format!("tie_breaks[{index}]"),
                    format!(
                        "`{}` is already in the list; a tie-break that did not separate players \
                         will not separate them a second time. Name each once.",
                        tie_break.code()
                    ),
                ));
            }
        }
        Ok(())
    }
}

impl GameOverrides {
    /// Checks the overrides; the problem names the field.
    pub fn validate(&self) -> Result<(), SettingsProblem> {
        if let Some(control) = &self.time_control {
            check_time_control("overrides.time_control", control)?;
        }
        if let Some(regulations) = &self.regulations {
            check_regulations("overrides.regulations", regulations)?;
        }
        check_text("overrides.start_fen", self.start_fen.as_deref(), false)
    }
}

/// Checks a round's name: what PGN's `Round` tag carries, e.g. `5` (1 to 20 characters).
pub fn check_round(round: &str) -> Result<(), SettingsProblem> {
    if round.trim().is_empty()
        || round.trim() != round
        || round.chars().count() > 20
        || round.chars().any(char::is_control)
        || round.contains('/')
        || round.starts_with('.')
    {
        return Err(problem(
            "round",
            "A round is named like `5` or `5.1`: 1 to 20 characters, no slash, no spaces \
             around it, not starting with a dot.",
        ));
    }
    Ok(())
}

/// The namespace of derived game ids (a fixed random UUID; changing it would make loading a
/// round twice create its games twice).
const GAME_ID_NAMESPACE: Uuid = Uuid::from_u128(0x6b1f_4f0e_2c52_4c0d_9a1e_5f3b_7d2e_8a41);

/// The id of the game on `board` of `round` of a tournament: the same inputs give the same id,
/// which makes loading a round idempotent.
pub fn game_id(tournament_id: Uuid, round: &str, board: u32) -> Uuid {
    Uuid::new_v5(
        &GAME_ID_NAMESPACE,
        format!("{tournament_id}/round/{round}/board/{board}").as_bytes(),
    )
}

/// The settings of the game on a board: the tournament's, with the game's overrides.
pub fn game_settings(
    tournament: &TournamentSettings,
    round: &str,
    pairing: &Pairing,
    overrides: Option<&GameOverrides>,
) -> GameSettings {
    let overrides = overrides.cloned().unwrap_or_default();
    let trimmed = |player: &Player| Player {
        name: player.name.trim().to_string(),
        fide_id: player.fide_id,
    };
    GameSettings {
        white: trimmed(&pairing.white),
        black: trimmed(&pairing.black),
        event: tournament.name.clone(),
        round: round.to_string(),
        board: Some(pairing.board),
        site: tournament.site.clone(),
        start_fen: overrides.start_fen,
        date: None,
        start_moves_completed: overrides.start_moves_completed,
        start_clocks: overrides.start_clocks,
        time_control: overrides
            .time_control
            .unwrap_or_else(|| tournament.time_control.clone()),
        clock_behaviour: overrides
            .clock_behaviour
            .unwrap_or(tournament.clock_behaviour),
        laws_edition: overrides.laws_edition.unwrap_or(tournament.laws_edition),
        regulations: overrides
            .regulations
            .unwrap_or_else(|| tournament.regulations.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::event::TimeControlKind;

    fn settings() -> TournamentSettings {
        TournamentSettings {
            name: "City Open".into(),
            site: Some("Ghent".into()),
            starts_on: None,
            ends_on: None,
            time_control: TimeControl::from_legacy(TimeControlKind::Rapid, 900_000, 10_000),
            clock_behaviour: ClockBehaviour::default(),
            laws_edition: LawsEdition::Y2018,
            regulations: Regulations::default(),
            arbiters: vec![],
            time_zone: None,
            tie_breaks: vec![],
            unplayed_rounds: None,
        }
    }

    #[test]
    fn a_time_zone_is_read_by_its_iana_name_and_a_wrong_name_says_what_to_give() {
        let zone: TimeZone = serde_json::from_str("\"Europe/Brussels\"").expect("a zone");
        assert_eq!(zone.name(), "Europe/Brussels");
        assert_eq!(
            serde_json::to_string(&zone).expect("written"),
            "\"Europe/Brussels\""
        );
        let wrong = serde_json::from_str::<TimeZone>("\"CET+1\"").expect_err("not a zone");
        assert!(wrong.to_string().contains("IANA"), "{wrong}");
    }

    #[test]
    fn a_game_takes_the_tournament_settings_unless_it_overrides_them() {
        let pairing = Pairing {
            board: 3,
            white: Player {
                name: " A ".into(),
                fide_id: Some(1),
            },
            black: Player {
                name: "B".into(),
                fide_id: None,
            },
        };
        let plain = game_settings(&settings(), "2", &pairing, None);
        assert_eq!(plain.event, "City Open");
        assert_eq!(plain.board, Some(3));
        assert_eq!(plain.white.name, "A");
        assert_eq!(plain.time_control.kind, TimeControlKind::Rapid);
        assert_eq!(plain.laws_edition, LawsEdition::Y2018);
        let overridden = game_settings(
            &settings(),
            "2",
            &pairing,
            Some(&GameOverrides {
                laws_edition: Some(LawsEdition::Y2023),
                ..GameOverrides::default()
            }),
        );
        assert_eq!(overridden.laws_edition, LawsEdition::Y2023);
        assert_eq!(overridden.time_control, plain.time_control);
    }

    #[test]
    fn derived_game_ids_depend_on_tournament_round_and_board() {
        let t = Uuid::new_v4();
        assert_eq!(game_id(t, "1", 1), game_id(t, "1", 1));
        assert_ne!(game_id(t, "1", 1), game_id(t, "1", 2));
        assert_ne!(game_id(t, "1", 1), game_id(t, "2", 1));
        assert_ne!(game_id(t, "1", 1), game_id(Uuid::new_v4(), "1", 1));
    }
}

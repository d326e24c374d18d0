//! What a game is created with: the players, the event's names, the start position, the
//! time control (6.3.1) and the clocks' behaviour, the edition of the Laws and the event's
//! regulations (draw offers, 9.1.1; electronic devices, 11.3; appeals). Apart from the
//! events, since settings are given once, by the organiser, and read by every part.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{AppealRegulations, ClockReading, LawsEdition};
use crate::rules::electronic_devices::DeviceRegulations;

/// The time control of the game: its periods and rate of play (Article 6.3.1, Appendices A.1
/// and B.1). On the wire it is a [`TimeControlSpec`]: the old one-period form (`kind`,
/// `base_ms`, `increment_ms`) reads and writes exactly as before, and a `periods` list or a
/// `preset` is accepted too.
pub use crate::rules::time_control::TimeControl;
pub use crate::rules::time_control::tracker::ClockBehaviour;
pub use crate::rules::time_control::{Bonus, BonusMode, Period, Preset, TimeControlSpec};

/// Whether players may offer draws (9.1.1 and event regulations).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DrawOfferPolicy {
    /// Players may agree a draw.
    #[default]
    Allowed,
    /// Players may not agree a draw at all.
    Forbidden,
    /// A draw by agreement needs the arbiter's consent ("Sofia rules").
    ArbiterConsent,
}

/// The event's regulations that bear on the rulings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Regulations {
    /// Whether draw offers are allowed.
    #[serde(default)]
    pub draw_offers: DrawOfferPolicy,
    /// The number of moves both players must have completed before a draw may be agreed
    /// (9.1.1); none if unrestricted.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 500)]
    pub earliest_agreement_move: Option<u32>,
    /// Whether Guidelines III (quickplay finish) are in force.
    #[serde(default)]
    pub quickplay_finish: bool,
    /// The time given to the opponent after an incorrect claim, in milliseconds; defaults to
    /// 2 minutes in standard play (9.5.3) and 1 minute in rapid and blitz (A.3).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 3_600_000)]
    pub incorrect_claim_penalty_ms: Option<u64>,
    /// Electronic devices: whether the regulations allow them in a player's bag, completely
    /// switched off (11.3.2.1), and the less severe penalty they specify instead of the loss
    /// for a device on the person (11.3.2.2), one of the options of 12.9. Absent when the
    /// Laws alone apply.
    #[serde(default, skip_serializing_if = "DeviceRegulations::is_default")]
    pub electronic_devices: DeviceRegulations,
    /// The appeals procedure (11.10 leaves it to the regulations): the deadline, the deposit
    /// and the committee. Absent when the regulations say nothing.
    #[serde(
        default,
        skip_serializing_if = "AppealRegulations::is_default",
        deserialize_with = "object_only"
    )]
    pub appeals: AppealRegulations,
    /// The days after the event's last day by which the chief arbiter's fair-play report is
    /// due (a setting of the event: the README says where the figure comes from). Absent:
    /// no deadline is shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 365)]
    pub fair_play_report_days: Option<u32>,
}

/// A player of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Player {
    /// The name as on the pairing list (`Surname, Given name`).
    pub name: String,
    /// The FIDE ID, if known.
    #[serde(default)]
    pub fide_id: Option<u64>,
}

/// Everything that governs a game, fixed when it is created.
///
/// Unknown fields are refused by the HTTP layer ([`GAME_SETTINGS_FIELDS`]), not by serde: the
/// settings are also the body of the internally tagged `game_created` event, whose OpenAPI
/// schema (`allOf` with the tag) cannot forbid additional properties.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GameSettings {
    /// The player of the white pieces.
    pub white: Player,
    /// The player of the black pieces.
    pub black: Player,
    /// The tournament's name (PGN `Event`).
    pub event: String,
    /// The round (PGN `Round`), e.g. `5` or `5.1`.
    pub round: String,
    /// The board number (1 to 9999).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 9999)]
    pub board: Option<u32>,
    /// The venue (PGN `Site`).
    #[serde(default)]
    pub site: Option<String>,
    /// The day the game was played, as PGN writes it (`Date`): `YYYY.MM.DD`, with `??` for a
    /// part not known (`2026.03.??`). Absent: the PGN export writes the day the game was
    /// created in the log. A PGN import keeps the file's own `Date` here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        pattern = r"^([0-9]{4}|\?{4})\.([0-9]{2}|\?{2})\.([0-9]{2}|\?{2})$",
        example = "2026.03.01"
    )]
    pub date: Option<String>,
    /// The start position as FEN; the standard start when absent. Chess960 castling
    /// (Shredder-FEN or X-FEN) is accepted. Its fullmove number is the game's move count:
    /// at `... w - - 0 41` each player has completed 40 moves, and the periods, the
    /// scoresheet duty (8.4) and Guidelines III count from there.
    #[serde(default)]
    pub start_fen: Option<String>,
    /// The moves each player had completed at the start position, when they differ from
    /// what the FEN's fullmove number says (a study position written `0 1`, a game replayed
    /// from move 41). With White to move both counts are equal; with Black to move White has
    /// one more. Needs `start_fen`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_moves_completed: Option<StartMoves>,
    /// The clocks' readings when the game starts from the position (an adjourned or resumed
    /// game): the times the players have left, in milliseconds. Absent: the control's times
    /// for the periods reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_clocks: Option<ClockReading>,
    /// The time control: the one-period form (`kind`, `base_ms`, `increment_ms`), a list of
    /// `periods`, or a `preset`.
    #[schema(value_type = TimeControlSpec)]
    pub time_control: TimeControl,
    /// How the game's clocks add the next period's time and credit increments (6.3.2). The
    /// default is a clock that counts presses and adds the time at the press that completes
    /// the period's moves, crediting each increment after the press; absent in the stored
    /// settings when it is the default, so that games recorded before it read and write
    /// exactly as they did.
    #[serde(default, skip_serializing_if = "is_default")]
    pub clock_behaviour: ClockBehaviour,
    /// The edition of the Laws that governs the game (default 2023).
    #[serde(default)]
    pub laws_edition: LawsEdition,
    /// The event's regulations.
    #[serde(default)]
    pub regulations: Regulations,
}

/// The moves each player had completed when the game starts from a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StartMoves {
    /// White's completed moves.
    pub white: u32,
    /// Black's completed moves.
    pub black: u32,
}

/// Whether `value` is its type's default (left out of the stored settings).
fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// The fields of [`GameSettings`], for refusing unknown ones.
pub const GAME_SETTINGS_FIELDS: &[&str] = &[
    "white",
    "black",
    "event",
    "round",
    "board",
    "site",
    "date",
    "start_fen",
    "start_moves_completed",
    "start_clocks",
    "time_control",
    "clock_behaviour",
    "laws_edition",
    "regulations",
];

/// Reads `T` from a JSON object only: serde's derived structs also take an array of their
/// fields in order, which the OpenAPI document does not allow (`"appeals": [null, null]` was
/// stored as an empty procedure).
fn object_only<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    use serde::de::Error as _;
    let object = serde_json::Map::<String, serde_json::Value>::deserialize(deserializer)?;
    serde_json::from_value(serde_json::Value::Object(object)).map_err(D::Error::custom)
}

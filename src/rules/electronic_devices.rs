//! Electronic devices and inspections (Article 11.3 with 11.4 and 12.9): what the Laws rule
//! when an arbiter finds a device, and what a refused inspection leaves to the arbiter.
//!
//! The text of both editions, checked against the Laws effective 1 January 2018 and
//! 1 January 2023:
//!
//! * The prohibition: "During a game, a player is forbidden to have any electronic device
//!   not specifically approved by the arbiter in the playing venue." 2023: 11.3.2; 2018: the
//!   first sentence of 11.3.2.1.
//! * The bag: "the regulations of an event may allow such devices to be stored in a player's
//!   bag, provided the device is completely switched off. This bag must be placed as agreed
//!   with the arbiter. Both players are forbidden to use this bag without permission of the
//!   arbiter." 11.3.2.1 in both.
//! * The loss: "If it is evident that a player has such a device on their person in the
//!   playing venue, the player shall lose the game. The opponent shall win. The regulations
//!   of an event may specify a different, less severe, penalty." 11.3.2.2 in both. The
//!   opponent wins whatever the position: unlike 6.9 (a flag) or 5.1.2 (2023, resignation),
//!   there is no "cannot checkmate, so draw" exception, and none is applied here.
//! * The inspection: "The arbiter may require the player to allow his/her clothes, bags,
//!   other items or body to be inspected, in private. The arbiter or person authorised by
//!   the arbiter shall inspect the player, and shall be of the same gender as the player. If
//!   a player refuses to cooperate with these obligations, the arbiter shall take measures in
//!   accordance with Article 12.9." 11.3.3 in both.
//! * "Players who have finished their games shall be considered to be spectators." 11.4 in
//!   both: a device found on a player whose game is over causes no game ruling.
//! * 12.9, "Options available to the arbiter concerning penalties", 12.9.1 to 12.9.9 in both
//!   editions ([`PenaltyOption`]); 12.9.6 "declaring the game to be lost by the offending
//!   player (the arbiter shall also decide the opponent's score)".
//! * 12.2.7: the arbiter shall "follow the Fair-Play Rules or Guidelines" (2023); in 2018
//!   "the Anti-Cheating Rules or Guidelines" ([`fair_play_rules_name`]).
//!
//! Everything here is pure: the same finding, regulations and edition always give the same
//! ruling, with the edition's own article numbers (from [`super::laws`]).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::laws::{LawsEdition, Rule, article, citation};
use super::side::Side;

/// One of the arbiter's options concerning penalties, 12.9.1 to 12.9.9 (the same numbers in
/// the 2018 and 2023 editions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PenaltyOption {
    /// 12.9.1 warning.
    Warning,
    /// 12.9.2 increasing the remaining time of the opponent.
    OpponentTimeIncreased,
    /// 12.9.3 reducing the remaining time of the offending player.
    OffenderTimeReduced,
    /// 12.9.4 increasing the points scored in the game by the opponent to the maximum
    /// available for that game.
    OpponentPointsRaised,
    /// 12.9.5 reducing the points scored in the game by the offending person.
    OffenderPointsReduced,
    /// 12.9.6 declaring the game to be lost by the offending player (the arbiter shall also
    /// decide the opponent's score).
    GameLost,
    /// 12.9.7 a fine announced in advance.
    Fine,
    /// 12.9.8 exclusion from one or more rounds.
    Exclusion,
    /// 12.9.9 expulsion from the competition.
    Expulsion,
}

impl PenaltyOption {
    /// Every option, in the order of 12.9.
    pub const ALL: [PenaltyOption; 9] = [
        PenaltyOption::Warning,
        PenaltyOption::OpponentTimeIncreased,
        PenaltyOption::OffenderTimeReduced,
        PenaltyOption::OpponentPointsRaised,
        PenaltyOption::OffenderPointsReduced,
        PenaltyOption::GameLost,
        PenaltyOption::Fine,
        PenaltyOption::Exclusion,
        PenaltyOption::Expulsion,
    ];

    /// Its place in 12.9 (1 to 9).
    pub fn number(self) -> usize {
        PenaltyOption::ALL
            .iter()
            .position(|option| *option == self)
            .map_or(0, |index| index + 1)
    }

    /// Its article in `edition`: `12.9.6`.
    pub fn article(self, edition: LawsEdition) -> String {
        format!(
            "{}.{}",
            article(edition, Rule::ArbiterPenalties),
            self.number()
        )
    }

    /// The option as the Laws word it.
    pub fn in_words(self) -> &'static str {
        match self {
            PenaltyOption::Warning => "warning",
            PenaltyOption::OpponentTimeIncreased => "increasing the remaining time of the opponent",
            PenaltyOption::OffenderTimeReduced => {
                "reducing the remaining time of the offending player"
            }
            PenaltyOption::OpponentPointsRaised => {
                "increasing the points scored in the game by the opponent to the maximum \
                 available for that game"
            }
            PenaltyOption::OffenderPointsReduced => {
                "reducing the points scored in the game by the offending person"
            }
            PenaltyOption::GameLost => "declaring the game to be lost by the offending player",
            PenaltyOption::Fine => "a fine announced in advance",
            PenaltyOption::Exclusion => "exclusion from one or more rounds",
            PenaltyOption::Expulsion => "expulsion from the competition",
        }
    }

    /// Whether it changes a clock: 12.9.2 (increasing the remaining time of the opponent) and
    /// 12.9.3 (reducing the remaining time of the offending player), in both editions.
    pub fn is_time_change(self) -> bool {
        matches!(
            self,
            PenaltyOption::OpponentTimeIncreased | PenaltyOption::OffenderTimeReduced
        )
    }

    /// The clock change of this option for `offender`, by `ms`: 12.9.2 adds `ms` to the
    /// opponent's clock, 12.9.3 takes `ms` from the offender's; `None` for the other options.
    pub fn time_change(self, offender: Side, ms: u64) -> Option<TimeChange> {
        let ms_signed = i64::try_from(ms).unwrap_or(i64::MAX);
        match self {
            PenaltyOption::OpponentTimeIncreased => Some(TimeChange {
                side: offender.opponent(),
                delta_ms: ms_signed,
            }),
            PenaltyOption::OffenderTimeReduced => Some(TimeChange {
                side: offender,
                delta_ms: -ms_signed,
            }),
            _ => None,
        }
    }

    /// Whether choosing it also needs the opponent's score (12.9.6: "the arbiter shall also
    /// decide the opponent's score").
    pub fn needs_opponent_score(self) -> bool {
        self == PenaltyOption::GameLost
    }
}

/// The most time a penalty of 12.9.2 or 12.9.3 may give or take: an hour, as the other
/// time penalties (9.5.3's incorrect-claim time, an arbiter's `time_penalty`).
pub const MAX_PENALTY_MS: u64 = 3_600_000;

/// A change to one clock, the consequence of a 12.9.2 or 12.9.3 penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TimeChange {
    /// Whose clock changes.
    pub side: Side,
    /// Milliseconds added (12.9.2, positive) or taken (12.9.3, negative).
    pub delta_ms: i64,
}

/// Where the device was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeviceLocation {
    /// On the player's person (11.3.2.2).
    OnPerson,
    /// In the player's bag (11.3.2.1).
    InBag,
    /// Elsewhere in the playing venue (a toilet, a coat): the arbiter judges.
    Elsewhere,
}

/// What the event's regulations say about devices (11.3.2.1, 11.3.2.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeviceRegulations {
    /// Whether the regulations allow devices in a player's bag, completely switched off
    /// (11.3.2.1).
    #[serde(default)]
    pub bags_allowed: bool,
    /// The different, less severe, penalty the regulations specify for a device on the
    /// person instead of the loss (11.3.2.2): one of the options of 12.9.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesser_penalty: Option<PenaltyOption>,
    /// Whether the regulations ban pens in the playing area (a pen can hide a device): a
    /// measure the chief arbiter's report states. Left out of the stored settings when
    /// false, so that settings recorded before it read and hash as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pens_banned: bool,
    /// Whether the regulations ban watches in the playing area (a smart watch is a device,
    /// 11.3.2; the regulations may ban every watch, so that none need be told apart): a
    /// measure the report states. Left out when false, as `pens_banned`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub watches_banned: bool,
    /// The time of a lesser penalty of 12.9.2 or 12.9.3, in milliseconds (1 to 3600000):
    /// the engine then applies it to the clocks. Absent, the ruling names the penalty and the
    /// arbiter applies it, as before this setting existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 3_600_000)]
    pub lesser_penalty_ms: Option<u64>,
    /// With a lesser penalty of 12.9.6 (the game declared lost by the offending player): the
    /// opponent's score the regulations set ("loss, the opponent scores ½": `draw`). Absent,
    /// or `win`, the opponent wins, as under 11.3.2.2 itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesser_penalty_opponent_score: Option<OpponentScore>,
}

impl DeviceRegulations {
    /// Whether nothing is set (the Laws alone apply).
    pub fn is_default(&self) -> bool {
        *self == DeviceRegulations::default()
    }
}

/// A device the arbiter found, as far as the Laws care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceFinding {
    /// Whose device it was.
    pub player: Side,
    /// Where it was.
    pub location: DeviceLocation,
    /// Whether it was switched on (anything but completely off).
    pub switched_on: bool,
    /// Whether the player used the bag without the arbiter's permission (11.3.2.1).
    pub bag_used_without_permission: bool,
    /// Whether the player's game was over when it was found (11.4).
    pub game_over: bool,
}

/// What the Laws give for a fair-play fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RulingOutcome {
    /// The player loses, the opponent wins (11.3.2.2).
    Loss,
    /// The less severe penalty the regulations specify (11.3.2.2), in `penalty`.
    LesserPenalty,
    /// No penalty: a device completely switched off in a bag the regulations allow.
    NoPenalty,
    /// The arbiter chooses from `options` (12.9), with a reason.
    ArbiterChooses,
    /// The arbiter chose `penalty` from 12.9, for the reason given.
    ArbiterChose,
    /// No game ruling: the player's game was over, the player is a spectator (11.4).
    Spectator,
}

/// The opponent's score the arbiter decides with 12.9.6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OpponentScore {
    /// The opponent scores the game as a win.
    Win,
    /// The opponent scores a draw.
    Draw,
    /// The opponent scores nothing either.
    Loss,
}

impl OpponentScore {
    /// The score in words: `the win (1)`, `½`, `nothing (0)`.
    pub fn in_words(self) -> &'static str {
        match self {
            OpponentScore::Win => "the win (1)",
            OpponentScore::Draw => "½",
            OpponentScore::Loss => "nothing (0)",
        }
    }
}

/// A ruling on a fair-play fact, citing the articles of the game's edition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FairPlayRuling {
    /// What follows.
    pub outcome: RulingOutcome,
    /// The articles applied, in the game's edition (`11.3.2, 11.3.2.2`).
    pub article: String,
    /// One plain sentence.
    pub reason: String,
    /// The lesser penalty of the regulations, or the arbiter's choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty: Option<PenaltyOption>,
    /// The article of `penalty` (`12.9.2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty_article: Option<String>,
    /// What the arbiter may choose from (12.9.1 to 12.9.9), when the arbiter chooses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<PenaltyOption>,
    /// The player whose game is lost, when the ruling ends the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loser: Option<Side>,
    /// The opponent's score the arbiter decided (12.9.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent_score: Option<OpponentScore>,
    /// The clock change of a 12.9.2 or 12.9.3 penalty whose time is known (the arbiter's
    /// `time_ms`, or the regulations' `lesser_penalty_ms`): the engine applies it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_change: Option<TimeChange>,
}

impl FairPlayRuling {
    fn new(outcome: RulingOutcome, article: String, reason: String) -> FairPlayRuling {
        FairPlayRuling {
            outcome,
            article,
            reason,
            penalty: None,
            penalty_article: None,
            options: Vec::new(),
            loser: None,
            opponent_score: None,
            time_change: None,
        }
    }

    /// The player whose game the ruling declares lost: a loss under 11.3.2.2, or 12.9.6
    /// (the opponent's score is then [`FairPlayRuling::opponent_score`], the win if absent).
    pub fn ends_game(&self) -> Option<Side> {
        self.loser
    }
}

/// The ruling on a device found.
///
/// Promises, in this order:
///
/// * the player's game is over: [`RulingOutcome::Spectator`], citing 11.4, whatever was
///   found (the player is a spectator; the arbiter may still act against a spectator, but
///   not through the game);
/// * on the person: [`RulingOutcome::Loss`], the opponent wins, citing the prohibition and
///   11.3.2.2 in the game's edition (2023 `11.3.2, 11.3.2.2`; 2018 `11.3.2.1, 11.3.2.2`),
///   never a draw; unless the regulations set a lesser penalty, which is then the ruling
///   ([`RulingOutcome::LesserPenalty`], citing 11.3.2.2 and the 12.9 option). A lesser
///   penalty of 12.9.6 is the loss itself when the opponent wins; with the opponent's score
///   the regulations set at a draw or a loss, it is that lesser penalty: the game lost by
///   the player, the opponent scoring ½ or nothing;
/// * in a bag the regulations allow, completely switched off, and not used without
///   permission: [`RulingOutcome::NoPenalty`], citing 11.3.2.1;
/// * anything else (a bag not allowed, used without permission, a device switched on in the
///   bag, a device elsewhere in the venue): [`RulingOutcome::ArbiterChooses`] from 12.9.1 to
///   12.9.9, citing the prohibition and 12.9.
///
/// # Example
///
/// ```
/// use arbiter::rules::electronic_devices::*;
/// use arbiter::rules::laws::LawsEdition;
/// use arbiter::rules::side::Side;
///
/// let phone = DeviceFinding {
///     player: Side::Black,
///     location: DeviceLocation::OnPerson,
///     switched_on: false,
///     bag_used_without_permission: false,
///     game_over: false,
/// };
/// let ruling = device_found(LawsEdition::Y2018, &DeviceRegulations::default(), &phone);
/// assert_eq!(ruling.outcome, RulingOutcome::Loss);
/// assert_eq!(ruling.article, "11.3.2.1, 11.3.2.2");
/// assert_eq!(ruling.ends_game(), Some(Side::Black));
/// ```
pub fn device_found(
    edition: LawsEdition,
    regulations: &DeviceRegulations,
    finding: &DeviceFinding,
) -> FairPlayRuling {
    let cite = |rules: &[Rule]| citation(edition, rules);
    if finding.game_over {
        return FairPlayRuling::new(
            RulingOutcome::Spectator,
            cite(&[Rule::Spectators]),
            format!(
                "{}'s game was over: a player who has finished the game is a spectator, and \
                 no game ruling follows.",
                finding.player.name()
            ),
        );
    }
    match finding.location {
        DeviceLocation::OnPerson => match regulations.lesser_penalty {
            Some(PenaltyOption::GameLost)
                if regulations
                    .lesser_penalty_opponent_score
                    .is_some_and(|score| score != OpponentScore::Win) =>
            {
                let score = regulations
                    .lesser_penalty_opponent_score
                    .unwrap_or(OpponentScore::Win);
                let penalty = PenaltyOption::GameLost;
                let mut ruling = FairPlayRuling::new(
                    RulingOutcome::LesserPenalty,
                    cite(&[Rule::DevicesForbidden, Rule::DeviceOnPerson]),
                    format!(
                        "A device on {}'s person in the playing venue; the regulations of the \
                         event specify a less severe penalty than the loss: {} ({}), the \
                         opponent scoring {}.",
                        finding.player.name(),
                        penalty.in_words(),
                        penalty.article(edition),
                        score.in_words()
                    ),
                );
                ruling.penalty = Some(penalty);
                ruling.penalty_article = Some(penalty.article(edition));
                ruling.opponent_score = Some(score);
                ruling.loser = Some(finding.player);
                ruling
            }
            Some(penalty) if penalty != PenaltyOption::GameLost => {
                let time_change = regulations
                    .lesser_penalty_ms
                    .and_then(|ms| penalty.time_change(finding.player, ms));
                let mut ruling = FairPlayRuling::new(
                    RulingOutcome::LesserPenalty,
                    cite(&[Rule::DevicesForbidden, Rule::DeviceOnPerson]),
                    format!(
                        "A device on {}'s person in the playing venue; the regulations of the \
                         event specify a less severe penalty than the loss: {} ({}){}.",
                        finding.player.name(),
                        penalty.in_words(),
                        penalty.article(edition),
                        match (penalty.is_time_change(), regulations.lesser_penalty_ms) {
                            (true, Some(ms)) => format!(", {}", time_words(ms)),
                            (true, None) => ", by the time the arbiter sets on the clock".into(),
                            _ => String::new(),
                        }
                    ),
                );
                ruling.time_change = time_change;
                ruling.penalty = Some(penalty);
                ruling.penalty_article = Some(penalty.article(edition));
                ruling
            }
            _ => {
                let mut ruling = FairPlayRuling::new(
                    RulingOutcome::Loss,
                    cite(&[Rule::DevicesForbidden, Rule::DeviceOnPerson]),
                    format!(
                        "A device on {}'s person in the playing venue: {} loses the game and \
                         the opponent wins.",
                        finding.player.name(),
                        finding.player.name()
                    ),
                );
                ruling.loser = Some(finding.player);
                ruling
            }
        },
        DeviceLocation::InBag
            if regulations.bags_allowed
                && !finding.switched_on
                && !finding.bag_used_without_permission =>
        {
            FairPlayRuling::new(
                RulingOutcome::NoPenalty,
                cite(&[Rule::DevicesInBag]),
                "A device completely switched off in the player's bag, which the regulations \
                 of the event allow: no penalty."
                    .into(),
            )
        }
        location => {
            let why = match location {
                DeviceLocation::InBag if !regulations.bags_allowed => {
                    "in a bag, which the regulations of the event do not allow"
                }
                DeviceLocation::InBag if finding.bag_used_without_permission => {
                    "in the bag, which the player used without the arbiter's permission"
                }
                DeviceLocation::InBag => "switched on in the bag",
                _ => "elsewhere in the playing venue",
            };
            let mut ruling = FairPlayRuling::new(
                RulingOutcome::ArbiterChooses,
                cite(&[
                    Rule::DevicesForbidden,
                    Rule::DevicesInBag,
                    Rule::ArbiterPenalties,
                ]),
                format!(
                    "{}'s device was found {why}: the arbiter chooses a penalty from {} to {}, \
                     with a reason.",
                    finding.player.name(),
                    PenaltyOption::Warning.article(edition),
                    PenaltyOption::Expulsion.article(edition)
                ),
            );
            ruling.options = PenaltyOption::ALL.to_vec();
            ruling
        }
    }
}

/// The ruling on a refused inspection (11.3.3): the arbiter takes measures in accordance
/// with 12.9, so the ruling is [`RulingOutcome::ArbiterChooses`] from 12.9.1 to 12.9.9,
/// citing 11.3.3 and 12.9 in the game's edition. A refusal once the game is over is a
/// spectator's (11.4), and the arbiter's measures are not a game ruling.
pub fn inspection_refused(edition: LawsEdition, player: Side, game_over: bool) -> FairPlayRuling {
    if game_over {
        return FairPlayRuling::new(
            RulingOutcome::Spectator,
            citation(edition, &[Rule::Inspection, Rule::Spectators]),
            format!(
                "{} refused the inspection after the game was over: no game ruling follows.",
                player.name()
            ),
        );
    }
    let mut ruling = FairPlayRuling::new(
        RulingOutcome::ArbiterChooses,
        citation(edition, &[Rule::Inspection, Rule::ArbiterPenalties]),
        format!(
            "{} refused to cooperate with the inspection: the arbiter takes measures in \
             accordance with {}, choosing from {} to {}, with a reason.",
            player.name(),
            article(edition, Rule::ArbiterPenalties),
            PenaltyOption::Warning.article(edition),
            PenaltyOption::Expulsion.article(edition)
        ),
    );
    ruling.options = PenaltyOption::ALL.to_vec();
    ruling
}

/// `ms` in words: `2 minutes`, `90 seconds`.
fn time_words(ms: u64) -> String {
    if ms.is_multiple_of(60_000) {
        let minutes = ms / 60_000;
        format!("{minutes} minute{}", if minutes == 1 { "" } else { "s" })
    } else if ms.is_multiple_of(1000) {
        format!("{} seconds", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

/// The arbiter's choice from 12.9, where the Laws leave it to the arbiter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ArbiterChoice {
    /// The option chosen.
    pub penalty: PenaltyOption,
    /// Why, in the arbiter's words.
    #[serde(default)]
    pub reason: Option<String>,
    /// With 12.9.6: the opponent's score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent_score: Option<OpponentScore>,
    /// With 12.9.2 or 12.9.3: the time given to the opponent or taken from the offender, in
    /// milliseconds (1 to 3600000). The engine applies it to the clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 3_600_000)]
    pub time_ms: Option<u64>,
}

/// Why an arbiter's choice cannot stand: the field and a sentence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct ChoiceError {
    /// The field of the choice that is wrong (`reason`, `opponent_score`, `penalty`).
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
}

/// The ruling once the arbiter chose from 12.9 on `offered`, which must be
/// [`RulingOutcome::ArbiterChooses`].
///
/// Promises: the choice needs a reason; 12.9.6 needs the opponent's score, and ends the
/// game as the offender's loss with that score for the opponent (the win, ½, or nothing:
/// `1-0`, `½-0`, `0-0` and their mirrors); the articles of `offered` are kept and the
/// option's own article is added.
///
/// # Errors
///
/// [`ChoiceError`] naming `reason` (empty), `opponent_score` (12.9.6 without it, or given
/// with another option) or `penalty` (no choice was offered).
pub fn arbiter_chose(
    edition: LawsEdition,
    offender: Side,
    offered: &FairPlayRuling,
    choice: &ArbiterChoice,
) -> Result<FairPlayRuling, ChoiceError> {
    if offered.outcome != RulingOutcome::ArbiterChooses {
        return Err(ChoiceError {
            field: "penalty",
            message: format!(
                "The Laws leave nothing to choose here: {} ({}).",
                offered.reason, offered.article
            ),
        });
    }
    let reason = choice
        .reason
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .ok_or_else(|| ChoiceError {
            field: "reason",
            message: format!(
                "The arbiter's choice of {} needs a reason.",
                choice.penalty.article(edition)
            ),
        })?;
    let score = match (choice.penalty.needs_opponent_score(), choice.opponent_score) {
        (true, None) => {
            return Err(ChoiceError {
                field: "opponent_score",
                message: format!(
                    "{} declares the game lost by the offending player; the arbiter shall \
                     also decide the opponent's score: win, draw or loss.",
                    choice.penalty.article(edition)
                ),
            });
        }
        (false, Some(_)) => {
            return Err(ChoiceError {
                field: "opponent_score",
                message: format!(
                    "Only 12.9.6 takes the opponent's score; {} does not.",
                    choice.penalty.article(edition)
                ),
            });
        }
        (_, score) => score,
    };
    let time_ms = match (choice.penalty.is_time_change(), choice.time_ms) {
        (true, None) => {
            return Err(ChoiceError {
                field: "time_ms",
                message: format!(
                    "{} is {}: say how much time, in milliseconds (`time_ms`, e.g. 120000 for \
                     two minutes), and the engine applies it to the clock.",
                    choice.penalty.article(edition),
                    choice.penalty.in_words()
                ),
            });
        }
        (true, Some(ms)) if ms == 0 || ms > MAX_PENALTY_MS => {
            return Err(ChoiceError {
                field: "time_ms",
                message: format!(
                    "The time of {} must be from 1 to 3600000 milliseconds (an hour), not {ms}.",
                    choice.penalty.article(edition)
                ),
            });
        }
        (false, Some(_)) => {
            return Err(ChoiceError {
                field: "time_ms",
                message: format!(
                    "Only 12.9.2 and 12.9.3 change a clock; {} takes no `time_ms`.",
                    choice.penalty.article(edition)
                ),
            });
        }
        (_, ms) => ms,
    };
    let mut ruling = FairPlayRuling::new(
        RulingOutcome::ArbiterChose,
        offered.article.clone(),
        format!(
            "The arbiter chose {} ({}): {reason}",
            choice.penalty.in_words(),
            choice.penalty.article(edition)
        ),
    );
    ruling.penalty = Some(choice.penalty);
    ruling.penalty_article = Some(choice.penalty.article(edition));
    ruling.opponent_score = score;
    ruling.time_change = time_ms.and_then(|ms| choice.penalty.time_change(offender, ms));
    if score.is_some() {
        ruling.loser = Some(offender);
    }
    Ok(ruling)
}

/// What 12.2.7 calls the rules the arbiter follows, in `edition`.
pub fn fair_play_rules_name(edition: LawsEdition) -> &'static str {
    match edition {
        LawsEdition::Y2023 => "Fair-Play Rules or Guidelines",
        LawsEdition::Y2018 => "Anti-Cheating Rules or Guidelines",
    }
}

//! The vocabulary of the sealed fair-play payloads: who may read and record them, the facts
//! an arbiter records (a device found, 11.3.2; an inspection requested, done or refused,
//! 11.3.3; a departure from the playing area, 11.2.3; a complaint; custody of a seized item;
//! a Fair Play Officer's proposal), and what the chief arbiter's report counts of them.
//! Apart from the checks, since this is what is stored and read back, and the checks are
//! what a new record must pass.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{DeviceLocation, FairPlayRuling};
use crate::rules::electronic_devices::ArbiterChoice;
use crate::rules::laws::Rule;
use crate::rules::side::Side;

/// Who may read and record fair-play events (the `fair_play` capability of a token).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    ToSchema,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::EnumIter,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum FairPlayRole {
    /// The chief arbiter, in command of fair play at the event (the FIDE Fair Play
    /// Commission's 2025 statement); confirms a Fair Play Officer's proposals.
    ChiefArbiter,
    /// The arbiter designated for fair play (ECU Tournament Rules, Q.2.1).
    FairPlayArbiter,
    /// A Fair Play Officer appointed by FIDE: entries are proposals until the chief arbiter
    /// confirms them.
    Fpo,
}

impl FairPlayRole {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Parses a stored name.
    pub fn parse(text: &str) -> Option<FairPlayRole> {
        text.parse().ok()
    }
}

/// How a device came to the arbiter's notice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FoundBy {
    /// It rang or buzzed.
    Sound,
    /// Someone saw it.
    Sight,
    /// A scanner found it.
    Scan,
    /// An inspection found it (11.3.3).
    Search,
}

/// What a scan or a check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CheckResult {
    /// Nothing.
    Clear,
    /// A device (record a `device_found` for it).
    DeviceFound,
}

/// When a complaint is lodged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ComplaintStage {
    /// During the tournament, to the chief arbiter.
    InTournament,
    /// After the tournament, to the Fair Play Commission.
    PostTournament,
}

/// A person named on FIDE's complaint form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Party {
    /// The name, as on the pairing list.
    pub name: String,
    /// The FIDE ID.
    #[serde(default)]
    pub fide_id: Option<u64>,
}

/// What happened to a seized item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CustodyAction {
    /// Taken from the player.
    Taken,
    /// Stored (where: `to`).
    Stored,
    /// Returned to the player.
    Returned,
}

/// The kind of an evidence file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    /// A photograph.
    Photo,
    /// A written statement.
    Statement,
    /// A scanner's log.
    ScannerLog,
    /// Anything else.
    Other,
}

/// A fair-play fact, tagged by `type`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FairPlayFact {
    /// An electronic device found (11.3.2).
    DeviceFound {
        /// What it was (`phone`, `smart watch`, `earpiece`).
        device: String,
        /// Where it was.
        location: DeviceLocation,
        /// Whether it was switched on (anything but completely off).
        switched_on: bool,
        /// How it was found.
        found_by: FoundBy,
        /// Whether the player used the bag without the arbiter's permission (11.3.2.1).
        #[serde(default)]
        bag_used_without_permission: bool,
        /// Whether the arbiter seized it (then `custody_changed` follows it).
        #[serde(default)]
        seized: bool,
        /// Where the Laws leave the penalty to the arbiter: the choice from 12.9.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        decision: Option<ArbiterChoice>,
    },
    /// The arbiter requires an inspection of the player (11.3.3).
    InspectionRequested {
        /// Why.
        #[serde(default)]
        reason: Option<String>,
    },
    /// The player refused the inspection requested at `request_seq` (11.3.3, 12.9).
    InspectionRefused {
        /// The `seq` of the `inspection_requested`.
        request_seq: u64,
        /// The arbiter's choice from 12.9.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        decision: Option<ArbiterChoice>,
    },
    /// The inspection requested at `request_seq` was done (11.3.3).
    InspectionDone {
        /// The `seq` of the `inspection_requested`.
        request_seq: u64,
        /// Who inspected (the arbiter or a person the arbiter authorised).
        #[serde(default)]
        inspector: Option<String>,
        /// The inspector is of the same gender as the player (11.3.3).
        same_gender_confirmed: bool,
        /// It was done in private (11.3.3).
        private_room: bool,
        /// Who witnessed it.
        #[serde(default)]
        witness: Option<String>,
        /// What it found.
        outcome: String,
    },
    /// The scan at the entry to the playing venue.
    EntryScan {
        /// What it found.
        result: CheckResult,
    },
    /// A random check during the round.
    RandomCheck {
        /// How (`wand`, `scanner`).
        device: String,
        /// What it found.
        result: CheckResult,
    },
    /// The player left the playing area (11.2.3).
    LeftArea {
        /// When the player went out.
        out_at: DateTime<Utc>,
        /// When the player came back.
        #[serde(default)]
        back_at: Option<DateTime<Utc>>,
        /// To the toilet.
        #[serde(default)]
        toilet: bool,
    },
    /// The broadcast delay (ECU Tournament Rules Q.2.4: 15 minutes for its championships).
    BroadcastDelaySet {
        /// Minutes.
        minutes: u32,
    },
    /// A complaint, as on FIDE's complaint form.
    ComplaintLodged {
        /// During or after the tournament.
        stage: ComplaintStage,
        /// Who complains.
        #[serde(default)]
        complainant: Option<Party>,
        /// Against whom.
        #[serde(default)]
        respondent: Option<Party>,
        /// The facts.
        #[serde(default)]
        facts: Option<String>,
        /// The attachments (names of files added as evidence).
        #[serde(default)]
        attachments: Vec<String>,
        /// When the complainant signed.
        #[serde(default)]
        signed_at: Option<DateTime<Utc>>,
    },
    /// A note.
    FairPlayNote {
        /// The note.
        text: String,
    },
    /// An evidence file. Sent with `content_base64`; stored with its `sha256` (hex) and
    /// size, the content kept apart.
    EvidenceAdded {
        /// What it is.
        kind: EvidenceKind,
        /// The file's name.
        file_name: String,
        /// Its media type.
        media_type: String,
        /// The file, base64 (sent only; never stored in the payload).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content_base64: Option<String>,
        /// SHA-256 of the file, hex (set by the service).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sha256: Option<String>,
        /// Its size in bytes (set by the service).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        size: Option<u64>,
    },
    /// A seized item changed hands.
    CustodyChanged {
        /// The `seq` of the `device_found` that seized it.
        item_seq: u64,
        /// Taken, stored or returned.
        action: CustodyAction,
        /// From whom or where.
        from: String,
        /// To whom or where.
        to: String,
        /// Who witnessed it.
        #[serde(default)]
        witness: Option<String>,
    },
    /// The case is referred to the Fair Play panel of FIDE.
    ReferredToFpl {
        /// Why.
        reason: String,
    },
    /// The chief arbiter confirms a Fair Play Officer's proposal; its ruling follows now.
    ProposalConfirmed {
        /// The `seq` of the proposal.
        proposal_seq: u64,
    },
}

impl FairPlayFact {
    /// The `type` tag.
    pub fn type_name(&self) -> &'static str {
        self.into()
    }

    /// The rules the fact falls under, when the Laws speak of it.
    pub(super) fn rules(&self) -> &'static [Rule] {
        match self {
            FairPlayFact::DeviceFound { .. }
            | FairPlayFact::EntryScan { .. }
            | FairPlayFact::RandomCheck { .. } => &[Rule::DevicesForbidden],
            FairPlayFact::InspectionRequested { .. }
            | FairPlayFact::InspectionRefused { .. }
            | FairPlayFact::InspectionDone { .. } => &[Rule::Inspection],
            FairPlayFact::LeftArea { .. } => &[Rule::LeavingTheVenue],
            _ => &[Rule::FairPlayRules],
        }
    }
}

/// A fair-play event as the arbiter records it: who recorded it, when, the player
/// concerned, the witnesses, and the fact.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FairPlayRecord {
    /// The arbiter who recorded it (name).
    pub arbiter: String,
    /// When it happened.
    pub at: DateTime<Utc>,
    /// The player concerned, by colour in this game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Side>,
    /// Who witnessed it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub witnesses: Vec<String>,
    /// The fact.
    pub fact: FairPlayFact,
}

/// The confidential payload of a `fair_play` event, as sealed: its SHA-256 over the canonical
/// jsonb text is the `sealed` of the public row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SealedPayload {
    /// Random hex, so that the hash of a short payload cannot be found by trying.
    pub salt: String,
    /// What the arbiter recorded.
    pub record: FairPlayRecord,
    /// The game's board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<u32>,
    /// The articles the fact falls under, in the game's edition (`11.3.3`).
    pub article: String,
    /// The capability it was recorded with.
    pub recorded_as: FairPlayRole,
    /// A Fair Play Officer's entry: a proposal until the chief arbiter confirms it.
    #[serde(default)]
    pub proposal: bool,
    /// The ruling of the Laws, when the fact has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruling: Option<FairPlayRuling>,
}

/// How many checks and inspections the records show (the chief arbiter's report).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CheckCounts {
    /// Scans at the entry to the playing venue.
    pub entry_scans: u32,
    /// Random checks during the rounds.
    pub random_checks: u32,
    /// Inspections required (11.3.3).
    pub inspections_requested: u32,
    /// Inspections done.
    pub inspections_done: u32,
    /// Inspections refused.
    pub inspections_refused: u32,
    /// Devices found.
    pub devices_found: u32,
    /// Scans or checks that found a device.
    pub checks_finding_a_device: u32,
    /// Departures from the playing area recorded (11.2.3).
    pub departures: u32,
}

/// Counts the checks, inspections and devices among `records`.
pub fn count_checks<'a>(records: impl IntoIterator<Item = &'a FairPlayRecord>) -> CheckCounts {
    let mut counts = CheckCounts::default();
    for record in records {
        match &record.fact {
            FairPlayFact::EntryScan { result } => {
                counts.entry_scans += 1;
                counts.checks_finding_a_device += u32::from(*result == CheckResult::DeviceFound);
            }
            FairPlayFact::RandomCheck { result, .. } => {
                counts.random_checks += 1;
                counts.checks_finding_a_device += u32::from(*result == CheckResult::DeviceFound);
            }
            FairPlayFact::InspectionRequested { .. } => counts.inspections_requested += 1,
            FairPlayFact::InspectionDone { .. } => counts.inspections_done += 1,
            FairPlayFact::InspectionRefused { .. } => counts.inspections_refused += 1,
            FairPlayFact::DeviceFound { .. } => counts.devices_found += 1,
            FairPlayFact::LeftArea { .. } => counts.departures += 1,
            _ => {}
        }
    }
    counts
}

/// The latest broadcast delay among `records`, in minutes.
pub fn broadcast_delay<'a>(records: impl IntoIterator<Item = &'a FairPlayRecord>) -> Option<u32> {
    records
        .into_iter()
        .filter_map(|r| match r.fact {
            FairPlayFact::BroadcastDelaySet { minutes } => Some((r.at, minutes)),
            _ => None,
        })
        .max_by_key(|(at, _)| *at)
        .map(|(_, minutes)| minutes)
}

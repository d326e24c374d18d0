//! Fair-play events in the game's log (11.3.2.2, 12.9.6): the engine sees only their public
//! row, the SHA-256 of the sealed payload and, when the ruling ends the game, the loser and
//! the article. The ruling itself is made from the payload by `crate::rules::electronic_devices`
//! before the event is stored; here the engine checks that the row is well formed and writes
//! the `game_ended` the public sees, with the result and the article only.
//!
//! A fair-play event without a forfeit changes nothing in the game, and is accepted after
//! the end too (a device found on a player who has finished is a spectator's, 11.4; a
//! complaint may come after the tournament). One with a forfeit is refused once the game has
//! ended (`super::endings`), as every other end.
//!
//! The module also holds the vocabulary of the sealed payloads ([`FairPlayRecord`],
//! [`FairPlayFact`], [`SealedPayload`]), the checks a record must pass against the fair-play
//! events stored before it ([`validate`], each refusal naming its field), the rulings
//! ([`ruling`], from `crate::rules::electronic_devices`) and what the report counts
//! ([`count_checks`]): all pure, for the application service `crate::app::fair_play`.

use super::event::{GameResult, RecordedEvent, Termination};
use super::parts::{JudgeContext, Judged, Judgement};
use super::refusal::{Refusal, RefusalCode};

pub use crate::rules::electronic_devices::{
    ArbiterChoice, DeviceLocation, FairPlayRuling, OpponentScore, PenaltyOption, RulingOutcome,
};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::rules::electronic_devices::{self, DeviceFinding, DeviceRegulations};
use crate::rules::laws::{LawsEdition, Rule, citation};
use crate::rules::side::Side;

/// Whether `sealed` is a SHA-256 in lower-case hex.
pub fn is_sealed_hash(sealed: &str) -> bool {
    sealed.len() == 64
        && sealed
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Judges a `fair_play` event: a forfeit ends the game as the loser's loss with the
/// opponent's win, or the opponent's score it carries (12.9.6: ½ or nothing), citing the
/// forfeit's article, with no other word (the reason is the article). Other events are not
/// this module's to judge.
pub(super) fn judge(ctx: &JudgeContext<'_>, event: &RecordedEvent) -> Judgement {
    let RecordedEvent::FairPlay {
        sealed,
        forfeit,
        time_penalty,
    } = event
    else {
        return Ok(Judged::nothing());
    };
    if !is_sealed_hash(sealed) {
        return Err(Refusal::new(
            RefusalCode::InternalInconsistency,
            "A fair_play event carries the SHA-256 of its sealed payload as 64 lower-case hex \
             digits; record fair-play events through POST /v1/games/{id}/fair-play.",
        ));
    }
    if let Some(penalty) = time_penalty {
        if forfeit.is_some() || penalty.delta_ms == 0 {
            return Err(Refusal::new(
                RefusalCode::InternalInconsistency,
                "A fair_play event's time_penalty changes a clock by a time other than 0, and \
                 comes without a forfeit; record fair-play events through \
                 POST /v1/games/{id}/fair-play.",
            ));
        }
        // 12.9.2 as every time given in the Laws: a `penalty_applied` to the opponent. 12.9.3
        // takes time, which `penalty_applied` cannot: the clocks fold it from this row, as
        // they fold a `clock_adjust` (`super::clocks`).
        return Ok(match u64::try_from(penalty.delta_ms) {
            Ok(add_ms) => Judged::decisions(vec![ctx.decisions.penalty(
                ctx.seq,
                penalty.side,
                add_ms,
                penalty.article.clone(),
                format!("Article {}.", penalty.article),
            )]),
            Err(_) => Judged::nothing(),
        });
    }
    let Some(forfeit) = forfeit else {
        return Ok(Judged::nothing());
    };
    Ok(Judged::decisions(vec![ctx.decisions.game_ended_citing(
        ctx.seq,
        GameResult::lost_by(
            forfeit.loser,
            forfeit.opponent_score.unwrap_or(OpponentScore::Win),
        ),
        Termination::Arbiter,
        forfeit.article.clone(),
        format!("Article {}.", forfeit.article),
    )]))
}

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
    fn rules(&self) -> &'static [Rule] {
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

/// A fair-play event stored earlier in the game, as its payload reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Prior {
    /// Its `seq` in the game's log.
    pub seq: u64,
    /// Its payload.
    pub payload: SealedPayload,
}

/// Why a fair-play record is refused: the field (a JSON path in the request body, e.g.
/// `record.fact.inspector`) and a sentence. A 422 at the API.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct FieldError {
    /// The field.
    pub field: String,
    /// What is wrong, and what to do.
    pub message: String,
}

fn field_error(field: &str, message: impl Into<String>) -> FieldError {
    FieldError {
        field: format!("record.{field}"),
        message: message.into(),
    }
}

/// What a fair-play record is judged against: the game's edition and device regulations,
/// whether the game is over (11.4), and the fair-play events stored before it.
#[derive(Clone, Copy, Debug)]
pub struct FairPlayContext<'a> {
    /// The edition of the Laws that governs the game.
    pub edition: LawsEdition,
    /// The regulations on devices.
    pub regulations: &'a DeviceRegulations,
    /// Whether the game has ended.
    pub game_over: bool,
    /// The fair-play events stored before, in `seq` order.
    pub prior: &'a [Prior],
}

impl FairPlayContext<'_> {
    fn prior(&self, seq: u64) -> Option<&SealedPayload> {
        self.prior.iter().find(|p| p.seq == seq).map(|p| &p.payload)
    }
}

fn present(text: Option<&str>) -> bool {
    text.is_some_and(|t| !t.trim().is_empty())
}

/// Checks `record` against what was stored before. Refused, with the field named: an
/// inspection done with no inspector, by someone not confirmed of the same gender, or not in
/// private (11.3.3); an answer (done or refused) to a request that is not an
/// `inspection_requested` or was answered already (so no refusal after a completed
/// inspection); a complaint with no complainant, respondent, facts or signature; a custody
/// change for an item no `device_found` seized; a fact about a player with no player; a
/// confirmation of something that is not an open proposal.
pub fn validate(ctx: &FairPlayContext<'_>, record: &FairPlayRecord) -> Result<(), FieldError> {
    if record.arbiter.trim().is_empty() {
        return Err(field_error(
            "arbiter",
            "Name the arbiter who records the event.",
        ));
    }
    let needs_player = matches!(
        record.fact,
        FairPlayFact::DeviceFound { .. }
            | FairPlayFact::InspectionRequested { .. }
            | FairPlayFact::InspectionRefused { .. }
            | FairPlayFact::InspectionDone { .. }
            | FairPlayFact::LeftArea { .. }
            | FairPlayFact::RandomCheck { .. }
    );
    if needs_player && record.player.is_none() {
        return Err(field_error(
            "player",
            format!(
                "A {} concerns a player: give `player`, white or black.",
                record.fact.type_name()
            ),
        ));
    }
    match &record.fact {
        FairPlayFact::InspectionDone {
            request_seq,
            inspector,
            same_gender_confirmed,
            private_room,
            ..
        } => {
            if !present(inspector.as_deref()) {
                return Err(field_error(
                    "fact.inspector",
                    "An inspection done names its inspector: the arbiter or the person the \
                     arbiter authorised (11.3.3).",
                ));
            }
            if !same_gender_confirmed {
                return Err(field_error(
                    "fact.same_gender_confirmed",
                    "The inspector shall be of the same gender as the player (11.3.3): \
                     confirm it, or have the inspection done by someone who is.",
                ));
            }
            if !private_room {
                return Err(field_error(
                    "fact.private_room",
                    "The player is inspected in private (11.3.3).",
                ));
            }
            open_request(ctx, *request_seq, record.player)?;
        }
        FairPlayFact::InspectionRefused { request_seq, .. } => {
            open_request(ctx, *request_seq, record.player)?;
        }
        FairPlayFact::ComplaintLodged {
            complainant,
            respondent,
            facts,
            signed_at,
            ..
        } => {
            for (name, party) in [("complainant", complainant), ("respondent", respondent)] {
                match party {
                    None => {
                        return Err(field_error(
                            &format!("fact.{name}"),
                            format!(
                                "A complaint names its {name} (name and FIDE ID), as FIDE's \
                                 complaint form asks."
                            ),
                        ));
                    }
                    Some(party) if party.name.trim().is_empty() => {
                        return Err(field_error(
                            &format!("fact.{name}.name"),
                            format!("The {name}'s name is empty."),
                        ));
                    }
                    Some(_) => {}
                }
            }
            if !present(facts.as_deref()) {
                return Err(field_error(
                    "fact.facts",
                    "A complaint states the facts it rests on.",
                ));
            }
            if signed_at.is_none() {
                return Err(field_error(
                    "fact.signed_at",
                    "A complaint is signed: give when the complainant signed it.",
                ));
            }
        }
        FairPlayFact::CustodyChanged { item_seq, .. } => match ctx.prior(*item_seq) {
            Some(SealedPayload {
                record:
                    FairPlayRecord {
                        fact: FairPlayFact::DeviceFound { seized: true, .. },
                        ..
                    },
                ..
            }) => {}
            _ => {
                return Err(field_error(
                    "fact.item_seq",
                    format!(
                        "Event {item_seq} is no device_found that seized an item: only a \
                         seized item changes custody."
                    ),
                ));
            }
        },
        FairPlayFact::ProposalConfirmed { proposal_seq } => {
            let open = ctx.prior(*proposal_seq).is_some_and(|p| p.proposal)
                && !ctx.prior.iter().any(|p| {
                    matches!(p.payload.record.fact,
                        FairPlayFact::ProposalConfirmed { proposal_seq: s } if s == *proposal_seq)
                });
            if !open {
                return Err(field_error(
                    "fact.proposal_seq",
                    format!("Event {proposal_seq} is no open proposal of a Fair Play Officer."),
                ));
            }
        }
        FairPlayFact::FairPlayNote { text } if text.trim().is_empty() => {
            return Err(field_error("fact.text", "The note is empty."));
        }
        FairPlayFact::BroadcastDelaySet { minutes } if *minutes > 24 * 60 => {
            return Err(field_error(
                "fact.minutes",
                "A broadcast delay is at most a day (1440 minutes).",
            ));
        }
        _ => {}
    }
    Ok(())
}

/// Checks that `request_seq` is an `inspection_requested` of `player` not answered yet.
fn open_request(
    ctx: &FairPlayContext<'_>,
    request_seq: u64,
    player: Option<Side>,
) -> Result<(), FieldError> {
    let field = "fact.request_seq";
    match ctx.prior(request_seq) {
        Some(SealedPayload {
            record:
                FairPlayRecord {
                    fact: FairPlayFact::InspectionRequested { .. },
                    player: requested,
                    ..
                },
            ..
        }) if *requested == player => {}
        _ => {
            return Err(field_error(
                field,
                format!(
                    "Event {request_seq} is no inspection_requested of this player: record the \
                     request first."
                ),
            ));
        }
    }
    let answer = ctx.prior.iter().find_map(|p| match p.payload.record.fact {
        FairPlayFact::InspectionDone { request_seq: s, .. } if s == request_seq => {
            Some(("done", p.seq))
        }
        FairPlayFact::InspectionRefused { request_seq: s, .. } if s == request_seq => {
            Some(("refused", p.seq))
        }
        _ => None,
    });
    match answer {
        Some((how, seq)) => Err(field_error(
            field,
            format!(
                "The inspection requested at event {request_seq} was already {how} (event \
                 {seq}): a completed inspection cannot be refused afterwards, nor a refused one \
                 done; request a new inspection."
            ),
        )),
        None => Ok(()),
    }
}

/// The ruling the Laws give for `record`, if its fact has one: a device found (11.3.2,
/// 11.3.2.2, 11.4), a refused inspection (11.3.3, 12.9), or a confirmed proposal (the ruling
/// of the proposal, as the game stands now). The arbiter's choice, where the Laws leave one,
/// is applied when the record carries it.
///
/// # Errors
///
/// [`FieldError`] naming `fact.decision.*` when the arbiter's choice cannot stand (no reason,
/// 12.9.6 without the opponent's score, nothing to choose).
pub fn ruling(
    ctx: &FairPlayContext<'_>,
    record: &FairPlayRecord,
) -> Result<Option<FairPlayRuling>, FieldError> {
    let Some(player) = record.player else {
        return match &record.fact {
            FairPlayFact::ProposalConfirmed { proposal_seq } => match ctx.prior(*proposal_seq) {
                Some(proposal) => ruling(ctx, &proposal.record),
                None => Ok(None),
            },
            _ => Ok(None),
        };
    };
    let (offered, decision) = match &record.fact {
        FairPlayFact::DeviceFound {
            location,
            switched_on,
            bag_used_without_permission,
            decision,
            ..
        } => (
            electronic_devices::device_found(
                ctx.edition,
                ctx.regulations,
                &DeviceFinding {
                    player,
                    location: *location,
                    switched_on: *switched_on,
                    bag_used_without_permission: *bag_used_without_permission,
                    game_over: ctx.game_over,
                },
            ),
            decision.as_ref(),
        ),
        FairPlayFact::InspectionRefused { decision, .. } => (
            electronic_devices::inspection_refused(ctx.edition, player, ctx.game_over),
            decision.as_ref(),
        ),
        FairPlayFact::ProposalConfirmed { proposal_seq } => {
            return match ctx.prior(*proposal_seq) {
                Some(proposal) => ruling(ctx, &proposal.record),
                None => Ok(None),
            };
        }
        _ => return Ok(None),
    };
    match decision {
        None => Ok(Some(offered)),
        Some(choice) => electronic_devices::arbiter_chose(ctx.edition, player, &offered, choice)
            .map(Some)
            .map_err(|e| field_error(&format!("fact.decision.{}", e.field), e.message)),
    }
}

/// The articles `record`'s fact falls under, in `edition`.
pub fn article_of(edition: LawsEdition, record: &FairPlayRecord) -> String {
    citation(edition, record.fact.rules())
}

/// The public part of `ruling`: the loser, the article the game ends under (11.3.2.2 for
/// a device on the person; 12.9.6 where the arbiter chose it or the regulations set it as
/// the lesser penalty) and the opponent's score when it is not the win.
pub fn forfeit_of(edition: LawsEdition, ruling: &FairPlayRuling) -> Option<super::event::Forfeit> {
    let loser = ruling.ends_game()?;
    let article = match ruling.outcome {
        RulingOutcome::Loss => citation(edition, &[Rule::DeviceOnPerson]),
        RulingOutcome::LesserPenalty => match &ruling.penalty_article {
            Some(penalty) => format!("{}, {penalty}", citation(edition, &[Rule::DeviceOnPerson])),
            None => citation(edition, &[Rule::DeviceOnPerson]),
        },
        _ => ruling
            .penalty_article
            .clone()
            .unwrap_or_else(|| citation(edition, &[Rule::ArbiterPenalties])),
    };
    Some(super::event::Forfeit {
        loser,
        article,
        opponent_score: ruling
            .opponent_score
            .filter(|score| *score != OpponentScore::Win),
    })
}

/// The public part of `ruling` when it changes a clock (12.9.2, 12.9.3, with the time known):
/// whose clock, by how much, and the option's article.
pub fn time_penalty_of(
    edition: LawsEdition,
    ruling: &FairPlayRuling,
) -> Option<super::event::TimePenalty> {
    let change = ruling.time_change?;
    let article = ruling
        .penalty
        .map(|p| p.article(edition))
        .unwrap_or_else(|| citation(edition, &[Rule::ArbiterPenalties]));
    Some(super::event::TimePenalty {
        side: change.side,
        delta_ms: change.delta_ms,
        article,
    })
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

/// Whether an appeal lodged in the game cites the fair-play event at `seq`: an `appeal_lodged`
/// against it, or against the `game_ended` it caused. The designated appeals member reads
/// such an event, and only such an event (ECU Tournament Rules Q.2.2).
pub fn appeal_cites(events: &[(u64, &super::event::Event)], seq: u64) -> bool {
    use super::event::{Event, ServiceEvent};
    let caused: Vec<u64> = events
        .iter()
        .filter_map(|(s, event)| match event {
            Event::Service(ServiceEvent::GameEnded { cause_seq, .. }) if *cause_seq == seq => {
                Some(*s)
            }
            _ => None,
        })
        .collect();
    events.iter().any(|(_, event)| {
        matches!(event, Event::Recorded(RecordedEvent::AppealLodged { against_seq, .. })
            if *against_seq == seq || caused.contains(against_seq))
    })
}

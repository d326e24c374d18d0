//! The checks a fair-play record must pass against the fair-play events stored before it
//! (each refusal naming its field, a 422 at the API), and the ruling the Laws give for it
//! (11.3.2, 11.3.2.2, 11.3.3, 11.4, 12.9, from `crate::rules::electronic_devices`). Apart
//! from the records, since these read the game's earlier events and the regulations.

use super::records::{FairPlayFact, FairPlayRecord, Party, SealedPayload};
use crate::rules::electronic_devices::{self, DeviceFinding, DeviceRegulations, FairPlayRuling};
use crate::rules::laws::{LawsEdition, citation};
use crate::rules::side::Side;

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
    recorder_and_player(record)?;
    match &record.fact {
        FairPlayFact::InspectionDone {
            request_seq,
            inspector,
            same_gender_confirmed,
            private_room,
            ..
        } => {
            inspection_as_11_3_3_asks(inspector.as_deref(), *same_gender_confirmed, *private_room)?;
            open_request(ctx, *request_seq, record.player)
        }
        FairPlayFact::InspectionRefused { request_seq, .. } => {
            open_request(ctx, *request_seq, record.player)
        }
        FairPlayFact::ComplaintLodged {
            complainant,
            respondent,
            facts,
            signed_at,
            ..
        } => complete_complaint(
            [("complainant", complainant), ("respondent", respondent)],
            facts.as_deref(),
            signed_at.is_some(),
        ),
        FairPlayFact::CustodyChanged { item_seq, .. } => seized_item(ctx, *item_seq),
        FairPlayFact::ProposalConfirmed { proposal_seq } => open_proposal(ctx, *proposal_seq),
        FairPlayFact::FairPlayNote { text } if text.trim().is_empty() => {
            Err(field_error("fact.text", "The note is empty."))
        }
        FairPlayFact::BroadcastDelaySet { minutes } if *minutes > 24 * 60 => Err(field_error(
            "fact.minutes",
            "A broadcast delay is at most a day (1440 minutes).",
        )),
        _ => Ok(()),
    }
}

/// Every record names the arbiter who records it, and a fact about a player names the
/// player.
fn recorder_and_player(record: &FairPlayRecord) -> Result<(), FieldError> {
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
    Ok(())
}

/// 11.3.3: the inspection is done by the arbiter or a person the arbiter authorised, of the
/// same gender as the player, in private.
fn inspection_as_11_3_3_asks(
    inspector: Option<&str>,
    same_gender_confirmed: bool,
    private_room: bool,
) -> Result<(), FieldError> {
    if !present(inspector) {
        return Err(field_error(
            "fact.inspector",
            "An inspection done names its inspector: the arbiter or the person the arbiter \
             authorised (11.3.3).",
        ));
    }
    if !same_gender_confirmed {
        return Err(field_error(
            "fact.same_gender_confirmed",
            "The inspector shall be of the same gender as the player (11.3.3): confirm it, or \
             have the inspection done by someone who is.",
        ));
    }
    if !private_room {
        return Err(field_error(
            "fact.private_room",
            "The player is inspected in private (11.3.3).",
        ));
    }
    Ok(())
}

/// A complaint names both parties (name and FIDE ID, as FIDE's complaint form asks), states
/// its facts and is signed.
fn complete_complaint(
    parties: [(&str, &Option<Party>); 2],
    facts: Option<&str>,
    signed: bool,
) -> Result<(), FieldError> {
    for (name, party) in parties {
        match party {
            None => {
                return Err(field_error(
                    &format!("fact.{name}"),
                    format!(
                        "A complaint names its {name} (name and FIDE ID), as FIDE's complaint \
                         form asks."
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
    if !present(facts) {
        return Err(field_error(
            "fact.facts",
            "A complaint states the facts it rests on.",
        ));
    }
    if !signed {
        return Err(field_error(
            "fact.signed_at",
            "A complaint is signed: give when the complainant signed it.",
        ));
    }
    Ok(())
}

/// Only an item a `device_found` seized changes custody.
fn seized_item(ctx: &FairPlayContext<'_>, item_seq: u64) -> Result<(), FieldError> {
    match ctx.prior(item_seq) {
        Some(SealedPayload {
            record:
                FairPlayRecord {
                    fact: FairPlayFact::DeviceFound { seized: true, .. },
                    ..
                },
            ..
        }) => Ok(()),
        _ => Err(field_error(
            "fact.item_seq",
            format!(
                "Event {item_seq} is no device_found that seized an item: only a seized item \
                 changes custody."
            ),
        )),
    }
}

/// A confirmation confirms a Fair Play Officer's proposal not confirmed yet.
fn open_proposal(ctx: &FairPlayContext<'_>, proposal_seq: u64) -> Result<(), FieldError> {
    let open = ctx.prior(proposal_seq).is_some_and(|p| p.proposal)
        && !ctx.prior.iter().any(|p| {
            matches!(p.payload.record.fact,
                FairPlayFact::ProposalConfirmed { proposal_seq: s } if s == proposal_seq)
        });
    if open {
        Ok(())
    } else {
        Err(field_error(
            "fact.proposal_seq",
            format!("Event {proposal_seq} is no open proposal of a Fair Play Officer."),
        ))
    }
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

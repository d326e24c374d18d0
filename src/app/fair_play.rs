//! Fair play: recording fair-play events with their rulings, and reading them, for the
//! holders of the `fair_play` capability only (issue 23).
//!
//! Recording: the record is checked against the fair-play events stored before
//! ([`crate::game::fair_play::validate`]), ruled on by the Laws of the game's edition
//! ([`crate::game::fair_play::ruling`], from `crate::rules::electronic_devices`), sealed with
//! a random salt and stored in the restricted table, and its public row (the payload's
//! SHA-256, and the forfeit when the ruling ends the game) is appended to the game's log by
//! [`Arbitration::record`], with the `game_ended` the engine writes for a forfeit. A Fair Play
//! Officer's record is a proposal: no ruling follows until the chief arbiter confirms it.
//!
//! Reading: every read appends to the access log who read which events, when, and how. A
//! caller without the capability (or outside the token's events) is told the route does not
//! exist.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::{DateTime, Utc};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::access::{Denied, FairPlayRole, Principal};
use crate::app::arbitration::{Arbitration, RecordError};
use crate::app::seals::seal_faults;
pub use crate::app::seals::{FairPlayFault, SealCheck, seal_check};
use crate::game::Game;
use crate::game::event::{Event, RecordedEvent};
use crate::game::fair_play::{
    FairPlayContext, FairPlayFact, FairPlayRecord, FieldError, Prior, SealedPayload, article_of,
    forfeit_of, ruling, time_penalty_of, validate,
};
use crate::store::{
    EventEnvelope, EvidenceFile, FairPlayIdUse, NewEvent, SealedRows, StoreError, StoredFairPlay,
    evidence_sha256,
};

/// Why a fair-play request fails.
#[derive(Debug, thiserror::Error)]
pub enum FairPlayError {
    /// No such game or event, or the caller lacks the capability: a 404 either way.
    #[error("not found")]
    NotFound,
    /// A field of the record is wrong: a 422 naming it.
    #[error(transparent)]
    Field(#[from] FieldError),
    /// The caller may not do this (an FPO confirming a proposal).
    #[error(transparent)]
    Denied(#[from] Denied),
    /// Recording failed.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What recording stored: the public row, the decisions it caused, and the sealed payload.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct FairPlayRecorded {
    /// The public rows: the `fair_play` event and, when the ruling ends the game, its
    /// `game_ended`.
    pub events: Vec<EventEnvelope>,
    /// The `seq` of the `fair_play` event.
    pub seq: u64,
    /// The payload as sealed (restricted).
    pub payload: SealedPayload,
    /// False when this answers a retry with what an earlier identical request stored.
    #[serde(skip)]
    pub newly_stored: bool,
}

/// A fair-play event as a holder of the capability reads it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct FairPlayItem {
    /// Its place in the game's log.
    pub seq: u64,
    /// The event's id.
    pub event_id: Uuid,
    /// When it was stored.
    pub recorded_at: DateTime<Utc>,
    /// Who recorded it.
    pub recorded_by: String,
    /// The hash in the public row.
    pub sealed: String,
    /// Whether the payload still gives that hash.
    pub intact: bool,
    /// The payload.
    pub payload: SealedPayload,
}

impl From<StoredFairPlay> for FairPlayItem {
    fn from(stored: StoredFairPlay) -> Self {
        FairPlayItem {
            seq: stored.seq,
            event_id: stored.event_id,
            recorded_at: stored.recorded_at,
            recorded_by: stored.recorded_by,
            intact: stored.payload_sha256 == stored.sealed,
            sealed: stored.sealed,
            payload: stored.payload,
        }
    }
}

/// The fair-play audit of a game: every sealed payload against its hash in the chain, every
/// evidence file against the SHA-256 its `evidence_added` recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FairPlayAudit {
    /// The game.
    pub game_id: Uuid,
    /// How many fair-play events were checked.
    pub events: u64,
    /// True when nothing is wrong.
    pub intact: bool,
    /// What is wrong, event by event.
    pub faults: Vec<FairPlayFault>,
}

/// The game, folded to the end of its log, and the caller's fair-play role in it (404
/// without one).
async fn game_for(
    arbitration: &Arbitration,
    game_id: Uuid,
    principal: &Principal,
) -> Result<(Game, u64, FairPlayRole), FairPlayError> {
    let (game, seq) = match arbitration.state_at(game_id, None).await {
        Ok(found) => found,
        Err(RecordError::Store(StoreError::GameNotFound(_))) => {
            return Err(FairPlayError::NotFound);
        }
        Err(other) => return Err(other.into()),
    };
    let role = principal
        .fair_play_for(&game.settings().event)
        .ok_or(FairPlayError::NotFound)?;
    Ok((game, seq, role))
}

/// The priors of a game's stored fair-play events.
fn priors(stored: &[StoredFairPlay]) -> Vec<Prior> {
    stored
        .iter()
        .map(|s| Prior {
            seq: s.seq,
            payload: s.payload.clone(),
        })
        .collect()
}

/// Fresh random hex for a payload's salt.
fn salt() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// The largest evidence file the service takes when request bodies are limited to
/// `body_bytes`: the largest file such a body carries as base64 (4 characters for every 3
/// bytes), so that the back office's upload takes exactly what the API takes.
pub fn evidence_limit(body_bytes: usize) -> usize {
    body_bytes / 4 * 3
}

/// Where a fair-play record goes, as the client says: its id for the event (the idempotency
/// key of a retry) and the `seq` it expects the log to end at. Both are optional; without an
/// `event_id` the service makes one, and a retry is stored again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    /// The client's id for the `fair_play` event.
    pub event_id: Option<Uuid>,
    /// The game's last `seq` as the client saw it: a stale one is refused (409).
    pub expected_seq: Option<u64>,
}

/// Takes the file out of an `evidence_added` record (`content_base64`), and puts its SHA-256
/// and size in its place, as the payload stores them: the record then reads as stored, so a
/// retry compares equal. A `sha256` declared by the client must be the file's: a different
/// one is refused naming the field.
fn take_evidence(record: &mut FairPlayRecord) -> Result<Option<EvidenceFile>, FieldError> {
    let FairPlayFact::EvidenceAdded {
        media_type,
        content_base64,
        sha256,
        size,
        ..
    } = &mut record.fact
    else {
        return Ok(None);
    };
    let content = content_base64
        .take()
        .and_then(|text| STANDARD.decode(text.trim()).ok())
        .ok_or_else(|| FieldError {
            field: "record.fact.content_base64".into(),
            message: "An evidence file is sent as `content_base64`: the file's bytes, base64 \
                      (standard alphabet, with padding)."
                .into(),
        })?;
    let computed = evidence_sha256(&content);
    // A declared hash is the client's statement of what it sent: one the bytes do not give
    // is refused, never replaced (the file was damaged on the way, or is not the one meant).
    if let Some(declared) = sha256.as_deref()
        && !declared.trim().eq_ignore_ascii_case(&computed)
    {
        return Err(FieldError {
            field: "record.fact.sha256".into(),
            message: format!(
                "The file sent has SHA-256 {computed}, not the {} declared in `sha256`: it \
                 was damaged on the way or is not the file meant. Nothing was stored; send \
                 the file again, or leave out `sha256` to take the hash the service computes.",
                declared.trim()
            ),
        });
    }
    *sha256 = Some(computed);
    *size = Some(content.len() as u64);
    Ok(Some(EvidenceFile {
        media_type: media_type.clone(),
        content,
    }))
}

/// The answer to a retry: if `event_id` is stored already as a fair-play record of this game
/// with the same content (and, when the client says where, at the same place), what was
/// stored (the read is logged, as every read of a payload); if it is used otherwise, the
/// 409 of a reused id; if it is free, `None`.
async fn stored_retry(
    arbitration: &Arbitration,
    game_id: Uuid,
    event_id: Uuid,
    record: &FairPlayRecord,
    placement: Placement,
    principal: &Principal,
) -> Result<Option<FairPlayRecorded>, FairPlayError> {
    let store = arbitration.store();
    match store.fair_play_id_use(game_id, event_id).await? {
        FairPlayIdUse::Free => Ok(None),
        FairPlayIdUse::FairPlay {
            batch,
            seq,
            payload: Some(payload),
        } if payload.record == *record
            && placement
                .expected_seq
                .is_none_or(|expected| seq == expected + 1) =>
        {
            store
                .log_fair_play_access(game_id, &[Some(seq)], &principal.recorder(), "retry")
                .await?;
            Ok(Some(FairPlayRecorded {
                events: batch,
                seq,
                payload: *payload,
                newly_stored: false,
            }))
        }
        FairPlayIdUse::FairPlay { seq, .. } | FairPlayIdUse::Other { seq: Some(seq) } => {
            Err(StoreError::EventIdReused { event_id, seq }.into())
        }
        FairPlayIdUse::Other { seq: None } => Err(StoreError::FairPlayIdTaken(event_id).into()),
    }
}

/// Records `record` in `game_id` for `principal`, placed as `placement` says.
///
/// A retry (the same `event_id` with the same record) is answered with what the first
/// request stored, and nothing is stored again; the same `event_id` with another record, or
/// at another place than `expected_seq` says, is refused as reused. The sealed payload, any
/// evidence file and the public row are stored in one transaction, so that no crash leaves
/// a payload without its row.
pub async fn record(
    arbitration: &Arbitration,
    game_id: Uuid,
    principal: &Principal,
    mut record: FairPlayRecord,
    placement: Placement,
) -> Result<FairPlayRecorded, FairPlayError> {
    let (game, seq, role) = game_for(arbitration, game_id, principal).await?;
    let evidence = take_evidence(&mut record)?;
    if let Some(event_id) = placement.event_id
        && let Some(answer) = stored_retry(
            arbitration,
            game_id,
            event_id,
            &record,
            placement,
            principal,
        )
        .await?
    {
        return Ok(answer);
    }
    if let Some(expected) = placement.expected_seq
        && expected != seq
    {
        return Err(StoreError::StaleSeq {
            expected,
            current: seq,
        }
        .into());
    }
    let store = arbitration.store();
    let (stored, _) = store.fair_play_events(game_id).await?;
    let prior = priors(&stored);
    let settings = game.settings();
    let ctx = FairPlayContext {
        edition: settings.laws_edition,
        regulations: &settings.regulations.electronic_devices,
        game_over: game.result().is_some(),
        prior: &prior,
    };
    validate(&ctx, &record)?;
    if matches!(record.fact, FairPlayFact::ProposalConfirmed { .. })
        && role != FairPlayRole::ChiefArbiter
    {
        return Err(Denied(
            "Only the chief arbiter confirms a Fair Play Officer's proposal; this token holds \
             the fair-play capability as another role."
                .into(),
        )
        .into());
    }
    let proposal = role == FairPlayRole::Fpo;
    let ruled = if proposal {
        None
    } else {
        ruling(&ctx, &record)?
    };
    let payload = SealedPayload {
        salt: salt(),
        article: article_of(settings.laws_edition, &record),
        board: settings.board,
        record,
        recorded_as: role,
        proposal,
        ruling: ruled,
    };
    let forfeit = payload
        .ruling
        .as_ref()
        .and_then(|r| forfeit_of(settings.laws_edition, r));
    // 12.9.2, 12.9.3 with the time known: the engine applies it to the clock.
    let time_penalty = payload
        .ruling
        .as_ref()
        .and_then(|r| time_penalty_of(settings.laws_edition, r));
    let event_id = placement.event_id.unwrap_or_else(Uuid::new_v4);
    let sealed = SealedRows::seal(game_id, event_id, &payload, evidence)?;
    let appended = arbitration
        .record_sealed(
            game_id,
            seq,
            vec![NewEvent {
                event_id,
                event: Event::Recorded(RecordedEvent::FairPlay {
                    sealed: sealed.sha256.clone(),
                    forfeit,
                    time_penalty,
                }),
                occurred_at: Some(payload.record.at),
                clock: None,
            }],
            &principal.recorder(),
            &sealed,
        )
        .await;
    match appended {
        Ok(appended) if appended.newly_stored => Ok(FairPlayRecorded {
            seq: seq + 1,
            events: appended.envelopes,
            payload,
            newly_stored: true,
        }),
        // A request with the same id got there first (or the log moved on and holds it):
        // the stored record answers, if it is this one.
        Ok(_)
        | Err(RecordError::Store(
            StoreError::EventIdReused { .. } | StoreError::FairPlayIdTaken(_),
        )) if placement.event_id.is_some() => stored_retry(
            arbitration,
            game_id,
            event_id,
            &payload.record,
            placement,
            principal,
        )
        .await?
        .ok_or(FairPlayError::Store(StoreError::FairPlayIdTaken(event_id))),
        Ok(_) => Err(StoreError::FairPlayIdTaken(event_id).into()),
        Err(error) => Err(error.into()),
    }
}

/// The game's fair-play events, for `principal`; the read is logged, event by event.
pub async fn list(
    arbitration: &Arbitration,
    game_id: Uuid,
    principal: &Principal,
) -> Result<Vec<FairPlayItem>, FairPlayError> {
    game_for(arbitration, game_id, principal).await?;
    let store = arbitration.store();
    let (stored, _) = store.fair_play_events(game_id).await?;
    let seqs: Vec<Option<u64>> = stored.iter().map(|s| Some(s.seq)).collect();
    store
        .log_fair_play_access(game_id, &seqs, &principal.recorder(), "list")
        .await?;
    Ok(stored.into_iter().map(FairPlayItem::from).collect())
}

/// One fair-play event, for `principal`; the read is logged.
///
/// An appeals token without the capability reads an event that an appeal lodged in the game
/// cites (the event, or the `game_ended` it caused), and nothing else: the designated appeals
/// member of ECU Q.2.2.
pub async fn read(
    arbitration: &Arbitration,
    game_id: Uuid,
    seq: u64,
    principal: &Principal,
) -> Result<FairPlayItem, FairPlayError> {
    match game_for(arbitration, game_id, principal).await {
        Ok(_) => {}
        Err(FairPlayError::NotFound) if principal.role == crate::access::Role::Appeals => {
            let (game, _) = arbitration
                .state_at(game_id, None)
                .await
                .map_err(|_| FairPlayError::NotFound)?;
            // An appeal that annulled the event still cites it.
            let events: Vec<_> = game.unretracted_events().collect();
            if !crate::game::fair_play::appeal_cites(&events, seq) {
                return Err(FairPlayError::NotFound);
            }
        }
        Err(other) => return Err(other),
    }
    let store = arbitration.store();
    let (stored, _) = store.fair_play_events(game_id).await?;
    let item = stored
        .into_iter()
        .find(|s| s.seq == seq)
        .ok_or(FairPlayError::NotFound)?;
    store
        .log_fair_play_access(game_id, &[Some(seq)], &principal.recorder(), "record")
        .await?;
    Ok(item.into())
}

/// An evidence file as downloaded: its name, media type, SHA-256 and bytes.
#[derive(Clone, Debug)]
pub struct EvidenceDownload {
    /// The file's name, as the `evidence_added` gave it.
    pub file_name: String,
    /// Its media type.
    pub media_type: String,
    /// Its SHA-256 (hex), as recorded.
    pub sha256: String,
    /// Its bytes.
    pub content: Vec<u8>,
}

/// The evidence file of the `evidence_added` at `seq`, for `principal` (the fair-play roles);
/// the download is logged (`evidence`) like every read of a payload.
pub async fn evidence(
    arbitration: &Arbitration,
    game_id: Uuid,
    seq: u64,
    principal: &Principal,
) -> Result<EvidenceDownload, FairPlayError> {
    game_for(arbitration, game_id, principal).await?;
    let store = arbitration.store();
    let (stored, _) = store.fair_play_events(game_id).await?;
    let item = stored
        .into_iter()
        .find(|s| s.seq == seq)
        .ok_or(FairPlayError::NotFound)?;
    let FairPlayFact::EvidenceAdded {
        file_name,
        media_type,
        sha256: Some(sha256),
        ..
    } = item.payload.record.fact
    else {
        return Err(FairPlayError::NotFound);
    };
    let file = store
        .fair_play_evidence_file(game_id, &sha256)
        .await?
        .ok_or(FairPlayError::NotFound)?;
    store
        .log_fair_play_access(game_id, &[Some(seq)], &principal.recorder(), "evidence")
        .await?;
    Ok(EvidenceDownload {
        file_name,
        media_type,
        sha256,
        content: file.content,
    })
}

/// The access log of the game's fair-play events, for `principal`.
pub async fn access_log(
    arbitration: &Arbitration,
    game_id: Uuid,
    principal: &Principal,
) -> Result<Vec<crate::store::FairPlayAccess>, FairPlayError> {
    game_for(arbitration, game_id, principal).await?;
    Ok(arbitration.store().fair_play_access(game_id).await?)
}

/// Audits the game's fair-play events for `principal`: each sealed payload against the hash
/// in the chain, each evidence file against its recorded SHA-256. The audit is logged.
pub async fn audit(
    arbitration: &Arbitration,
    game_id: Uuid,
    principal: &Principal,
) -> Result<FairPlayAudit, FairPlayError> {
    game_for(arbitration, game_id, principal).await?;
    let store = arbitration.store();
    let (events, faults) = seal_faults(store, game_id).await?;
    store
        .log_fair_play_access(game_id, &[None], &principal.recorder(), "audit")
        .await?;
    Ok(FairPlayAudit {
        game_id,
        events,
        intact: faults.is_empty(),
        faults,
    })
}

/// One fair-play event in the chief arbiter's report.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ReportEntry {
    /// The game.
    pub game_id: Uuid,
    /// Its round.
    pub round: String,
    /// Its board.
    pub board: Option<u32>,
    /// White's name as the pairing gives it.
    pub white: String,
    /// Black's name as the pairing gives it.
    pub black: String,
    /// The event's place in the game's log.
    pub seq: u64,
    /// When it was stored.
    pub recorded_at: DateTime<Utc>,
    /// Who recorded it.
    pub recorded_by: String,
    /// The payload.
    pub payload: SealedPayload,
}

/// Whether the report is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReportStatus {
    /// The event sets no deadline (or no last day).
    NoDeadline,
    /// Due on `deadline`, not passed.
    Due,
    /// The deadline has passed.
    Overdue,
}

/// The measures in force at the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MeasuresInForce {
    /// Devices allowed in a player's bag, completely switched off (11.3.2.1).
    pub bags_allowed: bool,
    /// Pens banned in the playing area by the regulations.
    #[serde(default)]
    pub pens_banned: bool,
    /// Watches banned in the playing area by the regulations.
    #[serde(default)]
    pub watches_banned: bool,
    /// The less severe penalty the regulations specify for a device on the person
    /// (11.3.2.2), and its article.
    pub lesser_penalty: Option<PenaltyArticle>,
    /// The broadcast delay last set, in minutes.
    pub broadcast_delay_minutes: Option<u32>,
    /// Whether entry scans were recorded.
    pub entry_scans: bool,
    /// Whether random checks were recorded.
    pub random_checks: bool,
}

/// A 12.9 option with its article.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PenaltyArticle {
    /// The option.
    pub penalty: crate::game::fair_play::PenaltyOption,
    /// Its article (`12.9.1`).
    pub article: String,
}

/// The chief arbiter's fair-play report of an event, built from its games' fair-play events.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct FairPlayReport {
    /// The event (tournament).
    pub event: String,
    /// The edition of the Laws.
    pub laws_edition: crate::game::event::LawsEdition,
    /// What 12.2.7 calls the rules the arbiter follows in that edition.
    pub fair_play_rules: String,
    /// When the report is due: the event's last day plus its `fair_play_report_days`.
    pub deadline: Option<chrono::NaiveDate>,
    /// Due or overdue, as of `as_of`.
    pub status: ReportStatus,
    /// The day the status was judged on.
    pub as_of: chrono::NaiveDate,
    /// The measures in force.
    pub measures: MeasuresInForce,
    /// The checks and inspections.
    pub checks: crate::game::fair_play::CheckCounts,
    /// The incidents with their rulings (devices found, refused inspections, confirmed
    /// proposals).
    pub incidents: Vec<ReportEntry>,
    /// The complaints, as on FIDE's complaint form.
    pub complaints: Vec<ReportEntry>,
    /// The referrals to the Fair Play panel.
    pub referrals: Vec<ReportEntry>,
    /// Every fair-play event of the event, by game and `seq`.
    pub events: Vec<ReportEntry>,
}

/// When the fair-play report is due: the event's last day plus the regulations' days.
pub fn report_deadline(
    ends_on: Option<chrono::NaiveDate>,
    days: Option<u32>,
) -> Option<chrono::NaiveDate> {
    ends_on
        .zip(days)
        .map(|(end, days)| end + chrono::Days::new(u64::from(days)))
}

/// The status of a report due on `deadline`, as of `today`.
pub fn report_status(
    deadline: Option<chrono::NaiveDate>,
    today: chrono::NaiveDate,
) -> ReportStatus {
    match deadline {
        None => ReportStatus::NoDeadline,
        Some(deadline) if today > deadline => ReportStatus::Overdue,
        Some(_) => ReportStatus::Due,
    }
}

/// The chief arbiter's fair-play report of `event`, for `principal` (404 without the
/// capability for the event), as of `today`. The read of every event it holds is logged.
pub async fn report(
    arbitration: &Arbitration,
    event: &str,
    principal: &Principal,
    today: chrono::NaiveDate,
) -> Result<FairPlayReport, FairPlayError> {
    principal
        .fair_play_for(event)
        .ok_or(FairPlayError::NotFound)?;
    let store = arbitration.store();
    let tournament = store.tournament_named(event).await?;
    let games = store.event_games(event).await?;
    if tournament.is_none() && games.is_empty() {
        return Err(FairPlayError::NotFound);
    }
    let mut entries = Vec::new();
    let mut settings = tournament
        .as_ref()
        .map(|t| (t.settings.laws_edition, t.settings.regulations.clone()));
    for game in &games {
        let (stored, _) = store.fair_play_events(game.game_id).await?;
        if stored.is_empty() {
            continue;
        }
        if settings.is_none() {
            let (state, _) = arbitration.state_at(game.game_id, None).await?;
            settings = Some((
                state.settings().laws_edition,
                state.settings().regulations.clone(),
            ));
        }
        let seqs: Vec<Option<u64>> = stored.iter().map(|s| Some(s.seq)).collect();
        store
            .log_fair_play_access(game.game_id, &seqs, &principal.recorder(), "report")
            .await?;
        entries.extend(stored.into_iter().map(|s| ReportEntry {
            game_id: game.game_id,
            round: game.round.clone(),
            board: game.board,
            white: game.white.clone(),
            black: game.black.clone(),
            seq: s.seq,
            recorded_at: s.recorded_at,
            recorded_by: s.recorded_by,
            payload: s.payload,
        }));
    }
    let (edition, regulations) = settings.unwrap_or_default();
    let records = || entries.iter().map(|e| &e.payload.record);
    let checks = crate::game::fair_play::count_checks(records());
    let deadline = report_deadline(
        tournament.as_ref().and_then(|t| t.settings.ends_on),
        regulations.fair_play_report_days,
    );
    let devices = regulations.electronic_devices;
    let of_kind = |kinds: &[&str]| -> Vec<ReportEntry> {
        entries
            .iter()
            .filter(|e| kinds.contains(&e.payload.record.fact.type_name()))
            .cloned()
            .collect()
    };
    Ok(FairPlayReport {
        event: event.to_string(),
        laws_edition: edition,
        fair_play_rules: crate::rules::electronic_devices::fair_play_rules_name(edition).into(),
        deadline,
        status: report_status(deadline, today),
        as_of: today,
        measures: MeasuresInForce {
            bags_allowed: devices.bags_allowed,
            pens_banned: devices.pens_banned,
            watches_banned: devices.watches_banned,
            lesser_penalty: devices.lesser_penalty.map(|penalty| PenaltyArticle {
                penalty,
                article: penalty.article(edition),
            }),
            broadcast_delay_minutes: crate::game::fair_play::broadcast_delay(records()),
            entry_scans: checks.entry_scans > 0,
            random_checks: checks.random_checks > 0,
        },
        checks,
        incidents: entries
            .iter()
            .filter(|e| e.payload.ruling.is_some())
            .cloned()
            .collect(),
        complaints: of_kind(&["complaint_lodged"]),
        referrals: of_kind(&["referred_to_fpl"]),
        events: entries,
    })
}

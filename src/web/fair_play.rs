//! The chief arbiter's fair-play report, printable (issue 23): the page face of
//! `crate::app::fair_play::report`, for holders of the `fair_play` capability only (any other
//! viewer is told there is no such page). The back office's print stylesheet prints it; the
//! same report is exported as JSON at `GET /v1/tournaments/{id}/fair-play-report`.

use super::error::WebError;
use super::fair_play_forms::{self as forms, FairPlayForm};
use super::layout::{self, Nav};
use super::viewer::Viewer;
use crate::app::fair_play::{self, FairPlayError, ReportEntry, ReportStatus};
use crate::game::fair_play::FairPlayFact;
use crate::game::narration::Narrator;
use crate::state::AppState;
use crate::store::StoreError;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;

/// The event of the report.
#[derive(Debug, Deserialize)]
pub struct FairPlayQuery {
    /// The event's name.
    pub event: Option<String>,
}

/// Which form the fair-play desk shows.
#[derive(Debug, Deserialize)]
pub struct DeskQuery {
    /// The form's key (`device_found`, `evidence`, ...; see `super::fair_play_forms::FORMS`).
    pub form: Option<String>,
}

fn not_found() -> WebError {
    WebError::NotFound("There is no such page.".into())
}

fn where_(entry: &ReportEntry) -> String {
    format!(
        "{}.{}",
        entry.round,
        entry.board.map(|b| b.to_string()).unwrap_or_default()
    )
}

/// The player an entry concerns, by name and colour (`Carlsen (White)`).
fn player(entry: &ReportEntry) -> String {
    entry
        .payload
        .record
        .player
        .map(|side| Narrator::with_names(&entry.white, &entry.black).player_and_colour(side))
        .unwrap_or_default()
}

/// A fair-play fact's kind in words (`device_found` → `Device found`).
fn fact_words(fact: &FairPlayFact) -> String {
    let words = fact.type_name().replace('_', " ");
    let mut chars = words.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn complaint_form(entry: &ReportEntry) -> Markup {
    let FairPlayFact::ComplaintLodged {
        stage,
        complainant,
        respondent,
        facts,
        attachments,
        signed_at,
    } = &entry.payload.record.fact
    else {
        return html! {};
    };
    let party = |p: &Option<crate::game::fair_play::Party>| match p {
        Some(p) => format!(
            "{}{}",
            p.name,
            p.fide_id
                .map(|id| format!(" (FIDE ID {id})"))
                .unwrap_or_default()
        ),
        None => String::new(),
    };
    html! {
        section.panel.complaint {
            h3 { "Complaint — board " (where_(entry)) ", event " (entry.seq) }
            table.facts {
                tr { th { "Stage" } td { (layout::words(&layout::wire_name(stage))) } }
                tr { th { "Complainant" } td { (party(complainant)) } }
                tr { th { "Respondent" } td { (party(respondent)) } }
                tr { th { "Facts" } td { (facts.as_deref().unwrap_or("")) } }
                tr { th { "Attachments" } td { (attachments.join(", ")) } }
                tr { th { "Signed" } td { (signed_at.map(layout::timestamp).unwrap_or_default()) } }
                tr { th { "Received by" } td { (entry.payload.record.arbiter) } }
            }
        }
    }
}

/// `GET /office/fair-play?event=`: the chief arbiter's fair-play report, printable.
pub async fn report(
    state: web::Data<AppState>,
    viewer: Viewer,
    reads: crate::request::Reads,
    query: web::Query<FairPlayQuery>,
) -> Result<HttpResponse, WebError> {
    let event = query
        .event
        .as_deref()
        .filter(|e| !e.is_empty())
        .ok_or_else(not_found)?;
    if viewer.principal.fair_play.is_none() {
        return Err(not_found());
    }
    let report = fair_play::report(
        &state.arbitration,
        event,
        &viewer.principal,
        chrono::Utc::now().date_naive(),
    )
    .await
    .map_err(|e| match e {
        FairPlayError::NotFound => not_found(),
        FairPlayError::Store(e) => e.into(),
        FairPlayError::Record(e) => e.into(),
        FairPlayError::Denied(e) => e.into(),
        FairPlayError::Field(e) => WebError::BadRequest(e.message),
    })?;
    let status = match report.status {
        ReportStatus::NoDeadline => "no deadline set".to_string(),
        ReportStatus::Due => format!(
            "due by {}",
            report.deadline.map(|d| d.to_string()).unwrap_or_default()
        ),
        ReportStatus::Overdue => format!(
            "OVERDUE since {}",
            report.deadline.map(|d| d.to_string()).unwrap_or_default()
        ),
    };
    let hall = layout::HallTime::of(reads.tournament_named(event).await?.as_ref());
    let m = &report.measures;
    let c = &report.checks;
    let body = html! {
        h1 { "Fair-play report" }
        p.facts { strong { (report.event) } " · Laws of Chess " (layout::wire_name(&report.laws_edition))
            " · 12.2.7: " (report.fair_play_rules) }
        p.facts { "Report " strong { (status) } " (as of " (report.as_of) ")" }
        p.screen-only.head-links { button.print type="button" data-print="" { "Print" } }
        section.panel {
            h2 { "Measures in force" }
            ul {
                li { "Devices in a player's bag, switched off (11.3.2.1): " (if m.bags_allowed { "allowed" } else { "not allowed" }) }
                li { "Pens in the playing area: " (if m.pens_banned { "banned" } else { "not banned" }) "; watches: " (if m.watches_banned { "banned" } else { "not banned" }) }
                li { "Device on the person (11.3.2.2): "
                    @match &m.lesser_penalty {
                        Some(p) => { "the regulations' lesser penalty, " (p.article) }
                        None => { "loss of the game" }
                    }
                }
                li { "Broadcast delay: " @match m.broadcast_delay_minutes { Some(min) => { (min) " minutes" } None => { "none recorded" } } }
                li { "Entry scans: " (if m.entry_scans { "yes" } else { "none recorded" }) "; random checks: " (if m.random_checks { "yes" } else { "none recorded" }) }
            }
        }
        section.panel {
            h2 { "Checks" }
            table.list {
                thead { tr { th { "Entry scans" } th { "Random checks" } th { "Inspections requested" } th { "done" } th { "refused" } th { "Devices found" } th { "Departures" } } }
                tbody { tr { td { (c.entry_scans) } td { (c.random_checks) } td { (c.inspections_requested) } td { (c.inspections_done) } td { (c.inspections_refused) } td { (c.devices_found) } td { (c.departures) } } }
            }
        }
        section.panel {
            h2 { "Incidents and rulings" }
            @if report.incidents.is_empty() { p { "None." } } @else {
                table.list {
                    thead { tr { th { "Board" } th { "Event" } th { "Player" } th { "Fact" } th { "Ruling" } th { "Article" } th { "Reason" } } }
                    tbody {
                        @for e in &report.incidents {
                            @let ruling = e.payload.ruling.as_ref();
                            tr {
                                td { (where_(e)) } td { (e.seq) } td { (player(e)) }
                                td { (fact_words(&e.payload.record.fact)) }
                                td { (ruling.map(|r| layout::words(&layout::wire_name(&r.outcome))).unwrap_or_default()) }
                                td { (ruling.map(|r| r.article.clone()).unwrap_or_default())
                                     @if let Some(a) = ruling.and_then(|r| r.penalty_article.clone()) { ", " (a) } }
                                td { (ruling.map(|r| r.reason.clone()).unwrap_or_default()) }
                            }
                        }
                    }
                }
            }
        }
        section {
            h2 { "Complaints" }
            @if report.complaints.is_empty() { p { "None." } }
            @for e in &report.complaints { (complaint_form(e)) }
        }
        section.panel {
            h2 { "Referrals to the Fair Play panel" }
            @if report.referrals.is_empty() { p { "None." } } @else {
                ul { @for e in &report.referrals {
                    li { "Board " (where_(e)) ", event " (e.seq) ": "
                        @if let FairPlayFact::ReferredToFpl { reason } = &e.payload.record.fact { (reason) } }
                } }
            }
        }
        section.panel {
            h2 { "Every fair-play event" }
            table.list {
                thead { tr { th { "Board" } th { "Event" } th { (hall.heading()) } th { "Arbiter" } th { "Player" } th { "Fact" } th { "Article" } th { "Proposal" } } }
                tbody {
                    @for e in &report.events {
                        tr {
                            td { (where_(e)) } td { (e.seq) }
                            td { (hall.timestamp(e.payload.record.at)) }
                            td { (e.payload.record.arbiter) } td { (player(e)) }
                            td { (fact_words(&e.payload.record.fact)) }
                            td { (e.payload.article) }
                            td { (if e.payload.proposal { "FPO proposal" } else { "" }) }
                        }
                    }
                }
            }
        }
    };
    Ok(layout::ok(layout::page(
        "Fair-play report",
        Some(&viewer),
        Nav::Incidents,
        body,
    )))
}

/// The fair-play desk of a game (restricted): its fair-play events (open inspections,
/// complaints, custody, notes, rulings) and the forms to record them. Reading it is logged
/// as a read of every event it shows.
pub async fn desk(
    state: web::Data<AppState>,
    viewer: Viewer,
    id: web::Path<uuid::Uuid>,
    query: web::Query<DeskQuery>,
) -> Result<HttpResponse, WebError> {
    let game_id = id.into_inner();
    if viewer.principal.fair_play.is_none() {
        return Err(not_found());
    }
    let items = fair_play::list(&state.arbitration, game_id, &viewer.principal)
        .await
        .map_err(web_error)?;
    let flash = viewer.flash_for("fair-play");
    let answered: Vec<u64> = items
        .iter()
        .filter_map(|i| match i.payload.record.fact {
            FairPlayFact::InspectionDone { request_seq, .. }
            | FairPlayFact::InspectionRefused { request_seq, .. } => Some(request_seq),
            _ => None,
        })
        .collect();
    let open_requests: Vec<_> = items
        .iter()
        .filter(|i| {
            matches!(
                i.payload.record.fact,
                FairPlayFact::InspectionRequested { .. }
            ) && !answered.contains(&i.seq)
        })
        .collect();
    let seized: Vec<_> = items
        .iter()
        .filter(|i| {
            matches!(
                i.payload.record.fact,
                FairPlayFact::DeviceFound { seized: true, .. }
            )
        })
        .collect();
    let action = format!("{}/fair-play/games/{game_id}", super::PREFIX);
    let evidence_limit = fair_play::evidence_limit(state.limits.body_bytes);
    let csrf = layout::csrf_field(&viewer);
    // One form at a time, chosen above it; a form sent comes back to itself.
    let chosen = forms::chosen(query.form.as_deref());
    let summary = state.store.game(game_id).await?;
    // Times in the venue's time zone, players by name, facts in words.
    let hall = match &summary {
        Some(summary) => layout::HallTime::of(
            state
                .store
                .tournament_named(&summary.settings.event)
                .await?
                .as_ref(),
        ),
        None => layout::HallTime::default(),
    };
    let player_name = |side: Option<crate::rules::side::Side>| -> String {
        match (side, &summary) {
            (Some(side), Some(summary)) => match side {
                crate::rules::side::Side::White => summary.settings.white.name.clone(),
                crate::rules::side::Side::Black => summary.settings.black.name.clone(),
            },
            (Some(side), None) => layout::side_name(side).to_string(),
            (None, _) => String::new(),
        }
    };
    let (white, black) = (
        player_name(Some(crate::rules::side::Side::White)),
        player_name(Some(crate::rules::side::Side::Black)),
    );
    // The inspections requested and not answered, and the seized items, to choose from (a
    // form names an event by choosing it, never by typing its number).
    let request_options = html! {
        @if open_requests.is_empty() { option value="" { "no inspection requested" } }
        @for r in &open_requests {
            option value=(r.seq) { "#" (r.seq) ", " (player_name(r.payload.record.player)) ", " (hall.timestamp(r.payload.record.at)) }
        }
    };
    let item_options = html! {
        @if seized.is_empty() { option value="" { "nothing seized" } }
        @for s in &seized {
            option value=(s.seq) { "#" (s.seq) ", " @if let FairPlayFact::DeviceFound { device, .. } = &s.payload.record.fact { (device) } ", " (player_name(s.payload.record.player)) }
        }
    };
    let body = html! {
        @if let Some(summary) = &summary {
            (super::desk::game_heading(summary))
        }
        h2 { "Fair-play desk" }
        p.facts {
            a href={ (super::PREFIX) "/games/" (game_id) } { "← Back to the game desk" }
            " · only the fair-play roles see this page; every visit is logged."
        }
        @if let Some(flash) = &flash {
            p.flash.(if flash.refused { "refused" } else { "stored" }) { (flash.message) }
        }
        (forms::chooser(game_id, chosen))
        (forms::form(chosen, &forms::FormContext {
            action,
            csrf,
            request_options,
            item_options,
            players: (&white, &black),
            evidence_limit,
        }))
        section.panel {
            h2 { "Open inspections" }
            @if open_requests.is_empty() { p { "None." } }
            ul { @for r in &open_requests { li { "Event " (r.seq) ": " (player_name(r.payload.record.player)) } } }
        }
        section.panel {
            h2 { "Custody of seized items" }
            @if seized.is_empty() { p { "None." } }
            ul { @for s in &seized { li { "Event " (s.seq) ": " @if let FairPlayFact::DeviceFound { device, .. } = &s.payload.record.fact { (device) } } } }
        }
        section.panel {
            h2 { "Events" }
            table.list {
                thead { tr { th { "Event" } th { (hall.heading()) } th { "Arbiter" } th { "Player" } th { "Fact" } th { "Article" } th { "Ruling" } th { "Sealed" } } }
                tbody {
                    @for i in &items {
                        tr {
                            td { (i.seq) }
                            td { (hall.timestamp(i.payload.record.at)) }
                            td { (i.payload.record.arbiter) }
                            td { (player_name(i.payload.record.player)) }
                            td { (fact_words(&i.payload.record.fact))
                                 @if let FairPlayFact::FairPlayNote { text } = &i.payload.record.fact { ": " (text) }
                                 @if let FairPlayFact::ComplaintLodged { facts: Some(facts), .. } = &i.payload.record.fact { ": " (facts) }
                                 @if let FairPlayFact::EvidenceAdded { kind, file_name, sha256, size, .. } = &i.payload.record.fact {
                                     ": " (layout::wire_name(kind)) " " span.evidence-file { (file_name) }
                                     @if let Some(size) = size { " (" (size) " bytes)" }
                                     @if let Some(sha) = sha256 { br; "SHA-256 " code.sha256 { (sha) } }
                                     br; a.evidence-download href={ (super::PREFIX) "/fair-play/games/" (game_id) "/evidence/" (i.seq) } { "Download " (file_name) }
                                 } }
                            td { (i.payload.article) }
                            td { @if let Some(r) = &i.payload.ruling { (outcome_words(r.outcome)) " (" (r.article) "): " (r.reason) }
                                 @if i.payload.proposal { "FPO proposal" } }
                            td { (if i.intact { "intact" } else { "ALTERED" }) }
                        }
                    }
                }
            }
        }
    };
    Ok(layout::ok(layout::page(
        "Fair-play desk",
        Some(&viewer),
        Nav::Incidents,
        body,
    )))
}

/// A ruling's outcome in words.
fn outcome_words(outcome: crate::game::fair_play::RulingOutcome) -> &'static str {
    use crate::game::fair_play::RulingOutcome as O;
    match outcome {
        O::Loss => "Loss",
        O::LesserPenalty => "Lesser penalty",
        O::NoPenalty => "No penalty",
        O::ArbiterChooses => "The arbiter chooses",
        O::ArbiterChose => "The arbiter's choice",
        O::Spectator => "No game ruling (a spectator)",
    }
}

fn web_error(error: FairPlayError) -> WebError {
    match error {
        FairPlayError::NotFound => not_found(),
        FairPlayError::Store(e) => e.into(),
        FairPlayError::Record(e) => e.into(),
        FairPlayError::Denied(e) => e.into(),
        FairPlayError::Field(e) => WebError::BadRequest(e.message),
    }
}

/// The record a desk form describes, as the API's body would carry it.
fn record_from(form: &FairPlayForm, arbiter: &str) -> serde_json::Value {
    use serde_json::{Value, json};
    let text = |value: &Option<String>| value.as_deref().map(|v| Value::String(v.to_string()));
    let number = |value: &Option<String>| {
        value
            .as_deref()
            .and_then(|v| v.parse::<u64>().ok())
            .map(Value::from)
    };
    let checked = |value: &Option<String>| Value::Bool(value.as_deref() == Some("true"));
    let party = |name: &Option<String>, fide_id: &Option<String>| {
        text(name).map(|name| json!({"name": name, "fide_id": number(fide_id)}))
    };
    let kind = form.record_type.as_deref().unwrap_or("");
    let decision = text(&form.decision_penalty).map(|penalty| {
        json!({"penalty": penalty, "reason": text(&form.decision_reason),
               "opponent_score": text(&form.decision_opponent_score),
               "time_ms": form.decision_minutes.as_deref().and_then(|m| m.parse::<u64>().ok())
                   .map(|minutes| minutes.saturating_mul(60_000))})
    });
    let fact = match kind {
        "device_found" => {
            json!({"type": kind, "device": text(&form.device), "location": text(&form.location),
            "found_by": text(&form.found_by), "switched_on": checked(&form.switched_on), "seized": checked(&form.seized),
            "bag_used_without_permission": checked(&form.bag_used_without_permission), "decision": decision})
        }
        "inspection_requested" => json!({"type": kind, "reason": text(&form.reason)}),
        "inspection_done" => json!({"type": kind, "request_seq": number(&form.request_seq),
            "inspector": text(&form.inspector), "same_gender_confirmed": checked(&form.same_gender_confirmed),
            "private_room": checked(&form.private_room), "witness": text(&form.witness), "outcome": text(&form.outcome)}),
        "inspection_refused" => {
            json!({"type": kind, "request_seq": number(&form.request_seq), "decision": decision})
        }
        "complaint_lodged" => json!({"type": kind, "stage": text(&form.stage),
            "complainant": party(&form.complainant_name, &form.complainant_fide_id),
            "respondent": party(&form.respondent_name, &form.respondent_fide_id),
            "facts": text(&form.facts), "signed_at": chrono::Utc::now()}),
        "custody_changed" => {
            json!({"type": kind, "item_seq": number(&form.item_seq), "action": text(&form.action),
            "from": text(&form.from), "to": text(&form.to), "witness": text(&form.witness)})
        }
        "referred_to_fpl" => json!({"type": kind, "reason": text(&form.reason)}),
        "entry_scan" => json!({"type": kind, "result": text(&form.result)}),
        "random_check" => {
            json!({"type": kind, "device": text(&form.device), "result": text(&form.result)})
        }
        "broadcast_delay_set" => json!({"type": kind, "minutes": number(&form.minutes)}),
        _ => json!({"type": kind, "text": text(&form.text)}),
    };
    let mut record = json!({"arbiter": arbiter, "at": chrono::Utc::now(), "fact": fact});
    let about_a_player = !matches!(
        kind,
        "complaint_lodged"
            | "fair_play_note"
            | "custody_changed"
            | "referred_to_fpl"
            | "broadcast_delay_set"
    );
    if let Some(player) = text(&form.player).filter(|_| about_a_player) {
        record["player"] = player;
    }
    record
}

/// `POST /office/fair-play/games/{id}`: records what a desk form describes, through the same
/// service as the API; a refusal names the field in the flash.
pub async fn record(
    state: web::Data<AppState>,
    posted: super::session::Posted<FairPlayForm>,
    id: web::Path<uuid::Uuid>,
) -> Result<HttpResponse, WebError> {
    let super::session::Posted {
        viewer,
        fields,
        form,
    } = posted;
    let game_id = id.into_inner();
    if viewer.principal.fair_play.is_none() {
        return Err(not_found());
    }
    let value = record_from(&form, &viewer.principal.name);
    let decoded: Result<crate::game::fair_play::FairPlayRecord, String> =
        crate::app::commands::decode_at(value, "record").map_err(|e| e.message);
    let placement = fair_play::Placement {
        event_id: form.event_id.as_deref().and_then(|id| id.parse().ok()),
        expected_seq: None,
    };
    let outcome = match decoded {
        Ok(record) => fair_play::record(
            &state.arbitration,
            game_id,
            &viewer.principal,
            record,
            placement,
        )
        .await
        .map(|stored| format!("Stored as event {}.", stored.seq))
        .map_err(|e| match e {
            FairPlayError::Field(field) => Ok(format!("{}: {}", field.field, field.message)),
            FairPlayError::Store(StoreError::EventIdReused { seq, .. }) => Ok(format!(
                "this form was stored already, as event {seq}; the desk has been drawn again \
                 with fresh forms."
            )),
            other => Err(web_error(other)),
        }),
        Err(message) => Err(Ok(message)),
    };
    let shown = forms::form_of(form.record_type.as_deref().unwrap_or_default());
    finish(&state, &viewer, game_id, outcome, fields.0, shown).await
}

/// Leaves the flash of a desk form's outcome (stored, refused with a message, or an error
/// page) and sends the viewer back to the desk.
async fn finish(
    state: &AppState,
    viewer: &Viewer,
    game_id: uuid::Uuid,
    outcome: Result<String, Result<String, WebError>>,
    values: std::collections::HashMap<String, String>,
    form: &str,
) -> Result<HttpResponse, WebError> {
    let flash = match outcome {
        Ok(message) => super::session::Flash {
            form: "fair-play".into(),
            refused: false,
            message,
            ..Default::default()
        },
        Err(Ok(message)) => super::session::Flash {
            form: "fair-play".into(),
            refused: true,
            message: format!("Nothing was stored: {message}"),
            values,
            code: None,
        },
        Err(Err(error)) => return Err(error),
    };
    super::session::leave_flash(state, viewer, &flash).await?;
    let back = forms::desk_link(game_id, form);
    Ok(layout::see_other(&layout::after_write(state, &back).await))
}

/// An evidence upload as read: its text fields, and the file with its name and media type.
#[derive(Default)]
struct Upload {
    fields: std::collections::HashMap<String, String>,
    file: Option<(String, String, Vec<u8>)>,
}

/// Reads an evidence upload, stopping at a file larger than `limit` bytes as soon as it is:
/// what was read (the form's token comes first) and, then, why it stopped.
async fn read_upload(
    mut multipart: actix_multipart::Multipart,
    limit: usize,
) -> (Upload, Option<String>) {
    let mut upload = Upload::default();
    let stopped = read_upload_into(&mut multipart, limit, &mut upload)
        .await
        .err();
    (upload, stopped)
}

/// [`read_upload`]'s loop.
async fn read_upload_into(
    multipart: &mut actix_multipart::Multipart,
    limit: usize,
    upload: &mut Upload,
) -> Result<(), String> {
    use futures_util::TryStreamExt;
    let unreadable = |e: actix_multipart::MultipartError| format!("The form cannot be read: {e}.");
    while let Some(mut field) = multipart.try_next().await.map_err(unreadable)? {
        let name = field.name().unwrap_or_default().to_string();
        let file_name = field
            .content_disposition()
            .and_then(|d| d.get_filename())
            .map(str::to_owned);
        let media_type = field
            .content_type()
            .map(|m| m.essence_str().to_string())
            .unwrap_or_else(|| "application/octet-stream".into());
        let mut bytes = Vec::new();
        while let Some(chunk) = field.try_next().await.map_err(unreadable)? {
            // The text fields are small; the file is held to the API's limit.
            if bytes.len() + chunk.len() > limit {
                return Err(format!(
                    "The file is larger than {} KiB, the most the service takes as evidence \
                     (the same as through the API). Send a smaller file: a photo at a lower \
                     resolution, or the scanner log's relevant part.",
                    limit / 1024
                ));
            }
            bytes.extend_from_slice(&chunk);
        }
        match file_name {
            Some(file_name) if name == "file" => {
                upload.file = Some((file_name, media_type, bytes));
            }
            _ => {
                upload
                    .fields
                    .insert(name, String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    }
    Ok(())
}

/// `GET /office/fair-play/games/{id}/evidence/{seq}`: the evidence file of the
/// `evidence_added` at `seq`, as stored, for the fair-play roles; logged like the API's
/// download (`evidence`).
pub async fn download_evidence(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(uuid::Uuid, u64)>,
) -> Result<HttpResponse, WebError> {
    let (game_id, seq) = path.into_inner();
    if viewer.principal.fair_play.is_none() {
        return Err(not_found());
    }
    let file = fair_play::evidence(&state.arbitration, game_id, seq, &viewer.principal)
        .await
        .map_err(web_error)?;
    let name: String = file
        .file_name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' {
                c
            } else {
                '_'
            }
        })
        .collect();
    Ok(HttpResponse::Ok()
        .content_type(file.media_type.as_str())
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"{name}\""),
        ))
        .insert_header(("X-Content-SHA256", file.sha256))
        .insert_header(("Cache-Control", "no-store"))
        .body(file.content))
}

/// `POST /office/fair-play/games/{id}/evidence`: uploads an evidence file (a photo, a
/// statement, a scanner log) and records its `evidence_added` through the same service as
/// the API (`content_base64`), held to the same size; the flash gives its SHA-256.
pub async fn upload_evidence(
    state: web::Data<AppState>,
    viewer: Viewer,
    id: web::Path<uuid::Uuid>,
    multipart: actix_multipart::Multipart,
) -> Result<HttpResponse, WebError> {
    use base64::Engine;
    let game_id = id.into_inner();
    if viewer.principal.fair_play.is_none() {
        return Err(not_found());
    }
    let limit = fair_play::evidence_limit(state.limits.body_bytes);
    let (upload, stopped) = read_upload(multipart, limit).await;
    // The form's token comes before the file, so it is read even when the file is refused.
    super::session::check_csrf(
        &viewer,
        upload
            .fields
            .get(super::session::CSRF_FIELD)
            .map(String::as_str),
    )?;
    let upload = match stopped {
        Some(message) => Err(message),
        None => Ok(upload),
    };
    let outcome = match upload {
        Err(message) => Err(Ok(message)),
        Ok(Upload { file: None, .. }) => Err(Ok(
            "Choose the file to upload (a photo, a statement or a scanner log).".to_string(),
        )),
        Ok(Upload {
            file: Some((_, _, bytes)),
            ..
        }) if bytes.is_empty() => Err(Ok(
            "The file chosen is empty; choose the file again.".to_string()
        )),
        Ok(Upload {
            fields,
            file: Some((file_name, media_type, bytes)),
        }) => {
            let kind = fields.get("kind").map(String::as_str).unwrap_or("other");
            let record = serde_json::json!({
                "arbiter": viewer.principal.name,
                "at": chrono::Utc::now(),
                "player": fields.get("player").filter(|p| !p.is_empty()),
                "fact": {"type": "evidence_added", "kind": kind, "file_name": file_name,
                         "media_type": media_type,
                         "content_base64": base64::engine::general_purpose::STANDARD.encode(&bytes)},
            });
            match crate::app::commands::decode_at(record, "record") {
                Err(e) => Err(Ok(e.message)),
                Ok(record) => fair_play::record(
                    &state.arbitration,
                    game_id,
                    &viewer.principal,
                    record,
                    fair_play::Placement::default(),
                )
                .await
                .map(|stored| match &stored.payload.record.fact {
                    FairPlayFact::EvidenceAdded {
                        file_name,
                        sha256,
                        size,
                        ..
                    } => format!(
                        "Stored as event {}: {file_name}, {} bytes, SHA-256 {}.",
                        stored.seq,
                        size.unwrap_or_default(),
                        sha256.as_deref().unwrap_or_default()
                    ),
                    _ => format!("Stored as event {}.", stored.seq),
                })
                .map_err(|e| match e {
                    FairPlayError::Field(field) => {
                        Ok(format!("{}: {}", field.field, field.message))
                    }
                    other => Err(web_error(other)),
                }),
            }
        }
    };
    finish(
        &state,
        &viewer,
        game_id,
        outcome,
        Default::default(),
        "evidence",
    )
    .await
}

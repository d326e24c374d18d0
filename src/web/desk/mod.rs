//! The game desk: one game as the arbiter handles it. The diagram, the scoresheet with `(=)`
//! marks and clock times, the full timeline (who recorded what, when, and the hash chain),
//! forms for every event of the vocabulary, and the engine's answer to what was just recorded
//! as an arbiter reads it: the ruling, its article, the evidence (the occurrences of a
//! repeated position side by side, the 50-move count), the penalty — or the refusal and what
//! to record instead, in which case nothing was stored and the form keeps what was typed.
//!
//! Recording follows post/redirect/get: the form posts, the engine judges it through
//! [`crate::app::arbitration::Arbitration::record`], and the browser is sent back to the desk,
//! which shows the answer (`?recorded=FIRST-LAST`) or the refusal (left in the session).
//! Every form carries the `seq` the page was drawn at (`expected_seq`) and fresh event ids,
//! so a form sent twice is stored once, and a form drawn before someone else recorded is
//! refused with the values kept.

use super::PREFIX;
use super::error::WebError;
use super::layout::{self, Nav};
use super::session::{Fields, Flash, Posted, Viewer, leave_flash};
use crate::app::arbitration::RecordError;
use crate::game::Game;
use crate::game::board_status::board_status;
use crate::game::event::{ArbiterRuling, Event, RecordedEvent};
use crate::game::narration::Narrator;
use crate::game::view::GameStatus;
use crate::request::Reads;
use crate::state::AppState;
use crate::store::{EventEnvelope, GameSummary, NewEvent, Store, StoreError};
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;
use std::collections::HashSet;
use uuid::Uuid;

mod command;
mod decision;
mod record_forms;
mod scoresheet;

pub use command::{DeskCommand, DeskForm};
use decision::{answer_panel, follows};
pub use decision::{
    claim_kind_article, decision_panel, describe, diagram, occurrence_sheet, unbroken_results,
};
use record_forms::{FormFrame, record_forms, refusal_panel, undo_panel};
pub use record_forms::{arbiter_rulings, confirm_form};
use scoresheet::{position_facts, scoresheet, timeline};

/// What the desk shows.
#[derive(Debug, Deserialize)]
pub struct DeskQuery {
    /// Time travel: the game as it stood after this event (read-only).
    pub at_seq: Option<u64>,
    /// The events just recorded (`FIRST-LAST`), whose answer is shown.
    pub recorded: Option<String>,
}

/// The game, its state at `at_seq` (or now), its log up to there and the standing events.
pub struct Loaded {
    /// The game as listed.
    pub summary: GameSummary,
    /// The folded game.
    pub game: Game,
    /// The `seq` it was folded to.
    pub seq: u64,
    /// The log up to `seq`.
    pub log: Vec<EventEnvelope>,
}

/// Loads a game for a page, reading through `reads` (the read replica when one is
/// configured).
pub async fn load(
    state: &AppState,
    reads: &Store,
    game_id: Uuid,
    at_seq: Option<u64>,
) -> Result<Loaded, WebError> {
    let summary = reads
        .game(game_id)
        .await?
        .ok_or(StoreError::GameNotFound(game_id))?;
    let (game, seq) = state
        .arbitration
        .state_at_on(reads, game_id, at_seq)
        .await?;
    let log = reads.read_events(game_id, 0, Some(seq), None).await?;
    Ok(Loaded {
        summary,
        game,
        seq,
        log,
    })
}

/// The heading of a game's pages.
pub fn game_heading(summary: &GameSummary) -> Markup {
    let s = &summary.settings;
    html! {
        div.page-head.game-head {
            h1 {
                span.player { (s.white.name) } " – " span.player { (s.black.name) }
            }
            p.facts {
                a href=(layout::round_link("floor", &s.event, Some(&s.round))) { (s.event) ", round " (s.round) }
                @if let Some(board) = s.board { ", board " (board) }
                " · " (super::events::time_control_text(&s.time_control))
                " · Laws " (layout::wire_name(&s.laws_edition))
                " · " a href={ "/v1/games/" (summary.game_id) "/pgn" } { "PGN" }
            }
        }
    }
}

/// `GET /office/games/{id}`: the game desk.
pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    reads: Reads,
    id: web::Path<Uuid>,
    query: web::Query<DeskQuery>,
) -> Result<HttpResponse, WebError> {
    let game_id = id.into_inner();
    let Loaded {
        summary,
        game,
        seq,
        log,
    } = load(&state, &reads, game_id, query.at_seq).await?;
    let view = game.view();
    let status = board_status(&game);
    let standing: HashSet<u64> = game.standing_events().map(|(seq, _)| seq).collect();
    let narrator = Narrator::for_log(log.iter().map(|e| (e.seq, &e.event)));
    let time_travel = query.at_seq.is_some() && seq < summary.last_seq;
    let recorded: Vec<&EventEnvelope> = query
        .recorded
        .as_deref()
        .and_then(|r| r.split_once('-'))
        .and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?)))
        .map(|(first, last)| {
            log.iter()
                .filter(|e| e.seq >= first && e.seq <= last)
                .collect()
        })
        .unwrap_or_default();
    let flash = viewer.flash_for("record");
    let attentions = reads.game_open_attentions(game_id).await?;
    // The venue's clock, as on every sheet of the tournament.
    let hall = layout::HallTime::of(reads.tournament_named(&summary.event).await?.as_ref());
    let frame = FormFrame {
        viewer: &viewer,
        game_id,
        expected_seq: seq,
        kept: flash.as_ref().filter(|f| f.refused),
    };
    let caption = format!(
        "After event #{seq}: {} to move{}",
        layout::side_name(view.side_to_move),
        if view.status == GameStatus::Ended {
            " (game over)"
        } else {
            ""
        }
    );
    let body = html! {
        (game_heading(&summary))
        @if viewer.principal.fair_play_for(&summary.settings.event).is_some() {
            p.links { a.button href={ (PREFIX) "/fair-play/games/" (game_id) } { "Fair-play desk" }
                span.hint { " devices, inspections, entry scans, random checks, evidence (fair-play roles only)" } }
        }
        @if time_travel {
            p.notice.time-travel role="status" {
                "As it stood after event #" (seq) " (the log now ends at #" (summary.last_seq) "). "
                a href={ (PREFIX) "/games/" (game_id) } { "Back to the present" }
            }
        }
        @if !time_travel {
            p.notice #desk-news role="status" hidden {
                "Something was recorded in this game on another device since this page was drawn. "
                a href={ (PREFIX) "/games/" (game_id) } { "Show it" }
                " (send or copy what you typed first: the forms are drawn again)."
            }
        }
        div.desk #desk data-stream=[(!time_travel).then(|| format!("/v1/games/{game_id}/stream"))] data-seq=(seq) {
            div.desk-board {
                (diagram(game_id, seq, 360, &caption))
                (position_facts(&view, &status))
                (super::periods::desk_table(&view, &summary.settings.time_control, summary.settings.laws_edition))
                h2 { "Scoresheet" }
                (scoresheet(&view, &game, &log))
            }
            div.desk-side {
                @if !time_travel { @for attention in &attentions { (super::follow::desk_panel(&viewer, attention, &summary.event, hall)) } }
                @if let Some(flash) = flash.as_ref().filter(|f| f.refused) { (refusal_panel(flash, &frame, &summary.event)) }
                @if !recorded.is_empty() { (answer_panel(game_id, &recorded, follows(&game, &view, &recorded), &narrator)) }
                (super::periods::discrepancy_panel(&view, summary.settings.laws_edition))
                @if !time_travel {
                    (record_forms(&frame, &view, &summary.event))
                    @if viewer.principal.may_record("correction", &summary.event).is_ok() {
                        (undo_panel(&frame, &crate::app::undo::last_entry(&log, &standing), &narrator))
                    }
                }
            }
        }
        section.panel #timeline {
            h2 { "Timeline" }
            p.hint { "Every event of the log, newest first, with who recorded it and its hash (each hash covers the one before). Follow a number to see the game as it stood then." }
            (timeline(&log, &narrator, &standing, game_id, hall))
        }
    };
    Ok(layout::ok(layout::page(
        &format!("{} – {}", summary.white, summary.black),
        Some(&viewer),
        Nav::Events,
        body,
    )))
}

/// The refusal to leave for the desk, with the values of the form.
fn refused(fields: &Fields, code: Option<&str>, message: String) -> Flash {
    let mut values = fields.0.clone();
    values.remove("expected_seq");
    values.remove("event_id");
    values.remove("event_id_press");
    Flash {
        form: "record".into(),
        refused: true,
        message,
        values,
        code: code.map(str::to_owned),
    }
}

/// What the clock's or the board's evidence holds against recording `events` after
/// `expected_seq` (an end of the game: a flag, a resignation, a result), for the arbiter to
/// confirm; `None` when nothing does, or when the form was drawn before the log's end (the
/// engine then refuses the stale form anyway).
async fn doubt_of(
    state: &AppState,
    game_id: Uuid,
    expected_seq: u64,
    events: &[NewEvent],
) -> Result<Option<String>, WebError> {
    let recorded: Vec<RecordedEvent> = events
        .iter()
        .filter_map(|new| match &new.event {
            Event::Recorded(recorded) => Some(recorded.clone()),
            Event::Service(_) => None,
        })
        .collect();
    let ends = recorded.iter().any(|event| {
        matches!(
            event,
            RecordedEvent::Flag { .. }
                | RecordedEvent::Resign { .. }
                | RecordedEvent::ArbiterDecision {
                    decision: ArbiterRuling::GameEnded,
                    ..
                }
        )
    });
    if !ends {
        return Ok(None);
    }
    let Loaded { game, seq, log, .. } = load(state, &state.store, game_id, None).await?;
    if seq != expected_seq {
        return Ok(None);
    }
    Ok(crate::app::confirmations::doubt(
        &game,
        &log,
        &recorded,
        chrono::Utc::now(),
    ))
}

/// Leaves a refusal for the page at `location` and sends the browser there.
async fn refuse(
    state: &AppState,
    viewer: &Viewer,
    flash: Flash,
    location: &str,
) -> Result<HttpResponse, WebError> {
    leave_flash(state, viewer, &flash).await?;
    Ok(layout::see_other(location))
}

/// `POST /office/games/{id}/record`: judges and records the form's events.
pub async fn record(
    state: web::Data<AppState>,
    posted: Posted<DeskForm>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, WebError> {
    let Posted {
        viewer,
        fields,
        form,
    } = posted;
    let game_id = id.into_inner();
    let summary = state
        .store
        .game(game_id)
        .await?
        .ok_or(StoreError::GameNotFound(game_id))?;
    let desk = format!("{PREFIX}/games/{game_id}");
    let back = layout::local_path(form.return_to.as_deref(), desk.clone());
    let refusal_target = if back == desk {
        format!("{desk}#answer")
    } else {
        back.clone()
    };
    let expected_seq: u64 = form
        .expected_seq
        .as_deref()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| {
            WebError::BadRequest("The form has no expected_seq; open the desk again.".into())
        })?;
    let events = match desk_events(&form, &fields) {
        Ok(events) => events,
        Err(flash) => return refuse(&state, &viewer, *flash, &refusal_target).await,
    };
    if form.confirmed.as_deref() != Some("yes")
        && let Some(doubt) = doubt_of(&state, game_id, expected_seq, &events).await?
    {
        let mut flash = refused(&fields, Some("needs_confirmation"), doubt);
        flash.values.insert("game_id".into(), game_id.to_string());
        flash
            .values
            .insert("confirm_seq".into(), expected_seq.to_string());
        return refuse(&state, &viewer, flash, &refusal_target).await;
    }
    match state
        .arbitration
        .record_checked(game_id, expected_seq, events, &viewer.principal)
        .await
    {
        Ok(appended) if back == desk => {
            let seq_of = |e: Option<&EventEnvelope>| e.map_or(expected_seq, |e| e.seq);
            let first = seq_of(appended.envelopes.first());
            let last = seq_of(appended.envelopes.last());
            let location = format!("{desk}?recorded={first}-{last}#answer");
            Ok(layout::see_other(
                &layout::after_write(&state, &location).await,
            ))
        }
        Ok(appended) => {
            // A quick form of another page (the floor): back there, with what was recorded.
            let message = appended
                .envelopes
                .iter()
                .map(|e| Narrator::default().sentence(None, &e.event))
                .collect::<Vec<_>>()
                .join(" · ");
            let board = summary.board.map(|b| b.to_string()).unwrap_or_default();
            let flash = Flash {
                form: "record".into(),
                refused: false,
                message: format!("Board {board}: {message}"),
                ..Flash::default()
            };
            leave_flash(&state, &viewer, &flash).await?;
            Ok(layout::see_other(&layout::after_write(&state, &back).await))
        }
        Err(error) => {
            let flash = refusal_of(&fields, expected_seq, error)?;
            refuse(&state, &viewer, flash, &refusal_target).await
        }
    }
}

/// The events a desk form records, checked as the API checks them; or the refusal that
/// says what to fix, keeping what was typed.
fn desk_events(form: &DeskForm, fields: &Fields) -> Result<Vec<NewEvent>, Box<Flash>> {
    let command =
        DeskCommand::read(form).map_err(|message| Box::new(refused(fields, None, message)))?;
    command.events(form.event_id.clone()).map_err(|problem| {
        Box::new(refused(
            fields,
            Some(problem.code.as_str()),
            problem.message,
        ))
    })
}

/// What the arbiter is told when the engine or the log refused a desk form; an error of
/// another kind is not the arbiter's to fix and goes on as an error.
fn refusal_of(fields: &Fields, expected_seq: u64, error: RecordError) -> Result<Flash, WebError> {
    match error {
        RecordError::Refused { refusal, .. } => Ok(refused(
            fields,
            Some(refusal.code().as_str()),
            refusal.message().to_string(),
        )),
        RecordError::Store(StoreError::StaleSeq { current, .. }) => Ok(refused(
            fields,
            Some("stale_seq"),
            format!(
                "Someone recorded in this game while the form was open (the log now ends at \
                 #{current}, the form was drawn at #{expected_seq}). Check the timeline, then \
                 send the form again if it still applies."
            ),
        )),
        RecordError::Store(StoreError::EventIdReused { seq, .. }) => Ok(refused(
            fields,
            Some("event_id_reused"),
            format!(
                "This form was already used for event #{seq}; the desk has been drawn again \
                 with fresh forms."
            ),
        )),
        other => Err(other.into()),
    }
}

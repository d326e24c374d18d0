//! Events: the list of tournaments and of events known only from their games, a tournament's
//! page with its settings and rounds, setting a tournament up, and loading a round's pairings
//! (entered on the screen, or a CSV or TRF-16 file).

use super::PREFIX;
use super::error::WebError;
use super::layout::{self, Nav};
use super::session::{Fields, Flash, Posted, Viewer, leave_flash};
use crate::app::trf;
use crate::request::Reads;
use crate::rules::time_control::Preset;
use crate::state::AppState;
use crate::store::EventRound;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use uuid::Uuid;

mod load_round;
mod tournament_form;

pub use load_round::load_round;
use load_round::tournament_or_404;
pub(super) use tournament_form::edition_text;
use tournament_form::{TournamentForm, settings_from, tournament_form, values_of};
pub use tournament_form::{clock_behaviour_text, regulations_text, time_control_text};

fn round_chips(event: &str, rounds: &[&EventRound]) -> Markup {
    html! {
        ul.chips {
            @for round in rounds {
                li {
                    a href=(layout::round_link("floor", event, Some(&round.round))) {
                        "Round " (round.round)
                        span.count { (round.ended) " of " (round.games) " ended" }
                    }
                }
            }
        }
    }
}

/// `GET /office/`: the events.
pub async fn home(viewer: Viewer, reads: Reads) -> Result<HttpResponse, WebError> {
    let tournaments = reads.tournaments().await?;
    let rounds = reads.event_rounds().await?;
    let rounds_of =
        |event: &str| -> Vec<&EventRound> { rounds.iter().filter(|r| r.event == event).collect() };
    let mut others: Vec<&str> = rounds
        .iter()
        .map(|r| r.event.as_str())
        .filter(|e| !tournaments.iter().any(|t| t.settings.name == *e))
        .collect();
    others.dedup();
    let body = html! {
        div.page-head {
            h1 { "Events" }
            @if viewer.is_arbiter() {
                a.button.primary href={ (PREFIX) "/events/new" } accesskey="n" { "New tournament" }
            }
        }
        @if tournaments.is_empty() && others.is_empty() {
            section.panel {
                p { "No event yet. " @if viewer.is_arbiter() { "Set up a tournament, then load its first round." } }
            }
        }
        div.cards {
            @for t in &tournaments {
                section.panel.card {
                    h2 { a href={ (PREFIX) "/events/" (t.tournament_id) } { (t.settings.name) } }
                    p.facts {
                        @if let Some(site) = &t.settings.site { (site) " · " }
                        @if let Some(start) = t.settings.starts_on { (start) }
                        @if let Some(end) = t.settings.ends_on { " – " (end) }
                    }
                    p.facts { (time_control_text(&t.settings.time_control)) " · " (edition_text(t.settings.laws_edition)) }
                    @let these = rounds_of(&t.settings.name);
                    @if these.is_empty() {
                        p.hint { "No round loaded yet." }
                    } @else {
                        (round_chips(&t.settings.name, &these))
                    }
                }
            }
            @for event in &others {
                section.panel.card {
                    h2 { (event) }
                    p.hint { "Games created through the API, without a tournament record." }
                    (round_chips(event, &rounds_of(event)))
                }
            }
        }
    };
    Ok(layout::ok(layout::page(
        "Events",
        Some(&viewer),
        Nav::Events,
        body,
    )))
}

fn refusal(message: &str) -> Markup {
    html! { p.refusal role="alert" { (message) } }
}

fn new_page(viewer: &Viewer, values: &TournamentForm, problem: Option<&str>) -> Markup {
    let body = html! {
        h1 { "New tournament" }
        section.panel {
            p.hint { "Games of its rounds take these settings; each game records them in its first event, so a later change applies only to games created afterwards." }
            @if let Some(problem) = problem { (refusal(problem)) }
            (tournament_form(viewer, &format!("{PREFIX}/events"), values, false, "Create the tournament"))
        }
    };
    layout::page("New tournament", Some(viewer), Nav::Events, body)
}

/// `GET /office/events/new`.
pub async fn new_form(viewer: Viewer) -> Result<HttpResponse, WebError> {
    if !viewer.is_arbiter() {
        return Err(WebError::Forbidden(format!(
            "Setting up a tournament needs an arbiter token; you are signed in as {}.",
            layout::role_name(viewer.principal.role)
        )));
    }
    // The form opens on the control of most FIDE-rated standard play, 90 minutes for 40
    // moves then 30 minutes, 30 seconds a move from move 1: the one-period form with its own
    // numbers is a choice to make, never a default one click away from the usual control.
    let values = TournamentForm {
        tc_form: Some(layout::wire_name(&Preset::FideStandard)),
        ..TournamentForm::default()
    };
    Ok(layout::ok(new_page(&viewer, &values, None)))
}

/// `POST /office/events`: creates a tournament.
pub async fn create(
    state: web::Data<AppState>,
    posted: Posted<TournamentForm>,
) -> Result<HttpResponse, WebError> {
    let Posted { viewer, form, .. } = posted;
    let refuse = |message: String| {
        layout::html_response(
            StatusCode::UNPROCESSABLE_ENTITY,
            new_page(&viewer, &form, Some(&message)),
        )
    };
    let settings = match settings_from(&form) {
        Ok(settings) => settings,
        Err(message) => return Ok(refuse(message)),
    };
    if let Err(problem) = settings.validate() {
        return Ok(refuse(problem.message));
    }
    viewer.principal.may_create_game(&settings.name)?;
    match state
        .store
        .create_tournament(&settings, &viewer.principal.recorder())
        .await
    {
        Ok(created) => {
            let location = format!("{PREFIX}/events/{}", created.tournament_id);
            Ok(layout::see_other(
                &layout::after_write(&state, &location).await,
            ))
        }
        Err(crate::store::StoreError::TournamentNameTaken(name)) => Ok(refuse(format!(
            "A tournament named `{name}` exists already: choose another name (e.g. with the \
             year), or open the existing one from the events page."
        ))),
        Err(other) => Err(other.into()),
    }
}

/// `GET /office/events/{id}`: a tournament's settings and rounds.
pub async fn show(
    viewer: Viewer,
    reads: Reads,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, WebError> {
    let tournament = tournament_or_404(&reads, id.into_inner()).await?;
    let rounds: Vec<EventRound> = reads
        .event_rounds()
        .await?
        .into_iter()
        .filter(|r| r.event == tournament.settings.name)
        .collect();
    let flash = viewer.flash();
    let settings = &tournament.settings;
    let may_write = viewer.is_arbiter() && viewer.principal.may_create_game(&settings.name).is_ok();
    let load_flash = flash.as_ref().filter(|f| f.form == "load-round");
    // A refused change is drawn again as it was sent, open, with why; a saved one is told
    // above the page and the form shows what is stored.
    let settings_refused = flash.as_ref().filter(|f| f.form == "settings" && f.refused);
    let refused_values: Option<TournamentForm> = settings_refused
        .map(|f| Fields(f.values.clone()).decode())
        .transpose()?;
    let next_round = rounds
        .iter()
        .filter_map(|r| r.round.parse::<u32>().ok())
        .max()
        .map(|n| n + 1)
        .unwrap_or(1);
    let unfinished: Vec<String> = rounds
        .iter()
        .filter(|r| r.ended < r.games)
        .map(|r| format!("round {}: {} of {}", r.round, r.games - r.ended, r.games))
        .collect();
    let undecided = trf::undecided_appeals(&reads, &tournament).await?;
    let log = reads.tournament_log(tournament.tournament_id).await?;
    let due_on = trf::report_due_on(&tournament);
    let today = chrono::Utc::now().date_naive();
    let body = html! {
        div.page-head {
            h1 { (settings.name) }
        }
        @if let Some(flash) = flash.as_ref().filter(|f| !f.refused && f.form != "fair-play-measures" && f.form != super::appeals_procedure::FORM) {
            p.notice role="status" { (flash.message) }
        }
        div.columns {
            section.panel {
                h2 { "Settings" }
                dl.facts {
                    dt { "Site" } dd { (settings.site.as_deref().unwrap_or("–")) }
                    dt { "Dates" } dd {
                        (settings.starts_on.map(|d| d.to_string()).unwrap_or_else(|| "–".into()))
                        " – "
                        (settings.ends_on.map(|d| d.to_string()).unwrap_or_else(|| "–".into()))
                    }
                    dt { "Time control" } dd {
                        (time_control_text(&settings.time_control))
                        @if let Some(clocks) = clock_behaviour_text(settings.clock_behaviour) { br; span.hint { (clocks) } }
                    }
                    dt { "Laws" } dd { (edition_text(settings.laws_edition)) }
                    dt { "Regulations" } dd { ul.plain { @for line in regulations_text(&settings.regulations) { li { (line) } } } }
                    dt { "Arbiters" } dd {
                        @if settings.arbiters.is_empty() { "–" }
                        ul.plain { @for arbiter in &settings.arbiters { li { (arbiter) } } }
                    }
                    dt { "Set up by" } dd { (layout::recorder(&tournament.created_by)) }
                }
                @if may_write {
                    details open[settings_refused.is_some()] {
                        summary { "Change the settings" }
                        p.hint { "Applies to games created from now on; games already created keep the settings recorded in their first event." }
                        @if let Some(f) = settings_refused { (refusal(&f.message)) }
                        (tournament_form(&viewer, &format!("{PREFIX}/events/{}", tournament.tournament_id),
                            &refused_values.unwrap_or_else(|| values_of(settings)), true, "Save the settings"))
                    }
                }
            }
            (super::measures::panel(&viewer, &tournament, &rounds))
            (super::appeals_procedure::panel(&viewer, &tournament, may_write))
            section.panel {
                h2 { "Rounds" }
                @if rounds.is_empty() {
                    p.hint { "No round loaded yet." }
                } @else {
                    p.links {
                        "Tournament report (FIDE TRF), for the pairing program and the rating officer: "
                        a.button href={ "/v1/tournaments/" (tournament.tournament_id) "/trf" } download { "TRF-16" } " "
                        a.button href={ "/v1/tournaments/" (tournament.tournament_id) "/trf?version=26" } download { "TRF26" }
                        " "
                        a.button href={ (PREFIX) "/events/" (tournament.tournament_id) "/report" } { "Chief arbiter's report" }
                        " " a.button href={ (PREFIX) "/events/" (tournament.tournament_id) "/standings" } { "Standings" }
                    }
                    div #report-readiness {
                        @match due_on {
                            Some(due) => p class={ "hint" @if today > due && (!unfinished.is_empty() || !undecided.is_empty()) { " overdue" } } {
                                "Due to the rating officer by " strong { (due) } ": within " (trf::REPORT_DAYS)
                                " days after the end of the tournament (FIDE Rating Regulations 9.1)."
                                @if today > due { " That date has passed." }
                            },
                            None => p.hint { "Set the tournament's last day to see when the report is due (7 days after it, FIDE Rating Regulations 9.1)." },
                        }
                        @if unfinished.is_empty() && undecided.is_empty() {
                            p.hint { "Nothing is missing: every game has a result and every appeal is decided." }
                        }
                        @if !unfinished.is_empty() {
                            p.hint #report-missing { "Games without a result yet (blank in the report): " (unfinished.join(", ")) "." }
                        }
                        @if !undecided.is_empty() {
                            p.hint #report-appeals {
                                "Appeals not decided yet (the report carries the result as it stands): "
                                @for (i, appeal) in undecided.iter().enumerate() {
                                    @if i > 0 { ", " }
                                    a href={ (PREFIX) "/games/" (appeal.game_id) "/decisions/" (appeal.against_seq) } {
                                        "round " (appeal.round) @if let Some(board) = appeal.board { " board " (board) }
                                    }
                                    ", appealed by " (appeal.by)
                                }
                                "."
                            }
                        }
                    }
                    table.list {
                        thead { tr { th { "Round" } th.num { "Games" } th.num { "Ended" } th { "Screens" } } }
                        tbody {
                            @for round in &rounds {
                                tr {
                                    td.nowrap { "Round " (round.round) }
                                    td.num { (round.games) }
                                    td.num { (round.ended) }
                                    td {
                                        div.links {
                                            a href=(layout::round_link("floor", &settings.name, Some(&round.round))) { "Floor" }
                                            a href=(layout::round_link("results", &settings.name, Some(&round.round))) { "Results" }
                                            a href=(layout::round_link("incidents", &settings.name, Some(&round.round))) { "Incidents" }
                                            a href=(super::layout::round_pgn_link(&settings.name, &round.round)) { "PGN" }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                @if may_write {
                    h3 #load { "Load a round" }
                    @if let Some(f) = load_flash.filter(|f| f.refused) { (refusal(&f.message)) }
                    form.grid method="post" enctype="multipart/form-data" action={ (PREFIX) "/events/" (tournament.tournament_id) "/rounds" } {
                        (layout::csrf_field(&viewer))
                        label for="round" { "Round" }
                        input #round name="round" required maxlength="20"
                            value=(load_flash.and_then(|f| f.values.get("round").cloned()).unwrap_or_else(|| next_round.to_string()));
                        label for="pairing_file" { "Pairing file" }
                        input #pairing_file name="file" type="file" accept=".csv,.txt,.trf,.trfx,text/csv,text/plain";
                        label for="pairings" { "or the pairings typed in (CSV)" }
                        textarea #pairings name="pairings" rows="6" spellcheck="false" {
                            (load_flash.and_then(|f| f.values.get("pairings").cloned()).unwrap_or_else(|| "board,white,black,white_fide_id,black_fide_id\n".into()))
                        }
                        div.actions { button.primary type="submit" { "Load the round" } }
                    }
                    p.hint {
                        "CSV: a header row naming board, white, black and optionally white_fide_id, black_fide_id; "
                        "quote names with commas (\"Carlsen, Magnus\"). TRF-16 (Swiss-Manager, Vega): the round's columns "
                        "of the 001 player lines are read, boards ordered by score. Loading the same round again creates nothing twice."
                    }
                }
            }
            (super::players::panel(&viewer, &tournament, &log))
        }
    };
    Ok(layout::ok(layout::page(
        &settings.name,
        Some(&viewer),
        Nav::Events,
        body,
    )))
}

/// `POST /office/events/{id}`: changes a tournament's settings.
pub async fn update(
    state: web::Data<AppState>,
    posted: Posted<TournamentForm>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, WebError> {
    let Posted {
        viewer,
        mut fields,
        mut form,
    } = posted;
    let tournament = tournament_or_404(&state.store, id.into_inner()).await?;
    viewer
        .principal
        .may_create_game(&tournament.settings.name)?;
    let back = format!("{PREFIX}/events/{}", tournament.tournament_id);
    // The name is fixed once the tournament exists (the field is read-only).
    form.name = Some(tournament.settings.name.clone());
    fields
        .0
        .insert("name".into(), tournament.settings.name.clone());
    let result = settings_from(&form).and_then(|s| s.validate().map(|()| s).map_err(|p| p.message));
    let flash = match result {
        Ok(mut settings) => {
            // The fair-play measures have their own form (`super::measures`), for the
            // fair-play roles; this one keeps them.
            let kept = &tournament.settings.regulations;
            settings.regulations.electronic_devices = kept.electronic_devices;
            settings.regulations.fair_play_report_days = kept.fair_play_report_days;
            settings.regulations.appeals = kept.appeals.clone();
            state
                .store
                .update_tournament(
                    tournament.tournament_id,
                    &settings,
                    &viewer.principal.recorder(),
                )
                .await?;
            Flash {
                form: "settings".into(),
                refused: false,
                message: "The settings were saved; games created from now on take them.".into(),
                ..Flash::default()
            }
        }
        Err(message) => Flash {
            form: "settings".into(),
            refused: true,
            message,
            values: fields.0.clone(),
            code: None,
        },
    };
    leave_flash(&state, &viewer, &flash).await?;
    Ok(layout::see_other(&layout::after_write(&state, &back).await))
}

//! Events: the list of tournaments and of events known only from their games, a tournament's
//! page with its settings and rounds, setting a tournament up, and loading a round's pairings
//! (entered on the screen, or a CSV or TRF-16 file).

use super::PREFIX;
use super::error::WebError;
use super::layout::{self, Nav};
use super::session::{self, Fields, Flash, Posted, Viewer, leave_flash};
use crate::app::commands::pairings_from;
use crate::app::rounds::{self, LoadError};
use crate::app::trf;
use crate::game::event::{
    ClockBehaviour, DrawOfferPolicy, LawsEdition, Regulations, TimeControl, TimeControlKind,
    TimeControlSpec,
};
use crate::interchange::time_control_tag::{TagReading, describe, read_tag_value, write_tag};
use crate::request::Reads;
use crate::rules::time_control::tracker::{IncrementCredit, PeriodTimeAdded};
use crate::rules::time_control::{Preset, TimeControlError};
use crate::state::AppState;
use crate::store::{EventRound, Store};
use crate::tournament::{self, TimeZone, Tournament, TournamentSettings};
use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use chrono::NaiveDate;
use futures_util::TryStreamExt;
use maud::{Markup, html};
use std::collections::HashMap;
use uuid::Uuid;

/// A time control in words: `standard 90 min + 30 s`; with periods, each period in words
/// (`standard 1 h 30 min for 40 moves + 30 s a move from move 1, then 30 min ...`).
pub fn time_control_text(control: &TimeControl) -> String {
    let kind = match control.kind {
        TimeControlKind::Standard => "standard",
        TimeControlKind::Rapid => "rapid",
        TimeControlKind::Blitz => "blitz",
    };
    let Some((_, base_ms, increment_ms)) = control.as_legacy() else {
        return format!(
            "{kind} {}",
            crate::interchange::time_control_tag::describe(control)
        );
    };
    let base = base_ms / 1000;
    let base = if base.is_multiple_of(60) {
        format!("{} min", base / 60)
    } else {
        format!("{base} s")
    };
    if increment_ms == 0 {
        format!("{kind} {base}")
    } else {
        format!("{kind} {base} + {} s", increment_ms / 1000)
    }
}

/// The first period's time and bonus of a control (what the one-period form of the back
/// office shows).
fn first_period(control: &TimeControl) -> (u64, u64) {
    control
        .periods
        .first()
        .map_or((0, 0), |p| (p.time_ms, p.bonus.map_or(0, |b| b.ms)))
}

/// How the clocks add time, in words (nothing for the default, a clock that counts moves).
pub fn clock_behaviour_text(behaviour: ClockBehaviour) -> Option<String> {
    if behaviour == ClockBehaviour::default() {
        return None;
    }
    let added = match behaviour.period_time_added {
        PeriodTimeAdded::AtControlPress => {
            "next period added at the press that completes its moves"
        }
        PeriodTimeAdded::AtZeroBothClocks => {
            "next period added to both clocks when a display reaches 0:00"
        }
        PeriodTimeAdded::AtZeroOwnClock => {
            "next period added to a clock when its display reaches 0:00"
        }
    };
    let credit = match behaviour.increment_credit {
        IncrementCredit::AfterPress => "increment after the press",
        IncrementCredit::BeforeMove => "increment credited before the move",
    };
    Some(format!("Clocks: {added}; {credit}"))
}

/// The choices of the form's time control: the presets (FIDE's standard control first), the
/// one-period form, or periods as written (value, label).
fn control_forms() -> Vec<(String, String)> {
    let mut forms = Vec::new();
    for preset in Preset::ALL {
        let control = preset.control();
        let kind = crate::rules::time_control::kind_name(control.kind);
        forms.push((
            layout::wire_name(&preset),
            format!("{kind}: {} ({})", describe(&control), preset.pgn()),
        ));
    }
    forms.push((
        "single".to_string(),
        "One period: base time and increment below".to_string(),
    ));
    forms.push((
        "written".to_string(),
        "Periods, as written below".to_string(),
    ));
    forms
}

/// The form's name of a stored control: a preset's, `single` for the one-period form,
/// `written` otherwise.
fn control_form_of(control: &TimeControl) -> String {
    if let Some(preset) = Preset::ALL.into_iter().find(|p| {
        let preset = p.control();
        preset.periods == control.periods && preset.kind == control.kind
    }) {
        return layout::wire_name(&preset);
    }
    if control.as_legacy().is_some() {
        "single".into()
    } else {
        "written".into()
    }
}

/// A refused control in the form's words.
fn control_problem(error: TimeControlError) -> String {
    match error {
        TimeControlError::KindContradicts {
            stated,
            derived,
            article,
            minutes,
        } => format!(
            "The time control is {derived} by {article} ({minutes} for 60 moves: the time plus \
             60 times the increment), not {stated}: choose the rate of play “{derived}” or \
             “from the time control”."
        ),
        other => format!("The time control cannot be used: {other}."),
    }
}

/// Reads the form's time control: the one-period form, a preset, or periods as written (a PGN
/// `TimeControl` value such as `40/5400+30:1800+30`, or words such as "90 min for 40 moves,
/// then 30 min, 30 s per move from move 1"), with the stated rate of play if one was chosen.
fn control_from(fields: &Fields) -> Result<TimeControl, String> {
    let stated = match fields.get("tc_kind") {
        Some("standard") => Some(TimeControlKind::Standard),
        Some("rapid") => Some(TimeControlKind::Rapid),
        Some("blitz") => Some(TimeControlKind::Blitz),
        _ => None,
    };
    let whole = |name: &str, label: &str| -> Result<Option<u64>, String> {
        fields
            .get(name)
            .map(|text| {
                text.parse::<u64>()
                    .map_err(|_| format!("{label} must be a whole number, not `{text}`."))
            })
            .transpose()
    };
    let mut control = match fields.get("tc_form").unwrap_or("single") {
        "single" => {
            let base_minutes = whole("base_minutes", "The base time")?.ok_or(
                "Give the base time in minutes (e.g. 90), or choose a preset or periods as \
                 written.",
            )?;
            let spec = TimeControlSpec {
                kind: stated,
                base_ms: Some(base_minutes.saturating_mul(60_000)),
                increment_ms: Some(
                    whole("increment_seconds", "The increment")?
                        .unwrap_or(0)
                        .saturating_mul(1000),
                ),
                ..TimeControlSpec::default()
            };
            spec.resolve().map_err(control_problem)?
        }
        "written" => {
            let text = fields.get("tc_written").ok_or(
                "Write the periods, e.g. `40/5400+30:1800+30` or “90 min for 40 moves, then 30 \
                 min for the rest of the game, 30 s per move from move 1”.",
            )?;
            match read_tag_value(text) {
                Ok(TagReading::Standard(control) | TagReading::FreeText(control)) => control,
                Ok(TagReading::Unknown | TagReading::NoControl) => {
                    return Err(format!(
                        "`{text}` gives no time control; write the periods, e.g. \
                         `40/5400+30:1800+30`."
                    ));
                }
                Err(error) => return Err(format!("The periods as written: {error}.")),
            }
        }
        preset => {
            let preset: Preset =
                serde_json::from_value(serde_json::Value::String(preset.into()))
                    .map_err(|_| format!("`{preset}` is not a time control of the form."))?;
            preset.control()
        }
    };
    if let Some(kind) = stated {
        control.kind = kind;
    }
    control.validate().map_err(control_problem)?;
    Ok(control)
}

/// Reads the form's clock behaviour (the default when not chosen).
fn clock_behaviour_from(fields: &Fields) -> Result<ClockBehaviour, String> {
    let pick = |name: &str| -> Result<serde_json::Value, String> {
        Ok(serde_json::Value::String(
            fields.get(name).unwrap_or_default().to_string(),
        ))
    };
    let mut behaviour = ClockBehaviour::default();
    if fields.get("period_time_added").is_some() {
        behaviour.period_time_added = serde_json::from_value(pick("period_time_added")?)
            .map_err(|_| "Choose when the clocks add the next period's time.".to_string())?;
    }
    if fields.get("increment_credit").is_some() {
        behaviour.increment_credit = serde_json::from_value(pick("increment_credit")?)
            .map_err(|_| "Choose when the clocks credit the increment.".to_string())?;
    }
    Ok(behaviour)
}

/// The regulations in words.
pub fn regulations_text(regulations: &Regulations) -> Vec<String> {
    let mut lines = vec![match regulations.draw_offers {
        DrawOfferPolicy::Allowed => "Draw offers allowed (9.1)".to_string(),
        DrawOfferPolicy::Forbidden => "Draw offers forbidden".to_string(),
        DrawOfferPolicy::ArbiterConsent => {
            "Draws by agreement need the arbiter's consent (Sofia rules)".to_string()
        }
    }];
    if let Some(move_number) = regulations.earliest_agreement_move {
        lines.push(format!("No agreement before move {move_number} (9.1.1)"));
    }
    lines.push(if regulations.quickplay_finish {
        "Guidelines III (quickplay finish) in force".to_string()
    } else {
        "Guidelines III not in force".to_string()
    });
    if let Some(ms) = regulations.incorrect_claim_penalty_ms {
        lines.push(format!(
            "Incorrect claim: {} s to the opponent (9.5.3)",
            ms / 1000
        ));
    }
    lines
}

pub(super) fn edition_text(edition: LawsEdition) -> &'static str {
    match edition {
        LawsEdition::Y2018 => "FIDE Laws 2018",
        LawsEdition::Y2023 => "FIDE Laws 2023",
    }
}

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

/// The tournament form (new or change), filled with `values`.
fn tournament_form(
    viewer: &Viewer,
    action: &str,
    values: &HashMap<String, String>,
    name_fixed: bool,
    submit: &str,
) -> Markup {
    let value = |name: &str| values.get(name).cloned().unwrap_or_default();
    let selected = |name: &str, option: &str, default: bool| {
        values.get(name).map(|v| v == option).unwrap_or(default)
    };
    html! {
        form.grid method="post" action=(action) {
            (layout::csrf_field(viewer))
            label for="name" { "Name (PGN Event)" }
            @if name_fixed {
                input #name name="name" value=(value("name")) readonly;
            } @else {
                input #name name="name" value=(value("name")) required maxlength="200" placeholder="City Open 2026";
            }
            label for="site" { "Site" }
            input #site name="site" value=(value("site")) maxlength="200" placeholder="Town Hall, Ghent";
            label for="starts_on" { "First day" }
            input #starts_on name="starts_on" type="date" value=(value("starts_on"));
            label for="ends_on" { "Last day" }
            input #ends_on name="ends_on" type="date" value=(value("ends_on"));
            label for="tc_form" { "Time control" }
            select #tc_form name="tc_form" {
                @for (form, label) in control_forms() {
                    option value=(form) selected[selected("tc_form", &form, form == "single")] { (label) }
                }
            }
            label for="base_minutes" { "Base time (minutes)" }
            input #base_minutes name="base_minutes" type="number" min="1" max="1440" value=(value("base_minutes"));
            label for="increment_seconds" { "Increment (seconds per move)" }
            input #increment_seconds name="increment_seconds" type="number" min="0" max="3600" value=(value("increment_seconds"));
            label for="tc_written" { "Periods, as written" }
            input #tc_written name="tc_written" maxlength="300" value=(value("tc_written"))
                placeholder="40/5400+30:1800+30, or 90 min for 40 moves, then 30 min, 30 s per move from move 1";
            label for="tc_kind" { "Rate of play" }
            select #tc_kind name="tc_kind" {
                option value="" selected[selected("tc_kind", "", true)] { "From the time control (A.1, B.1)" }
                option value="standard" selected[selected("tc_kind", "standard", false)] { "Standard" }
                option value="rapid" selected[selected("tc_kind", "rapid", false)] { "Rapid (Appendix A)" }
                option value="blitz" selected[selected("tc_kind", "blitz", false)] { "Blitz (Appendix B)" }
            }
            label for="period_time_added" { "The clocks add the next period" }
            select #period_time_added name="period_time_added" {
                option value="at_control_press" selected[selected("period_time_added", "at_control_press", true)] { "At the press that completes its moves (the clock counts moves)" }
                option value="at_zero_both_clocks" selected[selected("period_time_added", "at_zero_both_clocks", false)] { "When a display reaches 0:00, to both clocks (DGT 3000 multi-period modes)" }
                option value="at_zero_own_clock" selected[selected("period_time_added", "at_zero_own_clock", false)] { "When a display reaches 0:00, to that clock only" }
            }
            label for="increment_credit" { "The clocks credit the increment" }
            select #increment_credit name="increment_credit" {
                option value="after_press" selected[selected("increment_credit", "after_press", true)] { "After the press" }
                option value="before_move" selected[selected("increment_credit", "before_move", false)] { "Before the move (DGT: the first increment is on the clock before move 1)" }
            }
            label for="laws_edition" { "Laws of Chess" }
            select #laws_edition name="laws_edition" {
                option value="2023" selected[selected("laws_edition", "2023", true)] { "FIDE Laws effective 1 January 2023" }
                option value="2018" selected[selected("laws_edition", "2018", false)] { "FIDE Laws effective 1 January 2018" }
            }
            label for="draw_offers" { "Draw offers" }
            select #draw_offers name="draw_offers" {
                option value="allowed" selected[selected("draw_offers", "allowed", true)] { "Allowed" }
                option value="arbiter_consent" selected[selected("draw_offers", "arbiter_consent", false)] { "Only with the arbiter's consent (Sofia)" }
                option value="forbidden" selected[selected("draw_offers", "forbidden", false)] { "Forbidden" }
            }
            label for="earliest_agreement_move" { "No agreement before move" }
            input #earliest_agreement_move name="earliest_agreement_move" type="number" min="1" max="500" value=(value("earliest_agreement_move")) placeholder="none";
            label for="incorrect_claim_seconds" { "Incorrect claim: seconds to the opponent" }
            input #incorrect_claim_seconds name="incorrect_claim_seconds" type="number" min="0" max="3600" value=(value("incorrect_claim_seconds")) placeholder="120 standard, 60 rapid/blitz";
            span.label { "Guidelines III" }
            label.check {
                input name="quickplay_finish" type="checkbox" checked[values.contains_key("quickplay_finish")];
                " Quickplay finish in force (games without increment)"
            }
            label for="arbiters" { "Arbiters (one a line, chief first)" }
            textarea #arbiters name="arbiters" rows="4" placeholder="IA Anna Sokolova (chief)" { (value("arbiters")) }
            label for="time_zone" { "Time zone of the venue" }
            input #time_zone name="time_zone" value=(value("time_zone")) maxlength="64" list="time-zones" placeholder="Europe/Brussels (printed sheets use UTC without one)" autocomplete="off";
            datalist #time-zones {
                @for zone in chrono_tz::TZ_VARIANTS.iter().filter(|z| z.name().contains('/')) { option value=(zone.name()) {} }
            }
            (super::tie_break_form::form_fields(values))
            div.actions { button.primary type="submit" { (submit) } }
        }
    }
}

/// The form values of a stored tournament.
fn values_of(settings: &TournamentSettings) -> HashMap<String, String> {
    let mut values = HashMap::new();
    let mut put = |k: &str, v: String| {
        values.insert(k.to_string(), v);
    };
    put("name", settings.name.clone());
    put("site", settings.site.clone().unwrap_or_default());
    put(
        "starts_on",
        settings
            .starts_on
            .map(|d| d.to_string())
            .unwrap_or_default(),
    );
    put(
        "ends_on",
        settings.ends_on.map(|d| d.to_string()).unwrap_or_default(),
    );
    put("tc_kind", layout::wire_name(&settings.time_control.kind));
    let form = control_form_of(&settings.time_control);
    if form == "single" {
        let (base_ms, increment_ms) = first_period(&settings.time_control);
        put("base_minutes", (base_ms / 60_000).to_string());
        put("increment_seconds", (increment_ms / 1000).to_string());
    } else if form == "written" {
        put(
            "tc_written",
            write_tag(&settings.time_control).unwrap_or_else(|_| describe(&settings.time_control)),
        );
    }
    put("tc_form", form);
    put(
        "period_time_added",
        layout::wire_name(&settings.clock_behaviour.period_time_added),
    );
    put(
        "increment_credit",
        layout::wire_name(&settings.clock_behaviour.increment_credit),
    );
    put("laws_edition", layout::wire_name(&settings.laws_edition));
    put(
        "draw_offers",
        layout::wire_name(&settings.regulations.draw_offers),
    );
    put(
        "earliest_agreement_move",
        settings
            .regulations
            .earliest_agreement_move
            .map(|m| m.to_string())
            .unwrap_or_default(),
    );
    put(
        "incorrect_claim_seconds",
        settings
            .regulations
            .incorrect_claim_penalty_ms
            .map(|ms| (ms / 1000).to_string())
            .unwrap_or_default(),
    );
    if settings.regulations.quickplay_finish {
        put("quickplay_finish", "on".into());
    }
    put("arbiters", settings.arbiters.join("\n"));
    if let Some(zone) = settings.time_zone {
        put("time_zone", zone.name().to_string());
    }
    super::tie_break_form::form_values(settings, &mut values);
    values
}

/// Reads the tournament form.
fn settings_from(fields: &Fields) -> Result<TournamentSettings, String> {
    let date = |name: &str, label: &str| -> Result<Option<NaiveDate>, String> {
        fields
            .get(name)
            .map(|text| {
                NaiveDate::parse_from_str(text, "%Y-%m-%d")
                    .map_err(|_| format!("{label} must be a date like 2026-11-20."))
            })
            .transpose()
    };
    let whole = |name: &str, label: &str| -> Result<Option<u64>, String> {
        fields
            .get(name)
            .map(|text| {
                text.parse::<u64>()
                    .map_err(|_| format!("{label} must be a whole number, not `{text}`."))
            })
            .transpose()
    };
    let time_control = control_from(fields)?;
    let clock_behaviour = clock_behaviour_from(fields)?;
    let laws_edition = match fields.get("laws_edition") {
        Some("2018") => LawsEdition::Y2018,
        _ => LawsEdition::Y2023,
    };
    let draw_offers = match fields.get("draw_offers") {
        Some("forbidden") => DrawOfferPolicy::Forbidden,
        Some("arbiter_consent") => DrawOfferPolicy::ArbiterConsent,
        _ => DrawOfferPolicy::Allowed,
    };
    let earliest = whole("earliest_agreement_move", "The earliest move of agreement")?;
    let (tie_breaks, unplayed_rounds) = super::tie_break_form::from_form(fields)?;
    Ok(TournamentSettings {
        name: fields.require("name", "The name")?.to_string(),
        site: fields.get("site").map(str::to_owned),
        starts_on: date("starts_on", "The first day")?,
        ends_on: date("ends_on", "The last day")?,
        time_control,
        clock_behaviour,
        laws_edition,
        regulations: Regulations {
            draw_offers,
            earliest_agreement_move: earliest.map(|m| u32::try_from(m).unwrap_or(u32::MAX)),
            quickplay_finish: fields.get("quickplay_finish").is_some(),
            incorrect_claim_penalty_ms: whole(
                "incorrect_claim_seconds",
                "The incorrect-claim time",
            )?
            .map(|s| s.saturating_mul(1000)),
            // The fair-play measures are set by their own form (`super::measures`).
            electronic_devices: Default::default(),
            fair_play_report_days: None,
            // The appeals procedure has its own form (`super::appeals_procedure`).
            appeals: Default::default(),
        },
        arbiters: fields
            .get("arbiters")
            .map(|text| {
                text.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
        time_zone: fields
            .get("time_zone")
            .map(str::parse::<TimeZone>)
            .transpose()?,
        tie_breaks,
        unplayed_rounds,
    })
}

fn refusal(message: &str) -> Markup {
    html! { p.refusal role="alert" { (message) } }
}

fn new_page(viewer: &Viewer, values: &HashMap<String, String>, problem: Option<&str>) -> Markup {
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
    let mut values = HashMap::new();
    values.insert(
        "tc_form".to_string(),
        layout::wire_name(&Preset::FideStandard),
    );
    Ok(layout::ok(new_page(&viewer, &values, None)))
}

/// `POST /office/events`: creates a tournament.
pub async fn create(state: web::Data<AppState>, posted: Posted) -> Result<HttpResponse, WebError> {
    let Posted { viewer, fields } = posted;
    let refuse = |message: String| {
        layout::html_response(
            StatusCode::UNPROCESSABLE_ENTITY,
            new_page(&viewer, &fields.0, Some(&message)),
        )
    };
    let settings = match settings_from(&fields) {
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

async fn tournament_or_404(store: &Store, id: Uuid) -> Result<Tournament, WebError> {
    store
        .tournament(id)
        .await?
        .ok_or_else(|| WebError::NotFound(format!("There is no tournament with id {id}.")))
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
    let settings_flash = flash.as_ref().filter(|f| f.form == "settings");
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
                    details open[settings_flash.is_some()] {
                        summary { "Change the settings" }
                        p.hint { "Applies to games created from now on; games already created keep the settings recorded in their first event." }
                        @if let Some(f) = settings_flash { (refusal(&f.message)) }
                        (tournament_form(&viewer, &format!("{PREFIX}/events/{}", tournament.tournament_id),
                            &settings_flash.map(|f| f.values.clone()).unwrap_or_else(|| values_of(settings)), true, "Save the settings"))
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
    posted: Posted,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, WebError> {
    let Posted { viewer, fields } = posted;
    let tournament = tournament_or_404(&state.store, id.into_inner()).await?;
    viewer
        .principal
        .may_create_game(&tournament.settings.name)?;
    let back = format!("{PREFIX}/events/{}", tournament.tournament_id);
    let mut fields = fields;
    fields
        .0
        .insert("name".into(), tournament.settings.name.clone());
    let result =
        settings_from(&fields).and_then(|s| s.validate().map(|()| s).map_err(|p| p.message));
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

/// The most a pairing upload may hold.
const MAX_UPLOAD: usize = 2 * 1024 * 1024;

/// Reads a multipart form's text fields and its file.
async fn read_multipart(mut multipart: Multipart) -> Result<HashMap<String, Vec<u8>>, WebError> {
    let mut fields = HashMap::new();
    let mut total = 0usize;
    while let Some(mut field) = multipart
        .try_next()
        .await
        .map_err(|e| WebError::BadRequest(format!("The form cannot be read: {e}.")))?
    {
        let name = field.name().unwrap_or_default().to_string();
        let mut bytes = Vec::new();
        while let Some(chunk) = field
            .try_next()
            .await
            .map_err(|e| WebError::BadRequest(format!("The form cannot be read: {e}.")))?
        {
            total += chunk.len();
            if total > MAX_UPLOAD {
                return Err(WebError::BadRequest(
                    "The file is larger than 2 MiB; a pairing file is much smaller. Check that \
                     the right file was chosen."
                        .into(),
                ));
            }
            bytes.extend_from_slice(&chunk);
        }
        fields.insert(name, bytes);
    }
    Ok(fields)
}

/// `POST /office/events/{id}/rounds`: loads a round's pairings (multipart: a file, or the
/// pairings typed in).
pub async fn load_round(
    state: web::Data<AppState>,
    viewer: Viewer,
    id: web::Path<Uuid>,
    multipart: Multipart,
) -> Result<HttpResponse, WebError> {
    let parts = read_multipart(multipart).await?;
    let text_of = |name: &str| {
        parts
            .get(name)
            .map(|b| crate::interchange::pairings::decode_text(b))
    };
    session::check_csrf(&viewer, text_of(session::CSRF_FIELD).as_deref())?;
    let tournament = tournament_or_404(&state.store, id.into_inner()).await?;
    viewer
        .principal
        .may_create_game(&tournament.settings.name)?;
    let round = text_of("round").unwrap_or_default().trim().to_string();
    let typed = text_of("pairings").unwrap_or_default();
    let file = text_of("file").filter(|f| !f.trim().is_empty());
    let content = file.clone().unwrap_or_else(|| typed.clone());
    let is_trf = content.lines().any(|l| l.starts_with("001 "));
    let mut values = HashMap::new();
    values.insert("round".to_string(), round.clone());
    if file.is_none() {
        values.insert("pairings".to_string(), typed.clone());
    }
    let back = format!("{PREFIX}/events/{}", tournament.tournament_id);
    let refused = |message: String| Flash {
        form: "load-round".into(),
        refused: true,
        message,
        values: values.clone(),
        code: None,
    };
    let outcome = async {
        tournament::check_round(&round).map_err(LoadError::Invalid)?;
        let read = if is_trf {
            pairings_from(&round, None, None, Some(&content))
        } else {
            pairings_from(&round, None, Some(&content), None)
        }
        .map_err(|e| LoadError::Conflict(e.message))?;
        // The whole file is read before anything is stored: a load is all or nothing.
        let file = if is_trf {
            Some(
                trf::round_file(&round, &content)
                    .map_err(|e| LoadError::Conflict(e.to_string()))?,
            )
        } else {
            None
        };
        let games = rounds::load_round(
            &state.store,
            &tournament,
            &round,
            &read.boards,
            &HashMap::new(),
            file.as_ref(),
            &viewer.principal.recorder(),
        )
        .await?;
        Ok::<_, LoadError>((games, read.unpaired, read.notes))
    }
    .await;
    match outcome {
        Ok((games, unpaired, notes)) => {
            let created = games.iter().filter(|g| g.created).count();
            let mut message = if created == games.len() {
                format!("Round {round}: {created} games created.")
            } else {
                format!(
                    "Round {round}: {created} games created, {} already there from an earlier load.",
                    games.len() - created
                )
            };
            if !unpaired.is_empty() {
                message.push_str(&format!(
                    " Without a board: {}.",
                    unpaired
                        .iter()
                        .map(|u| if u.code.is_empty() {
                            u.name.clone()
                        } else {
                            format!("{} ({})", u.name, u.code)
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if !notes.is_empty() {
                message.push_str(&format!(" Read with notes: {}", notes.join(" ")));
            }
            leave_flash(
                &state,
                &viewer,
                &Flash {
                    form: "load-round".into(),
                    refused: false,
                    message,
                    ..Flash::default()
                },
            )
            .await?;
            let floor = layout::round_link("floor", &tournament.settings.name, Some(&round));
            Ok(layout::see_other(
                &layout::after_write(&state, &floor).await,
            ))
        }
        Err(LoadError::Store(store)) => Err(store.into()),
        Err(LoadError::Invalid(problem)) => {
            leave_flash(&state, &viewer, &refused(problem.message)).await?;
            Ok(layout::see_other(&format!("{back}#load")))
        }
        Err(LoadError::Conflict(message)) => {
            leave_flash(&state, &viewer, &refused(message)).await?;
            Ok(layout::see_other(&format!("{back}#load")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(pairs: &[(&str, &str)]) -> Fields {
        Fields(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    fn tournament(pairs: &[(&str, &str)]) -> Result<TournamentSettings, String> {
        let mut all = vec![("name", "Donostia Masters 2026")];
        all.extend_from_slice(pairs);
        settings_from(&fields(&all))
    }

    #[test]
    fn the_old_one_period_form_reads_as_it_did_with_the_rate_of_play_derived_when_not_chosen() {
        let settings =
            tournament(&[("base_minutes", "90"), ("increment_seconds", "30")]).expect("reads");
        assert_eq!(
            settings.time_control,
            TimeControl::from_legacy(TimeControlKind::Standard, 5_400_000, 30_000)
        );
        assert_eq!(settings.clock_behaviour, ClockBehaviour::default());
        let blitz =
            tournament(&[("base_minutes", "3"), ("increment_seconds", "2")]).expect("reads");
        assert_eq!(blitz.time_control.kind, TimeControlKind::Blitz);
    }

    #[test]
    fn a_preset_or_periods_as_written_give_the_same_control_with_the_clocks_chosen() {
        let preset = tournament(&[
            ("tc_form", "fide_standard"),
            ("period_time_added", "at_zero_both_clocks"),
            ("increment_credit", "before_move"),
        ])
        .expect("reads");
        assert_eq!(preset.time_control, Preset::FideStandard.control());
        assert_eq!(
            preset.clock_behaviour,
            ClockBehaviour::DGT_3000_MULTI_PERIOD
        );
        for written in [
            "40/5400+30:1800+30",
            "90 min for 40 moves, then 30 min for the rest of the game, 30 s per move from move 1",
        ] {
            let settings = tournament(&[("tc_form", "written"), ("tc_written", written)])
                .unwrap_or_else(|e| panic!("{written}: {e}"));
            assert_eq!(settings.time_control, preset.time_control, "{written}");
        }
        // The form shows a stored control as it was chosen.
        let values = values_of(&preset);
        assert_eq!(values["tc_form"], "fide_standard");
        assert_eq!(values["period_time_added"], "at_zero_both_clocks");
    }

    #[test]
    fn a_control_the_form_cannot_use_is_refused_with_what_is_wrong() {
        let cases: [(&[(&str, &str)], &str); 5] = [
            (
                &[("tc_form", "blitz_3_plus_2"), ("tc_kind", "standard")],
                "blitz by B.1",
            ),
            (
                &[("tc_form", "written"), ("tc_written", "90+30")],
                "ambiguous",
            ),
            (
                &[("tc_form", "written"), ("tc_written", "?")],
                "gives no time control",
            ),
            (&[("tc_form", "written")], "Write the periods"),
            (&[("tc_form", "single")], "Give the base time"),
        ];
        for (pairs, words) in cases {
            let error = tournament(pairs).expect_err("refused");
            assert!(error.contains(words), "{pairs:?}: {error}");
        }
    }
}

//! The tournament's settings as the back office shows and takes them: the time control, the
//! clocks and the regulations in words, the tournament form, and the mapping between the
//! form's fields and [`crate::tournament::TournamentSettings`].

use crate::game::event::{
    ClockBehaviour, DrawOfferPolicy, LawsEdition, Regulations, TimeControl, TimeControlKind,
    TimeControlSpec,
};
use crate::interchange::time_control_tag::{TagReading, describe, read_tag_value, write_tag};
use crate::rules::time_control::tracker::{IncrementCredit, PeriodTimeAdded};
use crate::rules::time_control::{Preset, TimeControlError};
use crate::tournament::{TimeZone, TournamentSettings};
use crate::web::forms::required;
use crate::web::layout;
use crate::web::session::Viewer;
use crate::web::tie_break_form::TieBreakFields;
use chrono::NaiveDate;
use maud::{Markup, html};
use serde::Deserialize;

/// The tournament form (new or change), as the page names its inputs: what the arbiter typed
/// or chose, as text, read by [`settings_from`] (which says what to fix) and written from a
/// stored tournament by [`values_of`].
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct TournamentForm {
    /// The tournament's name (PGN `Event`); fixed once the tournament exists.
    pub name: Option<String>,
    /// Where it is played (PGN `Site`).
    pub site: Option<String>,
    /// The first day, `2026-11-20`.
    pub starts_on: Option<String>,
    /// The last day.
    pub ends_on: Option<String>,
    /// How the time control is given: a preset's name, `single` (one period: base time and
    /// increment) or `written` (periods as written).
    pub tc_form: Option<String>,
    /// The one period's base time, in minutes.
    pub base_minutes: Option<String>,
    /// The one period's increment, in seconds per move.
    pub increment_seconds: Option<String>,
    /// The periods as written (`40/5400+30:1800+30`, or in words).
    pub tc_written: Option<String>,
    /// The rate of play stated (`standard`, `rapid`, `blitz`); none to derive it (A.1, B.1).
    pub tc_kind: Option<String>,
    /// When the clocks add the next period's time (`at_control_press`, ...).
    pub period_time_added: Option<String>,
    /// When the clocks credit the increment (`after_press`, `before_move`).
    pub increment_credit: Option<String>,
    /// The Laws' edition: `2023` or `2018`.
    pub laws_edition: Option<String>,
    /// The draw offers allowed: `allowed`, `arbiter_consent` or `forbidden`.
    pub draw_offers: Option<String>,
    /// The earliest move at which a draw may be agreed (9.1.1).
    pub earliest_agreement_move: Option<String>,
    /// The time given to the opponent of an incorrect claim, in seconds (9.5.3).
    pub incorrect_claim_seconds: Option<String>,
    /// Present (`on`) when Guidelines III (quickplay finish) are in force.
    pub quickplay_finish: Option<String>,
    /// The arbiters, one a line, the chief first.
    pub arbiters: Option<String>,
    /// The venue's time zone (`Europe/Brussels`).
    pub time_zone: Option<String>,
    /// The tie-breaks and the text of C.07 for unplayed rounds.
    #[serde(flatten)]
    pub tie_breaks: TieBreakFields,
}

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
pub(super) fn first_period(control: &TimeControl) -> (u64, u64) {
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
pub(super) fn control_forms() -> Vec<(String, String)> {
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
pub(super) fn control_form_of(control: &TimeControl) -> String {
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
pub(super) fn control_problem(error: TimeControlError) -> String {
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
pub(super) fn control_from(form: &TournamentForm) -> Result<TimeControl, String> {
    let stated = match form.tc_kind.as_deref() {
        Some("standard") => Some(TimeControlKind::Standard),
        Some("rapid") => Some(TimeControlKind::Rapid),
        Some("blitz") => Some(TimeControlKind::Blitz),
        _ => None,
    };
    let mut control = match form.tc_form.as_deref().unwrap_or("single") {
        "single" => {
            let base_minutes = whole(&form.base_minutes, "The base time")?.ok_or(
                "Give the base time in minutes (e.g. 90), or choose a preset or periods as \
                 written.",
            )?;
            let spec = TimeControlSpec {
                kind: stated,
                base_ms: Some(base_minutes.saturating_mul(60_000)),
                increment_ms: Some(
                    whole(&form.increment_seconds, "The increment")?
                        .unwrap_or(0)
                        .saturating_mul(1000),
                ),
                ..TimeControlSpec::default()
            };
            spec.resolve().map_err(control_problem)?
        }
        "written" => {
            let text = form.tc_written.as_deref().ok_or(
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
pub(super) fn clock_behaviour_from(form: &TournamentForm) -> Result<ClockBehaviour, String> {
    let pick = |value: &str| serde_json::Value::String(value.to_string());
    let mut behaviour = ClockBehaviour::default();
    if let Some(value) = form.period_time_added.as_deref() {
        behaviour.period_time_added = serde_json::from_value(pick(value))
            .map_err(|_| "Choose when the clocks add the next period's time.".to_string())?;
    }
    if let Some(value) = form.increment_credit.as_deref() {
        behaviour.increment_credit = serde_json::from_value(pick(value))
            .map_err(|_| "Choose when the clocks credit the increment.".to_string())?;
    }
    Ok(behaviour)
}

/// A whole number the form asks for (none when left blank), or what to fix.
fn whole(value: &Option<String>, label: &str) -> Result<Option<u64>, String> {
    value
        .as_deref()
        .map(|text| {
            text.parse::<u64>()
                .map_err(|_| format!("{label} must be a whole number, not `{text}`."))
        })
        .transpose()
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

pub(in crate::web) fn edition_text(edition: LawsEdition) -> &'static str {
    match edition {
        LawsEdition::Y2018 => "FIDE Laws 2018",
        LawsEdition::Y2023 => "FIDE Laws 2023",
    }
}

/// The tournament form (new or change), filled with `values`.
pub(super) fn tournament_form(
    viewer: &Viewer,
    action: &str,
    values: &TournamentForm,
    name_fixed: bool,
    submit: &str,
) -> Markup {
    let value = |value: &Option<String>| value.clone().unwrap_or_default();
    let selected = |value: &Option<String>, option: &str, default: bool| {
        value.as_deref().map_or(default, |v| v == option)
    };
    html! {
        form.grid method="post" action=(action) {
            (layout::csrf_field(viewer))
            label for="name" { "Name (PGN Event)" }
            @if name_fixed {
                input #name name="name" value=(value(&values.name)) readonly;
            } @else {
                input #name name="name" value=(value(&values.name)) required maxlength="200" placeholder="City Open 2026";
            }
            label for="site" { "Site" }
            input #site name="site" value=(value(&values.site)) maxlength="200" placeholder="Town Hall, Ghent";
            label for="starts_on" { "First day" }
            input #starts_on name="starts_on" type="date" value=(value(&values.starts_on));
            label for="ends_on" { "Last day" }
            input #ends_on name="ends_on" type="date" value=(value(&values.ends_on));
            label for="tc_form" { "Time control" }
            select #tc_form name="tc_form" {
                @for (form, label) in control_forms() {
                    option value=(form) selected[selected(&values.tc_form, &form, form == "single")] { (label) }
                }
            }
            label for="base_minutes" { "Base time (minutes)" }
            input #base_minutes name="base_minutes" type="number" min="1" max="1440" value=(value(&values.base_minutes));
            label for="increment_seconds" { "Increment (seconds per move)" }
            input #increment_seconds name="increment_seconds" type="number" min="0" max="3600" value=(value(&values.increment_seconds));
            label for="tc_written" { "Periods, as written" }
            input #tc_written name="tc_written" maxlength="300" value=(value(&values.tc_written))
                placeholder="40/5400+30:1800+30, or 90 min for 40 moves, then 30 min, 30 s per move from move 1";
            label for="tc_kind" { "Rate of play" }
            select #tc_kind name="tc_kind" {
                option value="" selected[selected(&values.tc_kind, "", true)] { "From the time control (A.1, B.1)" }
                option value="standard" selected[selected(&values.tc_kind, "standard", false)] { "Standard" }
                option value="rapid" selected[selected(&values.tc_kind, "rapid", false)] { "Rapid (Appendix A)" }
                option value="blitz" selected[selected(&values.tc_kind, "blitz", false)] { "Blitz (Appendix B)" }
            }
            label for="period_time_added" { "The clocks add the next period" }
            select #period_time_added name="period_time_added" {
                option value="at_control_press" selected[selected(&values.period_time_added, "at_control_press", true)] { "At the press that completes its moves (the clock counts moves)" }
                option value="at_zero_both_clocks" selected[selected(&values.period_time_added, "at_zero_both_clocks", false)] { "When a display reaches 0:00, to both clocks (DGT 3000 multi-period modes)" }
                option value="at_zero_own_clock" selected[selected(&values.period_time_added, "at_zero_own_clock", false)] { "When a display reaches 0:00, to that clock only" }
            }
            label for="increment_credit" { "The clocks credit the increment" }
            select #increment_credit name="increment_credit" {
                option value="after_press" selected[selected(&values.increment_credit, "after_press", true)] { "After the press" }
                option value="before_move" selected[selected(&values.increment_credit, "before_move", false)] { "Before the move (DGT: the first increment is on the clock before move 1)" }
            }
            label for="laws_edition" { "Laws of Chess" }
            select #laws_edition name="laws_edition" {
                option value="2023" selected[selected(&values.laws_edition, "2023", true)] { "FIDE Laws effective 1 January 2023" }
                option value="2018" selected[selected(&values.laws_edition, "2018", false)] { "FIDE Laws effective 1 January 2018" }
            }
            label for="draw_offers" { "Draw offers" }
            select #draw_offers name="draw_offers" {
                option value="allowed" selected[selected(&values.draw_offers, "allowed", true)] { "Allowed" }
                option value="arbiter_consent" selected[selected(&values.draw_offers, "arbiter_consent", false)] { "Only with the arbiter's consent (Sofia)" }
                option value="forbidden" selected[selected(&values.draw_offers, "forbidden", false)] { "Forbidden" }
            }
            label for="earliest_agreement_move" { "No agreement before move" }
            input #earliest_agreement_move name="earliest_agreement_move" type="number" min="1" max="500" value=(value(&values.earliest_agreement_move)) placeholder="none";
            label for="incorrect_claim_seconds" { "Incorrect claim: seconds to the opponent" }
            input #incorrect_claim_seconds name="incorrect_claim_seconds" type="number" min="0" max="3600" value=(value(&values.incorrect_claim_seconds)) placeholder="120 standard, 60 rapid/blitz";
            span.label { "Guidelines III" }
            label.check {
                input name="quickplay_finish" type="checkbox" checked[values.quickplay_finish.is_some()];
                " Quickplay finish in force (games without increment)"
            }
            label for="arbiters" { "Arbiters (one a line, chief first)" }
            textarea #arbiters name="arbiters" rows="4" placeholder="IA Anna Sokolova (chief)" { (value(&values.arbiters)) }
            label for="time_zone" { "Time zone of the venue" }
            input #time_zone name="time_zone" value=(value(&values.time_zone)) maxlength="64" list="time-zones" placeholder="Europe/Brussels (printed sheets use UTC without one)" autocomplete="off";
            datalist #time-zones {
                @for zone in chrono_tz::TZ_VARIANTS.iter().filter(|z| z.name().contains('/')) { option value=(zone.name()) {} }
            }
            (crate::web::tie_break_form::form_fields(&values.tie_breaks))
            div.actions { button.primary type="submit" { (submit) } }
        }
    }
}

/// The form values of a stored tournament.
pub(super) fn values_of(settings: &TournamentSettings) -> TournamentForm {
    let text = |value: String| Some(value);
    let control = &settings.time_control;
    let tc_form = control_form_of(control);
    let (base_minutes, increment_seconds) = if tc_form == "single" {
        let (base_ms, increment_ms) = first_period(control);
        (
            text((base_ms / 60_000).to_string()),
            text((increment_ms / 1000).to_string()),
        )
    } else {
        (None, None)
    };
    let tc_written =
        (tc_form == "written").then(|| write_tag(control).unwrap_or_else(|_| describe(control)));
    let regulations = &settings.regulations;
    TournamentForm {
        name: text(settings.name.clone()),
        site: settings.site.clone(),
        starts_on: settings.starts_on.map(|d| d.to_string()),
        ends_on: settings.ends_on.map(|d| d.to_string()),
        tc_form: text(tc_form),
        base_minutes,
        increment_seconds,
        tc_written,
        tc_kind: text(layout::wire_name(&control.kind)),
        period_time_added: text(layout::wire_name(
            &settings.clock_behaviour.period_time_added,
        )),
        increment_credit: text(layout::wire_name(
            &settings.clock_behaviour.increment_credit,
        )),
        laws_edition: text(layout::wire_name(&settings.laws_edition)),
        draw_offers: text(layout::wire_name(&regulations.draw_offers)),
        earliest_agreement_move: regulations.earliest_agreement_move.map(|m| m.to_string()),
        incorrect_claim_seconds: regulations
            .incorrect_claim_penalty_ms
            .map(|ms| (ms / 1000).to_string()),
        quickplay_finish: regulations.quickplay_finish.then(|| "on".to_string()),
        arbiters: text(settings.arbiters.join("\n")),
        time_zone: settings.time_zone.map(|zone| zone.name().to_string()),
        tie_breaks: crate::web::tie_break_form::form_values(settings),
    }
}

/// Reads the tournament form.
pub(super) fn settings_from(form: &TournamentForm) -> Result<TournamentSettings, String> {
    let date = |value: &Option<String>, label: &str| -> Result<Option<NaiveDate>, String> {
        value
            .as_deref()
            .map(|text| {
                NaiveDate::parse_from_str(text, "%Y-%m-%d")
                    .map_err(|_| format!("{label} must be a date like 2026-11-20."))
            })
            .transpose()
    };
    let time_control = control_from(form)?;
    let clock_behaviour = clock_behaviour_from(form)?;
    let laws_edition = match form.laws_edition.as_deref() {
        Some("2018") => LawsEdition::Y2018,
        _ => LawsEdition::Y2023,
    };
    let draw_offers = match form.draw_offers.as_deref() {
        Some("forbidden") => DrawOfferPolicy::Forbidden,
        Some("arbiter_consent") => DrawOfferPolicy::ArbiterConsent,
        _ => DrawOfferPolicy::Allowed,
    };
    let earliest = whole(
        &form.earliest_agreement_move,
        "The earliest move of agreement",
    )?;
    let (tie_breaks, unplayed_rounds) = crate::web::tie_break_form::from_form(&form.tie_breaks)?;
    Ok(TournamentSettings {
        name: required(&form.name, "The name")?.to_string(),
        site: form.site.clone(),
        starts_on: date(&form.starts_on, "The first day")?,
        ends_on: date(&form.ends_on, "The last day")?,
        time_control,
        clock_behaviour,
        laws_edition,
        regulations: Regulations {
            draw_offers,
            earliest_agreement_move: earliest.map(|m| u32::try_from(m).unwrap_or(u32::MAX)),
            quickplay_finish: form.quickplay_finish.is_some(),
            incorrect_claim_penalty_ms: whole(
                &form.incorrect_claim_seconds,
                "The incorrect-claim time",
            )?
            .map(|s| s.saturating_mul(1000)),
            // The fair-play measures are set by their own form (`crate::web::measures`).
            electronic_devices: Default::default(),
            fair_play_report_days: None,
            // The appeals procedure has its own form (`crate::web::appeals_procedure`).
            appeals: Default::default(),
        },
        arbiters: form
            .arbiters
            .as_deref()
            .map(|text| {
                text.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
        time_zone: form
            .time_zone
            .as_deref()
            .map(str::parse::<TimeZone>)
            .transpose()?,
        tie_breaks,
        unplayed_rounds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: &str) -> Option<String> {
        Some(value.to_string())
    }

    /// The form of the Donostia Masters with `form`'s other fields.
    fn tournament(form: TournamentForm) -> Result<TournamentSettings, String> {
        settings_from(&TournamentForm {
            name: text("Donostia Masters 2026"),
            ..form
        })
    }

    #[test]
    fn the_old_one_period_form_reads_as_it_did_with_the_rate_of_play_derived_when_not_chosen() {
        let settings = tournament(TournamentForm {
            base_minutes: text("90"),
            increment_seconds: text("30"),
            ..TournamentForm::default()
        })
        .expect("reads");
        assert_eq!(
            settings.time_control,
            TimeControl::from_legacy(TimeControlKind::Standard, 5_400_000, 30_000)
        );
        assert_eq!(settings.clock_behaviour, ClockBehaviour::default());
        let blitz = tournament(TournamentForm {
            base_minutes: text("3"),
            increment_seconds: text("2"),
            ..TournamentForm::default()
        })
        .expect("reads");
        assert_eq!(blitz.time_control.kind, TimeControlKind::Blitz);
    }

    #[test]
    fn a_preset_or_periods_as_written_give_the_same_control_with_the_clocks_chosen() {
        let preset = tournament(TournamentForm {
            tc_form: text("fide_standard"),
            period_time_added: text("at_zero_both_clocks"),
            increment_credit: text("before_move"),
            ..TournamentForm::default()
        })
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
            let settings = tournament(TournamentForm {
                tc_form: text("written"),
                tc_written: text(written),
                ..TournamentForm::default()
            })
            .unwrap_or_else(|e| panic!("{written}: {e}"));
            assert_eq!(settings.time_control, preset.time_control, "{written}");
        }
        // The form shows a stored control as it was chosen.
        let values = values_of(&preset);
        assert_eq!(values.tc_form.as_deref(), Some("fide_standard"));
        assert_eq!(
            values.period_time_added.as_deref(),
            Some("at_zero_both_clocks")
        );
    }

    #[test]
    fn a_stored_tournament_written_into_the_form_reads_back_the_same() {
        let stored = tournament(TournamentForm {
            site: text("Donostia"),
            starts_on: text("2026-11-20"),
            ends_on: text("2026-11-28"),
            base_minutes: text("90"),
            increment_seconds: text("30"),
            laws_edition: text("2018"),
            draw_offers: text("arbiter_consent"),
            earliest_agreement_move: text("30"),
            incorrect_claim_seconds: text("60"),
            quickplay_finish: text("on"),
            arbiters: text("IA Anna Sokolova (chief)\nFA Jon Etxeberria"),
            time_zone: text("Europe/Madrid"),
            tie_breaks: TieBreakFields {
                tie_breaks: text("BH/C1, SB"),
                unplayed_rounds: text("before_2023"),
            },
            ..TournamentForm::default()
        })
        .expect("reads");
        assert_eq!(stored.arbiters.len(), 2);
        assert_eq!(stored.tie_breaks.len(), 2);
        assert_eq!(tournament(values_of(&stored)), Ok(stored));
    }

    #[test]
    fn a_control_the_form_cannot_use_is_refused_with_what_is_wrong() {
        let form =
            |tc_form: &str, tc_written: Option<&str>, tc_kind: Option<&str>| TournamentForm {
                tc_form: text(tc_form),
                tc_written: tc_written.map(str::to_owned),
                tc_kind: tc_kind.map(str::to_owned),
                ..TournamentForm::default()
            };
        let cases = [
            (
                form("blitz_3_plus_2", None, Some("standard")),
                "blitz by B.1",
            ),
            (form("written", Some("90+30"), None), "ambiguous"),
            (form("written", Some("?"), None), "gives no time control"),
            (form("written", None, None), "Write the periods"),
            (form("single", None, None), "Give the base time"),
        ];
        for (form, words) in cases {
            let shown = format!("{form:?}");
            let error = tournament(form).expect_err("refused");
            assert!(error.contains(words), "{shown}: {error}");
        }
    }

    #[test]
    fn a_number_or_a_date_that_does_not_read_is_refused_with_what_to_write() {
        let cases = [
            (
                TournamentForm {
                    base_minutes: text("ninety"),
                    ..TournamentForm::default()
                },
                "The base time must be a whole number, not `ninety`.",
            ),
            (
                TournamentForm {
                    base_minutes: text("90"),
                    starts_on: text("20/11/2026"),
                    ..TournamentForm::default()
                },
                "The first day must be a date like 2026-11-20.",
            ),
            (
                TournamentForm {
                    base_minutes: text("90"),
                    tie_breaks: TieBreakFields {
                        tie_breaks: text("BH, XYZ"),
                        unplayed_rounds: None,
                    },
                    ..TournamentForm::default()
                },
                "`XYZ` is not a tie-break",
            ),
        ];
        for (form, words) in cases {
            let error = tournament(form).expect_err("refused");
            assert!(error.contains(words), "{error}");
        }
        let nameless = settings_from(&TournamentForm {
            base_minutes: text("90"),
            ..TournamentForm::default()
        });
        assert_eq!(
            nameless,
            Err("The name is missing; fill it in.".to_string())
        );
    }
}

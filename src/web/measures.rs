//! The tournament's fair-play measures (issue 23), on its page: what its regulations say of
//! electronic devices (11.3.2.1, 11.3.2.2), pens and watches, and when the chief arbiter's
//! fair-play report is due. The fair-play roles see them; the chief arbiter and the
//! fair-play arbiter change them (a Fair Play Officer's entries are proposals, so an FPO
//! reads them only). They are the tournament's `regulations` (`electronic_devices`,
//! `fair_play_report_days`), the same fields the API sets, checked by the same
//! [`crate::tournament::TournamentSettings::validate`]; games created afterwards take them.
//!
//! Entry scans, random checks and the broadcast delay are not settings but events, recorded
//! at each game's fair-play desk; the panel says so and links there.

use super::PREFIX;
use super::error::WebError;
use super::layout;
use super::session::{Flash, Posted, Viewer, leave_flash};
use crate::access::FairPlayRole;
use crate::game::fair_play::{OpponentScore, PenaltyOption};
use crate::state::AppState;
use crate::store::EventRound;
use crate::tournament::Tournament;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use uuid::Uuid;

/// The flash's form name.
const FORM: &str = "fair-play-measures";

/// Whether `role` may change the measures: the chief arbiter and the fair-play arbiter.
fn may_change(role: FairPlayRole) -> bool {
    role != FairPlayRole::Fpo
}

/// The fair-play measures panel of `tournament`'s page, for a viewer with the fair-play
/// capability for it (nothing for anyone else).
pub fn panel(viewer: &Viewer, tournament: &Tournament, rounds: &[EventRound]) -> Markup {
    let settings = &tournament.settings;
    let Some(role) = viewer.principal.fair_play_for(&settings.name) else {
        return html! {};
    };
    let flash = viewer.flash().filter(|f| f.form == FORM);
    let devices = &settings.regulations.electronic_devices;
    let values = flash
        .as_ref()
        .filter(|f| f.refused)
        .map(|f| f.values.clone());
    let text = |name: &str, stored: String| {
        values
            .as_ref()
            .map(|v| v.get(name).cloned().unwrap_or_default())
            .unwrap_or(stored)
    };
    let checked = |name: &str, stored: bool| {
        values
            .as_ref()
            .map(|v| v.contains_key(name))
            .unwrap_or(stored)
    };
    let lesser = text(
        "lesser_penalty",
        devices
            .lesser_penalty
            .map(|p| {
                let score = devices
                    .lesser_penalty_opponent_score
                    .filter(|score| *score != OpponentScore::Win);
                match score {
                    Some(score) => {
                        format!("{}:{}", layout::wire_name(&p), layout::wire_name(&score))
                    }
                    None => layout::wire_name(&p),
                }
            })
            .unwrap_or_default(),
    );
    let days = text(
        "fair_play_report_days",
        settings
            .regulations
            .fair_play_report_days
            .map(|d| d.to_string())
            .unwrap_or_default(),
    );
    let minutes = text(
        "lesser_penalty_minutes",
        devices
            .lesser_penalty_ms
            .map(|ms| (ms / 60_000).to_string())
            .unwrap_or_default(),
    );
    let edition = settings.laws_edition;
    let report = format!(
        "{PREFIX}/fair-play?event={}",
        layout::query_escape(&settings.name)
    );
    html! {
        section.panel #fair-play-measures {
            h2 { "Fair-play measures" }
            p.hint { "Seen by the fair-play roles only. Games created from now on take these; a game keeps the regulations recorded when it was created." }
            @if let Some(flash) = &flash {
                @if flash.refused {
                    p.refusal role="alert" { (flash.message) }
                } @else {
                    p.notice role="status" { (flash.message) }
                }
            }
            @if may_change(role) {
                form.grid method="post" action={ (PREFIX) "/events/" (tournament.tournament_id) "/fair-play-measures" } {
                    (layout::csrf_field(viewer))
                    span.label { "Bags (11.3.2.1)" }
                    label.check {
                        input name="bags_allowed" type="checkbox" checked[checked("bags_allowed", devices.bags_allowed)];
                        " Devices allowed in a player's bag, completely switched off"
                    }
                    span.label { "Pens" }
                    label.check {
                        input name="pens_banned" type="checkbox" checked[checked("pens_banned", devices.pens_banned)];
                        " Banned in the playing area"
                    }
                    span.label { "Watches" }
                    label.check {
                        input name="watches_banned" type="checkbox" checked[checked("watches_banned", devices.watches_banned)];
                        " Banned in the playing area"
                    }
                    label for="lesser_penalty" { "Device on the person (11.3.2.2)" }
                    select #lesser_penalty name="lesser_penalty" {
                        option value="" selected[lesser.is_empty()] { "The Laws: the player loses, the opponent wins" }
                        @for option in PenaltyOption::ALL {
                            @let wire = layout::wire_name(&option);
                            option value=(wire) selected[lesser == wire] {
                                "Lesser penalty: " (option.article(edition)) " " (option.in_words())
                            }
                        }
                        // 12.9.6 with the opponent's score the regulations set.
                        @for score in [OpponentScore::Draw, OpponentScore::Loss] {
                            @let wire = format!("{}:{}", layout::wire_name(&PenaltyOption::GameLost), layout::wire_name(&score));
                            option value=(wire) selected[lesser == wire] {
                                "Lesser penalty: " (PenaltyOption::GameLost.article(edition)) " the game lost, the opponent scoring " (score.in_words())
                            }
                        }
                    }
                    label for="lesser_penalty_minutes" { "Time of a lesser 12.9.2 or 12.9.3 penalty (minutes)" }
                    input #lesser_penalty_minutes name="lesser_penalty_minutes" type="number" inputmode="numeric"
                        min="1" max="60" value=(minutes) placeholder="the arbiter sets it";
                    label for="fair_play_report_days" { "Fair-play report due (days after the last day)" }
                    input #fair_play_report_days name="fair_play_report_days" type="number" inputmode="numeric"
                        min="0" max="365" value=(days) placeholder="no deadline";
                    div.actions { button.primary type="submit" { "Save the measures" } }
                }
                @if settings.ends_on.is_none() && settings.regulations.fair_play_report_days.is_some() {
                    p.hint { "The report's deadline counts from the tournament's last day, which is not set: set it under \"Change the settings\"." }
                }
            } @else {
                dl.facts {
                    dt { "Bags (11.3.2.1)" } dd { (if devices.bags_allowed { "devices allowed, switched off" } else { "not allowed" }) }
                    dt { "Pens, watches" } dd { (if devices.pens_banned { "pens banned" } else { "pens allowed" }) ", " (if devices.watches_banned { "watches banned" } else { "watches allowed" }) }
                    dt { "Device on the person" } dd { @match devices.lesser_penalty {
                        Some(p) => {
                            (p.article(edition)) " " (p.in_words())
                            @if let Some(score) = devices.lesser_penalty_opponent_score {
                                ", the opponent scoring " (score.in_words())
                            }
                        }
                        None => { "loss (11.3.2.2)" }
                    } }
                    dt { "Report due" } dd { @match settings.regulations.fair_play_report_days {
                        Some(d) => { (d) " days after the last day" }
                        None => { "no deadline set" }
                    } }
                }
                p.hint { "The chief arbiter or the fair-play arbiter sets these; a Fair Play Officer's entries are proposals." }
            }
            h3 { "Entry scans, random checks, broadcast delay" }
            p.hint {
                "These are events, not settings: record each at the game's fair-play desk "
                "(open the game from a round's floor, then \"Fair-play desk\"). The report counts them."
            }
            p.links {
                @for round in rounds {
                    a href=(layout::round_link("floor", &settings.name, Some(&round.round))) { "Round " (round.round) " floor" } " "
                }
                a.button href=(report) { "Fair-play report" }
            }
        }
    }
}

/// The fair-play measures form, as the page names its inputs: the boxes ticked (a box sends
/// `on` when ticked, nothing otherwise) and what the arbiter typed or chose, as text (read by
/// [`measures_from`], which says what to fix).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct MeasuresForm {
    /// Ticked when devices may be kept in a bag, switched off (11.3.2.1).
    pub bags_allowed: Option<String>,
    /// Ticked when pens are banned from the playing area.
    pub pens_banned: Option<String>,
    /// Ticked when watches are banned from the playing area.
    pub watches_banned: Option<String>,
    /// The lesser penalty of 11.3.2.2, as the list names it (`game_lost:draw` for 12.9.6 with
    /// the opponent's score); none for the Laws' loss of the game.
    pub lesser_penalty: Option<String>,
    /// The time of a lesser 12.9.2 or 12.9.3 penalty, in minutes.
    pub lesser_penalty_minutes: Option<String>,
    /// The days after the last day by which the fair-play report is due.
    pub fair_play_report_days: Option<String>,
}

/// The regulations a measures form describes, or what to do about it.
fn measures_from(
    form: &MeasuresForm,
    mut regulations: crate::game::event::Regulations,
) -> Result<crate::game::event::Regulations, String> {
    let devices = &mut regulations.electronic_devices;
    devices.bags_allowed = form.bags_allowed.is_some();
    devices.pens_banned = form.pens_banned.is_some();
    devices.watches_banned = form.watches_banned.is_some();
    let (penalty, score) = match form.lesser_penalty.as_deref() {
        Some(wire) => match wire.split_once(':') {
            Some((penalty, score)) => (Some(penalty), Some(score)),
            None => (Some(wire), None),
        },
        None => (None, None),
    };
    devices.lesser_penalty_opponent_score = match score {
        None => None,
        Some(wire) => Some(
            [OpponentScore::Draw, OpponentScore::Loss]
                .into_iter()
                .find(|score| layout::wire_name(score) == wire)
                .ok_or_else(|| {
                    format!("`{wire}` is not an opponent's score of 12.9.6: choose from the list.")
                })?,
        ),
    };
    devices.lesser_penalty = match penalty {
        None => None,
        Some(wire) => Some(
            PenaltyOption::ALL
                .into_iter()
                .find(|option| layout::wire_name(option) == wire)
                .ok_or_else(|| {
                    format!(
                        "`{wire}` is not one of the penalties of 12.9: choose one from the \
                         list, or the Laws' loss of the game."
                    )
                })?,
        ),
    };
    devices.lesser_penalty_ms = match form.lesser_penalty_minutes.as_deref() {
        None => None,
        Some(text) => Some(
            text.parse::<u64>()
                .ok()
                .filter(|m| (1..=60).contains(m))
                .map(|m| m * 60_000)
                .ok_or_else(|| {
                    format!(
                        "The time of a lesser 12.9.2 or 12.9.3 penalty must be a whole number \
                         of minutes from 1 to 60, not `{text}`; leave it empty for the arbiter \
                         to set it."
                    )
                })?,
        ),
    };
    regulations.fair_play_report_days =
        match form.fair_play_report_days.as_deref() {
            None => None,
            Some(text) => Some(text.parse::<u32>().ok().filter(|d| *d <= 365).ok_or_else(
                || {
                    format!(
                        "The report's deadline must be a whole number of days from 0 to 365 after \
                 the tournament's last day, not `{text}`; leave it empty for no deadline."
                    )
                },
            )?),
        };
    Ok(regulations)
}

/// `POST /office/events/{id}/fair-play-measures`: saves the tournament's fair-play measures
/// (the chief arbiter and the fair-play arbiter); anyone without the capability is told
/// there is no such page.
pub async fn save(
    state: web::Data<AppState>,
    posted: Posted<MeasuresForm>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, WebError> {
    let Posted {
        viewer,
        fields,
        form,
    } = posted;
    let tournament_id = id.into_inner();
    let no_page = || WebError::NotFound("There is no such page.".into());
    let mut tournament = state
        .store
        .tournament(tournament_id)
        .await?
        .ok_or_else(no_page)?;
    let role = viewer
        .principal
        .fair_play_for(&tournament.settings.name)
        .ok_or_else(no_page)?;
    if !may_change(role) {
        return Err(WebError::Forbidden(
            "A Fair Play Officer's entries are proposals: the chief arbiter or the fair-play \
             arbiter sets the tournament's measures."
                .into(),
        ));
    }
    let checked =
        measures_from(&form, tournament.settings.regulations.clone()).and_then(|regulations| {
            tournament.settings.regulations = regulations;
            tournament
                .settings
                .validate()
                .map_err(|problem| problem.message)
        });
    let flash = match checked {
        Ok(()) => {
            state
                .store
                .update_tournament(
                    tournament_id,
                    &tournament.settings,
                    &viewer.principal.recorder(),
                )
                .await?;
            let mut message =
                "The fair-play measures were saved; games created from now on take them."
                    .to_string();
            if tournament.settings.ends_on.is_none()
                && tournament
                    .settings
                    .regulations
                    .fair_play_report_days
                    .is_some()
            {
                message.push_str(
                    " The report's deadline counts from the tournament's last day: set it \
                     under \"Change the settings\" to see the report due.",
                );
            }
            Flash {
                form: FORM.into(),
                refused: false,
                message,
                ..Flash::default()
            }
        }
        Err(message) => Flash {
            form: FORM.into(),
            refused: true,
            message: format!("Nothing was saved: {message}"),
            values: fields.0.clone(),
            code: None,
        },
    };
    leave_flash(&state, &viewer, &flash).await?;
    let back = format!("{PREFIX}/events/{tournament_id}#fair-play-measures");
    Ok(layout::see_other(&layout::after_write(&state, &back).await))
}

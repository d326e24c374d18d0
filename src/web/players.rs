//! Players' statuses on the tournament's page (issue 35, item 6): every withdrawal,
//! expulsion, requested bye and late entry with who recorded it, when and why, and for an
//! arbiter of the event the form that records one ([`crate::app::player_status::record`], the
//! same service as `POST /v1/tournaments/{id}/players/status`).

use super::PREFIX;
use super::error::WebError;
use super::forms::required;
use super::layout;
use super::session::{Flash, Posted, Viewer, leave_flash};
use crate::app::player_status::{self, StatusError};
use crate::app::trf::TrfError;
use crate::state::AppState;
use crate::tournament::Tournament;
use crate::tournament_log::{ByePoints, LoggedEntry, PlayerStatus};
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use uuid::Uuid;

/// The flash's form name.
const FORM: &str = "player-status";

/// The statuses panel of `tournament`'s page: the statuses in the log, and the form for a
/// viewer who may record.
pub fn panel(viewer: &Viewer, tournament: &Tournament, log: &[LoggedEntry]) -> Markup {
    let statuses = player_status::statuses(log);
    let may_write = viewer.is_arbiter()
        && viewer
            .principal
            .may_create_game(&tournament.settings.name)
            .is_ok();
    let flash = viewer.flash_for(FORM);
    let value = |name: &str| {
        flash
            .as_ref()
            .filter(|f| f.refused)
            .and_then(|f| f.values.get(name).cloned())
            .unwrap_or_default()
    };
    let hall = layout::HallTime::of(Some(tournament));
    html! {
        section.panel #player-status {
            h2 { "Players' statuses" }
            @if statuses.is_empty() {
                p.hint { "No withdrawal, expulsion, requested bye or late entry recorded." }
            } @else {
                table.list {
                    thead { tr { th { (hall.heading()) } th { "Status" } th { "Reason" } th { "Recorded by" } } }
                    tbody {
                        @for (logged, status) in &statuses {
                            tr {
                                td.nowrap { (hall.timestamp(logged.recorded_at)) }
                                td { (status.describe(None)) }
                                td { (status.reason()) }
                                td { (layout::recorder(&logged.recorded_by)) }
                            }
                        }
                    }
                }
            }
            p.hint {
                "The rounds a player does not play take their codes from these: Z (a known absence) after a "
                "withdrawal or an expulsion and before a late entry, H or Z for a requested bye. "
                "Players are named by their start rank in the report (TRF) and the standings."
            }
            @if may_write {
                @if let Some(f) = flash.as_ref().filter(|f| f.refused) {
                    p.refusal role="alert" { (f.message) }
                }
                form.grid method="post" action={ (PREFIX) "/events/" (tournament.tournament_id) "/players" } {
                    (layout::csrf_field(viewer))
                    label for="status_kind" { "Status" }
                    select #status_kind name="kind" {
                        @for (kind, label) in [("withdrawal", "Withdrawal"), ("expulsion", "Expulsion"),
                                               ("bye_request", "Requested bye"), ("late_entry", "Late entry")] {
                            option value=(kind) selected[value("kind") == kind] { (label) }
                        }
                    }
                    label for="status_start" { "Start rank" }
                    input #status_start name="start_number" inputmode="numeric" value=(value("start_number"));
                    label for="status_round" { "Round (from)" }
                    input #status_round name="round" inputmode="numeric" required value=(value("round"));
                    label for="status_points" { "Bye" }
                    select #status_points name="points" {
                        option value="half" selected[value("points") != "zero"] { "Half a point (H)" }
                        option value="zero" selected[value("points") == "zero"] { "No point (Z)" }
                    }
                    label for="status_name" { "Late entrant's name" }
                    input #status_name name="name" maxlength="33" placeholder="Lastname, Firstname" value=(value("name"));
                    label for="status_fide" { "FIDE id" }
                    input #status_fide name="fide_id" inputmode="numeric" value=(value("fide_id"));
                    label for="status_rating" { "Rating" }
                    input #status_rating name="rating" inputmode="numeric" value=(value("rating"));
                    label for="status_federation" { "Federation" }
                    input #status_federation name="federation" maxlength="3" value=(value("federation"));
                    label for="status_reason" { "Reason" }
                    textarea #status_reason name="reason" rows="2" maxlength="500" required { (value("reason")) }
                    div.actions { button.primary type="submit" { "Record the status" } }
                }
                p.hint {
                    "A withdrawal or an expulsion and a requested bye name the player by start rank; a late "
                    "entry by name (and FIDE id, rating, federation), and is given the next start rank. "
                    "A status is never changed: a later entry answers it."
                }
            }
        }
    }
}

/// The form that records a player's status, as the page names its inputs: what the arbiter
/// typed or chose, as text (read by [`status_from`], which says what to fix).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct PlayerStatusForm {
    /// The status: `withdrawal`, `expulsion`, `bye_request` or `late_entry`.
    pub kind: Option<String>,
    /// The player's start rank (a late entrant's, if given, must be the next one).
    pub start_number: Option<String>,
    /// The round the status takes effect from (a bye's round).
    pub round: Option<String>,
    /// A requested bye's points: `half` (H) or `zero` (Z).
    pub points: Option<String>,
    /// A late entrant's name, `Lastname, Firstname`.
    pub name: Option<String>,
    /// A late entrant's FIDE id.
    pub fide_id: Option<String>,
    /// A late entrant's rating.
    pub rating: Option<String>,
    /// A late entrant's federation (three letters).
    pub federation: Option<String>,
    /// Why, in words.
    pub reason: Option<String>,
}

/// A number field, or what to change.
fn number<T: std::str::FromStr>(value: &Option<String>, label: &str) -> Result<T, String> {
    let text = required(value, label)?;
    text.parse()
        .map_err(|_| format!("{label} `{text}` is not a number."))
}

/// An optional number field.
fn optional<T: std::str::FromStr>(
    value: &Option<String>,
    label: &str,
) -> Result<Option<T>, String> {
    value.as_ref().map(|_| number(value, label)).transpose()
}

/// The status the form describes.
fn status_from(form: &PlayerStatusForm) -> Result<PlayerStatus, String> {
    let round = number(&form.round, "The round")?;
    let reason = required(&form.reason, "The reason")?.to_string();
    let start = || number(&form.start_number, "The start rank");
    Ok(match form.kind.as_deref().unwrap_or("") {
        "withdrawal" => PlayerStatus::Withdrawal {
            start_number: start()?,
            from_round: round,
            reason,
        },
        "expulsion" => PlayerStatus::Expulsion {
            start_number: start()?,
            from_round: round,
            reason,
        },
        "bye_request" => PlayerStatus::ByeRequest {
            start_number: start()?,
            round,
            points: if form.points.as_deref() == Some("zero") {
                ByePoints::Zero
            } else {
                ByePoints::Half
            },
            reason,
        },
        "late_entry" => PlayerStatus::LateEntry {
            name: required(&form.name, "The late entrant's name")?.to_string(),
            fide_id: optional(&form.fide_id, "The FIDE id")?,
            rating: optional(&form.rating, "The rating")?,
            federation: form.federation.as_deref().map(str::to_uppercase),
            start_number: optional(&form.start_number, "The start rank")?,
            from_round: round,
            reason,
        },
        other => {
            return Err(format!(
                "`{other}` is not a status: choose one in the list."
            ));
        }
    })
}

/// `POST /office/events/{id}/players`: records a player's status.
pub async fn record(
    state: web::Data<AppState>,
    posted: Posted<PlayerStatusForm>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, WebError> {
    let Posted {
        viewer,
        fields,
        form,
    } = posted;
    let tournament_id = id.into_inner();
    let tournament = state
        .store
        .tournament(tournament_id)
        .await?
        .ok_or_else(|| {
            WebError::NotFound(format!("There is no tournament with id {tournament_id}."))
        })?;
    viewer
        .principal
        .may_create_game(&tournament.settings.name)?;
    let outcome = match status_from(&form) {
        Ok(status) => {
            let recorder = viewer.principal.recorder();
            match player_status::record(&state.arbitration, &tournament, status, &recorder).await {
                Ok(logged) => Ok(logged),
                Err(StatusError::Invalid(problem)) => Err(problem.message),
                Err(StatusError::Report(TrfError::Record(error))) => return Err(error.into()),
                Err(StatusError::Report(TrfError::Store(error))) => return Err(error.into()),
                Err(StatusError::Report(TrfError::Unreadable(message))) => Err(message),
            }
        }
        Err(message) => Err(message),
    };
    let flash = match outcome {
        Ok(logged) => Flash {
            form: FORM.into(),
            refused: false,
            message: match &logged.entry {
                crate::tournament_log::TournamentEntry::PlayerStatus { status } => {
                    format!("Recorded: {}.", status.describe(None))
                }
                _ => "Recorded.".into(),
            },
            ..Flash::default()
        },
        Err(message) => Flash {
            form: FORM.into(),
            refused: true,
            message: format!("Nothing was recorded: {message}"),
            values: fields.0.clone(),
            code: None,
        },
    };
    leave_flash(&state, &viewer, &flash).await?;
    let back = format!("{PREFIX}/events/{tournament_id}#player-status");
    Ok(layout::see_other(&layout::after_write(&state, &back).await))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: &str) -> Option<String> {
        Some(value.to_string())
    }

    fn late_entry(rating: Option<String>) -> PlayerStatusForm {
        PlayerStatusForm {
            kind: text("late_entry"),
            round: text("2"),
            name: text("Etxeberria, Jon"),
            rating,
            federation: text("esp"),
            reason: text("arrived after round 1"),
            ..PlayerStatusForm::default()
        }
    }

    #[test]
    fn a_late_entry_leaves_what_was_not_given_out_and_a_rating_that_does_not_read_says_so() {
        let status = status_from(&late_entry(None)).expect("reads");
        let PlayerStatus::LateEntry {
            fide_id,
            rating,
            federation,
            start_number,
            from_round,
            ..
        } = status
        else {
            panic!("a late entry: {status:?}");
        };
        assert_eq!((fide_id, rating, start_number), (None, None, None));
        assert_eq!(federation.as_deref(), Some("ESP"));
        assert_eq!(from_round, 2);
        assert_eq!(
            status_from(&late_entry(text("about 2100"))),
            Err("The rating `about 2100` is not a number.".to_string())
        );
    }

    #[test]
    fn a_status_without_its_round_or_of_no_known_kind_says_what_to_fill_in() {
        let no_round = PlayerStatusForm {
            round: None,
            ..late_entry(None)
        };
        assert_eq!(
            status_from(&no_round),
            Err("The round is missing; fill it in.".to_string())
        );
        let unknown = PlayerStatusForm {
            kind: text("retirement"),
            ..late_entry(None)
        };
        assert!(status_from(&unknown).is_err_and(|e| e.contains("`retirement` is not a status")));
    }
}

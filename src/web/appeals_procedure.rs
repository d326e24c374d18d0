//! The tournament's appeals procedure (issue 37 item 2), on its page: the regulation it
//! follows, the deadline for an appeal (from the end of the game or of the round), the
//! deposit, the chief arbiter's federation and the appeals committee. They are the
//! tournament's `regulations.appeals`, the same fields the API sets, checked by the same
//! [`crate::tournament::TournamentSettings::validate`]; games created afterwards take them,
//! and the engine checks each decision's committee against them
//! (`crate::rules::appeals::check_committee`). The arbiters who may set the tournament up
//! change them; everyone else reads them.

use super::PREFIX;
use super::error::WebError;
use super::layout;
use super::session::{Flash, Posted, Viewer, leave_flash};
use crate::rules::appeals::{AppealRegulations, CommitteeMember, CommitteeRole, DeadlineFrom};
use crate::state::AppState;
use crate::tournament::Tournament;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use uuid::Uuid;

/// The flash's form name.
pub const FORM: &str = "appeals-procedure";

/// A committee as the form's text area writes it: a member a line, `name, federation,
/// role` with `banned` after the role of a member who may not sit.
fn committee_text(committee: &[CommitteeMember]) -> String {
    committee
        .iter()
        .map(|member| {
            let mut line = format!(
                "{}, {}, {}",
                member.name,
                member.federation,
                layout::wire_name(&member.role)
            );
            if member.banned {
                line.push_str(", banned");
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The committee a text area describes, or what is wrong with which line.
fn committee_from(text: &str) -> Result<Vec<CommitteeMember>, String> {
    let mut committee = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let parts: Vec<&str> = line.split(',').map(str::trim).collect();
        if parts.iter().all(|p| p.is_empty()) {
            continue;
        }
        let number = index + 1;
        let (name, federation) = match parts.as_slice() {
            [name, federation, ..] if !name.is_empty() && !federation.is_empty() => {
                (*name, *federation)
            }
            _ => {
                return Err(format!(
                    "Line {number} of the committee (`{line}`) needs a name and a federation \
                     code, as `Anna Berg, NED, chairman`."
                ));
            }
        };
        let mut member = CommitteeMember {
            name: name.to_string(),
            federation: federation.to_uppercase(),
            role: CommitteeRole::Member,
            banned: false,
        };
        for word in &parts[2..] {
            match word.to_lowercase().as_str() {
                "chairman" | "chair" => member.role = CommitteeRole::Chairman,
                "member" | "" => member.role = CommitteeRole::Member,
                "reserve" => member.role = CommitteeRole::Reserve,
                "banned" => member.banned = true,
                other => {
                    return Err(format!(
                        "Line {number} of the committee: `{other}` is none of chairman, \
                         member, reserve or banned."
                    ));
                }
            }
        }
        committee.push(member);
    }
    Ok(committee)
}

/// The appeals procedure form, as the page names its inputs: what the arbiter typed or chose,
/// as text (read by [`procedure_from`], which says what to fix).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ProcedureForm {
    /// The regulation the procedure follows (`FIDE Handbook C.11`).
    pub regulation: Option<String>,
    /// The deadline for an appeal, in minutes; none for no deadline.
    pub deadline_minutes: Option<String>,
    /// What the deadline counts from: `game_end` or `round_end`.
    pub deadline_from: Option<String>,
    /// The deposit, in words (`100 EUR`).
    pub deposit: Option<String>,
    /// The chief arbiter's federation (three letters).
    pub chief_arbiter_federation: Option<String>,
    /// The committee, a member a line (`name, federation, role`).
    pub committee: Option<String>,
}

/// The procedure a form describes, or what to do about it.
fn procedure_from(form: &ProcedureForm) -> Result<AppealRegulations, String> {
    let deadline_minutes = match form.deadline_minutes.as_deref() {
        None => None,
        Some(text) => Some(
            text.parse::<u32>()
                .ok()
                .filter(|m| (1..=10_080).contains(m))
                .ok_or_else(|| {
                    format!(
                        "The deadline must be a whole number of minutes from 1 to 10080 (a \
                         week), not `{text}`; leave it empty for no deadline."
                    )
                })?,
        ),
    };
    Ok(AppealRegulations {
        regulation: form.regulation.clone(),
        deadline_minutes,
        deadline_from: match form.deadline_from.as_deref() {
            Some("round_end") => DeadlineFrom::RoundEnd,
            _ => DeadlineFrom::GameEnd,
        },
        deposit: form.deposit.clone(),
        committee: committee_from(form.committee.as_deref().unwrap_or_default())?,
        chief_arbiter_federation: form
            .chief_arbiter_federation
            .as_deref()
            .map(str::to_uppercase),
    })
}

/// The appeals procedure panel of `tournament`'s page; its form for those who may set the
/// tournament up (`may_write`).
pub fn panel(viewer: &Viewer, tournament: &Tournament, may_write: bool) -> Markup {
    let appeals = &tournament.settings.regulations.appeals;
    let flash = viewer.flash().filter(|f| f.form == FORM);
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
    let deadline_from = text("deadline_from", layout::wire_name(&appeals.deadline_from));
    html! {
        section.panel #appeals-procedure {
            h2 { "Appeals procedure" }
            p.hint {
                "The Laws give the right of appeal (11.10) and leave the procedure to the "
                "regulations: FIDE Handbook C.11 (members of different federations, only the "
                "chairman need be present, banned members not eligible; 60 minutes in standard "
                "play, 15 in rapid and blitz) or the continental rules (ECU: no member of the "
                "chief arbiter's federation, the deposit returned if the appeal is upheld)."
            }
            @if let Some(flash) = &flash {
                @if flash.refused {
                    p.refusal role="alert" { (flash.message) }
                } @else {
                    p.notice role="status" { (flash.message) }
                }
            }
            @if may_write {
                form.grid method="post" action={ (PREFIX) "/events/" (tournament.tournament_id) "/appeals-procedure" } {
                    (layout::csrf_field(viewer))
                    label for="appeals-regulation" { "Regulation" }
                    input #appeals-regulation name="regulation" maxlength="200"
                        value=(text("regulation", appeals.regulation.clone().unwrap_or_default()))
                        placeholder="FIDE Handbook C.11, ECU Tournament Rules";
                    label for="appeals-deadline" { "Deadline (minutes)" }
                    input #appeals-deadline name="deadline_minutes" type="number" inputmode="numeric" min="1" max="10080"
                        value=(text("deadline_minutes", appeals.deadline_minutes.map(|m| m.to_string()).unwrap_or_default()))
                        placeholder="no deadline";
                    label for="appeals-deadline-from" { "Counted from" }
                    select #appeals-deadline-from name="deadline_from" {
                        option value="game_end" selected[deadline_from == "game_end"] { "the end of the game" }
                        option value="round_end" selected[deadline_from == "round_end"] { "the end of the round (its last game)" }
                    }
                    label for="appeals-deposit" { "Deposit" }
                    input #appeals-deposit name="deposit" maxlength="200"
                        value=(text("deposit", appeals.deposit.clone().unwrap_or_default()))
                        placeholder="100 EUR";
                    label for="appeals-federation" { "Chief arbiter's federation" }
                    input #appeals-federation name="chief_arbiter_federation" maxlength="3" size="4"
                        value=(text("chief_arbiter_federation", appeals.chief_arbiter_federation.clone().unwrap_or_default()))
                        placeholder="ECU rules: e.g. ESP";
                    label for="appeals-committee" { "Committee, a member a line" }
                    textarea #appeals-committee name="committee" rows="4"
                        placeholder="Anna Berg, NED, chairman\nJan Novak, CZE, member\nLuis Vidal, POR, reserve" {
                        (text("committee", committee_text(&appeals.committee)))
                    }
                    div.actions { button.primary type="submit" { "Save the procedure" } }
                }
            } @else {
                dl.facts {
                    dt { "Regulation" } dd { (appeals.regulation.as_deref().unwrap_or("not named")) }
                    dt { "Deadline" } dd { @match appeals.deadline_minutes {
                        Some(m) => { (m) " minutes from the end of the " (if appeals.deadline_from == DeadlineFrom::RoundEnd { "round" } else { "game" }) }
                        None => { "none" }
                    } }
                    dt { "Deposit" } dd { (appeals.deposit.as_deref().unwrap_or("none")) }
                    dt { "Committee" } dd {
                        @if appeals.committee.is_empty() { "not named" }
                        ul.plain { @for line in committee_text(&appeals.committee).lines() { li { (line) } } }
                    }
                }
            }
        }
    }
}

/// `POST /office/events/{id}/appeals-procedure`: saves the tournament's appeals procedure,
/// for the arbiters who may set the tournament up.
pub async fn save(
    state: web::Data<AppState>,
    posted: Posted<ProcedureForm>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, WebError> {
    let Posted {
        viewer,
        fields,
        form,
    } = posted;
    let tournament_id = id.into_inner();
    let mut tournament = state
        .store
        .tournament(tournament_id)
        .await?
        .ok_or_else(|| WebError::NotFound("There is no such tournament.".into()))?;
    viewer
        .principal
        .may_create_game(&tournament.settings.name)?;
    let checked = procedure_from(&form).and_then(|appeals| {
        tournament.settings.regulations.appeals = appeals;
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
            Flash {
                form: FORM.into(),
                refused: false,
                message: "The appeals procedure was saved; games created from now on take it."
                    .into(),
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
    let back = format!("{PREFIX}/events/{tournament_id}#appeals-procedure");
    Ok(layout::see_other(&layout::after_write(&state, &back).await))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_committee_reads_a_member_a_line_and_writes_back_the_same() {
        let committee = committee_from(
            "Anna Berg, ned, chairman\n\nJan Novak, CZE\nLuis Vidal, POR, reserve, banned\n",
        )
        .expect("a committee");
        assert_eq!(committee.len(), 3);
        assert_eq!(committee[0].federation, "NED");
        assert_eq!(committee[0].role, CommitteeRole::Chairman);
        assert_eq!(committee[1].role, CommitteeRole::Member);
        assert!(committee[2].banned && committee[2].role == CommitteeRole::Reserve);
        assert_eq!(
            committee_from(&committee_text(&committee)).expect("read back"),
            committee
        );
    }

    #[test]
    fn a_committee_line_without_a_federation_or_with_an_unknown_word_says_which_line() {
        let missing = committee_from("Anna Berg, NED, chairman\nJan Novak").expect_err("no code");
        assert!(missing.starts_with("Line 2 of the committee"), "{missing}");
        let unknown = committee_from("Anna Berg, NED, president").expect_err("unknown role");
        assert!(unknown.contains("`president` is none of"), "{unknown}");
    }
}

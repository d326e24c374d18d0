//! A decision as the arbiter saw it (time travel to the `seq` before it), its audit, and
//! its appeals.

use crate::app::arbitration::AuditReport;
use crate::game::event::{Event, RecordedEvent, ServiceEvent};
use crate::game::narration::Narrator;
use crate::request::Reads;
use crate::state::AppState;
use crate::store::EventEnvelope;
use crate::web::PREFIX;
use crate::web::desk::{self, Loaded};
use crate::web::error::WebError;
use crate::web::layout::{self, HallTime, Nav};
use crate::web::session::{Flash, Viewer};
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use uuid::Uuid;

/// The recorded event a stored event rests on: a decision's cause, or the event itself.
pub(super) fn cause_of(event: &Event, seq: u64) -> u64 {
    match event {
        Event::Service(ServiceEvent::ClaimRuled(ruling)) => ruling.claim_seq,
        Event::Service(ServiceEvent::PenaltyApplied { cause_seq, .. })
        | Event::Service(ServiceEvent::GameEnded { cause_seq, .. }) => *cause_seq,
        _ => seq,
    }
}

/// `GET /office/games/{id}/decisions/{seq}`: a decision as the arbiter saw it, its audit,
/// and its appeals.
pub async fn decision(
    state: web::Data<AppState>,
    viewer: Viewer,
    reads: Reads,
    path: web::Path<(Uuid, u64)>,
) -> Result<HttpResponse, WebError> {
    let (game_id, seq) = path.into_inner();
    let now = desk::load(&state, &reads, game_id, None).await?;
    let Some(decision) = now.log.iter().find(|e| e.seq == seq) else {
        return Err(WebError::NotFound(format!(
            "The log of this game ends at event #{}; there is no event #{seq}.",
            now.seq
        )));
    };
    let cause = cause_of(&decision.event, seq);
    let before_seq = cause.saturating_sub(1).max(1);
    let before = desk::load(&state, &reads, game_id, Some(before_seq)).await?;
    let audit = state.arbitration.audit_on(&reads, game_id).await?;
    let page = DecisionPage {
        game_id,
        seq,
        cause,
        before_seq,
        batch_id: decision.batch_id,
        now: &now,
        before: &before,
        audit: &audit,
        // The venue's clock, as on every sheet of the tournament.
        hall: HallTime::of(reads.tournament_named(&now.summary.event).await?.as_ref()),
        narrator: Narrator::for_log(now.log.iter().map(|e| (e.seq, &e.event))),
        flash: viewer.flash_for("record"),
        viewer: &viewer,
    };
    Ok(layout::ok(layout::page(
        &format!("Decision #{seq}"),
        Some(&viewer),
        Nav::Appeals,
        page.body(),
    )))
}

/// What the decision page shows, read once: the game now and just before the decision's
/// cause, and the audit of its log.
struct DecisionPage<'a> {
    game_id: Uuid,
    /// The decision's `seq`.
    seq: u64,
    /// The recorded event it rests on.
    cause: u64,
    /// The `seq` the game is shown at: just before the cause.
    before_seq: u64,
    /// The append the decision was stored in.
    batch_id: Uuid,
    now: &'a Loaded,
    /// The game just before the cause.
    before: &'a Loaded,
    audit: &'a AuditReport,
    hall: HallTime,
    narrator: Narrator,
    flash: Option<Flash>,
    viewer: &'a Viewer,
}

impl DecisionPage<'_> {
    fn body(&self) -> Markup {
        html! {
            (desk::game_heading(&self.now.summary))
            @if let Some(flash) = &self.flash {
                @if flash.refused { p.refusal role="alert" { (flash.message) } } @else { p.notice role="status" { (flash.message) } }
            }
            div.desk {
                (self.as_the_arbiter_saw_it())
                div.desk-side {
                    section.panel {
                        h2 { "The decision" }
                        @for e in self.now.log.iter().filter(|e| e.batch_id == self.batch_id && e.seq >= self.cause) {
                            (desk::decision_panel(self.game_id, e, &self.narrator))
                        }
                    }
                    (self.audit_panel())
                    (self.appeals_panel())
                }
            }
            @if !self.before.log.is_empty() {
                p.hint { "The log up to then has " (self.before.log.len()) " events; the timeline of the desk lists them all." }
            }
        }
    }

    /// The recorded event the decision rests on, when the log still has it.
    fn cause_event(&self) -> Option<&EventEnvelope> {
        self.now.log.iter().find(|e| e.seq == self.cause)
    }

    /// The board, clocks and counts just before the cause.
    fn as_the_arbiter_saw_it(&self) -> Markup {
        let (game_id, before_seq) = (self.game_id, self.before_seq);
        let before = self.before.game.view();
        html! {
            div.desk-board {
                h2 { "As the arbiter saw it" }
                p.hint {
                    "The game as it stood just before "
                    // The sentence ends with its own full stop.
                    @if let Some(c) = self.cause_event() { "this: " (desk::describe(&self.narrator, c.seq, &c.event).trim_end_matches('.')) } @else { "the decision" }
                    "."
                }
                (desk::diagram(game_id, before_seq, 320, &format!("After event #{before_seq}: {} to move", layout::side_name(before.side_to_move))))
                dl.facts {
                    dt { "Clocks" } dd { "W " (layout::clock(before.clocks.white_ms)) " · B " (layout::clock(before.clocks.black_ms)) }
                    dt { "50-move count" } dd { (before.halfmove_clock) " half-moves" }
                    dt { "Moves" } dd { (before.scoresheet.join(" ")) }
                }
                p { a href={ (PREFIX) "/games/" (game_id) "?at_seq=" (before_seq) } { "Open the desk as it stood then" } }
            }
        }
    }

    /// Whether the engine, re-run on the log, decides what is stored.
    fn audit_panel(&self) -> Markup {
        let audit = self.audit;
        let audited = audit
            .decisions
            .iter()
            .find(|d| d.cause_seq == self.cause || d.stored_seqs.contains(&self.seq));
        let person_decided = self.cause_event().is_some_and(|c| {
            matches!(
                c.event,
                Event::Recorded(RecordedEvent::ArbiterDecision { .. })
                    | Event::Recorded(RecordedEvent::AppealDecided { .. })
            )
        });
        html! {
            section.panel {
                h2 { "Audit" }
                p {
                    "Verdict for the game: " strong { (audit.verdict) } " (" (audit.summary) ") "
                    @match audited {
                        Some(d) if d.reproduced && person_decided => { "The decision is the person's; what the engine (" (audit.engine_version) ") derived from #" (d.cause_seq) " on the log before it is exactly what is stored." }
                        Some(d) if d.reproduced => { "The engine (" (audit.engine_version) "), re-run on the log before #" (d.cause_seq) ", decides exactly what is stored." }
                        Some(d) => { strong { "The engine now decides differently" } " (" (audit.engine_version) ", stored by " (d.stored_engine_version.as_deref().unwrap_or("an unknown engine")) ") on the log before #" (d.cause_seq) ": both versions are shown below." }
                        None => { "This event is a person's decision; the engine derived nothing from it to re-check." }
                    }
                }
                @if let Some(d) = audited.filter(|d| !d.notes.is_empty()) {
                    ul.plain.notes { @for note in &d.notes { li { (note) } } }
                }
                @if let Some(d) = audited.filter(|d| !d.reproduced) {
                    details open {
                        summary { "Stored and recomputed" }
                        pre.json { (serde_json::to_string_pretty(&d.stored).unwrap_or_default()) }
                        @if let Some(refusal) = &d.refusal {
                            p { "The engine refuses it now: " (refusal.message) " (" code { (refusal.refused) } ")." }
                        } @else {
                            pre.json { (serde_json::to_string_pretty(&d.recomputed).unwrap_or_default()) }
                        }
                    }
                }
                p.hint { "Hash chain: " @if audit.chain.intact { "intact" } @else { "broken" } ", head #" (audit.chain.head_seq) "." }
            }
        }
    }

    /// The appeals lodged and decided against the decision, with the forms to lodge and to
    /// decide one for whoever may record them.
    fn appeals_panel(&self) -> Markup {
        let seq = self.seq;
        let history: Vec<&EventEnvelope> = self
            .now
            .log
            .iter()
            .filter(|e| {
                matches!(&e.event,
                Event::Recorded(RecordedEvent::AppealLodged { against_seq, .. })
                | Event::Recorded(RecordedEvent::AppealDecided { against_seq, .. })
                if *against_seq == seq)
            })
            .collect();
        let corrections: Vec<(u64, u64)> = self
            .now
            .log
            .iter()
            .filter_map(|e| match e.event {
                Event::Recorded(RecordedEvent::Correction { retracts_seq, .. }) => {
                    Some((e.seq, retracts_seq))
                }
                _ => None,
            })
            .collect();
        let standing =
            |e: &&&EventEnvelope| crate::game::retracted_by(&corrections, e.seq, false).is_none();
        let lodged = history
            .iter()
            .filter(standing)
            .any(|e| matches!(e.event, Event::Recorded(RecordedEvent::AppealLodged { .. })));
        // The committee's decision is final (FIDE Tournament Rules VII.4): once one stands,
        // the form to decide is gone.
        let decided = history
            .iter()
            .filter(standing)
            .find(|e| {
                matches!(
                    e.event,
                    Event::Recorded(RecordedEvent::AppealDecided { .. })
                )
            })
            .map(|e| e.seq);
        let event_name = &self.now.summary.event;
        let principal = &self.viewer.principal;
        let may_lodge = principal.may_record("appeal_lodged", event_name).is_ok();
        let may_decide = principal.may_record("appeal_decided", event_name).is_ok();
        html! {
            section.panel {
                h2 { "Appeals" }
                @if history.is_empty() { p.hint { "No appeal against this decision." } }
                ul.plain.history {
                    @for e in &history {
                        li { span.when { (self.hall.timestamp(e.recorded_at)) } " · " (desk::describe(&self.narrator, e.seq, &e.event)) " · " span.who { (layout::recorder(&e.recorded_by)) } }
                    }
                }
                @if may_lodge { (self.lodge_form()) }
                @if let Some(decided) = decided {
                    p.hint.final-decision { "The committee's decision (#" (decided) ") is final and is not decided again. If it was recorded wrongly, retract it with a correction of #" (decided) " while it is the game's latest event, then record the decision as it was made." }
                } @else if may_decide && lodged {
                    (self.decide_form())
                }
                p.hint { "The history keeps both: the original decision stays in the log, and the appeal's decision follows it." }
            }
        }
    }

    /// The form to lodge an appeal against the decision (open again when it was refused).
    fn lodge_form(&self) -> Markup {
        let refused_here = self.flash.as_ref().is_some_and(|f| {
            f.refused && f.values.get("type").map(String::as_str) == Some("appeal_lodged")
        });
        html! {
            details open[refused_here] {
                summary { "Lodge an appeal" }
                form.record method="post" action={ (PREFIX) "/games/" (self.game_id) "/record" } {
                    (self.form_head("appeal_lodged"))
                    div.row {
                        label for="appellant" { "Appellant" }
                        input #appellant name="appellant" required maxlength="200" placeholder="Black (Okafor, Ben)" value=(self.kept("appellant"));
                    }
                    div.row {
                        label for="grounds" { "Grounds" }
                        textarea #grounds name="grounds" required maxlength="4000" rows="3" { (self.kept("grounds")) }
                    }
                    button.primary type="submit" { "Lodge the appeal" }
                }
            }
        }
    }

    /// The form to record the appeals committee's decision.
    fn decide_form(&self) -> Markup {
        html! {
            details open {
                summary { "Decide the appeal" }
                form.record method="post" action={ (PREFIX) "/games/" (self.game_id) "/record" } {
                    (self.form_head("appeal_decided"))
                    div.row {
                        label.check { input type="radio" name="upheld" value="yes"; " upheld" }
                        label.check { input type="radio" name="upheld" value="no" checked; " dismissed" }
                        label for="appeal-result" { "New result" }
                        select #appeal-result name="result" {
                            option value="" { "unchanged" }
                            option value="1-0" { "1-0" } option value="1/2-1/2" { "½-½" } option value="0-1" { "0-1" }
                            option value="resume" { "annulled: play resumes" }
                        }
                    }
                    div.row {
                        span.hint { "Play resumes (the ruling annulled, 11.10) with the clocks at:" }
                        label for="resume-white" { "White" }
                        input #resume-white name="resume_white" size="8" inputmode="numeric" placeholder="1:05:00" value=(self.kept("resume_white"));
                        label for="resume-black" { "Black" }
                        input #resume-black name="resume_black" size="8" inputmode="numeric" placeholder="0:58:30" value=(self.kept("resume_black"));
                    }
                    div.row {
                        label for="appeal-reason" { "The committee's reasons" }
                        textarea #appeal-reason name="reason" required maxlength="2000" rows="3" { (self.kept("reason")) }
                    }
                    button.primary type="submit" { "Record the committee's decision" }
                }
            }
        }
    }

    /// The hidden fields every appeal form carries: the token, the page's `seq`, a fresh
    /// event id, the event type, the decision appealed and the page to come back to.
    fn form_head(&self, kind: &str) -> Markup {
        let here = format!("{PREFIX}/games/{}/decisions/{}", self.game_id, self.seq);
        html! {
            (layout::csrf_field(self.viewer))
            input type="hidden" name="expected_seq" value=(self.now.seq);
            input type="hidden" name="event_id" value=(Uuid::new_v4());
            input type="hidden" name="type" value=(kind);
            input type="hidden" name="against_seq" value=(self.seq);
            input type="hidden" name="return_to" value=(here);
        }
    }

    /// What the arbiter typed into a field of a form that was refused, to show again.
    fn kept(&self, name: &str) -> String {
        self.flash
            .as_ref()
            .filter(|f| f.refused)
            .and_then(|f| f.values.get(name).cloned())
            .unwrap_or_default()
    }
}

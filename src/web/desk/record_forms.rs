//! The desk's recording forms: one per event of the vocabulary the viewer may record, the
//! refusal that keeps what was typed, the confirmation of an entry the evidence doubts, and
//! "undo the last entry".

use super::decision::describe;
use crate::game::GameView;
use crate::game::event::{ArbiterRuling, IllegalMoveKind, Side};
use crate::game::narration::Narrator;
use crate::game::view::GameStatus;
use crate::web::PREFIX;
use crate::web::layout;
use crate::web::session::{Flash, Viewer};
use maud::{Markup, html};
use uuid::Uuid;

pub(super) fn refusal_panel(flash: &Flash, frame: &FormFrame, event_name: &str) -> Markup {
    html! {
        section.panel.answer.refused #answer role="alert" {
            h2 { "Not recorded" }
            p.refusal {
                @if let Some(title) = flash.code.as_deref().and_then(crate::problem::ProblemCode::parse).and_then(crate::problem::ProblemCode::title) { span.code { (title) } ": " }
                (flash.message)
            }
            @if flash.code.as_deref() == Some("needs_confirmation") {
                (confirm_form(frame.viewer, flash))
            } @else {
                p.hint { "Nothing was stored. The form below keeps what you typed." }
            }
            (played_as_illegal(flash, frame, event_name))
        }
    }
}

/// The form an arbiter confirms an entry with after the evidence was shown
/// ([`crate::app::confirmations`]): the same values again, with `confirmed`. It is drawn at
/// the `seq` the first form was drawn at, so an entry overtaken by another one is refused as
/// stale rather than confirmed blind. Also shown by the results page.
pub fn confirm_form(viewer: &Viewer, flash: &Flash) -> Markup {
    let (Some(game_id), Some(expected_seq)) =
        (flash.values.get("game_id"), flash.values.get("confirm_seq"))
    else {
        return html! {};
    };
    html! {
        form.record.confirm method="post" action={ (PREFIX) "/games/" (game_id) "/record" } {
            (layout::csrf_field(viewer))
            input type="hidden" name="expected_seq" value=(expected_seq);
            input type="hidden" name="event_id" value=(Uuid::new_v4());
            @for (name, value) in flash.values.iter().filter(|(name, _)| !matches!(name.as_str(), "csrf" | "game_id" | "confirm_seq" | "confirmed")) {
                input type="hidden" name=(name) value=(value);
            }
            input type="hidden" name="confirmed" value="yes";
            p.hint { "Nothing was stored. If the entry is right after all, confirm it:" }
            button.danger type="submit" { "Record it as entered" }
        }
    }
}

/// A typed move the engine refused as not legal (or as played out of turn) may be what was
/// played on the board: one button records it as the illegal move it was (7.5.1), with the
/// move as typed (which names the piece touched, 4.3) and completed when the form said the
/// clock was pressed. Nothing for other refusals.
pub(super) fn played_as_illegal(flash: &Flash, frame: &FormFrame, event_name: &str) -> Markup {
    let values = &flash.values;
    let refused_move = values.get("type").map(String::as_str) == Some("move")
        && matches!(
            flash.code.as_deref(),
            Some("illegal_move" | "not_your_turn")
        );
    let (Some(by), Some(san)) = (values.get("by"), values.get("san")) else {
        return html! {};
    };
    let san = san.trim();
    if !refused_move
        || san.is_empty()
        || frame
            .viewer
            .principal
            .may_record("illegal_move", event_name)
            .is_err()
    {
        return html! {};
    }
    let pressed = values.contains_key("press");
    html! {
        (frame.form("illegal_move", "form-played-as-illegal", "inline", html! {
            input type="hidden" name="by" value=(by);
            input type="hidden" name="kind" value="illegal_move";
            input type="hidden" name="attempted_move" value=(san);
            input type="hidden" name="description" value={ (san) " played on the board, not a legal move there" };
            label.check { input type="checkbox" name="completed" checked[pressed]; " completed (the clock was pressed)" }
            button type="submit" { "Record " (san) " as an illegal move (7.5)" }
        }))
    }
}

pub(super) fn side_options(selected: Option<&str>, default: Side) -> Markup {
    let chosen = selected.unwrap_or(default.name());
    html! {
        option value="white" selected[chosen == "white"] { "White" }
        option value="black" selected[chosen == "black"] { "Black" }
    }
}

/// One recording form.
pub(super) struct FormFrame<'a> {
    pub(super) viewer: &'a Viewer,
    pub(super) game_id: Uuid,
    pub(super) expected_seq: u64,
    /// The refused form's values, when it is this one.
    pub(super) kept: Option<&'a Flash>,
}

impl FormFrame<'_> {
    fn kept(&self, kind: &str) -> Option<&Flash> {
        self.kept
            .filter(|f| f.values.get("type").map(String::as_str) == Some(kind))
    }

    fn value(&self, kind: &str, name: &str) -> String {
        self.kept(kind)
            .and_then(|f| f.values.get(name).cloned())
            .unwrap_or_default()
    }

    fn form(&self, kind: &str, id: &str, class: &str, inner: Markup) -> Markup {
        html! {
            form id=(id) class={ "record " (class) } method="post" action={ (PREFIX) "/games/" (self.game_id) "/record" } {
                (layout::csrf_field(self.viewer))
                input type="hidden" name="expected_seq" value=(self.expected_seq);
                input type="hidden" name="event_id" value=(Uuid::new_v4());
                input type="hidden" name="type" value=(kind);
                (inner)
            }
        }
    }
}

/// Every recording form the viewer may use.
pub(super) fn record_forms(frame: &FormFrame, view: &GameView, event_name: &str) -> Markup {
    let forms = RecordForms {
        frame,
        view,
        event_name,
    };
    let may = |kind: &str| forms.may(kind);
    let over = forms.over();
    html! {
        @if over && (may("correction") || may("appeal_lodged")) { (forms.game_over()) }
        @if may("move") && !over {
            section.panel.record-main {
                h2 { "Record" }
                (forms.move_and_clock())
                (forms.touch_and_draw())
                (forms.claim())
                (forms.illegal_move())
                (forms.flag_resignation_and_adjustment())
            }
        }
        @if may("arbiter_decision") { (forms.arbiter_decision()) }
        @if may("correction") { (forms.correction()) }
        @if may("appeal_lodged") || may("appeal_decided") {
            p.panel.hint { "Appeals are lodged and decided on the review page of a decision (follow “review” in the timeline)." }
        }
    }
}

/// The recording forms of one desk page: what the viewer may record on this game as it
/// stands, each form keeping what was typed when it was refused.
struct RecordForms<'a> {
    frame: &'a FormFrame<'a>,
    view: &'a GameView,
    event_name: &'a str,
}

impl RecordForms<'_> {
    /// Whether the viewer may record events of this type in this event.
    fn may(&self, kind: &str) -> bool {
        self.frame
            .viewer
            .principal
            .may_record(kind, self.event_name)
            .is_ok()
    }

    /// Whether the game has ended: the Laws accept no board event after it.
    fn over(&self) -> bool {
        self.view.status == GameStatus::Ended
    }

    fn to_move(&self) -> Side {
        self.view.side_to_move
    }

    /// A claim waiting for the arbiter: what a decision is most likely about.
    fn open_claim(&self) -> Option<u64> {
        self.view.open_claims.first().map(|claim| claim.seq)
    }

    /// Whether one of these forms was refused, so that it is shown open.
    fn open(&self, kinds: &[&str]) -> bool {
        kinds.iter().any(|k| self.frame.kept(k).is_some())
    }

    /// The choice of player, as refused or else `default`.
    fn by_select(&self, kind: &str, name: &str, default: Side) -> Markup {
        let kept = self.frame.value(kind, name);
        html! {
            select name=(name) aria-label="Player" { (side_options((!kept.is_empty()).then_some(kept.as_str()), default)) }
        }
    }

    /// What can still be recorded once the game is over.
    fn game_over(&self) -> Markup {
        html! {
        section.panel.hint {
            "The game is self.over()"
            @if let (Some(result), Some(article)) = (self.view.result, &self.view.article) { " (" (layout::result_text(result)) ", " (article) ")" }
            ". The Laws accept no board event after the end; what can still be recorded: a correction of the latest event if it was a data-entry error, an arbiter's warning, and appeals (on the review page of a decision)."
        }
        }
    }

    /// The move with its clock press, the clock buttons, and a press with both times.
    fn move_and_clock(&self) -> Markup {
        html! {
            (self.frame.form("move", "form-move", "move", html! {
                div.row {
                    label for="move-by" { "Player" }
                    select #move-by name="by" { (side_options(Some(&{ let k = self.frame.value("move", "by"); if k.is_empty() { self.to_move().name().to_string() } else { k } }), self.to_move())) }
                    label for="san" { "Move" }
                    input #san name="san" required maxlength="16" accesskey="m" autocomplete="off" autocapitalize="off" spellcheck="false"
                        placeholder="e4, Nf3, O-O" value=(self.frame.value("move", "san"));
                }
                div.row {
                    label.check { input type="checkbox" name="press" checked[self.frame.kept("move").is_none_or(|f| f.values.contains_key("press"))]; " and the clock press" }
                    input type="hidden" name="event_id_press" value=(Uuid::new_v4());
                    label for="move-clock" { "Mover's clock" }
                    input #move-clock name="clock" inputmode="numeric" placeholder="1:29:51" value=(self.frame.value("move", "clock")) size="8";
                    button.primary type="submit" { "Record move" }
                }
            }))
            div.quick {
                @for side in [Side::White, Side::Black] {
                    (self.frame.form("clock_press", &format!("form-press-{}", side.name()), "inline", html! {
                        input type="hidden" name="by" value=(side.name());
                        button type="submit" { (layout::side_name(side)) " presses clock" }
                    }))
                }
                (self.frame.form("clock_pause", "form-pause", "inline", html! { button type="submit" { "Pause clock" } }))
                (self.frame.form("clock_resume", "form-resume", "inline", html! { button type="submit" { "Restart clock" } }))
            }
            details open[self.open(&["clock_press"])] {
                summary { "Clock press with both times" }
                (self.frame.form("clock_press", "form-press-times", "", html! {
                    div.row {
                        label { "Player" } (self.by_select("clock_press", "by", self.to_move()))
                        label for="white_time" { "White" } input #white_time name="white_time" placeholder="1:29:51" size="8" value=(self.frame.value("clock_press", "white_time"));
                        label for="black_time" { "Black" } input #black_time name="black_time" placeholder="1:29:48" size="8" value=(self.frame.value("clock_press", "black_time"));
                        button type="submit" { "Record press" }
                    }
                }))
            }
        }
    }

    /// A touched piece (4.3), and draw offers and their answers (9.1).
    fn touch_and_draw(&self) -> Markup {
        html! {
            details open[self.open(&["touch"])] {
                summary { "Touched piece (4.3)" }
                (self.frame.form("touch", "form-touch", "", html! {
                    div.row {
                        label { "Player" } (self.by_select("touch", "by", self.to_move()))
                        label for="square" { "Square" } input #square name="square" required maxlength="2" size="3" placeholder="g1" value=(self.frame.value("touch", "square"));
                        button type="submit" { "Record touch" }
                    }
                }))
            }
            details open[self.open(&["draw_offer", "draw_accept", "draw_decline"])] {
                summary { "Draw offer and answer (9.1)" }
                div.row {
                    @for (kind, label) in [("draw_offer", "offers a draw"), ("draw_accept", "accepts"), ("draw_decline", "declines")] {
                        (self.frame.form(kind, &format!("form-{kind}"), "inline", html! {
                            (self.by_select(kind, "by", if kind == "draw_offer" { self.to_move().opponent() } else { self.to_move() }))
                            button type="submit" { (label) }
                        }))
                    }
                }
            }
        }
    }

    /// A claim (9.2, 9.3, III.4, III.5).
    fn claim(&self) -> Markup {
        html! {
            details open[self.open(&["claim"])] {
                summary { "Claim (9.2, 9.3, III.4, III.5)" }
                (self.frame.form("claim", "form-claim", "", html! {
                    div.row {
                        label { "Claimant" } (self.by_select("claim", "by", self.to_move()))
                        label for="kind" { "Claim" }
                        select #kind name="kind" {
                            @for (value, label) in [("repetition", "Threefold repetition (9.2)"), ("fifty_moves", "50 moves (9.3)"), ("quickplay_finish", "Quickplay finish (III.5)"), ("increment_request", "Request for an increment (III.4)")] {
                                option value=(value) selected[self.frame.value("claim", "kind") == value] { (label) }
                            }
                        }
                    }
                    div.row {
                        label for="intended_move" { "Written move, not played (9.2.1)" }
                        input #intended_move name="intended_move" maxlength="16" size="8" placeholder="none" value=(self.frame.value("claim", "intended_move"));
                        button.primary type="submit" { "Record claim" }
                    }
                    p.hint { "Record the clock pause first if the claimant stopped the clocks." }
                }))
            }
        }
    }

    /// An illegal move (7.5).
    fn illegal_move(&self) -> Markup {
        html! {
            details open[self.open(&["illegal_move"])] {
                summary { "Illegal move (7.5)" }
                (self.frame.form("illegal_move", "form-illegal", "", html! {
                    div.row {
                        label { "Player" } (self.by_select("illegal_move", "by", self.to_move()))
                        label for="illegal-kind" { "What" }
                        select #illegal-kind name="kind" {
                            @for value in enum_values::<IllegalMoveKind>() {
                                option value=(value) selected[self.frame.value("illegal_move", "kind") == value] { (layout::words(&value)) }
                            }
                        }
                        label.check { input type="checkbox" name="completed" checked[self.frame.kept("illegal_move").is_none_or(|f| f.values.contains_key("completed"))]; " completed (clock pressed)" }
                    }
                    div.row {
                        label for="attempted_move" { "The move attempted" }
                        input #attempted_move name="attempted_move" maxlength="16" size="8" placeholder="g8f6 or Nf6" value=(self.frame.value("illegal_move", "attempted_move"));
                        span.hint { "names the touched piece (7.5.1, 4.3)" }
                    }
                    div.row {
                        label for="description" { "What happened" }
                        input #description name="description" required maxlength="2000" placeholder="Ke7 leaving the king in check" value=(self.frame.value("illegal_move", "description"));
                        button type="submit" { "Record illegal move" }
                    }
                }))
            }
        }
    }

    /// A flag fall (6.9), a resignation (5.1.2) and a clock adjustment (6.10, 7.5, 9.5).
    fn flag_resignation_and_adjustment(&self) -> Markup {
        html! {
            details open[self.open(&["flag", "resign"])] {
                summary { "Flag fall (6.9) and resignation (5.1.2)" }
                div.row {
                    (self.frame.form("flag", "form-flag", "inline", html! {
                        label { "Flag of" } (self.by_select("flag", "side", self.to_move()))
                        button type="submit" { "Record flag fall" }
                    }))
                    (self.frame.form("resign", "form-resign", "inline", html! {
                        (self.by_select("resign", "by", self.to_move()))
                        button type="submit" { "resigns" }
                    }))
                }
            }
            details open[self.open(&["clock_adjust"])] {
                summary { "Clock adjustment (6.10, 7.5, 9.5)" }
                (self.frame.form("clock_adjust", "form-adjust", "", html! {
                    div.row {
                        label { "Clock of" } (self.by_select("clock_adjust", "side", self.to_move()))
                        label for="delta" { "Change" } input #delta name="delta" required size="7" placeholder="+2:00" value=(self.frame.value("clock_adjust", "delta"));
                    }
                    div.row {
                        label for="adjust-reason" { "Reason" } input #adjust-reason name="reason" required maxlength="2000" value=(self.frame.value("clock_adjust", "reason"));
                        button type="submit" { "Record adjustment" }
                    }
                }))
            }
        }
    }

    /// The arbiter's decision.
    fn arbiter_decision(&self) -> Markup {
        let decisions: Vec<String> = arbiter_rulings();
        html! {
            details.panel open[self.open(&["arbiter_decision"])] {
                summary { "Arbiter's decision" }
                (self.frame.form("arbiter_decision", "form-decision", "", html! {
                    div.row {
                        label for="decision" { "Decision" }
                        select #decision name="decision" {
                            @for value in decisions.iter().filter(|d| !self.over() || d.as_str() == "warning") { option value=(value) selected[self.frame.value("arbiter_decision", "decision") == *value] { (layout::words(value)) } }
                        }
                        label for="subject_seq" { "On event #" } input #subject_seq name="subject_seq" size="5" placeholder="seq" value=({
                            let kept = self.frame.value("arbiter_decision", "subject_seq");
                            if kept.is_empty() { self.open_claim().map(|s| s.to_string()).unwrap_or_default() } else { kept }
                        });
                    }
                    div.row {
                        label for="decision-result" { "Result" }
                        select #decision-result name="result" {
                            option value="" { "none" }
                            @for (value, label) in [("1-0", "1-0"), ("1/2-1/2", "½-½"), ("0-1", "0-1"), ("0-0", "0-0 (both lose)")] {
                                option value=(value) selected[self.frame.value("arbiter_decision", "result") == value] { (label) }
                            }
                        }
                        label for="decision-cause" { "Ended as" }
                        select #decision-cause name="cause" {
                            @for (value, label) in [("adjudication", "the arbiter's ruling"), ("rules_infraction", "a loss for breaking the Laws (e.g. 11.3.2.2)"), ("reported_result", "the result the players reported (8.7)"), ("forfeit", "a forfeit: not played (6.7.1)")] {
                                option value=(value) selected[self.frame.value("arbiter_decision", "cause") == value] { (label) }
                            }
                        }
                        label for="penalty_time" { "Time to" } (self.by_select("arbiter_decision", "penalty_side", self.to_move().opponent()))
                        input #penalty_time name="penalty_time" size="6" placeholder="2:00" value=(self.frame.value("arbiter_decision", "penalty_time"));
                    }
                    div.row {
                        label for="decision-move" { "Illegal move that stands" }
                        input #decision-move name="attempted_move" maxlength="16" size="8" placeholder="e.g. Ke2" value=(self.frame.value("arbiter_decision", "attempted_move"));
                        label for="decision-fen" { "or the position (FEN)" }
                        input #decision-fen name="fen" maxlength="100" placeholder="FEN" value=(self.frame.value("arbiter_decision", "fen")); span.hint { "for “position reconstructed” (7.5.1, 7.6, 8.5.3): the position the board should show, its move number the moves completed" }
                        label for="decision-increment" { "Increment granted (s)" }
                        input #decision-increment name="increment" size="4" inputmode="numeric" placeholder="5" value=(self.frame.value("arbiter_decision", "increment"));
                    }
                    div.row {
                        label for="count_moves" { "Move count of" } (self.by_select("arbiter_decision", "count_side", self.to_move()))
                        input #count_moves name="count_moves" size="4" inputmode="numeric" placeholder="40" value=(self.frame.value("arbiter_decision", "count_moves"));
                        span.hint { "completed moves, for “move count set”; empty when the count cannot be established (8.6)" }
                    }
                    div.row {
                        label for="decision-reason" { "Reasons (with the article)" }
                        input #decision-reason name="reason" required maxlength="2000" value=(self.frame.value("arbiter_decision", "reason"));
                        button type="submit" { "Record decision" }
                    }
                }))
            }
        }
    }

    /// The correction of a data-entry error.
    fn correction(&self) -> Markup {
        html! {
            details.panel open[self.open(&["correction"])] {
                summary { "Correction of a data-entry error" }
                (self.frame.form("correction", "form-correction", "", html! {
                    p.hint { "Retracts the latest standing event and what it caused; nothing is deleted. Not for an illegal move on the board: record that as an illegal move." }
                    div.row {
                        label for="retracts_seq" { "Event #" } input #retracts_seq name="retracts_seq" required size="5" value=(self.frame.value("correction", "retracts_seq"));
                        label for="correction-reason" { "Reason" } input #correction-reason name="reason" required maxlength="2000" placeholder="wrong square typed" value=(self.frame.value("correction", "reason"));
                        button type="submit" { "Record correction" }
                    }
                }))
            }
        }
    }
}

/// "Undo the last entry": what the last form recorded, shown before anything is retracted,
/// and one button that records its corrections with the arbiter's name and a reason.
pub(super) fn undo_panel(
    frame: &FormFrame,
    entry: &crate::app::undo::LastEntry<'_>,
    narrator: &Narrator,
) -> Markup {
    if entry.is_empty() {
        return html! {};
    }
    let retracts: Vec<String> = entry.retracted.iter().map(|e| e.seq.to_string()).collect();
    let ids: Vec<String> = entry
        .retracted
        .iter()
        .map(|_| Uuid::new_v4().to_string())
        .collect();
    html! {
        section.panel #undo {
            h2 { "Undo the last entry" }
            (frame.form("undo", "form-undo", "", html! {
                p.hint { "Typed something wrong? This retracts what the last form recorded. Nothing is deleted: each event is retracted by a correction that names you and the reason." }
                ul.retracted {
                    @for envelope in &entry.retracted {
                        li { (describe(narrator, envelope.seq, &envelope.event)) span.hint { " (recorded by " (layout::recorder(&envelope.recorded_by)) ")" } }
                    }
                    @for envelope in &entry.caused {
                        li.caused { (describe(narrator, envelope.seq, &envelope.event)) span.hint { " (retracted with it)" } }
                    }
                }
                input type="hidden" name="retracts" value=(retracts.join(","));
                input type="hidden" name="event_ids" value=(ids.join(","));
                div.row {
                    label for="undo-reason" { "Reason" }
                    input #undo-reason name="reason" required maxlength="2000" placeholder="wrong move typed" value=(frame.value("undo", "reason"));
                    button type="submit" { "Undo" }
                }
            }))
        }
    }
}

/// The values of a unit enum of the vocabulary, as its schema lists them: the forms offer
/// whatever the vocabulary holds.
pub(super) fn enum_values<T: utoipa::PartialSchema>() -> Vec<String> {
    let schema = serde_json::to_value(T::schema()).unwrap_or_default();
    schema["enum"]
        .as_array()
        .map(|values| {
            values
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The decisions an arbiter may record, as the vocabulary lists them.
pub fn arbiter_rulings() -> Vec<String> {
    let listed = enum_values::<ArbiterRuling>();
    if listed.is_empty() {
        vec![layout::wire_name(&ArbiterRuling::GameEnded)]
    } else {
        listed
    }
}

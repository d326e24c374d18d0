//! The forms of the fair-play desk (issue 37 item 7): one form at a time, chosen from a row
//! of actions above it (`?form=device_found`), so that the desk reads like the game desk and
//! works without JavaScript. Every event a form refers to (an inspection requested, a seized
//! item) is chosen from a list, never typed as a number; each form carries an `event_id` of
//! its own, so a form sent twice is stored once.

use super::PREFIX;
use super::layout;
use crate::game::fair_play::{OpponentScore, PenaltyOption};
use maud::{Markup, html};

/// The desk's forms, in the order the chooser shows them: the key (`?form=`), its label, and
/// the record types it sends (the first is the one a refused form comes back to).
pub const FORMS: [(&str, &str, &[&str]); 10] = [
    ("device_found", "Device found", &["device_found"]),
    (
        "inspection_requested",
        "Request an inspection",
        &["inspection_requested"],
    ),
    ("inspection_done", "Inspection done", &["inspection_done"]),
    (
        "inspection_refused",
        "Inspection refused",
        &["inspection_refused"],
    ),
    ("custody_changed", "Custody", &["custody_changed"]),
    ("evidence", "Evidence file", &[]),
    (
        "checks",
        "Scans and checks",
        &["entry_scan", "random_check", "broadcast_delay_set"],
    ),
    ("complaint_lodged", "Complaint", &["complaint_lodged"]),
    ("referred_to_fpl", "Referral", &["referred_to_fpl"]),
    ("fair_play_note", "Note", &["fair_play_note"]),
];

/// The form a desk shows for `asked` (`?form=`): a known key, else the first form.
pub fn chosen(asked: Option<&str>) -> &'static str {
    FORMS
        .iter()
        .find(|(key, _, _)| Some(*key) == asked)
        .map_or(FORMS[0].0, |(key, _, _)| key)
}

/// The form that sends a record of type `kind`, to show again after it was sent.
pub fn form_of(kind: &str) -> &'static str {
    FORMS
        .iter()
        .find(|(_, _, kinds)| kinds.contains(&kind))
        .map_or(FORMS[0].0, |(key, _, _)| key)
}

/// The desk's address showing the form `key`.
pub fn desk_link(game_id: uuid::Uuid, key: &str) -> String {
    format!("{PREFIX}/fair-play/games/{game_id}?form={key}")
}

/// The row of actions: a link per form, the chosen one marked.
pub fn chooser(game_id: uuid::Uuid, chosen: &str) -> Markup {
    html! {
        nav.chooser aria-label="Record" {
            @for (key, label, _) in FORMS {
                @if key == chosen {
                    a.button.primary href=(desk_link(game_id, key)) aria-current="page" { (label) }
                } @else {
                    a.button href=(desk_link(game_id, key)) { (label) }
                }
            }
        }
    }
}

/// Any of the desk's forms as the browser sends it (they all post to the same address): the
/// record type and fresh event id the page drew, and what the arbiter typed, chose or ticked,
/// as text, each input named once across the forms. Which fields a record takes is said by
/// the desk's reader (`record_from`); the API's decoding then judges them.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct FairPlayForm {
    /// The record's type (`device_found`, `inspection_done`, `entry_scan`, ...).
    #[serde(rename = "type")]
    pub record_type: Option<String>,
    /// The event id the page gave the form, so that a form sent twice is stored once.
    pub event_id: Option<String>,
    /// The player concerned: `white` or `black`.
    pub player: Option<String>,
    /// Why (an inspection requested, a referral).
    pub reason: Option<String>,
    /// The `seq` of the inspection request, chosen from the list.
    pub request_seq: Option<String>,
    /// Who inspected.
    pub inspector: Option<String>,
    /// `true` when the inspector was of the player's gender (11.3.3).
    pub same_gender_confirmed: Option<String>,
    /// `true` when the inspection was in private (11.3.3).
    pub private_room: Option<String>,
    /// Who witnessed it.
    pub witness: Option<String>,
    /// What the inspection found.
    pub outcome: Option<String>,
    /// The `seq` of the seized item, chosen from the list.
    pub item_seq: Option<String>,
    /// What happened to the item: `taken`, `stored` or `returned`.
    pub action: Option<String>,
    /// Who held the item before.
    pub from: Option<String>,
    /// Who holds it now.
    pub to: Option<String>,
    /// A scan's or check's result: `clear` or `device_found`.
    pub result: Option<String>,
    /// The device found, or the one checked with (`phone`, `wand`).
    pub device: Option<String>,
    /// The broadcast delay, in minutes.
    pub minutes: Option<String>,
    /// A complaint's stage: `in_tournament` or `post_tournament`.
    pub stage: Option<String>,
    /// The complainant's name.
    pub complainant_name: Option<String>,
    /// The complainant's FIDE id.
    pub complainant_fide_id: Option<String>,
    /// The respondent's name.
    pub respondent_name: Option<String>,
    /// The respondent's FIDE id.
    pub respondent_fide_id: Option<String>,
    /// A complaint's facts.
    pub facts: Option<String>,
    /// A note's text.
    pub text: Option<String>,
    /// Where the device was: `on_person`, `in_bag` or `elsewhere`.
    pub location: Option<String>,
    /// How it was found: `sound`, `sight`, `scan` or `search`.
    pub found_by: Option<String>,
    /// `true` when the device was switched on.
    pub switched_on: Option<String>,
    /// `true` when it was seized.
    pub seized: Option<String>,
    /// `true` when a bag was used without permission.
    pub bag_used_without_permission: Option<String>,
    /// The arbiter's penalty under 12.9, where the Laws leave a choice.
    pub decision_penalty: Option<String>,
    /// The reason for it.
    pub decision_reason: Option<String>,
    /// The time of a 12.9.2 or 12.9.3 penalty, in minutes.
    pub decision_minutes: Option<String>,
    /// The opponent's score under 12.9.6.
    pub decision_opponent_score: Option<String>,
}

/// What a form needs from the desk.
pub struct FormContext<'a> {
    /// Where the forms post.
    pub action: String,
    /// The session's CSRF field.
    pub csrf: Markup,
    /// The inspections requested and not answered, as options.
    pub request_options: Markup,
    /// The seized items, as options.
    pub item_options: Markup,
    /// White's and Black's names.
    pub players: (&'a str, &'a str),
    /// The largest evidence file, in bytes.
    pub evidence_limit: usize,
}

/// The form `key` (one of [`FORMS`]).
pub fn form(key: &str, ctx: &FormContext<'_>) -> Markup {
    let fresh_id = || html! { input type="hidden" name="event_id" value=(uuid::Uuid::new_v4()); };
    let (action, csrf) = (&ctx.action, &ctx.csrf);
    let player = player_select(ctx.players);
    let title = FORMS
        .iter()
        .find(|(k, _, _)| *k == key)
        .map_or("", |(_, label, _)| label);
    let body = match key {
        "inspection_requested" => html! {
            form.fair-play-form method="post" action=(action) {
                (csrf) (fresh_id()) input type="hidden" name="type" value="inspection_requested";
                (player)
                label { "Reason " input name="reason"; }
                button.primary type="submit" { "Request an inspection (11.3.3)" }
            }
        },
        "inspection_done" => html! {
            form.fair-play-form method="post" action=(action) {
                (csrf) (fresh_id()) input type="hidden" name="type" value="inspection_done";
                (player)
                label { "Request " select name="request_seq" required { (ctx.request_options) } }
                label { "Inspector " input name="inspector"; }
                label.check { input type="checkbox" name="same_gender_confirmed" value="true"; " of the same gender as the player (11.3.3)" }
                label.check { input type="checkbox" name="private_room" value="true"; " in private (11.3.3)" }
                label { "Witness " input name="witness"; }
                label { "Outcome " input name="outcome"; }
                button.primary type="submit" { "Record the inspection" }
            }
        },
        "inspection_refused" => html! {
            form.fair-play-form method="post" action=(action) {
                (csrf) (fresh_id()) input type="hidden" name="type" value="inspection_refused";
                (player)
                label { "Request " select name="request_seq" required { (ctx.request_options) } }
                (decision_fields())
                button.primary type="submit" { "Record the refusal (11.3.3, 12.9)" }
            }
        },
        "custody_changed" => html! {
            form.fair-play-form method="post" action=(action) {
                (csrf) (fresh_id()) input type="hidden" name="type" value="custody_changed";
                label { "Item " select name="item_seq" required { (ctx.item_options) } }
                label { "Action " select name="action" { option value="taken" { "taken" } option value="stored" { "stored" } option value="returned" { "returned" } } }
                label { "From " input name="from"; }
                label { "To " input name="to"; }
                label { "Witness " input name="witness"; }
                button.primary type="submit" { "Record the custody" }
            }
        },
        "evidence" => html! {
            form #evidence-form.fair-play-form method="post" enctype="multipart/form-data" action={ (action) "/evidence" } {
                (csrf)
                label { "Kind " select name="kind" { option value="photo" { "photo" } option value="statement" { "statement" } option value="scanner_log" { "scanner log" } option value="other" { "other" } } }
                label { "Player " select name="player" { option value="" { "—" } option value="white" { (ctx.players.0) " (White)" } option value="black" { (ctx.players.1) " (Black)" } } }
                label { "File " input #evidence-file type="file" name="file" required; }
                button.primary type="submit" { "Upload" }
                p.hint { "At most " (ctx.evidence_limit / 1024) " KiB, as through the API. The file is stored apart; the record keeps its SHA-256, which the audit checks." }
            }
        },
        "checks" => html! {
            form.fair-play-form method="post" action=(action) {
                (csrf) (fresh_id()) input type="hidden" name="type" value="entry_scan";
                (player)
                label { "Result " select name="result" { option value="clear" { "clear" } option value="device_found" { "a device (record it under \"Device found\")" } } }
                button.primary type="submit" { "Record the entry scan" }
            }
            form.fair-play-form method="post" action=(action) {
                (csrf) (fresh_id()) input type="hidden" name="type" value="random_check";
                (player)
                label { "With " input name="device" value="wand"; }
                label { "Result " select name="result" { option value="clear" { "clear" } option value="device_found" { "a device (record it under \"Device found\")" } } }
                button.primary type="submit" { "Record the random check" }
            }
            form.fair-play-form method="post" action=(action) {
                (csrf) (fresh_id()) input type="hidden" name="type" value="broadcast_delay_set";
                label { "Broadcast delay (minutes) " input name="minutes" type="number" inputmode="numeric" min="0" value="15"; }
                button.primary type="submit" { "Set the broadcast delay" }
            }
        },
        "complaint_lodged" => html! {
            form.fair-play-form method="post" action=(action) {
                (csrf) (fresh_id()) input type="hidden" name="type" value="complaint_lodged";
                label { "Stage " select name="stage" { option value="in_tournament" { "in the tournament" } option value="post_tournament" { "after the tournament" } } }
                label { "Complainant " input name="complainant_name"; } label { "FIDE ID " input name="complainant_fide_id" inputmode="numeric"; }
                label { "Respondent " input name="respondent_name"; } label { "FIDE ID " input name="respondent_fide_id" inputmode="numeric"; }
                label { "Facts " textarea name="facts" {} }
                button.primary type="submit" { "Lodge (signed now)" }
            }
        },
        "referred_to_fpl" => html! {
            form.fair-play-form method="post" action=(action) {
                (csrf) (fresh_id()) input type="hidden" name="type" value="referred_to_fpl";
                label { "Reason " input name="reason"; }
                button.primary type="submit" { "Refer to the Fair Play panel" }
            }
        },
        "fair_play_note" => html! {
            form.fair-play-form method="post" action=(action) {
                (csrf) (fresh_id()) input type="hidden" name="type" value="fair_play_note";
                label { "Note " textarea name="text" {} }
                button.primary type="submit" { "Record the note" }
            }
        },
        _ => html! {
            form.fair-play-form method="post" action=(action) {
                (csrf) (fresh_id()) input type="hidden" name="type" value="device_found";
                (player)
                label { "Device " input name="device" value="phone"; }
                label { "Where " select name="location" { option value="on_person" { "on the person" } option value="in_bag" { "in the bag" } option value="elsewhere" { "elsewhere" } } }
                label { "Found by " select name="found_by" { option value="sound" { "sound" } option value="sight" { "sight" } option value="scan" { "scan" } option value="search" { "search" } } }
                label.check { input type="checkbox" name="switched_on" value="true"; " switched on" }
                label.check { input type="checkbox" name="seized" value="true"; " seized" }
                label.check { input type="checkbox" name="bag_used_without_permission" value="true"; " bag used without permission" }
                (decision_fields())
                button.primary type="submit" { "Record the device" }
            }
        },
    };
    html! {
        section.panel.screen-only #fair-play-form {
            h2 { (title) }
            (body)
        }
    }
}

/// The arbiter's choice from 12.9, where the Laws leave one (12.9.6 also takes the
/// opponent's score).
fn decision_fields() -> Markup {
    html! {
        fieldset {
            legend { "Where the Laws leave it to the arbiter (12.9)" }
            label { "Penalty " select name="decision_penalty" {
                option value="" { "—" }
                @for option in PenaltyOption::ALL {
                    option value=(layout::wire_name(&option)) { "12.9." (option.number()) " " (option.in_words()) }
                }
            } }
            label { "Reason " input name="decision_reason"; }
            label { "Time, 12.9.2 or 12.9.3 (minutes) " input name="decision_minutes" type="number" inputmode="numeric" min="1" max="60"; }
            label { "Opponent's score (12.9.6) " select name="decision_opponent_score" {
                option value="" { "—" }
                @for score in [OpponentScore::Win, OpponentScore::Draw, OpponentScore::Loss] {
                    option value=(layout::wire_name(&score)) { (score.in_words()) }
                }
            } }
        }
    }
}

/// The player concerned, by name.
fn player_select(players: (&str, &str)) -> Markup {
    html! {
        label { "Player " select name="player" {
            option value="white" { (players.0) " (White)" }
            option value="black" { (players.1) " (Black)" }
        } }
    }
}

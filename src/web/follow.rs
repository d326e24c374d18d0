//! The board feed in the back office: on the round floor, whether the round follows a feed
//! (and how its last poll went) with a form to start or stop following it; on the floor and
//! the game desk, what a board's feed said that needs the arbiter, with the feed's moves and
//! the reason, and a form per fitting decision. The same [`crate::app::follower`] service as
//! the API.

use super::PREFIX;
use super::error::WebError;
use super::layout;
use super::session::{Flash, Posted, Viewer, leave_flash};
use crate::app::follower::{self, ArbiterChoice, FollowError};
use crate::state::AppState;
use crate::store::{FeedKind, FollowAttention, RoundFollow, TakebackPolicy};
use crate::tournament::{self, Tournament};
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;
use uuid::Uuid;

/// The floor's badge of a board that needs the arbiter because of its feed, or of the
/// notice of a takeback its feed applied.
pub fn floor_badge(attention: &FollowAttention) -> Markup {
    let what = if is_notice(attention) {
        "takeback applied by the board feed"
    } else {
        "needs the arbiter (board feed)"
    };
    layout::badge(
        "claim",
        &format!("{what}: {}", follower::describe(&attention.attention)),
    )
}

/// Whether it is the notice of a takeback the feed applied (decided beside the board's
/// attention, if it has one).
fn is_notice(attention: &FollowAttention) -> bool {
    matches!(
        attention.attention,
        crate::interchange::dgt::Attention::CorrectedByFeed { .. }
    )
}

/// The floor's panel: the round's feed, its last poll, and the form to follow or stop.
pub fn floor_panel(
    viewer: &Viewer,
    tournament: &Tournament,
    round: &str,
    follow: Option<&RoundFollow>,
) -> Markup {
    let may_write = viewer.is_arbiter()
        && viewer
            .principal
            .may_create_game(&tournament.settings.name)
            .is_ok();
    let flash = viewer.flash_for("follow");
    let hall = layout::HallTime::of(Some(tournament));
    let action = format!(
        "{PREFIX}/events/{}/rounds/{}/follow",
        tournament.tournament_id,
        layout::query_escape(round)
    );
    html! {
        section.panel #board-feed {
            h2 { "Board feed" }
            @if let Some(f) = &flash { p class={ "notice" @if f.refused { " refused" } } role="status" { (f.message) } }
            @match follow {
                Some(follow) if follow.enabled => {
                    p {
                        "Following the DGT LiveChess feed " code { (follow.url) }
                        " (board N is its game-N.json). "
                        @match (&follow.last_error, follow.last_ok_at) {
                            (Some(error), _) => { strong { "The feed fails (" (follow.failures) " polls in a row): " } (error) }
                            (None, Some(ok)) => { "Last answered " (hall.timestamp(ok)) "." }
                            (None, None) => { "Not polled yet." }
                        }
                    }
                    @if may_write {
                        form method="post" action=(action) {
                            (layout::csrf_field(viewer))
                            input type="hidden" name="action" value="stop";
                            button type="submit" { "Stop following" }
                        }
                    }
                }
                _ => {
                    p.hint { "This round follows no board feed: moves are recorded on the desks." }
                    @if may_write {
                        form.grid method="post" action=(action) {
                            (layout::csrf_field(viewer))
                            input type="hidden" name="action" value="start";
                            label for="feed-kind" { "Feed" }
                            select #feed-kind name="kind" {
                                option value="dgt_json" selected[follow.is_none_or(|f| f.kind == FeedKind::DgtJson)] { "DGT LiveChess (the round's folder)" }
                                option value="pgn" selected[follow.is_some_and(|f| f.kind == FeedKind::Pgn)] { "The round's PGN file" }
                            }
                            label for="feed-url" { "Round URL" }
                            input #feed-url name="url" type="url" required maxlength="2000"
                                placeholder="DGT: the round's folder (index.json, game-1.json, …); PGN: the round's .pgn"
                                value=[follow.map(|f| f.url.as_str())];
                            label for="feed-takebacks" { "Takebacks" }
                            select #feed-takebacks name="takebacks" {
                                option value="by_feed" selected[follow.is_none_or(|f| f.takebacks == TakebackPolicy::ByFeed)] { "Applied by the feed (you may undo)" }
                                option value="by_arbiter" selected[follow.is_some_and(|f| f.takebacks == TakebackPolicy::ByArbiter)] { "Each waits for me" }
                            }
                            div.actions { button.primary type="submit" { "Follow the boards" } }
                        }
                        p.hint { "The service polls the feed every few seconds and records each new legal move with its clock through the engine; what the engine refuses is shown here and on the desk for you to decide. A takeback over moves only the feed recorded is applied by the feed and shown to you, unless you choose that each waits for you." }
                    }
                }
            }
        }
    }
}

/// The form that starts or stops following a round's board feed.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FollowForm {
    /// `stop` to stop following; anything else starts.
    pub action: Option<String>,
    /// The round's URL.
    pub url: Option<String>,
    /// `pgn`, or the DGT JSON feed.
    pub kind: Option<String>,
    /// `by_arbiter`, or takebacks as the feed shows them.
    pub takebacks: Option<String>,
}

/// `POST /office/events/{id}/rounds/{round}/follow`: starts or stops following a round.
pub async fn set(
    state: web::Data<AppState>,
    posted: Posted<FollowForm>,
    path: web::Path<(Uuid, String)>,
) -> Result<HttpResponse, WebError> {
    let Posted {
        viewer,
        fields,
        form,
    } = posted;
    let (id, round) = path.into_inner();
    let tournament = state
        .store
        .tournament(id)
        .await?
        .ok_or_else(|| WebError::NotFound(format!("There is no event with id {id}.")))?;
    viewer
        .principal
        .may_create_game(&tournament.settings.name)?;
    tournament::check_round(&round).map_err(|p| WebError::BadRequest(p.message))?;
    let back = layout::round_link("floor", &tournament.settings.name, Some(&round));
    let recorder = viewer.principal.recorder();
    let message = if form.action.as_deref() == Some("stop") {
        match state.store.stop_round_follow(id, &round, &recorder).await? {
            Some(follow) => {
                state.followers.stop(follow.follow_id);
                Ok(
                    "The round no longer follows its board feed; what was recorded stays."
                        .to_string(),
                )
            }
            None => Err("This round follows no board feed.".to_string()),
        }
    } else {
        let url = form.url.unwrap_or_default();
        let kind = match form.kind.as_deref() {
            Some("pgn") => FeedKind::Pgn,
            _ => FeedKind::DgtJson,
        };
        let takebacks = match form.takebacks.as_deref() {
            Some("by_arbiter") => TakebackPolicy::ByArbiter,
            _ => TakebackPolicy::ByFeed,
        };
        if !(url.starts_with("http://") || url.starts_with("https://"))
            || url.len() > 2000
            || url.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            Err("Give the round's URL as http:// or https://, e.g. https://live.example.org/round-5/.".to_string())
        } else if let Err(refused) = state.followers.check_source(&url).await {
            Err(refused)
        } else if !state
            .store
            .round_exists(&tournament.settings.name, &round)
            .await?
        {
            Err("Load the round's pairings first: board N of the pairings follows the feed's game-N.json.".to_string())
        } else {
            let follow = state
                .store
                .set_round_follow(id, &round, kind, &url, true, takebacks, &recorder)
                .await?;
            state.followers.start(follow.follow_id);
            Ok(format!(
                "Following {url}: the boards' moves are recorded as they come."
            ))
        }
    };
    let flash = match message {
        Ok(message) => Flash {
            form: "follow".into(),
            refused: false,
            message,
            ..Flash::default()
        },
        Err(message) => Flash {
            form: "follow".into(),
            refused: true,
            message,
            values: fields.0.clone(),
            code: None,
        },
    };
    leave_flash(&state, &viewer, &flash).await?;
    Ok(layout::see_other(&layout::after_write(&state, &back).await))
}

fn choice_label(choice: ArbiterChoice) -> &'static str {
    match choice {
        ArbiterChoice::AcceptCorrection => "Accept the board's line (correct the log)",
        ArbiterChoice::RecordIllegalMove => "Record it as an illegal move",
        ArbiterChoice::RecordResult => "Record the result",
        ArbiterChoice::Ignore => "Ignore",
        ArbiterChoice::UndoCorrection => "Undo it (record the moves taken back again)",
    }
}

/// The desk's panel for a board the feed says needs the arbiter, or for the notice of a
/// takeback its feed applied (a game may show both, each with its own decisions).
pub fn desk_panel(
    viewer: &Viewer,
    attention: &FollowAttention,
    event: &str,
    hall: layout::HallTime,
) -> Markup {
    let may_decide = viewer
        .principal
        .may_record("arbiter_decision", event)
        .is_ok();
    let notice = is_notice(attention);
    html! {
        section.panel.answer.refused id=(if notice { "feed-notice" } else { "needs-arbiter" }) role=(if notice { "status" } else { "alert" }) {
            h2 { (if notice { "Takeback applied by the board feed" } else { "Needs the arbiter: board feed" }) }
            p { (follower::describe(&attention.attention)) "." }
            @if notice {
                p.hint { "Applied by the board feed: the corrections are in the log, recorded by the board feed. Seen " (hall.timestamp(attention.opened_at)) "." }
            } @else {
                p.hint { "Not stored: the log keeps what the engine accepted. Seen first " (hall.timestamp(attention.opened_at)) "." }
            }
            h3 { "The feed's moves" }
            p.moves {
                @for (index, feed_move) in attention.feed_moves.iter().enumerate() {
                    @if index % 2 == 0 { b { (index / 2 + 1) "." } " " }
                    (feed_move.san) " "
                }
                @if let Some(result) = &attention.feed_result { " " (result) }
            }
            @if may_decide {
                div.actions {
                    @for choice in follower::fitting_choices(&attention.attention) {
                        form method="post" action={ (PREFIX) "/attentions/" (attention.attention_id) "/decision" } {
                            (layout::csrf_field(viewer))
                            input type="hidden" name="choice" value=(follower::choice_name(*choice));
                            button class=[(*choice != ArbiterChoice::Ignore).then_some("primary")] type="submit" { (choice_label(*choice)) }
                        }
                    }
                }
            }
        }
    }
}

/// The arbiter's answer to what a board feed said.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DecisionForm {
    /// The choice's name ([`follower::choice_name`]).
    pub choice: Option<String>,
}

/// `POST /office/attentions/{id}/decision`: the arbiter decides what the feed said.
pub async fn decide(
    state: web::Data<AppState>,
    posted: Posted<DecisionForm>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, WebError> {
    let Posted { viewer, form, .. } = posted;
    let attention_id = id.into_inner();
    let attention = state
        .store
        .attention(attention_id)
        .await?
        .ok_or_else(|| WebError::NotFound(format!("There is no attention {attention_id}.")))?;
    let choice = follower::fitting_choices(&attention.attention)
        .iter()
        .chain(&[
            ArbiterChoice::AcceptCorrection,
            ArbiterChoice::RecordIllegalMove,
            ArbiterChoice::RecordResult,
            ArbiterChoice::Ignore,
        ])
        .copied()
        .find(|c| Some(follower::choice_name(*c)) == form.choice.as_deref())
        .ok_or_else(|| WebError::BadRequest("Choose what to do with what the feed said.".into()))?;
    let desk = format!("{PREFIX}/games/{}", attention.game_id);
    let message = match state
        .followers
        .decide(attention_id, choice, &viewer.principal)
        .await
    {
        Ok(decided) => Ok(format!(
            "Decided: {}. {} event(s) recorded{}.",
            follower::choice_name(choice).replace('_', " "),
            decided.appended,
            if decided.recorded_moves > 0 {
                format!(", then {} move(s) of the board", decided.recorded_moves)
            } else {
                String::new()
            }
        )),
        Err(FollowError::NotOpen(message) | FollowError::Choice(message)) => Err(message),
        Err(FollowError::Record(crate::app::arbitration::RecordError::Refused {
            refusal, ..
        })) => Err(refusal.message().to_string()),
        Err(FollowError::Record(record)) => return Err(record.into()),
        Err(FollowError::Store(store)) => return Err(store.into()),
        Err(other) => Err(other.to_string()),
    };
    let flash = match message {
        Ok(message) => Flash {
            form: "record".into(),
            refused: false,
            message,
            ..Flash::default()
        },
        Err(message) => Flash {
            form: "record".into(),
            refused: true,
            message,
            ..Flash::default()
        },
    };
    leave_flash(&state, &viewer, &flash).await?;
    Ok(layout::see_other(&layout::after_write(&state, &desk).await))
}

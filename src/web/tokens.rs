//! Tokens, for admins: create one (shown once, on the page that answers the form, never
//! stored or left in the session), list them, revoke one (it stops working at once, and every
//! session opened with it ends).

use super::PREFIX;
use super::error::WebError;
use super::layout::{self, Nav};
use super::session::{Flash, NoFields, Posted, Viewer, leave_flash};
use crate::access::{FairPlayRole, Role};
use crate::app::commands::{check_token_fields, expiry_from};
use crate::state::AppState;
use actix_web::http::header;
use actix_web::{HttpResponse, web};
use chrono::{DateTime, Utc};
use maud::{Markup, html};
use uuid::Uuid;

/// The lifetimes the form offers (`expires_in`, as the API reads it), the shortest first.
const LIFETIMES: &[(&str, &str)] = &[
    ("12h", "12 hours"),
    ("1d", "1 day"),
    ("7d", "1 week"),
    ("14d", "2 weeks"),
    ("30d", "30 days"),
    ("90d", "90 days"),
    ("365d", "1 year"),
    ("never", "does not expire"),
];

/// The lifetime the form starts on: long enough for an event, short enough that a token
/// handed to a deputy does not outlive it by months.
const DEFAULT_LIFETIME: &str = "30d";

/// The fair-play capabilities the form can give.
const FAIR_PLAY_ROLES: [FairPlayRole; 3] = [
    FairPlayRole::ChiefArbiter,
    FairPlayRole::FairPlayArbiter,
    FairPlayRole::Fpo,
];

/// A fair-play capability in words.
fn fair_play_role_name(role: FairPlayRole) -> &'static str {
    match role {
        FairPlayRole::ChiefArbiter => "chief arbiter",
        FairPlayRole::FairPlayArbiter => "fair-play arbiter",
        FairPlayRole::Fpo => "Fair Play Officer (proposes)",
    }
}

/// A moment of a token's life, to the minute (UTC): the date and the time each kept whole,
/// so that a narrow column puts the time under the date rather than breaking either.
fn moment(at: DateTime<Utc>) -> Markup {
    html! {
        span.when { (at.format("%Y-%m-%d")) } " " span.when { (at.format("%H:%M UTC")) }
    }
}

/// Whether a token works, in words: revoked, expired, or valid (until when).
fn token_state(token: &crate::store::TokenInfo, now: DateTime<Utc>) -> Markup {
    html! {
        @if let Some(at) = token.revoked_at {
            span.state-ended { "revoked" } br; span.who { (moment(at)) }
        } @else if let Some(at) = token.expires_at.filter(|at| *at <= now) {
            span.state-ended { "expired" } br; span.who { (moment(at)) }
        } @else if let Some(at) = token.expires_at {
            span.state-valid { "valid" } br; span.who { "until " (moment(at)) }
        } @else {
            span.state-valid { "valid" } br; span.who { "no expiry" }
        }
    }
}

fn tokens_page(
    viewer: &Viewer,
    tokens: &[crate::store::TokenInfo],
    created: Option<(&str, &crate::store::TokenInfo)>,
    problem: Option<&str>,
) -> Markup {
    let flash = viewer.flash();
    let now = Utc::now();
    let body = html! {
        h1 { "Tokens" }
        @if let Some(flash) = &flash { p.notice role="status" { (flash.message) } }
        @if let Some((token, info)) = created {
            section.panel.created role="status" {
                h2 { "Token for " (info.name) }
                p { "Copy it now and hand it over: it is shown only this once (only its hash is kept)." }
                p { code.token #new-token { (token) } }
            }
        }
        section.panel {
            h2 { "New token" }
            @if let Some(problem) = problem { p.refusal role="alert" { (problem) } }
            form.grid method="post" action={ (PREFIX) "/tokens" } {
                (layout::csrf_field(viewer))
                label for="token-name" { "Held by" }
                input #token-name name="name" required maxlength="200" placeholder="FA Ben Okafor, deputy arbiter";
                label for="token-role" { "Role" }
                select #token-role name="role" {
                    option value="arbiter" { "arbiter: records games" }
                    option value="reader" { "reader: sees everything, records nothing" }
                    option value="appeals" { "appeals committee: records appeal decisions" }
                    option value="admin" { "admin: manages tokens" }
                }
                label for="token-events" { "Only these events (one a line; empty for all)" }
                textarea #token-events name="events" rows="2" {}
                label for="token-expires" { "Works for" }
                select #token-expires name="expires_in" {
                    @for (value, label) in LIFETIMES {
                        option value=(value) selected[*value == DEFAULT_LIFETIME] { (label) }
                    }
                }
                label for="token-fair-play" { "Fair play (11.3, 12.9)" }
                select #token-fair-play name="fair_play_role" {
                    option value="" { "no access to fair-play files" }
                    @for role in FAIR_PLAY_ROLES {
                        option value=(role.as_str()) { (fair_play_role_name(role)) }
                    }
                }
                div.actions { button.primary type="submit" { "Create the token" } }
            }
        }
        section.panel {
            h2 { "All tokens" }
            div.scroll { table.list {
                thead { tr { th { "Held by" } th { "Role" } th { "Created" } th { "State" } th {} } }
                tbody {
                    @for token in tokens {
                        tr class={ @if token.revoked_at.is_some() { "retracted" } } {
                            td { (token.name) }
                            td {
                                (layout::role_name(token.role))
                                @if let Some(role) = token.fair_play_role {
                                    br; span.badge.badge-fair-play title="May read and record fair-play files" { "fair play: " (fair_play_role_name(role)) }
                                }
                                br; span.who {
                                    @match &token.events { Some(events) => { "events: " (events.join(", ")) } None => { "every event" } }
                                }
                            }
                            td { (moment(token.created_at)) br; span.who { "by " (layout::recorder(&token.created_by)) } }
                            td { (token_state(token, now)) }
                            td.actions {
                                @if token.revoked_at.is_none() && token.token_id != viewer.principal.token_id {
                                    form.inline method="post" action={ (PREFIX) "/tokens/" (token.token_id) "/revoke" } {
                                        (layout::csrf_field(viewer))
                                        button.danger type="submit" { "Revoke" }
                                    }
                                } @else if token.token_id == viewer.principal.token_id { span.hint { "yours" } }
                            }
                        }
                    }
                }
            } }
        }
    };
    layout::page("Tokens", Some(viewer), Nav::Tokens, body)
}

/// `GET /office/tokens`.
pub async fn page(state: web::Data<AppState>, viewer: Viewer) -> Result<HttpResponse, WebError> {
    viewer.principal.may_manage_tokens()?;
    let tokens = state.store.list_tokens().await?;
    Ok(layout::ok(tokens_page(&viewer, &tokens, None, None)))
}

/// The form that creates a token.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct TokenForm {
    /// Whose token it is.
    pub name: Option<String>,
    /// The role's name.
    pub role: Option<String>,
    /// The events it is limited to, one a line; none for every event.
    pub events: Option<String>,
    /// How long it lasts (`never`, or a duration the expiry reads).
    pub expires_in: Option<String>,
    /// The fair-play access, if any.
    pub fair_play_role: Option<String>,
}

/// `POST /office/tokens`: creates a token and shows it once.
pub async fn create(
    state: web::Data<AppState>,
    posted: Posted<TokenForm>,
) -> Result<HttpResponse, WebError> {
    let Posted { viewer, form, .. } = posted;
    viewer.principal.may_manage_tokens()?;
    let name = form.name.unwrap_or_default();
    let role = form.role.as_deref().and_then(Role::parse);
    let events: Option<Vec<String>> = form.events.as_deref().map(|text| {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect()
    });
    let events = events.filter(|e| !e.is_empty());
    let checked = (|| {
        let role = role.ok_or_else(|| "Choose a role.".to_string())?;
        check_token_fields(&name, events.as_deref()).map_err(|error| error.message)?;
        let expires_in = form.expires_in.as_deref().filter(|text| *text != "never");
        let expires_at = expiry_from(None, expires_in).map_err(|error| error.message)?;
        let fair_play = match form.fair_play_role.as_deref() {
            None => None,
            Some(name) => Some(FairPlayRole::parse(name).ok_or_else(|| {
                "Choose the fair-play access from the list (or none).".to_string()
            })?),
        };
        Ok::<_, String>((role, expires_at, fair_play))
    })();
    let (role, expires_at, fair_play) = match checked {
        Ok(checked) => checked,
        Err(problem) => {
            let tokens = state.store.list_tokens().await?;
            return Ok(layout::html_response(
                actix_web::http::StatusCode::UNPROCESSABLE_ENTITY,
                tokens_page(&viewer, &tokens, None, Some(&problem)),
            ));
        }
    };
    let (info, token) = state
        .store
        .create_expiring_token(
            &name,
            role,
            events.as_deref(),
            expires_at,
            &viewer.principal.recorder(),
        )
        .await?;
    let info = match fair_play {
        None => info,
        Some(fair_play) => state
            .store
            .set_fair_play_role(info.token_id, Some(fair_play))
            .await?
            .unwrap_or(info),
    };
    let tokens = state.store.list_tokens().await?;
    let mut response = layout::ok(tokens_page(&viewer, &tokens, Some((&token, &info)), None));
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    Ok(response)
}

/// `POST /office/tokens/{id}/revoke`.
pub async fn revoke(
    state: web::Data<AppState>,
    posted: Posted<NoFields>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, WebError> {
    let viewer = posted.viewer;
    viewer.principal.may_manage_tokens()?;
    let id = id.into_inner();
    let revoked = state.store.revoke_token(id).await;
    state.authenticator.forget(id);
    let revoked =
        revoked?.ok_or_else(|| WebError::NotFound(format!("There is no token with id {id}.")))?;
    leave_flash(
        &state,
        &viewer,
        &Flash {
            form: "tokens".into(),
            refused: false,
            message: format!(
                "The token of {} is revoked: it no longer works, and its sessions have ended.",
                revoked.name
            ),
            ..Flash::default()
        },
    )
    .await?;
    Ok(layout::see_other(&format!("{PREFIX}/tokens")))
}

//! Tokens, for admins: create one (shown once, on the page that answers the form, never
//! stored or left in the session), list them, revoke one (it stops working at once, and every
//! session opened with it ends).

use super::PREFIX;
use super::error::WebError;
use super::layout::{self, Nav};
use super::session::{Flash, Posted, Viewer, leave_flash};
use crate::access::Role;
use crate::app::commands::check_token_fields;
use crate::state::AppState;
use actix_web::http::header;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use uuid::Uuid;

fn tokens_page(
    viewer: &Viewer,
    tokens: &[crate::store::TokenInfo],
    created: Option<(&str, &crate::store::TokenInfo)>,
    problem: Option<&str>,
) -> Markup {
    let flash = viewer.flash();
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
        div.columns {
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
                    div.actions { button.primary type="submit" { "Create the token" } }
                }
            }
            section.panel {
                h2 { "All tokens" }
                div.scroll { table.list {
                    thead { tr { th { "Held by" } th { "Role" } th { "Events" } th { "Created" } th { "State" } th {} } }
                    tbody {
                        @for token in tokens {
                            tr class={ @if token.revoked_at.is_some() { "retracted" } } {
                                td { (token.name) }
                                td { (layout::role_name(token.role)) }
                                td { (token.events.as_ref().map(|e| e.join(", ")).unwrap_or_else(|| "all".into())) }
                                td { (layout::timestamp(token.created_at)) br; span.who { "by " (layout::recorder(&token.created_by)) } }
                                td { @if let Some(at) = token.revoked_at { "revoked " (layout::timestamp(at)) } @else { "valid" } }
                                td {
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

/// `POST /office/tokens`: creates a token and shows it once.
pub async fn create(state: web::Data<AppState>, posted: Posted) -> Result<HttpResponse, WebError> {
    let Posted { viewer, fields } = posted;
    viewer.principal.may_manage_tokens()?;
    let name = fields.get("name").unwrap_or_default().to_string();
    let role = fields.get("role").and_then(Role::parse);
    let events: Option<Vec<String>> = fields.get("events").map(|text| {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect()
    });
    let events = events.filter(|e| !e.is_empty());
    let checked = match role {
        None => Err("Choose a role.".to_string()),
        Some(role) => check_token_fields(&name, events.as_deref())
            .map(|()| role)
            .map_err(|error| error.message),
    };
    let role = match checked {
        Ok(role) => role,
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
        .create_token(&name, role, events.as_deref(), &viewer.principal.recorder())
        .await?;
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
    posted: Posted,
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

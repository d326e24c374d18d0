//! Signing in with a token and out again.

use super::PREFIX;
use super::error::WebError;
use super::layout::{self, Nav};
use super::session::{self, NoFields, Posted, check_same_origin};
use crate::state::AppState;
use crate::store::TokenCheck;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;

/// The query of the sign-in page.
#[derive(Debug, Deserialize)]
pub struct SignInQuery {
    /// Where to go after signing in.
    next: Option<String>,
}

/// The sign-in form.
#[derive(Debug, Deserialize)]
pub struct SignInForm {
    token: String,
    next: Option<String>,
}

fn sign_in_page(next: &str, problem: Option<&str>) -> Markup {
    let body = html! {
        section.panel.narrow.sign-in {
            h1 { "Sign in" }
            p {
                "Sign in with the token the chief arbiter or the operator gave you (it starts \
                 with " code { "arb_" } "). Your role decides what you can do: readers see, "
                "arbiters record, the appeals committee records appeal decisions, admins manage tokens."
            }
            @if let Some(problem) = problem {
                p.refusal role="alert" { (problem) }
            }
            form method="post" action={ (PREFIX) "/sign-in" } {
                input type="hidden" name="next" value=(next);
                label for="token" { "Token" }
                input #token type="password" name="token" autocomplete="current-password"
                    required autofocus spellcheck="false";
                button.primary type="submit" { "Sign in" }
            }
            p.hint { "The session ends when you sign out, after four hours without use, after sixteen hours, or when the token is revoked." }
        }
    };
    layout::page("Sign in", None, Nav::None, body)
}

/// `GET /office/sign-in`.
pub async fn form(query: web::Query<SignInQuery>) -> HttpResponse {
    let next = layout::local_path(query.next.as_deref(), format!("{PREFIX}/"));
    layout::ok(sign_in_page(&next, None))
}

/// `POST /office/sign-in`: checks the token, opens a session, sets the cookie.
pub async fn submit(
    state: web::Data<AppState>,
    request: HttpRequest,
    form: web::Form<SignInForm>,
) -> Result<HttpResponse, WebError> {
    check_same_origin(&request)?;
    let next = layout::local_path(form.next.as_deref(), format!("{PREFIX}/"));
    let token = form.token.trim();
    let check = if token.is_empty() || token.len() > 200 {
        TokenCheck::Unknown
    } else {
        state.store.authenticate(token).await?
    };
    let principal = match check {
        TokenCheck::Valid(principal) => principal,
        TokenCheck::Expired { expired_at, .. } => {
            return Ok(layout::html_response(
                StatusCode::UNAUTHORIZED,
                sign_in_page(
                    &next,
                    Some(&format!(
                        "This token expired at {}. Ask an admin for a new one.",
                        layout::timestamp(expired_at)
                    )),
                ),
            ));
        }
        TokenCheck::Unknown => {
            // Counted with the API's failed authentications: guessing tokens through this
            // form is slowed down the same way (429 past the limit).
            let address = crate::request::client_address(&state, &request);
            let response = match state.failed_authentications.count_failure(address) {
                Ok(()) => layout::html_response(
                    StatusCode::UNAUTHORIZED,
                    sign_in_page(
                        &next,
                        Some(
                            "This token is not known or has been revoked. Check that it was \
                             copied whole, or ask an admin for a valid token.",
                        ),
                    ),
                ),
                Err(wait) => {
                    let seconds = wait.as_secs().max(1);
                    let mut response = layout::html_response(
                        StatusCode::TOO_MANY_REQUESTS,
                        sign_in_page(
                            &next,
                            Some(&format!(
                                "Too many requests from this address presented a missing, \
                                 unknown, revoked or expired token; try again in {seconds} s \
                                 with a valid token (a valid token is never slowed down)."
                            )),
                        ),
                    );
                    if let Ok(value) =
                        actix_web::http::header::HeaderValue::from_str(&seconds.to_string())
                    {
                        response
                            .headers_mut()
                            .insert(actix_web::http::header::RETRY_AFTER, value);
                    }
                    response
                }
            };
            return Ok(response);
        }
    };
    let opened = state
        .store
        .open_session(
            principal.token_id,
            state.sessions.session_lifetime,
            state.sessions.session_idle,
        )
        .await?;
    let cookie = session::session_cookie(&request, &state.sessions, &opened.session_id);
    Ok(HttpResponse::SeeOther()
        .cookie(cookie)
        .insert_header(("Location", next))
        .finish())
}

/// `POST /office/sign-out`: deletes the session.
pub async fn sign_out(
    state: web::Data<AppState>,
    request: HttpRequest,
    posted: Posted<NoFields>,
) -> Result<HttpResponse, WebError> {
    state.store.close_session(&posted.viewer.session_id).await?;
    Ok(HttpResponse::SeeOther()
        .cookie(session::expired_cookie(&request, &state.sessions))
        .insert_header(("Location", format!("{PREFIX}/sign-in")))
        .finish())
}

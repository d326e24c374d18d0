//! Sessions and CSRF protection.
//!
//! A person signs in with a token (the same tokens as the API); the service then opens a
//! server-side session (`web_sessions`, only the SHA-256 of its id stored) and sets the
//! session cookie: `HttpOnly`, `SameSite=Strict`, `Path=/`, and `Secure` when the request
//! came over HTTPS (see [`SecureCookies`]). The session is bound to the token: revoking
//! the token ends it at once. It ends after an idle time and at an absolute time, and on
//! sign-out, which deletes it.
//!
//! Every form carries the session's synchronizer token, and every POST is checked twice: the
//! token must match ([`Posted`]), and the request must come from this origin (`Origin`, or
//! `Referer` when a browser sends no `Origin`). A POST failing either is refused with a 403
//! page and changes nothing.
//!
//! The API accepts the session cookie for GET requests only
//! ([`crate::app::sessions::principal_of_session`]), so that pages can open live streams
//! (`EventSource` cannot send an `Authorization` header) and show diagrams; writes through the
//! API still need a token.

use super::error::WebError;
pub use super::viewer::{CSRF_FIELD, Viewer};
use crate::app::sessions::SESSION_COOKIE;
use crate::config::{SecureCookies, SessionSettings};
use crate::request::session_id_of;
use crate::state::AppState;
use crate::store::Session;
use actix_web::cookie::{Cookie, SameSite, time};
use actix_web::dev::Payload;
use actix_web::http::{Method, header};
use actix_web::{FromRequest, HttpRequest, web};
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;
use std::collections::HashMap;

fn app_state(request: &HttpRequest) -> Result<web::Data<AppState>, WebError> {
    request
        .app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| WebError::Internal(anyhow::anyhow!("no app state")))
}

/// The page to come back to after signing in: this request's path and query.
fn return_path(request: &HttpRequest) -> String {
    if request.method() == Method::GET {
        request
            .uri()
            .path_and_query()
            .map(|p| p.as_str().to_string())
            .unwrap_or_else(|| format!("{}/", super::PREFIX))
    } else {
        format!("{}/", super::PREFIX)
    }
}

impl FromRequest for Viewer {
    type Error = WebError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let request = request.clone();
        Box::pin(async move {
            let state = app_state(&request)?;
            let next = return_path(&request);
            let Some(session_id) = session_id_of(&request) else {
                return Err(WebError::SignIn { next });
            };
            if request.method() != Method::GET {
                check_same_origin(&request)?;
            }
            // A page (GET) shows the flash once; a form submission leaves it for the page it
            // redirects to.
            let take_flash = request.method() == Method::GET;
            let session = state
                .store
                .session(&session_id, state.sessions.session_idle, take_flash)
                .await?;
            let Some(Session {
                principal,
                csrf_token,
                flash,
                ..
            }) = session
            else {
                return Err(WebError::SignIn { next });
            };
            Ok(Viewer {
                principal,
                csrf_token,
                session_id,
                flash,
            })
        })
    }
}

/// The origin this request was addressed to (`scheme://host[:port]`), as the browser sees it.
pub fn own_origin(request: &HttpRequest) -> String {
    let info = request.connection_info();
    format!("{}://{}", info.scheme(), info.host())
}

/// Refuses a state-changing request that does not come from this origin: its `Origin` must
/// be ours, or, when a browser sends none, its `Referer` must be one of our pages.
pub fn check_same_origin(request: &HttpRequest) -> Result<(), WebError> {
    let own = own_origin(request);
    let header_text = |name: header::HeaderName| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let refused = |what: String| {
        Err(WebError::Forbidden(format!(
            "This form was not sent from the back office at {own} ({what}); nothing was \
             changed. Open the page again and send the form from there."
        )))
    };
    match (header_text(header::ORIGIN), header_text(header::REFERER)) {
        (Some(origin), _) if origin == own => Ok(()),
        (Some(origin), _) => refused(format!("it came from {origin}")),
        (None, Some(referer)) if referer.starts_with(&format!("{own}/")) => Ok(()),
        (None, Some(_)) => refused("it came from another site".into()),
        (None, None) => refused("the browser said neither where it came from".into()),
    }
}

/// Compares two secrets in constant time.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The fields of a submitted form as sent (the CSRF token removed): what a refused form shows
/// again, and keeps in the flash, so that the person finds what they typed. It is never read
/// by name to decide anything: every form is read through its own form type (see [`Posted`]).
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(transparent)]
pub struct Fields(pub HashMap<String, String>);

impl Fields {
    /// The form type `T` these fields make, decoded as [`Posted`] decodes a submission: to
    /// draw a refused form again from the fields kept in the flash.
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T, WebError> {
        decode_form(&self.0)
    }
}

/// The form of a button that sends nothing but the page's security token (sign out, revoke a
/// token): the action is the address it posts to.
#[derive(Debug, Default, serde::Deserialize)]
pub struct NoFields {}

/// A form submission from a signed-in viewer whose synchronizer token and origin were
/// checked, decoded into the page's form type `T` (one serde struct per form, its fields named
/// as the page's inputs; [`NoFields`] for a button): extracting it refuses (403) a forged
/// request before any handler code runs. Every url-encoded form of the back office is read
/// through it, so the CSRF check is in this one place (the two multipart uploads, a round's
/// pairings and fair-play evidence, check the token of their parts with [`check_csrf`]).
///
/// `T` is decoded from the fields trimmed, with a blank field left out: an optional field
/// sent empty (`name=`, as browsers send it) is `None`, never an error. A form type takes
/// what a person types as text and reads it itself, so that a value that does not read is
/// answered by the page with what to fix; only a form the page did not draw (a hidden field
/// missing or damaged) is refused here, with a 400 that says so.
pub struct Posted<T> {
    /// Who sent it.
    pub viewer: Viewer,
    /// The form's fields as sent (the CSRF token removed): what a refused form shows again.
    pub fields: Fields,
    /// The form, decoded.
    pub form: T,
}

/// Decodes a form type from the fields: trimmed, blanks left out.
fn decode_form<T: DeserializeOwned>(fields: &HashMap<String, String>) -> Result<T, WebError> {
    let present: Vec<(&str, &str)> = fields
        .iter()
        .map(|(name, value)| (name.as_str(), value.trim()))
        .filter(|(_, value)| !value.is_empty())
        .collect();
    let unreadable = |e: &dyn std::fmt::Display| {
        WebError::BadRequest(format!(
            "The form cannot be read: {e}. Open the page again and send the form from there."
        ))
    };
    let encoded = serde_urlencoded::to_string(&present).map_err(|e| unreadable(&e))?;
    serde_urlencoded::from_str(&encoded).map_err(|e| unreadable(&e))
}

/// Checks the synchronizer token of a form against the session's.
pub fn check_csrf(viewer: &Viewer, presented: Option<&str>) -> Result<(), WebError> {
    match presented {
        Some(token) if same_secret(token, &viewer.csrf_token) => Ok(()),
        _ => Err(WebError::Forbidden(
            "This form does not carry the page's security token (it may come from another \
             site, or from a page opened before you signed in again); nothing was changed. \
             Open the page again and send the form from there."
                .into(),
        )),
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for Posted<T> {
    type Error = WebError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let viewer = Viewer::from_request(request, payload);
        let form = web::Form::<HashMap<String, String>>::from_request(request, payload);
        Box::pin(async move {
            let viewer = viewer.await?;
            let mut fields = form
                .await
                .map_err(|e| WebError::BadRequest(format!("The form cannot be read: {e}.")))?
                .into_inner();
            let presented = fields.remove(CSRF_FIELD);
            check_csrf(&viewer, presented.as_deref())?;
            let form = decode_form(&fields)?;
            Ok(Posted {
                viewer,
                fields: Fields(fields),
                form,
            })
        })
    }
}

/// Whether the session cookie must be `Secure` for this request.
fn secure(request: &HttpRequest, settings: &SessionSettings) -> bool {
    settings.secure_cookies == SecureCookies::Always
        || request.connection_info().scheme() == "https"
}

/// The cookie that carries a new session.
pub fn session_cookie(
    request: &HttpRequest,
    settings: &SessionSettings,
    session_id: &str,
) -> Cookie<'static> {
    Cookie::build(SESSION_COOKIE, session_id.to_string())
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure(request, settings))
        .max_age(time::Duration::seconds(
            i64::try_from(settings.session_lifetime.as_secs()).unwrap_or(i64::MAX),
        ))
        .finish()
}

/// The cookie that removes the session cookie.
pub fn expired_cookie(request: &HttpRequest, settings: &SessionSettings) -> Cookie<'static> {
    let mut cookie = Cookie::build(SESSION_COOKIE, "")
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure(request, settings))
        .finish();
    cookie.make_removal();
    cookie
}

/// What a form submission leaves for the page it redirects to (post/redirect/get): a notice,
/// or a refusal with the values the person typed, so the form can show them again.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Flash {
    /// The form it concerns (e.g. `record`, `load-round`).
    pub form: String,
    /// True when nothing was stored (the message says why and what to do instead).
    pub refused: bool,
    /// The sentence to show.
    pub message: String,
    /// The values of the form as submitted.
    #[serde(default)]
    pub values: HashMap<String, String>,
    /// A stable code of the refusal (e.g. the engine's `illegal_move`).
    #[serde(default)]
    pub code: Option<String>,
}

impl Viewer {
    /// The flash the previous request left, if it is readable.
    pub fn flash(&self) -> Option<Flash> {
        serde_json::from_value(self.flash.clone()?).ok()
    }

    /// The flash, if it concerns `form`.
    pub fn flash_for(&self, form: &str) -> Option<Flash> {
        self.flash().filter(|f| f.form == form)
    }
}

/// Leaves `flash` for the viewer's next page.
pub async fn leave_flash(state: &AppState, viewer: &Viewer, flash: &Flash) -> Result<(), WebError> {
    let value = serde_json::to_value(flash).map_err(|e| WebError::Internal(e.into()))?;
    state.store.set_flash(&viewer.session_id, &value).await?;
    Ok(())
}

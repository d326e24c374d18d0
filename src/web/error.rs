//! What a page answers when it cannot show what was asked: a page in the back office's own
//! layout (never a JSON problem), or the sign-in page for a visitor without a session. A 500
//! logs its cause chain and shows nothing of the internals.

use super::layout;
use crate::app::arbitration::RecordError;
use crate::store::StoreError;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use maud::html;

/// A page that cannot be shown, and why.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// No (live) session: go and sign in, then come back to `next`.
    #[error("sign in first")]
    SignIn {
        /// The page to return to.
        next: String,
    },
    /// The session's role may not do this, or the form failed the CSRF check.
    #[error("{0}")]
    Forbidden(String),
    /// No such game, tournament or page.
    #[error("{0}")]
    NotFound(String),
    /// The request cannot be read.
    #[error("{0}")]
    BadRequest(String),
    /// The database cannot be reached.
    #[error("the database cannot be reached")]
    Unavailable(#[source] anyhow::Error),
    /// Anything else: logged, not shown.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl From<StoreError> for WebError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::GameNotFound(id) => {
                WebError::NotFound(format!("There is no game with id {id}."))
            }
            StoreError::Database(sqlx::Error::PoolTimedOut)
            | StoreError::Database(sqlx::Error::Io(_))
            | StoreError::Database(sqlx::Error::PoolClosed) => WebError::Unavailable(error.into()),
            other => WebError::Internal(other.into()),
        }
    }
}

impl From<RecordError> for WebError {
    fn from(error: RecordError) -> Self {
        match error {
            RecordError::Store(store) => store.into(),
            RecordError::Denied(denied) => denied.into(),
            RecordError::BeyondLog { asked, last_seq } => WebError::NotFound(format!(
                "The log of this game ends at event {last_seq}; there is no event {asked}."
            )),
            other => WebError::Internal(other.into()),
        }
    }
}

impl From<crate::access::Denied> for WebError {
    fn from(denied: crate::access::Denied) -> Self {
        WebError::Forbidden(denied.0)
    }
}

impl ResponseError for WebError {
    fn status_code(&self) -> StatusCode {
        match self {
            WebError::SignIn { .. } => StatusCode::SEE_OTHER,
            WebError::Forbidden(_) => StatusCode::FORBIDDEN,
            WebError::NotFound(_) => StatusCode::NOT_FOUND,
            WebError::BadRequest(_) => StatusCode::BAD_REQUEST,
            WebError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            WebError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let (title, sentence) = match self {
            WebError::SignIn { next } => {
                return layout::see_other(&format!(
                    "{}/sign-in?next={}",
                    super::PREFIX,
                    layout::query_escape(next)
                ));
            }
            WebError::Forbidden(why) => ("Not allowed", why.clone()),
            WebError::NotFound(what) => ("Not found", what.clone()),
            WebError::BadRequest(what) => ("Cannot read the request", what.clone()),
            WebError::Unavailable(cause) => {
                tracing::error!(error = ?cause, "back office: database unavailable");
                (
                    "Database unavailable",
                    "The service cannot reach its database right now; nothing was stored. \
                     Try again in a few seconds."
                        .to_string(),
                )
            }
            WebError::Internal(cause) => {
                tracing::error!(error = ?cause, "back office page failed");
                (
                    "Something failed",
                    "The service failed while handling this page and stored nothing from \
                     it. Try again; if it persists, tell the operator the time it happened."
                        .to_string(),
                )
            }
        };
        let body = html! {
            section.panel.problem {
                h1 { (title) }
                p { (sentence) }
                p { a href={ (super::PREFIX) "/" } { "Back to the events" } }
            }
        };
        layout::html_response(
            self.status_code(),
            layout::page(title, None, layout::Nav::None, body),
        )
    }
}

/// Any path under the back office that is not a page.
pub async fn not_found(request: HttpRequest) -> HttpResponse {
    WebError::NotFound(format!("There is no page {}.", request.path())).error_response()
}

//! The one HTTP error type. Every 4xx and 5xx leaves the service as
//! `application/problem+json` (RFC 9457) with a sentence a person can act on and, for bad
//! input, the field that is wrong. A 500 logs its cause chain and tells the client nothing
//! about the internals.

use crate::store::StoreError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};

pub use crate::problem::{PROBLEM_JSON, Problem, ProblemCode, RequestCode};

/// The `Retry-After` of a 503 `database_unavailable`: a failover manager on a local network
/// promotes a standby within seconds, and the service follows it within a quarter of a second.
pub const UNAVAILABLE_RETRY_AFTER_SECS: u32 = 2;

/// An error that becomes a problem response.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: ProblemCode,
    title: &'static str,
    detail: String,
    field: Option<String>,
    current_seq: Option<u64>,
    retry_after_secs: Option<u32>,
    cause: Option<anyhow::Error>,
}

impl From<crate::access::Denied> for ApiError {
    fn from(denied: crate::access::Denied) -> Self {
        ApiError::new(
            StatusCode::FORBIDDEN,
            RequestCode::Forbidden,
            "Forbidden",
            denied.0,
        )
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.title, self.status, self.detail)
    }
}

impl ApiError {
    fn new(
        status: StatusCode,
        code: impl Into<ProblemCode>,
        title: &'static str,
        detail: String,
    ) -> Self {
        ApiError {
            status,
            code: code.into(),
            title,
            detail,
            field: None,
            current_seq: None,
            retry_after_secs: None,
            cause: None,
        }
    }

    /// 400: the request cannot be read (malformed JSON, a bad query parameter or path).
    pub fn bad_request(code: impl Into<ProblemCode>, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, "Bad request", detail.into())
    }

    /// 422: a field of a well-formed request is wrong.
    pub fn invalid_field(field: impl Into<String>, detail: impl Into<String>) -> Self {
        let mut error = Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            RequestCode::InvalidField,
            "Invalid field",
            detail.into(),
        );
        error.field = Some(field.into());
        error
    }

    /// 422 with a code of its own (e.g. `service_event_submitted`, `illegal_move`).
    pub fn unprocessable(code: impl Into<ProblemCode>, detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            code,
            "Request refused",
            detail.into(),
        )
    }

    /// 401: no token, or a token that is not valid.
    pub fn unauthenticated(code: impl Into<ProblemCode>, detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            code,
            "Authentication required",
            detail.into(),
        )
    }

    /// 429: too many failed authentications from the caller's address; `Retry-After` says
    /// when the next attempt will be judged again.
    pub fn too_many_failed_authentications(retry_after_secs: u32) -> Self {
        let mut error = Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            RequestCode::TooManyFailedAuthentications,
            "Too many failed authentications",
            format!(
                "Too many requests from this address presented a missing, unknown, revoked \
                 or expired token; try again in {retry_after_secs} s with a valid token (a \
                 valid token is never slowed down)."
            ),
        );
        error.retry_after_secs = Some(retry_after_secs);
        error
    }

    /// 404.
    pub fn not_found(code: impl Into<ProblemCode>, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, "Not found", detail.into())
    }

    /// 409.
    pub fn conflict(code: impl Into<ProblemCode>, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, "Conflict", detail.into())
    }

    /// 413.
    pub fn too_large(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            RequestCode::BodyTooLarge,
            "Request body too large",
            detail.into(),
        )
    }

    /// 405.
    pub fn method_not_allowed(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            RequestCode::MethodNotAllowed,
            "Method not allowed",
            detail.into(),
        )
    }

    /// Any other 4xx, with its standard reason as the title.
    pub fn with_status(status: StatusCode, detail: impl Into<String>) -> Self {
        Self::new(
            status,
            RequestCode::RequestRefused,
            status.canonical_reason().unwrap_or("Request refused"),
            detail.into(),
        )
    }

    /// 503: the database cannot be reached (`Retry-After`: [`UNAVAILABLE_RETRY_AFTER_SECS`]).
    pub fn unavailable(cause: anyhow::Error) -> Self {
        let mut error = Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            RequestCode::DatabaseUnavailable,
            "Service unavailable",
            "The service cannot reach its database right now (it may be failing over to a \
             standby); nothing was stored. Retry after the Retry-After seconds with the same \
             event_ids."
                .into(),
        );
        error.cause = Some(cause);
        error.retry_after_secs = Some(UNAVAILABLE_RETRY_AFTER_SECS);
        error
    }

    /// 500: something the client cannot fix. The cause is logged, never sent.
    pub fn internal(cause: anyhow::Error) -> Self {
        let mut error = Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            RequestCode::InternalError,
            "Internal error",
            "The service failed while handling this request and stored nothing from it. \
             Retry with the same event_ids; if it persists, report the time of the request \
             to the operator."
                .into(),
        );
        error.cause = Some(cause);
        error
    }

    /// Names the field that is wrong.
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The problem body. Its title names the problem in words
    /// ([`ProblemCode::title`] of its code), else the general one of its status.
    pub fn problem(&self) -> Problem {
        Problem {
            kind: format!("urn:arbiter:problem:{}", self.code.as_str()),
            title: self.code.title().unwrap_or(self.title).to_string(),
            status: self.status.as_u16(),
            detail: self.detail.clone(),
            code: self.code,
            field: self.field.clone(),
            current_seq: self.current_seq,
            request_id: None,
        }
    }

    /// The stable machine-readable code.
    pub fn code(&self) -> ProblemCode {
        self.code
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        if let Some(cause) = self
            .cause
            .as_ref()
            .filter(|_| self.status.is_server_error())
        {
            tracing::error!(status = self.status.as_u16(), code = self.code.as_str(), error = ?cause, "request failed");
        }
        crate::ops::telemetry::refused(self.code.as_str(), self.status.as_u16());
        let mut response = HttpResponse::build(self.status);
        if self.status == StatusCode::UNAUTHORIZED {
            response.insert_header(("WWW-Authenticate", "Bearer"));
        }
        if let Some(seconds) = self.retry_after_secs {
            response.insert_header(("Retry-After", seconds.to_string()));
        }
        response.content_type(PROBLEM_JSON).json(self.problem())
    }
}

impl From<crate::app::arbitration::RecordError> for ApiError {
    fn from(error: crate::app::arbitration::RecordError) -> Self {
        use crate::app::arbitration::RecordError;
        match error {
            RecordError::Store(store) => store.into(),
            RecordError::Denied(denied) => denied.into(),
            RecordError::Refused {
                index,
                seq,
                refusal,
            } => {
                let mut problem = ApiError::unprocessable(
                    refusal.code(),
                    format!(
                        "events[{index}] (it would have been seq {seq}) was not stored, nor \
                         anything else from this request: {}",
                        refusal.message()
                    ),
                );
                problem.title = "Refused by the Laws";
                problem.field = Some(format!("events[{index}]"));
                problem
            }
            RecordError::BeyondLog { asked, last_seq } => ApiError::not_found(
                RequestCode::SeqBeyondLog,
                format!(
                    "The log of this game ends at seq {last_seq}; there is no seq {asked}. Ask \
                     for at_seq between 1 and {last_seq}."
                ),
            )
            .with_field("at_seq"),
            corrupt @ RecordError::Corrupt { .. } => ApiError::internal(corrupt.into()),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::GameNotFound(id) => ApiError::not_found(
                RequestCode::GameNotFound,
                format!(
                    "No game with id {id} exists. Check the id (GET /v1/games lists games), or \
                     create the game first with POST /v1/games."
                ),
            ),
            StoreError::StaleSeq { expected, current } => {
                let mut problem = ApiError::conflict(
                    RequestCode::StaleSeq,
                    format!(
                        "The request expected the game's last seq to be {expected}, but it is \
                         {current}: other events were recorded first, and nothing from this \
                         request was stored. Read the events after seq {expected}, check that \
                         yours still apply, and send them again with expected_seq {current}."
                    ),
                );
                problem.current_seq = Some(current);
                problem
            }
            StoreError::EventIdReused { event_id, seq } => ApiError::conflict(
                RequestCode::EventIdReused,
                format!(
                    "event_id {event_id} is already stored as seq {seq} of this game, but not as \
                     this same append; nothing was stored. Use a new event_id for a new event, \
                     or resend the original request unchanged to retry it."
                ),
            ),
            StoreError::FairPlayIdTaken(event_id) => ApiError::conflict(
                RequestCode::EventIdReused,
                format!(
                    "event_id {event_id} already names another stored fair-play record (of \
                     another game, or one stored at the same moment with other content); \
                     nothing was stored. Use a new event_id for a new record, or resend the \
                     original request unchanged to retry it."
                ),
            ),
            StoreError::DuplicateEventIdInRequest(id) => ApiError::invalid_field(
                "events",
                format!(
                    "event_id {id} appears more than once in this request; give each event its \
                     own id."
                ),
            ),
            StoreError::TournamentNameTaken(name) => ApiError::conflict(
                RequestCode::TournamentNameTaken,
                format!(
                    "A tournament named `{name}` exists already; nothing was created. Choose \
                     another name (e.g. with the year), or open the existing tournament."
                ),
            )
            .with_field("name"),
            StoreError::GameIdTaken(id) => ApiError::conflict(
                RequestCode::GameIdTaken,
                format!(
                    "A game with id {id} already exists with different settings; nothing was \
                     stored. Omit game_id to get a fresh one, or fetch the existing game."
                ),
            ),
            unavailable if unavailable.is_unavailable() => {
                ApiError::unavailable(unavailable.into())
            }
            other => ApiError::internal(other.into()),
        }
    }
}

impl From<crate::app::commands::CommandError> for ApiError {
    /// A command that does not decode: 422 naming the field (or the refusal's own code).
    fn from(error: crate::app::commands::CommandError) -> Self {
        let refused = match error.code {
            ProblemCode::Request(RequestCode::InvalidField) => {
                ApiError::invalid_field(error.field.clone().unwrap_or_default(), error.message)
            }
            code => ApiError::unprocessable(code, error.message),
        };
        match error.field {
            Some(field) => refused.with_field(field),
            None => refused,
        }
    }
}

impl From<crate::request::RequestError> for ApiError {
    fn from(error: crate::request::RequestError) -> Self {
        match error {
            crate::request::RequestError::Unreadable(error) => {
                let mut refused = ApiError::bad_request(error.code, error.message);
                refused.field = error.field;
                refused
            }
            crate::request::RequestError::NoState => {
                ApiError::internal(anyhow::anyhow!("the app has no state"))
            }
        }
    }
}

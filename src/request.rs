//! What both faces read from a request the same way, below both (neither face imports the
//! other): where a read reads ([`Reads`]), the client address failed authentications are
//! counted under ([`client_address`]) and the back-office session a request carries
//! ([`session_id_of`]).
//!
//! The [`Reads`] extractor gives the store to read from (the read replica when one is
//! configured, else the primary) and keeps read-your-writes.
//!
//! A write answered while a replica is configured carries `X-Arbiter-LSN` (the primary's WAL
//! position after the commit). A client sends it back on a read, as the same header or as
//! the `min_lsn` query parameter; the read then waits, bounded, for the replica to replay
//! that far, or is served by the primary. `X-Arbiter-Read-From` on the answer says which
//! database served it (`primary`, `replica` or `primary_fallback`). The back office and the
//! live streams use the same extractor (or [`crate::store::Store::reader`]).

use crate::app::commands::CommandError;
use crate::problem::RequestCode;
use crate::problem::{PROBLEM_JSON, Problem};
use crate::state::AppState;
use crate::store::{Lsn, ReadHandle, ServedBy, Store};
use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpMessage, HttpRequest, HttpResponse, ResponseError, web};
use futures_util::future::LocalBoxFuture;
use std::net::IpAddr;

/// The header a write's answer carries and a read may send back.
pub const LSN_HEADER: &str = "X-Arbiter-LSN";
/// The header that says which database served a read.
pub const READ_FROM_HEADER: &str = "X-Arbiter-Read-From";
/// The query parameter equivalent to [`LSN_HEADER`].
pub const MIN_LSN_PARAMETER: &str = "min_lsn";

/// The store a read route reads through.
#[derive(Clone, Debug)]
pub struct Reads(pub ReadHandle);

impl std::ops::Deref for Reads {
    type Target = Store;

    fn deref(&self) -> &Store {
        &self.0.store
    }
}

impl FromRequest for Reads {
    type Error = RequestError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = request.app_data::<web::Data<AppState>>().cloned();
        let wanted = min_lsn(request);
        let request = request.clone();
        Box::pin(async move {
            let state = state.ok_or(RequestError::NoState)?;
            let handle = state.store.reader(wanted?).await;
            crate::ops::telemetry::read_served(handle.served_by);
            request.extensions_mut().insert(handle.served_by);
            Ok(Reads(handle))
        })
    }
}

/// The position the client asks to read at least, from the header and/or the query (the
/// latest when several are sent; each must be a position).
fn min_lsn(request: &HttpRequest) -> Result<Option<Lsn>, RequestError> {
    let from_header = request
        .headers()
        .get(LSN_HEADER)
        .map(|value| value.to_str().unwrap_or("").to_string());
    let from_query = web::Query::<Vec<(String, String)>>::from_query(request.query_string())
        .map(|query| query.into_inner())
        .unwrap_or_default()
        .into_iter()
        .filter(|(key, _)| key == MIN_LSN_PARAMETER)
        .map(|(_, value)| (value, MIN_LSN_PARAMETER));
    let mut wanted = None;
    for (text, field) in from_header
        .map(|text| (text, LSN_HEADER))
        .into_iter()
        .chain(from_query)
    {
        let lsn = Lsn::parse(text.trim()).ok_or_else(|| {
            RequestError::Unreadable(
                CommandError::refused(
                    RequestCode::InvalidLsn,
                    format!(
                        "`{text}` is not a WAL position: send back the {LSN_HEADER} value of a \
                     write's answer unchanged (two hexadecimal numbers joined by `/`, such as \
                     0/16B3748), as the {LSN_HEADER} header or the {MIN_LSN_PARAMETER} query \
                     parameter."
                    ),
                )
                .with_field(field),
            )
        })?;
        wanted = wanted.max(Some(lsn));
    }
    Ok(wanted)
}

/// The value of `X-Arbiter-Read-From` for a request that went through [`Reads`].
pub fn served_by(request: &HttpRequest) -> Option<ServedBy> {
    request.extensions().get::<ServedBy>().copied()
}

/// The address a request's failed authentications are counted under (the proxy's word for
/// it only when the service trusts `Forwarded`/`X-Forwarded-For`).
pub fn client_address(state: &AppState, request: &HttpRequest) -> IpAddr {
    let info = request.connection_info();
    state.failed_authentications.address_of(
        request.peer_addr().map(|peer| peer.ip()),
        info.realip_remote_addr(),
    )
}

/// The back-office session id a request's cookie carries, if any.
pub fn session_id_of(request: &HttpRequest) -> Option<String> {
    let cookie = request.cookie(crate::app::sessions::SESSION_COOKIE)?;
    crate::app::sessions::session_id(cookie.value()).map(str::to_owned)
}

/// A request that the shared extractors cannot serve.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// 400: a header or parameter cannot be read.
    #[error("{0}")]
    Unreadable(CommandError),
    /// 500: the app was built without its state (a wiring fault).
    #[error("the app has no state")]
    NoState,
}

impl ResponseError for RequestError {
    fn status_code(&self) -> StatusCode {
        match self {
            RequestError::Unreadable(_) => StatusCode::BAD_REQUEST,
            RequestError::NoState => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        let (code, title, detail, field) = match self {
            RequestError::Unreadable(error) => (
                error.code,
                "Bad request",
                error.message.clone(),
                error.field.clone(),
            ),
            RequestError::NoState => {
                tracing::error!("request failed: the app has no state");
                (
                    RequestCode::InternalError.into(),
                    "Internal error",
                    "The service failed; nothing was stored.".to_string(),
                    None,
                )
            }
        };
        crate::ops::telemetry::refused(code.as_str(), status.as_u16());
        HttpResponse::build(status)
            .content_type(PROBLEM_JSON)
            .json(Problem {
                kind: format!("urn:arbiter:problem:{}", code.as_str()),
                title: title.to_string(),
                status: status.as_u16(),
                detail,
                code,
                field,
                current_seq: None,
                request_id: None,
            })
    }
}

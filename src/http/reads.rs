//! Where a read route reads: the [`Reads`] extractor gives the store to read from (the read
//! replica when one is configured, else the primary) and keeps read-your-writes.
//!
//! A write answered while a replica is configured carries `X-Arbiter-LSN` (the primary's WAL
//! position after the commit). A client sends it back on a read, as the same header or as
//! the `min_lsn` query parameter; the read then waits, bounded, for the replica to replay
//! that far, or is served by the primary. `X-Arbiter-Read-From` on the answer says which
//! database served it (`primary`, `replica` or `primary_fallback`). The back office and the
//! live streams use the same extractor (or [`crate::store::Store::reader`]).

use super::AppState;
use super::error::ApiError;
use crate::store::{Lsn, ReadHandle, ServedBy, Store};
use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpMessage, HttpRequest, web};
use futures_util::future::LocalBoxFuture;

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
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = request.app_data::<web::Data<AppState>>().cloned();
        let wanted = min_lsn(request);
        let request = request.clone();
        Box::pin(async move {
            let state = state.ok_or_else(|| ApiError::internal(anyhow::anyhow!("no app state")))?;
            let handle = state.store.reader(wanted?).await;
            crate::telemetry::read_served(handle.served_by);
            request.extensions_mut().insert(handle.served_by);
            Ok(Reads(handle))
        })
    }
}

/// The position the client asks to read at least, from the header and/or the query (the
/// latest when several are sent; each must be a position).
fn min_lsn(request: &HttpRequest) -> Result<Option<Lsn>, ApiError> {
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
            ApiError::bad_request(
                "invalid_lsn",
                format!(
                    "`{text}` is not a WAL position: send back the {LSN_HEADER} value of a \
                     write's answer unchanged (two hexadecimal numbers joined by `/`, such as \
                     0/16B3748), as the {LSN_HEADER} header or the {MIN_LSN_PARAMETER} query \
                     parameter."
                ),
            )
            .with_field(field)
        })?;
        wanted = wanted.max(Some(lsn));
    }
    Ok(wanted)
}

/// The value of `X-Arbiter-Read-From` for a request that went through [`Reads`].
pub fn served_by(request: &HttpRequest) -> Option<ServedBy> {
    request.extensions().get::<ServedBy>().copied()
}

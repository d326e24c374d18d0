//! Query parameters and checks that several routes share: free-text filters, page sizes and
//! time travel (`at_seq`).

use super::error::ApiError;
use crate::problem::RequestCode;
use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::future::{Ready, ready};
use utoipa::IntoParams;

/// A route's query parameters, decoded as `web::Query` decodes them, but refused with a 400
/// that names the parameter (`field`) and says what it must be: `at_seq=abc` is "`at_seq`
/// must be a whole number, not `abc`", never a deserializer's message without a name.
#[derive(Debug)]
pub struct Query<T>(pub T);

impl<T> Query<T> {
    /// The decoded parameters.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Query<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned> FromRequest for Query<T> {
    type Error = ApiError;
    type Future = Ready<Result<Query<T>, ApiError>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(decode_query(request.query_string()).map(Query))
    }
}

/// Decodes a query string, naming the parameter that is wrong.
pub fn decode_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let pairs = form_urlencoded::parse(query.as_bytes());
    serde_path_to_error::deserialize(serde_urlencoded::Deserializer::new(pairs)).map_err(|error| {
        let message = error.inner().to_string();
        let field = match error.path().to_string() {
            path if path != "." => path,
            // A parameter that is missing has no path of its own; serde names it.
            _ => message
                .strip_prefix("missing field `")
                .and_then(|rest| rest.split('`').next())
                .unwrap_or_default()
                .to_string(),
        };
        let value = form_urlencoded::parse(query.as_bytes())
            .find(|(key, _)| *key == field)
            .map(|(_, value)| value.into_owned());
        let detail = match value {
            Some(value) if message.contains("too large") || message.contains("too small") => {
                format!("`{field}` = `{value}` is out of range; nothing was changed.")
            }
            Some(value) if is_number_error(&message) => {
                format!("`{field}` must be a whole number, not `{value}`; nothing was changed.")
            }
            Some(value) => {
                format!("`{field}` cannot be `{value}`: {message}; nothing was changed.")
            }
            None if field.is_empty() => {
                format!("A query parameter is wrong: {message}; nothing was changed.")
            }
            None => format!("`{field}` is wrong: {message}; nothing was changed."),
        };
        let problem = ApiError::bad_request(RequestCode::InvalidQuery, detail);
        if field.is_empty() {
            problem
        } else {
            problem.with_field(field)
        }
    })
}

/// Whether a decoder's message says a text is not a number.
fn is_number_error(message: &str) -> bool {
    [
        "invalid digit",
        "cannot parse integer",
        "invalid float literal",
    ]
    .iter()
    .any(|words| message.contains(words))
}

/// Checks a free-text query filter: at most 200 characters, no U+0000 (which PostgreSQL
/// cannot take as text).
pub fn check_query_text(field: &'static str, text: Option<&str>) -> Result<(), ApiError> {
    if text.is_some_and(|t| t.contains('\0') || t.chars().count() > 200) {
        return Err(ApiError::bad_request(
            RequestCode::InvalidQuery,
            format!("`{field}` must be at most 200 characters, without U+0000."),
        )
        .with_field(field));
    }
    Ok(())
}

/// Checks a page size against its bounds.
pub fn page_limit(limit: Option<u64>, default: u64, max: u64) -> Result<u64, ApiError> {
    match limit {
        None => Ok(default),
        Some(n) if (1..=max).contains(&n) => Ok(n),
        Some(n) => Err(ApiError::bad_request(
            RequestCode::InvalidLimit,
            format!("limit {n} is out of range; ask for 1 to {max} items per page."),
        )
        .with_field("limit")),
    }
}

/// Time travel: the state as it stood after an event.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AtSeqQuery {
    /// Fold the log only up to this `seq` (the state as it stood after that event). Events
    /// count from 1, the game's creation: `at_seq=1` is the game as created, before any
    /// move; 0 is refused (400), since there is no game before its creation.
    #[param(minimum = 1)]
    pub at_seq: Option<u64>,
}

impl AtSeqQuery {
    /// The `seq` asked for, if any: at least 1.
    pub fn checked(&self) -> Result<Option<u64>, ApiError> {
        match self.at_seq {
            Some(0) => Err(ApiError::bad_request(
                RequestCode::InvalidQuery,
                "at_seq counts the game's events from 1, and event 1 is its creation: ask \
                 for at_seq=1 for the game as created (the start position, before any move), \
                 or leave at_seq out for the game as it stands now.",
            )
            .with_field("at_seq")),
            at_seq => Ok(at_seq),
        }
    }
}

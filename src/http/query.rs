//! Query parameters and checks that several routes share: free-text filters, page sizes and
//! time travel (`at_seq`).

use super::error::ApiError;
use crate::problem::RequestCode;
use serde::Deserialize;
use utoipa::IntoParams;

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

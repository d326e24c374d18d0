//! Query parameters and checks that several routes share: free-text filters, page sizes and
//! time travel (`at_seq`).

use super::error::ApiError;
use serde::Deserialize;
use utoipa::IntoParams;

/// Checks a free-text query filter: at most 200 characters, no U+0000 (which PostgreSQL
/// cannot take as text).
pub fn check_query_text(field: &'static str, text: Option<&str>) -> Result<(), ApiError> {
    if text.is_some_and(|t| t.contains('\0') || t.chars().count() > 200) {
        return Err(ApiError::bad_request(
            "invalid_query",
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
            "invalid_limit",
            format!("limit {n} is out of range; ask for 1 to {max} items per page."),
        )
        .with_field("limit")),
    }
}

/// Time travel: the state as it stood after an event.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AtSeqQuery {
    /// Fold the log only up to this `seq` (the state as it stood after that event).
    pub at_seq: Option<u64>,
}

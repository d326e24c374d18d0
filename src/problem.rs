//! Problem details (RFC 9457): the body every 4xx and 5xx of the API carries, with a
//! sentence a person can act on and, for bad input, the field that is wrong. The API's
//! error type ([`crate::http::error::ApiError`]) and the extractors both faces share
//! ([`crate::request`]) answer with it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// An error response body (RFC 9457 problem details).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Problem {
    /// A URI naming the kind of problem (`urn:arbiter:problem:<code>`).
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the kind of problem.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// What went wrong and what to do about it.
    pub detail: String,
    /// A stable machine-readable code (`stale_seq`, `invalid_field`, `game_not_found`, ...).
    pub code: String,
    /// The field of the request that is wrong, as a path (`events[2].san`), for bad input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The game's last stored `seq`, when an append was refused because it was stale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_seq: Option<u64>,
    /// The request's id (also in the `X-Request-Id` header and the service's log line for
    /// the request), on every 5xx: give it to the operator to find what failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

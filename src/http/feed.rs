//! The global feed: every stored event of every game, in commit order, for integrations.

use super::auth::Caller;
use super::error::{ApiError, Problem};
use super::query::{Query, page_limit};
use crate::problem::RequestCode;
use crate::request::Reads;
use crate::store::{FeedCursor, FeedPage};
use actix_web::{get, web};
use serde::Deserialize;
use utoipa::IntoParams;

/// Paging of the feed.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FeedQuery {
    /// The `next` value of the previous page (`TXID-POSITION`); from the start when absent.
    #[param(pattern = "^[0-9]{1,19}-[0-9]{1,19}$")]
    pub after: Option<String>,
    /// At most this many events, 1 to 1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u64>,
}

/// Read the global feed.
///
/// Events of all games in commit order. An event whose transaction commits late is never
/// skipped: the page stops before the oldest transaction still open, and the cursor only
/// moves past events that are visible. Poll with the `next` of the previous page; an empty
/// page returns the same cursor.
#[utoipa::path(
    tag = "feed",
    security(("bearer" = [])),
    params(FeedQuery),
    responses(
        (status = 200, description = "A page of the feed.", body = FeedPage),
        (status = 400, description = "The cursor or limit is wrong; `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/feed")]
pub async fn read_feed(
    _caller: Caller,
    reads: Reads,
    query: Query<FeedQuery>,
) -> Result<web::Json<FeedPage>, ApiError> {
    let limit = page_limit(query.limit, 100, 1000)?;
    let after = match query.after.as_deref() {
        None => FeedCursor::START,
        Some(text) => FeedCursor::parse(text).ok_or_else(|| {
            ApiError::bad_request(
                RequestCode::InvalidCursor,
                "`after` is not a feed cursor: pass the `next` value of the previous page \
                 (two numbers joined by `-`), or omit it to read from the start.",
            )
            .with_field("after")
        })?,
    };
    Ok(web::Json(reads.feed(&after, limit).await?))
}

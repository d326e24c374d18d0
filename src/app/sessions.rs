//! Back-office sessions as principals: a session id (from the cookie the back office set at
//! sign-in) stands for the token it was opened with. The back office reads it on every page;
//! the API accepts it on GET requests, so that pages can open live streams (`EventSource`
//! cannot send an `Authorization` header) and show diagrams. Writes through the API still
//! need a token.

use crate::access::Principal;
use crate::config::SessionSettings;
use crate::store::{Store, StoreError};

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "arbiter_session";

/// The longest session id accepted from a cookie (they are 43 characters).
pub const MAX_SESSION_ID: usize = 100;

/// The session id a cookie value carries, if it can be one.
pub fn session_id(cookie_value: &str) -> Option<&str> {
    Some(cookie_value).filter(|id| !id.is_empty() && id.len() <= MAX_SESSION_ID)
}

/// The principal of the live session `session_id`, if there is one (an idle, expired or
/// signed-out session, or one whose token was revoked, is none). Reading it does not take
/// the session's flash.
pub async fn principal_of_session(
    store: &Store,
    settings: &SessionSettings,
    session_id: &str,
) -> Result<Option<Principal>, StoreError> {
    Ok(store
        .session(session_id, settings.session_idle, false)
        .await?
        .map(|s| s.principal))
}

//! Who is looking at a page ([`Viewer`]) and the name of the field that carries a form's
//! synchronizer token: what the layout of every page needs to know of the session, apart
//! from how sessions are kept ([`super::session`]).

use crate::access::Principal;

/// Who is looking at a page: the signed-in principal, the CSRF token for the page's forms,
/// and what the previous request left to show once.
#[derive(Clone, Debug)]
pub struct Viewer {
    /// The token holder and role.
    pub principal: Principal,
    /// The synchronizer token to put in every form.
    pub csrf_token: String,
    /// The session id (from the cookie), to leave a flash or sign out.
    pub session_id: String,
    /// What the previous request left (a refused form with its values).
    pub flash: Option<serde_json::Value>,
}

impl Viewer {
    /// Whether the viewer may record board events (arbiters).
    pub fn is_arbiter(&self) -> bool {
        self.principal.role == crate::access::Role::Arbiter
    }
}

/// The name of the form field that carries the synchronizer token.
pub const CSRF_FIELD: &str = "csrf";

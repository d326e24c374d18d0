//! Who may write what. Pure rules over roles; the HTTP layer identifies the caller from a
//! bearer token and asks these rules before doing anything.
//!
//! * `admin` manages tokens, reads the service's metrics, and reads everything.
//! * `arbiter` creates games and records board events, arbiter decisions, corrections and
//!   lodged appeals, optionally only for the events (tournaments) named in the token.
//! * `appeals` records `appeal_lodged` and `appeal_decided`, and reads everything.
//! * `reader` reads everything (federation integrations).
//!
//! Apart from the role, a token may hold the `fair_play` capability, as the chief arbiter,
//! the fair-play arbiter or a Fair Play Officer ([`FairPlayRole`]): only such a token reads
//! and records fair-play events; any other gets 404 on their routes, as if they did not exist.

pub use crate::game::fair_play::FairPlayRole;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// A token's role.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    ToSchema,
    clap::ValueEnum,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::EnumIter,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Manages tokens.
    Admin,
    /// Creates games and records board events and arbiter decisions.
    Arbiter,
    /// Records appeal events.
    Appeals,
    /// Reads only.
    Reader,
}

impl Role {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Parses a stored name.
    pub fn parse(text: &str) -> Option<Role> {
        text.parse().ok()
    }
}

/// The caller, as identified by a valid, unrevoked token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Principal {
    /// The token's id.
    pub token_id: Uuid,
    /// The token's name (who holds it); recorded as `recorded_by`.
    pub name: String,
    /// The role.
    pub role: Role,
    /// The events (tournaments) the token is limited to; `None` for all.
    pub events: Option<Vec<String>>,
    /// The `fair_play` capability, and as whom; `None` for a token without it.
    pub fair_play: Option<FairPlayRole>,
}

/// Why the caller may not do something: a 403 with this sentence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Denied(pub String);

impl Principal {
    /// What `recorded_by` says for events this caller stores.
    pub fn recorder(&self) -> String {
        format!(
            "{} ({}, token {})",
            self.name,
            self.role.as_str(),
            self.token_id
        )
    }

    /// Whether the token covers games of `event`.
    fn covers(&self, event: &str) -> Result<(), Denied> {
        match &self.events {
            Some(events) if !events.iter().any(|e| e == event) => Err(Denied(format!(
                "This token is limited to the events {}; the game belongs to `{event}`. Use a \
                 token for that event.",
                events.join(", ")
            ))),
            _ => Ok(()),
        }
    }

    /// May create a game of `event`.
    pub fn may_create_game(&self, event: &str) -> Result<(), Denied> {
        if self.role != Role::Arbiter {
            return Err(Denied(format!(
                "Creating games needs an arbiter token; this one has the role `{}`.",
                self.role.as_str()
            )));
        }
        self.covers(event)
    }

    /// May record an event of type `kind` in a game of `event`.
    pub fn may_record(&self, kind: &str, event: &str) -> Result<(), Denied> {
        let allowed = match self.role {
            Role::Arbiter => kind != "appeal_decided",
            Role::Appeals => kind == "appeal_lodged" || kind == "appeal_decided",
            Role::Admin | Role::Reader => false,
        };
        if !allowed {
            let who = match kind {
                "appeal_decided" => "an appeals token",
                "appeal_lodged" => "an arbiter or appeals token",
                _ => "an arbiter token",
            };
            return Err(Denied(format!(
                "Recording `{kind}` needs {who}; this one has the role `{}`.",
                self.role.as_str()
            )));
        }
        if self.role == Role::Arbiter {
            self.covers(event)?;
        }
        Ok(())
    }

    /// The fair-play role this caller holds for games of `event`, or `None`: without the
    /// capability, or outside the token's events, the fair-play routes answer 404.
    pub fn fair_play_for(&self, event: &str) -> Option<FairPlayRole> {
        let role = self.fair_play?;
        self.covers(event).ok()?;
        Some(role)
    }

    /// May read the service's metrics (`GET /metrics`; a separate metrics address needs
    /// no token at all).
    pub fn may_read_metrics(&self) -> Result<(), Denied> {
        if self.role == Role::Admin {
            Ok(())
        } else {
            Err(Denied(format!(
                "Reading metrics needs an admin token (or the separate metrics address, \
                 --metrics-bind); this one has the role `{}`.",
                self.role.as_str()
            )))
        }
    }

    /// May manage tokens.
    pub fn may_manage_tokens(&self) -> Result<(), Denied> {
        if self.role == Role::Admin {
            Ok(())
        } else {
            Err(Denied(format!(
                "Managing tokens needs an admin token; this one has the role `{}`.",
                self.role.as_str()
            )))
        }
    }
}

//! A tournament's own log: the players' statuses recorded between rounds, and every entry
//! (exports, pairings loaded, settings changed) the TRF26 trail is written from.

use super::{Api, Reply};
use serde_json::Value;
use std::fmt::Display;

impl Api<'_> {
    /// `POST /v1/tournaments/{id}/players/status`: records a withdrawal, an expulsion, a
    /// requested bye or a late entry, with its reason.
    pub async fn record_player_status(&self, tournament: impl Display, status: &Value) -> Reply {
        self.post(
            &format!("/v1/tournaments/{tournament}/players/status"),
            status,
        )
        .await
    }

    /// `GET /v1/tournaments/{id}/log`: the tournament's log, in the order recorded.
    pub async fn tournament_log(&self, tournament: impl Display) -> Reply {
        self.get(&format!("/v1/tournaments/{tournament}/log")).await
    }
}

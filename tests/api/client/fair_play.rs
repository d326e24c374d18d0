//! The fair-play routes (restricted to the tokens with the `fair_play` capability: anyone
//! else is told they do not exist) and the public audit that checks their sealed payloads.

use super::{Api, Reply};
use serde_json::Value;
use std::fmt::Display;

impl Api<'_> {
    /// `POST /v1/games/{id}/fair-play`: records a fair-play fact (`{"record": ...}`, with an
    /// optional `event_id` and `expected_seq`).
    pub async fn record_fair_play(&self, game: impl Display, body: &Value) -> Reply {
        self.post(&format!("/v1/games/{game}/fair-play"), body)
            .await
    }

    /// `GET /v1/games/{id}/fair-play`: a game's fair-play records, each read logged.
    pub async fn list_fair_play(&self, game: impl Display) -> Reply {
        self.get(&format!("/v1/games/{game}/fair-play")).await
    }

    /// `GET /v1/games/{id}/fair-play/{seq}`: one fair-play record, its read logged.
    pub async fn read_fair_play(&self, game: impl Display, seq: impl Display) -> Reply {
        self.get(&format!("/v1/games/{game}/fair-play/{seq}")).await
    }

    /// `GET /v1/games/{id}/fair-play/{seq}/evidence`: the evidence file of a record (as a
    /// [`Reply`]: for the file's bytes and headers, [`Api::call`] the same path).
    pub async fn fair_play_evidence(&self, game: impl Display, seq: impl Display) -> Reply {
        self.get(&format!("/v1/games/{game}/fair-play/{seq}/evidence"))
            .await
    }

    /// `GET /v1/games/{id}/fair-play/access`: who read which fair-play record, and when.
    pub async fn fair_play_access(&self, game: impl Display) -> Reply {
        self.get(&format!("/v1/games/{game}/fair-play/access"))
            .await
    }

    /// `GET /v1/games/{id}/fair-play/audit`: checks the sealed payloads and evidence files
    /// of a game against their public rows.
    pub async fn audit_fair_play(&self, game: impl Display) -> Reply {
        self.get(&format!("/v1/games/{game}/fair-play/audit")).await
    }

    /// `GET /v1/tournaments/{id}/fair-play-report`: the tournament's fair-play report.
    pub async fn fair_play_report(&self, tournament: impl Display) -> Reply {
        self.get(&format!("/v1/tournaments/{tournament}/fair-play-report"))
            .await
    }

    /// `GET /v1/games/{id}/audit`: re-runs a game from its log and checks its hash chain and
    /// sealed payloads.
    pub async fn audit(&self, game: impl Display) -> Reply {
        self.get(&format!("/v1/games/{game}/audit")).await
    }
}

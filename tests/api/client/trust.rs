//! The token routes (an admin's) and the game records a third party verifies: the export and
//! the digest.

use super::{Api, Reply, TextReply};
use serde_json::Value;
use std::fmt::Display;

impl Api<'_> {
    /// `POST /v1/tokens`: creates a token (`name`, `role`, optional `events` and
    /// `fair_play_role`); the answer holds the secret once.
    pub async fn create_token(&self, settings: &Value) -> Reply {
        self.post("/v1/tokens", settings).await
    }

    /// `GET /v1/tokens`: every token's information, never a secret.
    pub async fn list_tokens(&self) -> Reply {
        self.get("/v1/tokens").await
    }

    /// `POST /v1/tokens/{id}/rotate`: a new secret for a token, the old one revoked.
    pub async fn rotate_token(&self, token: impl Display, body: &Value) -> Reply {
        self.post(&format!("/v1/tokens/{token}/rotate"), body).await
    }

    /// `DELETE /v1/tokens/{id}`: revokes a token.
    pub async fn revoke_token(&self, token: impl Display) -> Reply {
        self.send(actix_web::test::TestRequest::delete().uri(&format!("/v1/tokens/{token}")))
            .await
    }

    /// `GET /v1/games/{id}/export`: a game's export, one JSON line per event with its hash,
    /// as text (what `arbiter verify` reads offline).
    pub async fn export(&self, game: impl Display) -> TextReply {
        let path = format!("/v1/games/{game}/export");
        self.send_for_text(actix_web::test::TestRequest::get().uri(&path))
            .await
    }

    /// `GET /v1/games/{id}/digest`: a game's chain head, to compare with a copy.
    pub async fn digest(&self, game: impl Display) -> Reply {
        self.get(&format!("/v1/games/{game}/digest")).await
    }
}

//! The live streams (server-sent events). Through the in-process client a stream is read to
//! its end, so these methods are for the answers that end: a refusal, or the stream of a game
//! that has ended. A test that follows a live stream opens it on a real port.

use super::{Api, Reply};
use std::fmt::Display;

impl Api<'_> {
    /// `GET /v1/games/{id}/stream`: a game's events as they are recorded, after a snapshot.
    pub async fn game_stream(&self, game: impl Display) -> Reply {
        self.get(&format!("/v1/games/{game}/stream")).await
    }

    /// `GET /v1/broadcast/games/{id}/stream`: a game's public stream, behind the broadcast
    /// delay.
    pub async fn public_game_stream(&self, game: impl Display) -> Reply {
        self.get(&format!("/v1/broadcast/games/{game}/stream"))
            .await
    }

    /// `GET /v1/rounds/stream?query`: every game of a round (`query` without the `?`:
    /// `event=...&round=...`).
    pub async fn round_stream(&self, query: &str) -> Reply {
        self.get(&format!("/v1/rounds/stream?{query}")).await
    }
}

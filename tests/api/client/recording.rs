//! Reading the record back: a game's state as of an earlier event and its positions, the
//! rulings of every game, and the feed of every stored event.

use super::{Api, Reply};
use std::fmt::Display;

impl Api<'_> {
    /// `GET /v1/games/{id}?at_seq={seq}`: a game's state as it was after event `seq`.
    pub async fn game_at(&self, game: impl Display, seq: u64) -> Reply {
        self.get(&format!("/v1/games/{game}?at_seq={seq}")).await
    }

    /// `GET /v1/games/{id}/positions?query`: every distinct position of a game with the
    /// plies where it occurred (`query` without the `?`, may be empty).
    pub async fn positions(&self, game: impl Display, query: &str) -> Reply {
        self.get(&format!("/v1/games/{game}/positions?{query}"))
            .await
    }

    /// `GET /v1/rulings?query`: the rulings of every game, filtered by `query` (without the
    /// `?`, may be empty).
    pub async fn rulings(&self, query: &str) -> Reply {
        self.get(&format!("/v1/rulings?{query}")).await
    }

    /// `GET /v1/feed?query`: every stored event of every game in commit order, a page at a
    /// time (`query` without the `?`: `after`, `limit`).
    pub async fn read_feed(&self, query: &str) -> Reply {
        self.get(&format!("/v1/feed?{query}")).await
    }
}

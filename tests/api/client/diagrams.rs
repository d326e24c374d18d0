//! Diagrams of a game as SVG: its board at an event or a ply, and the occurrences of a
//! repetition claim side by side.

use super::{Api, Reply};
use std::fmt::Display;

impl Api<'_> {
    /// `GET /v1/games/{id}/board.svg?query`: the board of a game as SVG (`query` without
    /// the `?`, may be empty: `at_seq`, `ply`, `flip`, `size`, `arrows`, ...).
    pub async fn board_svg(&self, game: impl Display, query: &str) -> Reply {
        self.get(&format!("/v1/games/{game}/board.svg?{query}"))
            .await
    }

    /// `GET /v1/games/{id}/claims/{seq}/occurrences.svg?query`: the occurrences of a
    /// repetition claim side by side, as SVG (`query` without the `?`, may be empty).
    pub async fn occurrences_svg(&self, game: impl Display, claim_seq: u64, query: &str) -> Reply {
        self.get(&format!(
            "/v1/games/{game}/claims/{claim_seq}/occurrences.svg?{query}"
        ))
        .await
    }
}

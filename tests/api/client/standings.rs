//! The standings of a tournament, from its log as it stands (a result changed on appeal as
//! changed).

use super::{Api, Reply};
use std::fmt::Display;

impl Api<'_> {
    /// `GET /v1/tournaments/{id}/standings?query`: the ranking with each tie-break's value
    /// (`query` without the `?`, may be empty: `tie_breaks=BH,BPG`, `round=1`).
    pub async fn tournament_standings(&self, tournament: impl Display, query: &str) -> Reply {
        self.get(&format!("/v1/tournaments/{tournament}/standings?{query}"))
            .await
    }
}

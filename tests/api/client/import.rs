//! Importing PGN files, and a round's games read back as one PGN file as relays read it.

use super::{Api, Reply, TextReply};
use actix_web::test::TestRequest;

impl Api<'_> {
    /// `POST /v1/games/import?query`: imports the games of a PGN file (`query` without the
    /// `?`, may be empty).
    pub async fn import_games(&self, query: &str, pgn: &str) -> Reply {
        self.send(
            TestRequest::post()
                .uri(&format!("/v1/games/import?{query}"))
                .insert_header(("content-type", "application/x-chess-pgn"))
                .set_payload(pgn.to_owned()),
        )
        .await
    }

    /// `GET /v1/rounds/pgn?query`: a round's games as one PGN file, as text.
    pub async fn round_pgn(&self, query: &str) -> TextReply {
        self.send_for_text(TestRequest::get().uri(&format!("/v1/rounds/pgn?{query}")))
            .await
    }
}

//! Following a round's board feed: the follow of a round and the arbiter's decisions on
//! what the feed showed that needs a person.

use super::{Api, Reply};
use actix_web::test::TestRequest;
use serde_json::{Value, json};
use std::fmt::Display;

impl Api<'_> {
    /// `PUT /v1/tournaments/{id}/rounds/{round}/follow`: follows the round's board feed
    /// (`{"kind": ..., "url": ..., "takebacks": ...}`).
    pub async fn set_follow(
        &self,
        tournament: impl Display,
        round: impl Display,
        setting: &Value,
    ) -> Reply {
        let path = format!("/v1/tournaments/{tournament}/rounds/{round}/follow");
        self.put(&path, setting).await
    }

    /// `GET /v1/tournaments/{id}/rounds/{round}/follow`: the round's follow and what waits
    /// for the arbiter.
    pub async fn get_follow(&self, tournament: impl Display, round: impl Display) -> Reply {
        self.get(&format!(
            "/v1/tournaments/{tournament}/rounds/{round}/follow"
        ))
        .await
    }

    /// `DELETE /v1/tournaments/{id}/rounds/{round}/follow`: stops following the round.
    pub async fn stop_follow(&self, tournament: impl Display, round: impl Display) -> Reply {
        let path = format!("/v1/tournaments/{tournament}/rounds/{round}/follow");
        self.send(TestRequest::delete().uri(&path)).await
    }

    /// `POST /v1/follow-attentions/{attention_id}/decision`: the arbiter's `choice` on what
    /// the feed showed.
    pub async fn decide_attention(&self, attention: impl Display, choice: &str) -> Reply {
        let path = format!("/v1/follow-attentions/{attention}/decision");
        self.post(&path, &json!({"choice": choice})).await
    }
}

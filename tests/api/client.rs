//! The API driven in-process as a client calls it: one method per route, named as the route
//! is in the OpenAPI document, so that a test says what it asks ("create a tournament", "load
//! round 1") instead of building the request by hand. Requests carry the arbiter's token
//! unless a test asks for another role ([`Api::with_token`]).
//!
//! Each answer is a [`Reply`]: the status, the JSON body and the media type, with the checks
//! every test repeats ([`Reply::expect`], [`Reply::problem`]).

// The routes of each area, beside the games' and tournaments' below.
mod diagrams;
mod fair_play;
mod follow;
mod import;
mod recording;
mod standings;
mod streams;
mod trf_trail;
mod trust;

use crate::support::{Answer, TestDb, assert_problem, bearer, decode, standard_game};
use actix_http::Request;
use actix_web::Error;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::test::{self, TestRequest};
use arbiter::state::AppState;
use futures_util::future::LocalBoxFuture;
use serde_json::{Value, json};
use std::fmt::Display;
use std::rc::Rc;
use uuid::Uuid;

/// One answer of the API.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The body as JSON (a JSON string when it is not JSON, `Null` when empty).
    pub body: Value,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
}

impl Reply {
    /// The body, after checking that the status is `status` (the body is in the message
    /// otherwise).
    #[track_caller]
    pub fn expect(self, status: u16) -> Value {
        assert_eq!(self.status, status, "status of {}", self.body);
        self.body
    }

    /// Checks that the answer is a problem (RFC 9457) with this status and code and a detail
    /// a person can act on, and returns it (its body names the field, the detail...).
    #[track_caller]
    pub fn problem(self, status: u16, code: &str) -> Reply {
        assert_problem(&self, status, code);
        self
    }
}

/// One answer of the API read as text (exports, pages).
#[derive(Debug)]
pub struct TextReply {
    /// The HTTP status.
    pub status: u16,
    /// The body as text.
    pub text: String,
}

impl Answer for Reply {
    fn parts(&self) -> (u16, &Value, Option<&str>) {
        (self.status, &self.body, self.content_type.as_deref())
    }
}

/// The app as the client calls it: one request in, its response out, the body boxed so that
/// one client type serves every app (and a test's helpers take `&Api` without generics).
type Call = Box<dyn Fn(Request) -> LocalBoxFuture<'static, Result<ServiceResponse, Error>>>;

/// The in-process API of one test's database, as one role.
pub struct Api<'a> {
    call: Rc<Call>,
    /// The database the app runs on: the client lives no longer than it.
    _db: &'a TestDb,
    token: String,
}

/// The production app of `db`'s default state, in-process, as the arbiter.
pub async fn api(db: &TestDb) -> Api<'_> {
    api_with_state(db, db.state()).await
}

/// The production app of `state` (a state built from `db` with other settings), in-process,
/// as the arbiter.
pub async fn api_with_state(db: &TestDb, state: AppState) -> Api<'_> {
    let service = Rc::new(test::init_service(arbiter::startup::app(state)).await);
    let call: Call = Box::new(move |request| {
        let response = service.call(request);
        Box::pin(async move { response.await.map(ServiceResponse::map_into_boxed_body) })
    });
    Api {
        call: Rc::new(call),
        _db: db,
        token: db.arbiter.clone(),
    }
}

impl<'a> Api<'a> {
    /// The same app, its requests sent with `token` (e.g. `db.reader`).
    pub fn with_token(&self, token: &str) -> Api<'a> {
        Api {
            call: Rc::clone(&self.call),
            _db: self._db,
            token: token.to_owned(),
        }
    }

    /// Sends a request exactly as built and returns the response itself, for what a
    /// [`Reply`] does not keep (headers, a stream).
    pub async fn call(&self, request: TestRequest) -> ServiceResponse {
        (self.call)(request.to_request())
            .await
            .expect("the app answers every request")
    }

    /// Sends a request with this client's token and decodes the answer.
    pub async fn send(&self, request: TestRequest) -> Reply {
        self.send_as_built(request.insert_header(bearer(&self.token)))
            .await
    }

    /// Sends a request exactly as built (its own token, or none) and decodes the answer.
    pub async fn send_as_built(&self, request: TestRequest) -> Reply {
        let response = self.call(request).await;
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = decode(&test::read_body(response).await);
        Reply {
            status,
            body,
            content_type,
        }
    }

    /// Sends a request with this client's token and reads the answer as text.
    pub async fn send_for_text(&self, request: TestRequest) -> TextReply {
        self.send_for_text_as_built(request.insert_header(bearer(&self.token)))
            .await
    }

    /// Sends a request exactly as built (its own token, or none) and reads the answer as text.
    pub async fn send_for_text_as_built(&self, request: TestRequest) -> TextReply {
        let response = self.call(request).await;
        let status = response.status().as_u16();
        let bytes = test::read_body(response).await;
        TextReply {
            status,
            text: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    /// `GET path`.
    pub async fn get(&self, path: &str) -> Reply {
        self.send(TestRequest::get().uri(path)).await
    }

    /// `POST path` with a JSON body.
    pub async fn post(&self, path: &str, body: &Value) -> Reply {
        self.send(TestRequest::post().uri(path).set_json(body))
            .await
    }

    /// `PUT path` with a JSON body.
    pub async fn put(&self, path: &str, body: &Value) -> Reply {
        self.send(TestRequest::put().uri(path).set_json(body)).await
    }

    // Games.

    /// `POST /v1/games`: creates a game with these settings.
    pub async fn create_game(&self, settings: &Value) -> Reply {
        self.post("/v1/games", settings).await
    }

    /// `GET /v1/games/{id}`: a game's state.
    pub async fn game(&self, game: impl Display) -> Reply {
        self.get(&format!("/v1/games/{game}")).await
    }

    /// `POST /v1/games` with [`standard_game`]'s settings; returns the new game's id.
    pub async fn create_standard_game(&self) -> Uuid {
        let body = self.create_game(&standard_game()).await.expect(201);
        body["game"]["game_id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .expect("game id")
    }

    /// `GET /v1/games/{id}/events`: a game's log.
    pub async fn events(&self, game: impl Display) -> Reply {
        self.get(&format!("/v1/games/{game}/events")).await
    }

    /// `GET /v1/games?query`: the list of games (`query` without the `?`, may be empty).
    pub async fn games(&self, query: &str) -> Reply {
        self.get(&format!("/v1/games?{query}")).await
    }

    /// `POST /v1/games/{id}/events`: appends `events` after `expected_seq`.
    pub async fn append_events(
        &self,
        game: impl Display,
        expected_seq: u64,
        events: Value,
    ) -> Reply {
        let body = json!({"expected_seq": expected_seq, "events": events});
        self.post(&format!("/v1/games/{game}/events"), &body).await
    }

    // Tournaments.

    /// `POST /v1/tournaments`: creates a tournament.
    pub async fn create_tournament(&self, settings: &Value) -> Reply {
        self.post("/v1/tournaments", settings).await
    }

    /// `GET /v1/tournaments`: every tournament.
    pub async fn tournaments(&self) -> Reply {
        self.get("/v1/tournaments").await
    }

    /// `GET /v1/tournaments/{id}`: one tournament's settings.
    pub async fn tournament(&self, tournament: impl Display) -> Reply {
        self.get(&format!("/v1/tournaments/{tournament}")).await
    }

    /// `PUT /v1/tournaments/{id}`: changes a tournament's settings.
    pub async fn update_tournament(&self, tournament: impl Display, settings: &Value) -> Reply {
        self.put(&format!("/v1/tournaments/{tournament}"), settings)
            .await
    }

    /// `POST /v1/tournaments/{id}/rounds/{round}/pairings`: loads a round's pairings (a list,
    /// `{"csv": ...}` or `{"trf": ...}`).
    pub async fn load_round(
        &self,
        tournament: impl Display,
        round: impl Display,
        pairings: &Value,
    ) -> Reply {
        let path = format!("/v1/tournaments/{tournament}/rounds/{round}/pairings");
        self.post(&path, pairings).await
    }

    /// `GET /v1/tournaments/{id}/trf?query`: the tournament report (TRF), as text.
    pub async fn trf(&self, tournament: impl Display, query: &str) -> TextReply {
        let path = format!("/v1/tournaments/{tournament}/trf?{query}");
        self.send_for_text(TestRequest::get().uri(&path)).await
    }

    /// `GET /v1/games/{id}/pgn`: a game's PGN, as text.
    pub async fn pgn(&self, game: impl Display) -> TextReply {
        let path = format!("/v1/games/{game}/pgn");
        self.send_for_text(TestRequest::get().uri(&path)).await
    }
}

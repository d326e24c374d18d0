//! Test support: a fresh PostgreSQL database per test, and the production app driven
//! in-process.

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::test;
use arbiter::access::Role;
use arbiter::http::AppState;
use arbiter::store::Store;
use serde_json::{Value, json};
use sqlx::postgres::PgPoolOptions;
use uuid::Uuid;

/// The server the test databases are created on. Override with `ARBITER_TEST_DATABASE_URL`.
pub fn admin_url() -> String {
    std::env::var("ARBITER_TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

/// A fresh, migrated database for one test. Dropped by [`TestDb::finish`]; kept for
/// inspection when a test fails before reaching it.
pub struct TestDb {
    pub name: String,
    /// The store as the database owner (for direct SQL, as an attacker with access would).
    pub store: Store,
    /// The store as the service runs it (the `arbiter_service` role).
    pub service: Store,
    /// Bearer tokens, one per role.
    pub admin: String,
    pub arbiter: String,
    pub appeals: String,
    pub reader: String,
}

impl TestDb {
    pub async fn new() -> TestDb {
        let admin = admin_url();
        let name = format!("arbiter_test_{}", Uuid::new_v4().simple());
        let pool = PgPoolOptions::new()
            .max_connections(1)
            .connect(&admin)
            .await
            .expect("the test PostgreSQL server is reachable (see README: Tests)");
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&pool)
            .await
            .expect("create test database");
        pool.close().await;
        let url = match admin.rfind('/') {
            Some(slash) => format!("{}/{name}", &admin[..slash]),
            None => panic!("ARBITER_TEST_DATABASE_URL needs a database name"),
        };
        let store = Store::connect(&url, 20)
            .await
            .expect("connect test database");
        store.migrate().await.expect("migrations apply");
        let service = Store::connect_as_service(&url, 40, "arbiter_service")
            .await
            .expect("connect as the service role");
        let mut tokens = Vec::new();
        for role in [Role::Admin, Role::Arbiter, Role::Appeals, Role::Reader] {
            let (_, token) = store
                .create_token(&format!("test {}", role.as_str()), role, None, "test")
                .await
                .expect("create token");
            tokens.push(token);
        }
        let [admin, arbiter, appeals, reader] =
            <[String; 4]>::try_from(tokens).expect("four tokens");
        TestDb {
            name,
            store,
            service,
            admin,
            arbiter,
            appeals,
            reader,
        }
    }

    pub fn state(&self) -> AppState {
        AppState::new(self.service.clone())
    }

    /// A GET request with the arbiter's token.
    pub fn get(&self) -> test::TestRequest {
        test::TestRequest::get().insert_header(bearer(&self.arbiter))
    }

    /// A POST request with the arbiter's token.
    pub fn post(&self) -> test::TestRequest {
        test::TestRequest::post().insert_header(bearer(&self.arbiter))
    }

    /// The number of events stored, all games together.
    pub async fn event_count(&self) -> i64 {
        sqlx::query_scalar("SELECT count(*) FROM events")
            .fetch_one(self.store.pool())
            .await
            .expect("count events")
    }

    pub async fn finish(self) {
        self.service.pool().close().await;
        self.store.pool().close().await;
        let pool = PgPoolOptions::new()
            .max_connections(1)
            .connect(&admin_url())
            .await
            .expect("admin connection");
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.name
        )))
        .execute(&pool)
        .await
        .expect("drop test database");
    }
}

/// Settings of an ordinary standard game.
pub fn standard_game() -> Value {
    json!({
        "white": {"name": "Carlsen, Magnus", "fide_id": 1503014},
        "black": {"name": "Nepomniachtchi, Ian"},
        "event": "Test Open 2026",
        "round": "1",
        "board": 1,
        "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000}
    })
}

/// Sends a request and returns the status and the JSON body (Null when empty).
pub async fn send<S, B>(app: &S, request: test::TestRequest) -> (u16, Value, Option<String>)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let response = test::call_service(app, request.to_request()).await;
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let bytes = test::read_body(response).await;
    let body = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()))
    };
    (status, body, content_type)
}

/// The Authorization header for a token.
pub fn bearer(token: &str) -> (&'static str, String) {
    ("Authorization", format!("Bearer {token}"))
}

/// Creates a game through the API and returns its id.
pub async fn create_game<S, B>(app: &S, db: &TestDb) -> Uuid
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let (status, body, _) = send(app, db.post().uri("/v1/games").set_json(standard_game())).await;
    assert_eq!(status, 201, "game creation answered {body}");
    body["game"]["game_id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("game id")
}

/// Appends events through the API.
pub async fn append<S, B>(
    app: &S,
    db: &TestDb,
    game: Uuid,
    expected_seq: u64,
    events: Value,
) -> (u16, Value)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let (status, body, _) = send(
        app,
        db.post()
            .uri(&format!("/v1/games/{game}/events"))
            .set_json(json!({"expected_seq": expected_seq, "events": events})),
    )
    .await;
    (status, body)
}

/// Asserts a problem response: status, media type, a detail, and the code.
pub fn assert_problem(reply: &(u16, Value, Option<String>), status: u16, code: &str) {
    let (got, body, content_type) = reply;
    assert_eq!(*got, status, "status of {body}");
    assert_eq!(
        content_type.as_deref(),
        Some("application/problem+json"),
        "media type of {body}"
    );
    assert_eq!(body["code"], code, "code of {body}");
    assert_eq!(body["status"], status, "status field of {body}");
    assert!(
        body["detail"].as_str().is_some_and(|d| d.len() > 20),
        "a detail a person can act on: {body}"
    );
}

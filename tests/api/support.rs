//! Test support: a fresh PostgreSQL database per test, and the production app driven
//! in-process.
//!
//! The databases are created on `ARBITER_TEST_DATABASE_URL` when it is set; else on
//! `postgres://postgres@127.0.0.1:5432/postgres` when that server answers and lets the
//! `postgres` role in; else on a private cluster started, once per test run, from the
//! installed PostgreSQL binaries exactly as `arbiter serve` starts one (`src/ops/cluster.rs`), in
//! a temporary directory. A watcher process stops that cluster and removes its directory when
//! the test process exits (statics are never dropped).

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::test;
use arbiter::access::Role;
use arbiter::config::ServeConfig;
use arbiter::startup::Application;
use arbiter::state::AppState;
use arbiter::store::Store;
use serde_json::{Value, json};
use sqlx::postgres::PgPoolOptions;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;
use uuid::Uuid;

/// The server tried when `ARBITER_TEST_DATABASE_URL` is not set.
pub const DEFAULT_SERVER: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// Settings of the private test cluster: room for the pools of tests running in parallel,
/// and no waiting for the disk (its data is thrown away at the end of the run).
pub const TEST_CLUSTER_SETTINGS: &[&str] = &[
    "max_connections=400",
    "fsync=off",
    "synchronous_commit=off",
    "full_page_writes=off",
];

/// The server the test databases are created on (found once per test run).
pub fn admin_url() -> String {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER
        .get_or_init(|| {
            TestServer::find(
                std::env::var("ARBITER_TEST_DATABASE_URL").ok(),
                DEFAULT_SERVER,
                std::process::id(),
            )
        })
        .admin_url
        .clone()
}

/// Where the test databases are created.
pub struct TestServer {
    /// A URL of a maintenance database, for a role that may create databases.
    pub admin_url: String,
    /// The private cluster, when one had to be started, and its directory.
    pub cluster: Option<(arbiter::ops::cluster::Cluster, PathBuf)>,
}

impl TestServer {
    /// `configured` if set; else `default` if it answers; else a private cluster in a fresh
    /// temporary directory, stopped and removed when the process `owner` exits.
    pub fn find(configured: Option<String>, default: &str, owner: u32) -> TestServer {
        if let Some(url) = configured {
            return TestServer {
                admin_url: url,
                cluster: None,
            };
        }
        if answers(default) {
            return TestServer {
                admin_url: default.to_string(),
                cluster: None,
            };
        }
        let dir = std::env::temp_dir().join(format!("arbiter-test-cluster-{}", Uuid::new_v4()));
        let cluster =
            arbiter::ops::cluster::Cluster::start_with_settings(&dir, TEST_CLUSTER_SETTINGS)
                .unwrap_or_else(|error| {
                    panic!(
                        "no PostgreSQL server answered at {default} and ARBITER_TEST_DATABASE_URL \
                         is not set, so the tests start a private cluster from the installed \
                         PostgreSQL binaries; that failed: {error:#}"
                    )
                });
        cluster
            .stop_when_process_exits(owner, Some(&dir))
            .expect("watcher of the private test cluster");
        eprintln!(
            "tests: no PostgreSQL server answered at {default}; using a private cluster on port \
             {} in {} (stopped when the tests end)",
            cluster.port(),
            dir.display()
        );
        TestServer {
            admin_url: cluster.admin_url(),
            cluster: Some((cluster, dir)),
        }
    }
}

/// Whether a PostgreSQL server at `url` answers and lets its role in (within a few seconds).
pub fn answers(url: &str) -> bool {
    let url = url.to_string();
    // A thread of its own: this may be called from inside a test's runtime.
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime for probing the test server");
        runtime.block_on(async {
            match PgPoolOptions::new()
                .max_connections(1)
                .acquire_timeout(Duration::from_secs(3))
                .connect(&url)
                .await
            {
                Ok(pool) => {
                    pool.close().await;
                    true
                }
                Err(_) => false,
            }
        })
    })
    .join()
    .unwrap_or(false)
}

/// A fresh, migrated database for one test. It drops itself when the test ends, passed or
/// failed (a panicking test unwinds through [`Drop`]), so a run leaves no database behind;
/// `ARBITER_KEEP_FAILED_TEST_DB=1` keeps the database of a failed test for inspection (its
/// name is printed). [`TestDb::finish`] closes the pools first, for a quiet end.
pub struct TestDb {
    pub name: String,
    /// The database's URL (as its owner).
    pub url: String,
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
        TestDb::restored("").await
    }

    /// A fresh database holding what `dump` (plain SQL as `pg_dump --inserts --no-owner`
    /// writes it, e.g. a database written by an earlier release) restores, then migrated by
    /// the current release like any other.
    pub async fn from_dump(dump: &str) -> TestDb {
        assert!(!dump.is_empty(), "a dump to restore");
        TestDb::restored(dump).await
    }

    async fn restored(dump: &str) -> TestDb {
        // Before this test handles any request: see `capture_log`.
        install_log_capture();
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
        if !dump.is_empty() {
            restore(&url, dump).await;
        }
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
            url,
            store,
            service,
            admin,
            arbiter,
            appeals,
            reader,
        }
    }

    /// The shared state as `arbiter serve` builds it with the default configuration, over
    /// the service's store.
    pub fn state(&self) -> AppState {
        self.state_with(|_| {})
    }

    /// The shared state as `arbiter serve` builds it with `configure` applied to the
    /// default configuration ([`AppState::from_config`]).
    pub fn state_with(&self, configure: impl FnOnce(&mut ServeConfig)) -> AppState {
        let mut config = ServeConfig::defaults();
        configure(&mut config);
        AppState::from_config(self.service.clone(), &config)
    }

    /// The service as `arbiter serve` builds it ([`Application::build`]: migrations, the
    /// service role, the state, the listeners), on this test's database and a free port of
    /// 127.0.0.1, with `configure` applied to the default configuration.
    pub async fn spawn_app(&self, configure: impl FnOnce(&mut ServeConfig)) -> TestApp {
        let mut config = ServeConfig::defaults();
        config.bind = "127.0.0.1".into();
        config.port = 0;
        config.db_connections = 8;
        config.workers = std::num::NonZeroUsize::new(2);
        config.handle_signals = false;
        configure(&mut config);
        let application = Application::build(&config, &self.url)
            .await
            .expect("the application builds on the test database");
        let base = format!("http://127.0.0.1:{}", application.port());
        let metrics_port = application.metrics_port();
        let state = application.state().clone();
        let handle = application.handle();
        actix_web::rt::spawn(application.run_until_stopped());
        TestApp {
            base,
            metrics_port,
            state,
            handle,
        }
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
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if std::thread::panicking()
            && std::env::var("ARBITER_KEEP_FAILED_TEST_DB").as_deref() == Ok("1")
        {
            eprintln!("kept the failed test's database {}", self.name);
            return;
        }
        drop_database(&self.name);
    }
}

/// Drops the test database `name` (and ends its connections), on a thread and runtime of its
/// own: [`Drop`] cannot wait for the test's runtime, which may be unwinding.
fn drop_database(name: &str) {
    let statement = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
    let dropped = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        runtime.block_on(async {
            let pool = PgPoolOptions::new()
                .max_connections(1)
                .acquire_timeout(Duration::from_secs(10))
                .connect(&admin_url())
                .await
                .map_err(|e| e.to_string())?;
            let dropped = sqlx::query(sqlx::AssertSqlSafe(statement))
                .execute(&pool)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string());
            pool.close().await;
            dropped
        })
    })
    .join();
    match dropped {
        Ok(Ok(())) => {}
        Ok(Err(error)) => eprintln!("the test database {name} could not be dropped: {error}"),
        Err(_) => eprintln!("dropping the test database {name} panicked"),
    }
}

/// Executes `dump` on the database at `url`, on a connection of its own (a dump empties the
/// session's `search_path`). The role the grants name is server-wide: it is created first, as
/// `0002_access.sql` does, in case this server has not met it yet.
async fn restore(url: &str, dump: &str) {
    use sqlx::Connection;
    let mut connection = sqlx::PgConnection::connect(url)
        .await
        .expect("connect to restore");
    sqlx::raw_sql(
        "DO $$ BEGIN CREATE ROLE arbiter_service NOLOGIN; \
         EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$",
    )
    .execute(&mut connection)
    .await
    .expect("the service role exists");
    sqlx::raw_sql(sqlx::AssertSqlSafe(dump.to_string()))
        .execute(&mut connection)
        .await
        .expect("the dump restores");
    connection
        .close()
        .await
        .expect("close the restoring connection");
}

/// A service built by [`TestDb::spawn_app`], serving on a real port.
pub struct TestApp {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The port of the token-free metrics listener, when configured.
    pub metrics_port: Option<u16>,
    /// The state it serves with.
    pub state: AppState,
    handle: actix_web::dev::ServerHandle,
}

impl TestApp {
    /// A URL of the service.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Stops it, not gracefully (an open event stream would hold a graceful stop).
    pub async fn stop(self) {
        self.handle.stop(false).await;
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
    let body = decode(&test::read_body(response).await);
    (status, body, content_type)
}

/// An answer's body as JSON: `Null` when empty, a JSON string when it is not JSON.
pub fn decode(bytes: &[u8]) -> Value {
    if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into()))
    }
}

/// Sends a request and returns the status, the response headers and the body as text.
pub async fn send_raw<S, B>(
    app: &S,
    request: test::TestRequest,
) -> (u16, actix_web::http::header::HeaderMap, String)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let response = test::call_service(app, request.to_request()).await;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = test::read_body(response).await;
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

/// The Authorization header for a token.
pub fn bearer(token: &str) -> (&'static str, String) {
    ("Authorization", format!("Bearer {token}"))
}

/// An answer as the checks read it: status, JSON body, media type (the tuple [`send`]
/// returns, or the typed client's [`crate::client::Reply`]).
pub trait Answer {
    /// The status, the body and the `Content-Type`.
    fn parts(&self) -> (u16, &Value, Option<&str>);
}

impl Answer for (u16, Value, Option<String>) {
    fn parts(&self) -> (u16, &Value, Option<&str>) {
        (self.0, &self.1, self.2.as_deref())
    }
}

/// Asserts a problem response: status, media type, a detail, and the code.
#[track_caller]
pub fn assert_problem(reply: &impl Answer, status: u16, code: &str) {
    let (got, body, content_type) = reply.parts();
    assert_eq!(got, status, "status of {body}");
    assert_eq!(
        content_type,
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

thread_local! {
    /// Where the log of this thread's requests goes while a test captures it.
    static CAPTURED: std::cell::RefCell<Option<CapturedLog>> = const { std::cell::RefCell::new(None) };
}

/// Log lines (JSON, one a line) captured for one test's thread.
#[derive(Clone, Default)]
pub struct CapturedLog(pub std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl CapturedLog {
    /// What was captured, as text.
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap_or_else(|p| p.into_inner()).clone())
            .expect("UTF-8 log")
    }
}

/// Writes a log line into the capture of the thread that logs it, if it has one.
struct ThreadCapture;

impl std::io::Write for ThreadCapture {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        CAPTURED.with(|captured| {
            if let Some(log) = captured.borrow().as_ref() {
                log.0
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .extend_from_slice(bytes);
            }
        });
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Installs, once for the test process and before any test handles a request, the one
/// tracing subscriber of the tests: JSON lines at INFO and above, written to the capture of
/// the logging thread when it has one, decided per event. A subscriber set per test
/// (`set_default`) was not enough: tracing caches each call site's interest when the site
/// is first hit, and a site first hit on another test's thread while the capture was being
/// set up could stay disabled for it (the request's span missing from its lines, once in a
/// fresh-clone run). Deciding per event leaves nothing to cache.
pub fn install_log_capture() {
    use tracing_subscriber::Layer;
    use tracing_subscriber::layer::SubscriberExt;
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let capturing = tracing_subscriber::filter::dynamic_filter_fn(|metadata, _| {
            *metadata.level() <= tracing::Level::INFO
                && CAPTURED.with(|captured| captured.borrow().is_some())
        });
        let layer = tracing_subscriber::fmt::layer()
            .json()
            .with_writer(|| ThreadCapture)
            .with_filter(capturing);
        // Another harness may have set one already; then capturing finds nothing, and the
        // test that relies on it says so.
        let _ = tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer));
    });
}

/// Captures the log of this thread until the guard is dropped.
pub fn capture_log() -> (CapturedLog, CaptureGuard) {
    install_log_capture();
    let log = CapturedLog::default();
    CAPTURED.with(|captured| *captured.borrow_mut() = Some(log.clone()));
    (log, CaptureGuard)
}

/// Ends the capture of [`capture_log`].
pub struct CaptureGuard;

impl Drop for CaptureGuard {
    fn drop(&mut self) {
        CAPTURED.with(|captured| *captured.borrow_mut() = None);
    }
}

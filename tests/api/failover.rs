//! Following the primary of a multi-host database URL: a private primary and a streaming
//! standby on other ports of this machine; the service connects with
//! `postgres://…@standby,primary/arbiter?target_session_attrs=read-write` (the standby listed
//! first, so the primary is found by asking, not by order). The primary is stopped, the service
//! answers 503 with `Retry-After`, the standby is promoted, and the service goes on appending to
//! the same game without a restart.

use crate::support::{TEST_CLUSTER_SETTINGS, bearer, send_raw, standard_game};
use actix_web::test::{self, TestRequest};
use arbiter::access::Role;
use arbiter::ops::cluster::Cluster;
use arbiter::state::AppState;
use arbiter::store::{Lsn, MultiHost, Store};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use uuid::Uuid;

/// The two clusters, stopped and removed when the test ends (a watcher does it if the process
/// is killed).
struct Pair {
    primary: Cluster,
    standby: Cluster,
    dir: PathBuf,
}

impl Drop for Pair {
    fn drop(&mut self) {
        let _ = self.standby.stop();
        let _ = self.primary.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn adjust() -> Value {
    json!([{"type": "clock_adjust", "side": "white", "delta_ms": 1000, "reason": "clock set wrongly (6.10.2)"}])
}

async fn position(store: &Store, sql: &'static str) -> Lsn {
    let text: String = sqlx::query_scalar(sql)
        .fetch_one(store.pool())
        .await
        .unwrap();
    Lsn::parse(&text).unwrap()
}

/// A private primary in `dir/primary` with `settings`, the service's schema migrated, its
/// owner's store and an arbiter token (stopped with the process if the test is killed).
async fn migrated_primary(dir: &std::path::Path, settings: &[&str]) -> (Cluster, Store, String) {
    let primary =
        Cluster::start_with_settings(&dir.join("primary"), settings).expect("a private primary");
    primary
        .stop_when_process_exits(std::process::id(), Some(dir))
        .unwrap();
    Store::ensure_arbiter_database(&primary.admin_url())
        .await
        .unwrap();
    let owner = Store::connect(&primary.database_url(), 2).await.unwrap();
    owner.migrate().await.unwrap();
    let (_, token) = owner
        .create_token("Arbiter", Role::Arbiter, None, "test")
        .await
        .unwrap();
    (primary, owner, token)
}

#[actix_web::test]
async fn the_service_follows_a_promoted_standby_answering_503_meanwhile() {
    let dir = std::env::temp_dir().join(format!("arbiter-failover-test-{}", Uuid::new_v4()));
    let (primary, owner, token) = migrated_primary(&dir, TEST_CLUSTER_SETTINGS).await;
    let standby = primary
        .start_standby(&dir.join("standby"), TEST_CLUSTER_SETTINGS)
        .expect("a standby made with pg_basebackup");
    standby
        .stop_when_process_exits(std::process::id(), None)
        .unwrap();
    let pair = Pair {
        primary,
        standby,
        dir,
    };
    let url = format!(
        "postgres://arbiter@127.0.0.1:{},127.0.0.1:{}/arbiter?target_session_attrs=read-write",
        pair.standby.port(),
        pair.primary.port()
    );
    assert!(MultiHost::parse(&url).unwrap().is_some());
    let store = Store::connect_as_service(&url, 4, "arbiter_service")
        .await
        .expect("the primary is found among the hosts");
    let app = test::init_service(arbiter::startup::app(AppState::new(store.clone()))).await;
    let post = |uri: &str| TestRequest::post().uri(uri).insert_header(bearer(&token));

    let (status, _, body) = send_raw(&app, post("/v1/games").set_json(standard_game())).await;
    assert_eq!(status, 201, "{body}");
    let game: Uuid = serde_json::from_str::<Value>(&body).unwrap()["game"]["game_id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let events = format!("/v1/games/{game}/events");
    for seq in 1..=5u64 {
        let (status, _, body) = send_raw(
            &app,
            post(&events).set_json(json!({"expected_seq": seq, "events": adjust()})),
        )
        .await;
        assert_eq!(status, 201, "{body}");
    }

    // The test clusters replicate asynchronously: wait until the standby has everything.
    let standby_admin = Store::connect(&pair.standby.admin_url(), 1).await.unwrap();
    let written = position(&owner, "SELECT pg_current_wal_insert_lsn()::text").await;
    let deadline = Instant::now() + Duration::from_secs(30);
    while position(&standby_admin, "SELECT pg_last_wal_replay_lsn()::text").await < written {
        assert!(Instant::now() < deadline, "the standby never caught up");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    owner.pool().close().await;
    pair.primary.stop().expect("the primary stops");

    // No primary: 503 with Retry-After, nothing stored.
    let request = json!({"expected_seq": 6, "events": [{"type": "clock_adjust", "event_id": Uuid::new_v4(), "side": "black", "delta_ms": 500, "reason": "retried across the failover"}]});
    let (status, headers, body) = send_raw(&app, post(&events).set_json(request.clone())).await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("database_unavailable"), "{body}");
    let retry_after: u32 = headers
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After in seconds");
    assert!(retry_after >= 1, "{retry_after}");

    // The standby is promoted; the same request (same event_id) is retried until stored.
    let promoted: bool = sqlx::query_scalar("SELECT pg_promote(true, 30)")
        .fetch_one(standby_admin.pool())
        .await
        .unwrap();
    assert!(promoted);
    let failed_over = Instant::now();
    let mut unavailable = 0;
    loop {
        let (status, _, body) = send_raw(&app, post(&events).set_json(request.clone())).await;
        match status {
            201 => break,
            503 => unavailable += 1,
            other => panic!("{other}: {body}"),
        }
        assert!(
            failed_over.elapsed() < Duration::from_secs(30),
            "the service did not follow the promoted standby ({unavailable} answers 503)"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The retry is answered from the log; recording goes on.
    let (status, _, body) = send_raw(&app, post(&events).set_json(request)).await;
    assert_eq!(status, 200, "a retry of a stored append: {body}");
    for seq in 7..=9u64 {
        let (status, _, body) = send_raw(
            &app,
            post(&events).set_json(json!({"expected_seq": seq, "events": adjust()})),
        )
        .await;
        assert_eq!(status, 201, "{body}");
    }
    let new_primary = Store::connect(&pair.standby.database_url(), 1)
        .await
        .unwrap();
    let seqs: Vec<i64> =
        sqlx::query_scalar("SELECT seq FROM events WHERE game_id = $1 ORDER BY seq")
            .bind(game)
            .fetch_all(new_primary.pool())
            .await
            .unwrap();
    assert_eq!(seqs, (1..=10).collect::<Vec<i64>>());
    let report = new_primary.verify_chain(game).await.unwrap();
    assert!(report.intact, "{report:?}");
    drop(pair);
}

/// The test clusters' settings but `synchronous_commit` (off there, for speed): on, as in
/// production, so that a commit waits for the synchronous standby.
const SYNCHRONOUS_COMMIT: &[&str] = &["max_connections=100", "fsync=off", "full_page_writes=off"];

/// The bug the failover test found: a primary killed while it waited for the synchronous
/// standby comes back with the append from its own WAL, and a retry must not be acknowledged
/// from there before the standby has it. Here no synchronous standby answers (the primary
/// names one that does not exist): a new append waits, and so must a retry answered from the
/// log, of an append or of a game's creation; once the standby requirement is lifted they are
/// answered. A transaction id alone did not make the retry wait (it wrote no WAL).
#[actix_web::test]
async fn a_retry_answered_from_the_log_waits_for_the_synchronous_standby_like_a_new_append() {
    let dir = std::env::temp_dir().join(format!("arbiter-sync-retry-test-{}", Uuid::new_v4()));
    let (primary, owner, token) = migrated_primary(&dir, SYNCHRONOUS_COMMIT).await;
    let store = Store::connect_as_service(&primary.database_url(), 4, "arbiter_service")
        .await
        .unwrap();
    let app = test::init_service(arbiter::startup::app(AppState::new(store))).await;
    let post = |uri: &str| TestRequest::post().uri(uri).insert_header(bearer(&token));

    let mut creation = standard_game();
    creation["game_id"] = json!(Uuid::new_v4());
    let (status, _, body) = send_raw(&app, post("/v1/games").set_json(&creation)).await;
    assert_eq!(status, 201, "{body}");
    let game = creation["game_id"].as_str().unwrap().to_string();
    let events = format!("/v1/games/{game}/events");
    let append = json!({"expected_seq": 1, "events": [{"type": "clock_adjust", "event_id": Uuid::new_v4(),
        "side": "white", "delta_ms": 1000, "reason": "clock set wrongly (6.10.2)"}]});
    let (status, _, body) = send_raw(&app, post(&events).set_json(&append)).await;
    assert_eq!(status, 201, "{body}");

    // From now on every commit that wrote WAL waits for a standby that never answers.
    let owner_url = primary.database_url();
    let set_standby = |names: &'static str| {
        let owner = owner.clone();
        let url = owner_url.clone();
        async move {
            let statement = if names.is_empty() {
                "ALTER SYSTEM RESET synchronous_standby_names"
            } else {
                "ALTER SYSTEM SET synchronous_standby_names = 'nobody'"
            };
            sqlx::query(statement).execute(owner.pool()).await.unwrap();
            sqlx::query("SELECT pg_reload_conf()")
                .execute(owner.pool())
                .await
                .unwrap();
            // The reload reaches the server's processes shortly after: wait until a new
            // connection sees it.
            let deadline = Instant::now() + Duration::from_secs(10);
            loop {
                let fresh = Store::connect(&url, 1).await.unwrap();
                let shown: String = sqlx::query_scalar("SHOW synchronous_standby_names")
                    .fetch_one(fresh.pool())
                    .await
                    .unwrap();
                fresh.pool().close().await;
                if shown == names {
                    break;
                }
                assert!(Instant::now() < deadline, "the setting never took effect");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    };
    set_standby("nobody").await;
    let waited = tokio::time::timeout(
        Duration::from_millis(1500),
        send_raw(&app, post(&events).set_json(&append)),
    )
    .await;
    assert!(
        waited.is_err(),
        "a retried append was acknowledged with no synchronous standby: {:?}",
        waited.map(|(status, _, body)| (status, body))
    );
    let waited = tokio::time::timeout(
        Duration::from_millis(1500),
        send_raw(&app, post("/v1/games").set_json(&creation)),
    )
    .await;
    assert!(
        waited.is_err(),
        "a retried creation was acknowledged with no synchronous standby: {:?}",
        waited.map(|(status, _, body)| (status, body))
    );

    // The requirement lifted, the same retries are answered from the log.
    set_standby("").await;
    let (status, _, body) = send_raw(&app, post(&events).set_json(&append)).await;
    assert_eq!(status, 200, "{body}");
    let (status, _, body) = send_raw(&app, post("/v1/games").set_json(&creation)).await;
    assert_eq!(status, 200, "{body}");
    let seqs: Vec<i64> =
        sqlx::query_scalar("SELECT seq FROM events WHERE game_id = $1::uuid ORDER BY seq")
            .bind(&game)
            .fetch_all(owner.pool())
            .await
            .unwrap();
    assert_eq!(seqs, vec![1, 2], "nothing stored twice");
    owner.pool().close().await;
    primary.stop().expect("the primary stops");
    let _ = std::fs::remove_dir_all(&dir);
}

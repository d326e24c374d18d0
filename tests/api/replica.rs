//! Reading from a real hot standby: a private primary and a standby made from it with
//! `pg_basebackup` (streaming replication) on other ports of this machine. A client reads
//! what it wrote through the standby (read-your-writes with `X-Arbiter-LSN`), a standby that
//! lags past the limit hands the read to the primary, and the global feed read through the
//! standby never skips an event, not even one whose transaction commits late.

use crate::support::{TEST_CLUSTER_SETTINGS, bearer, send_raw, standard_game};
use actix_web::test::{self, TestRequest};
use arbiter::access::Role;
use arbiter::game::event::{Event, RecordedEvent, Side};
use arbiter::ops::cluster::Cluster;
use arbiter::state::AppState;
use arbiter::store::{FeedCursor, Lsn, NewEvent, Store};
use futures::future::join_all;
use serde_json::{Value, json};
use std::cell::Cell;
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;
use uuid::Uuid;

/// The primary and its standby, stopped and removed when the test ends (also when it fails;
/// a watcher does it if the process is killed).
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

fn header(response: &actix_web::http::header::HeaderMap, name: &str) -> Option<String> {
    response
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

fn adjust() -> Value {
    json!([{"type": "clock_adjust", "side": "white", "delta_ms": 1000, "reason": "clock set wrongly (6.10.2)"}])
}

#[actix_web::test]
async fn reads_through_a_streaming_standby_see_the_clients_writes_and_the_feed_skips_nothing() {
    let dir = std::env::temp_dir().join(format!("arbiter-replica-test-{}", Uuid::new_v4()));
    let primary = Cluster::start_with_settings(&dir.join("primary"), TEST_CLUSTER_SETTINGS)
        .expect("a private primary");
    primary
        .stop_when_process_exits(std::process::id(), Some(&dir))
        .unwrap();
    Store::ensure_arbiter_database(&primary.admin_url())
        .await
        .unwrap();
    let owner = Store::connect(&primary.database_url(), 4).await.unwrap();
    owner.migrate().await.unwrap();
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
    let standby_admin = Store::connect(&pair.standby.admin_url(), 1).await.unwrap();
    let in_recovery: bool = sqlx::query_scalar("SELECT pg_is_in_recovery()")
        .fetch_one(standby_admin.pool())
        .await
        .unwrap();
    assert!(in_recovery, "the standby is a hot standby");

    let primary_only =
        Store::connect_as_service(&pair.primary.database_url(), 20, "arbiter_service")
            .await
            .unwrap();
    let replica = Store::connect_as_service(&pair.standby.database_url(), 20, "arbiter_service")
        .await
        .expect("the service role works on the standby");
    let store = primary_only
        .clone()
        .with_read_replica(replica.pool().clone(), Duration::from_secs(10));
    let (_, arbiter) = owner
        .create_token("Arbiter", Role::Arbiter, None, "test")
        .await
        .unwrap();
    let app = test::init_service(arbiter::startup::app(AppState::new(store.clone()))).await;
    let get = |uri: &str| TestRequest::get().uri(uri).insert_header(bearer(&arbiter));
    let post = |uri: &str| TestRequest::post().uri(uri).insert_header(bearer(&arbiter));

    // A game created through the primary is read back through the standby at once.
    let (status, headers, body) = send_raw(&app, post("/v1/games").set_json(standard_game())).await;
    assert_eq!(status, 201, "{body}");
    let lsn = header(&headers, "x-arbiter-lsn").expect("a write's answer carries its LSN");
    assert!(Lsn::parse(&lsn).is_some(), "{lsn}");
    let game: Uuid = serde_json::from_str::<Value>(&body).unwrap()["game"]["game_id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let (status, headers, body) = send_raw(
        &app,
        get(&format!("/v1/games/{game}")).insert_header(("X-Arbiter-LSN", lsn.as_str())),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        header(&headers, "x-arbiter-read-from").as_deref(),
        Some("replica")
    );

    // Every append is read back, complete, through the standby.
    let mut last_seq = 1u64;
    for _ in 0..15 {
        let (status, headers, body) = send_raw(
            &app,
            post(&format!("/v1/games/{game}/events"))
                .set_json(json!({"expected_seq": last_seq, "events": adjust()})),
        )
        .await;
        assert_eq!(status, 201, "{body}");
        last_seq += 1;
        let lsn = header(&headers, "x-arbiter-lsn").unwrap();
        let (status, headers, body) =
            send_raw(&app, get(&format!("/v1/games/{game}/events?min_lsn={lsn}"))).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            header(&headers, "x-arbiter-read-from").as_deref(),
            Some("replica")
        );
        let page: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            page["last_seq"], last_seq,
            "the standby has the write just made"
        );
        assert_eq!(page["items"].as_array().unwrap().len() as u64, last_seq);
    }
    let lsn = store.lsn_for_reads().await.unwrap().unwrap().to_string();
    for uri in [
        format!("/v1/games/{game}/positions"),
        format!("/v1/games/{game}/audit"),
        format!("/v1/games/{game}/pgn"),
        format!("/v1/games/{game}/digest"),
        format!("/v1/games/{game}/export"),
        "/v1/games".to_string(),
        "/v1/rulings".to_string(),
        "/v1/feed".to_string(),
    ] {
        let (status, headers, body) = send_raw(
            &app,
            get(&uri).insert_header(("X-Arbiter-LSN", lsn.as_str())),
        )
        .await;
        assert_eq!(status, 200, "{uri}: {body}");
        assert_eq!(
            header(&headers, "x-arbiter-read-from").as_deref(),
            Some("replica"),
            "{uri}"
        );
        if uri.ends_with("/digest") {
            assert_eq!(
                serde_json::from_str::<Value>(&body).unwrap()["seq"],
                last_seq
            );
        }
    }
    let (status, _, body) =
        send_raw(&app, get(&format!("/v1/games/{game}?min_lsn=not-an-lsn"))).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("invalid_lsn"));

    // A standby that lags past the limit: the read goes to the primary, which has the write;
    // a read without a position is served by the lagging standby as it stands.
    sqlx::query("SELECT pg_wal_replay_pause()")
        .execute(standby_admin.pool())
        .await
        .unwrap();
    let impatient = test::init_service(arbiter::startup::app(AppState::new(
        primary_only
            .clone()
            .with_read_replica(replica.pool().clone(), Duration::from_millis(300)),
    )))
    .await;
    let (status, headers, body) = send_raw(
        &impatient,
        post(&format!("/v1/games/{game}/events"))
            .set_json(json!({"expected_seq": last_seq, "events": adjust()})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    last_seq += 1;
    let lsn = header(&headers, "x-arbiter-lsn").unwrap();
    let (status, headers, body) = send_raw(
        &impatient,
        get(&format!("/v1/games/{game}/events?min_lsn={lsn}")),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        header(&headers, "x-arbiter-read-from").as_deref(),
        Some("primary_fallback")
    );
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["last_seq"],
        last_seq
    );
    let (_, headers, body) = send_raw(&impatient, get(&format!("/v1/games/{game}/events"))).await;
    assert_eq!(
        header(&headers, "x-arbiter-read-from").as_deref(),
        Some("replica")
    );
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["last_seq"],
        last_seq - 1,
        "the paused standby has not replayed the last write: the reads really go there"
    );
    sqlx::query("SELECT pg_wal_replay_resume()")
        .execute(standby_admin.pool())
        .await
        .unwrap();

    // The feed through the standby holds back what an open transaction may still precede.
    let (status, body) = create(&app, &arbiter).await;
    assert_eq!(status, 201, "{body}");
    let slow_game: Uuid = body["game"]["game_id"].as_str().unwrap().parse().unwrap();
    let lsn = store.lsn_for_reads().await.unwrap().unwrap().to_string();
    let (mut cursor, _) = read_feed_to_end(&app, &arbiter, FeedCursor::START, &lsn).await;
    let mut slow = owner.pool().begin().await.unwrap();
    owner
        .append_in(&mut slow, slow_game, 1, &[clock_adjust()], "slow")
        .await
        .unwrap();
    let (status, headers, body) = send_raw(
        &app,
        post(&format!("/v1/games/{game}/events"))
            .set_json(json!({"expected_seq": last_seq, "events": adjust()})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    last_seq += 1;
    let lsn = header(&headers, "x-arbiter-lsn").unwrap();
    let page = feed_page(&app, &arbiter, &cursor, Some(&lsn)).await;
    assert_eq!(
        page["items"],
        json!([]),
        "the later commit is held back while the earlier transaction is open"
    );
    assert_eq!(page["next"], cursor.to_string());
    slow.commit().await.unwrap();
    let lsn = store.lsn_for_reads().await.unwrap().unwrap().to_string();
    let page = feed_page(&app, &arbiter, &cursor, Some(&lsn)).await;
    let order: Vec<(String, u64)> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            (
                item["game_id"].as_str().unwrap().to_string(),
                item["seq"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        order,
        vec![(slow_game.to_string(), 2), (game.to_string(), last_seq)],
        "both, in commit-transaction order"
    );
    cursor = FeedCursor::parse(page["next"].as_str().unwrap()).unwrap();
    let _ = cursor;

    // Writers on four games while a reader follows the feed through the standby: the reader
    // ends with every stored event, once each, in cursor order.
    let mut games = Vec::new();
    for _ in 0..4 {
        let (status, body) = create(&app, &arbiter).await;
        assert_eq!(status, 201, "{body}");
        games.push(body["game"]["game_id"].as_str().unwrap().to_string());
    }
    let writing = Cell::new(true);
    let (app_ref, post_ref) = (&app, &post);
    let writers = async {
        join_all(games.iter().map(|game| async move {
            for seq in 1..=12u64 {
                let (status, _, body) = send_raw(
                    app_ref,
                    post_ref(&format!("/v1/games/{game}/events"))
                        .set_json(json!({"expected_seq": seq, "events": adjust()})),
                )
                .await;
                assert_eq!(status, 201, "{body}");
            }
        }))
        .await;
        writing.set(false);
    };
    let reader = async {
        let mut cursor = FeedCursor::START;
        let mut seen: Vec<(String, u64)> = Vec::new();
        let mut cursors: Vec<FeedCursor> = Vec::new();
        let mut final_lsn: Option<String> = None;
        loop {
            if !writing.get() && final_lsn.is_none() {
                final_lsn = Some(store.lsn_for_reads().await.unwrap().unwrap().to_string());
            }
            let page = feed_page(&app, &arbiter, &cursor, final_lsn.as_deref()).await;
            let items = page["items"].as_array().unwrap();
            for item in items {
                seen.push((
                    item["game_id"].as_str().unwrap().to_string(),
                    item["seq"].as_u64().unwrap(),
                ));
                cursors.push(FeedCursor::parse(item["cursor"].as_str().unwrap()).unwrap());
            }
            cursor = FeedCursor::parse(page["next"].as_str().unwrap()).unwrap();
            if items.is_empty() {
                if final_lsn.is_some() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
        (seen, cursors)
    };
    let ((), (seen, cursors)) = futures::join!(writers, reader);
    let stored: Vec<(Uuid, i64)> = sqlx::query_as("SELECT game_id, seq FROM events")
        .fetch_all(owner.pool())
        .await
        .unwrap();
    let stored: HashSet<(String, u64)> = stored
        .into_iter()
        .map(|(game, seq)| (game.to_string(), seq as u64))
        .collect();
    let unique: HashSet<(String, u64)> = seen.iter().cloned().collect();
    assert_eq!(unique.len(), seen.len(), "no event read twice");
    assert_eq!(
        unique, stored,
        "every stored event was read through the standby"
    );
    assert!(
        cursors
            .windows(2)
            .all(|w| (w[0].tx_id, w[0].position) < (w[1].tx_id, w[1].position)),
        "in cursor order"
    );
    assert!(stored.len() >= 4 * 13 + 20, "{} events", stored.len());
    drop(pair);
}

/// Creates a game through the API.
async fn create<S, B>(app: &S, token: &str) -> (u16, Value)
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let (status, _, body) = send_raw(
        app,
        TestRequest::post()
            .uri("/v1/games")
            .insert_header(bearer(token))
            .set_json(standard_game()),
    )
    .await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// One feed page through the API (served by the standby), read after `min_lsn` if given.
async fn feed_page<S, B>(app: &S, token: &str, after: &FeedCursor, min_lsn: Option<&str>) -> Value
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let mut uri = format!("/v1/feed?limit=7&after={after}");
    if let Some(lsn) = min_lsn {
        uri.push_str(&format!("&min_lsn={lsn}"));
    }
    let (status, headers, body) = send_raw(
        app,
        TestRequest::get().uri(&uri).insert_header(bearer(token)),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        header(&headers, "x-arbiter-read-from").as_deref(),
        Some("replica")
    );
    serde_json::from_str(&body).unwrap()
}

/// Reads the feed through the standby until an empty page, after `min_lsn`.
async fn read_feed_to_end<S, B>(
    app: &S,
    token: &str,
    mut cursor: FeedCursor,
    min_lsn: &str,
) -> (FeedCursor, usize)
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let mut read = 0;
    loop {
        let page = feed_page(app, token, &cursor, Some(min_lsn)).await;
        let items = page["items"].as_array().unwrap().len();
        cursor = FeedCursor::parse(page["next"].as_str().unwrap()).unwrap();
        if items == 0 {
            return (cursor, read);
        }
        read += items;
    }
}

fn clock_adjust() -> NewEvent {
    NewEvent::generated(Event::Recorded(RecordedEvent::ClockAdjust {
        side: Side::Black,
        delta_ms: 1000,
        reason: "held open".into(),
    }))
}

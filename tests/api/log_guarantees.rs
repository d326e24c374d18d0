//! What the event log guarantees: optimistic concurrency, idempotent retries, a feed that
//! never skips a late commit, refusal of UPDATE/DELETE/TRUNCATE, and a verifiable chain.

use crate::client::{Reply, api};
use crate::support::TestDb;
use arbiter::game::event::{Event, RecordedEvent, Side};
use arbiter::store::{FeedCursor, NewEvent, StoreError};
use futures::future::join_all;
use serde_json::{Value, json};
use std::collections::HashSet;
use uuid::Uuid;

fn seqs_of(rows: &[(i64,)]) -> Vec<i64> {
    rows.iter().map(|r| r.0).collect()
}

#[actix_web::test]
async fn thirty_two_concurrent_appends_with_the_same_expected_seq_store_exactly_one() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let replies: Vec<(u16, Value)> = join_all((0..32).map(|i| {
        let api = &api;
        async move {
            api.append_events(
                game,
                1,
                json!([{"type": "clock_adjust", "side": "white", "delta_ms": i, "reason": format!("writer {i}")}]),
            )
            .await
        }
    }))
    .await
    .into_iter()
    .map(|reply| (reply.status, reply.body))
    .collect();
    let stored: Vec<_> = replies
        .iter()
        .filter(|(status, _)| *status == 201)
        .collect();
    let refused: Vec<_> = replies
        .iter()
        .filter(|(status, _)| *status == 409)
        .collect();
    assert_eq!(stored.len(), 1, "exactly one append is stored: {replies:?}");
    assert_eq!(
        refused.len(),
        31,
        "every other append is refused: {replies:?}"
    );
    for (_, body) in &refused {
        assert_eq!(body["code"], "stale_seq");
        assert_eq!(
            body["current_seq"], 2,
            "the refusal carries the current seq: {body}"
        );
    }
    let rows: Vec<(i64,)> =
        sqlx::query_as("SELECT seq FROM events WHERE game_id = $1 ORDER BY seq")
            .bind(game)
            .fetch_all(db.store.pool())
            .await
            .unwrap();
    assert_eq!(seqs_of(&rows), vec![1, 2], "no gap and no duplicate in seq");
}

#[actix_web::test]
async fn the_same_append_retried_with_the_same_event_ids_gets_the_same_answer_and_one_copy() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let events = json!([
        {"type": "move", "by": "white", "san": "e4", "event_id": Uuid::new_v4()},
        {"type": "clock_press", "by": "white", "white_ms": 5_390_000, "event_id": Uuid::new_v4()}
    ]);
    let Reply {
        status: first_status,
        body: first,
        ..
    } = api.append_events(game, 1, events.clone()).await;
    let Reply {
        status: second_status,
        body: second,
        ..
    } = api.append_events(game, 1, events.clone()).await;
    assert_eq!(first_status, 201, "{first}");
    assert_eq!(second_status, 200, "a retry is answered 200: {second}");
    assert_eq!(first, second, "the retry gets the stored envelopes");
    assert_eq!(db.event_count().await, 3, "one copy stored");

    // The same ids for different content, or at another place, are refused.
    let mut changed = events.clone();
    changed[0]["san"] = json!("d4");
    let Reply { status, body, .. } = api.append_events(game, 1, changed).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], "event_id_reused");
    let Reply { status, body, .. } = api.append_events(game, 3, events).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(db.event_count().await, 3);
}

#[actix_web::test]
async fn concurrent_identical_retries_store_one_copy_and_all_get_the_stored_answer() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let events = json!([{"type": "move", "by": "white", "san": "e4", "event_id": Uuid::new_v4()}]);
    let replies: Vec<Reply> =
        join_all((0..8).map(|_| api.append_events(game, 1, events.clone()))).await;
    for Reply { status, body, .. } in &replies {
        assert!(*status == 201 || *status == 200, "{status} {body}");
        assert_eq!(body["events"][0]["seq"], 2);
    }
    assert_eq!(db.event_count().await, 2);
}

#[actix_web::test]
async fn a_feed_reader_sees_every_event_exactly_once_although_a_slow_writer_commits_late() {
    let db = TestDb::new().await;
    let store = &db.store;
    let slow_game = store
        .create_game(None, None, &settings(), "test")
        .await
        .unwrap()
        .summary
        .game_id;
    let fast_game = store
        .create_game(None, None, &settings(), "test")
        .await
        .unwrap()
        .summary
        .game_id;

    let mut seen: Vec<(Uuid, u64)> = Vec::new();
    let mut cursor = FeedCursor::START;
    let poll =
        |page: arbiter::store::FeedPage, cursor: &mut FeedCursor, seen: &mut Vec<(Uuid, u64)>| {
            for item in page.items {
                seen.push((item.envelope.game_id, item.envelope.seq));
            }
            *cursor = FeedCursor::parse(&page.next).expect("next is a cursor");
        };
    // Transactions of tests in other databases of the same server can hold the fence back
    // for a moment (transaction ids are server-wide), so poll until the feed has caught up.
    for _ in 0..200 {
        poll(
            store.feed(&cursor, 1000).await.unwrap(),
            &mut cursor,
            &mut seen,
        );
        if seen.len() >= 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }

    // The slow writer opens its transaction and inserts, but does not commit yet.
    let mut slow = store.pool().begin().await.unwrap();
    store
        .append_in(&mut slow, slow_game, 1, &[clock_adjust(1)], "slow")
        .await
        .unwrap();
    // Later writers commit while the slow one is open; the reader polls in between.
    for i in 0..5u64 {
        store
            .append(fast_game, 1 + i, &[clock_adjust(i as i64)], "fast")
            .await
            .unwrap();
        poll(
            store.feed(&cursor, 1000).await.unwrap(),
            &mut cursor,
            &mut seen,
        );
    }
    assert_eq!(
        seen.len(),
        2,
        "nothing committed after the open transaction began is passed yet: {seen:?}"
    );
    slow.commit().await.unwrap();
    // Tests in other databases of the same server can hold the snapshot's xmin back for a
    // moment (transaction ids are server-wide), so poll until the feed has caught up.
    for _ in 0..200 {
        poll(
            store.feed(&cursor, 1000).await.unwrap(),
            &mut cursor,
            &mut seen,
        );
        if seen.len() >= 8 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let expected: HashSet<(Uuid, u64)> = [(slow_game, 1), (slow_game, 2), (fast_game, 1)]
        .into_iter()
        .chain((2..=6).map(|seq| (fast_game, seq)))
        .collect();
    let unique: HashSet<(Uuid, u64)> = seen.iter().copied().collect();
    assert_eq!(
        unique.len(),
        seen.len(),
        "no event was read twice: {seen:?}"
    );
    assert_eq!(unique, expected, "every event was read");
}

#[actix_web::test]
async fn the_feed_pages_through_every_event_with_small_pages() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    for _ in 0..3 {
        let game = api.create_standard_game().await;
        api.append_events(game, 1, json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "move", "by": "black", "san": "e5"}])).await;
    }
    let mut after = FeedCursor::START.to_string();
    let mut total = 0;
    // Other tests' transactions on the same server can hold the fence back for a moment.
    for _ in 0..400 {
        let Reply { status, body, .. } = api.read_feed(&format!("limit=2&after={after}")).await;
        assert_eq!(status, 200, "{body}");
        let items = body["items"].as_array().unwrap().len();
        if items == 0 {
            assert_eq!(
                body["next"].as_str().unwrap(),
                after,
                "an empty page keeps the cursor"
            );
            if total == 9 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
            continue;
        }
        assert!(items <= 2);
        total += items;
        after = body["next"].as_str().unwrap().to_string();
    }
    assert_eq!(total, 9);
}

#[actix_web::test]
async fn update_delete_and_truncate_on_events_fail_also_in_replica_mode() {
    let db = TestDb::new().await;
    let game = db
        .store
        .create_game(None, None, &settings(), "test")
        .await
        .unwrap()
        .summary
        .game_id;
    let pool = db.store.pool();
    for replica in [false, true] {
        let statements = [
            "UPDATE events SET payload = payload || '{\"by\": \"black\"}'::jsonb",
            "DELETE FROM events",
            "TRUNCATE events",
        ];
        for statement in statements {
            let mut tx = pool.begin().await.unwrap();
            if replica {
                sqlx::query("SET LOCAL session_replication_role = replica")
                    .execute(&mut *tx)
                    .await
                    .unwrap();
            }
            let error = sqlx::query(statement)
                .execute(&mut *tx)
                .await
                .expect_err(statement);
            assert!(
                error.to_string().contains("append-only"),
                "{statement} (replica: {replica}) is refused as append-only: {error}"
            );
        }
    }
    assert_eq!(db.event_count().await, 1);
    let report = db.store.verify_chain(game).await.unwrap();
    assert!(report.intact);
}

#[actix_web::test]
async fn a_payload_edited_behind_the_triggers_is_named_by_chain_verification() {
    let db = TestDb::new().await;
    let store = &db.store;
    let game = store
        .create_game(None, None, &settings(), "test")
        .await
        .unwrap()
        .summary
        .game_id;
    let moves = ["e4", "e5", "Nf3", "Nc6"];
    for (i, san) in moves.iter().enumerate() {
        let by = if i % 2 == 0 { Side::White } else { Side::Black };
        let event = NewEvent::generated(Event::Recorded(RecordedEvent::Move {
            by,
            san: (*san).into(),
        }));
        store
            .append(game, 1 + i as u64, &[event], "test")
            .await
            .unwrap();
    }
    assert!(store.verify_chain(game).await.unwrap().intact);
    // A superuser bypasses the refusal trigger and rewrites seq 3 (Black's 1...e5 -> 1...c5).
    let mut tx = store.pool().begin().await.unwrap();
    sqlx::query("ALTER TABLE events DISABLE TRIGGER events_refuse_update_delete")
        .execute(&mut *tx)
        .await
        .unwrap();
    sqlx::query("UPDATE events SET payload = jsonb_set(payload, '{san}', '\"c5\"') WHERE game_id = $1 AND seq = 3")
        .bind(game)
        .execute(&mut *tx)
        .await
        .unwrap();
    sqlx::query("ALTER TABLE events ENABLE ALWAYS TRIGGER events_refuse_update_delete")
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let report = store.verify_chain(game).await.unwrap();
    assert!(!report.intact);
    let broken = report.first_break.expect("a break is reported");
    assert_eq!(
        broken.seq, 3,
        "the first bad seq is named: {}",
        broken.reason
    );
    assert!(broken.reason.contains("altered"), "{}", broken.reason);
}

#[actix_web::test]
async fn an_event_cannot_be_inserted_with_a_gap_or_a_forged_hash() {
    let db = TestDb::new().await;
    let game = db
        .store
        .create_game(None, None, &settings(), "test")
        .await
        .unwrap()
        .summary
        .game_id;
    let gap = sqlx::query(
        "INSERT INTO events (game_id, seq, event_id, batch_id, event_type, payload, recorded_by, prev_hash, hash) \
         VALUES ($1, 3, gen_random_uuid(), gen_random_uuid(), 'resign', '{\"type\":\"resign\",\"by\":\"white\"}', 'x', ''::bytea, ''::bytea)",
    )
    .bind(game)
    .execute(db.store.pool())
    .await
    .expect_err("a gap is refused");
    assert!(gap.to_string().contains("does not follow"), "{gap}");
    // A writer that supplies its own hash gets it overwritten by the chain trigger.
    sqlx::query(
        "INSERT INTO events (game_id, seq, event_id, batch_id, event_type, payload, recorded_by, prev_hash, hash) \
         VALUES ($1, 2, gen_random_uuid(), gen_random_uuid(), 'resign', '{\"type\":\"resign\",\"by\":\"white\"}', 'x', '\\x01'::bytea, '\\x02'::bytea)",
    )
    .bind(game)
    .execute(db.store.pool())
    .await
    .unwrap();
    assert!(db.store.verify_chain(game).await.unwrap().intact);
}

#[actix_web::test]
async fn a_writer_that_claims_the_groups_setting_stores_its_own_link_and_verify_and_the_audit_find_it()
 {
    // Migration 0017: rows stored by `events_append_group` carry the links it computed, and
    // the chain trigger keeps them while `arbiter.linked_by_group` is on. A session that sets
    // it by hand can store a link not computed from the stored rows: the new promise is that
    // `arbiter verify` (the store's verification) and the public audit name that row.
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let Reply { status, body, .. } = api
        .append_events(
            game,
            1,
            json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "move", "by": "black", "san": "e5"}]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert!(db.store.verify_chain(game).await.unwrap().intact);
    let mut tx = db.store.pool().begin().await.unwrap();
    sqlx::query("SELECT set_config('arbiter.linked_by_group', 'on', true)")
        .execute(&mut *tx)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO events (game_id, seq, event_id, batch_id, event_type, payload, recorded_by, prev_hash, hash) \
         VALUES ($1, 4, gen_random_uuid(), gen_random_uuid(), 'resign', '{\"type\":\"resign\",\"by\":\"white\"}', 'x', '\\x01'::bytea, '\\x02'::bytea)",
    )
    .bind(game)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let report = db.store.verify_chain(game).await.unwrap();
    assert!(!report.intact);
    assert_eq!(report.first_break.expect("a break is reported").seq, 4);
    let Reply {
        status,
        body: audit,
        ..
    } = api.get(&format!("/v1/games/{game}/audit")).await;
    assert_eq!(status, 200, "{audit}");
    assert_eq!(audit["chain"]["intact"], false, "{audit}");
    assert_ne!(audit["verdict"], "reproduced", "{audit}");
    assert!(audit.to_string().contains("\"seq\":4"), "{audit}");
}

#[actix_web::test]
async fn appending_to_an_unknown_game_or_with_a_stale_seq_through_the_store_is_refused() {
    let db = TestDb::new().await;
    let missing = Uuid::new_v4();
    let error = db
        .store
        .append(missing, 1, &[clock_adjust(1)], "t")
        .await
        .expect_err("unknown game");
    assert!(matches!(error, StoreError::GameNotFound(id) if id == missing));
    let game = db
        .store
        .create_game(None, None, &settings(), "t")
        .await
        .unwrap()
        .summary
        .game_id;
    let error = db
        .store
        .append(game, 0, &[clock_adjust(1)], "t")
        .await
        .expect_err("stale");
    assert!(matches!(
        error,
        StoreError::StaleSeq {
            expected: 0,
            current: 1
        }
    ));
}

fn settings() -> arbiter::game::event::GameSettings {
    serde_json::from_value(crate::support::standard_game()).unwrap()
}

fn clock_adjust(delta: i64) -> NewEvent {
    NewEvent::generated(Event::Recorded(RecordedEvent::ClockAdjust {
        side: Side::White,
        delta_ms: delta,
        reason: "test".into(),
    }))
}

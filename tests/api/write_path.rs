//! The write path (issue 9): the one-statement append, its conflicts and retries, the warm
//! games' LRU, the edges that must answer exactly, and `arbiter rebuild`.

use crate::client::{Reply, api, api_with_state};
use crate::support::{TestDb, standard_game};
use arbiter::access::{Principal, Role};
use arbiter::app::arbitration::Arbitration;
use arbiter::game::event::Event;
use arbiter::store::{NewEvent, StoreError};
use serde_json::{Value, json};
use std::num::NonZeroUsize;
use uuid::Uuid;

fn a_move(by: &str, san: &str) -> NewEvent {
    let event: Event = serde_json::from_value(json!({"type": "move", "by": by, "san": san}))
        .expect("a move event");
    NewEvent {
        event_id: Uuid::new_v4(),
        event,
        occurred_at: None,
        clock: None,
    }
}

async fn new_game(db: &TestDb) -> Uuid {
    new_game_through(&db.service).await
}

/// A standard game created through `store` (its connection's statistics are its own).
async fn new_game_through(store: &arbiter::store::Store) -> Uuid {
    let settings = serde_json::from_value(standard_game()).unwrap();
    store
        .create_game(None, None, &settings, "test")
        .await
        .unwrap()
        .summary
        .game_id
}

#[actix_web::test]
async fn expected_seq_zero_on_an_existing_game_answers_409_with_the_current_seq_warm_or_not() {
    let db = TestDb::new().await;
    // Created by another instance (the one that creates a game keeps it warm).
    let creator = api(&db).await;
    let game = creator.create_standard_game().await;
    let api = api(&db).await;
    let one_move = json!([{"type": "move", "by": "white", "san": "e4"}]);
    // Not warm yet: the game is folded from its log first.
    let Reply { status, body, .. } = api.append_events(game, 0, one_move.clone()).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], "stale_seq", "{body}");
    assert_eq!(body["current_seq"], 1, "{body}");
    // Warm now.
    let Reply { status, .. } = api.append_events(game, 1, one_move.clone()).await;
    assert_eq!(status, 201);
    let Reply { status, body, .. } = api.append_events(game, 0, one_move.clone()).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["current_seq"], 2, "{body}");
    // A game that does not exist is still 404.
    let Reply { status, body, .. } = api.append_events(Uuid::new_v4(), 0, one_move).await;
    assert_eq!(status, 404, "{body}");
}

#[actix_web::test]
async fn a_retry_after_another_instance_stored_the_append_gets_the_stored_answer_and_one_copy() {
    let db = TestDb::new().await;
    let game = new_game(&db).await;
    // Two instances over one database; both hold the game warm at seq 1.
    let first = Arbitration::new(db.service.clone());
    let second = Arbitration::new(db.service.clone());
    let warm_up = a_move("white", "e4");
    first
        .record(game, 1, vec![warm_up.clone()], "a")
        .await
        .unwrap();
    second
        .record(game, 1, vec![warm_up], "b")
        .await
        .expect("the same request again is a retry");
    assert!(second.is_warm(game));
    // The first instance stores 1...e5. The second holds the game at seq 2 and judges the
    // same request again: its statement stores nothing (the guard on `last_seq` fails), and
    // the conflict is settled from the log as a retry.
    let reply = a_move("black", "e5");
    let stored = first
        .record(game, 2, vec![reply.clone()], "a")
        .await
        .unwrap();
    assert!(stored.newly_stored);
    let retried = second
        .record(game, 2, vec![reply], "b")
        .await
        .expect("a retry is answered from the log");
    assert!(!retried.newly_stored);
    assert_eq!(retried.envelopes, stored.envelopes);
    // Another move on the stale state collides with the guard: 409 with where the log is.
    let error = second
        .record(game, 2, vec![a_move("black", "c5")], "b")
        .await
        .expect_err("stale");
    assert!(
        matches!(
            error,
            arbiter::app::arbitration::RecordError::Store(StoreError::StaleSeq {
                expected: 2,
                current: 3
            })
        ),
        "{error:?}"
    );
    assert_eq!(db.event_count().await, 3);
}

#[actix_web::test]
async fn an_event_id_reused_at_the_next_place_collides_inside_the_statement_and_is_refused() {
    let db = TestDb::new().await;
    let game = new_game(&db).await;
    let arbitration = Arbitration::new(db.service.clone());
    let first = a_move("white", "e4");
    arbitration
        .record(game, 1, vec![first.clone()], "a")
        .await
        .unwrap();
    // The guard holds (seq 2 is the last), so the insert itself meets the stored id.
    let mut reused = a_move("black", "e5");
    reused.event_id = first.event_id;
    let error = arbitration
        .record(game, 2, vec![reused], "a")
        .await
        .expect_err("reused id");
    assert!(
        matches!(
            error,
            arbiter::app::arbitration::RecordError::Store(StoreError::EventIdReused { seq: 2, .. })
        ),
        "{error:?}"
    );
    // Nothing was stored, and the game goes on at seq 2.
    assert_eq!(db.event_count().await, 2);
    arbitration
        .record(game, 2, vec![a_move("black", "e5")], "a")
        .await
        .expect("the game goes on");
}

#[actix_web::test]
async fn concurrent_writers_in_two_instances_store_exactly_one_append_per_place() {
    for group_commit_writers in [0, 1] {
        concurrent_writers_store_exactly_one_append_per_place(group_commit_writers).await;
    }
}

/// Four instances (each writing alone, or each with its own group committer) append at the
/// same place of one game.
async fn concurrent_writers_store_exactly_one_append_per_place(group_commit_writers: usize) {
    let db = TestDb::new().await;
    let game = new_game(&db).await;
    let instances: Vec<Arbitration> = (0..4)
        .map(|_| Arbitration::new(db.service.clone()).with_group_commit(group_commit_writers, 1000))
        .collect();
    let attempts = futures::future::join_all(
        instances
            .iter()
            .map(|instance| instance.record(game, 1, vec![a_move("white", "e4")], "x")),
    )
    .await;
    let stored = attempts.iter().filter(|a| a.is_ok()).count();
    assert_eq!(stored, 1, "{attempts:?}");
    for failed in attempts.iter().filter_map(|a| a.as_ref().err()) {
        assert!(
            matches!(
                failed,
                arbiter::app::arbitration::RecordError::Store(StoreError::StaleSeq {
                    current: 2,
                    ..
                })
            ),
            "{failed:?}"
        );
    }
    assert!(db.store.verify_chain(game).await.unwrap().intact);
}

#[actix_web::test]
async fn the_warm_games_keep_the_most_recently_used_and_forget_one_at_a_time() {
    let db = TestDb::new().await;
    let arbitration =
        Arbitration::with_warm_games(db.service.clone(), NonZeroUsize::new(2).unwrap());
    let [a, b, c] = [
        new_game(&db).await,
        new_game(&db).await,
        new_game(&db).await,
    ];
    arbitration
        .record(a, 1, vec![a_move("white", "e4")], "t")
        .await
        .unwrap();
    arbitration
        .record(b, 1, vec![a_move("white", "d4")], "t")
        .await
        .unwrap();
    assert!(arbitration.is_warm(a) && arbitration.is_warm(b));
    // A is used again, so B is the least recent when C comes in.
    arbitration
        .record(a, 2, vec![a_move("black", "e5")], "t")
        .await
        .unwrap();
    arbitration
        .record(c, 1, vec![a_move("white", "c4")], "t")
        .await
        .unwrap();
    assert!(arbitration.is_warm(a), "the most recently used game stays");
    assert!(arbitration.is_warm(c));
    assert!(
        !arbitration.is_warm(b),
        "only the least recently used is forgotten"
    );
    // A forgotten game is folded again from its log on its next append.
    let appended = arbitration
        .record(b, 2, vec![a_move("black", "d5")], "t")
        .await
        .unwrap();
    assert_eq!(appended.envelopes[0].seq, 3);
    assert!(arbitration.is_warm(b) && !arbitration.is_warm(a));
}

#[actix_web::test]
async fn the_role_check_on_the_warm_state_refuses_an_arbiter_of_another_event() {
    let db = TestDb::new().await;
    let game = new_game(&db).await;
    let arbitration = Arbitration::new(db.service.clone());
    let elsewhere = Principal {
        token_id: Uuid::new_v4(),
        name: "arbiter of another event".into(),
        role: Role::Arbiter,
        events: Some(vec!["Another Open".into()]),
        fair_play: None,
    };
    let error = arbitration
        .record_checked(game, 1, vec![a_move("white", "e4")], &elsewhere)
        .await
        .expect_err("not this event's arbiter");
    assert!(
        matches!(error, arbiter::app::arbitration::RecordError::Denied(_)),
        "{error:?}"
    );
    assert_eq!(db.event_count().await, 1);
}

async fn read_model(db: &TestDb) -> Vec<Value> {
    sqlx::query_scalar("SELECT to_jsonb(g) FROM games g ORDER BY game_id")
        .fetch_all(db.store.pool())
        .await
        .unwrap()
}

#[actix_web::test]
async fn a_rebuild_equals_the_read_model_the_appends_maintained_and_repairs_a_damaged_one() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    // Games in every state: in progress, resigned, agreed drawn, and only created.
    let playing = api.create_standard_game().await;
    let resigned = api.create_standard_game().await;
    let drawn = api.create_standard_game().await;
    let _created = api.create_standard_game().await;
    for game in [playing, resigned, drawn] {
        let Reply { status, body, .. } = api
            .append_events(
                game,
                1,
                json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "move", "by": "black", "san": "e5"}]),
            )
            .await;
        assert_eq!(status, 201, "{body}");
    }
    let Reply { status, body, .. } = api
        .append_events(resigned, 3, json!([{"type": "resign", "by": "black"}]))
        .await;
    assert_eq!(status, 201, "{body}");
    let Reply { status, body, .. } = api
        .append_events(
            drawn,
            3,
            json!([{"type": "move", "by": "white", "san": "Nf3"}, {"type": "draw_offer", "by": "white"}, {"type": "draw_accept", "by": "black"}]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let maintained = read_model(&db).await;
    assert!(
        maintained
            .iter()
            .any(|row| row["status"] == "ended" && row["result"] == "1-0")
    );
    assert!(maintained.iter().any(|row| row["result"] == "1/2-1/2"));

    let arbitration = Arbitration::new(db.store.clone());
    let report = arbitration.rebuild_read_model().await.unwrap();
    assert_eq!(report.games, 4);
    assert_eq!(
        report.changed, 0,
        "the maintained rows already follow the log"
    );
    assert_eq!(read_model(&db).await, maintained);

    // Damage the read model: a wrong status, a lost row, a row without a log.
    sqlx::query(
        "UPDATE games SET status = 'in_progress', result = NULL, last_seq = 1 WHERE game_id = $1",
    )
    .bind(resigned)
    .execute(db.store.pool())
    .await
    .unwrap();
    sqlx::query("DELETE FROM games WHERE game_id = $1")
        .bind(drawn)
        .execute(db.store.pool())
        .await
        .unwrap();
    sqlx::query("INSERT INTO games (game_id, created_at, event_name, round, white, black, settings, last_seq, updated_at) VALUES ($1, now(), 'x', '1', 'a', 'b', '{}', 1, now())")
        .bind(Uuid::new_v4())
        .execute(db.store.pool())
        .await
        .unwrap();
    let report = arbitration.rebuild_read_model().await.unwrap();
    assert_eq!((report.changed, report.deleted), (2, 1), "{report:?}");
    assert_eq!(read_model(&db).await, maintained);
}

#[actix_web::test]
async fn arbiter_rebuild_on_the_command_line_reports_what_it_did() {
    let db = TestDb::new().await;
    let game = new_game(&db).await;
    Arbitration::new(db.service.clone())
        .record(game, 1, vec![a_move("white", "e4")], "t")
        .await
        .unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["rebuild", "--database-url", &db.url])
        .env_remove("ARBITER_DATA_DIR")
        .output()
        .expect("arbiter runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("from 2 events of 1 games"), "{stdout}");
    assert!(stdout.contains("0 rows inserted or corrected"), "{stdout}");
}

#[actix_web::test]
async fn an_unknown_stored_status_is_an_error_never_read_as_in_progress() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    sqlx::query("UPDATE games SET status = 'adjourned' WHERE game_id = $1")
        .bind(game)
        .execute(db.store.pool())
        .await
        .unwrap();
    let error = db.store.game(game).await.expect_err("unknown status");
    assert!(
        matches!(&error, StoreError::UnknownStoredValue { what: "game status", value } if value == "adjourned"),
        "{error:?}"
    );
    let Reply { status, body, .. } = api.with_token(&db.reader).game(game).await;
    assert_eq!(status, 500, "{body}");
    assert!(body["request_id"].is_string(), "{body}");
}

#[actix_web::test]
async fn the_chain_trigger_hashes_what_event_hash_input_gives_whatever_the_session_time_zone() {
    let db = TestDb::new().await;
    let game = new_game(&db).await;
    let mut connection = db.store.pool().acquire().await.unwrap();
    sqlx::query("SET TimeZone = 'Asia/Kolkata'")
        .execute(&mut *connection)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO events (game_id, seq, event_id, batch_id, event_type, payload, \
         occurred_at, recorded_by, prev_hash, hash) VALUES ($1, 2, $2, $2, 'move', \
         '{\"type\": \"move\", \"by\": \"white\", \"san\": \"e4\"}', \
         '2026-11-23 23:59:59.123456+05:30', 'an arbiter', ''::bytea, ''::bytea)",
    )
    .bind(game)
    .bind(Uuid::new_v4())
    .execute(&mut *connection)
    .await
    .unwrap();
    let same: bool = sqlx::query_scalar(
        "SELECT hash = sha256(prev_hash || convert_to(event_hash_input(game_id, seq, event_id, \
         event_type, payload, metadata, recorded_at, occurred_at, recorded_by), 'UTF8')) \
         FROM events WHERE game_id = $1 AND seq = 2",
    )
    .bind(game)
    .fetch_one(&mut *connection)
    .await
    .unwrap();
    assert!(
        same,
        "the trigger's text is event_hash_input's, byte for byte"
    );
    drop(connection);
    assert!(db.store.verify_chain(game).await.unwrap().intact);
    // The offline verifier (`arbiter verify FILE`) agrees.
    let export: String = db
        .store
        .game_log(game)
        .await
        .unwrap()
        .iter()
        .map(|envelope| serde_json::to_string(envelope).unwrap() + "\n")
        .collect();
    let verified = arbiter::integrity::verify_export(&export, None);
    assert!(verified.is_ok(), "{verified:?}");
}

#[actix_web::test]
async fn the_chain_trigger_writes_the_bytes_of_event_hash_input_for_awkward_rows() {
    let db = TestDb::new().await;
    let game = new_game(&db).await;
    // Escapes, control characters, unicode, numbers in several spellings, keys of equal and
    // different lengths, nesting, empty containers, and both null and non-null times.
    let rows = [
        (
            "note",
            json!({"type": "note", "text": "say \"draw\"\\ \n\t\u{1} \u{7f} é 🙂 \u{2028}",
                   "bb": {"b": 1.5, "aa": [1, -0.25, 1e21, null, true, false, {}], "a": []}}),
            json!({"clock": {"white_ms": 3_600_000, "black_ms": 0}}),
            Some("2026-11-23T23:59:59.123456Z"),
            "Arbiter \"Ann\" Øvergaard (arbiter, token x)",
        ),
        (
            "move",
            json!({"type": "move", "by": "white", "san": "e4"}),
            json!({}),
            None,
            "a",
        ),
        (
            "x",
            json!({"type": "x", "": "", "k": "\\\\", "kk": [[[]]], "é": "é"}),
            json!({}),
            Some("1999-12-31T23:00:00Z"),
            "",
        ),
    ];
    for (offset, (kind, payload, metadata, occurred_at, recorded_by)) in rows.iter().enumerate() {
        sqlx::query(
            "INSERT INTO events (game_id, seq, event_id, batch_id, event_type, payload, \
             metadata, occurred_at, recorded_by, prev_hash, hash) \
             VALUES ($1, $2, $3, $3, $4, $5, $6, $7::timestamptz, $8, ''::bytea, ''::bytea)",
        )
        .bind(game)
        .bind(2 + offset as i64)
        .bind(Uuid::new_v4())
        .bind(kind)
        .bind(payload)
        .bind(metadata)
        .bind(occurred_at)
        .bind(recorded_by)
        .execute(db.store.pool())
        .await
        .unwrap();
    }
    let differing: Vec<i64> = sqlx::query_scalar(
        "SELECT seq FROM events WHERE game_id = $1 AND hash <> sha256(prev_hash || \
         convert_to(event_hash_input(game_id, seq, event_id, event_type, payload, metadata, \
         recorded_at, occurred_at, recorded_by), 'UTF8')) ORDER BY seq",
    )
    .bind(game)
    .fetch_all(db.store.pool())
    .await
    .unwrap();
    assert!(
        differing.is_empty(),
        "hashed otherwise than event_hash_input: {differing:?}"
    );
    assert!(db.store.verify_chain(game).await.unwrap().intact);
}

/// The stored events' transaction ids, one per stored `seq` of `game`, from `from_seq` on.
async fn transaction_ids(db: &TestDb, game: Uuid, from_seq: i64) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT tx_id::text FROM events WHERE game_id = $1 AND seq >= $2 ORDER BY seq",
    )
    .bind(game)
    .bind(from_seq)
    .fetch_all(db.store.pool())
    .await
    .unwrap()
}

#[actix_web::test]
async fn a_group_stores_each_games_append_in_one_commit_and_a_failed_guard_stores_nothing_of_its_game()
 {
    use arbiter::store::{GroupedOutcome, PreparedAppend, Wakeups};
    use std::time::Duration;
    let db = TestDb::new().await;
    let games = [
        new_game(&db).await,
        new_game(&db).await,
        new_game(&db).await,
    ];
    let wakeups = Wakeups::new(db.service.pool().clone());
    let mut woken: Vec<_> = games.iter().map(|game| wakeups.game(*game)).collect();
    wakeups.ready(Duration::from_secs(5)).await.unwrap();
    for wakeup in &mut woken {
        // Whatever woke them before the group (the listener's first connection).
        let _ = tokio::time::timeout(Duration::from_millis(100), wakeup.changed()).await;
    }
    let group = vec![
        PreparedAppend::new(games[0], 1, &[a_move("white", "e4")], "a", None).unwrap(),
        // Stale: the game's last seq is 1, not 0.
        PreparedAppend::new(games[1], 0, &[a_move("white", "d4")], "a", None).unwrap(),
        PreparedAppend::new(
            games[2],
            1,
            &[a_move("white", "c4"), a_move("black", "c5")],
            "a",
            None,
        )
        .unwrap(),
    ];
    let outcomes = db.service.append_group(group).await.unwrap();
    let seqs = |outcome: &GroupedOutcome| match outcome {
        GroupedOutcome::Stored(links) => Some(links.iter().map(|l| l.seq).collect::<Vec<_>>()),
        GroupedOutcome::GuardFailed => None,
    };
    assert_eq!(seqs(&outcomes[0]), Some(vec![2]), "{outcomes:?}");
    assert_eq!(seqs(&outcomes[1]), None, "{outcomes:?}");
    assert_eq!(seqs(&outcomes[2]), Some(vec![2, 3]), "{outcomes:?}");
    // Nothing of the stale game was stored; the others went in one transaction.
    assert!(transaction_ids(&db, games[1], 2).await.is_empty());
    let mut shared = transaction_ids(&db, games[0], 2).await;
    shared.extend(transaction_ids(&db, games[2], 2).await);
    shared.dedup();
    assert_eq!(shared.len(), 1, "one commit for the group: {shared:?}");
    // The trigger linked every row to its predecessor, game by game.
    for game in games {
        assert!(db.store.verify_chain(game).await.unwrap().intact);
    }
    // The commit woke the streams of both stored games.
    for index in [0, 2] {
        tokio::time::timeout(Duration::from_secs(5), woken[index].changed())
            .await
            .unwrap_or_else(|_| panic!("game {index} woken after the group's commit"));
    }
    // The summary rows follow the log.
    let last: Vec<i64> = sqlx::query_scalar(
        "SELECT last_seq FROM games WHERE game_id = ANY($1) ORDER BY array_position($1, game_id)",
    )
    .bind(games.to_vec())
    .fetch_all(db.store.pool())
    .await
    .unwrap();
    assert_eq!(last, vec![2, 1, 3]);
}

/// Another writer (another instance, mid-append) holds `blocker`'s summary row, and Black's
/// 1...e5 is sent for it through `arbitration`: the held transaction and the waiting append.
async fn blocked_behind_a_held_row(
    db: &TestDb,
    arbitration: &Arbitration,
    blocker: Uuid,
) -> (
    sqlx::Transaction<'static, sqlx::Postgres>,
    actix_web::rt::task::JoinHandle<
        Result<arbiter::store::Appended, arbiter::app::arbitration::RecordError>,
    >,
) {
    let mut holder = db.store.pool().begin().await.unwrap();
    sqlx::query("SELECT 1 FROM games WHERE game_id = $1 FOR UPDATE")
        .bind(blocker)
        .execute(&mut *holder)
        .await
        .unwrap();
    let arbitration = arbitration.clone();
    let blocked = actix_web::rt::spawn(async move {
        arbitration
            .record(blocker, 2, vec![a_move("black", "e5")], "a")
            .await
    });
    (holder, blocked)
}

#[actix_web::test]
async fn appends_waiting_behind_a_group_share_the_next_commit_and_each_is_answered_exactly() {
    use arbiter::store::FeedCursor;
    use std::time::Duration;
    let db = TestDb::new().await;
    let arbitration = Arbitration::new(db.service.clone()).with_group_commit(1, 1000);
    let blocker = new_game(&db).await;
    let mut games = Vec::new();
    for _ in 0..10 {
        games.push(new_game(&db).await);
    }
    for game in std::iter::once(blocker).chain(games.iter().copied()) {
        arbitration
            .record(game, 1, vec![a_move("white", "e4")], "a")
            .await
            .unwrap();
    }
    // Another writer (another instance, mid-append) holds the blocker's summary row.
    let (holder, blocked) = blocked_behind_a_held_row(&db, &arbitration, blocker).await;
    // The group writing the blocker's append now waits for the row.
    let waiting_on_lock = || async {
        // In this test's database only: other tests run beside it.
        sqlx::query_scalar::<_, i64>(
            "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid \
             WHERE NOT l.granted AND a.datname = current_database()",
        )
        .fetch_one(db.store.pool())
        .await
        .unwrap()
    };
    let started = std::time::Instant::now();
    while waiting_on_lock().await == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the group waits for the row"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let replies: Vec<_> = games
        .iter()
        .map(|game| {
            let (arbitration, game) = (arbitration.clone(), *game);
            let answer = a_move("black", "c5");
            actix_web::rt::spawn(async move {
                let reply = arbitration.record(game, 2, vec![answer.clone()], "a").await;
                (reply, answer)
            })
        })
        .collect();
    // They queue behind the group in flight (no read of the log: the games are warm).
    tokio::time::sleep(Duration::from_millis(300)).await;
    holder.commit().await.unwrap();
    let blocked = blocked
        .await
        .unwrap()
        .expect("the blocker's append is stored");
    assert!(blocked.newly_stored);
    let mut answered = Vec::new();
    for reply in replies {
        let (reply, sent) = reply.await.unwrap();
        let appended = reply.expect("stored");
        assert!(appended.newly_stored);
        assert_eq!(appended.envelopes.len(), 1);
        assert_eq!(appended.envelopes[0].seq, 3);
        answered.push((appended, sent));
    }
    // The ten appends that waited went together, in one commit after the blocker's.
    let mut waited = Vec::new();
    for game in &games {
        waited.extend(transaction_ids(&db, *game, 3).await);
    }
    waited.dedup();
    assert_eq!(
        waited.len(),
        1,
        "one commit for the appends that waited: {waited:?}"
    );
    assert_ne!(transaction_ids(&db, blocker, 3).await, waited);
    // Each answer is what the log holds: a retry gets the stored envelopes, a stale writer
    // the current seq.
    let (first, sent) = &answered[0];
    let retry = arbitration
        .record(games[0], 2, vec![sent.clone()], "a")
        .await
        .expect("a retry");
    assert!(!retry.newly_stored);
    assert_eq!(retry.envelopes, first.envelopes);
    let stale = arbitration
        .record(games[0], 2, vec![a_move("black", "e5")], "a")
        .await
        .expect_err("stale");
    assert!(
        matches!(
            stale,
            arbiter::app::arbitration::RecordError::Store(StoreError::StaleSeq {
                expected: 2,
                current: 3
            })
        ),
        "{stale:?}"
    );
    // Every chain verifies and the feed holds every event once, in commit order.
    for game in std::iter::once(blocker).chain(games.iter().copied()) {
        assert!(db.store.verify_chain(game).await.unwrap().intact);
    }
    // Transactions of tests in other databases of the same server can hold the feed's fence
    // back for a moment (transaction ids are server-wide): read until it has caught up.
    let stored = db.event_count().await as usize;
    let (mut cursor, mut seen) = (FeedCursor::START, Vec::new());
    for _ in 0..400 {
        let page = db.service.feed(&cursor, 1000).await.unwrap();
        seen.extend(page.items.iter().map(|item| item.envelope.event_id));
        cursor = FeedCursor::parse(&page.next).expect("next is a cursor");
        if seen.len() >= stored {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let unique: std::collections::HashSet<_> = seen.iter().collect();
    assert_eq!(unique.len(), seen.len(), "no event read twice");
    assert_eq!(seen.len(), stored, "every stored event read once");
}

/// Makes the statistics of `connection`'s backend (its only connection) visible to others.
async fn flush_statistics(connection: &arbiter::store::Store) {
    sqlx::query("SELECT pg_stat_force_next_flush()")
        .execute(connection.pool())
        .await
        .unwrap();
    // The backend flushes as it goes idle after that statement.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
}

/// Stores `group` through `writer` and checks that every append of it was stored.
async fn store_group(writer: &arbiter::store::Store, group: Vec<arbiter::store::PreparedAppend>) {
    let outcomes = writer.append_group(group).await.unwrap();
    assert!(
        outcomes
            .iter()
            .all(|o| matches!(o, arbiter::store::GroupedOutcome::Stored(_))),
        "{outcomes:?}"
    );
}

/// How many sequential scans of `games` the database has counted, `connection`'s included.
async fn sequential_scans_of_games(connection: &arbiter::store::Store) -> i64 {
    flush_statistics(connection).await;
    sqlx::query_scalar("SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'games'")
        .fetch_one(connection.pool())
        .await
        .unwrap()
}

/// Closes the test database's other pools and waits until no other client backend of the
/// database is left: a backend reports its statistics when it ends, so from then on every
/// scan counted is `connection`'s own (a pooled connection that ran the migrations could
/// otherwise report its scans of `games` up to ten seconds later, in the middle of a count).
async fn alone_in_the_database(db: &TestDb, connection: &arbiter::store::Store) {
    db.store.pool().close().await;
    db.service.pool().close().await;
    for _ in 0..600 {
        let others: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() \
             AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
        )
        .fetch_one(connection.pool())
        .await
        .unwrap();
        if others == 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the test database's other connections did not end within 30 s");
}

#[actix_web::test]
async fn a_group_finds_its_games_by_key_after_the_table_grew_under_a_plan_made_when_it_was_small() {
    use arbiter::store::{PreparedAppend, Store};
    let db = TestDb::new().await;
    // One connection: every group below runs on the same backend, under its cached plan.
    let writer = Store::connect_as_service(&db.url, 1, "arbiter_service")
        .await
        .unwrap();
    // The games are created through `writer` too, and every other connection is gone before
    // anything is counted: a scan of `games` by another backend could reach the statistics
    // late (an idle backend reports up to ten seconds later) and be counted below as the
    // groups'.
    let games = [
        new_game_through(&writer).await,
        new_game_through(&writer).await,
    ];
    alone_in_the_database(&db, &writer).await;
    let sans = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
    ];
    // A new game's log holds `game_created` at seq 1.
    let mut seq = 1;
    let group_of_both = |seq: u64| {
        let by = if seq % 2 == 1 { "white" } else { "black" };
        let san = sans[seq as usize - 1];
        games
            .iter()
            .map(|game| PreparedAppend::new(*game, seq, &[a_move(by, san)], "a", None).unwrap())
            .collect::<Vec<_>>()
    };
    // Enough runs for PostgreSQL to settle on the plan it keeps, made while `games` is tiny.
    while seq < 8 {
        store_group(&writer, group_of_both(seq)).await;
        seq += 1;
    }
    // The tournament grows: thousands of games, no ANALYZE yet. Written through `writer`,
    // whose statistics are flushed below: this statement's own scan of `games` is counted
    // before the groups run, however late another connection would have reported it.
    sqlx::query(
        "INSERT INTO games (game_id, created_at, event_name, round, white, black, settings, \
         last_seq, updated_at) \
         SELECT gen_random_uuid(), now(), 'Grown Open', '1', 'a', 'b', settings, 0, now() \
           FROM games, generate_series(1, 2500) LIMIT 5000",
    )
    .execute(writer.pool())
    .await
    .unwrap();
    let before = sequential_scans_of_games(&writer).await;
    while seq < 11 {
        store_group(&writer, group_of_both(seq)).await;
        seq += 1;
    }
    let after = sequential_scans_of_games(&writer).await;
    assert_eq!(
        after - before,
        0,
        "the groups scanned the whole of `games` instead of finding their rows by key"
    );
    for game in games {
        assert!(writer.verify_chain(game).await.unwrap().intact);
    }
}

#[actix_web::test]
async fn the_group_functions_are_declared_to_keep_their_generic_plan_whatever_the_statistics_say() {
    // Migration 0018: with the statistics of a million stored events PostgreSQL kept planning
    // the group statement afresh on every call (the planner at 18 % of the database's CPU,
    // single-move appends 29 % slower than on an empty database). A function replaced later
    // without the setting loses it, and this test finds that.
    let db = TestDb::new().await;
    let settings: Vec<(String, Vec<String>)> = sqlx::query_as(
        "SELECT proname::text, coalesce(proconfig, '{}') FROM pg_proc \
          WHERE proname IN ('events_append_group', 'events_append_group_linked') \
          ORDER BY proname",
    )
    .fetch_all(db.store.pool())
    .await
    .unwrap();
    assert_eq!(settings.len(), 2, "{settings:?}");
    for (function, config) in settings {
        for wanted in [
            "plan_cache_mode=force_generic_plan",
            "enable_seqscan=off",
            "enable_hashjoin=off",
            "enable_mergejoin=off",
        ] {
            assert!(
                config.iter().any(|setting| setting == wanted),
                "{function} lacks {wanted}: {config:?}"
            );
        }
    }
}

/// How many scans of the index `index` the database has counted, `connection`'s included.
async fn index_scans(db: &TestDb, connection: &arbiter::store::Store, index: &str) -> i64 {
    flush_statistics(connection).await;
    sqlx::query_scalar("SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = $1")
        .bind(index)
        .fetch_one(db.store.pool())
        .await
        .unwrap()
}

#[actix_web::test]
async fn the_chain_trigger_finds_the_previous_row_by_the_primary_key_on_a_fresh_database() {
    use arbiter::store::{PreparedAppend, Store};
    let db = TestDb::new().await;
    // One connection: every insert below runs the trigger under the plan this backend keeps,
    // made while `events` holds a handful of rows.
    let writer = Store::connect_as_service(&db.url, 1, "arbiter_service")
        .await
        .unwrap();
    let game = new_game(&db).await;
    let knights = [
        ("white", "Nf3"),
        ("black", "Nf6"),
        ("white", "Ng1"),
        ("black", "Ng8"),
    ];
    let by_type_before = index_scans(&db, &writer, "events_game_type_idx").await;
    let by_key_before = index_scans(&db, &writer, "events_game_seq_key").await;
    // Knights out and back: 40 appends of one move each, stored as they are (no engine here).
    for seq in 1..=40u64 {
        let (by, san) = knights[(seq as usize - 1) % 4];
        let append = PreparedAppend::new(game, seq, &[a_move(by, san)], "a", None).unwrap();
        store_group(&writer, vec![append]).await;
    }
    let by_type = index_scans(&db, &writer, "events_game_type_idx").await - by_type_before;
    let by_key = index_scans(&db, &writer, "events_game_seq_key").await - by_key_before;
    assert_eq!(
        by_type, 0,
        "the trigger read the game's rows through (game_id, event_type), every row of the game per insert"
    );
    assert!(by_key >= 40, "one primary-key lookup per insert: {by_key}");
    assert!(db.store.verify_chain(game).await.unwrap().intact);
}

/// Checks that `error` is the database's refusal of a row that does not follow a stored one
/// (`events_seq_contiguous`), named at event `seq` of `game`.
fn refused_as_a_gap_at(error: &sqlx::Error, seq: u64, game: Uuid) {
    let refused = error.as_database_error().expect("refused by the database");
    assert_eq!(
        refused.constraint(),
        Some("events_seq_contiguous"),
        "{error}"
    );
    assert!(
        refused
            .message()
            .starts_with(&format!("event {seq} of game {game} does not follow")),
        "{error}"
    );
}

#[actix_web::test]
async fn a_group_of_a_hundred_moves_stores_the_hashes_event_hash_input_and_the_offline_verifier_give()
 {
    use arbiter::store::GroupLinks;
    // Linked row by row by the chain trigger, and by the long appends' own function
    // (migration 0017): the same bytes either way.
    for links in [GroupLinks::ByTrigger, GroupLinks::ByGroup] {
        group_of_a_hundred_moves_linked_by(links).await;
    }
}

async fn group_of_a_hundred_moves_linked_by(links: arbiter::store::GroupLinks) {
    use arbiter::game::event::ClockReading;
    use arbiter::store::PreparedAppend;
    let db = TestDb::new().await;
    let games = [new_game(&db).await, new_game(&db).await];
    let knights = [
        ("white", "Nf3"),
        ("black", "Nf6"),
        ("white", "Ng1"),
        ("black", "Ng8"),
    ];
    // 100 moves per game, in one statement: times with and without microseconds and none,
    // clocks and none, and a recorder whose name needs escaping.
    let moves = |game: usize| {
        (0..100u32)
            .map(|ply| {
                let (by, san) = knights[ply as usize % 4];
                let mut event = a_move(by, san);
                if ply % 3 != 0 {
                    event.occurred_at = Some(
                        chrono::DateTime::from_timestamp(
                            1_795_000_000 + i64::from(ply),
                            (ply * 1_000 * (game as u32 + 7)) % 1_000_000_000,
                        )
                        .unwrap(),
                    );
                }
                if ply % 2 == 0 {
                    event.clock = Some(ClockReading {
                        white_ms: Some(5_400_000 - u64::from(ply) * 1_013),
                        black_ms: (ply % 4 == 0).then_some(5_400_000 - u64::from(ply) * 977),
                    });
                }
                event
            })
            .collect::<Vec<_>>()
    };
    let recorder = "Arbiter \"Ann\" Øvergaard \\ (arbiter, token x)";
    let group = games
        .iter()
        .enumerate()
        .map(|(index, game)| PreparedAppend::new(*game, 1, &moves(index), recorder, None).unwrap())
        .collect();
    let outcomes = db.store.append_group_linked_by(group, links).await.unwrap();
    assert!(
        outcomes
            .iter()
            .all(|o| matches!(o, arbiter::store::GroupedOutcome::Stored(_))),
        "{outcomes:?}"
    );
    let (stored, differing, unlinked): (i64, i64, i64) = sqlx::query_as(
        "SELECT count(*), \
                count(*) FILTER (WHERE hash <> sha256(prev_hash || convert_to(event_hash_input( \
                    game_id, seq, event_id, event_type, payload, metadata, recorded_at, \
                    occurred_at, recorded_by), 'UTF8'))), \
                count(*) FILTER (WHERE seq > 1 AND prev_hash IS DISTINCT FROM ( \
                    SELECT p.hash FROM events p WHERE p.game_id = e.game_id AND p.seq = e.seq - 1)) \
           FROM events e WHERE game_id = ANY($1)",
    )
    .bind(games.to_vec())
    .fetch_one(db.store.pool())
    .await
    .unwrap();
    assert_eq!(stored, 202, "game_created and 100 moves of each game");
    assert_eq!(differing, 0, "hashed otherwise than event_hash_input");
    assert_eq!(
        unlinked, 0,
        "a prev_hash that is not the previous row's hash"
    );
    for game in games {
        assert!(db.store.verify_chain(game).await.unwrap().intact);
        // The offline verifier (`arbiter verify FILE`) rebuilds the same bytes in Rust.
        let export: String = db
            .store
            .game_log(game)
            .await
            .unwrap()
            .iter()
            .map(|envelope| serde_json::to_string(envelope).unwrap() + "\n")
            .collect();
        let verified = arbiter::integrity::verify_export(&export, None);
        assert!(verified.is_ok(), "{verified:?}");
    }
    // Rows of one statement that leave a gap: refused at the first row that does not follow a
    // stored one, and nothing of the statement is stored.
    let gap = sqlx::query(
        "INSERT INTO events (game_id, seq, event_id, batch_id, event_type, payload, \
         recorded_by, prev_hash, hash) \
         SELECT $1, seq, gen_random_uuid(), gen_random_uuid(), 'move', \
                '{\"type\": \"move\", \"by\": \"white\", \"san\": \"Nf3\"}', 'x', ''::bytea, ''::bytea \
           FROM unnest(ARRAY[102, 103, 105, 106]::bigint[]) AS seq",
    )
    .bind(games[0])
    .execute(db.store.pool())
    .await
    .expect_err("a gap is refused");
    refused_as_a_gap_at(&gap, 105, games[0]);
    assert_eq!(
        db.event_count().await,
        202,
        "nothing of the refused statement"
    );
    // The long appends' function checks the same: a group whose rows skip a seq is refused
    // at the row that does not follow, and stores nothing; after a group it stored, the
    // setting under which the trigger keeps its links is off again.
    let call = |seqs: &'static str, last: i64| {
        format!(
            "SELECT * FROM events_append_group_linked(ARRAY[$1]::uuid[], ARRAY[101]::bigint[], \
             ARRAY[{last}]::bigint[], ARRAY[false], ARRAY[NULL]::text[], ARRAY[NULL]::text[], \
             ARRAY[NULL]::text[], array_fill($1, ARRAY[cardinality({seqs}::bigint[])]), \
             {seqs}::bigint[], ARRAY(SELECT gen_random_uuid() FROM unnest({seqs}::bigint[])), \
             array_fill(gen_random_uuid(), ARRAY[cardinality({seqs}::bigint[])]), \
             array_fill('move'::text, ARRAY[cardinality({seqs}::bigint[])]), \
             array_fill('{{\"type\": \"move\", \"by\": \"white\", \"san\": \"Nf3\"}}'::jsonb, ARRAY[cardinality({seqs}::bigint[])]), \
             array_fill('{{}}'::jsonb, ARRAY[cardinality({seqs}::bigint[])]), \
             array_fill(NULL::timestamptz, ARRAY[cardinality({seqs}::bigint[])]), \
             array_fill('x'::text, ARRAY[cardinality({seqs}::bigint[])]))"
        )
    };
    let gap = sqlx::query(sqlx::AssertSqlSafe(call("ARRAY[102, 104]", 103)))
        .bind(games[0])
        .fetch_all(db.store.pool())
        .await
        .expect_err("a gap is refused");
    refused_as_a_gap_at(&gap, 104, games[0]);
    assert_eq!(db.event_count().await, 202, "nothing of the refused group");
    let mut tx = db.store.pool().begin().await.unwrap();
    let stored = sqlx::query(sqlx::AssertSqlSafe(call("ARRAY[102]", 102)))
        .bind(games[0])
        .fetch_all(&mut *tx)
        .await
        .unwrap();
    assert_eq!(stored.len(), 1);
    let setting: String =
        sqlx::query_scalar("SELECT current_setting('arbiter.linked_by_group', true)")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    assert_eq!(setting, "off");
    tx.rollback().await.unwrap();
}

#[actix_web::test]
async fn a_long_append_is_written_by_a_writer_of_its_own_while_the_short_appends_group_waits() {
    use std::time::Duration;
    let db = TestDb::new().await;
    let arbitration = Arbitration::new(db.service.clone())
        .with_group_commit(1, 1000)
        .with_bulk_group_commit(1, 8, 1000);
    let blocker = new_game(&db).await;
    let long = new_game(&db).await;
    arbitration
        .record(blocker, 1, vec![a_move("white", "e4")], "a")
        .await
        .unwrap();
    // Another writer holds the blocker's summary row: the short appends' writer waits on it.
    let (holder, blocked) = blocked_behind_a_held_row(&db, &arbitration, blocker).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Twelve moves of another game in one append: long, so not queued behind the group that
    // waits.
    let sans = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5",
    ];
    let moves: Vec<_> = sans
        .iter()
        .enumerate()
        .map(|(ply, san)| a_move(if ply % 2 == 0 { "white" } else { "black" }, san))
        .collect();
    let stored = tokio::time::timeout(
        Duration::from_secs(10),
        arbitration.record(long, 1, moves, "a"),
    )
    .await
    .expect("the long append does not wait for the short appends' group")
    .expect("stored");
    assert!(stored.newly_stored);
    assert_eq!(stored.envelopes.len(), 12);
    assert!(
        !blocked.is_finished(),
        "the short append still waits for the row"
    );
    holder.commit().await.unwrap();
    assert!(blocked.await.unwrap().expect("stored").newly_stored);
    for game in [blocker, long] {
        assert!(db.store.verify_chain(game).await.unwrap().intact);
    }
}

#[actix_web::test]
async fn a_group_writer_gives_its_connection_back_to_the_pool_as_soon_as_nothing_is_queued() {
    use std::time::Duration;
    let db = TestDb::new().await;
    let arbitration = Arbitration::new(db.service.clone()).with_group_commit(1, 1000);
    let mut games = Vec::new();
    for _ in 0..8 {
        games.push(new_game(&db).await);
    }
    // Groups that follow each other without a pause: eight games, two moves each, sent at once.
    for (seq, by, san) in [(1, "white", "e4"), (2, "black", "e5")] {
        let sent: Vec<_> = games
            .iter()
            .map(|game| {
                let (arbitration, game) = (arbitration.clone(), *game);
                actix_web::rt::spawn(async move {
                    arbitration
                        .record(game, seq, vec![a_move(by, san)], "a")
                        .await
                })
            })
            .collect();
        for reply in sent {
            assert!(reply.await.unwrap().expect("stored").newly_stored);
        }
    }
    // Nothing is queued now: every connection the service's pool opened is idle again, so
    // none is kept past a failover's check (docs/operations.md), and closing the pool at
    // shutdown does not wait for a writer.
    let pool = db.service.pool();
    let started = std::time::Instant::now();
    while pool.num_idle() < pool.size() as usize {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the writer still holds a connection: {} of {} idle",
            pool.num_idle(),
            pool.size()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    for game in games {
        assert!(db.store.verify_chain(game).await.unwrap().intact);
    }
}

#[actix_web::test]
async fn a_game_created_through_the_api_is_warm_and_judged_on_that_state_as_on_its_folded_log() {
    let db = TestDb::new().await;
    let state = db.state();
    let api = api_with_state(&db, state.clone()).await;
    let game = api.create_standard_game().await;
    assert!(
        state.arbitration.is_warm(game),
        "kept warm from its creation"
    );
    // A stale first append is still told the current seq.
    let one_move = json!([{"type": "move", "by": "white", "san": "e4"}]);
    let Reply { status, body, .. } = api.append_events(game, 0, one_move.clone()).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["current_seq"], 1, "{body}");
    let moves = json!([
        {"type": "move", "by": "white", "san": "e4"},
        {"type": "move", "by": "black", "san": "e5"},
        {"type": "resign", "by": "black"}
    ]);
    let Reply { status, body, .. } = api.append_events(game, 1, moves.clone()).await;
    assert_eq!(status, 201, "{body}");
    // The same appends on a game that another instance created (folded from its log) get
    // the same answers, decision for decision.
    let creator = crate::client::api(&db).await;
    let other = creator.create_standard_game().await;
    let Reply {
        status,
        body: folded,
        ..
    } = api.append_events(other, 1, moves).await;
    assert_eq!(status, 201, "{folded}");
    let kinds = |body: &Value| -> Vec<(Value, Value)> {
        body["events"]
            .as_array()
            .expect("events")
            .iter()
            .map(|e| (e["seq"].clone(), e["event"].clone()))
            .collect()
    };
    assert_eq!(kinds(&body), kinds(&folded));
    assert_eq!(body["last_seq"], 5, "the resignation ends the game: {body}");
}

//! Live streams over a real HTTP server (bound on port 0 in the test) read with `reqwest`:
//! snapshots, resuming with `Last-Event-ID`, events committed by another service instance,
//! the end of a game, corrections, round streams and the public view.

use crate::client::{Api, api, api_with_state};
use crate::support::{TestDb, assert_problem};
use actix_web::{HttpServer, test};
use arbiter::state::AppState;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use uuid::Uuid;

/// How long a test waits for one message before failing.
const PATIENCE: Duration = Duration::from_secs(15);

/// A service instance serving HTTP on a free port of 127.0.0.1.
struct Server {
    base: String,
    handle: actix_web::dev::ServerHandle,
}

impl Server {
    async fn start(state: AppState) -> Server {
        let server = HttpServer::new(move || arbiter::startup::app(state.clone()))
            .workers(1)
            .disable_signals()
            .bind(("127.0.0.1", 0))
            .expect("bind a free port");
        let address = server.addrs()[0];
        let server = server.run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        Server {
            base: format!("http://{address}"),
            handle,
        }
    }

    async fn stop(self) {
        self.handle.stop(false).await;
    }
}

/// One message of an event stream.
#[derive(Debug, Clone)]
struct Message {
    id: String,
    event: String,
    data: Value,
}

/// An open event stream, read chunk by chunk.
struct EventStream {
    response: reqwest::Response,
    buffer: String,
    /// Whether a `retry:` field was seen.
    retry_seen: bool,
}

impl EventStream {
    async fn open(url: &str, token: &str, last_event_id: Option<&str>) -> EventStream {
        let response = request(url, token, last_event_id).await;
        assert_eq!(response.status(), 200, "the stream at {url} opens");
        let headers = response.headers();
        assert_eq!(headers["content-type"], "text/event-stream");
        assert_eq!(headers["cache-control"], "no-cache");
        assert_eq!(headers["x-accel-buffering"], "no");
        EventStream {
            response,
            buffer: String::new(),
            retry_seen: false,
        }
    }

    /// The next message, or `None` when the server closed the stream.
    async fn next(&mut self) -> Option<Message> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut id = None;
                let mut event = None;
                let mut data = Vec::new();
                for line in block.lines() {
                    if let Some(value) = line.strip_prefix("id: ") {
                        id = Some(value.to_string());
                    } else if let Some(value) = line.strip_prefix("event: ") {
                        event = Some(value.to_string());
                    } else if let Some(value) = line.strip_prefix("data: ") {
                        data.push(value.to_string());
                    } else if line.starts_with("retry:") {
                        self.retry_seen = true;
                    }
                }
                if data.is_empty() {
                    continue; // a comment (keep-alive) or the retry field
                }
                let data = data.join("\n");
                return Some(Message {
                    id: id.expect("every message has an id"),
                    event: event.expect("every message names its event"),
                    data: serde_json::from_str(&data).expect("data is JSON"),
                });
            }
            let chunk = tokio::time::timeout(PATIENCE, self.response.chunk())
                .await
                .expect("a message within the test's patience")
                .expect("the stream reads");
            match chunk {
                Some(bytes) => self.buffer.push_str(&String::from_utf8_lossy(&bytes)),
                None => return None,
            }
        }
    }

    /// Whether nothing arrives within `quiet` (the stream stays open and silent).
    async fn silent_for(&mut self, quiet: Duration) -> bool {
        tokio::time::timeout(quiet, self.next()).await.is_err()
    }
}

async fn request(url: &str, token: &str, last_event_id: Option<&str>) -> reqwest::Response {
    let client = reqwest::Client::new();
    let mut request = client
        .get(url)
        .header("Authorization", format!("Bearer {token}"));
    if let Some(id) = last_event_id {
        request = request.header("Last-Event-ID", id);
    }
    request.send().await.expect("the server answers")
}

fn moves(sans: &[&str], first_by_white: bool) -> Value {
    let events: Vec<Value> = sans
        .iter()
        .enumerate()
        .map(|(i, san)| {
            let white = (i % 2 == 0) == first_by_white;
            json!({"type": "move", "by": if white { "white" } else { "black" }, "san": san})
        })
        .collect();
    Value::Array(events)
}

fn seq_of(message: &Message) -> u64 {
    message.id.parse().expect("a game stream's id is a seq")
}

#[actix_web::test]
async fn a_new_subscriber_first_gets_a_snapshot_with_players_position_moves_and_clocks() {
    let db = TestDb::new().await;
    let writer = api(&db).await;
    let game = writer.create_standard_game().await;
    writer
        .append_events(
            game,
            1,
            json!([
                {"type": "move", "by": "white", "san": "e4"},
                {"type": "clock_press", "by": "white", "white_ms": 5_390_000},
                {"type": "move", "by": "black", "san": "c5"}
            ]),
        )
        .await
        .expect(201);
    let server = db.spawn_app(|_| {}).await;
    let mut stream = EventStream::open(
        &format!("{}/v1/games/{game}/stream", server.base),
        &db.reader,
        None,
    )
    .await;
    let snapshot = stream.next().await.expect("a snapshot");
    assert_eq!(snapshot.event, "snapshot");
    assert_eq!(snapshot.id, "4", "the snapshot's id is the seq it reflects");
    assert_eq!(snapshot.data["seq"], 4);
    assert_eq!(snapshot.data["white"]["name"], "Carlsen, Magnus");
    assert_eq!(snapshot.data["white"]["fide_id"], 1503014);
    assert_eq!(snapshot.data["moves"], json!(["e4", "c5"]));
    assert_eq!(snapshot.data["ply"], 2);
    assert_eq!(
        snapshot.data["fen"],
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(snapshot.data["clocks"]["white_ms"], 5_390_000);
    assert_eq!(snapshot.data["clocks"]["black_ms"], 5_400_000);
    assert_eq!(snapshot.data["status"], "in_progress");
    assert_eq!(snapshot.data["result"], Value::Null);
    assert!(
        stream.retry_seen,
        "the stream tells EventSource its retry delay"
    );
    // A move recorded now follows, with the position after it.
    writer.append_events(game, 4, moves(&["Nf3"], true)).await;
    let next = stream.next().await.expect("the move");
    assert_eq!((next.id.as_str(), next.event.as_str()), ("5", "move"));
    assert_eq!(next.data["seq"], 5);
    assert_eq!(next.data["event"]["san"], "Nf3");
    assert_eq!(next.data["position"]["san"], "Nf3");
    assert_eq!(next.data["position"]["uci"], "g1f3");
    assert_eq!(next.data["position"]["ply"], 3);
    assert_eq!(
        next.data["position"]["fen"],
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    assert_eq!(next.data["position"]["clocks"]["white_ms"], 5_390_000);
    assert!(next.data["hash"].as_str().is_some_and(|h| h.len() == 64));
    drop(stream);
    server.stop().await;
}

#[actix_web::test]
async fn a_subscriber_sees_every_event_exactly_once_across_a_reconnect_with_last_event_id() {
    let db = TestDb::new().await;
    let writer = api(&db).await;
    let game = writer.create_standard_game().await;
    let server = db.spawn_app(|_| {}).await;
    let url = format!("{}/v1/games/{game}/stream", server.base);
    let mut stream = EventStream::open(&url, &db.reader, None).await;
    let snapshot = stream.next().await.expect("a snapshot");
    assert_eq!(snapshot.id, "1");
    let mut received: Vec<u64> = Vec::new();
    writer
        .append_events(game, 1, moves(&["e4", "e5"], true))
        .await;
    for _ in 0..2 {
        received.push(seq_of(&stream.next().await.expect("a move")));
    }
    // The client goes away; events are recorded meanwhile, in several appends.
    drop(stream);
    writer.append_events(game, 3, moves(&["Nf3"], true)).await;
    writer
        .append_events(game, 4, moves(&["Nc6", "Bb5"], false))
        .await;
    let last_id = received.last().expect("two received").to_string();
    let mut resumed = EventStream::open(&url, &db.reader, Some(&last_id)).await;
    for _ in 0..3 {
        let message = resumed.next().await.expect("the events recorded meanwhile");
        assert_ne!(
            message.event, "snapshot",
            "a resumed stream sends no snapshot"
        );
        received.push(seq_of(&message));
    }
    writer.append_events(game, 6, moves(&["a6"], false)).await;
    received.push(seq_of(&resumed.next().await.expect("a live move")));
    assert_eq!(
        received,
        vec![2, 3, 4, 5, 6, 7],
        "every event exactly once, in order"
    );
    assert!(
        resumed.silent_for(Duration::from_millis(500)).await,
        "nothing is sent twice"
    );
    drop(resumed);
    server.stop().await;
}

#[actix_web::test]
async fn events_committed_by_another_instance_reach_a_subscriber_of_the_first() {
    let db = TestDb::new().await;
    // Instance one serves the stream; instance two records, with its own state and pool.
    let first = db.spawn_app(|_| {}).await;
    let other_store =
        arbiter::store::Store::connect_as_service(&database_url(&db.name), 4, "arbiter_service")
            .await
            .expect("a second pool");
    let second = api_with_state(&db, AppState::new(other_store.clone())).await;
    let game = second.create_standard_game().await;
    let mut stream = EventStream::open(
        &format!("{}/v1/games/{game}/stream", first.base),
        &db.reader,
        None,
    )
    .await;
    assert_eq!(stream.next().await.expect("a snapshot").event, "snapshot");
    second
        .append_events(game, 1, moves(&["d4", "Nf6", "c4"], true))
        .await
        .expect(201);
    let mut sans = Vec::new();
    for _ in 0..3 {
        let message = stream.next().await.expect("a move from the other instance");
        sans.push(
            message.data["position"]["san"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    assert_eq!(sans, ["d4", "Nf6", "c4"]);
    drop(stream);
    first.stop().await;
    other_store.pool().close().await;
}

fn database_url(name: &str) -> String {
    let admin = crate::support::admin_url();
    let slash = admin.rfind('/').expect("a database in the admin URL");
    format!("{}/{name}", &admin[..slash])
}

#[actix_web::test]
async fn the_game_stream_closes_after_game_ended_and_a_reconnect_after_it_is_told_204() {
    let db = TestDb::new().await;
    let writer = api(&db).await;
    let game = writer.create_standard_game().await;
    let server = db.spawn_app(|_| {}).await;
    let url = format!("{}/v1/games/{game}/stream", server.base);
    let mut stream = EventStream::open(&url, &db.reader, None).await;
    stream.next().await.expect("a snapshot");
    // Fool's mate: the engine ends the game (5.1.1) in the same append.
    writer
        .append_events(game, 1, moves(&["f3", "e5", "g4", "Qh4#"], true))
        .await;
    let mut events = Vec::new();
    while let Some(message) = stream.next().await {
        events.push((message.event.clone(), seq_of(&message)));
    }
    assert_eq!(
        events,
        vec![
            ("move".to_string(), 2),
            ("move".to_string(), 3),
            ("move".to_string(), 4),
            ("move".to_string(), 5),
            ("game_ended".to_string(), 6)
        ],
        "the stream sends game_ended, then closes"
    );
    let again = request(&url, &db.reader, Some("6")).await;
    assert_eq!(
        again.status(),
        204,
        "nothing new after the end: EventSource stops"
    );
    // A new subscriber of the ended game gets its snapshot, then the stream closes.
    let mut late = EventStream::open(&url, &db.reader, None).await;
    let snapshot = late.next().await.expect("a snapshot");
    assert_eq!(snapshot.data["status"], "ended");
    assert_eq!(snapshot.data["result"], "0-1");
    assert_eq!(snapshot.data["termination"], "checkmate");
    assert!(late.next().await.is_none(), "closed after the snapshot");
    server.stop().await;
}

#[actix_web::test]
async fn a_correction_carries_the_position_it_returns_to_and_can_reopen_an_ended_game() {
    let db = TestDb::new().await;
    let writer = api(&db).await;
    let game = writer.create_standard_game().await;
    writer
        .append_events(game, 1, moves(&["e4", "e5", "Nf3"], true))
        .await;
    let server = db.spawn_app(|_| {}).await;
    let url = format!("{}/v1/games/{game}/stream", server.base);
    let mut stream = EventStream::open(&url, &db.reader, Some("4")).await;
    // Nf3 was typed on the wrong board: the correction retracts it.
    writer.append_events(game,
        4,
        json!([{"type": "correction", "retracts_seq": 4, "reason": "typed on the wrong board"}]),
    )
    .await.expect(201);
    let correction = stream.next().await.expect("the correction");
    assert_eq!(correction.event, "correction");
    assert_eq!(correction.id, "5");
    let returns_to = &correction.data["returns_to"];
    assert_eq!(returns_to["moves"], json!(["e4", "e5"]));
    assert_eq!(returns_to["ply"], 2);
    assert_eq!(
        returns_to["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(returns_to["status"], "in_progress");
    // A resignation ends the game (the stream closes); its correction reopens it, and a
    // client that opens the stream again follows it.
    writer
        .append_events(game, 5, json!([{"type": "resign", "by": "white"}]))
        .await;
    let mut ended = Vec::new();
    while let Some(message) = stream.next().await {
        ended.push(message.event);
    }
    assert_eq!(ended, ["resign", "game_ended"]);
    writer
        .append_events(
            game,
            7,
            json!([{"type": "correction", "retracts_seq": 6, "reason": "the arbiter misheard"}]),
        )
        .await;
    let mut reopened = EventStream::open(&url, &db.reader, Some("7")).await;
    let correction = reopened
        .next()
        .await
        .expect("the correction of the resignation");
    assert_eq!(correction.data["returns_to"]["status"], "in_progress");
    assert_eq!(correction.data["returns_to"]["result"], Value::Null);
    assert!(
        reopened.silent_for(Duration::from_millis(300)).await,
        "the game goes on: the stream stays open"
    );
    drop(reopened);
    server.stop().await;
}

/// Creates a game of `Round Robin 2026`, round `3`, on `board`.
async fn create_round_game(api: &Api<'_>, board: u32) -> Uuid {
    let settings = json!({
        "white": {"name": format!("White {board}"), "fide_id": 1000 + board},
        "black": {"name": format!("Black {board}"), "fide_id": 2000 + board},
        "event": "Round Robin 2026", "round": "3", "board": board,
        "time_control": {"kind": "rapid", "base_ms": 900_000, "increment_ms": 10_000}
    });
    let body = api.create_game(&settings).await.expect(201);
    body["game"]["game_id"].as_str().unwrap().parse().unwrap()
}

#[actix_web::test]
async fn a_round_stream_starts_with_a_snapshot_per_game_and_resumes_after_its_cursor() {
    let db = TestDb::new().await;
    let writer = api(&db).await;
    let board_one = create_round_game(&writer, 1).await;
    let board_two = create_round_game(&writer, 2).await;
    writer
        .append_events(board_one, 1, moves(&["e4"], true))
        .await;
    let server = db.spawn_app(|_| {}).await;
    let url = format!(
        "{}/v1/rounds/stream?event=Round%20Robin%202026&round=3",
        server.base
    );
    let mut stream = EventStream::open(&url, &db.reader, None).await;
    let first = stream.next().await.expect("board 1's snapshot");
    let second = stream.next().await.expect("board 2's snapshot");
    assert_eq!(
        (first.event.as_str(), second.event.as_str()),
        ("snapshot", "snapshot")
    );
    assert_eq!(first.data["game_id"], board_one.to_string());
    assert_eq!(first.data["moves"], json!(["e4"]));
    assert_eq!(second.data["game_id"], board_two.to_string());
    assert_eq!(first.id, second.id, "both reflect the same cursor");
    assert!(arbiter::store::FeedCursor::parse(&first.id).is_some());
    writer
        .append_events(board_two, 1, moves(&["d4"], true))
        .await;
    let live = stream.next().await.expect("board 2's move");
    assert_eq!(live.data["game_id"], board_two.to_string());
    assert_eq!(live.data["cursor"], live.id);
    drop(stream);
    // Meanwhile: moves on both boards, and a game of another round that must not appear.
    let elsewhere = writer.create_standard_game().await;
    writer
        .append_events(board_one, 2, moves(&["c5"], false))
        .await;
    writer
        .append_events(elsewhere, 1, moves(&["c4"], true))
        .await;
    writer
        .append_events(board_two, 2, moves(&["d5", "c4"], false))
        .await;
    let mut resumed = EventStream::open(&url, &db.reader, Some(&live.id)).await;
    let mut seen = Vec::new();
    for _ in 0..3 {
        let message = resumed
            .next()
            .await
            .expect("the round's events after the cursor");
        assert_ne!(message.event, "snapshot");
        seen.push((
            message.data["game_id"].as_str().unwrap().to_string(),
            message.data["position"]["san"]
                .as_str()
                .unwrap()
                .to_string(),
        ));
    }
    assert_eq!(
        seen,
        vec![
            (board_one.to_string(), "c5".to_string()),
            (board_two.to_string(), "d5".to_string()),
            (board_two.to_string(), "c4".to_string()),
        ]
    );
    // The round stream stays open after a game ends (appeals may follow).
    writer
        .append_events(board_one, 3, json!([{"type": "resign", "by": "black"}]))
        .await;
    let resign = resumed.next().await.expect("the resignation");
    assert_eq!(resign.event, "resign");
    assert_eq!(resumed.next().await.expect("the end").event, "game_ended");
    assert!(
        resumed.silent_for(Duration::from_millis(300)).await,
        "still open after the game ended"
    );
    drop(resumed);
    server.stop().await;
}

#[actix_web::test]
async fn the_public_stream_is_delayed_and_never_shows_touches_or_claims_during_the_game() {
    let db = TestDb::new().await;
    let delay = Duration::from_secs(2);
    let writer = api(&db).await;
    let game = writer.create_standard_game().await;
    writer.append_events(game, 1, moves(&["e4"], true)).await;
    let mut state = db.state();
    state.streams = state.streams.with_broadcast_delay(delay);
    let server = Server::start(state).await;
    let public_url = format!("{}/v1/broadcast/games/{game}/stream", server.base);
    tokio::time::sleep(delay).await;
    let mut public = EventStream::open(&public_url, &db.reader, None).await;
    let snapshot = public
        .next()
        .await
        .expect("a snapshot of what is old enough");
    assert_eq!(snapshot.data["moves"], json!(["e4"]));
    let recorded = Instant::now();
    writer
        .append_events(
            game,
            2,
            json!([
                {"type": "touch", "by": "black", "square": "g8"},
                {"type": "move", "by": "black", "san": "Nf6"},
                {"type": "claim", "by": "white", "kind": "repetition"}
            ]),
        )
        .await;
    let next = public.next().await.expect("the move, after the delay");
    assert!(
        recorded.elapsed() >= delay - Duration::from_millis(100),
        "the public saw the move {:?} after it was recorded",
        recorded.elapsed()
    );
    assert_eq!(next.event, "move", "the touch is never public");
    assert_eq!(next.data["position"]["san"], "Nf6");
    assert!(
        public.silent_for(Duration::from_millis(800)).await,
        "the claim, its ruling and penalty are not streamed to the public during the game"
    );
    // The full view has everything at once.
    let full_url = format!("{}/v1/games/{game}/stream", server.base);
    let mut full = EventStream::open(&full_url, &db.arbiter, Some("2")).await;
    let mut full_events = Vec::new();
    for _ in 0..5 {
        full_events.push(full.next().await.expect("every event").event);
    }
    assert_eq!(
        full_events,
        ["touch", "move", "claim", "claim_ruled", "penalty_applied"]
    );
    drop(full);
    drop(public);
    server.stop().await;
}

#[actix_web::test]
async fn the_subscriber_gauge_counts_open_streams() {
    let db = TestDb::new().await;
    let writer = api(&db).await;
    let game = writer.create_standard_game().await;
    let state = db.state();
    let streams = state.streams.clone();
    let server = Server::start(state).await;
    assert_eq!(streams.subscribers(), 0);
    let url = format!("{}/v1/games/{game}/stream", server.base);
    let mut stream = EventStream::open(&url, &db.reader, None).await;
    stream.next().await.expect("a snapshot");
    assert_eq!(streams.subscribers(), 1);
    drop(stream);
    // The server notices a client has gone when it next writes to it (an event, or the
    // keep-alive within 15 s): record moves so that it writes.
    let deadline = Instant::now() + PATIENCE;
    for (seq, san) in (1..).zip(["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]) {
        if streams.subscribers() == 0 || Instant::now() > deadline {
            break;
        }
        let by = if seq % 2 == 1 { "white" } else { "black" };
        writer
            .append_events(game, seq, json!([{"type": "move", "by": by, "san": san}]))
            .await;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(
        streams.subscribers(),
        0,
        "a closed connection is no subscriber"
    );
    server.stop().await;
}

#[actix_web::test]
async fn a_stream_needs_a_token_and_a_readable_last_event_id() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let uri = format!("/v1/games/{game}/stream");
    // Without a token: sent as built.
    let reply = api.send_as_built(test::TestRequest::get().uri(&uri)).await;
    assert_problem(&reply, 401, "missing_token");
    let reader = api.with_token(&db.reader);
    let reply = reader
        .send(
            test::TestRequest::get()
                .uri(&uri)
                .insert_header(("Last-Event-ID", "12-34")),
        )
        .await;
    assert_problem(&reply, 400, "invalid_last_event_id");
    reader
        .round_stream("event=Nowhere&round=9")
        .await
        .problem(404, "round_not_found");
    reader
        .game_stream(Uuid::new_v4())
        .await
        .problem(404, "game_not_found");
    reader
        .public_game_stream(Uuid::new_v4())
        .await
        .problem(404, "game_not_found");
}

/// The connections of the test database that listen for appends.
async fn listening_connections(db: &TestDb) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM pg_stat_activity \
         WHERE datname = current_database() AND query ILIKE 'LISTEN%'",
    )
    .fetch_one(db.store.pool())
    .await
    .expect("read pg_stat_activity")
}

#[actix_web::test]
async fn one_listening_connection_serves_every_subscriber_and_a_lost_one_loses_no_event() {
    let db = TestDb::new().await;
    let writer = api(&db).await;
    let game = create_round_game(&writer, 1).await;
    let server = db.spawn_app(|_| {}).await;
    let game_url = format!("{}/v1/games/{game}/stream", server.base);
    let round_url = format!(
        "{}/v1/rounds/stream?event=Round%20Robin%202026&round=3",
        server.base
    );
    let mut first = EventStream::open(&game_url, &db.reader, None).await;
    let mut second = EventStream::open(&game_url, &db.arbiter, None).await;
    let mut round = EventStream::open(&round_url, &db.reader, None).await;
    for stream in [&mut first, &mut second, &mut round] {
        assert_eq!(stream.next().await.expect("a snapshot").event, "snapshot");
    }
    assert_eq!(
        listening_connections(&db).await,
        1,
        "one LISTEN connection for the instance, not one per subscriber"
    );
    // The listening connection is killed; a move is recorded before it is back.
    let terminated: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND query ILIKE 'LISTEN%') AS killed",
    )
    .fetch_one(db.store.pool())
    .await
    .expect("terminate the listener");
    assert_eq!(terminated, 1);
    writer.append_events(game, 1, moves(&["e4"], true)).await;
    for stream in [&mut first, &mut second, &mut round] {
        let message = stream
            .next()
            .await
            .expect("the move, once the listener is back");
        assert_eq!(message.data["position"]["san"], "e4");
    }
    writer.append_events(game, 2, moves(&["e5"], false)).await;
    for stream in [&mut first, &mut second, &mut round] {
        let message = stream.next().await.expect("the next move");
        assert_eq!(message.data["position"]["san"], "e5");
    }
    drop((first, second, round));
    server.stop().await;
}

#[actix_web::test]
async fn a_round_stream_waits_behind_an_open_transaction_and_goes_on_when_it_aborts() {
    let db = TestDb::new().await;
    let writer = api(&db).await;
    let game = create_round_game(&writer, 1).await;
    let server = db.spawn_app(|_| {}).await;
    let url = format!(
        "{}/v1/rounds/stream?event=Round%20Robin%202026&round=3",
        server.base
    );
    let mut stream = EventStream::open(&url, &db.reader, None).await;
    assert_eq!(stream.next().await.expect("a snapshot").event, "snapshot");
    // A transaction that has a transaction id and stays open holds the feed's fence: what
    // commits after it began may not be read yet (it could still insert before it).
    let mut open = db.store.pool().begin().await.expect("begin");
    sqlx::query("SELECT pg_current_xact_id()")
        .execute(&mut *open)
        .await
        .expect("take a transaction id");
    writer.append_events(game, 1, moves(&["e4"], true)).await;
    assert!(
        stream.silent_for(Duration::from_millis(700)).await,
        "the move waits behind the open transaction"
    );
    // It aborts: nothing notifies, but the stream reads again and sends the move.
    open.rollback().await.expect("rollback");
    let message = stream
        .next()
        .await
        .expect("the move, once the fence has moved");
    assert_eq!(message.data["position"]["san"], "e4");
    drop(stream);
    server.stop().await;
}

#[actix_web::test]
async fn sigterm_with_a_stream_open_ends_the_stream_and_stops_the_service_within_seconds() {
    let db = TestDb::new().await;
    let writer = api(&db).await;
    let game = writer.create_standard_game().await;
    writer.append_events(game, 1, moves(&["e4"], true)).await;

    // `arbiter serve` itself, as an operator runs it.
    let port = crate::browser::free_port();
    let mut service = tokio::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "serve",
            "--database-url",
            &db.url,
            "--port",
            &port.to_string(),
        ])
        .env("ARBITER_LOG", "warn")
        .kill_on_drop(true)
        .spawn()
        .expect("arbiter serve starts");
    let base = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(60);
    while reqwest::get(format!("{base}/readyz")).await.is_err() {
        assert!(Instant::now() < deadline, "the service never became ready");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let mut stream =
        EventStream::open(&format!("{base}/v1/games/{game}/stream"), &db.reader, None).await;
    assert_eq!(stream.next().await.expect("a snapshot").event, "snapshot");

    let pid = service.id().expect("the service's pid").to_string();
    let signalled = Instant::now();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let status = tokio::time::timeout(Duration::from_secs(10), service.wait())
        .await
        .expect("the service stops within 10 s of SIGTERM")
        .expect("the service's exit status");
    let took = signalled.elapsed();
    assert!(status.success(), "a clean stop: {status}");
    assert!(
        took < Duration::from_secs(5),
        "stopped {took:?} after SIGTERM with a stream open"
    );
    assert!(
        tokio::time::timeout(Duration::from_secs(5), stream.next())
            .await
            .expect("the stream ends rather than hanging")
            .is_none(),
        "the stream ended"
    );
}

/// The next `count` messages of a stream.
async fn next_messages(stream: &mut EventStream, count: usize) -> Vec<Message> {
    let mut messages = Vec::with_capacity(count);
    for _ in 0..count {
        messages.push(stream.next().await.expect("the next message"));
    }
    messages
}

/// A message as compared between subscribers: its id, its event and its data.
fn seen(messages: &[Message]) -> Vec<(String, String, Value)> {
    messages
        .iter()
        .map(|m| (m.id.clone(), m.event.clone(), m.data.clone()))
        .collect()
}

const ROUND_STREAM: &str = "/v1/rounds/stream?event=Round%20Robin%202026&round=3";
const PUBLIC_ROUND_STREAM: &str = "/v1/broadcast/rounds/stream?event=Round%20Robin%202026&round=3";

#[actix_web::test]
async fn many_subscribers_of_one_round_share_one_source_and_get_identical_streams() {
    let db = TestDb::new().await;
    let writer = api(&db).await;
    let board_one = create_round_game(&writer, 1).await;
    let board_two = create_round_game(&writer, 2).await;
    writer
        .append_events(board_one, 1, moves(&["e4"], true))
        .await;
    let state = db.state();
    let streams = state.streams.clone();
    let server = Server::start(state).await;
    let mut subscribers = Vec::new();
    for _ in 0..8 {
        let url = format!("{}{PUBLIC_ROUND_STREAM}", server.base);
        subscribers.push(EventStream::open(&url, &db.reader, None).await);
    }
    let mut received: Vec<Vec<Message>> = Vec::new();
    for stream in &mut subscribers {
        received.push(next_messages(stream, 2).await);
    }
    assert_eq!(
        streams.round_sources(),
        1,
        "one source serves every subscriber of the round and audience"
    );
    writer
        .append_events(board_two, 1, moves(&["d4"], true))
        .await;
    writer
        .append_events(board_one, 2, moves(&["c5", "Nf3"], false))
        .await;
    writer
        .append_events(board_two, 2, moves(&["Nf6"], false))
        .await;
    for (stream, messages) in subscribers.iter_mut().zip(&mut received) {
        messages.extend(next_messages(stream, 4).await);
    }
    let first = seen(&received[0]);
    assert_eq!(
        first.iter().map(|m| m.1.as_str()).collect::<Vec<_>>(),
        ["snapshot", "snapshot", "move", "move", "move", "move"]
    );
    let sans: Vec<&str> = received[0][2..]
        .iter()
        .map(|m| m.data["position"]["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["d4", "c5", "Nf3", "Nf6"]);
    for other in &received[1..] {
        assert_eq!(seen(other), first, "every subscriber gets the same stream");
    }
    drop(subscribers);
    server.stop().await;
}

#[actix_web::test]
async fn a_round_is_read_once_per_wake_up_whatever_the_number_of_its_subscribers() {
    let db = TestDb::new().await;
    let writer = api(&db).await;
    let board = create_round_game(&writer, 1).await;
    let state = db.state();
    let streams = state.streams.clone();
    let server = Server::start(state).await;
    const SUBSCRIBERS: u64 = 25;
    let mut subscribers = Vec::new();
    for _ in 0..SUBSCRIBERS {
        let url = format!("{}{ROUND_STREAM}", server.base);
        let mut stream = EventStream::open(&url, &db.reader, None).await;
        assert_eq!(stream.next().await.expect("a snapshot").event, "snapshot");
        subscribers.push(stream);
    }
    let before = streams.round_feed_reads();
    writer.append_events(board, 1, moves(&["e4"], true)).await;
    for stream in &mut subscribers {
        let message = stream.next().await.expect("the move");
        assert_eq!(message.data["position"]["san"], "e4");
    }
    let reads = streams.round_feed_reads() - before;
    // One wake-up, one read; a few more only when a transaction elsewhere in the cluster
    // holds the fence (the source then reads again every 250 ms). A reader per subscriber
    // would have read at least once each.
    assert!(
        (1..SUBSCRIBERS).contains(&reads),
        "{reads} reads of the round's feed for {SUBSCRIBERS} subscribers and one append"
    );
    drop(subscribers);
    server.stop().await;
}

#[actix_web::test]
async fn a_reconnect_with_last_event_id_while_the_round_source_is_live_gets_no_gap_and_no_duplicate()
 {
    let db = TestDb::new().await;
    let writer = api(&db).await;
    let board_one = create_round_game(&writer, 1).await;
    let board_two = create_round_game(&writer, 2).await;
    let state = db.state();
    let streams = state.streams.clone();
    let server = Server::start(state).await;
    let url = format!("{}{ROUND_STREAM}", server.base);
    // The watcher stays connected all along, so that the source stays live.
    let mut watcher = EventStream::open(&url, &db.reader, None).await;
    let mut watched = next_messages(&mut watcher, 2).await;
    let mut leaver = EventStream::open(&url, &db.reader, None).await;
    next_messages(&mut leaver, 2).await;
    writer
        .append_events(board_one, 1, moves(&["e4", "e5"], true))
        .await;
    let before = next_messages(&mut leaver, 2).await;
    drop(leaver);
    watched.extend(next_messages(&mut watcher, 2).await);
    // While the leaver is away: moves on both boards.
    writer
        .append_events(board_two, 1, moves(&["d4"], true))
        .await;
    writer
        .append_events(board_one, 3, moves(&["Nf3"], true))
        .await;
    writer
        .append_events(board_two, 2, moves(&["d5"], false))
        .await;
    watched.extend(next_messages(&mut watcher, 3).await);
    let last = before.last().expect("the leaver's last message").id.clone();
    let mut back = EventStream::open(&url, &db.reader, Some(&last)).await;
    let mut after = next_messages(&mut back, 3).await;
    // And live again, for both.
    writer
        .append_events(board_one, 4, moves(&["Nc6"], false))
        .await;
    after.extend(next_messages(&mut back, 1).await);
    watched.extend(next_messages(&mut watcher, 1).await);
    assert_eq!(
        streams.round_sources(),
        1,
        "the reconnect joined the live source"
    );
    let resumed_at = watched
        .iter()
        .position(|m| m.id == last)
        .expect("the watcher saw the leaver's last message");
    assert_eq!(
        seen(&after),
        seen(&watched[resumed_at + 1..]),
        "after its cursor the reconnected stream is the watcher's, message for message"
    );
    let sans: Vec<&str> = after
        .iter()
        .map(|m| m.data["position"]["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["d4", "Nf3", "d5", "Nc6"]);
    assert!(
        back.silent_for(Duration::from_millis(300)).await,
        "nothing more, no duplicate"
    );
    drop((watcher, back));
    server.stop().await;
}

//! Following a round's electronic boards live: a local HTTP server replays a real game
//! (`tests/data/lichess-ENPo6ReH.pgn`) as a DGT LiveChess feed, move by move, and the service
//! built as `arbiter serve` builds it follows it. Every move is recorded with its clock
//! through the engine; a misread move, a takeback, a reset board and the kings put in the
//! centre need the arbiter and are not stored; an outage and a restart leave no duplicate
//! and no gap.

use crate::client::{Api, api_with_state};
use crate::support::{TestApp, TestDb};
use arbiter::app::follower::feed_event_id;
use arbiter::game::event::{Event, RecordedEvent};
use arbiter::interchange::pgn_import::{ReadGame, read_games};
use arbiter::rules::side::Side;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use uuid::Uuid;

/// The real game: 1. e4 e5 2. Nf3 Nc6 ... 21... Qg2# (lichess, 300+3), with the clock of
/// every move.
const GAME_PGN: &str = include_str!("../data/lichess-ENPo6ReH.pgn");

/// The game's moves with the mover's seconds left after each.
fn real_game() -> Vec<(String, u64)> {
    let games = read_games(std::io::BufReader::new(GAME_PGN.as_bytes())).expect("readable PGN");
    let Some(ReadGame::Planned(plan)) = games.into_iter().next() else {
        panic!("one game");
    };
    plan.events
        .iter()
        .filter_map(|planned| match &planned.event {
            RecordedEvent::Move { san, by } => {
                let clock = planned.clock.as_ref().expect("every move has its clock");
                let ms = match by {
                    Side::White => clock.white_ms,
                    Side::Black => clock.black_ms,
                }
                .expect("the mover's clock");
                Some((san.clone(), ms / 1000))
            }
            _ => None,
        })
        .collect()
}

/// `game-N.json` as DGT LiveChess writes it: `"SAN seconds"` per move.
fn dgt_json(moves: &[(String, u64)], result: &str) -> String {
    let moves: Vec<String> = moves.iter().map(|(san, s)| format!("{san} {s}")).collect();
    json!({"moves": moves, "result": result, "chess960": 518}).to_string()
}

/// A round's PGN as broadcasts publish it: the game of board 1 with `[%clk]` after each move,
/// then another board's game before it in the file would not change board 1 (its Board tag).
fn round_pgn(moves: &[(String, u64)], result: &str) -> String {
    let clock = |s: u64| format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    let mut movetext = String::new();
    for (ply, (san, seconds)) in moves.iter().enumerate() {
        if ply % 2 == 0 {
            movetext.push_str(&format!("{}. ", ply / 2 + 1));
        }
        movetext.push_str(&format!("{san} {{ [%clk {}] }} ", clock(*seconds)));
    }
    format!(
        "[Event \"City Open\"]\n[Round \"1\"]\n[Board \"2\"]\n[Result \"*\"]\n\n1. d4 *\n\n\
         [Event \"City Open\"]\n[Round \"1\"]\n[Board \"1\"]\n[Result \"{result}\"]\n\n{movetext}{result}\n"
    )
}

/// What the local feed serves.
#[derive(Default)]
struct FeedState {
    /// `game-N.json` by board.
    games: HashMap<u32, String>,
    /// The round's PGN (`/round/round.pgn`).
    pgn: Option<String>,
    /// Frames served one per request of `game-N.json`, by board, before its `games` entry
    /// (each frame served becomes the entry: the last one stays).
    script: HashMap<u32, std::collections::VecDeque<String>>,
    /// Answer 503 to everything (an outage).
    down: bool,
    /// Close every connection without answering.
    closing: bool,
    /// Read the request and never answer (a feed that stops answering).
    silent: bool,
    /// Requests answered.
    requests: usize,
    /// When each request came, and the body it was answered.
    served: Vec<(Instant, String)>,
}

/// A tiny HTTP server on 127.0.0.1 serving `/round/game-N.json` from its state.
struct Feed {
    url: String,
    state: Arc<Mutex<FeedState>>,
}

impl Feed {
    async fn start() -> Feed {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a local port");
        let port = listener.local_addr().expect("address").port();
        let state = Arc::new(Mutex::new(FeedState::default()));
        let served = state.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let state = served.clone();
                tokio::spawn(async move {
                    let mut request = Vec::new();
                    let mut buffer = [0u8; 1024];
                    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                        match socket.read(&mut buffer).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => request.extend_from_slice(&buffer[..n]),
                        }
                    }
                    if state.lock().expect("feed state").silent {
                        state.lock().expect("feed state").requests += 1;
                        tokio::time::sleep(Duration::from_secs(30)).await;
                        return;
                    }
                    if state.lock().expect("feed state").closing {
                        state.lock().expect("feed state").requests += 1;
                        return; // the socket is dropped: closed without an answer
                    }
                    let text = String::from_utf8_lossy(&request);
                    let path = text.split_whitespace().nth(1).unwrap_or("/").to_string();
                    let (status, body) = {
                        let mut state = state.lock().expect("feed state");
                        state.requests += 1;
                        let board = path
                            .strip_prefix("/round/game-")
                            .and_then(|rest| rest.strip_suffix(".json"))
                            .and_then(|n| n.parse::<u32>().ok());
                        if state.down {
                            ("503 Service Unavailable", String::from("down"))
                        } else if path == "/round/round.pgn" {
                            match &state.pgn {
                                Some(pgn) => ("200 OK", pgn.clone()),
                                None => ("404 Not Found", String::from("none")),
                            }
                        } else {
                            if let Some(board) = board
                                && let Some(frame) =
                                    state.script.get_mut(&board).and_then(|s| s.pop_front())
                            {
                                state.games.insert(board, frame);
                            }
                            match board.and_then(|b| state.games.get(&b)) {
                                Some(json) => ("200 OK", json.clone()),
                                None => ("404 Not Found", String::from("none")),
                            }
                        }
                    };
                    state
                        .lock()
                        .expect("feed state")
                        .served
                        .push((Instant::now(), body.clone()));
                    let response = format!(
                        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = socket.write_all(response.as_bytes()).await;
                    let _ = socket.shutdown().await;
                });
            }
        });
        Feed {
            url: format!("http://127.0.0.1:{port}/round/"),
            state,
        }
    }

    fn publish(&self, board: u32, json: String) {
        self.state
            .lock()
            .expect("feed state")
            .games
            .insert(board, json);
    }

    /// Serves `frames` to the next polls of `board`, one per poll, the last one after.
    fn play(&self, board: u32, frames: Vec<String>) {
        self.state
            .lock()
            .expect("feed state")
            .script
            .insert(board, frames.into());
    }

    /// Whether every scripted frame has been served.
    fn played(&self) -> bool {
        self.state
            .lock()
            .expect("feed state")
            .script
            .values()
            .all(|frames| frames.is_empty())
    }

    fn publish_pgn(&self, pgn: String) {
        self.state.lock().expect("feed state").pgn = Some(pgn);
    }

    fn set_silent(&self, silent: bool) {
        self.state.lock().expect("feed state").silent = silent;
    }

    fn set_closing(&self, closing: bool) {
        self.state.lock().expect("feed state").closing = closing;
    }

    fn set_down(&self, down: bool) {
        self.state.lock().expect("feed state").down = down;
    }

    fn requests(&self) -> usize {
        self.state.lock().expect("feed state").requests
    }

    /// When the requests answered with `body` came.
    fn served_with(&self, body: &str) -> Vec<Instant> {
        self.state
            .lock()
            .expect("feed state")
            .served
            .iter()
            .filter(|(_, served)| served == body)
            .map(|(at, _)| *at)
            .collect()
    }
}

/// A tournament whose round 1 has one board, and the game on it.
async fn round_with_one_board(api: &Api<'_>) -> (String, Uuid) {
    let tournament = api
        .create_tournament(&{
            let mut settings = crate::tournaments::city_open();
            settings["name"] = json!("Feed Open 2026");
            // The real game's control (lichess 300+3): its clocks rise by the increment.
            settings["time_control"] =
                json!({"kind": "blitz", "base_ms": 300_000, "increment_ms": 3_000});
            settings
        })
        .await
        .expect(201);
    let id = tournament["tournament_id"]
        .as_str()
        .expect("id")
        .to_string();
    let loaded = api
        .load_round(
            &id,
            1,
            &json!({"pairings": [
                {"board": 1, "white": {"name": "alanbrito4"}, "black": {"name": "Meridyan"}}
            ]}),
        )
        .await
        .body;
    let game = loaded["games"][0]["game_id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("game id");
    (id, game)
}

/// The service as `arbiter serve` builds it, polling feeds every 100 ms and backing off to
/// at most 800 ms.
async fn spawn(db: &TestDb) -> TestApp {
    db.spawn_app(|config| {
        config.follow_poll_ms = 100;
        config.follow_max_backoff_ms = 800;
        // The local feed server is on loopback, which a feed URL may name only when the
        // operator allows it.
        config.follow_allow_hosts = vec!["127.0.0.1".into()];
    })
    .await
}

async fn follow(api: &Api<'_>, tournament: &str, url: &str) -> Value {
    follow_as(api, tournament, "dgt_json", url).await
}

/// Follows with every takeback waiting for the arbiter (`takebacks: by_arbiter`).
async fn follow_strict(api: &Api<'_>, tournament: &str, url: &str) -> Value {
    follow_with(
        api,
        tournament,
        json!({"kind": "dgt_json", "url": url, "takebacks": "by_arbiter"}),
    )
    .await
}

async fn follow_as(api: &Api<'_>, tournament: &str, kind: &str, url: &str) -> Value {
    follow_with(api, tournament, json!({"kind": kind, "url": url})).await
}

async fn follow_with(api: &Api<'_>, tournament: &str, setting: Value) -> Value {
    api.set_follow(tournament, 1, &setting).await.expect(200)
}

async fn follow_view(api: &Api<'_>, tournament: &str) -> Value {
    api.get_follow(tournament, 1).await.body
}

async fn decide(api: &Api<'_>, attention: &str, choice: &str) -> (u16, Value) {
    let reply = api.decide_attention(attention, choice).await;
    (reply.status, reply.body)
}

/// The standing moves of the game.
async fn stored_moves(app: &TestApp, game: Uuid) -> Vec<String> {
    let (state, _) = app
        .state
        .arbitration
        .state_at(game, None)
        .await
        .expect("the game folds");
    state.moves().to_vec()
}

/// Waits (at most 20 s) until `check` holds.
async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(20);
    while !check().await {
        assert!(Instant::now() < deadline, "timed out waiting: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn wait_for_plies(app: &TestApp, game: Uuid, plies: usize) {
    eventually(&format!("{plies} plies stored"), || async {
        stored_moves(app, game).await.len() == plies
    })
    .await;
}

/// The open attention of board 1, once there is one of `kind`.
async fn wait_for_attention(api: &Api<'_>, tournament: &str, kind: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let view = follow_view(api, tournament).await;
        if let Some(attention) = view["attentions"].as_array().and_then(|a| a.first())
            && attention["attention"]["type"] == kind
        {
            return attention.clone();
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {kind}: {view}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The number of stored events of the game, and whether their event ids are all distinct.
async fn events_of(db: &TestDb, game: Uuid) -> Vec<arbiter::store::EventEnvelope> {
    db.service
        .read_events(game, 0, None, None)
        .await
        .expect("read the log")
}

#[actix_web::test]
async fn a_followed_round_records_every_move_of_a_real_game_with_its_clock_as_the_board_publishes_it()
 {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    assert_eq!(line.len(), 42);
    let view = follow(&api, &tournament, &feed.url).await;
    let follow_id: Uuid = view["follow"]["follow_id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("follow id");
    assert_eq!(view["running"], true);
    for plies in 1..=line.len() {
        let result = if plies == line.len() { "0-1" } else { "*" };
        feed.publish(1, dgt_json(&line[..plies], result));
        wait_for_plies(&app, game, plies).await;
    }
    let sans: Vec<String> = line.iter().map(|(san, _)| san.clone()).collect();
    assert_eq!(stored_moves(&app, game).await, sans);
    let events = events_of(&db, game).await;
    let moves: Vec<_> = events
        .iter()
        .filter(|e| matches!(e.event, Event::Recorded(RecordedEvent::Move { .. })))
        .collect();
    assert_eq!(moves.len(), 42, "every move once");
    for (index, (envelope, (san, seconds))) in moves.iter().zip(&line).enumerate() {
        let clock = envelope.clock.as_ref().expect("each move with its clock");
        let reading = if index % 2 == 0 {
            clock.white_ms
        } else {
            clock.black_ms
        };
        assert_eq!(reading, Some(seconds * 1000), "the clock of {san}");
        assert_eq!(envelope.recorded_by, "board feed");
        assert_eq!(
            envelope.event_id,
            feed_event_id(follow_id, 1, envelope.seq - 1, index + 1, san),
            "the event id of {san} derives from the feed"
        );
    }
    let (state, _) = app
        .state
        .arbitration
        .state_at(game, None)
        .await
        .expect("game");
    assert_eq!(
        state.result(),
        Some(arbiter::game::event::GameResult::BlackWins),
        "21...Qg2# ends the game by itself"
    );
    let view = follow_view(&api, &tournament).await;
    assert_eq!(
        view["attentions"],
        json!([]),
        "the feed's 0-1 is what the log holds"
    );
    assert!(view["follow"]["last_ok_at"].is_string());
    app.stop().await;
}

#[actix_web::test]
async fn a_misread_move_needs_the_arbiter_and_is_stored_only_as_the_arbiter_decides() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow(&api, &tournament, &feed.url).await;
    feed.publish(1, dgt_json(&line[..10], "*"));
    wait_for_plies(&app, game, 10).await;

    // The board reads 6. Qh5 as 6. Qh8, which is not legal.
    let mut misread = line[..11].to_vec();
    misread[10].0 = "Qh8".into();
    feed.publish(1, dgt_json(&misread, "*"));
    let attention = wait_for_attention(&api, &tournament, "illegal_move").await;
    assert_eq!(attention["attention"]["san"], "Qh8");
    assert!(
        attention["attention"]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("not a legal move")),
        "{attention}"
    );
    assert_eq!(
        attention["feed_moves"][10]["san"], "Qh8",
        "the feed's moves kept"
    );
    assert_eq!(
        stored_moves(&app, game).await.len(),
        10,
        "the misread is not stored"
    );

    // A choice that does not fit is refused, saying which fit.
    let id = attention["attention_id"].as_str().expect("id");
    let (status, problem) = decide(&api, id, "accept_correction").await;
    assert_eq!(status, 422, "{problem}");
    assert!(
        problem["detail"]
            .as_str()
            .is_some_and(|d| d.contains("record_illegal_move"))
    );

    // Ignored: nothing is recorded, and the same misread is not raised again.
    let (status, decided) = decide(&api, id, "ignore").await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!(decided["attention"]["resolution"], "ignored");
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        follow_view(&api, &tournament).await["attentions"],
        json!([])
    );
    assert_eq!(stored_moves(&app, game).await.len(), 10);

    // The board reads the move right: it is recorded, and the game goes on.
    feed.publish(1, dgt_json(&line[..12], "*"));
    wait_for_plies(&app, game, 12).await;

    // Another misread, recorded by the arbiter as an illegal move, with the feed's evidence.
    let mut misread = line[..13].to_vec();
    misread[12].0 = "Ke3".into();
    feed.publish(1, dgt_json(&misread, "*"));
    let attention = wait_for_attention(&api, &tournament, "illegal_move").await;
    let id = attention["attention_id"].as_str().expect("id");
    let (status, decided) = decide(&api, id, "record_illegal_move").await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!(decided["appended"], 1);
    let events = events_of(&db, game).await;
    let recorded = events
        .iter()
        .find_map(|e| match &e.event {
            Event::Recorded(RecordedEvent::IllegalMove {
                description, by, ..
            }) => Some((description.clone(), *by)),
            _ => None,
        })
        .expect("the illegal move is in the log");
    assert_eq!(recorded.1, Side::White);
    assert!(recorded.0.contains("Ke3"), "{}", recorded.0);
    assert!(
        recorded.0.contains("The feed's moves: e4 e5"),
        "{}",
        recorded.0
    );
    app.stop().await;
}

#[actix_web::test]
async fn a_move_taken_back_on_the_board_is_accepted_as_a_correction_of_the_stored_line_never_a_branch()
 {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow_strict(&api, &tournament, &feed.url).await;
    feed.publish(1, dgt_json(&line[..12], "*"));
    wait_for_plies(&app, game, 12).await;

    // 6...f4 is taken back on the board.
    feed.publish(1, dgt_json(&line[..11], "*"));
    let attention = wait_for_attention(&api, &tournament, "taken_back").await;
    assert_eq!(attention["attention"]["keep_plies"], 11);
    assert_eq!(
        stored_moves(&app, game).await.len(),
        12,
        "nothing retracted by the feed"
    );
    let id = attention["attention_id"].as_str().expect("id");
    let (status, decided) = decide(&api, id, "accept_correction").await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!(decided["attention"]["resolution"], "accepted");
    assert_eq!(stored_moves(&app, game).await.len(), 11);
    let corrections: Vec<String> = events_of(&db, game)
        .await
        .iter()
        .filter_map(|e| match &e.event {
            Event::Recorded(RecordedEvent::Correction { reason, .. }) => Some(reason.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(corrections.len(), 1, "one correction retracts 6...f4");
    assert!(
        corrections[0].contains("moves were taken back"),
        "{}",
        corrections[0]
    );

    // Another move played instead: a new event, not a branch.
    let mut other = line[..11].to_vec();
    other.push(("Nf6".into(), 260));
    feed.publish(1, dgt_json(&other, "*"));
    wait_for_plies(&app, game, 12).await;
    assert_eq!(stored_moves(&app, game).await[11], "Nf6");

    // The board takes back 6...Nf6 and plays 6...f4 again: the line diverges at ply 12;
    // accepted, the log ends as the board does.
    feed.publish(1, dgt_json(&line[..13], "*"));
    let attention = wait_for_attention(&api, &tournament, "diverges").await;
    assert_eq!(attention["attention"]["ply"], 12);
    let id = attention["attention_id"].as_str().expect("id");
    let (status, decided) = decide(&api, id, "accept_correction").await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!(decided["appended"], 1, "one correction retracts 6...Nf6");
    // 6...f4 and 7. h3 from the feed (recorded by the decision, or by the next poll).
    wait_for_plies(&app, game, 13).await;
    let sans: Vec<String> = line[..13].iter().map(|(s, _)| s.clone()).collect();
    assert_eq!(stored_moves(&app, game).await, sans);
    let events = events_of(&db, game).await;
    let ids: HashSet<Uuid> = events.iter().map(|e| e.event_id).collect();
    assert_eq!(ids.len(), events.len(), "no event id twice");
    app.stop().await;
}

#[actix_web::test]
async fn a_reset_board_needs_the_arbiter_and_its_new_moves_are_never_stored_as_this_game() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow_strict(&api, &tournament, &feed.url).await;
    feed.publish(1, dgt_json(&line[..10], "*"));
    wait_for_plies(&app, game, 10).await;
    let stored_events = events_of(&db, game).await.len();

    // The pieces are set up again and someone plays 1. d4 d5 on the board.
    feed.publish(1, dgt_json(&[("d4".into(), 300), ("d5".into(), 300)], "*"));
    let attention = wait_for_attention(&api, &tournament, "diverges").await;
    assert_eq!(attention["attention"]["ply"], 1);
    assert_eq!(attention["attention"]["board"], "d4");
    assert_eq!(attention["attention"]["stored"], "e4");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        events_of(&db, game).await.len(),
        stored_events,
        "nothing stored"
    );
    let id = attention["attention_id"].as_str().expect("id");
    let (status, _) = decide(&api, id, "ignore").await;
    assert_eq!(status, 200);
    let (status, again) = decide(&api, id, "ignore").await;
    assert_eq!(status, 409, "decided once: {again}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        follow_view(&api, &tournament).await["attentions"],
        json!([])
    );
    assert_eq!(events_of(&db, game).await.len(), stored_events);
    app.stop().await;
}

#[actix_web::test]
async fn the_kings_put_in_the_centre_propose_a_result_that_the_arbiter_records() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow(&api, &tournament, &feed.url).await;
    feed.publish(1, dgt_json(&line[..10], "*"));
    wait_for_plies(&app, game, 10).await;
    // Both kings on the light centre squares (e4, d5): 1-0.
    let mut kings = line[..10].to_vec();
    kings.push(("Ke4".into(), 280));
    kings.push(("Kd5".into(), 250));
    feed.publish(1, dgt_json(&kings, "*"));
    let attention = wait_for_attention(&api, &tournament, "proposed_result").await;
    assert_eq!(attention["attention"]["result"], "1-0");
    assert_eq!(attention["attention"]["signal"], "kings_in_centre");
    assert_eq!(
        stored_moves(&app, game).await.len(),
        10,
        "the kings are not moves"
    );
    let id = attention["attention_id"].as_str().expect("id");
    let (status, decided) = decide(&api, id, "record_result").await;
    assert_eq!(status, 200, "{decided}");
    let (state, _) = app
        .state
        .arbitration
        .state_at(game, None)
        .await
        .expect("game");
    assert_eq!(
        state.result(),
        Some(arbiter::game::event::GameResult::WhiteWins)
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        follow_view(&api, &tournament).await["attentions"],
        json!([]),
        "a result the log holds needs nobody"
    );
    app.stop().await;
}

#[actix_web::test]
async fn a_feed_outage_backs_off_then_resumes_with_no_duplicate_and_no_gap() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow(&api, &tournament, &feed.url).await;
    feed.publish(1, dgt_json(&line[..6], "*"));
    wait_for_plies(&app, game, 6).await;

    feed.set_down(true);
    feed.publish(1, dgt_json(&line[..16], "*"));
    eventually("three failed polls in a row", || async {
        follow_view(&api, &tournament).await["follow"]["failures"]
            .as_u64()
            .is_some_and(|f| f >= 3)
    })
    .await;
    let view = follow_view(&api, &tournament).await;
    assert!(
        view["follow"]["last_error"]
            .as_str()
            .is_some_and(|e| e.contains("503")),
        "{view}"
    );
    // Backing off: at most one request per wait, the waits doubling to 800 ms.
    let before = feed.requests();
    tokio::time::sleep(Duration::from_millis(1600)).await;
    let during = feed.requests() - before;
    assert!(
        during <= 4,
        "{during} requests in 1.6 s while the feed fails (100 ms polls would make 16)"
    );
    assert_eq!(
        stored_moves(&app, game).await.len(),
        6,
        "nothing while the feed is down"
    );

    feed.set_down(false);
    wait_for_plies(&app, game, 16).await;
    let sans: Vec<String> = line[..16].iter().map(|(s, _)| s.clone()).collect();
    assert_eq!(stored_moves(&app, game).await, sans, "no gap");
    let events = events_of(&db, game).await;
    assert_eq!(events.len(), 1 + 16, "game_created and each move once");
    eventually("the follow answers again", || async {
        follow_view(&api, &tournament).await["follow"]["failures"] == 0
    })
    .await;
    app.stop().await;
}

#[actix_web::test]
async fn a_restarted_service_resumes_following_the_round_without_storing_anything_twice() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow(&api, &tournament, &feed.url).await;
    feed.publish(1, dgt_json(&line[..8], "*"));
    wait_for_plies(&app, game, 8).await;
    app.stop().await;

    // While the service is down, the board goes on.
    feed.publish(1, dgt_json(&line[..14], "*"));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        events_of(&db, game).await.len(),
        1 + 8,
        "nobody follows while stopped"
    );

    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    wait_for_plies(&app, game, 14).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let events = events_of(&db, game).await;
    assert_eq!(events.len(), 1 + 14, "each move once");
    let ids: HashSet<Uuid> = events.iter().map(|e| e.event_id).collect();
    assert_eq!(ids.len(), events.len());

    // Stopped through the API: the follower ends, and the board's next moves wait.
    api.stop_follow(&tournament, 1).await.expect(200);
    // A poll already under way when the follow stopped may finish; none starts after.
    tokio::time::sleep(Duration::from_millis(300)).await;
    feed.publish(1, dgt_json(&line[..20], "*"));
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(stored_moves(&app, game).await.len(), 14);
    app.stop().await;
}

/// A back-office session of the arbiter on the spawned service: its cookie.
async fn office_session(app: &TestApp, db: &TestDb, client: &reqwest::Client) -> String {
    let response = client
        .post(app.url("/office/sign-in"))
        .header("Origin", &app.base)
        .form(&[("token", db.arbiter.as_str()), ("next", "/office/")])
        .send()
        .await
        .expect("sign in");
    assert_eq!(response.status().as_u16(), 303);
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("arbiter_session="))
        .and_then(|v| v.split(';').next())
        .expect("a session cookie")
        .to_string()
}

async fn page(client: &reqwest::Client, app: &TestApp, cookie: &str, path: &str) -> String {
    let response = client
        .get(app.url(path))
        .header("Cookie", cookie)
        .send()
        .await
        .expect("page");
    assert_eq!(response.status().as_u16(), 200, "{path}");
    response.text().await.expect("page text")
}

/// The value of the page's CSRF field.
fn csrf_of(page: &str) -> String {
    let at = page
        .find("name=\"csrf\" value=\"")
        .expect("a form with its token");
    let rest = &page[at + "name=\"csrf\" value=\"".len()..];
    rest[..rest.find('"').expect("end of the token")].to_string()
}

#[actix_web::test]
async fn the_floor_and_the_desk_show_what_the_board_feed_says_and_the_arbiter_decides_it_on_the_desk()
 {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let cookie = office_session(&app, &db, &client).await;
    let floor = "/office/floor?event=Feed%20Open%202026&round=1";

    // The round is followed from the floor's form.
    let floor_page = page(&client, &app, &cookie, floor).await;
    assert!(floor_page.contains("follows no board feed"), "{floor_page}");
    let response = client
        .post(app.url(&format!("/office/events/{tournament}/rounds/1/follow")))
        .header("Cookie", &cookie)
        .header("Origin", &app.base)
        .form(&[
            ("csrf", csrf_of(&floor_page).as_str()),
            ("action", "start"),
            ("url", feed.url.as_str()),
            ("takebacks", "by_arbiter"),
        ])
        .send()
        .await
        .expect("follow from the floor");
    assert_eq!(response.status().as_u16(), 303);
    feed.publish(1, dgt_json(&line[..12], "*"));
    wait_for_plies(&app, game, 12).await;
    feed.publish(1, dgt_json(&line[..11], "*"));
    wait_for_attention(&api, &tournament, "taken_back").await;

    let floor_page = page(&client, &app, &cookie, floor).await;
    assert!(
        floor_page.contains("needs the arbiter (board feed)"),
        "{floor_page}"
    );
    assert!(floor_page.contains("moves were taken back"));
    assert!(floor_page.contains("Stop following"));

    let desk = page(&client, &app, &cookie, &format!("/office/games/{game}")).await;
    assert!(desk.contains("Needs the arbiter: board feed"), "{desk}");
    assert!(
        desk.contains("Bxc6") || desk.contains("d3"),
        "the feed's moves are shown"
    );
    assert!(desk.contains("accept_correction"));
    let at = desk.find("/decision").expect("a decision form");
    let start = desk[..at].rfind("/office/attentions/").expect("its action");
    let action = desk[start..at + "/decision".len()].to_string();
    let response = client
        .post(app.url(&action))
        .header("Cookie", &cookie)
        .header("Origin", &app.base)
        .form(&[
            ("csrf", csrf_of(&desk).as_str()),
            ("choice", "accept_correction"),
        ])
        .send()
        .await
        .expect("decide on the desk");
    assert_eq!(response.status().as_u16(), 303);
    assert_eq!(stored_moves(&app, game).await.len(), 11, "6...f4 retracted");
    let desk = page(&client, &app, &cookie, &format!("/office/games/{game}")).await;
    assert!(!desk.contains("Needs the arbiter: board feed"));
    app.stop().await;
}

#[actix_web::test]
async fn a_feed_url_that_is_not_http_or_holds_a_control_character_is_refused_naming_the_field() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, _) = round_with_one_board(&api).await;
    for url in [
        "ftp://feeds.invalid/round/",
        "http://feeds.invalid/ro\u{0}und/",
    ] {
        let reply = api
            .set_follow(&tournament, 1, &json!({"kind": "dgt_json", "url": url}))
            .await;
        assert_eq!(reply.status, 422, "{url:?}");
        let problem = reply.body;
        assert_eq!(problem["field"], "url", "{problem}");
    }
    let reply = api
        .set_follow(
            &tournament,
            9,
            &json!({"kind": "dgt_json", "url": "http://127.0.0.1:9/round/"}),
        )
        .await;
    assert_eq!(reply.status, 404, "a round not loaded");
    app.stop().await;
}

#[actix_web::test]
async fn a_round_followed_from_its_pgn_records_every_move_with_its_clock_and_a_misread_needs_the_arbiter()
 {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    let view = follow_as(&api, &tournament, "pgn", &format!("{}round.pgn", feed.url)).await;
    assert_eq!(view["follow"]["kind"], "pgn", "{view}");
    feed.publish_pgn(round_pgn(&line[..10], "*"));
    wait_for_plies(&app, game, 10).await;
    assert_eq!(
        stored_moves(&app, game).await,
        line[..10]
            .iter()
            .map(|(san, _)| san.clone())
            .collect::<Vec<_>>()
    );
    // Each move with the mover's clock from its [%clk].
    let moves: Vec<_> = events_of(&db, game)
        .await
        .into_iter()
        .filter(|e| matches!(e.event, Event::Recorded(RecordedEvent::Move { .. })))
        .collect();
    let clock = moves[9].clock.as_ref().expect("the clock of the 10th move");
    assert_eq!(clock.black_ms, Some(line[9].1 * 1000));

    // The board reads 6. Qh5 as 6. Qh8: the arbiter is asked, nothing is stored.
    let mut misread = line[..11].to_vec();
    misread[10].0 = "Qh8".into();
    feed.publish_pgn(round_pgn(&misread, "*"));
    let attention = wait_for_attention(&api, &tournament, "illegal_move").await;
    assert_eq!(attention["attention"]["san"], "Qh8", "{attention}");
    assert_eq!(stored_moves(&app, game).await.len(), 10);

    // Read right at the next poll: recorded, and the game goes on.
    feed.publish_pgn(round_pgn(&line[..12], "*"));
    wait_for_plies(&app, game, 12).await;
    app.stop().await;
}

/// The board shows `shown` plies of the real game after `before` were stored: the takeback
/// needs the arbiter, and one `accept_correction` retracts every ply taken back in one
/// append, with the feed's moves as evidence; the board's game then goes on.
async fn a_takeback_is_one_decision(before: usize, shown: usize) {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow_strict(&api, &tournament, &feed.url).await;
    feed.publish(1, dgt_json(&line[..before], "*"));
    wait_for_plies(&app, game, before).await;
    let events_before = events_of(&db, game).await.len();

    feed.publish(1, dgt_json(&line[..shown], "*"));
    let attention = wait_for_attention(&api, &tournament, "taken_back").await;
    assert_eq!(attention["attention"]["keep_plies"], shown);
    assert_eq!(attention["attention"]["stored_plies"], before);
    let id = attention["attention_id"].as_str().expect("id");
    let (status, decided) = decide(&api, id, "accept_correction").await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!(decided["attention"]["resolution"], "accepted");
    assert_eq!(
        decided["appended"],
        before - shown,
        "one correction per ply taken back"
    );
    let sans =
        |plies: usize| -> Vec<String> { line[..plies].iter().map(|(s, _)| s.clone()).collect() };
    assert_eq!(stored_moves(&app, game).await, sans(shown));
    let events = events_of(&db, game).await;
    let corrections: Vec<_> = events[events_before..]
        .iter()
        .filter_map(|e| match &e.event {
            Event::Recorded(RecordedEvent::Correction {
                retracts_seq,
                reason,
            }) => Some((e.seq, *retracts_seq, reason.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(corrections.len(), before - shown);
    // One append: the corrections follow each other, the latest move retracted first.
    for (index, (seq, retracts, reason)) in corrections.iter().enumerate() {
        assert_eq!(*seq, corrections[0].0 + index as u64, "consecutive");
        assert_eq!(
            *retracts,
            1 + before as u64 - index as u64,
            "the stored moves from the last back"
        );
        assert_eq!(
            events.iter().find(|e| e.seq == *seq).map(|e| e.recorded_at),
            events
                .iter()
                .find(|e| e.seq == corrections[0].0)
                .map(|e| e.recorded_at),
            "stored together"
        );
        assert!(reason.contains("The feed's moves:"), "{reason}");
        assert!(
            reason.contains(&format!(
                "shows {shown} half-moves where the log had {before}"
            )),
            "{reason}"
        );
    }

    // The board plays on (the same moves again): recorded as new events after the
    // corrections, never a branch.
    feed.publish(1, dgt_json(&line[..before], "*"));
    wait_for_plies(&app, game, before).await;
    assert_eq!(stored_moves(&app, game).await, sans(before));
    let events = events_of(&db, game).await;
    let ids: HashSet<Uuid> = events.iter().map(|e| e.event_id).collect();
    assert_eq!(ids.len(), events.len(), "no event id twice");
    assert_eq!(
        follow_view(&api, &tournament).await["attentions"],
        json!([])
    );
    app.stop().await;
}

#[actix_web::test]
async fn a_takeback_of_one_ply_is_accepted_in_one_decision() {
    a_takeback_is_one_decision(12, 11).await;
}

#[actix_web::test]
async fn a_takeback_of_two_plies_is_accepted_in_one_decision() {
    a_takeback_is_one_decision(12, 10).await;
}

#[actix_web::test]
async fn a_takeback_of_five_plies_is_accepted_in_one_decision() {
    a_takeback_is_one_decision(20, 15).await;
}

#[actix_web::test]
async fn a_board_set_back_thirty_plies_to_a_middle_position_is_accepted_in_one_decision() {
    a_takeback_is_one_decision(40, 10).await;
}

#[actix_web::test]
async fn a_board_reset_to_the_start_is_accepted_in_one_decision() {
    a_takeback_is_one_decision(16, 0).await;
}

/// The real game's first `plies` frames as LiveChess publishes them, each served to two
/// polls, with the `clock` object lagging the moves by `lag` frames (the object written after
/// ply `k - lag`: each side's time after its latest move, the side to move's clock running,
/// `time` increasing), the moves with their own times or without.
fn frames_with_clock(
    line: &[(String, u64)],
    plies: usize,
    lag: usize,
    own_times: bool,
) -> Vec<String> {
    let fresh = |k: usize| -> Value {
        let latest = |white: bool| {
            line[..k]
                .iter()
                .enumerate()
                .rev()
                .find(|(i, _)| (i % 2 == 0) == white)
                .map_or(300, |(_, (_, s))| *s)
        };
        json!({
            "white": latest(true),
            "black": latest(false),
            "time": 1_790_000_000_000_i64 + k as i64 * 1000,
            "run": if k.is_multiple_of(2) { "white" } else { "black" },
        })
    };
    let mut frames = Vec::new();
    for k in 1..=plies {
        let moves: Vec<String> = line[..k]
            .iter()
            .map(|(san, s)| {
                if own_times {
                    format!("{san} {s}")
                } else {
                    san.clone()
                }
            })
            .collect();
        let mut game = json!({"moves": moves, "result": "*", "chess960": 518});
        if k > lag {
            game["clock"] = fresh(k - lag);
        }
        frames.push(game.to_string());
        frames.push(game.to_string());
    }
    frames
}

/// Replays `frames_with_clock` and returns the mover's stored reading (seconds) of each move.
async fn stored_readings_with_clock(
    lag: usize,
    own_times: bool,
) -> (Vec<Option<u64>>, Vec<(String, u64)>) {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    let plies = 16;
    feed.play(1, frames_with_clock(&line, plies, lag, own_times));
    follow(&api, &tournament, &feed.url).await;
    eventually("every frame served", || async { feed.played() }).await;
    wait_for_plies(&app, game, plies).await;
    let sans: Vec<String> = line[..plies].iter().map(|(s, _)| s.clone()).collect();
    assert_eq!(stored_moves(&app, game).await, sans);
    let readings = events_of(&db, game)
        .await
        .into_iter()
        .filter(|e| matches!(e.event, Event::Recorded(RecordedEvent::Move { .. })))
        .enumerate()
        .map(|(index, e)| {
            e.clock
                .and_then(|c| {
                    if index % 2 == 0 {
                        c.white_ms
                    } else {
                        c.black_ms
                    }
                })
                .map(|ms| ms / 1000)
        })
        .collect();
    assert_eq!(
        follow_view(&api, &tournament).await["attentions"],
        json!([])
    );
    app.stop().await;
    (readings, line[..plies].to_vec())
}

#[actix_web::test]
async fn a_clock_object_lagging_the_moves_by_one_frame_is_never_stored_as_the_new_moves_reading() {
    let (readings, line) = stored_readings_with_clock(1, true).await;
    let truth: Vec<Option<u64>> = line.iter().map(|(_, s)| Some(*s)).collect();
    assert_eq!(readings, truth, "each move with its own time");
}

#[actix_web::test]
async fn a_clock_object_lagging_the_moves_by_two_frames_is_never_stored_as_the_new_moves_reading() {
    let (readings, line) = stored_readings_with_clock(2, true).await;
    let truth: Vec<Option<u64>> = line.iter().map(|(_, s)| Some(*s)).collect();
    assert_eq!(readings, truth, "each move with its own time");
}

#[actix_web::test]
async fn a_clock_object_that_describes_the_position_gives_the_last_move_its_reading() {
    // The moves without their own times: the readings come from the clock object, from the
    // second move on (the first frame the follower sees has nothing to tell a lag by).
    let (readings, line) = stored_readings_with_clock(0, false).await;
    let mut truth: Vec<Option<u64>> = line.iter().map(|(_, s)| Some(*s)).collect();
    truth[0] = None;
    assert_eq!(readings, truth);
}

#[actix_web::test]
async fn a_reading_that_would_make_a_clock_go_up_more_than_its_increment_is_not_stored() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow(&api, &tournament, &feed.url).await;
    feed.publish(1, dgt_json(&line[..10], "*"));
    wait_for_plies(&app, game, 10).await;
    // 6. Qh5 read with a minute more than White had after 5. (the control adds 3 s a move).
    let mut faulty = line[..12].to_vec();
    faulty[10].1 = line[8].1 + 60;
    feed.publish(1, dgt_json(&faulty, "*"));
    wait_for_plies(&app, game, 12).await;
    let moves: Vec<_> = events_of(&db, game)
        .await
        .into_iter()
        .filter(|e| matches!(e.event, Event::Recorded(RecordedEvent::Move { .. })))
        .collect();
    assert_eq!(
        moves[10].clock, None,
        "the move, without the faulty reading"
    );
    assert_eq!(
        moves[11].clock.as_ref().and_then(|c| c.black_ms),
        Some(line[11].1 * 1000),
        "the next move with its own"
    );
    app.stop().await;
}

/// Each frame served to `polls` polls in turn.
fn each(frames: Vec<String>, polls: usize) -> Vec<String> {
    frames
        .into_iter()
        .flat_map(|frame| std::iter::repeat_n(frame, polls))
        .collect()
}

/// The corrections in the game's log, with who recorded them.
async fn corrections_of(db: &TestDb, game: Uuid) -> Vec<(String, String)> {
    events_of(db, game)
        .await
        .into_iter()
        .filter_map(|e| match e.event {
            Event::Recorded(RecordedEvent::Correction { reason, .. }) => {
                Some((e.recorded_by, reason))
            }
            _ => None,
        })
        .collect()
}

fn sans(line: &[(String, u64)]) -> Vec<String> {
    line.iter().map(|(s, _)| s.clone()).collect()
}

#[actix_web::test]
async fn a_legal_misread_that_stands_one_frame_is_never_stored() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    // 6. Qh5 read for one frame as 6. Qg4 (legal), then right.
    let mut misread = line[..11].to_vec();
    misread[10].0 = "Qg4".into();
    let frames = vec![
        dgt_json(&line[..10], "*"),
        dgt_json(&line[..10], "*"),
        dgt_json(&misread, "*"),
        dgt_json(&line[..11], "*"),
        dgt_json(&line[..12], "*"),
    ];
    feed.play(1, each(frames, 1));
    follow(&api, &tournament, &feed.url).await;
    eventually("every frame served", || async { feed.played() }).await;
    wait_for_plies(&app, game, 12).await;
    assert_eq!(stored_moves(&app, game).await, sans(&line[..12]));
    assert_eq!(
        corrections_of(&db, game).await,
        vec![],
        "nothing to correct"
    );
    assert_eq!(events_of(&db, game).await.len(), 1 + 12);
    assert_eq!(
        follow_view(&api, &tournament).await["attentions"],
        json!([])
    );
    app.stop().await;
}

#[actix_web::test]
async fn an_illegal_misread_put_right_by_the_next_frame_needs_nobody() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    let mut misread = line[..11].to_vec();
    misread[10].0 = "Qh8".into();
    let frames = vec![
        dgt_json(&line[..10], "*"),
        dgt_json(&line[..10], "*"),
        dgt_json(&misread, "*"),
        dgt_json(&line[..11], "*"),
    ];
    feed.play(1, frames);
    follow(&api, &tournament, &feed.url).await;
    eventually("every frame served", || async { feed.played() }).await;
    wait_for_plies(&app, game, 11).await;
    let attentions: Vec<Value> = api.get_follow(&tournament, 1).await.body["attentions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(attentions.is_empty(), "{attentions:?}");
    assert_eq!(stored_moves(&app, game).await, sans(&line[..11]));
    app.stop().await;
}

#[actix_web::test]
async fn a_takeback_the_board_replays_identically_within_a_frame_is_no_correction() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    let frames = vec![
        dgt_json(&line[..12], "*"),
        dgt_json(&line[..12], "*"),
        dgt_json(&line[..10], "*"),
        dgt_json(&line[..12], "*"),
        dgt_json(&line[..14], "*"),
    ];
    feed.play(1, frames);
    follow(&api, &tournament, &feed.url).await;
    eventually("every frame served", || async { feed.played() }).await;
    wait_for_plies(&app, game, 14).await;
    assert_eq!(stored_moves(&app, game).await, sans(&line[..14]));
    assert_eq!(corrections_of(&db, game).await, vec![]);
    assert_eq!(events_of(&db, game).await.len(), 1 + 14, "each move once");
    app.stop().await;
}

/// The board takes back `back` plies of 12 and other moves are played: applied by the feed
/// (nothing the arbiter entered stands on them), shown as a notice, and undone on request.
async fn a_takeback_is_applied_by_the_feed(back: usize) {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    let kept = 12 - back;
    // Another line from the ply taken back on: 6...Nf6 for 6...f4, or 6. h3 for 6. d3.
    let mut other = line[..kept].to_vec();
    other.push(if kept % 2 == 1 {
        ("Nf6".to_string(), 250)
    } else {
        ("h3".to_string(), 260)
    });
    let frames = vec![
        dgt_json(&line[..12], "*"),
        dgt_json(&line[..12], "*"),
        dgt_json(&line[..kept], "*"),
        dgt_json(&line[..kept], "*"),
        dgt_json(&other, "*"),
        dgt_json(&other, "*"),
    ];
    feed.play(1, frames);
    follow(&api, &tournament, &feed.url).await;
    eventually("every frame served", || async { feed.played() }).await;
    wait_for_plies(&app, game, kept + 1).await;
    assert_eq!(stored_moves(&app, game).await, sans(&other));
    let corrections = corrections_of(&db, game).await;
    assert_eq!(corrections.len(), back, "one correction per ply taken back");
    for (recorder, reason) in &corrections {
        assert_eq!(recorder, "board feed");
        assert!(reason.contains("applied by the board feed"), "{reason}");
        assert!(reason.contains("The feed's moves:"), "{reason}");
    }
    // Shown to the arbiter: a notice on the board, which can undo it.
    let notice = wait_for_attention(&api, &tournament, "corrected_by_feed").await;
    assert_eq!(notice["attention"]["keep_plies"], kept);
    assert_eq!(
        notice["attention"]["retracted"]
            .as_array()
            .map(|moves| moves.iter().map(|m| m["san"].clone()).collect::<Vec<_>>()),
        Some(line[kept..12].iter().map(|(s, _)| json!(s)).collect())
    );
    let id = notice["attention_id"].as_str().expect("id");
    let (status, decided) = decide(&api, id, "undo_correction").await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!(decided["attention"]["resolution"], "undone");
    assert_eq!(
        stored_moves(&app, game).await,
        sans(&line[..12]),
        "the moves taken back restored"
    );
    // The board still shows its own line: now over the arbiter's entries, so it waits.
    let waits = wait_for_attention(&api, &tournament, "diverges").await;
    assert_eq!(waits["attention"]["ply"], kept + 1);
    assert_eq!(stored_moves(&app, game).await, sans(&line[..12]));
    app.stop().await;
}

#[actix_web::test]
async fn a_takeback_of_one_ply_with_another_move_played_is_applied_by_the_feed_and_undoable() {
    a_takeback_is_applied_by_the_feed(1).await;
}

#[actix_web::test]
async fn a_takeback_of_two_plies_with_another_move_played_is_applied_by_the_feed_and_undoable() {
    a_takeback_is_applied_by_the_feed(2).await;
}

#[actix_web::test]
async fn a_takeback_over_the_arbiters_entry_waits_for_the_arbiter_and_the_later_plies_are_kept() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow(&api, &tournament, &feed.url).await;
    feed.publish(1, dgt_json(&line[..12], "*"));
    wait_for_plies(&app, game, 12).await;
    // The arbiter records White's draw offer (after 6...f4).
    let seq = events_of(&db, game).await.len() as u64;
    api.append_events(game, seq, json!([{"type": "draw_offer", "by": "white"}]))
        .await
        .expect(201);
    // The board takes back 6...f4 and the game goes on with 6...Nf6 7. h3 Be7.
    let mut other = line[..11].to_vec();
    other.push(("Nf6".into(), 250));
    feed.publish(1, dgt_json(&other, "*"));
    let attention = wait_for_attention(&api, &tournament, "diverges").await;
    assert_eq!(attention["attention"]["ply"], 12);
    other.push(("h3".into(), 270));
    other.push(("Be7".into(), 240));
    feed.publish(1, dgt_json(&other, "*"));
    eventually("the later plies kept with the attention", || async {
        let view = follow_view(&api, &tournament).await;
        view["attentions"][0]["feed_moves"]
            .as_array()
            .is_some_and(|m| m.len() == 14)
    })
    .await;
    assert_eq!(stored_moves(&app, game).await, sans(&line[..12]));
    assert_eq!(
        corrections_of(&db, game).await,
        vec![],
        "nothing retracted meanwhile"
    );
    let id = attention["attention_id"].as_str().expect("id");
    let (status, decided) = decide(&api, id, "accept_correction").await;
    assert_eq!(status, 200, "{decided}");
    wait_for_plies(&app, game, 14).await;
    assert_eq!(stored_moves(&app, game).await, sans(&other), "nothing lost");
    app.stop().await;
}

#[actix_web::test]
async fn a_feed_url_naming_an_internal_address_is_refused_saying_how_an_operator_allows_it() {
    let db = TestDb::new().await;
    // Without --follow-allow-hosts.
    let app = db
        .spawn_app(|config| {
            config.follow_poll_ms = 100;
        })
        .await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, _) = round_with_one_board(&api).await;
    // Literal addresses are refused without any connection; `localhost` resolves from the
    // hosts file. Nothing here is ever fetched.
    for url in [
        "http://127.0.0.1:5432/",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.7/round/",
        "http://192.168.1.20:1982/round/",
        "http://[::1]:8080/round/",
        "http://[fe80::1]/round/",
        "http://0.0.0.0:8080/",
        "http://localhost:5432/",
        app.base.as_str(),
    ] {
        let reply = api
            .set_follow(&tournament, 1, &json!({"kind": "dgt_json", "url": url}))
            .await;
        assert_eq!(reply.status, 422, "{url}");
        let problem = reply.body;
        assert_eq!(problem["field"], "url", "{problem}");
        assert!(
            problem["detail"]
                .as_str()
                .is_some_and(|d| d.contains("--follow-allow-hosts")),
            "{problem}"
        );
    }
    app.stop().await;
}

#[actix_web::test]
async fn a_stored_follow_of_an_internal_address_is_refused_at_each_poll_before_any_connection() {
    let db = TestDb::new().await;
    let app = db
        .spawn_app(|config| {
            config.follow_poll_ms = 100;
            config.follow_max_backoff_ms = 400;
        })
        .await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, _) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    feed.publish(1, dgt_json(&real_game()[..4], "*"));
    // Stored as an older instance (or an operator who allowed the host then) left it.
    let tournament_id: Uuid = tournament.parse().expect("id");
    let follow = app
        .state
        .store
        .set_round_follow(
            tournament_id,
            "1",
            arbiter::store::FeedKind::DgtJson,
            &feed.url,
            true,
            arbiter::store::TakebackPolicy::ByFeed,
            "test",
        )
        .await
        .expect("stored");
    app.state.followers.start(follow.follow_id);
    eventually("two failed polls", || async {
        follow_view(&api, &tournament).await["follow"]["failures"]
            .as_u64()
            .is_some_and(|f| f >= 2)
    })
    .await;
    let view = follow_view(&api, &tournament).await;
    assert!(
        view["follow"]["last_error"]
            .as_str()
            .is_some_and(|e| e.contains("--follow-allow-hosts")),
        "{view}"
    );
    assert_eq!(feed.requests(), 0, "no connection to the refused address");
    app.stop().await;
}

#[actix_web::test]
async fn a_feed_that_closes_its_connections_is_waited_for_and_resumed_with_no_gap() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow(&api, &tournament, &feed.url).await;
    feed.publish(1, dgt_json(&line[..6], "*"));
    wait_for_plies(&app, game, 6).await;
    feed.set_closing(true);
    feed.publish(1, dgt_json(&line[..14], "*"));
    eventually("two failed polls", || async {
        follow_view(&api, &tournament).await["follow"]["failures"]
            .as_u64()
            .is_some_and(|f| f >= 2)
    })
    .await;
    assert_eq!(stored_moves(&app, game).await.len(), 6);
    feed.set_closing(false);
    wait_for_plies(&app, game, 14).await;
    assert_eq!(stored_moves(&app, game).await, sans(&line[..14]), "no gap");
    assert_eq!(events_of(&db, game).await.len(), 1 + 14, "each move once");
    app.stop().await;
}

#[actix_web::test]
async fn the_feeds_own_result_is_proposed_and_recorded_by_the_arbiter() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow(&api, &tournament, &feed.url).await;
    // Black resigned after 10 plies: the operator sets the result in LiveChess.
    feed.publish(1, dgt_json(&line[..10], "1-0"));
    let attention = wait_for_attention(&api, &tournament, "proposed_result").await;
    assert_eq!(attention["attention"]["signal"], "feed_result");
    assert_eq!(attention["attention"]["result"], "1-0");
    assert_eq!(stored_moves(&app, game).await, sans(&line[..10]));
    let id = attention["attention_id"].as_str().expect("id");
    let (status, decided) = decide(&api, id, "record_result").await;
    assert_eq!(status, 200, "{decided}");
    let (state, _) = app
        .state
        .arbitration
        .state_at(game, None)
        .await
        .expect("game");
    assert_eq!(
        state.result(),
        Some(arbiter::game::event::GameResult::WhiteWins)
    );
    app.stop().await;
}

#[actix_web::test]
async fn a_game_the_engine_ends_by_fivefold_repetition_stores_nothing_the_board_plays_after() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    follow(&api, &tournament, &feed.url).await;
    // The knights go out and back four times: the start position stands a fifth time (9.6.1).
    let mut line: Vec<(String, u64)> = Vec::new();
    for _ in 0..4 {
        for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
            line.push((san.to_string(), 290));
        }
    }
    let mut played_on = line.clone();
    played_on.push(("e4".into(), 280));
    played_on.push(("e5".into(), 280));
    feed.publish(1, dgt_json(&played_on, "*"));
    wait_for_plies(&app, game, 16).await;
    let attention = wait_for_attention(&api, &tournament, "refused").await;
    assert_eq!(attention["attention"]["san"], "e4", "{attention}");
    let (state, _) = app
        .state
        .arbitration
        .state_at(game, None)
        .await
        .expect("game");
    assert_eq!(
        state.result(),
        Some(arbiter::game::event::GameResult::Draw),
        "the engine ended the game"
    );
    assert_eq!(
        stored_moves(&app, game).await,
        sans(&line),
        "nothing after the end"
    );
    app.stop().await;
}

#[actix_web::test]
async fn a_feed_that_stops_answering_times_out_and_is_resumed_with_no_gap() {
    let db = TestDb::new().await;
    let app = db
        .spawn_app(|config| {
            config.follow_poll_ms = 100;
            config.follow_max_backoff_ms = 400;
            config.follow_timeout_ms = 300;
            config.follow_allow_hosts = vec!["127.0.0.1".into()];
        })
        .await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow(&api, &tournament, &feed.url).await;
    feed.publish(1, dgt_json(&line[..6], "*"));
    wait_for_plies(&app, game, 6).await;
    feed.set_silent(true);
    feed.publish(1, dgt_json(&line[..12], "*"));
    eventually("two polls timed out", || async {
        follow_view(&api, &tournament).await["follow"]["failures"]
            .as_u64()
            .is_some_and(|f| f >= 2)
    })
    .await;
    let view = follow_view(&api, &tournament).await;
    assert!(
        view["follow"]["last_error"]
            .as_str()
            .is_some_and(|e| e.contains("timed out")),
        "{view}"
    );
    assert_eq!(stored_moves(&app, game).await.len(), 6);
    feed.set_silent(false);
    wait_for_plies(&app, game, 12).await;
    assert_eq!(stored_moves(&app, game).await, sans(&line[..12]), "no gap");
    app.stop().await;
}

#[actix_web::test]
async fn both_kings_in_the_centre_with_the_feeds_result_propose_that_result_once() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow(&api, &tournament, &feed.url).await;
    feed.publish(1, dgt_json(&line[..10], "*"));
    wait_for_plies(&app, game, 10).await;
    // Both kings on the dark centre squares (d4, e5): 0-1, and the operator's 0-1 with them.
    let mut kings = line[..10].to_vec();
    kings.push(("Kd4".into(), 280));
    kings.push(("Ke5".into(), 250));
    feed.publish(1, dgt_json(&kings, "0-1"));
    let attention = wait_for_attention(&api, &tournament, "proposed_result").await;
    assert_eq!(attention["attention"]["result"], "0-1", "{attention}");
    assert_eq!(
        stored_moves(&app, game).await.len(),
        10,
        "the kings are not moves"
    );
    let id = attention["attention_id"].as_str().expect("id");
    let (status, decided) = decide(&api, id, "record_result").await;
    assert_eq!(status, 200, "{decided}");
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        follow_view(&api, &tournament).await["attentions"],
        json!([]),
        "the result the log holds needs nobody"
    );
    app.stop().await;
}

/// The round's PGN with board 1's game ending as `result` with `termination` stated.
fn round_pgn_terminated(moves: &[(String, u64)], result: &str, termination: &str) -> String {
    round_pgn(moves, result).replacen(
        "[Board \"1\"]\n",
        &format!("[Board \"1\"]\n[Termination \"{termination}\"]\n"),
        1,
    )
}

/// The types of the game's recorded events (not the service's), in log order.
async fn recorded_types(db: &TestDb, game: Uuid) -> Vec<&'static str> {
    events_of(db, game)
        .await
        .into_iter()
        .filter_map(|e| match e.event {
            Event::Recorded(recorded) => Some(recorded.type_name()),
            Event::Service(_) => None,
        })
        .collect()
}

#[actix_web::test]
async fn a_round_pgn_result_with_its_termination_is_recorded_as_the_fact_the_file_states() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow_as(&api, &tournament, "pgn", &format!("{}round.pgn", feed.url)).await;
    // White lost on time after 10 plies, as the broadcast's file states it.
    feed.publish_pgn(round_pgn_terminated(&line[..10], "0-1", "Time forfeit"));
    let attention = wait_for_attention(&api, &tournament, "proposed_result").await;
    assert_eq!(attention["attention"]["result"], "0-1", "{attention}");
    assert_eq!(
        attention["attention"]["termination"], "Time forfeit",
        "{attention}"
    );
    assert_eq!(stored_moves(&app, game).await, sans(&line[..10]));
    let id = attention["attention_id"].as_str().expect("id");
    let (status, decided) = decide(&api, id, "record_result").await;
    assert_eq!(status, 200, "{decided}");
    // Recorded as White's flag fall, which the engine rules on (6.9: Black can mate).
    let types = recorded_types(&db, game).await;
    assert_eq!(types.last(), Some(&"flag"), "{types:?}");
    let (state, _) = app
        .state
        .arbitration
        .state_at(game, None)
        .await
        .expect("game");
    assert_eq!(
        state.result(),
        Some(arbiter::game::event::GameResult::BlackWins)
    );
    assert_eq!(stored_moves(&app, game).await, sans(&line[..10]));
    app.stop().await;
}

#[actix_web::test]
async fn a_round_pgn_result_without_a_termination_is_kept_as_reported() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow_as(&api, &tournament, "pgn", &format!("{}round.pgn", feed.url)).await;
    feed.publish_pgn(round_pgn(&line[..10], "1/2-1/2"));
    let attention = wait_for_attention(&api, &tournament, "proposed_result").await;
    assert!(
        attention["attention"]["termination"].is_null(),
        "{attention}"
    );
    let id = attention["attention_id"].as_str().expect("id");
    let (status, decided) = decide(&api, id, "record_result").await;
    assert_eq!(status, 200, "{decided}");
    let types = recorded_types(&db, game).await;
    assert_eq!(types.last(), Some(&"arbiter_decision"), "{types:?}");
    let (state, _) = app
        .state
        .arbitration
        .state_at(game, None)
        .await
        .expect("game");
    assert_eq!(state.result(), Some(arbiter::game::event::GameResult::Draw));
    app.stop().await;
}

#[actix_web::test]
async fn a_second_takeback_the_feed_applies_keeps_the_undo_of_the_first() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    // 12 plies (to 6... f4); the board takes back 6. d3 f4 and 6. h3 is played; then it takes
    // back 5... f5 6. h3 and 5... Nf6 is played.
    let mut first = line[..10].to_vec();
    first.push(("h3".into(), 260));
    let mut second = line[..9].to_vec();
    second.push(("Nf6".into(), 270));
    let frames = vec![
        dgt_json(&line[..12], "*"),
        dgt_json(&line[..12], "*"),
        dgt_json(&line[..10], "*"),
        dgt_json(&line[..10], "*"),
        dgt_json(&first, "*"),
        dgt_json(&first, "*"),
        dgt_json(&line[..9], "*"),
        dgt_json(&line[..9], "*"),
        dgt_json(&second, "*"),
        dgt_json(&second, "*"),
    ];
    feed.play(1, frames);
    follow(&api, &tournament, &feed.url).await;
    eventually("every frame served", || async { feed.played() }).await;
    wait_for_plies(&app, game, 10).await;
    eventually("the board's second line stored", || async {
        stored_moves(&app, game).await == sans(&second)
    })
    .await;
    // One notice, for both takebacks: undoing it restores the line before the first.
    let notice = wait_for_attention(&api, &tournament, "corrected_by_feed").await;
    assert_eq!(notice["attention"]["keep_plies"], 9, "{notice}");
    assert_eq!(notice["attention"]["stored_plies"], 12, "{notice}");
    assert_eq!(
        notice["attention"]["retracted"]
            .as_array()
            .map(|moves| moves.iter().map(|m| m["san"].clone()).collect::<Vec<_>>()),
        Some(line[9..12].iter().map(|(s, _)| json!(s)).collect()),
        "{notice}"
    );
    let id = notice["attention_id"].as_str().expect("id");
    let (status, decided) = decide(&api, id, "undo_correction").await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!(
        stored_moves(&app, game).await,
        sans(&line[..12]),
        "the line as it stood before both takebacks"
    );
    // The restored moves keep their readings.
    let readings: Vec<Option<u64>> = events_of(&db, game)
        .await
        .into_iter()
        .filter(|e| matches!(e.event, Event::Recorded(RecordedEvent::Move { .. })))
        .rev()
        .take(3)
        .map(|e| e.clock.and_then(|c| c.white_ms.or(c.black_ms)))
        .collect();
    assert_eq!(
        readings,
        line[9..12]
            .iter()
            .rev()
            .map(|(_, s)| Some(s * 1000))
            .collect::<Vec<_>>()
    );
    app.stop().await;
}

/// Erigaisi - Sindarov (TWIC 1599, the second game of the file): 115 half-moves, the last
/// one played in a dead position (bare kings and a minor piece after ply 114).
fn dead_position_game() -> Vec<(String, u64)> {
    let path = crate::shared::shared("data/games/twic1599.pgn");
    let file = std::fs::File::open(&path).expect("the TWIC file");
    let games = read_games(std::io::BufReader::new(file)).expect("readable PGN");
    let Some(ReadGame::Planned(plan)) = games.into_iter().nth(1) else {
        panic!("the second game of {}", path.display());
    };
    plan.events
        .iter()
        .filter_map(|planned| match &planned.event {
            // The file has no clocks: a steady reading under the control's base time.
            RecordedEvent::Move { san, .. } => Some((san.clone(), 200)),
            _ => None,
        })
        .collect()
}

#[actix_web::test]
async fn a_game_the_engine_ends_in_a_dead_position_stores_nothing_the_board_plays_after() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = dead_position_game();
    assert_eq!(line.len(), 115, "the record as the file has it");
    follow(&api, &tournament, &feed.url).await;
    // The board goes on after the dead position: its last move is published with the rest.
    feed.publish(1, dgt_json(&line, "*"));
    wait_for_plies(&app, game, 114).await;
    let attention = wait_for_attention(&api, &tournament, "refused").await;
    assert_eq!(attention["attention"]["ply"], 115, "{attention}");
    assert_eq!(attention["attention"]["san"], line[114].0, "{attention}");
    let (state, _) = app
        .state
        .arbitration
        .state_at(game, None)
        .await
        .expect("game");
    assert_eq!(
        state.result(),
        Some(arbiter::game::event::GameResult::Draw),
        "the engine ended the game (5.2.2)"
    );
    assert_eq!(
        stored_moves(&app, game).await,
        sans(&line[..114]),
        "the game as played up to its end, nothing after"
    );
    app.stop().await;
}

/// How a round's PGN fails.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// It answers 503.
    Unavailable,
    /// It closes every connection without answering.
    Closing,
    /// It never answers (the poll times out).
    Silent,
}

impl Fault {
    fn set(self, feed: &Feed, on: bool) {
        match self {
            Fault::Unavailable => feed.set_down(on),
            Fault::Closing => feed.set_closing(on),
            Fault::Silent => feed.set_silent(on),
        }
    }
}

/// A round followed from its PGN while the file fails as `fault` says: the failures are noted
/// on the follow, nothing is stored meanwhile, and every move the board made meanwhile is
/// stored once the file answers again, in order and once.
async fn a_round_pgn_that_fails_is_waited_for_and_resumed_with_no_gap(fault: Fault) {
    let db = TestDb::new().await;
    let app = db
        .spawn_app(|config| {
            config.follow_poll_ms = 100;
            config.follow_max_backoff_ms = 400;
            config.follow_timeout_ms = 300;
            config.follow_allow_hosts = vec!["127.0.0.1".into()];
        })
        .await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow_as(&api, &tournament, "pgn", &format!("{}round.pgn", feed.url)).await;
    feed.publish_pgn(round_pgn(&line[..6], "*"));
    wait_for_plies(&app, game, 6).await;
    fault.set(&feed, true);
    feed.publish_pgn(round_pgn(&line[..14], "*"));
    eventually("two failed polls", || async {
        follow_view(&api, &tournament).await["follow"]["failures"]
            .as_u64()
            .is_some_and(|f| f >= 2)
    })
    .await;
    let view = follow_view(&api, &tournament).await;
    let error = view["follow"]["last_error"].as_str().unwrap_or_default();
    assert!(error.contains("round.pgn"), "{fault:?}: {view}");
    match fault {
        Fault::Unavailable => assert!(error.contains("503"), "{view}"),
        Fault::Silent => assert!(error.contains("timed out"), "{view}"),
        Fault::Closing => {}
    }
    assert_eq!(stored_moves(&app, game).await.len(), 6, "{fault:?}");
    fault.set(&feed, false);
    wait_for_plies(&app, game, 14).await;
    assert_eq!(stored_moves(&app, game).await, sans(&line[..14]), "no gap");
    assert_eq!(events_of(&db, game).await.len(), 1 + 14, "each move once");
    eventually("the follow answers again", || async {
        follow_view(&api, &tournament).await["follow"]["failures"] == 0
    })
    .await;
    app.stop().await;
}

#[actix_web::test]
async fn a_round_pgn_answering_503_is_waited_for_and_resumed_with_no_gap() {
    a_round_pgn_that_fails_is_waited_for_and_resumed_with_no_gap(Fault::Unavailable).await;
}

#[actix_web::test]
async fn a_round_pgn_that_closes_its_connections_is_waited_for_and_resumed_with_no_gap() {
    a_round_pgn_that_fails_is_waited_for_and_resumed_with_no_gap(Fault::Closing).await;
}

#[actix_web::test]
async fn a_round_pgn_that_stops_answering_times_out_and_is_resumed_with_no_gap() {
    a_round_pgn_that_fails_is_waited_for_and_resumed_with_no_gap(Fault::Silent).await;
}

#[actix_web::test]
async fn a_takeback_in_the_round_pgn_is_applied_by_the_feed_and_undoable() {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    follow_as(&api, &tournament, "pgn", &format!("{}round.pgn", feed.url)).await;
    feed.publish_pgn(round_pgn(&line[..12], "*"));
    wait_for_plies(&app, game, 12).await;
    // The broadcast's file takes back 6... f4; 6... Nf6 is played instead.
    let mut other = line[..11].to_vec();
    other.push(("Nf6".into(), 250));
    feed.publish_pgn(round_pgn(&other, "*"));
    eventually("the board's line stored", || async {
        stored_moves(&app, game).await == sans(&other)
    })
    .await;
    let corrections = corrections_of(&db, game).await;
    assert_eq!(corrections.len(), 1, "{corrections:?}");
    assert_eq!(corrections[0].0, "board feed");
    let notice = wait_for_attention(&api, &tournament, "corrected_by_feed").await;
    assert_eq!(notice["attention"]["keep_plies"], 11, "{notice}");
    let id = notice["attention_id"].as_str().expect("id");
    let (status, decided) = decide(&api, id, "undo_correction").await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!(stored_moves(&app, game).await, sans(&line[..12]));
    // The file still shows its own line: now over the arbiter's entries, so it waits.
    let waits = wait_for_attention(&api, &tournament, "diverges").await;
    assert_eq!(waits["attention"]["ply"], 12, "{waits}");
    app.stop().await;
}

#[actix_web::test]
async fn a_board_whose_feed_changed_is_read_again_before_the_next_poll_and_its_move_stored_then() {
    let db = TestDb::new().await;
    // Polls every 3 s (the default); a changed board read again after 300 ms.
    let app = db
        .spawn_app(|config| {
            config.follow_poll_ms = 3000;
            config.follow_confirm_ms = 300;
            config.follow_allow_hosts = vec!["127.0.0.1".into()];
        })
        .await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    feed.publish(1, dgt_json(&line[..10], "*"));
    follow(&api, &tournament, &feed.url).await;
    wait_for_plies(&app, game, 10).await;
    let frame = dgt_json(&line[..11], "*");
    feed.publish(1, frame.clone());
    wait_for_plies(&app, game, 11).await;
    // The poll that saw the new last move, then the read that found it standing, well inside
    // one poll interval (the polls themselves are 3 s apart).
    let served = feed.served_with(&frame);
    assert!(served.len() >= 2, "{} reads", served.len());
    let gap = served[1] - served[0];
    assert!(
        gap < Duration::from_millis(2000),
        "read again after {gap:?}, not at the next poll"
    );
    assert_eq!(stored_moves(&app, game).await, sans(&line[..11]));
    app.stop().await;
}

/// The open attentions of board 1 (by kind), read from the API.
async fn open_kinds(api: &Api<'_>, tournament: &str) -> Vec<String> {
    let view = follow_view(api, tournament).await;
    let mut kinds: Vec<String> = view["attentions"]
        .as_array()
        .map(|all| {
            all.iter()
                .filter(|a| a["board"] == 1)
                .filter_map(|a| a["attention"]["type"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    kinds.sort();
    kinds
}

#[actix_web::test]
async fn a_fault_that_needs_the_arbiter_after_a_takeback_the_feed_applied_leaves_its_notice_open_and_each_is_decided_on_its_own()
 {
    let db = TestDb::new().await;
    let app = spawn(&db).await;
    let api = api_with_state(&db, app.state.clone()).await;
    let (tournament, game) = round_with_one_board(&api).await;
    let feed = Feed::start().await;
    let line = real_game();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let cookie = office_session(&app, &db, &client).await;
    // 12 plies (to 6... f4); the board takes back 6. d3 f4 and 6. h3 is played: the feed
    // applies the takeback. Then the board reads Black's reply as 6... Qh8, which is not
    // legal (the king on e8 stands between), and keeps showing it.
    let mut other = line[..10].to_vec();
    other.push(("h3".into(), 260));
    let mut misread = other.clone();
    misread.push(("Qh8".into(), 250));
    let frames = vec![
        dgt_json(&line[..12], "*"),
        dgt_json(&line[..12], "*"),
        dgt_json(&line[..10], "*"),
        dgt_json(&line[..10], "*"),
        dgt_json(&other, "*"),
        dgt_json(&other, "*"),
        dgt_json(&misread, "*"),
    ];
    feed.play(1, frames);
    follow(&api, &tournament, &feed.url).await;
    eventually("every frame served", || async { feed.played() }).await;
    eventually("the notice and the misread both open", || async {
        open_kinds(&api, &tournament).await == ["corrected_by_feed", "illegal_move"]
    })
    .await;
    assert_eq!(stored_moves(&app, game).await, sans(&other));

    // Both on the floor and on the desk, each with its own decisions.
    let floor = page(
        &client,
        &app,
        &cookie,
        "/office/floor?event=Feed%20Open%202026&round=1",
    )
    .await;
    assert!(floor.contains("the board feed retracted them"), "{floor}");
    assert!(floor.contains("Qh8 is not a legal move"), "{floor}");
    let desk = page(&client, &app, &cookie, &format!("/office/games/{game}")).await;
    assert!(desk.contains("undo_correction"), "{desk}");
    assert!(desk.contains("record_illegal_move"), "{desk}");

    // The misread is decided first: recorded as an illegal move (7.5). The board goes on
    // showing it, and the notice stays open.
    let view = follow_view(&api, &tournament).await;
    let of_kind = |kind: &str| {
        view["attentions"]
            .as_array()
            .and_then(|all| all.iter().find(|a| a["attention"]["type"] == kind))
            .and_then(|a| a["attention_id"].as_str())
            .map(str::to_owned)
            .expect("the attention")
    };
    let (notice, misread_id) = (of_kind("corrected_by_feed"), of_kind("illegal_move"));
    let (status, decided) = decide(&api, &misread_id, "record_illegal_move").await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!(decided["attention"]["resolution"], "illegal_move_recorded");
    // Two more polls read the board against the log the decision changed.
    let polls = feed.requests();
    eventually("two more polls", || async { feed.requests() >= polls + 2 }).await;
    assert_eq!(
        open_kinds(&api, &tournament).await,
        ["corrected_by_feed"],
        "the notice is still open"
    );
    // Then the takeback is undone: the line as it stood before it.
    let (status, decided) = decide(&api, &notice, "undo_correction").await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!(decided["attention"]["resolution"], "undone");
    assert_eq!(stored_moves(&app, game).await, sans(&line[..12]));
    app.stop().await;
}

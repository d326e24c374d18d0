//! Every case of shared/cases/article9-cases.json recorded through the HTTP API, one test
//! per case id: the decisions in the append answers, the refusals, and the projection
//! from `GET /v1/games/{id}` are compared with the case's ruling (as tests/rules/cases.rs
//! does at engine level).

use serde_json::{Value, json};
use uuid::Uuid;

use crate::client::{Api, Reply, api};
use crate::support::TestDb;

/// The worked arbiter cases (`../shared/cases`, or the copy in `tests/shared/cases`).
fn cases_path() -> std::path::PathBuf {
    crate::shared::shared("cases/article9-cases.json")
}

const BASE_MS: u64 = 5_400_000;
/// The base time of the rapid games: 25 minutes (rapid by A.1; 90 minutes would be standard
/// play, which a new game may no longer be entered as rapid).
const RAPID_BASE_MS: u64 = 1_500_000;

/// A case's start position and moves, read from the file.
struct Case {
    fen: Option<String>,
    sans: Vec<String>,
}

fn case(id: &str) -> Case {
    let text = std::fs::read_to_string(cases_path()).expect("article9-cases.json is readable");
    let cases: Vec<Value> = serde_json::from_str(&text).expect("article9-cases.json is JSON");
    let found = cases
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("case {id} is in article9-cases.json"));
    Case {
        fen: found["fen"].as_str().map(str::to_string),
        sans: found["sans"]
            .as_array()
            .expect("sans is a list")
            .iter()
            .map(|s| s.as_str().expect("a SAN string").to_string())
            .collect(),
    }
}

/// Game settings as the engine tests use them: 90 minutes, no increment.
fn settings(fen: Option<&str>, kind: &str) -> Value {
    let mut s = json!({
        "white": {"name": "White, Wanda"},
        "black": {"name": "Black, Bob"},
        "event": "Article 9 cases",
        "round": "1",
        "time_control": {"kind": kind, "base_ms": if kind == "rapid" { RAPID_BASE_MS } else { BASE_MS }, "increment_ms": 0},
        "laws_edition": "2023"
    });
    if let Some(fen) = fen {
        s["start_fen"] = json!(fen);
    }
    s
}

/// A game recorded through the API, with the `seq` of its last stored event.
struct Board {
    game: Uuid,
    seq: u64,
    /// Side to move, tracked from the moves recorded.
    white_to_move: bool,
}

fn side(white: bool) -> &'static str {
    if white { "white" } else { "black" }
}

async fn create(api: &Api<'_>, settings: Value) -> Board {
    let white_to_move = settings["start_fen"]
        .as_str()
        .is_none_or(|fen| fen.split_whitespace().nth(1) == Some("w"));
    let body = api.create_game(&settings).await.expect(201);
    let game = body["game"]["game_id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("game id");
    Board {
        game,
        seq: 1,
        white_to_move,
    }
}

/// Records one event; asserts 201 and returns the `event` of every envelope in the answer
/// (the recorded event first, then the decisions it caused).
async fn record(api: &Api<'_>, board: &mut Board, event: Value) -> Vec<Value> {
    let Reply { status, body, .. } = api
        .append_events(board.game, board.seq, json!([event]))
        .await;
    assert_eq!(status, 201, "{event} answered {body}");
    let envelopes = body["events"].as_array().expect("events in the answer");
    assert_eq!(
        envelopes[0]["event"], event,
        "the recorded event comes first"
    );
    assert_eq!(
        envelopes[0]["seq"].as_u64(),
        Some(board.seq + 1),
        "seq of {body}"
    );
    board.seq = body["last_seq"].as_u64().expect("last_seq");
    assert_eq!(
        board.seq,
        envelopes
            .last()
            .and_then(|e| e["seq"].as_u64())
            .expect("seq"),
        "last_seq is the last envelope's"
    );
    envelopes.iter().map(|e| e["event"].clone()).collect()
}

/// Records a move by the side to move (moves only, no clock presses: the engine tests do
/// the same, and presses without times change nothing).
async fn play(api: &Api<'_>, board: &mut Board, san: &str) -> Vec<Value> {
    let by = side(board.white_to_move);
    let events = record(api, board, json!({"type": "move", "by": by, "san": san})).await;
    board.white_to_move = !board.white_to_move;
    events
}

async fn play_all(api: &Api<'_>, board: &mut Board, sans: &[String]) -> Vec<Value> {
    let mut last = Vec::new();
    for san in sans {
        last = play(api, board, san).await;
    }
    last
}

/// A game with the case's start position and all its moves recorded.
async fn from_case(api: &Api<'_>, id: &str, kind: &str) -> (Board, Vec<Value>) {
    let c = case(id);
    let mut board = create(api, settings(c.fen.as_deref(), kind)).await;
    let last = play_all(api, &mut board, &c.sans).await;
    (board, last)
}

/// Asserts the event is refused with 422 and `code`, and that nothing was stored.
async fn refuse(api: &Api<'_>, db: &TestDb, board: &Board, event: Value, code: &str) -> Value {
    let before = db.event_count().await;
    let reply = api
        .append_events(board.game, board.seq, json!([event]))
        .await
        .problem(422, code);
    assert_eq!(db.event_count().await, before, "nothing stored for {event}");
    reply.body
}

/// The projection (`state`) of the game, checked to be as of the last seq.
async fn view(api: &Api<'_>, board: &Board) -> Value {
    let Reply { status, body, .. } = api.game(board.game).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["as_of_seq"].as_u64(), Some(board.seq), "{body}");
    body["state"].clone()
}

fn decision<'a>(events: &'a [Value], kind: &str) -> Option<&'a Value> {
    events.iter().skip(1).find(|e| e["type"] == kind)
}

fn ruling(events: &[Value]) -> &Value {
    decision(events, "claim_ruled").unwrap_or_else(|| panic!("a claim_ruled in {events:?}"))
}

/// `(side, add_ms)` of the penalty_applied decision, if any.
fn penalty(events: &[Value]) -> Option<(String, u64)> {
    decision(events, "penalty_applied").map(|p| {
        (
            p["side"].as_str().expect("side").to_string(),
            p["add_ms"].as_u64().expect("add_ms"),
        )
    })
}

/// `(result, termination)` of the game_ended decision, if any.
fn ended(events: &[Value]) -> Option<(String, String)> {
    decision(events, "game_ended").map(|e| {
        (
            e["result"].as_str().expect("result").to_string(),
            e["termination"].as_str().expect("termination").to_string(),
        )
    })
}

fn pair(a: &str, b: &str) -> Option<(String, String)> {
    Some((a.to_string(), b.to_string()))
}

/// A claim, as the service echoes it (`intended_move` is always present, null when none).
fn claim(by: &str, kind: &str, intended: Option<&str>) -> Value {
    json!({"type": "claim", "by": by, "kind": kind, "intended_move": intended})
}

/// Asserts the projection shows the game ended with `result` and `termination`.
fn assert_ended(state: &Value, result: &str, termination: &str) {
    assert_eq!(state["status"], "ended", "{state}");
    assert_eq!(state["result"], result, "{state}");
    assert_eq!(state["termination"], termination, "{state}");
}

fn assert_in_progress(state: &Value) {
    assert_eq!(state["status"], "in_progress", "{state}");
    assert_eq!(state["result"], Value::Null, "{state}");
    assert_eq!(state["termination"], Value::Null, "{state}");
}

fn assert_clocks(state: &Value, white_ms: u64, black_ms: u64) {
    assert_eq!(
        state["clocks"],
        json!({"white_ms": white_ms, "black_ms": black_ms}),
        "{state}"
    );
}

#[actix_web::test]
async fn rep_01_a_threefold_claim_on_a_position_that_has_just_appeared_is_upheld() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "REP-01", "standard").await;
    let d = record(&api, &mut board, claim("white", "repetition", None)).await;
    let r = ruling(&d);
    assert_eq!(r["outcome"], "upheld", "{r}");
    assert_eq!(r["article"], "9.2.2");
    assert_eq!(r["evidence"]["occurrences"], json!([0, 4, 8]));
    assert_eq!(ended(&d), pair("1/2-1/2", "repetition_claim"));
    assert_eq!(penalty(&d), None);
    assert_ended(&view(&api, &board).await, "1/2-1/2", "repetition_claim");

    // The same claim in a 2018-edition game cites 9.2.1.2.
    let c = case("REP-01");
    let mut s = settings(None, "standard");
    s["laws_edition"] = json!("2018");
    let mut board = create(&api, s).await;
    play_all(&api, &mut board, &c.sans).await;
    let d = record(&api, &mut board, claim("white", "repetition", None)).await;
    assert_eq!(ruling(&d)["outcome"], "upheld");
    assert_eq!(ruling(&d)["article"], "9.2.1.2");
    assert_eq!(view(&api, &board).await["laws_edition"], "2018");
}

#[actix_web::test]
async fn rep_02_an_intended_move_making_the_third_occurrence_is_upheld_without_being_played() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "REP-02", "standard").await;
    let d = record(&api, &mut board, claim("black", "repetition", Some("Ng8"))).await;
    let r = ruling(&d);
    assert_eq!(r["outcome"], "upheld", "{r}");
    assert_eq!(r["article"], "9.2.1");
    assert_eq!(ended(&d), pair("1/2-1/2", "repetition_claim"));
    let state = view(&api, &board).await;
    assert_eq!(state["ply"], 7, "the written move is not played");
    assert_ended(&state, "1/2-1/2", "repetition_claim");
}

#[actix_web::test]
async fn rep_04_an_intended_move_giving_only_a_second_occurrence_is_rejected_and_must_be_played() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "REP-04", "standard").await;
    let d = record(&api, &mut board, claim("black", "repetition", Some("Nf6"))).await;
    let r = ruling(&d);
    assert_eq!(r["outcome"], "rejected", "{r}");
    assert_eq!(r["article"], "9.2.1", "{r}");
    assert_eq!(r["must_play"], "Nf6");
    assert_eq!(r["penalty"], json!({"side": "white", "add_ms": 120_000}));
    assert_eq!(penalty(&d), Some(("white".into(), 120_000)));
    assert_eq!(
        decision(&d, "penalty_applied").expect("penalty")["article"],
        "9.5.3"
    );
    assert_eq!(ended(&d), None);
    let state = view(&api, &board).await;
    assert_in_progress(&state);
    assert_clocks(&state, BASE_MS + 120_000, BASE_MS);
    assert_eq!(
        state["obligations"]["must_play"],
        json!({"by": "black", "san": "Nf6"})
    );
    refuse(
        &api,
        &db,
        &board,
        json!({"type": "move", "by": "black", "san": "e5"}),
        "must_play_obligation",
    )
    .await;
    play(&api, &mut board, "Nf6").await;
    let state = view(&api, &board).await;
    assert_eq!(state["obligations"]["must_play"], Value::Null);
    assert_in_progress(&state);
}

#[actix_web::test]
async fn rep_07_a_pinned_en_passant_pawn_does_not_make_the_positions_differ() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "REP-07", "standard").await;
    let d = record(&api, &mut board, claim("black", "repetition", None)).await;
    let r = ruling(&d);
    assert_eq!(r["outcome"], "upheld", "{r}");
    assert_eq!(r["article"], "9.2.2");
    assert_eq!(r["evidence"]["occurrences"], json!([1, 5, 9]));
    assert_eq!(ended(&d), pair("1/2-1/2", "repetition_claim"));
    assert_ended(&view(&api, &board).await, "1/2-1/2", "repetition_claim");
}

#[actix_web::test]
async fn rep_09_forfeited_castling_rights_make_earlier_positions_differ() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let c = case("REP-09");
    let mut board = create(&api, settings(None, "standard")).await;
    play_all(&api, &mut board, &c.sans[..10]).await;
    let d = record(&api, &mut board, claim("white", "repetition", None)).await;
    let r = ruling(&d);
    assert_eq!(r["outcome"], "rejected", "{r}");
    assert_eq!(penalty(&d), Some(("black".into(), 120_000)));
    assert!(
        r["evidence"]["near_misses"]
            .to_string()
            .contains("castling_rights"),
        "evidence names castling rights: {r}"
    );
    let state = view(&api, &board).await;
    assert_in_progress(&state);
    assert_clocks(&state, BASE_MS, BASE_MS + 120_000);
    play_all(&api, &mut board, &c.sans[10..]).await;
    let d = record(&api, &mut board, claim("white", "repetition", None)).await;
    let r = ruling(&d);
    assert_eq!(r["outcome"], "upheld", "{r}");
    assert_eq!(r["evidence"]["occurrences"], json!([6, 10, 14]));
    assert_eq!(ended(&d), pair("1/2-1/2", "repetition_claim"));
    let state = view(&api, &board).await;
    assert_ended(&state, "1/2-1/2", "repetition_claim");
    assert_clocks(&state, BASE_MS, BASE_MS + 120_000);
}

#[actix_web::test]
async fn rep_12_the_same_placement_with_the_other_side_to_move_is_not_the_same_position() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "REP-12", "standard").await;
    let d = record(&api, &mut board, claim("white", "repetition", None)).await;
    let r = ruling(&d);
    assert_eq!(r["outcome"], "rejected", "{r}");
    assert_eq!(r["evidence"]["occurrences"], json!([0, 12]));
    assert!(
        r["evidence"]["near_misses"]
            .to_string()
            .contains("side_to_move"),
        "{r}"
    );
    assert_eq!(penalty(&d), Some(("black".into(), 120_000)));
    assert_eq!(ended(&d), None);
    let state = view(&api, &board).await;
    assert_in_progress(&state);
    assert_clocks(&state, BASE_MS, BASE_MS + 120_000);
}

#[actix_web::test]
async fn rep_15_a_fivefold_repetition_ends_the_game_and_later_events_are_void() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let c = case("REP-15");
    let mut board = create(&api, settings(None, "standard")).await;
    let d = play_all(&api, &mut board, &c.sans[..15]).await;
    assert_eq!(ended(&d), None);
    assert_in_progress(&view(&api, &board).await);
    let d = play(&api, &mut board, &c.sans[15]).await;
    let e = decision(&d, "game_ended").expect("game_ended");
    assert_eq!(ended(&d), pair("1/2-1/2", "fivefold_repetition"));
    assert_eq!(e["article"], "9.6.1");
    let state = view(&api, &board).await;
    assert_ended(&state, "1/2-1/2", "fivefold_repetition");
    assert_eq!(state["article"], "9.6.1");
    refuse(
        &api,
        &db,
        &board,
        json!({"type": "flag", "side": "white"}),
        "game_over",
    )
    .await;
    refuse(
        &api,
        &db,
        &board,
        json!({"type": "move", "by": "white", "san": "e4"}),
        "game_over",
    )
    .await;
    assert_ended(&view(&api, &board).await, "1/2-1/2", "fivefold_repetition");
}

#[actix_web::test]
async fn rep_17_an_incorrect_claim_accepted_as_a_draw_offer_ends_by_agreement() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "REP-17", "standard").await;
    let d = record(&api, &mut board, claim("black", "repetition", None)).await;
    assert_eq!(ruling(&d)["outcome"], "rejected", "{}", ruling(&d));
    let d = record(
        &api,
        &mut board,
        json!({"type": "draw_accept", "by": "white"}),
    )
    .await;
    assert_eq!(ended(&d), pair("1/2-1/2", "agreement"));
    let article = decision(&d, "game_ended").expect("ended")["article"].to_string();
    assert!(article.contains("9.1.2.3"), "{article}");
    let state = view(&api, &board).await;
    assert_ended(&state, "1/2-1/2", "agreement");
    assert_eq!(
        state["clocks"],
        json!({"white_ms": BASE_MS, "black_ms": BASE_MS}),
        "REP-17 ruling: 'no +2 min' when the opponent accepts the claim as a draw offer \
         (9.1.2.3): the extra time stored with the claim's ruling is void once the claim is \
         accepted as an offer"
    );
}

#[actix_web::test]
async fn fif_01_a_fifty_move_claim_after_one_hundred_half_moves_is_upheld() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "FIF-01", "standard").await;
    let d = record(&api, &mut board, claim("black", "fifty_moves", None)).await;
    let r = ruling(&d);
    assert_eq!(r["outcome"], "upheld", "{r}");
    assert_eq!(r["article"], "9.3.2");
    assert_eq!(r["evidence"]["halfmove_clock"], 100);
    assert_eq!(ended(&d), pair("1/2-1/2", "fifty_moves_claim"));
    assert_ended(&view(&api, &board).await, "1/2-1/2", "fifty_moves_claim");
}

#[actix_web::test]
async fn fif_02_a_fifty_move_claim_with_a_quiet_intended_move_is_upheld() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "FIF-02", "standard").await;
    let d = record(&api, &mut board, claim("white", "fifty_moves", Some("Ne7"))).await;
    let r = ruling(&d);
    assert_eq!(r["outcome"], "upheld", "{r}");
    assert_eq!(r["article"], "9.3.1");
    assert_eq!(ended(&d), pair("1/2-1/2", "fifty_moves_claim"));
    let state = view(&api, &board).await;
    assert_eq!(state["ply"], 99, "the written move is not played");
    assert_ended(&state, "1/2-1/2", "fifty_moves_claim");
}

#[actix_web::test]
async fn fif_05_castling_does_not_reset_the_fifty_move_count() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "FIF-05", "standard").await;
    let state = view(&api, &board).await;
    assert_eq!(state["halfmove_clock"], 100);
    let by = state["side_to_move"].as_str().expect("side").to_string();
    let d = record(&api, &mut board, claim(&by, "fifty_moves", None)).await;
    assert_eq!(ruling(&d)["outcome"], "upheld", "{}", ruling(&d));
    assert_eq!(ruling(&d)["article"], "9.3.2");
    assert_eq!(ended(&d), pair("1/2-1/2", "fifty_moves_claim"));
    assert_ended(&view(&api, &board).await, "1/2-1/2", "fifty_moves_claim");
}

#[actix_web::test]
async fn sev_02_checkmate_on_the_150th_half_move_takes_precedence_over_the_75_move_rule() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let c = case("SEV-02");
    let mut board = create(&api, settings(c.fen.as_deref(), "standard")).await;
    let d = play_all(&api, &mut board, &c.sans[..149]).await;
    assert_eq!(ended(&d), None);
    assert_in_progress(&view(&api, &board).await);
    let d = play(&api, &mut board, &c.sans[149]).await;
    assert_eq!(ended(&d), pair("1-0", "checkmate"));
    assert_ended(&view(&api, &board).await, "1-0", "checkmate");

    // Variant: a quiet 150th half-move ends the game by the 75-move rule.
    let mut board = create(&api, settings(c.fen.as_deref(), "standard")).await;
    play_all(&api, &mut board, &c.sans[..149]).await;
    let d = play(&api, &mut board, "Rh7").await;
    assert_eq!(ended(&d), pair("1/2-1/2", "seventy_five_moves"));
    assert_ended(&view(&api, &board).await, "1/2-1/2", "seventy_five_moves");
}

#[actix_web::test]
async fn dead_01_a_capture_leaving_king_against_king_is_a_dead_position() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (board, d) = from_case(&api, "DEAD-01", "standard").await;
    assert_eq!(ended(&d), pair("1/2-1/2", "dead_position"));
    assert_eq!(
        decision(&d, "game_ended").expect("ended")["article"],
        "5.2.2"
    );
    let state = view(&api, &board).await;
    assert_ended(&state, "1/2-1/2", "dead_position");
    assert_eq!(state["article"], "5.2.2");
    refuse(
        &api,
        &db,
        &board,
        json!({"type": "resign", "by": "black"}),
        "game_over",
    )
    .await;
}

#[actix_web::test]
async fn dead_04_bishops_on_the_same_colour_are_a_dead_position() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (board, d) = from_case(&api, "DEAD-04", "standard").await;
    assert_eq!(ended(&d), pair("1/2-1/2", "dead_position"));
    let state = view(&api, &board).await;
    assert_ended(&state, "1/2-1/2", "dead_position");
    assert_eq!(state["article"], "5.2.2");
}

#[actix_web::test]
async fn dead_05_a_flag_with_opposite_coloured_bishops_loses_because_mate_is_possible() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "DEAD-05", "standard").await;
    let d = record(&api, &mut board, json!({"type": "flag", "side": "black"})).await;
    assert_eq!(ended(&d), pair("1-0", "flag"));
    assert_eq!(decision(&d, "game_ended").expect("ended")["article"], "6.9");
    let state = view(&api, &board).await;
    assert_ended(&state, "1-0", "flag");
    assert_eq!(state["article"], "6.9");
}

#[actix_web::test]
async fn dead_07_a_flag_against_a_lone_king_is_a_draw() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "DEAD-07", "standard").await;
    let d = record(&api, &mut board, json!({"type": "flag", "side": "white"})).await;
    assert_eq!(ended(&d), pair("1/2-1/2", "flag"));
    assert_eq!(decision(&d, "game_ended").expect("ended")["article"], "6.9");
    let state = view(&api, &board).await;
    assert_ended(&state, "1/2-1/2", "flag");
    assert_eq!(state["article"], "6.9");
}

#[actix_web::test]
async fn dead_11_locked_pawn_chains_are_a_dead_position_and_a_later_flag_is_void() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (board, d) = from_case(&api, "DEAD-11", "standard").await;
    assert_eq!(ended(&d), pair("1/2-1/2", "dead_position"));
    assert_ended(&view(&api, &board).await, "1/2-1/2", "dead_position");
    let problem = refuse(
        &api,
        &db,
        &board,
        json!({"type": "flag", "side": "black"}),
        "game_over",
    )
    .await;
    assert!(problem["detail"].to_string().contains("6.9"), "{problem}");
    refuse(
        &api,
        &db,
        &board,
        json!({"type": "resign", "by": "white"}),
        "game_over",
    )
    .await;
    assert_ended(&view(&api, &board).await, "1/2-1/2", "dead_position");
}

#[actix_web::test]
async fn ill_01_a_first_completed_illegal_move_gives_two_minutes_and_the_touched_knight_frees_the_player()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "ILL-01", "standard").await;
    refuse(
        &api,
        &db,
        &board,
        json!({"type": "move", "by": "black", "san": "Nf6"}),
        "illegal_move",
    )
    .await;
    let d = record(
        &api,
        &mut board,
        json!({"type": "illegal_move", "by": "black", "description": "2...Nf6 leaving the king in check", "completed": true}),
    )
    .await;
    assert_eq!(penalty(&d), Some(("white".into(), 120_000)));
    assert_eq!(ended(&d), None);
    let state = view(&api, &board).await;
    assert_eq!(state["illegal_moves"], json!({"white": 0, "black": 1}));
    assert_clocks(&state, BASE_MS + 120_000, BASE_MS);
    assert_in_progress(&state);
    record(
        &api,
        &mut board,
        json!({"type": "touch", "by": "black", "square": "g8"}),
    )
    .await;
    play(&api, &mut board, "g6").await;
    assert_in_progress(&view(&api, &board).await);

    // In rapid: one minute, and the second completed illegal move loses.
    let (mut board, _) = from_case(&api, "ILL-01", "rapid").await;
    let illegal =
        json!({"type": "illegal_move", "by": "black", "description": "Nf6", "completed": true});
    let d = record(&api, &mut board, illegal.clone()).await;
    assert_eq!(penalty(&d), Some(("white".into(), 60_000)));
    assert_clocks(
        &view(&api, &board).await,
        RAPID_BASE_MS + 60_000,
        RAPID_BASE_MS,
    );
    let d = record(&api, &mut board, illegal).await;
    assert_eq!(ended(&d), pair("1-0", "illegal_moves"));
    assert_ended(&view(&api, &board).await, "1-0", "illegal_moves");
}

#[actix_web::test]
async fn off_01_an_offer_after_moving_accepted_is_a_draw_by_agreement() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "OFF-01", "standard").await;
    let d = record(
        &api,
        &mut board,
        json!({"type": "draw_offer", "by": "white"}),
    )
    .await;
    assert_eq!(d.len(), 1, "an offer decides nothing: {d:?}");
    let state = view(&api, &board).await;
    assert_eq!(
        state["scoresheet"].as_array().and_then(|s| s.last()),
        Some(&json!("Nf3 (=)"))
    );
    assert_eq!(state["pending_offer"]["irregular"], false, "{state}");
    let d = record(
        &api,
        &mut board,
        json!({"type": "draw_accept", "by": "black"}),
    )
    .await;
    assert_eq!(ended(&d), pair("1/2-1/2", "agreement"));
    assert_ended(&view(&api, &board).await, "1/2-1/2", "agreement");
}

#[actix_web::test]
async fn off_02_touching_a_piece_declines_the_offer_and_binds_the_player_to_move_it() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "OFF-02", "standard").await;
    record(
        &api,
        &mut board,
        json!({"type": "draw_offer", "by": "white"}),
    )
    .await;
    record(
        &api,
        &mut board,
        json!({"type": "touch", "by": "black", "square": "b8"}),
    )
    .await;
    let state = view(&api, &board).await;
    assert_eq!(state["pending_offer"], Value::Null, "{state}");
    assert_eq!(state["obligations"]["touched"]["square"], "b8", "{state}");
    let problem = refuse(
        &api,
        &db,
        &board,
        json!({"type": "draw_accept", "by": "black"}),
        "no_pending_offer",
    )
    .await;
    assert!(
        problem["detail"].to_string().contains("touched"),
        "{problem}"
    );
    refuse(
        &api,
        &db,
        &board,
        json!({"type": "move", "by": "black", "san": "d6"}),
        "touch_move_obligation",
    )
    .await;
    play(&api, &mut board, "Nc6").await;
    assert_in_progress(&view(&api, &board).await);
}

#[actix_web::test]
async fn qpf_02_a_quickplay_claim_awaits_the_arbiter_who_decides_with_reasons() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let mut s = settings(None, "rapid");
    s["regulations"] = json!({"quickplay_finish": true});
    let mut board = create(&api, s).await;
    let d = record(&api, &mut board, claim("white", "quickplay_finish", None)).await;
    assert_eq!(d.len(), 1, "the engine does not decide III.5: {d:?}");
    let claim_seq = board.seq;
    assert_in_progress(&view(&api, &board).await);
    let d = record(
        &api,
        &mut board,
        json!({
            "type": "arbiter_decision",
            "subject_seq": claim_seq,
            "decision": "game_ended",
            "reason": "Black is making no effort to win by normal means (III.5.1)",
            "result": "1/2-1/2",
            "penalty": null
        }),
    )
    .await;
    assert_eq!(ended(&d), pair("1/2-1/2", "arbiter"));
    assert_eq!(
        decision(&d, "game_ended").expect("ended")["article"],
        "III.5"
    );
    assert_ended(&view(&api, &board).await, "1/2-1/2", "arbiter");

    // Without Guidelines III in force the claim is rejected, with no penalty.
    let mut board = create(&api, settings(None, "standard")).await;
    let d = record(&api, &mut board, claim("white", "quickplay_finish", None)).await;
    let r = ruling(&d);
    assert_eq!(r["outcome"], "rejected", "{r}");
    assert_eq!(
        r["article"], "III.2.1",
        "Guidelines III not announced: III.2.1, not the definition III.1"
    );
    assert_eq!(r["penalty"], Value::Null);
    assert_eq!(penalty(&d), None);
    let state = view(&api, &board).await;
    assert_in_progress(&state);
    assert_clocks(&state, BASE_MS, BASE_MS);
}

#[actix_web::test]
async fn clm_01_an_incorrect_claim_in_rapid_gives_one_minute_and_binds_the_written_move() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (mut board, _) = from_case(&api, "CLM-01", "rapid").await;
    let d = record(&api, &mut board, claim("black", "repetition", Some("Nf6"))).await;
    let r = ruling(&d);
    assert_eq!(r["outcome"], "rejected", "{r}");
    assert_eq!(r["must_play"], "Nf6");
    assert_eq!(r["penalty"], json!({"side": "white", "add_ms": 60_000}));
    assert_eq!(penalty(&d), Some(("white".into(), 60_000)));
    assert_eq!(
        decision(&d, "penalty_applied").expect("penalty")["article"],
        "9.5.3, A.3"
    );
    let state = view(&api, &board).await;
    assert_in_progress(&state);
    assert_clocks(&state, RAPID_BASE_MS + 60_000, RAPID_BASE_MS);
    assert_eq!(state["obligations"]["must_play"]["san"], "Nf6");
    play(&api, &mut board, "Nf6").await;
    assert_in_progress(&view(&api, &board).await);
}

const COVERED: &[&str] = &[
    "REP-01", "REP-02", "REP-04", "REP-07", "REP-09", "REP-12", "REP-15", "REP-17", "FIF-01",
    "FIF-02", "FIF-05", "SEV-02", "DEAD-01", "DEAD-04", "DEAD-05", "DEAD-07", "DEAD-11", "ILL-01",
    "OFF-01", "OFF-02", "QPF-02", "CLM-01",
];

#[actix_web::test]
async fn every_case_in_the_file_has_an_api_test() {
    let text = std::fs::read_to_string(cases_path()).expect("article9-cases.json is readable");
    let cases: Vec<Value> = serde_json::from_str(&text).expect("article9-cases.json is JSON");
    assert_eq!(cases.len(), COVERED.len());
    for c in cases {
        let id = c["id"].as_str().expect("id");
        assert!(
            COVERED.contains(&id),
            "case {id} has no test in tests/api/cases.rs"
        );
    }
}

#[actix_web::test]
async fn moves_sent_in_one_append_end_the_game_at_the_dead_position_as_moves_sent_one_by_one() {
    // The append's run of moves is checked once at its end (`Game::look_ahead`); a dead
    // position (5.2.2) at its last move still ends the game there, with the same decision
    // and state as when every move comes alone, and a move after it refuses the append.
    let db = TestDb::new().await;
    let api = api(&db).await;
    let fen = "4k3/8/8/p2p2p1/P2P2P1/8/7r/4K3 w - - 0 1";
    let sans: Vec<String> = ["Kf1", "Kf8", "Ke1", "Ke8", "Kd1", "Re2", "Kxe2"]
        .map(String::from)
        .to_vec();

    let mut alone = create(&api, settings(Some(fen), "standard")).await;
    let last_alone = play_all(&api, &mut alone, &sans).await;

    let together = create(&api, settings(Some(fen), "standard")).await;
    let moves = |sans: &[String]| -> Value {
        sans.iter()
            .enumerate()
            .map(|(ply, san)| json!({"type": "move", "by": side(ply % 2 == 0), "san": san}))
            .collect()
    };
    let mut too_many = sans.clone();
    too_many.push("Kf8".into());
    let Reply { status, body, .. } = api.append_events(together.game, 1, moves(&too_many)).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["code"], "game_over", "{body}");
    let Reply { status, body, .. } = api.append_events(together.game, 1, moves(&sans)).await;
    assert_eq!(status, 201, "{body}");
    let envelopes = body["events"].as_array().expect("events");
    let ended = envelopes
        .iter()
        .position(|e| e["event"]["type"] == "game_ended")
        .expect("the game ended");
    assert_eq!(
        ended,
        envelopes.len() - 1,
        "ended after the last move: {body}"
    );
    assert_eq!(
        envelopes[ended]["event"], last_alone[1],
        "the same decision"
    );
    assert_eq!(envelopes[ended]["event"]["article"], "5.2.2");

    let mut state_alone = view(&api, &alone).await;
    let together = Board {
        seq: body["last_seq"].as_u64().expect("last_seq"),
        ..together
    };
    let mut state_together = view(&api, &together).await;
    for state in [&mut state_alone, &mut state_together] {
        state.as_object_mut().expect("state").remove("game_id");
    }
    assert_eq!(state_together, state_alone);
    assert_ended(&state_together, "1/2-1/2", "dead_position");
}

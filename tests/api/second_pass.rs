//! The rules second pass through HTTP: the new fields of `illegal_move`, the arbiter's
//! rulings on an illegal move that stood and on an increment, clock readings in quickplay
//! claims, and the rulings list marking decisions a correction retracted.

use actix_web::test;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::support::{TestDb, append, assert_problem, send};

async fn game_with(
    app: &impl actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
    >,
    db: &TestDb,
    kind: &str,
    regulations: Value,
) -> Uuid {
    let (status, body, _) = send(
        app,
        db.post().uri("/v1/games").set_json(json!({
            "white": {"name": "White, Wanda"},
            "black": {"name": "Black, Bob"},
            "event": "Second pass",
            "round": "1",
            // 15 minutes is rapid (A.1); a standard game gets 90 minutes.
            "time_control": {"kind": kind, "base_ms": if kind == "standard" { 5_400_000 } else { 900_000 }},
            "regulations": regulations
        })),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    body["game"]["game_id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("id")
}

fn moves(list: &[(&str, &str)]) -> Value {
    Value::Array(
        list.iter()
            .map(|(by, san)| json!({"type": "move", "by": by, "san": san}))
            .collect(),
    )
}

#[actix_web::test]
async fn an_illegal_move_recorded_with_its_attempted_move_binds_that_piece_through_http() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = game_with(&app, &db, "standard", json!({})).await;
    let (status, body) = append(
        &app,
        &db,
        game,
        1,
        moves(&[
            ("white", "e4"),
            ("black", "e5"),
            ("white", "Nf3"),
            ("black", "Nc6"),
        ]),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = append(&app, &db, game, 5, json!([
        {"type": "illegal_move", "by": "white", "description": "knight to e6", "completed": true, "attempted_move": "f3e6", "kind": "illegal_move"}
    ])).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["events"][0]["event"]["attempted_move"], "f3e6");
    assert_eq!(body["events"][1]["event"]["type"], "penalty_applied");
    let (_, state, _) = send(&app, db.get().uri(&format!("/v1/games/{game}"))).await;
    assert_eq!(
        state["state"]["obligations"]["touched"]["square"], "f3",
        "{state}"
    );
    let refused = send(
        &app,
        db.post().uri(&format!("/v1/games/{game}/events")).set_json(
            json!({"expected_seq": 7, "events": [{"type": "move", "by": "white", "san": "d4"}]}),
        ),
    )
    .await;
    assert_problem(&refused, 422, "touch_move_obligation");
    db.finish().await;
}

#[actix_web::test]
async fn an_illegal_move_that_stood_is_recorded_by_the_arbiter_and_the_pgn_continues_from_it() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = game_with(&app, &db, "rapid", json!({})).await;
    let (status, _) = append(
        &app,
        &db,
        game,
        1,
        moves(&[("white", "e4"), ("black", "e5"), ("white", "Nf3")]),
    )
    .await;
    assert_eq!(status, 201);
    let (status, body) = append(&app, &db, game, 4, json!([
        {"type": "arbiter_decision", "decision": "illegal_move_stands", "attempted_move": "e8e6",
         "reason": "Black's king moved two squares; White did not claim before moving (A.5.2)"},
        {"type": "move", "by": "white", "san": "Nxe5"}
    ])).await;
    assert_eq!(status, 201, "{body}");
    let (_, state, _) = send(&app, db.get().uri(&format!("/v1/games/{game}"))).await;
    assert_eq!(
        state["state"]["stood_illegal_moves"][0]["attempted_move"],
        "e8e6"
    );
    let response = test::call_service(
        &app,
        db.get().uri(&format!("/v1/games/{game}/pgn")).to_request(),
    )
    .await;
    let pgn = String::from_utf8(test::read_body(response).await.to_vec()).expect("utf-8");
    assert_eq!(pgn.matches("[Event ").count(), 2, "two records:\n{pgn}");
    assert!(pgn.contains("e8e6 (illegal) stood"), "{pgn}");
    assert!(
        pgn.contains("[FEN \"rnbq1bnr/pppp1ppp/4k3/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQ - 2 3\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("3. Nxe5"), "{pgn}");
    db.finish().await;
}

#[actix_web::test]
async fn a_quickplay_claim_is_judged_on_the_clock_reading_recorded_with_it() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = game_with(&app, &db, "rapid", json!({"quickplay_finish": true})).await;
    let (status, body) = append(&app, &db, game, 1, json!([
        {"type": "claim", "by": "white", "kind": "quickplay_finish", "clock": {"white_ms": 150_000, "black_ms": 60_000}}
    ])).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["events"][1]["event"]["article"], "III.5");
    let (status, body) = append(&app, &db, game, 3, json!([
        {"type": "claim", "by": "white", "kind": "quickplay_finish", "clock": {"white_ms": 100_000, "black_ms": 60_000}}
    ])).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(
        body["events"].as_array().map(Vec::len),
        Some(1),
        "it awaits the arbiter: {body}"
    );
    let (_, state, _) = send(&app, db.get().uri(&format!("/v1/games/{game}"))).await;
    assert_eq!(state["state"]["open_claims"][0]["seq"], 4, "{state}");
    db.finish().await;
}

#[actix_web::test]
async fn a_decision_retracted_by_a_correction_is_marked_in_the_rulings_and_left_out_when_standing()
{
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = game_with(&app, &db, "standard", json!({})).await;
    let (status, body) = append(
        &app,
        &db,
        game,
        1,
        json!([
            {"type": "move", "by": "white", "san": "e4"},
            {"type": "claim", "by": "black", "kind": "repetition"}
        ]),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let last = body["last_seq"].as_u64().expect("last_seq");
    let (status, body) = append(&app, &db, game, last, json!([
        {"type": "correction", "retracts_seq": 3, "reason": "the claim was typed on the wrong board"}
    ])).await;
    assert_eq!(status, 201, "{body}");
    let correction_seq = body["last_seq"].as_u64().expect("seq");
    let (status, page, _) = send(&app, db.get().uri("/v1/rulings?event=Second%20pass")).await;
    assert_eq!(status, 200, "{page}");
    let items = page["items"].as_array().expect("items");
    assert_eq!(items.len(), 2, "claim_ruled and penalty_applied: {page}");
    for item in items {
        assert_eq!(item["retracted_by"], correction_seq, "{item}");
    }
    let (_, page, _) = send(
        &app,
        db.get()
            .uri("/v1/rulings?event=Second%20pass&standing=true"),
    )
    .await;
    assert_eq!(page["items"], json!([]), "{page}");
    db.finish().await;
}

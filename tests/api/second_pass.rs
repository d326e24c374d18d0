//! The rules second pass through HTTP: the new fields of `illegal_move`, the arbiter's
//! rulings on an illegal move that stood and on an increment, clock readings in quickplay
//! claims, and the rulings list marking decisions a correction retracted.

use serde_json::{Value, json};
use uuid::Uuid;

use crate::client::{Api, api};
use crate::support::{TestDb, assert_problem};

/// Creates a game of this kind and regulations; returns its id.
async fn game_with(api: &Api<'_>, kind: &str, regulations: Value) -> Uuid {
    let body = api
        .create_game(&json!({
            "white": {"name": "White, Wanda"},
            "black": {"name": "Black, Bob"},
            "event": "Second pass",
            "round": "1",
            // 15 minutes is rapid (A.1); a standard game gets 90 minutes.
            "time_control": {"kind": kind, "base_ms": if kind == "standard" { 5_400_000 } else { 900_000 }},
            "regulations": regulations
        }))
        .await
        .expect(201);
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
    let api = api(&db).await;
    let game = game_with(&api, "standard", json!({})).await;
    api.append_events(
        game,
        1,
        moves(&[
            ("white", "e4"),
            ("black", "e5"),
            ("white", "Nf3"),
            ("black", "Nc6"),
        ]),
    )
    .await
    .expect(201);
    let body = api.append_events(game, 5, json!([
        {"type": "illegal_move", "by": "white", "description": "knight to e6", "completed": true, "attempted_move": "f3e6", "kind": "illegal_move"}
    ])).await.expect(201);
    assert_eq!(body["events"][0]["event"]["attempted_move"], "f3e6");
    assert_eq!(body["events"][1]["event"]["type"], "penalty_applied");
    let state = api.game(game).await.body;
    assert_eq!(
        state["state"]["obligations"]["touched"]["square"], "f3",
        "{state}"
    );
    let refused = api
        .send_as_built(db.post().uri(&format!("/v1/games/{game}/events")).set_json(
            json!({"expected_seq": 7, "events": [{"type": "move", "by": "white", "san": "d4"}]}),
        ))
        .await;
    assert_problem(&refused, 422, "touch_move_obligation");
}

#[actix_web::test]
async fn an_illegal_move_that_stood_is_recorded_by_the_arbiter_and_the_pgn_continues_from_it() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = game_with(&api, "rapid", json!({})).await;
    api.append_events(
        game,
        1,
        moves(&[("white", "e4"), ("black", "e5"), ("white", "Nf3")]),
    )
    .await
    .expect(201);
    api.append_events(game, 4, json!([
        {"type": "arbiter_decision", "decision": "illegal_move_stands", "attempted_move": "e8e6",
         "reason": "Black's king moved two squares; White did not claim before moving (A.5.2)"},
        {"type": "move", "by": "white", "san": "Nxe5"}
    ])).await.expect(201);
    let state = api.game(game).await.body;
    assert_eq!(
        state["state"]["stood_illegal_moves"][0]["attempted_move"],
        "e8e6"
    );
    let pgn = api.pgn(game).await.text;
    assert_eq!(pgn.matches("[Event ").count(), 2, "two records:\n{pgn}");
    assert!(pgn.contains("e8e6 (illegal) stood"), "{pgn}");
    assert!(
        pgn.contains("[FEN \"rnbq1bnr/pppp1ppp/4k3/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQ - 2 3\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("3. Nxe5"), "{pgn}");
}

#[actix_web::test]
async fn a_quickplay_claim_is_judged_on_the_clock_reading_recorded_with_it() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = game_with(&api, "rapid", json!({"quickplay_finish": true})).await;
    let body = api.append_events(game, 1, json!([
        {"type": "claim", "by": "white", "kind": "quickplay_finish", "clock": {"white_ms": 150_000, "black_ms": 60_000}}
    ])).await.expect(201);
    assert_eq!(body["events"][1]["event"]["article"], "III.5");
    let body = api.append_events(game, 3, json!([
        {"type": "claim", "by": "white", "kind": "quickplay_finish", "clock": {"white_ms": 100_000, "black_ms": 60_000}}
    ])).await.expect(201);
    assert_eq!(
        body["events"].as_array().map(Vec::len),
        Some(1),
        "it awaits the arbiter: {body}"
    );
    let state = api.game(game).await.body;
    assert_eq!(state["state"]["open_claims"][0]["seq"], 4, "{state}");
}

#[actix_web::test]
async fn a_decision_retracted_by_a_correction_is_marked_in_the_rulings_and_left_out_when_standing()
{
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = game_with(&api, "standard", json!({})).await;
    let body = api
        .append_events(
            game,
            1,
            json!([
                {"type": "move", "by": "white", "san": "e4"},
                {"type": "claim", "by": "black", "kind": "repetition"}
            ]),
        )
        .await
        .expect(201);
    let last = body["last_seq"].as_u64().expect("last_seq");
    let body = api.append_events(game, last, json!([
        {"type": "correction", "retracts_seq": 3, "reason": "the claim was typed on the wrong board"}
    ])).await.expect(201);
    let correction_seq = body["last_seq"].as_u64().expect("seq");
    let page = api.get("/v1/rulings?event=Second%20pass").await.expect(200);
    let items = page["items"].as_array().expect("items");
    assert_eq!(items.len(), 2, "claim_ruled and penalty_applied: {page}");
    for item in items {
        assert_eq!(item["retracted_by"], correction_seq, "{item}");
    }
    let page = api
        .get("/v1/rulings?event=Second%20pass&standing=true")
        .await
        .body;
    assert_eq!(page["items"], json!([]), "{page}");
}

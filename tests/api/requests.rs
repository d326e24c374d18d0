//! Requests through HTTP: games created, fetched and listed; and every kind of bad input
//! answered with a problem body, with nothing stored.

use crate::client::{Reply, api};
use crate::support::{TestDb, assert_problem, standard_game};
use actix_web::test;
use serde_json::{Value, json};
use uuid::Uuid;

#[actix_web::test]
async fn a_game_is_created_fetched_listed_and_its_events_read_back() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let body = api.game(game).await.expect(200);
    assert_eq!(body["game"]["white"], "Carlsen, Magnus");
    assert_eq!(body["game"]["last_seq"], 1);
    assert_eq!(body["as_of_seq"], 1);
    assert_eq!(
        body["game"]["settings"]["laws_edition"], "2023",
        "the 2023 Laws are the default"
    );
    assert_eq!(
        body["state"]["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );

    let Reply { status, body, .. } = api.append_events(game, 1, json!([
        {"type": "move", "by": "white", "san": "e4", "occurred_at": "2026-11-22T10:00:00Z", "clock": {"white_ms": 5_399_000, "black_ms": 5_400_000}},
        {"type": "draw_offer", "by": "white"}
    ])).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["last_seq"], 3);
    let body = api
        .get(&format!("/v1/games/{game}/events?after=1"))
        .await
        .expect(200);
    let items = body["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[0]["event"],
        json!({"type": "move", "by": "white", "san": "e4"})
    );
    assert_eq!(items[0]["clock"]["white_ms"], 5_399_000);
    assert_eq!(items[0]["occurred_at"], "2026-11-22T10:00:00Z");
    assert_eq!(
        items[1]["prev_hash"], items[0]["hash"],
        "the envelopes carry the chain"
    );
}

#[actix_web::test]
async fn games_are_listed_with_filters_and_pages() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    for round in ["1", "1", "2"] {
        let mut settings = standard_game();
        settings["round"] = json!(round);
        api.create_game(&settings).await.expect(201);
    }
    let body = api.games("round=1").await.body;
    assert_eq!(body["items"].as_array().unwrap().len(), 2);
    let body = api
        .games("event=Test%20Open%202026&status=in_progress&limit=2")
        .await
        .body;
    assert_eq!(body["items"].as_array().unwrap().len(), 2);
    let next = body["next"].as_str().expect("a next page").to_string();
    let body = api
        .get(&format!("/v1/games?limit=2&after={next}"))
        .await
        .body;
    assert_eq!(body["items"].as_array().unwrap().len(), 1);
    assert!(body["next"].is_null());
    let body = api.games("status=ended").await.body;
    assert_eq!(body["items"].as_array().unwrap().len(), 0);
}

#[actix_web::test]
async fn creating_a_game_with_a_chosen_id_is_idempotent_and_other_settings_conflict() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let id = Uuid::new_v4();
    let mut body = standard_game();
    body["game_id"] = json!(id);
    let first = api.create_game(&body).await;
    let again = api.create_game(&body).await;
    assert_eq!(first.status, 201);
    assert_eq!(again.status, 200);
    assert_eq!(first.body, again.body);
    body["round"] = json!("9");
    let conflict = api.create_game(&body).await;
    assert_problem(&conflict, 409, "game_id_taken");
    assert_eq!(db.event_count().await, 1);
}

/// Sends a bad append and checks the answer and that the log did not change.
async fn refused_append(body: Value, status: u16, code: &str, field: Option<&str>) {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let before = db.event_count().await;
    let reply = api
        .send_as_built(
            db.post()
                .uri(&format!("/v1/games/{game}/events"))
                .insert_header(("content-type", "application/json"))
                .set_payload(body.to_string()),
        )
        .await;
    assert_problem(&reply, status, code);
    if let Some(field) = field {
        assert_eq!(reply.body["field"], field, "{}", reply.body);
    }
    assert_eq!(db.event_count().await, before, "nothing stored for {body}");
}

#[actix_web::test]
async fn an_unknown_event_type_is_refused_naming_the_field() {
    refused_append(
        json!({"expected_seq": 1, "events": [{"type": "castle", "by": "white"}]}),
        422,
        "invalid_field",
        Some("events[0].type"),
    )
    .await;
}

#[actix_web::test]
async fn a_missing_field_is_refused_naming_it() {
    refused_append(
        json!({"expected_seq": 1, "events": [{"type": "move", "san": "e4"}]}),
        422,
        "invalid_field",
        Some("events[0].by"),
    )
    .await;
    refused_append(
        json!({"events": [{"type": "move", "by": "white", "san": "e4"}]}),
        422,
        "invalid_field",
        Some("expected_seq"),
    )
    .await;
}

#[actix_web::test]
async fn a_mistyped_field_is_refused() {
    refused_append(
        json!({"expected_seq": "one", "events": []}),
        422,
        "invalid_field",
        Some("expected_seq"),
    )
    .await;
    refused_append(
        json!({"expected_seq": 1, "events": [{"type": "move", "by": "green", "san": "e4"}]}),
        422,
        "invalid_field",
        Some("events[0].by"),
    )
    .await;
    refused_append(json!({"expected_seq": 1, "events": [{"type": "move", "by": "white", "san": "e4", "clock": {"white_ms": -5}}]}), 422, "invalid_field", Some("events[0].clock.white_ms")).await;
    refused_append(json!({"expected_seq": 1, "events": [{"type": "move", "by": "white", "san": "e4", "event_id": "not-a-uuid"}]}), 422, "invalid_field", Some("events[0].event_id")).await;
}

#[actix_web::test]
async fn a_wrongly_typed_field_inside_an_event_is_named() {
    refused_append(
        json!({"expected_seq": 1, "events": [{"type": "illegal_move", "by": "white", "description": "Ke2", "completed": "yes"}]}),
        422,
        "invalid_field",
        Some("events[0].completed"),
    )
    .await;
    refused_append(
        json!({"expected_seq": 1, "events": [{"type": "claim", "by": "white", "kind": "repetition", "intended_move": 5}]}),
        422,
        "invalid_field",
        Some("events[0].intended_move"),
    )
    .await;
}

#[actix_web::test]
async fn an_unknown_field_in_an_event_is_refused() {
    refused_append(
        json!({"expected_seq": 1, "events": [{"type": "resign", "by": "white", "reason": "lost"}]}),
        422,
        "invalid_field",
        Some("events[0].reason"),
    )
    .await;
}

#[actix_web::test]
async fn decision_events_cannot_be_submitted_by_clients() {
    refused_append(
        json!({"expected_seq": 1, "events": [{"type": "game_ended", "result": "1-0", "termination": "resignation", "article": "5.1.2", "reason": "x", "cause_seq": 1, "ruled_by": {"engine_version": "x", "laws_edition": "2023"}}]}),
        422,
        "service_event_submitted",
        Some("events[0].type"),
    )
    .await;
}

#[actix_web::test]
async fn a_stale_expected_seq_is_refused_with_the_current_seq() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let Reply { status, body, .. } = api
        .append_events(game, 7, json!([{"type": "resign", "by": "white"}]))
        .await;
    assert_eq!(status, 409);
    assert_eq!(body["code"], "stale_seq");
    assert_eq!(body["current_seq"], 1);
    assert_eq!(db.event_count().await, 1);
}

#[actix_web::test]
async fn malformed_json_empty_bodies_and_empty_lists_are_refused() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let uri = format!("/v1/games/{game}/events");
    for (payload, status, code) in [
        ("{\"expected_seq\": 1, \"events\": [", 400, "malformed_json"),
        ("", 400, "empty_body"),
        ("[1, 2]", 422, "invalid_field"),
        (
            "{\"expected_seq\": 1, \"events\": []}",
            422,
            "invalid_field",
        ),
        (
            "{\"expected_seq\": 1, \"events\": {}}",
            422,
            "invalid_field",
        ),
        (
            "{\"expected_seq\": 1, \"events\": [], \"extra\": 1}",
            422,
            "invalid_field",
        ),
    ] {
        let reply = api
            .send_as_built(
                db.post()
                    .uri(&uri)
                    .insert_header(("content-type", "application/json"))
                    .set_payload(payload),
            )
            .await;
        assert_problem(&reply, status, code);
    }
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let reply = api
        .send_as_built(db.post().uri(&uri).set_payload(deep))
        .await;
    assert_problem(&reply, 400, "malformed_json");
    assert_eq!(db.event_count().await, 1);
}

#[actix_web::test]
async fn an_oversized_body_is_refused_and_nothing_is_stored() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let huge = json!({"expected_seq": 1, "events": [{"type": "clock_adjust", "side": "white", "delta_ms": 1, "reason": "x".repeat(2 * 1024 * 1024)}]});
    let reply = api
        .post(&format!("/v1/games/{game}/events"), &huge)
        .await
        .problem(413, "body_too_large");
    assert!(
        reply.body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("Send fewer events per request")),
        "{}",
        reply.body
    );
    assert_eq!(db.event_count().await, 1);
}

#[actix_web::test]
async fn an_oversized_body_says_what_to_send_instead_for_the_route_it_was_sent_to() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let padding = "x".repeat(2 * 1024 * 1024);
    let tournament = api
        .create_tournament(&crate::tournaments::city_open())
        .await
        .expect(201);
    let pairings = format!(
        "/v1/tournaments/{}/rounds/1/pairings",
        tournament["tournament_id"].as_str().expect("id")
    );
    for (uri, says) in [
        ("/v1/games", "A game is created from its settings alone"),
        (pairings.as_str(), "Send one round's pairings"),
        ("/v1/tournaments", "Send only the tournament's settings"),
    ] {
        let reply = api
            .post(uri, &json!({"white": {"name": padding}}))
            .await
            .problem(413, "body_too_large");
        let detail = reply.body["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(says), "{uri}: {detail}");
        assert!(!detail.contains("events per request"), "{uri}: {detail}");
    }
}

#[actix_web::test]
async fn unknown_games_invalid_uuids_bad_cursors_and_limits_are_4xx() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let missing = Uuid::new_v4();
    api.game(missing).await.problem(404, "game_not_found");
    api.events(missing).await.problem(404, "game_not_found");
    api.append_events(missing, 1, json!([{"type": "resign", "by": "white"}]))
        .await
        .problem(404, "game_not_found");
    api.get("/v1/games/not-a-uuid")
        .await
        .problem(400, "invalid_path");
    api.post("/v1/games/1234/events", &json!({}))
        .await
        .problem(400, "invalid_path");
    api.get("/v1/feed?after=abc")
        .await
        .problem(400, "invalid_cursor");
    api.get("/v1/feed?limit=100000000")
        .await
        .problem(400, "invalid_limit");
    api.games("limit=0").await.problem(400, "invalid_limit");
    api.games("after=%27%3B%20DROP%20TABLE%20events")
        .await
        .problem(400, "invalid_cursor");
    api.games("status=lost").await.problem(400, "invalid_query");
    api.get("/v2/nothing").await.problem(404, "no_such_route");
    assert_eq!(db.event_count().await, 0);
}

#[actix_web::test]
async fn game_settings_are_validated_with_the_field_named() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    type Change = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Change, &str)> = vec![
        (Box::new(|s| s["white"]["name"] = json!("  ")), "white.name"),
        (
            Box::new(|s| s["time_control"]["base_ms"] = json!(0)),
            "time_control.base_ms",
        ),
        (
            Box::new(|s| s["time_control"]["kind"] = json!("bullet")),
            "time_control.kind",
        ),
        (
            Box::new(|s| s["laws_edition"] = json!("1997")),
            "laws_edition",
        ),
        (
            Box::new(|s| s["start_fen"] = json!("8/8/8/8/8/8/8/8 w - - 0 1")),
            "start_fen",
        ),
        (
            Box::new(|s| s["regulations"] = json!({"draw_offers": "sometimes"})),
            "regulations.draw_offers",
        ),
        (
            Box::new(|s| {
                s.as_object_mut().unwrap().remove("event");
            }),
            "event",
        ),
        (Box::new(|s| s["colour"] = json!("x")), "colour"),
        (Box::new(|s| s["game_id"] = json!("12")), "game_id"),
    ];
    for (change, field) in cases {
        let mut settings = standard_game();
        change(&mut settings);
        let reply = api.create_game(&settings).await;
        assert_eq!(reply.status, 422, "{field}: {}", reply.body);
        assert_eq!(
            reply.body["field"]
                .as_str()
                .map(|f| f.contains(field) || field.contains(f)),
            Some(true),
            "{field}: {}",
            reply.body
        );
    }
    let mut settings = standard_game();
    settings["start_fen"] = json!("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let reply = api.create_game(&settings).await;
    assert_eq!(
        reply.status, 201,
        "a legal start FEN is accepted: {}",
        reply.body
    );
    assert_eq!(db.event_count().await, 1);
}

#[actix_web::test]
async fn health_readiness_the_document_and_swagger_ui_are_served() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    assert_eq!(api.get("/healthz").await.status, 200);
    assert_eq!(api.get("/readyz").await.status, 200);
    let document = api.get("/api-docs/openapi.json").await.expect(200);
    assert_eq!(
        document,
        serde_json::to_value(arbiter::http::openapi()).unwrap()
    );
    let response = api.call(db.get().uri("/docs/")).await;
    assert_eq!(response.status(), 200);
    let page = String::from_utf8_lossy(&test::read_body(response).await).to_string();
    assert!(page.contains("swagger"), "Swagger UI is served offline");
}

#[actix_web::test]
async fn a_wrong_method_on_a_known_route_is_405_with_the_allowed_methods() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let response = api.call(test::TestRequest::delete().uri("/v1/games")).await;
    assert_eq!(response.status(), 405);
    assert_eq!(response.headers().get("allow").unwrap(), "GET, POST");
    assert_eq!(
        response.headers().get("content-type").unwrap(),
        "application/problem+json"
    );
}

#[actix_web::test]
async fn numbers_beyond_their_documented_range_are_refused_naming_the_field() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    for (path, value, field) in [
        (
            "regulations",
            json!({"earliest_agreement_move": 2_147_483_648_u64}),
            "regulations.earliest_agreement_move",
        ),
        ("board", json!(0), "board"),
        ("board", json!(10_000), "board"),
    ] {
        let mut body = standard_game();
        body[path] = value;
        let reply = api.create_game(&body).await.problem(422, "invalid_field");
        assert_eq!(reply.body["field"], field, "{}", reply.body);
    }
    assert_eq!(db.event_count().await, 0);
}

#[actix_web::test]
async fn at_seq_zero_is_refused_as_a_bad_query_that_names_seq_one_not_as_a_missing_game() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    for route in ["", "/positions"] {
        let reply = api
            .get(&format!("/v1/games/{game}{route}?at_seq=0"))
            .await
            .problem(400, "invalid_query");
        assert_eq!(reply.body["field"], "at_seq", "{}", reply.body);
        let detail = reply.body["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("at_seq=1"), "{detail}");
        let reply = api.get(&format!("/v1/games/{game}{route}?at_seq=1")).await;
        assert_eq!(
            reply.status, 200,
            "at_seq=1 is the game as created: {}",
            reply.body
        );
    }
}

#[actix_web::test]
async fn a_query_parameter_that_cannot_be_read_is_named_with_what_it_must_be() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    for (uri, field, says) in [
        (
            format!("/v1/games/{game}?at_seq=abc"),
            "at_seq",
            "`at_seq` must be a whole number, not `abc`",
        ),
        (
            format!("/v1/games/{game}/events?limit=ten"),
            "limit",
            "`limit` must be a whole number, not `ten`",
        ),
        (
            format!("/v1/games/{game}/positions?at_seq=99999999999999999999999"),
            "at_seq",
            "is out of range",
        ),
        (
            "/v1/games?status=lost".to_string(),
            "status",
            "`status` cannot be `lost`",
        ),
    ] {
        let reply = api.get(&uri).await.problem(400, "invalid_query");
        assert_eq!(reply.body["field"], field, "{uri}: {}", reply.body);
        let detail = reply.body["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(says), "{uri}: {detail}");
        assert!(!detail.contains("Query deserialize error"), "{detail}");
    }
}

#[actix_web::test]
async fn a_json_body_that_holds_a_key_twice_is_refused_naming_it_and_nothing_is_stored() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let body = r#"{"expected_seq": 1, "events": [
        {"type": "move", "by": "white", "san": "e4"},
        {"type": "resign", "by": "white", "by": "black"}]}"#;
    let reply = api
        .send_as_built(
            db.post()
                .uri(&format!("/v1/games/{game}/events"))
                .insert_header(("content-type", "application/json"))
                .set_payload(body),
        )
        .await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.body["field"], "events[1].by", "{}", reply.body);
    assert_eq!(db.event_count().await, 1, "nothing stored");
    let top = r#"{"expected_seq": 1, "expected_seq": 2, "events": []}"#;
    let reply = api
        .send_as_built(
            db.post()
                .uri(&format!("/v1/games/{game}/events"))
                .insert_header(("content-type", "application/json"))
                .set_payload(top),
        )
        .await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.body["field"], "expected_seq", "{}", reply.body);
    // The same keys in different objects are no duplicate.
    let Reply { status, body, .. } = api
        .append_events(
            game,
            1,
            json!([{"type": "move", "by": "white", "san": "e4"},
               {"type": "move", "by": "black", "san": "e5"}]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
}

#[actix_web::test]
async fn a_nested_unknown_or_missing_field_is_named_once_with_its_whole_path() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let mut body = standard_game();
    body["white"]["rating"] = json!({"rating": 2800});
    let reply = api.create_game(&body).await.problem(422, "invalid_field");
    assert_eq!(reply.body["field"], "white.rating", "{}", reply.body);
    let mut body = standard_game();
    body["white"] = json!({"fide_id": 1503014});
    let reply = api.create_game(&body).await.problem(422, "invalid_field");
    assert_eq!(reply.body["field"], "white.name", "{}", reply.body);

    refused_append(
        json!({"expected_seq": 1, "events": [{"type": "clock_press", "by": "white", "clock": {"white_ms": 1000, "blue_ms": 5}}]}),
        422,
        "invalid_field",
        Some("events[0].clock.blue_ms"),
    )
    .await;
}

#[actix_web::test]
async fn a_written_move_in_no_notation_is_refused_as_unreadable_and_an_illegal_one_is_judged() {
    refused_append(
        json!({"expected_seq": 1, "events": [{"type": "claim", "by": "white", "kind": "repetition", "intended_move": "Qxq9"}]}),
        422,
        "unreadable_move",
        Some("events[0]"),
    )
    .await;
    // A well-formed move that is illegal here is a matter for the Laws: recorded and judged.
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let Reply { status, body, .. } = api
        .append_events(
            game,
            1,
            json!([{"type": "claim", "by": "white", "kind": "repetition", "intended_move": "Qh5"}]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["events"][1]["event"]["type"], "claim_ruled", "{body}");
}

#[actix_web::test]
async fn problem_titles_are_words_a_person_reads_not_internal_names() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let Reply { status, body, .. } = api
        .append_events(
            game,
            1,
            json!([{"type": "touch", "by": "white", "square": "g1"}]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let refused = api
        .send_as_built(db.post().uri(&format!("/v1/games/{game}/events")).set_json(
            json!({"expected_seq": 2, "events": [{"type": "move", "by": "white", "san": "e4"}]}),
        ))
        .await;
    assert_problem(&refused, 422, "touch_move_obligation");
    assert_eq!(refused.body["title"], "The touched piece must be moved");
    let stale = api
        .send_as_built(db.post().uri(&format!("/v1/games/{game}/events")).set_json(
            json!({"expected_seq": 1, "events": [{"type": "move", "by": "white", "san": "Nf3"}]}),
        ))
        .await;
    assert_problem(&stale, 409, "stale_seq");
    assert_eq!(stale.body["title"], "Someone recorded first");
    for problem in [&refused.body, &stale.body] {
        let title = problem["title"].as_str().unwrap_or_default().to_lowercase();
        let code_words = problem["code"]
            .as_str()
            .unwrap_or_default()
            .replace('_', " ");
        assert_ne!(title, code_words, "{problem}");
    }
}

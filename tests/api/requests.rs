//! Requests through HTTP: games created, fetched and listed; and every kind of bad input
//! answered with a problem body, with nothing stored.

use crate::support::{TestDb, append, assert_problem, create_game, send, standard_game};
use actix_web::test;
use serde_json::{Value, json};
use uuid::Uuid;

#[actix_web::test]
async fn a_game_is_created_fetched_listed_and_its_events_read_back() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = create_game(&app, &db).await;
    let (status, body, _) = send(&app, db.get().uri(&format!("/v1/games/{game}"))).await;
    assert_eq!(status, 200, "{body}");
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

    let (status, body) = append(&app, &db, game, 1, json!([
        {"type": "move", "by": "white", "san": "e4", "occurred_at": "2026-11-22T10:00:00Z", "clock": {"white_ms": 5_399_000, "black_ms": 5_400_000}},
        {"type": "draw_offer", "by": "white"}
    ])).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["last_seq"], 3);
    let (status, body, _) = send(
        &app,
        db.get().uri(&format!("/v1/games/{game}/events?after=1")),
    )
    .await;
    assert_eq!(status, 200, "{body}");
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
    db.finish().await;
}

#[actix_web::test]
async fn games_are_listed_with_filters_and_pages() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    for round in ["1", "1", "2"] {
        let mut settings = standard_game();
        settings["round"] = json!(round);
        let (status, body, _) = send(&app, db.post().uri("/v1/games").set_json(settings)).await;
        assert_eq!(status, 201, "{body}");
    }
    let (_, body, _) = send(&app, db.get().uri("/v1/games?round=1")).await;
    assert_eq!(body["items"].as_array().unwrap().len(), 2);
    let (_, body, _) = send(
        &app,
        db.get()
            .uri("/v1/games?event=Test%20Open%202026&status=in_progress&limit=2"),
    )
    .await;
    assert_eq!(body["items"].as_array().unwrap().len(), 2);
    let next = body["next"].as_str().expect("a next page").to_string();
    let (_, body, _) = send(
        &app,
        db.get().uri(&format!("/v1/games?limit=2&after={next}")),
    )
    .await;
    assert_eq!(body["items"].as_array().unwrap().len(), 1);
    assert!(body["next"].is_null());
    let (_, body, _) = send(&app, db.get().uri("/v1/games?status=ended")).await;
    assert_eq!(body["items"].as_array().unwrap().len(), 0);
    db.finish().await;
}

#[actix_web::test]
async fn creating_a_game_with_a_chosen_id_is_idempotent_and_other_settings_conflict() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let id = Uuid::new_v4();
    let mut body = standard_game();
    body["game_id"] = json!(id);
    let first = send(&app, db.post().uri("/v1/games").set_json(&body)).await;
    let again = send(&app, db.post().uri("/v1/games").set_json(&body)).await;
    assert_eq!(first.0, 201);
    assert_eq!(again.0, 200);
    assert_eq!(first.1, again.1);
    body["round"] = json!("9");
    let conflict = send(&app, db.post().uri("/v1/games").set_json(&body)).await;
    assert_problem(&conflict, 409, "game_id_taken");
    assert_eq!(db.event_count().await, 1);
    db.finish().await;
}

/// Sends a bad append and checks the answer and that the log did not change.
async fn refused_append(body: Value, status: u16, code: &str, field: Option<&str>) {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = create_game(&app, &db).await;
    let before = db.event_count().await;
    let reply = send(
        &app,
        db.post()
            .uri(&format!("/v1/games/{game}/events"))
            .insert_header(("content-type", "application/json"))
            .set_payload(body.to_string()),
    )
    .await;
    assert_problem(&reply, status, code);
    if let Some(field) = field {
        assert_eq!(reply.1["field"], field, "{}", reply.1);
    }
    assert_eq!(db.event_count().await, before, "nothing stored for {body}");
    db.finish().await;
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
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = create_game(&app, &db).await;
    let (status, body) = append(
        &app,
        &db,
        game,
        7,
        json!([{"type": "resign", "by": "white"}]),
    )
    .await;
    assert_eq!(status, 409);
    assert_eq!(body["code"], "stale_seq");
    assert_eq!(body["current_seq"], 1);
    assert_eq!(db.event_count().await, 1);
    db.finish().await;
}

#[actix_web::test]
async fn malformed_json_empty_bodies_and_empty_lists_are_refused() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = create_game(&app, &db).await;
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
        let reply = send(
            &app,
            db.post()
                .uri(&uri)
                .insert_header(("content-type", "application/json"))
                .set_payload(payload),
        )
        .await;
        assert_problem(&reply, status, code);
    }
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let reply = send(&app, db.post().uri(&uri).set_payload(deep)).await;
    assert_problem(&reply, 400, "malformed_json");
    assert_eq!(db.event_count().await, 1);
    db.finish().await;
}

#[actix_web::test]
async fn an_oversized_body_is_refused_and_nothing_is_stored() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = create_game(&app, &db).await;
    let huge = json!({"expected_seq": 1, "events": [{"type": "clock_adjust", "side": "white", "delta_ms": 1, "reason": "x".repeat(2 * 1024 * 1024)}]});
    let reply = send(
        &app,
        db.post()
            .uri(&format!("/v1/games/{game}/events"))
            .set_json(huge),
    )
    .await;
    assert_problem(&reply, 413, "body_too_large");
    assert!(
        reply.1["detail"]
            .as_str()
            .is_some_and(|d| d.contains("Send fewer events per request")),
        "{}",
        reply.1
    );
    assert_eq!(db.event_count().await, 1);
    db.finish().await;
}

#[actix_web::test]
async fn an_oversized_body_says_what_to_send_instead_for_the_route_it_was_sent_to() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let padding = "x".repeat(2 * 1024 * 1024);
    let (status, tournament, _) = send(
        &app,
        db.post()
            .uri("/v1/tournaments")
            .set_json(crate::tournaments::city_open()),
    )
    .await;
    assert_eq!(status, 201, "{tournament}");
    let pairings = format!(
        "/v1/tournaments/{}/rounds/1/pairings",
        tournament["tournament_id"].as_str().expect("id")
    );
    for (uri, says) in [
        ("/v1/games", "A game is created from its settings alone"),
        (pairings.as_str(), "Send one round's pairings"),
        ("/v1/tournaments", "Send only the tournament's settings"),
    ] {
        let reply = send(
            &app,
            db.post()
                .uri(uri)
                .set_json(json!({"white": {"name": padding}})),
        )
        .await;
        assert_problem(&reply, 413, "body_too_large");
        let detail = reply.1["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(says), "{uri}: {detail}");
        assert!(!detail.contains("events per request"), "{uri}: {detail}");
    }
    db.finish().await;
}

#[actix_web::test]
async fn unknown_games_invalid_uuids_bad_cursors_and_limits_are_4xx() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let missing = Uuid::new_v4();
    assert_problem(
        &send(&app, db.get().uri(&format!("/v1/games/{missing}"))).await,
        404,
        "game_not_found",
    );
    assert_problem(
        &send(&app, db.get().uri(&format!("/v1/games/{missing}/events"))).await,
        404,
        "game_not_found",
    );
    let reply = send(
        &app,
        db.post()
            .uri(&format!("/v1/games/{missing}/events"))
            .set_json(json!({"expected_seq": 1, "events": [{"type": "resign", "by": "white"}]})),
    )
    .await;
    assert_problem(&reply, 404, "game_not_found");
    assert_problem(
        &send(&app, db.get().uri("/v1/games/not-a-uuid")).await,
        400,
        "invalid_path",
    );
    assert_problem(
        &send(
            &app,
            db.post().uri("/v1/games/1234/events").set_json(json!({})),
        )
        .await,
        400,
        "invalid_path",
    );
    assert_problem(
        &send(&app, db.get().uri("/v1/feed?after=abc")).await,
        400,
        "invalid_cursor",
    );
    assert_problem(
        &send(&app, db.get().uri("/v1/feed?limit=100000000")).await,
        400,
        "invalid_limit",
    );
    assert_problem(
        &send(&app, db.get().uri("/v1/games?limit=0")).await,
        400,
        "invalid_limit",
    );
    assert_problem(
        &send(
            &app,
            db.get()
                .uri("/v1/games?after=%27%3B%20DROP%20TABLE%20events"),
        )
        .await,
        400,
        "invalid_cursor",
    );
    assert_problem(
        &send(&app, db.get().uri("/v1/games?status=lost")).await,
        400,
        "invalid_query",
    );
    assert_problem(
        &send(&app, db.get().uri("/v2/nothing")).await,
        404,
        "no_such_route",
    );
    assert_eq!(db.event_count().await, 0);
    db.finish().await;
}

#[actix_web::test]
async fn game_settings_are_validated_with_the_field_named() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
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
        let reply = send(&app, db.post().uri("/v1/games").set_json(&settings)).await;
        assert_eq!(reply.0, 422, "{field}: {}", reply.1);
        assert_eq!(
            reply.1["field"]
                .as_str()
                .map(|f| f.contains(field) || field.contains(f)),
            Some(true),
            "{field}: {}",
            reply.1
        );
    }
    let mut settings = standard_game();
    settings["start_fen"] = json!("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let reply = send(&app, db.post().uri("/v1/games").set_json(&settings)).await;
    assert_eq!(reply.0, 201, "a legal start FEN is accepted: {}", reply.1);
    assert_eq!(db.event_count().await, 1);
    db.finish().await;
}

#[actix_web::test]
async fn health_readiness_the_document_and_swagger_ui_are_served() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    assert_eq!(send(&app, db.get().uri("/healthz")).await.0, 200);
    assert_eq!(send(&app, db.get().uri("/readyz")).await.0, 200);
    let (status, document, _) = send(&app, db.get().uri("/api-docs/openapi.json")).await;
    assert_eq!(status, 200);
    assert_eq!(
        document,
        serde_json::to_value(arbiter::http::openapi()).unwrap()
    );
    let response = test::call_service(&app, db.get().uri("/docs/").to_request()).await;
    assert_eq!(response.status(), 200);
    let page = String::from_utf8_lossy(&test::read_body(response).await).to_string();
    assert!(page.contains("swagger"), "Swagger UI is served offline");
    db.finish().await;
}

#[actix_web::test]
async fn a_wrong_method_on_a_known_route_is_405_with_the_allowed_methods() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let response = test::call_service(
        &app,
        test::TestRequest::delete().uri("/v1/games").to_request(),
    )
    .await;
    assert_eq!(response.status(), 405);
    assert_eq!(response.headers().get("allow").unwrap(), "GET, POST");
    assert_eq!(
        response.headers().get("content-type").unwrap(),
        "application/problem+json"
    );
    db.finish().await;
}

#[actix_web::test]
async fn numbers_beyond_their_documented_range_are_refused_naming_the_field() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
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
        let reply = send(&app, db.post().uri("/v1/games").set_json(&body)).await;
        assert_problem(&reply, 422, "invalid_field");
        assert_eq!(reply.1["field"], field, "{}", reply.1);
    }
    assert_eq!(db.event_count().await, 0);
    db.finish().await;
}

#[actix_web::test]
async fn at_seq_zero_is_refused_as_a_bad_query_that_names_seq_one_not_as_a_missing_game() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = create_game(&app, &db).await;
    for route in ["", "/positions"] {
        let reply = send(
            &app,
            db.get().uri(&format!("/v1/games/{game}{route}?at_seq=0")),
        )
        .await;
        assert_problem(&reply, 400, "invalid_query");
        assert_eq!(reply.1["field"], "at_seq", "{}", reply.1);
        let detail = reply.1["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("at_seq=1"), "{detail}");
        let reply = send(
            &app,
            db.get().uri(&format!("/v1/games/{game}{route}?at_seq=1")),
        )
        .await;
        assert_eq!(reply.0, 200, "at_seq=1 is the game as created: {}", reply.1);
    }
    db.finish().await;
}

#[actix_web::test]
async fn a_query_parameter_that_cannot_be_read_is_named_with_what_it_must_be() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = create_game(&app, &db).await;
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
        let reply = send(&app, db.get().uri(&uri)).await;
        assert_problem(&reply, 400, "invalid_query");
        assert_eq!(reply.1["field"], field, "{uri}: {}", reply.1);
        let detail = reply.1["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(says), "{uri}: {detail}");
        assert!(!detail.contains("Query deserialize error"), "{detail}");
    }
    db.finish().await;
}

#[actix_web::test]
async fn a_json_body_that_holds_a_key_twice_is_refused_naming_it_and_nothing_is_stored() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = create_game(&app, &db).await;
    let body = r#"{"expected_seq": 1, "events": [
        {"type": "move", "by": "white", "san": "e4"},
        {"type": "resign", "by": "white", "by": "black"}]}"#;
    let reply = send(
        &app,
        db.post()
            .uri(&format!("/v1/games/{game}/events"))
            .insert_header(("content-type", "application/json"))
            .set_payload(body),
    )
    .await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.1["field"], "events[1].by", "{}", reply.1);
    assert_eq!(db.event_count().await, 1, "nothing stored");
    let top = r#"{"expected_seq": 1, "expected_seq": 2, "events": []}"#;
    let reply = send(
        &app,
        db.post()
            .uri(&format!("/v1/games/{game}/events"))
            .insert_header(("content-type", "application/json"))
            .set_payload(top),
    )
    .await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.1["field"], "expected_seq", "{}", reply.1);
    // The same keys in different objects are no duplicate.
    let (status, body) = append(
        &app,
        &db,
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"},
               {"type": "move", "by": "black", "san": "e5"}]),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    db.finish().await;
}

#[actix_web::test]
async fn a_nested_unknown_or_missing_field_is_named_once_with_its_whole_path() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let mut body = standard_game();
    body["white"]["rating"] = json!({"rating": 2800});
    let reply = send(&app, db.post().uri("/v1/games").set_json(&body)).await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.1["field"], "white.rating", "{}", reply.1);
    let mut body = standard_game();
    body["white"] = json!({"fide_id": 1503014});
    let reply = send(&app, db.post().uri("/v1/games").set_json(&body)).await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.1["field"], "white.name", "{}", reply.1);
    db.finish().await;

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
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = create_game(&app, &db).await;
    let (status, body) = crate::support::append(
        &app,
        &db,
        game,
        1,
        json!([{"type": "claim", "by": "white", "kind": "repetition", "intended_move": "Qh5"}]),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["events"][1]["event"]["type"], "claim_ruled", "{body}");
    db.finish().await;
}

#[actix_web::test]
async fn problem_titles_are_words_a_person_reads_not_internal_names() {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let game = create_game(&app, &db).await;
    let (status, body) = crate::support::append(
        &app,
        &db,
        game,
        1,
        json!([{"type": "touch", "by": "white", "square": "g1"}]),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let refused = send(
        &app,
        db.post().uri(&format!("/v1/games/{game}/events")).set_json(
            json!({"expected_seq": 2, "events": [{"type": "move", "by": "white", "san": "e4"}]}),
        ),
    )
    .await;
    assert_problem(&refused, 422, "touch_move_obligation");
    assert_eq!(refused.1["title"], "The touched piece must be moved");
    let stale = send(
        &app,
        db.post().uri(&format!("/v1/games/{game}/events")).set_json(
            json!({"expected_seq": 1, "events": [{"type": "move", "by": "white", "san": "Nf3"}]}),
        ),
    )
    .await;
    assert_problem(&stale, 409, "stale_seq");
    assert_eq!(stale.1["title"], "Someone recorded first");
    for problem in [&refused.1, &stale.1] {
        let title = problem["title"].as_str().unwrap_or_default().to_lowercase();
        let code_words = problem["code"]
            .as_str()
            .unwrap_or_default()
            .replace('_', " ");
        assert_ne!(title, code_words, "{problem}");
    }
    db.finish().await;
}

//! Issue 18 through HTTP: a game's time control in the one-period form, with periods or as a
//! preset, validated with the field named.

use serde_json::{Value, json};

use crate::client::{Reply, api};
use crate::support::{TestDb, standard_game};

fn with_control(control: Value) -> Value {
    let mut settings = standard_game();
    settings["time_control"] = control;
    settings
}

#[actix_web::test]
async fn given_the_old_one_period_form_when_a_game_is_created_then_it_is_accepted_and_stored_as_sent()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let control = json!({"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000});
    let Reply { status, body, .. } = api.create_game(&with_control(control.clone())).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["event"]["event"]["time_control"], control);
    assert!(
        body["event"]["event"].get("clock_behaviour").is_none(),
        "the default clock behaviour is not written: {body}"
    );
}

#[actix_web::test]
async fn given_a_control_with_periods_or_a_preset_when_a_game_is_created_then_it_is_stored_with_its_periods()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let periods = json!([
        {"time_ms": 5_400_000, "moves": 40, "bonus": {"mode": "increment", "ms": 30_000}},
        {"time_ms": 1_800_000, "bonus": {"mode": "increment", "ms": 30_000}}
    ]);
    for control in [
        json!({"periods": periods}),
        json!({"kind": "standard", "periods": periods}),
        json!({"preset": "fide_standard"}),
    ] {
        let mut settings = with_control(control.clone());
        settings["clock_behaviour"] =
            json!({"period_time_added": "at_zero_both_clocks", "increment_credit": "before_move"});
        let Reply { status, body, .. } = api.create_game(&settings).await;
        assert_eq!(status, 201, "{control}: {body}");
        let stored = &body["event"]["event"];
        assert_eq!(
            stored["time_control"],
            json!({"kind": "standard", "periods": periods}),
            "{control}"
        );
        assert_eq!(
            stored["clock_behaviour"]["period_time_added"],
            "at_zero_both_clocks"
        );
    }
}

#[actix_web::test]
async fn given_a_control_the_laws_classify_otherwise_or_no_clock_can_run_when_a_game_is_created_then_422_names_the_field()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let cases = [
        // A 3-minute game entered as standard: blitz by B.1.
        (
            json!({"kind": "standard", "base_ms": 180_000, "increment_ms": 0}),
            "time_control.kind",
            "blitz by B.1",
        ),
        (
            json!({"kind": "rapid", "preset": "fide_standard"}),
            "time_control.kind",
            "standard",
        ),
        (
            json!({"periods": [{"time_ms": 5_400_000, "moves": 0}, {"time_ms": 1_800_000}]}),
            "time_control.periods[0]",
            "0 moves",
        ),
        (
            json!({"periods": [{"time_ms": 5_400_000, "moves": 40}]}),
            "time_control.periods[0]",
            "nothing follows it",
        ),
        (
            json!({"base_ms": 5_400_000, "preset": "fide_standard"}),
            "time_control",
            "mixes forms",
        ),
        (
            json!({"kind": "standard", "base_ms": 0, "increment_ms": 0}),
            "time_control.base_ms",
            "base_ms",
        ),
    ];
    for (control, field, words) in cases {
        let Reply { status, body, .. } = api.create_game(&with_control(control.clone())).await;
        assert_eq!(status, 422, "{control}: {body}");
        assert_eq!(body["field"], field, "{control}: {body}");
        assert!(
            body["detail"].as_str().is_some_and(|d| d.contains(words)),
            "{control}: {body}"
        );
    }
    assert_eq!(db.event_count().await, 0);
}

/// `plies` quiet legal moves from the start: no capture while one can be avoided, never a
/// position seen before, never the end of the game.
fn quiet_game(plies: usize) -> Vec<String> {
    use shakmaty::{Chess, Position, san::San};
    let mut position = Chess::default();
    let mut seen = std::collections::HashSet::new();
    let key = |p: &Chess| format!("{}{:?}", p.board(), p.turn());
    seen.insert(key(&position));
    let mut sans = Vec::new();
    for _ in 0..plies {
        let legal = position.legal_moves();
        let (chosen, next) = legal
            .iter()
            .filter(|m| !m.is_capture())
            .chain(legal.iter().filter(|m| m.is_capture()))
            .find_map(|m| {
                let mut next = position.clone();
                next.play_unchecked(*m);
                (!seen.contains(&key(&next))
                    && !next.is_game_over()
                    && !next.is_insufficient_material())
                .then_some((*m, next))
            })
            .expect("a quiet move");
        sans.push(San::from_move(&position, chosen).to_string());
        seen.insert(key(&next));
        position = next;
    }
    sans
}

#[actix_web::test]
async fn given_whites_40th_move_recorded_without_its_press_when_whites_flag_is_recorded_then_the_view_shows_the_move_awaiting_its_press_and_white_loses_citing_6_2_1_6_2_2_6_4_6_9()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    // 90/40 + 30/rest, 30 s a move, on a clock that counts presses.
    let Reply { status, body, .. } = api
        .create_game(&with_control(json!({"preset": "fide_standard"})))
        .await;
    assert_eq!(status, 201, "{body}");
    let game = body["game"]["game_id"].as_str().expect("id").to_string();
    let sans = quiet_game(79);
    let mut events = Vec::new();
    for (ply, san) in sans[..78].iter().enumerate() {
        let by = if ply % 2 == 0 { "white" } else { "black" };
        events.push(json!({"type": "move", "by": by, "san": san}));
        events.push(json!({"type": "clock_press", "by": by}));
    }
    // 40.: on the board, the clock not pressed.
    events.push(json!({"type": "move", "by": "white", "san": sans[78]}));
    let game_uuid: uuid::Uuid = game.parse().expect("uuid");
    let mut seq = 1;
    // In appends of a few events, as a board's recorder sends them.
    for chunk in events.chunks(16) {
        let Reply { status, body, .. } = api.append_events(game_uuid, seq, json!(chunk)).await;
        assert_eq!(status, 201, "{body}");
        seq = body["last_seq"].as_u64().expect("seq");
    }

    let Reply {
        status, body: view, ..
    } = api.game(&game).await;
    assert_eq!(status, 200, "{view}");
    let white = &view["state"]["time_control"]["white"];
    assert_eq!(white["moves_completed"], 39, "{white}");
    assert_eq!(white["move_awaiting_press"], 40, "{white}");
    assert_eq!(white["period"], 1, "{white}");
    assert_eq!(white["control_reached"], false, "{white}");
    assert!(
        view["state"]["time_control"]["black"]
            .get("move_awaiting_press")
            .is_none(),
        "{view}"
    );

    let Reply { status, body, .. } = api
        .append_events(game_uuid, seq, json!([{"type": "flag", "side": "white"}]))
        .await;
    assert_eq!(status, 201, "{body}");
    let ended = &body["events"][1]["event"];
    assert_eq!(ended["type"], "game_ended", "{body}");
    assert_eq!(ended["result"], "0-1", "{body}");
    assert_eq!(ended["article"], "6.2.1, 6.2.2, 6.4, 6.9", "{body}");
}

#[actix_web::test]
async fn given_a_game_created_from_a_position_at_move_41_with_the_clocks_readings_when_it_is_read_then_each_player_has_40_moves_in_the_last_period_and_the_pgn_is_numbered_from_41()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let mut settings = with_control(json!({"preset": "fide_standard"}));
    // A study written `0 1`, resumed at move 41 by the arbiter's count.
    settings["start_fen"] =
        json!("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1");
    settings["start_moves_completed"] = json!({"white": 40, "black": 40});
    settings["start_clocks"] = json!({"white_ms": 1_500_000, "black_ms": 1_200_000});
    let Reply { status, body, .. } = api.create_game(&settings).await;
    assert_eq!(status, 201, "{body}");
    let game = body["game"]["game_id"].as_str().expect("id").to_string();
    let Reply { status, body, .. } = api
        .append_events(
            game.parse::<uuid::Uuid>().expect("uuid"),
            1,
            json!([
                {"type": "move", "by": "white", "san": "d3",
                 "clock": {"white_ms": 1_470_000, "black_ms": 1_200_000}},
                {"type": "move", "by": "black", "san": "d6",
                 "clock": {"white_ms": 1_470_000, "black_ms": 1_110_000}}
            ]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let view = api.game(&game).await.body;
    let control = &view["state"]["time_control"];
    assert_eq!(control["white"]["moves_completed"], 41, "{control}");
    assert_eq!(control["white"]["period"], 2, "{control}");
    assert_eq!(control["white"]["last_period"], true, "{control}");
    assert!(control.get("reading_discrepancies").is_none(), "{control}");
    let reply = api.pgn(&game).await;
    assert_eq!(reply.status, 200);
    let pgn = reply.text;
    assert!(
        pgn.contains(
            "[FEN \"r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 41\"]"
        ),
        "{pgn}"
    );
    assert!(pgn.contains("41. d3"), "{pgn}");

    // A count that does not fit the side to move is refused, the field named.
    settings["start_moves_completed"] = json!({"white": 41, "black": 40});
    let reply = api.create_game(&settings).await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert!(
        reply.body.to_string().contains("start_moves_completed"),
        "{}",
        reply.body
    );
}

#[actix_web::test]
async fn given_a_counting_clock_that_missed_a_press_when_the_reading_after_move_40_lacks_the_period_then_the_view_says_the_clocks_count_is_behind_and_a_flag_during_move_41_adds_the_period_instead_of_losing()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let Reply { status, body, .. } = api
        .create_game(&with_control(json!({"preset": "fide_standard"})))
        .await;
    assert_eq!(status, 201, "{body}");
    let game: uuid::Uuid = body["game"]["game_id"]
        .as_str()
        .and_then(|id| id.parse().ok())
        .expect("id");
    let sans = quiet_game(80);
    let mut events = Vec::new();
    for (ply, san) in sans[..80].iter().enumerate() {
        let by = if ply % 2 == 0 { "white" } else { "black" };
        events.push(json!({"type": "move", "by": by, "san": san}));
        // White's 40th press: 4:10 on the display, not the 34:10 a counting clock adds.
        let press = match ply {
            78 => json!({"type": "clock_press", "by": "white", "white_ms": 250_000}),
            79 => json!({"type": "clock_press", "by": "black", "black_ms": 3_000_000}),
            _ => json!({"type": "clock_press", "by": by}),
        };
        events.push(press);
    }
    let mut seq = 1;
    for chunk in events.chunks(16) {
        let Reply { status, body, .. } = api.append_events(game, seq, json!(chunk)).await;
        assert_eq!(status, 201, "{body}");
        seq = body["last_seq"].as_u64().expect("seq");
    }
    let view = api.game(&game).await.body;
    let control = &view["state"]["time_control"];
    let found = control["reading_discrepancies"]
        .as_array()
        .expect("a discrepancy");
    assert_eq!(found.len(), 1, "{control}");
    assert_eq!(found[0]["kind"], "clock_count_behind", "{control}");
    assert_eq!(
        found[0]["clock_count"],
        json!({"clock_moves": 39, "clock_period": 1, "period_to_show": 2})
    );
    assert_eq!(control["white"]["period"], 2, "{control}");
    assert_eq!(control["white"]["clock_period"], 1, "{control}");

    let Reply { status, body, .. } = api
        .append_events(game, seq, json!([{"type": "flag", "side": "white"}]))
        .await;
    assert_eq!(status, 201, "{body}");
    let added = &body["events"][1]["event"];
    assert_eq!(added["type"], "penalty_applied", "{body}");
    assert_eq!(added["add_ms"], 1_800_000, "{body}");
    assert_eq!(added["article"], "6.4, 6.3.2, 6.10.2", "{body}");
    let view = api.game(&game).await.body;
    assert_eq!(view["state"]["status"], "in_progress", "{view}");
}

#[core::prelude::v1::test]
fn given_a_clock_count_behind_the_log_when_the_desk_lists_the_readings_then_it_says_the_clocks_count_and_the_period_the_clock_should_show()
 {
    use arbiter::game::Game;
    use arbiter::game::event::{
        ClockReading, Event, GameSettings, LawsEdition, RecordedEvent, ServiceEvent, Side,
    };
    let settings: GameSettings =
        serde_json::from_value(with_control(json!({"preset": "fide_standard"}))).expect("settings");
    let mut game = Game::new(&settings).expect("valid");
    game.apply(
        1,
        &Event::Service(ServiceEvent::GameCreated(Box::new(settings))),
    )
    .expect("created");
    let mut seq = 1;
    for (ply, san) in quiet_game(79).iter().enumerate() {
        let by = if ply % 2 == 0 {
            Side::White
        } else {
            Side::Black
        };
        seq += 1;
        game.record(
            seq,
            &RecordedEvent::Move {
                by,
                san: san.clone(),
            },
        )
        .expect("move");
        // White's 40th press: 4:10, without the 30 minutes a counting clock adds.
        let white_ms = (ply == 78).then_some(250_000);
        seq += 1;
        game.record_with_clock(
            seq,
            &RecordedEvent::ClockPress {
                by,
                white_ms,
                black_ms: None,
            },
            None::<&ClockReading>,
        )
        .expect("press");
    }
    let panel =
        arbiter::web::periods::discrepancy_panel(&game.view(), LawsEdition::Y2023).into_string();
    assert!(
        panel.contains("Its own count is behind the record's (39 moves); the Laws count 40"),
        "{panel}"
    );
    assert!(panel.contains("set it to period 2"), "{panel}");
    assert!(panel.contains("move_count_set"), "{panel}");
    assert!(panel.contains("6.10.2"), "{panel}");
}

#[actix_web::test]
async fn given_scoresheets_that_stop_at_move_32_when_the_arbiter_records_the_position_reconstructed_at_move_41_then_play_continues_from_it_the_flag_reached_the_control_the_pgn_starts_again_from_it_and_the_audit_reproduces()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    // 40 moves in 90 minutes, then 30 minutes, no increment (8.4 lapses under five minutes).
    let mut settings = with_control(json!({"periods": [
        {"time_ms": 5_400_000, "moves": 40}, {"time_ms": 1_800_000}
    ]}));
    settings["start_fen"] =
        json!("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 30");
    let Reply { status, body, .. } = api.create_game(&settings).await;
    assert_eq!(status, 201, "{body}");
    let game: uuid::Uuid = body["game"]["game_id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("id");
    let moves: Vec<Value> = [
        ("white", "d3"),
        ("black", "d6"),
        ("white", "h3"),
        ("black", "h6"),
        ("white", "a3"),
        ("black", "a6"),
    ]
    .iter()
    .map(|(by, san)| json!({"type": "move", "by": by, "san": san}))
    .collect();
    let Reply { status, body, .. } = api.append_events(game, 1, Value::Array(moves)).await;
    assert_eq!(status, 201, "{body}");
    let seq = body["last_seq"].as_u64().expect("seq");

    // White's flag fell; the game reconstructed on a second board shows 40 moves each
    // (2023 8.5.3). The arbiter records that position with the clocks as they stand (7.1).
    let reconstructed =
        "r1bq1rk1/1pp2pp1/p1np1n1p/2b1p3/2B1P3/P1NP1N1P/1PP2PP1/R1BQ1RK1 w - - 16 41";
    let Reply { status, body, .. } = api
        .append_events(
            game,
            seq,
            json!([
                {"type": "arbiter_decision", "decision": "position_reconstructed",
                 "fen": reconstructed,
                 "reason": "No complete scoresheet after White's flag fell: reconstructed on a second board (8.5.3), 40 moves each",
                 "clock": {"white_ms": 0, "black_ms": 120_000}},
                {"type": "flag", "side": "white"},
                {"type": "move", "by": "white", "san": "Kh1"}
            ]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let types: Vec<&str> = body["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["event"]["type"].as_str())
        .collect();
    assert_eq!(
        types,
        vec!["arbiter_decision", "flag", "penalty_applied", "move"],
        "{body}"
    );
    assert_eq!(body["events"][2]["event"]["add_ms"], 1_800_000, "{body}");

    // Play went on from the reconstructed position, numbered from it.
    let view = api.game(&game).await.body;
    let state = &view["state"];
    assert_eq!(
        state["fen"], "r1bq1rk1/1pp2pp1/p1np1n1p/2b1p3/2B1P3/P1NP1N1P/1PP2PP1/R1BQ1R1K b - - 17 41",
        "{state}"
    );
    assert_eq!(
        state["reconstructed_positions"][0]["fen"], reconstructed,
        "{state}"
    );
    assert_eq!(
        state["time_control"]["white"]["moves_completed"], 40,
        "{state}"
    );
    assert_eq!(
        state["time_control"]["white"]["last_period"], true,
        "{state}"
    );

    let reply = api.pgn(&game).await;
    assert_eq!(reply.status, 200);
    let pgn = reply.text;
    assert!(pgn.contains(&format!("[FEN \"{reconstructed}\"]")), "{pgn}");
    let movetext = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        movetext.contains("32. a3 a6 {The arbiter reconstructed the position the board should show (7.5.1, 7.6, 8.5.3, 7.1)"),
        "{pgn}"
    );
    assert!(
        movetext.contains(
            "{the game continues from the position the arbiter reconstructed (event 8)} 41. Kh1"
        ),
        "{pgn}"
    );

    let Reply {
        status,
        body: audit,
        ..
    } = api.get(&format!("/v1/games/{game}/audit")).await;
    assert_eq!(status, 200, "{audit}");
    assert_eq!(audit["verdict"], "reproduced", "{audit}");

    // Without a FEN the decision is refused, saying what to give.
    let last = view["game"]["last_seq"].as_u64().unwrap_or(seq + 4);
    let Reply { status, body, .. } = api
        .append_events(
            game,
            last,
            json!([{"type": "arbiter_decision", "decision": "position_reconstructed", "reason": "?"}]),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["detail"].as_str().unwrap_or_default().contains("fen"),
        "{body}"
    );
}

//! The integrity trail of the tournament report (issue 35, item 5): the TRF26 export's `###`
//! lines for a corrected result and for an appeal that changed one, a provisional report while
//! a board has no result and the final one refused naming the board, and the seal that
//! `arbiter verify --report` checks the games' exported logs against offline.

use crate::client::{Api, api};
use crate::support::{TestDb, assert_problem};
use actix_web::test;
use serde_json::{Value, json};
use uuid::Uuid;

/// A tournament with one round of three boards (players 1-6); its id and the games' ids.
async fn three_boards(api: &Api<'_>) -> (String, Vec<Uuid>) {
    let body = api
        .create_tournament(&json!({
            "name": "Trail Open", "site": "Galway", "starts_on": "2026-11-20",
            "ends_on": "2026-11-22",
            "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000},
            "arbiters": ["IA Chief Arbiter"]
        }))
        .await
        .expect(201);
    let id = body["tournament_id"].as_str().expect("id").to_string();
    let boards: Vec<Value> = (1..=3)
        .map(|b| {
            json!({"board": b, "white": {"name": format!("Player {}", 2 * b - 1)},
                   "black": {"name": format!("Player {}", 2 * b)}})
        })
        .collect();
    let loaded = api
        .load_round(&id, 1, &json!({ "pairings": boards }))
        .await
        .expect(201);
    let games = loaded["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g["game_id"].as_str().expect("id").parse().expect("uuid"))
        .collect();
    (id, games)
}

fn opening() -> Vec<Value> {
    vec![
        json!({"type": "move", "by": "white", "san": "e4"}),
        json!({"type": "move", "by": "black", "san": "e5"}),
    ]
}

/// The seq of the `game_ended` of an append's answer.
fn ended_at(body: &Value) -> u64 {
    body["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["event"]["type"] == "game_ended")
        .and_then(|e| e["seq"].as_u64())
        .unwrap_or_else(|| panic!("the game ended: {body}"))
}

/// Board 1: 1-0 entered on the wrong board, retracted, 0-1 entered; board 2: a draw changed to
/// 1-0 on appeal. Board 3 is left without a result.
async fn correct_and_appeal(api: &Api<'_>, db: &TestDb, games: &[Uuid]) {
    let mut events = opening();
    events.push(json!({"type": "resign", "by": "black"}));
    let body = api
        .append_events(games[0], 1, json!(events))
        .await
        .expect(201);
    let resigned = ended_at(&body) - 1;
    let last = body["last_seq"].as_u64().expect("seq");
    api.append_events(
        games[0],
        last,
        json!([{"type": "correction", "retracts_seq": resigned,
                "reason": "the resignation was typed on the wrong board"},
               {"type": "resign", "by": "white"}]),
    )
    .await
    .expect(201);

    let mut events = opening();
    events.push(json!({"type": "draw_offer", "by": "white"}));
    events.push(json!({"type": "draw_accept", "by": "black"}));
    let body = api
        .append_events(games[1], 1, json!(events))
        .await
        .expect(201);
    let ended = ended_at(&body);
    let mut seq = body["last_seq"].as_u64().expect("seq");
    for event in [
        json!({"type": "appeal_lodged", "by": "black", "against_seq": ended,
               "grounds": "White's flag had fallen before the offer"}),
        json!({"type": "appeal_decided", "against_seq": ended, "upheld": true, "result": "0-1",
               "reason": "the flag fell before the agreement (6.9)"}),
    ] {
        let body = api
            .with_token(&db.appeals)
            .append_events(games[1], seq, json!([event]))
            .await
            .expect(201);
        seq = body["last_seq"].as_u64().expect("seq");
    }
}

#[actix_web::test]
async fn the_trf26_export_carries_a_corrected_result_and_an_appeal_and_the_final_one_waits_for_every_board()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (id, games) = three_boards(&api).await;
    correct_and_appeal(&api, &db, &games).await;

    let reply = api.trf(&id, "version=26").await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let text = reply.text;
    let comments: Vec<&str> = text.lines().filter(|l| l.starts_with("###")).collect();
    let line = |start: &str| {
        comments
            .iter()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("a line `{start}...` in {comments:#?}"))
            .to_string()
    };
    let corrected = line("### Correction @ Round 1, board 1: ");
    assert!(
        corrected
            .contains(": 1-0 became no result (Player 1 - Player 2); recorded by test arbiter"),
        "{corrected}"
    );
    assert!(
        corrected.ends_with("; reason: the resignation was typed on the wrong board"),
        "{corrected}"
    );
    let appeal = line("### Appeal @ Round 1, board 2: ");
    assert!(
        appeal.contains(": 1/2-1/2 became 0-1 (Player 3 - Player 4); recorded by test appeals"),
        "{appeal}"
    );
    assert!(
        appeal.ends_with("; reason: the flag fell before the agreement (6.9)"),
        "{appeal}"
    );
    // Only what changed a result: the result entered after the correction is no trail line.
    assert_eq!(
        comments
            .iter()
            .filter(|l| l.starts_with("### Correction") || l.starts_with("### Appeal"))
            .count(),
        2,
        "{comments:#?}"
    );
    assert_eq!(
        line("### Provisional @ "),
        "### Provisional @ Round 1, board 3: no result yet (Player 5 - Player 6); this report \
         is not final"
    );
    assert!(line("### Seal: SHA-256 ").contains("over the chain heads of 3 games"));
    // The trail follows the records, and the file still reads as a report.
    let first_comment = text.find("\r\n###").expect("a comment");
    assert!(text[..first_comment].contains("\r\n001 "), "{text}");
    arbiter::interchange::trf::read_report(&text).expect("the export reads as TRF");
    // TRF-16 has no comment lines: written as before.
    let text16 = api.trf(&id, "").await.text;
    assert!(!text16.contains("###"), "{text16}");

    // The chief arbiter's report says it is provisional, names the board, shows the seal the
    // TRF26 export carries and the two changes.
    let seal = line("### Seal: SHA-256 ")["### Seal: SHA-256 ".len()..][..64].to_string();
    let cookie = crate::office::signed_in(&api, &db.arbiter).await;
    let page =
        crate::office::page_text(&api, &format!("/office/events/{id}/report"), &cookie).await;
    assert!(page.contains("Provisional report"), "{page}");
    assert!(
        page.contains("Round 1, board 3 (Player 5 - Player 6)"),
        "{page}"
    );
    assert!(page.contains(&seal), "the seal {seal} on the page");
    assert!(page.contains("Correction @ Round 1, board 1: 1-0 became no result"));
    assert!(page.contains("Appeal @ Round 1, board 2: 1/2-1/2 became 0-1"));

    // The final report is refused while board 3 has no result, naming it; then it is made.
    // The refusal is a problem in JSON, not a report: read as such.
    let reply = api
        .get(&format!("/v1/tournaments/{id}/trf?version=26&final=true"))
        .await
        .problem(409, "results_missing");
    let detail = reply.body["detail"].as_str().expect("detail");
    assert!(
        detail.contains("1 board has no result: Round 1, board 3 (Player 5 - Player 6)"),
        "{detail}"
    );
    let mut events = opening();
    events.push(json!({"type": "resign", "by": "white"}));
    api.append_events(games[2], 1, json!(events))
        .await
        .expect(201);
    let reply = api.trf(&id, "version=26&final=true").await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let final_text = reply.text;
    assert!(!final_text.contains("### Provisional"), "{final_text}");
}

#[actix_web::test]
async fn a_sealed_tournament_verifies_offline_and_a_game_changed_after_the_seal_is_named() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (id, games) = three_boards(&api).await;
    correct_and_appeal(&api, &db, &games).await;
    let mut events = opening();
    events.push(json!({"type": "resign", "by": "white"}));
    let body = api
        .append_events(games[2], 1, json!(events))
        .await
        .expect(201);
    let board_three_last = body["last_seq"].as_u64().expect("seq");
    let reply = api.trf(&id, "version=26&final=true").await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let report = reply.text;

    let dir = std::env::temp_dir().join(format!("arbiter-seal-{}", Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let report_file = dir.join("report.trf");
    std::fs::write(&report_file, &report).expect("write the report");
    let exports = dir.join("exports");
    let export_all = || {
        let exports = exports.clone();
        let games = games.clone();
        let api = &api;
        async move {
            std::fs::create_dir_all(&exports).expect("a folder");
            for game in &games {
                let reply = api.export(game).await;
                assert_eq!(reply.status, 200, "{}", reply.text);
                std::fs::write(exports.join(format!("{game}.jsonl")), reply.text).expect("write");
            }
        }
    };
    let verify = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["verify", "--report"])
            .arg(&report_file)
            .arg(&exports)
            .env_remove("DATABASE_URL")
            .output()
            .expect("run arbiter verify --report")
    };
    export_all().await;
    let sealed = verify();
    let said = String::from_utf8_lossy(&sealed.stdout).to_string();
    assert!(sealed.status.success(), "{said}");
    assert!(said.contains("holds: 3 games as sealed"), "{said}");

    // Board 3's result is retracted after the report left: its export no longer ends where
    // the seal says, and the verifier names the game.
    api.append_events(
        games[2],
        board_three_last,
        json!([{"type": "correction", "retracts_seq": board_three_last - 1,
                "reason": "changed after the report"}]),
    )
    .await
    .expect(201);
    export_all().await;
    let changed = verify();
    let said = String::from_utf8_lossy(&changed.stdout).to_string();
    assert_eq!(changed.status.code(), Some(2), "{said}");
    assert!(
        said.contains(&format!(
            "Round 1, board 3, game {}: CHANGED after the report was sealed",
            games[2]
        )),
        "{said}"
    );
    assert!(
        said.contains(&format!("Round 1, board 1, game {}: as sealed", games[0])),
        "{said}"
    );
    // A report whose chain heads were edited to match is refused as edited.
    let edited = report.replace(
        &format!("game {} seq {board_three_last} ", games[2]),
        &format!("game {} seq {} ", games[2], board_three_last + 1),
    );
    assert_ne!(edited, report);
    std::fs::write(&report_file, edited).expect("write");
    let refused = verify();
    let said = String::from_utf8_lossy(&refused.stdout).to_string();
    assert_eq!(refused.status.code(), Some(2), "{said}");
    assert!(said.contains("the report was edited"), "{said}");
    std::fs::remove_dir_all(dir).ok();
}

/// Ends a game with `events` after the two opening moves; the last seq.
async fn finish(api: &Api<'_>, game: Uuid, last: &str) -> u64 {
    let mut events = opening();
    events.push(json!({"type": "resign", "by": last}));
    let body = api.append_events(game, 1, json!(events)).await.expect(201);
    body["last_seq"].as_u64().expect("seq")
}

#[actix_web::test]
async fn player_statuses_give_the_unplayed_rounds_codes_and_the_log_gives_the_rest_of_the_trail() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (id, games) = three_boards(&api).await;
    let mut board_one_last = 0;
    for (at, game) in games.iter().enumerate() {
        let last = finish(&api, *game, "black").await;
        if at == 0 {
            board_one_last = last;
        }
    }
    // Round 1 exported complete (TRF-16): the export is logged.
    assert_eq!(api.trf(&id, "").await.status, 200);
    // Then board 1's result is corrected and entered again.
    api.append_events(
        games[0],
        board_one_last,
        json!([{"type": "correction", "retracts_seq": board_one_last - 1,
                "reason": "Black had not resigned; White had"},
               {"type": "resign", "by": "white"}]),
    )
    .await
    .expect(201);

    // Statuses before round 2: player 6 withdraws, player 5 asks for a half-point bye, a
    // late entrant joins from round 2.
    for body in [
        json!({"type": "withdrawal", "start_number": 6, "from_round": 2,
               "reason": "Left for family reasons"}),
        json!({"type": "bye_request", "start_number": 5, "round": 2, "points": "half",
               "reason": "A school exam on Saturday"}),
        json!({"type": "late_entry", "name": "Late, Lena", "rating": 1850, "federation": "IRL",
               "from_round": 2, "reason": "Her flight was delayed"}),
    ] {
        api.record_player_status(&id, &body).await.expect(201);
    }
    let logged = api.tournament_log(&id).await.body;
    let late = logged
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| e["entry"]["status"]["type"] == "late_entry")
        .expect("the late entry");
    assert_eq!(
        late["entry"]["status"]["start_number"], 7,
        "the next start rank"
    );
    // Refused, naming the field: an unknown player, a status without a reason, a field of
    // another status.
    for (body, field) in [
        (
            json!({"type": "withdrawal", "start_number": 40, "from_round": 2, "reason": "x"}),
            "start_number",
        ),
        (
            json!({"type": "expulsion", "start_number": 4, "from_round": 2, "reason": " "}),
            "reason",
        ),
    ] {
        let reply = api.record_player_status(&id, &body).await;
        assert_problem(&reply, 422, "invalid_field");
        assert_eq!(reply.body["field"], field, "{}", reply.body);
    }
    let reply = api
        .record_player_status(
            &id,
            &json!({"type": "withdrawal", "start_number": 4, "from_round": 2,
                    "reason": "x", "points": "half"}),
        )
        .await;
    assert_eq!(reply.status, 422, "{}", reply.body);

    // Round 2: players 1-4 and the late entrant; player 2 is not paired.
    let pairings = json!({"pairings": [
        {"board": 1, "white": {"name": "Player 3"}, "black": {"name": "Player 1"}},
        {"board": 2, "white": {"name": "Late, Lena"}, "black": {"name": "Player 4"}},
    ]});
    for expected in [201, 200] {
        api.load_round(&id, 2, &pairings).await.expect(expected);
    }
    // A bye for a round the player has a game in is refused.
    let reply = api
        .record_player_status(
            &id,
            &json!({"type": "bye_request", "start_number": 1, "round": 2,
                    "points": "zero", "reason": "tired"}),
        )
        .await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.body["field"], "round");
    // The venue changes after the start.
    api.update_tournament(
        &id,
        &json!({
            "name": "Trail Open", "site": "Salthill, Galway", "starts_on": "2026-11-20",
            "ends_on": "2026-11-22",
            "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000},
            "arbiters": ["IA Chief Arbiter"]
        }),
    )
    .await
    .expect(200);

    let reply = api.trf(&id, "version=26").await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let text = reply.text;
    let report = arbiter::interchange::trf::read_report(&text).expect("reads");
    let player = |n: u32| {
        report
            .players
            .iter()
            .find(|p| p.start_number == n)
            .unwrap_or_else(|| panic!("player {n} in {text}"))
    };
    use arbiter::interchange::trf::TrfResult;
    assert_eq!(player(6).rounds[1].result, TrfResult::ZeroPointBye);
    assert_eq!(player(5).rounds[1].result, TrfResult::HalfPointBye);
    assert_eq!(player(5).half_points, 3, "a win and the half-point bye");
    assert_eq!(player(7).name, "Late, Lena");
    assert_eq!(player(7).rounds[0].result, TrfResult::ZeroPointBye);
    assert_eq!(player(7).rounds[1].opponent, Some(4));
    assert!(
        player(2)
            .rounds
            .get(1)
            .is_none_or(|r| r.result == TrfResult::Blank),
        "not paired, no status: {text}"
    );
    assert!(text.contains("\r\n240 H 002    5\r\n"), "{text}");
    let comments: Vec<&str> = text.lines().filter(|l| l.starts_with("###")).collect();
    let has = |needle: &str| {
        assert!(
            comments.iter().any(|l| l.contains(needle)),
            "`{needle}` in {comments:#?}"
        )
    };
    has(
        "### Correction @ Round 1, board 1: 1-0 became no result (Player 1 - Player 2), after round 1 was exported complete at ",
    );
    has(
        "### Result after export @ Round 1, board 1: no result became 0-1 (Player 1 - Player 2), after round 1 was exported complete at ",
    );
    has(
        "### Player status @ Round 2: Player 6 (6) withdrew from round 2 on; recorded by test arbiter",
    );
    has("; reason: Left for family reasons");
    has(
        "### Player status @ Round 2: Player 5 (5) is given a half-point bye in round 2 at their request",
    );
    has("### Player status @ Round 2: Late, Lena (7) entered late, from round 2");
    has(
        "### Pairings re-loaded @ Round 2: the round's pairings were loaded again from a list of boards: 0 games created, 2 kept",
    );
    has("### Settings changed @ the tournament: site changed after the first round was loaded");
    assert!(
        !comments
            .iter()
            .any(|l| l.starts_with("### Result after export @ Round 2")),
        "round 2 was never exported complete: {comments:#?}"
    );

    // The standings count the bye.
    let standings = api.tournament_standings(&id, "").await.expect(200);
    let line = standings["standings"]
        .as_array()
        .expect("lines")
        .iter()
        .find(|l| l["start_number"] == 5)
        .expect("player 5");
    assert_eq!(line["points"], 1.5);
}

#[actix_web::test]
async fn an_arbiter_records_a_withdrawal_on_the_tournament_page_and_sees_it_with_who_and_why() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (id, _) = three_boards(&api).await;
    let cookie = crate::office::signed_in(&api, &db.arbiter).await;
    let page_uri = format!("/office/events/{id}");
    let post = |fields: Vec<(&'static str, String)>, csrf: String| {
        let mut fields = fields;
        fields.push(("csrf", csrf));
        test::TestRequest::post()
            .uri(&format!("/office/events/{id}/players"))
            .insert_header(("Cookie", cookie.clone()))
            .insert_header(("Origin", "http://localhost:8080"))
            .set_form(fields)
    };
    let csrf_of = |page: &str| {
        let at = page.find("name=\"csrf\" value=\"").expect("a form") + 19;
        page[at..at + page[at..].find('"').expect("end")].to_string()
    };
    let page = crate::office::page_text(&api, &page_uri, &cookie).await;
    assert!(page.contains("No withdrawal, expulsion, requested bye or late entry recorded."));
    // An unknown start rank is refused with the values kept.
    let response = api
        .call(post(
            vec![
                ("kind", "withdrawal".into()),
                ("start_number", "40".into()),
                ("round", "2".into()),
                ("reason", "Left early".into()),
            ],
            csrf_of(&page),
        ))
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let page = crate::office::page_text(&api, &page_uri, &cookie).await;
    assert!(
        page.contains("Nothing was recorded: No player has start rank 40"),
        "{page}"
    );
    let response = api
        .call(post(
            vec![
                ("kind", "withdrawal".into()),
                ("start_number", "4".into()),
                ("round", "2".into()),
                ("reason", "Left for family reasons".into()),
            ],
            csrf_of(&page),
        ))
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let page = crate::office::page_text(&api, &page_uri, &cookie).await;
    assert!(
        page.contains("Start rank 4 withdrew from round 2 on"),
        "{page}"
    );
    assert!(page.contains("Left for family reasons"));
    assert!(page.contains("test arbiter"));
    let log = api.tournament_log(&id).await.body;
    assert_eq!(
        log.as_array()
            .expect("entries")
            .iter()
            .filter(|e| e["entry"]["type"] == "player_status")
            .count(),
        1,
        "{log}"
    );
}

//! PGN import: `POST /v1/games/import` and `arbiter import FILE.pgn` against a real
//! PostgreSQL, and the reading of tags into settings.

use crate::client::{Api, Reply, api, api_with_state};
use crate::support::{TestDb, assert_problem, bearer};
use actix_web::test as actix_test;
use arbiter::game::event::TimeControlKind;
use arbiter::interchange::pgn_import::{
    ReadGame, read_games, round_and_board, time_control_from_tag,
};
use serde_json::Value;
use std::process::Command;
use uuid::Uuid;

/// Four games: a good one with clocks and FIDE ids, one with a move that is not legal, one
/// with a FEN that is not a position, and a good one from a FEN.
const MIXED: &str = r#"[Event "Import Open 2026"]
[Site "Riga LAT"]
[Date "2026.03.01"]
[Round "6.1"]
[White "Alpha, Anna"]
[Black "Beta, Boris"]
[Result "*"]
[WhiteFideId "1503014"]
[BlackFideId "24101605"]
[TimeControl "40/5400+30:1800+30"]

1. d4 {[%clk 1:30:25]} Nf6 {[%clk 1:30:27]} 2. c4 {[%clk 1:30:40]} e6 {[%clk 1:30:51]} *

[Event "Import Open 2026"]
[Round "6.2"]
[White "Gamma, Greta"]
[Black "Delta, Dirk"]
[Result "1-0"]

1. e4 e5 2. Qxf7 1-0

[Event "Import Open 2026"]
[Round "6.3"]
[White "Epsilon, Eva"]
[Black "Zeta, Zoltan"]
[SetUp "1"]
[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]
[Result "*"]

1. Kd2 *

[Event "Import Open 2026"]
[Round "6"]
[Board "4"]
[White "Eta, Emil"]
[Black "Theta, Thea"]
[Result "*"]
[TimeControl "600+5"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]

1. e4 Kd7 2. e5 *
"#;

/// Games that go on past their legal end, and ends named by tags.
const ENDINGS: &str = r#"[Event "Import Open 2026"]
[Round "7.1"]
[White "Knight, Dancer"]
[Black "Knight, Partner"]
[Result "1/2-1/2"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6
8. Ng1 Ng8 9. Nf3 Nf6 1/2-1/2

[Event "Import Open 2026"]
[Round "7.2"]
[White "Fool, Fred"]
[Black "Mate, Mary"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 3. a3 0-1

[Event "Import Open 2026"]
[Round "7.3"]
[White "Quick, Queen"]
[Black "Slow, Sam"]
[Result "1-0"]
[TimeControl "180+0"]
[Termination "Time forfeit"]

1. e4 {[%clk 0:02:58]} e5 {[%clk 0:02:59]} 2. Qh5 {[%clk 0:02:50]} Nc6 {[%clk 0:00:00]} 1-0

[Event "Import Open 2026"]
[Round "7.4"]
[White "Brave, Bea"]
[Black "Tired, Tom"]
[Result "1-0"]
[Termination "Black resigns"]

1. e4 e5 2. Nf3 1-0

[Event "Import Open 2026"]
[Round "7.5"]
[White "Silent, Sue"]
[Black "Quiet, Quentin"]
[Result "0-1"]

1. d4 d5 0-1
"#;

/// Two good games, then one whose comment is never closed.
const BROKEN_COMMENT: &str = "[Event \"Import Open 2026\"]\n[Round \"8.1\"]\n[White \"Before, Bo\"]\n[Black \"Fine, Fay\"]\n\n1. c4 *\n\n[Event \"Import Open 2026\"]\n[Round \"8.2\"]\n[White \"After, Al\"]\n[Black \"Good, Gus\"]\n\n1. d4 *\n\n[Event \"Import Open 2026\"]\n[Round \"8.3\"]\n[White \"Broken, Bea\"]\n[Black \"Lost, Lou\"]\n\n1. e4 { the file was cut here\n";

/// `POST /v1/games/import` of `pgn` with `token`.
async fn import(api: &Api<'_>, token: &str, pgn: &str) -> Reply {
    api.with_token(token).import_games("", pgn).await
}

fn game_id(report: &Value, index: usize) -> Uuid {
    report["results"][index]["game_id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("game {index} has an id: {report}"))
}

#[actix_web::test]
async fn a_multi_game_pgn_with_unreadable_games_imports_the_others_and_names_each_by_index_and_reason()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let Reply {
        status,
        body: report,
        ..
    } = import(&api, &db.arbiter, MIXED).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["games"], 4);
    assert_eq!(report["imported"], 2);
    assert_eq!(report["unreadable"], 2);
    let results = report["results"].as_array().unwrap();
    let outcomes: Vec<&str> = results
        .iter()
        .map(|r| r["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(
        outcomes,
        ["imported", "unreadable", "unreadable", "imported"]
    );
    assert_eq!(results[1]["index"], 1);
    let bad_move = results[1]["error"].as_str().unwrap();
    assert!(
        bad_move.contains("2. Qxf7") && bad_move.contains("ply 3"),
        "{bad_move}"
    );
    let bad_fen = results[2]["error"].as_str().unwrap();
    assert!(bad_fen.contains("FEN"), "{bad_fen}");
    assert!(results[1]["game_id"].is_null());
    // Only the readable games exist, with their moves.
    let list = api.games("event=Import%20Open%202026").await.body;
    assert_eq!(list["items"].as_array().unwrap().len(), 2, "{list}");
    assert_eq!(results[0]["moves_stored"], 4);
    assert_eq!(results[3]["moves_stored"], 3);
}

#[actix_web::test]
async fn a_game_with_broken_pgn_syntax_is_unreadable_and_the_games_before_it_are_imported() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let Reply {
        status,
        body: report,
        ..
    } = import(&api, &db.arbiter, BROKEN_COMMENT).await;
    assert_eq!(status, 200, "{report}");
    let outcomes: Vec<&str> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, ["imported", "imported", "unreadable"], "{report}");
    assert!(
        report["results"][2]["error"]
            .as_str()
            .unwrap()
            .contains("unterminated comment"),
        "{report}"
    );
    assert_eq!(report["results"][2]["white"], "Broken, Bea");
}

#[actix_web::test]
async fn tags_become_the_games_settings() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let Reply {
        status: _,
        body: report,
        ..
    } = import(&api, &db.arbiter, MIXED).await;
    let Reply {
        status,
        body: first,
        ..
    } = api.game(game_id(&report, 0)).await;
    assert_eq!(status, 200, "{first}");
    let settings = &first["game"]["settings"];
    assert_eq!(settings["white"]["name"], "Alpha, Anna");
    assert_eq!(settings["white"]["fide_id"], 1503014);
    assert_eq!(settings["black"]["name"], "Beta, Boris");
    assert_eq!(settings["black"]["fide_id"], 24101605);
    assert_eq!(settings["event"], "Import Open 2026");
    assert_eq!(settings["site"], "Riga LAT");
    assert_eq!(settings["round"], "6");
    assert_eq!(settings["board"], 1);
    assert_eq!(
        settings["time_control"],
        serde_json::json!({"kind": "standard", "periods": [
            {"time_ms": 5_400_000, "moves": 40, "bonus": {"mode": "increment", "ms": 30_000}},
            {"time_ms": 1_800_000, "bonus": {"mode": "increment", "ms": 30_000}}
        ]}),
        "both periods of `40/5400+30:1800+30` are read"
    );
    assert!(settings["start_fen"].is_null());
    assert_eq!(
        first["state"]["moves"],
        serde_json::json!(["d4", "Nf6", "c4", "e6"])
    );

    let last = api.game(game_id(&report, 3)).await.body;
    let settings = &last["game"]["settings"];
    assert_eq!(settings["round"], "6");
    assert_eq!(settings["board"], 4, "a Board tag gives the board");
    assert_eq!(settings["start_fen"], "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(settings["time_control"]["kind"], "rapid");
    assert!(settings["site"].is_null(), "no Site tag: no site");
    assert_eq!(last["state"]["fen"], "8/3k4/8/4P3/8/8/8/4K3 b - - 0 2");
}

/// Games dated as broadcasts and databases date them: a whole day, a month only, a date that
/// is not a PGN date, and none.
const DATED: &str = r#"[Event "Dated Open"]
[Date "2019.07.14"]
[Round "1.1"]
[White "Old, Olga"]
[Black "Past, Paul"]
[Result "1-0"]

1. e4 e5 1-0

[Event "Dated Open"]
[Date "2019.07.??"]
[Round "1.2"]
[White "Month, Mia"]
[Black "Only, Otto"]
[Result "*"]

1. d4 *

[Event "Dated Open"]
[Date "14/07/2019"]
[Round "1.3"]
[White "Wrong, Wanda"]
[Black "Form, Fritz"]
[Result "*"]

1. c4 *
"#;

/// The `Date` and `Result` tags of a game's PGN.
async fn exported_tags(api: &Api<'_>, game: Uuid) -> (String, String) {
    let reply = api.pgn(game).await;
    assert_eq!(reply.status, 200);
    let pgn = reply.text;
    let tag = |name: &str| {
        pgn.lines()
            .find_map(|line| {
                line.strip_prefix(&format!("[{name} \""))
                    .and_then(|rest| rest.strip_suffix("\"]"))
            })
            .unwrap_or_else(|| panic!("no {name} tag in {pgn}"))
            .to_string()
    };
    (tag("Date"), tag("Result"))
}

#[actix_web::test]
async fn a_pgn_import_keeps_the_games_own_date_and_its_pgn_writes_it() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let Reply {
        status,
        body: report,
        ..
    } = import(&api, &db.arbiter, DATED).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["imported"], 3, "{report}");
    let today = chrono::Utc::now().format("%Y.%m.%d").to_string();
    for (index, kept, written) in [
        (0, Some("2019.07.14"), "2019.07.14"),
        (1, Some("2019.07.??"), "2019.07.??"),
        (2, None, today.as_str()),
    ] {
        let game = game_id(&report, index);
        let summary = api.game(game).await.body;
        assert_eq!(
            summary["game"]["settings"]["date"].as_str(),
            kept,
            "game {index}: {summary}"
        );
        let (date, _) = exported_tags(&api, game).await;
        // The day the game is created in the log only where the file's date is unusable.
        assert_eq!(date, written, "game {index}");
    }
    let notes = report["results"][2]["notes"].to_string();
    assert!(
        notes.contains("The Date tag `14/07/2019` is not a PGN date"),
        "{notes}"
    );
    assert!(
        !report["results"][0]["notes"].to_string().contains("Date"),
        "{report}"
    );
    // The round's PGN (as relays read it) writes the game's own day too.
    let reply = api.round_pgn("event=Dated%20Open&round=1").await;
    assert_eq!(reply.status, 200);
    let round = reply.text;
    assert!(round.contains("[Date \"2019.07.14\"]"), "{round}");
    assert!(round.contains("[Date \"2019.07.??\"]"), "{round}");
}

#[actix_web::test]
async fn a_result_without_a_termination_is_kept_as_reported_and_a_stated_termination_decides_how_it_is_recorded()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let Reply {
        status,
        body: report,
        ..
    } = import(&api, &db.arbiter, ENDINGS).await;
    assert_eq!(status, 200, "{report}");
    // 7.3 `Time forfeit`, 7.4 `Black resigns`, 7.5 no Termination: each game's log ends with
    // the fact the file states, and its PGN gives back the file's result.
    for (index, last_event, result) in [
        (2, "flag", "1-0"),
        (3, "resign", "1-0"),
        (4, "arbiter_decision", "0-1"),
    ] {
        let game = game_id(&report, index);
        let page = api.events(game).await.body;
        let types: Vec<&str> = page["items"]
            .as_array()
            .expect("items")
            .iter()
            .filter_map(|e| e["event"]["type"].as_str())
            .filter(|t| *t != "game_ended" && *t != "claim_ruled")
            .collect();
        assert_eq!(types.last(), Some(&last_event), "game {index}: {types:?}");
        let (_, written) = exported_tags(&api, game).await;
        assert_eq!(written, result, "game {index}");
    }
    let game = game_id(&report, 4);
    let page = api.events(game).await.body;
    let reason = page["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|e| e["event"]["type"] == "arbiter_decision")
        .map(|e| e["event"]["reason"].to_string())
        .expect("the reported result");
    assert!(
        reason.contains("the file states no Termination"),
        "{reason}"
    );
}

#[test]
fn time_controls_are_read_and_classified_by_the_fide_definitions() {
    let cases = [
        (
            Some("5400+30"),
            TimeControlKind::Standard,
            5_400_000,
            30_000,
        ),
        // 60 minutes is standard (rapid is less than 60, A.1).
        (Some("3600"), TimeControlKind::Standard, 3_600_000, 0),
        (Some("1500+10"), TimeControlKind::Rapid, 1_500_000, 10_000),
        // 10 minutes or less is blitz (B.1), the increment counted 60 times.
        (Some("600"), TimeControlKind::Blitz, 600_000, 0),
        (Some("300+5"), TimeControlKind::Blitz, 300_000, 5_000),
        (Some("300+6"), TimeControlKind::Rapid, 300_000, 6_000),
        (Some("60+0"), TimeControlKind::Blitz, 60_000, 0),
    ];
    for (tag, kind, base_ms, increment_ms) in cases {
        let (control, note) = time_control_from_tag(tag);
        assert_eq!(
            control.as_legacy(),
            Some((kind, base_ms, increment_ms)),
            "{tag:?}"
        );
        assert_eq!(note, None, "{tag:?}");
    }
    // Both periods of the FIDE control (PGN 9.6.1 as broadcasts write it).
    let (control, note) = time_control_from_tag(Some("40/5400+30:1800+30"));
    assert_eq!(
        control,
        arbiter::game::event::Preset::FideStandard.control()
    );
    assert_eq!(note, None);
    // Free text that means one control is read, with a note saying how.
    let (control, note) =
        time_control_from_tag(Some("90 min/40 moves + 30 min, 30 s per move from move 1"));
    assert_eq!(control.periods.len(), 2, "{note:?}");
    assert!(note.is_some_and(|n| n.contains("free text")));
    // Reported: a sandclock (no clock mode models it), the ambiguous shorthand, nonsense.
    for tag in [
        Some("*180"),
        Some("90+30"),
        None,
        Some("?"),
        Some("-"),
        Some("fast"),
        Some("0+0"),
        Some("90000"),
    ] {
        let (control, note) = time_control_from_tag(tag);
        assert_eq!(control.kind, TimeControlKind::Standard, "{tag:?}");
        assert_eq!(control.periods[0].time_ms, 5_400_000, "{tag:?}");
        assert!(note.is_some_and(|n| n.contains("standard play")), "{tag:?}");
    }
}

#[test]
fn a_round_r_dot_b_is_a_round_and_a_board() {
    assert_eq!(round_and_board("6.1"), ("6".to_string(), Some(1)));
    assert_eq!(round_and_board("1.1.3"), ("1.1".to_string(), Some(3)));
    assert_eq!(round_and_board("5"), ("5".to_string(), None));
    assert_eq!(round_and_board("-"), ("-".to_string(), None));
    assert_eq!(round_and_board("6.0"), ("6.0".to_string(), None));
    assert_eq!(round_and_board(".3"), (".3".to_string(), None));
}

#[actix_web::test]
async fn clock_readings_are_stored_with_each_move_as_the_movers_clock() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let Reply {
        status: _,
        body: report,
        ..
    } = import(&api, &db.arbiter, MIXED).await;
    let game = game_id(&report, 0);
    let page = api.events(game).await.body;
    let clocks: Vec<Value> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"]["type"] == "move")
        .map(|e| e["clock"].clone())
        .collect();
    assert_eq!(
        clocks,
        vec![
            serde_json::json!({"white_ms": 5_425_000, "black_ms": null}),
            serde_json::json!({"white_ms": null, "black_ms": 5_427_000}),
            serde_json::json!({"white_ms": 5_440_000, "black_ms": null}),
            serde_json::json!({"white_ms": null, "black_ms": 5_451_000}),
        ]
    );
    // And they come back out in the PGN.
    let pgn = api.pgn(game).await.text;
    assert!(
        pgn.contains("1. d4 {[%clk 1:30:25]} 1... Nf6 {[%clk 1:30:27]}"),
        "{pgn}"
    );
}

#[actix_web::test]
async fn a_record_past_its_legal_end_is_stored_up_to_the_end_with_the_ply_and_the_article() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let Reply {
        status,
        body: report,
        ..
    } = import(&api, &db.arbiter, ENDINGS).await;
    assert_eq!(status, 200, "{report}");
    let results = report["results"].as_array().unwrap();

    // Fivefold at ply 16 (the start position for the fifth time): 9. Nf3 Nf6 are void.
    let fivefold = &results[0];
    assert_eq!(fivefold["moves_in_record"], 18);
    assert_eq!(fivefold["moves_stored"], 16);
    assert_eq!(fivefold["status"], "ended");
    assert_eq!(fivefold["result"], "1/2-1/2");
    assert_eq!(
        fivefold["not_stored"],
        serde_json::json!({
            "from_ply": 17, "moves": 2, "first_move": "Nf3",
            "termination": "fivefold_repetition", "article": "9.6.1",
            "reason": fivefold["not_stored"]["reason"].clone()
        })
    );
    assert!(
        fivefold["not_stored"]["reason"]
            .as_str()
            .is_some_and(|r| !r.is_empty())
    );

    // Mate at ply 4: 3. a3 cannot even be played.
    let mate = &results[1];
    assert_eq!(mate["moves_stored"], 4);
    assert_eq!(mate["termination"], "checkmate");
    assert_eq!(mate["not_stored"]["from_ply"], 5);
    assert_eq!(mate["not_stored"]["first_move"], "a3");
    assert_eq!(mate["not_stored"]["article"], "5.1.1");
    assert!(
        mate["notes"].as_array().unwrap().iter().any(|n| n
            .as_str()
            .unwrap()
            .contains("3. a3 (ply 5) cannot be played")),
        "{mate}"
    );

    // A time forfeit named by the Termination tag is recorded as Black's flag fall (6.9).
    let flag = &results[2];
    assert_eq!(flag["status"], "ended");
    assert_eq!(flag["termination"], "flag");
    assert_eq!(flag["result"], "1-0");
    assert!(flag["not_stored"].is_null());

    // A resignation named by the Termination tag is recorded as one.
    let resigned = &results[3];
    assert_eq!(resigned["termination"], "resignation");
    assert_eq!(resigned["result"], "1-0");

    // A result the file states without saying how is kept as reported, not dropped: the
    // arbiter's decision with that result, saying it is the file's (issue 34 item 7).
    let unexplained = &results[4];
    assert_eq!(unexplained["status"], "ended", "{unexplained}");
    assert_eq!(unexplained["result"], "0-1");
    assert_eq!(unexplained["termination"], "arbiter");

    // What the engine stored: the game summary agrees.
    let summary = api.game(game_id(&report, 0)).await.body;
    assert_eq!(summary["game"]["termination"], "fivefold_repetition");
    assert_eq!(summary["state"]["ply"], 16);
}

#[actix_web::test]
async fn importing_the_same_file_twice_stores_nothing_new() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let Reply {
        status: _,
        body: first,
        ..
    } = import(&api, &db.arbiter, ENDINGS).await;
    assert_eq!(first["imported"], 5, "{first}");
    let events = db.event_count().await;
    let Reply {
        status,
        body: second,
        ..
    } = import(&api, &db.arbiter, ENDINGS).await;
    assert_eq!(status, 200);
    assert_eq!(db.event_count().await, events, "nothing new stored");
    assert_eq!(second["already_imported"], 5, "{second}");
    assert_eq!(second["events_stored"], 0);
    assert_eq!(second["moves_stored"], 0);
    for (one, two) in first["results"]
        .as_array()
        .unwrap()
        .iter()
        .zip(second["results"].as_array().unwrap())
    {
        assert_eq!(two["outcome"], "already_imported");
        assert_eq!(one["game_id"], two["game_id"]);
        assert_eq!(one["not_stored"], two["not_stored"]);
        assert_eq!(one["moves_stored"], two["moves_stored"]);
    }
}

#[actix_web::test]
async fn an_interrupted_import_is_continued_where_it_stopped() {
    let db = TestDb::new().await;
    let state = db.state();
    let api = api_with_state(&db, state.clone()).await;
    let games = read_games(ENDINGS.as_bytes()).unwrap();
    let ReadGame::Planned(plan) = &games[0] else {
        panic!("the first game is readable")
    };
    // An earlier import stored the game and its first three moves, then stopped.
    state
        .store
        .create_game(
            Some(plan.game_id),
            Some(plan.created_event_id),
            &plan.settings,
            "an earlier import",
        )
        .await
        .unwrap();
    let first: Vec<arbiter::store::NewEvent> = plan.events[..3]
        .iter()
        .map(|p| arbiter::store::NewEvent {
            event_id: p.event_id,
            event: arbiter::game::event::Event::Recorded(p.event.clone()),
            occurred_at: None,
            clock: p.clock.clone(),
        })
        .collect();
    state
        .arbitration
        .record(plan.game_id, 1, first, "an earlier import")
        .await
        .unwrap();
    let Reply {
        status: _,
        body: report,
        ..
    } = import(&api, &db.arbiter, ENDINGS).await;
    let continued = &report["results"][0];
    assert_eq!(continued["outcome"], "imported", "{continued}");
    assert_eq!(continued["moves_added"], 13);
    assert_eq!(continued["moves_stored"], 16);
    assert!(
        continued["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("stopped after 3 half-moves"))
    );
    let game = api.game(plan.game_id).await.body;
    assert_eq!(game["state"]["ply"], 16);
    assert_eq!(game["game"]["termination"], "fivefold_repetition");
}

#[actix_web::test]
async fn the_audit_of_every_imported_game_says_reproduced() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let Reply {
        status: _,
        body: report,
        ..
    } = import(&api, &db.arbiter, ENDINGS).await;
    for index in 0..5 {
        let Reply {
            status,
            body: audit,
            ..
        } = api
            .get(&format!("/v1/games/{}/audit", game_id(&report, index)))
            .await;
        assert_eq!(status, 200, "{audit}");
        assert_eq!(audit["verdict"], "reproduced", "game {index}: {audit}");
    }
    // The fivefold, the mate, the flag and the resignation each rest on a stored decision.
    let audit = api
        .get(&format!("/v1/games/{}/audit", game_id(&report, 0)))
        .await
        .body;
    assert_eq!(audit["decisions_checked"], 1, "{audit}");
}

#[actix_web::test]
async fn only_arbiters_import_and_a_token_for_other_events_imports_none_of_these() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let reply = import(&api, &db.reader, ENDINGS).await;
    assert_problem(&reply, 403, "forbidden");
    let (_, limited) = db
        .store
        .create_token(
            "arbiter of another open",
            arbiter::access::Role::Arbiter,
            Some(&["Another Open".to_string()][..]),
            "test",
        )
        .await
        .unwrap();
    let Reply {
        status,
        body: report,
        ..
    } = import(&api, &limited, ENDINGS).await;
    assert_eq!(status, 200);
    assert_eq!(report["failed"], 5, "{report}");
    assert!(
        report["results"][0]["error"]
            .as_str()
            .unwrap()
            .contains("limited to the events Another Open")
    );
    assert_eq!(db.event_count().await, 0);
    for not_pgn in [
        "no game here, only words",
        "[{\"\": null}]",
        "",
        "資²{ unterminated",
    ] {
        let reply = import(&api, &db.arbiter, not_pgn).await;
        assert_problem(&reply, 422, "no_games");
    }
    // The import route takes POST only (GET does not fall through to a game id).
    let response = api
        .call(
            actix_test::TestRequest::get()
                .uri("/v1/games/import")
                .insert_header(bearer(&db.arbiter)),
        )
        .await;
    assert_eq!(response.status(), 405);
    assert_eq!(
        response
            .headers()
            .get("allow")
            .and_then(|v| v.to_str().ok()),
        Some("POST")
    );
    let reply = api.get("/v1/games/import").await;
    assert_problem(&reply, 405, "method_not_allowed");
}

#[actix_web::test]
async fn the_command_line_imports_a_file_in_batches_and_a_second_run_stores_nothing_new() {
    let db = TestDb::new().await;
    let url = {
        let admin = crate::support::admin_url();
        let slash = admin.rfind('/').unwrap();
        format!("{}/{}", &admin[..slash], db.name)
    };
    let dir = std::env::temp_dir().join(format!("arbiter-import-{}", Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("endings.pgn");
    std::fs::write(&path, format!("{ENDINGS}\n{MIXED}")).unwrap();
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["import", "--batch-size", "3", "--database-url", &url])
            .arg(&path)
            .output()
            .expect("run arbiter import")
    };
    let first = run();
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(first.status.success(), "{stderr}");
    let lines: Vec<Value> = String::from_utf8(first.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 9);
    assert_eq!(lines[0]["not_stored"]["from_ply"], 17, "{}", lines[0]);
    assert_eq!(lines[6]["outcome"], "unreadable");
    assert!(
        stderr.contains("9 games: 7 imported, 0 already imported, 2 unreadable"),
        "{stderr}"
    );
    let events = db.event_count().await;
    let second = run();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(second.status.success(), "{stderr}");
    assert!(
        stderr.contains("0 imported, 7 already imported"),
        "{stderr}"
    );
    assert_eq!(db.event_count().await, events);
    std::fs::remove_dir_all(dir).ok();
}

/// A comment left open in the first game; the third game's comment would have closed it.
const OPEN_COMMENT: &str = "[Event \"Import Open 2026\"]\n[Round \"9.1\"]\n[White \"Open, Olga\"]\n[Black \"Brace, Bert\"]\n\n1. e4 { forgot to close e5 2. Nf3 *\n\n[Event \"Import Open 2026\"]\n[Round \"9.2\"]\n[White \"Swallowed, Sam\"]\n[Black \"Hidden, Hal\"]\n\n1. d4 d5 *\n\n[Event \"Import Open 2026\"]\n[Round \"9.3\"]\n[White \"Closer, Cleo\"]\n[Black \"Brace, Bo\"]\n\n1. c4 { a closed comment } e5 *\n";

#[actix_web::test]
async fn an_unterminated_comment_makes_its_game_unreadable_and_every_game_after_it_is_still_reported()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let Reply {
        status,
        body: report,
        ..
    } = import(&api, &db.arbiter, OPEN_COMMENT).await;
    assert_eq!(status, 200, "{report}");
    let results = report["results"].as_array().unwrap();
    let outcomes: Vec<&str> = results
        .iter()
        .map(|r| r["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, ["unreadable", "imported", "imported"], "{report}");
    let error = results[0]["error"].as_str().unwrap();
    assert!(
        error.contains("line 6") && error.contains("line 8"),
        "says where the comment opens and what it runs into: {error}"
    );
    assert_eq!(results[0]["white"], "Open, Olga");
    assert_eq!(results[1]["white"], "Swallowed, Sam");
    assert_eq!(results[1]["moves_stored"], 2);
    assert_eq!(results[2]["moves_stored"], 2);
}

/// A game on DGT clocks broadcast without readings, then one whose readings show the
/// increment credited before the move (1:30:55 after a five-second 1.e4 at 90 min + 30 s).
const DGT_ROUND: &str = "[Event \"Import Open 2026\"]\n[Round \"9.1\"]\n[White \"Plain, Pia\"]\n[Black \"Quiet, Quin\"]\n[TimeControl \"40/5400+30:1800+30\"]\n\n1. d4 d5 2. c4 e6 *\n\n[Event \"Import Open 2026\"]\n[Round \"9.2\"]\n[White \"Shown, Sam\"]\n[Black \"Read, Rui\"]\n[TimeControl \"40/5400+30:1800+30\"]\n\n1. e4 {[%clk 1:30:55]} e5 {[%clk 1:30:50]} *\n";

#[actix_web::test]
async fn the_clock_behaviour_given_with_the_import_is_taken_where_the_readings_do_not_show_one_and_the_readings_win_where_they_do()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let Reply {
        status,
        body: report,
        ..
    } = api
        .import_games("period_time_added=at_zero_both_clocks", DGT_ROUND)
        .await;
    assert_eq!(status, 200, "{report}");
    let settings_of = |index: usize| {
        let game = game_id(&report, index);
        let api = &api;
        async move {
            let detail = api.game(game).await.body;
            detail["game"]["settings"]["clock_behaviour"].clone()
        }
    };
    // No readings: the import's word, the other part left at its default.
    assert_eq!(
        settings_of(0).await,
        serde_json::json!({"period_time_added": "at_zero_both_clocks", "increment_credit": "after_press"})
    );
    let notes = report["results"][0]["notes"].to_string();
    assert!(notes.contains("given with the import"), "{notes}");
    // Readings that show the increment credited before the move: what they show.
    assert_eq!(
        settings_of(1).await,
        serde_json::json!({"period_time_added": "at_control_press", "increment_credit": "before_move"})
    );
    let notes = report["results"][1]["notes"].to_string();
    assert!(notes.contains("The clock readings show"), "{notes}");

    // A value that is none of the behaviours is refused, the parameter named.
    let reply = api
        .send(
            actix_test::TestRequest::post()
                .uri("/v1/games/import?period_time_added=at_midnight")
                .set_payload(DGT_ROUND),
        )
        .await;
    assert_eq!(reply.status, 400, "{}", reply.body);
    assert_eq!(reply.body["field"], "period_time_added", "{}", reply.body);
}

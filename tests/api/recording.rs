//! Recording whole games through the API: a real game move by move with clock presses, time
//! travel, the audit, and concurrent writers (also from two service instances).

use crate::client::{Api, Reply, api, api_with_state};
use crate::support::{TestDb, standard_game};
use arbiter::game::Game;
use arbiter::game::event::{Event, ServiceEvent};
use futures::future::join_all;
use serde_json::{Value, json};
use shakmaty::{Chess, EnPassantMode, Position, fen::Fen, san::San};
use uuid::Uuid;

/// A game of a PGN file: its SAN moves and the `[%clk]` after each, in milliseconds.
struct SourceGame {
    sans: Vec<String>,
    clocks: Vec<Option<u64>>,
    result: String,
}

/// Reads the movetext tokens of a PGN game: SAN moves, `[%clk]` comments, the result.
fn parse_movetext(movetext: &str) -> SourceGame {
    let mut sans = Vec::new();
    let mut clocks = Vec::new();
    let mut result = String::from("*");
    let mut rest = movetext;
    while let Some(c) = rest.chars().next() {
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
        } else if c == '{' {
            let end = rest.find('}').expect("a closed comment");
            let comment = &rest[1..end];
            if let Some(start) = comment.find("[%clk ") {
                let time = comment[start + 6..].split(']').next().unwrap().trim();
                let parts: Vec<u64> = time
                    .split(':')
                    .map(|p| p.parse::<f64>().unwrap() as u64)
                    .collect();
                let ms = (parts[0] * 3600 + parts[1] * 60 + parts[2]) * 1000;
                if let Some(last) = clocks.last_mut() {
                    *last = Some(ms);
                }
            }
            rest = &rest[end + 1..];
        } else {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            let token = &rest[..end];
            rest = &rest[end..];
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                result = token.to_string();
            } else if token.ends_with('.')
                || token.chars().next().is_some_and(|c| c.is_ascii_digit())
            {
                // a move number
            } else {
                sans.push(token.to_string());
                clocks.push(None);
            }
        }
    }
    SourceGame {
        sans,
        clocks,
        result,
    }
}

/// The first game of the lichess sample that ends in checkmate and has at least 40 plies.
fn mated_lichess_game() -> SourceGame {
    let path = crate::shared::shared("data/games/lichess-2025-05.pgn");
    let text = std::fs::read_to_string(path).expect("the lichess sample is readable");
    text.split("\n\n")
        .filter(|block| !block.trim_start().starts_with('['))
        .map(parse_movetext)
        .find(|game| game.sans.len() >= 40 && game.sans.last().is_some_and(|s| s.ends_with('#')))
        .expect("a mated game")
}

/// The SAN moves and `[%clk]` values of an exported PGN's movetext.
fn exported_moves(pgn: &str) -> SourceGame {
    let movetext: String = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    parse_movetext(&movetext)
}

#[actix_web::test]
async fn a_real_game_recorded_move_by_move_matches_its_source_after_every_move() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let source = mated_lichess_game();
    let mut settings = standard_game();
    settings["time_control"] = json!({"kind": "blitz", "base_ms": 300_000, "increment_ms": 3_000});
    let created = api.create_game(&settings).await.expect(201);
    let game: Uuid = created["game"]["game_id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();

    let mut board = Chess::default();
    let mut seq = 1;
    for (ply, san) in source.sans.iter().enumerate() {
        let by = if ply % 2 == 0 { "white" } else { "black" };
        let mut press = json!({"type": "clock_press", "by": by});
        if let Some(ms) = source.clocks[ply] {
            press[format!("{by}_ms")] = json!(ms);
        }
        let Reply { status, body, .. } = api
            .append_events(
                game,
                seq,
                json!([{"type": "move", "by": by, "san": san}, press]),
            )
            .await;
        assert_eq!(status, 201, "ply {}: {san}: {body}", ply + 1);
        seq = body["last_seq"].as_u64().unwrap();
        let m = san.parse::<San>().unwrap().to_move(&board).unwrap();
        board.play_unchecked(m);
        let expected_fen = Fen::from_position(&board, EnPassantMode::Legal).to_string();

        let detail = api.game(game).await.body;
        assert_eq!(
            detail["state"]["fen"],
            expected_fen,
            "the projection after ply {}",
            ply + 1
        );
        let reply = api.pgn(game).await;
        assert_eq!(reply.status, 200);
        let pgn = reply.text;
        let exported = exported_moves(&pgn);
        assert_eq!(
            exported.sans,
            source.sans[..=ply],
            "the PGN's moves after ply {}",
            ply + 1
        );
        assert_eq!(
            exported.clocks,
            source.clocks[..=ply],
            "the PGN's clocks after ply {}",
            ply + 1
        );
        for tag in [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "Termination",
        ] {
            assert!(
                pgn.contains(&format!("[{tag} \"")),
                "the PGN has {tag}: {pgn}"
            );
        }
    }
    // The source ends in mate: the game ended by itself (5.1.1) with the source's result,
    // and the ruling carries its evidence.
    let page = api.events(game).await.body;
    let ended = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"]["type"] == "game_ended")
        .expect("a game_ended decision");
    let final_fen = Fen::from_position(&board, EnPassantMode::Legal).to_string();
    assert_eq!(ended["event"]["evidence"]["fen"], final_fen);
    assert_eq!(ended["event"]["evidence"]["ply"], source.sans.len());
    assert_eq!(
        ended["event"]["evidence"]["move"],
        *source.sans.last().unwrap()
    );
    let detail = api.game(game).await.body;
    assert_eq!(detail["state"]["status"], "ended");
    assert_eq!(detail["state"]["termination"], "checkmate");
    assert_eq!(detail["state"]["result"], source.result);
    assert_eq!(detail["game"]["status"], "ended", "the listing knows too");
    let pgn = api.pgn(game).await.text;
    assert_eq!(exported_moves(&pgn).result, source.result);
}

/// Records a game with offers, an incorrect and then a correct repetition claim, a touch,
/// an illegal move and clock readings; returns its id.
async fn eventful_game(api: &Api<'_>) -> Uuid {
    let game = api.create_standard_game().await;
    let steps = vec![
        json!([{"type": "move", "by": "white", "san": "Nf3"}, {"type": "clock_press", "by": "white", "white_ms": 5_390_000}]),
        json!([{"type": "move", "by": "black", "san": "Nf6"}, {"type": "draw_offer", "by": "black"}]),
        json!([{"type": "draw_decline", "by": "white"}, {"type": "move", "by": "white", "san": "Ng1"}]),
        json!([{"type": "touch", "by": "black", "square": "f6"}, {"type": "move", "by": "black", "san": "Ng8"}]),
        json!([{"type": "claim", "by": "white", "kind": "repetition"}]),
        json!([{"type": "illegal_move", "by": "white", "description": "Ke2 with the bishop on f1 and the pawn on e2", "completed": true}]),
        json!([{"type": "move", "by": "white", "san": "Nf3"}, {"type": "move", "by": "black", "san": "Nf6"}]),
        json!([{"type": "move", "by": "white", "san": "Ng1"}]),
        json!([{"type": "claim", "by": "black", "kind": "repetition", "intended_move": "Ng8"}]),
    ];
    let mut seq = 1;
    for step in steps {
        let Reply { status, body, .. } = api.append_events(game, seq, step.clone()).await;
        assert_eq!(status, 201, "{step}: {body}");
        seq = body["last_seq"].as_u64().unwrap();
    }
    game
}

#[actix_web::test]
async fn time_travel_at_every_seq_equals_folding_that_prefix_from_scratch() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = eventful_game(&api).await;
    let page = api.events(game).await.body;
    let events: Vec<Event> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| serde_json::from_value(e["event"].clone()).unwrap())
        .collect();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Service(ServiceEvent::ClaimRuled(_))))
    );
    let Event::Service(ServiceEvent::GameCreated(settings)) = &events[0] else {
        panic!("seq 1 creates the game")
    };
    let mut folded = Game::new(settings).unwrap();
    for (index, event) in events.iter().enumerate() {
        let seq = index as u64 + 1;
        folded.apply(seq, event).unwrap();
        let Reply {
            status,
            body: detail,
            ..
        } = api.game_at(game, seq).await;
        assert_eq!(status, 200, "{detail}");
        assert_eq!(detail["as_of_seq"], seq);
        assert_eq!(
            detail["state"],
            serde_json::to_value(folded.view()).unwrap(),
            "the state at seq {seq}"
        );
        let positions = api.positions(game, &format!("at_seq={seq}")).await.body;
        assert_eq!(
            positions["positions"],
            serde_json::to_value(folded.positions()).unwrap(),
            "positions at seq {seq}"
        );
    }
    // The warm state (no at_seq) equals the whole fold, and beyond the log is a 404.
    let detail = api.game(game).await.body;
    assert_eq!(
        detail["state"],
        serde_json::to_value(folded.view()).unwrap()
    );
    let last = events.len();
    let reply = api.game_at(game, last as u64 + 1).await;
    crate::support::assert_problem(&reply, 404, "seq_beyond_log");
}

#[actix_web::test]
async fn the_audit_reproduces_every_decision_and_names_an_altered_one() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = eventful_game(&api).await;
    let Reply {
        status,
        body: audit,
        ..
    } = api.get(&format!("/v1/games/{game}/audit")).await;
    assert_eq!(status, 200, "{audit}");
    assert_eq!(audit["verdict"], "reproduced", "{audit}");
    assert!(audit["decisions_checked"].as_u64().unwrap() >= 3, "{audit}");
    assert!(
        audit["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["reproduced"] == true)
    );
    assert_eq!(audit["chain"]["intact"], true);

    // Someone with database access rewrites the first claim ruling behind the service's back.
    let altered: i64 = sqlx::query_scalar(
        "SELECT seq FROM events WHERE game_id = $1 AND event_type = 'claim_ruled' ORDER BY seq LIMIT 1",
    )
    .bind(game)
    .fetch_one(db.store.pool())
    .await
    .unwrap();
    let mut tx = db.store.pool().begin().await.unwrap();
    sqlx::query("ALTER TABLE events DISABLE TRIGGER events_refuse_update_delete")
        .execute(&mut *tx)
        .await
        .unwrap();
    sqlx::query("UPDATE events SET payload = jsonb_set(payload, '{outcome}', '\"upheld\"') WHERE game_id = $1 AND seq = $2")
        .bind(game)
        .bind(altered)
        .execute(&mut *tx)
        .await
        .unwrap();
    sqlx::query("ALTER TABLE events ENABLE ALWAYS TRIGGER events_refuse_update_delete")
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    // A fresh service instance (nothing warm) audits the altered log.
    let state = arbiter::state::AppState::new(db.service.clone());
    let api = api_with_state(&db, state).await;
    let audit = api.get(&format!("/v1/games/{game}/audit")).await.body;
    assert_eq!(audit["verdict"], "tampered", "{audit}");
    assert!(
        audit["summary"]
            .as_str()
            .unwrap()
            .contains("does not verify"),
        "{audit}"
    );
    assert_eq!(audit["chain"]["first_break"]["seq"], altered, "{audit}");
    assert_eq!(
        audit["first_divergence"], altered,
        "the altered decision is named: {audit}"
    );
    let divergent = audit["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["reproduced"] == false)
        .unwrap();
    assert!(
        divergent["stored_seqs"]
            .as_array()
            .unwrap()
            .contains(&json!(altered))
    );
    assert_eq!(
        divergent["stored"][0]["outcome"], "upheld",
        "the stored version is shown"
    );
    assert_eq!(
        divergent["recomputed"][0]["outcome"], "rejected",
        "the engine's version is shown"
    );
}

/// Checks that every decision in the log sits right after its cause or after another
/// decision of the same append.
fn assert_no_decision_is_separated_from_its_cause(items: &[Value]) {
    for (index, item) in items.iter().enumerate() {
        let event = &item["event"];
        let cause = event.get("cause_seq").or_else(|| event.get("claim_seq"));
        if let Some(cause) = cause.and_then(Value::as_u64) {
            let cause_index = (cause - 1) as usize;
            assert!(cause_index < index);
            for between in &items[cause_index + 1..index] {
                assert_eq!(
                    between["batch_id"], items[cause_index]["batch_id"],
                    "decision {} is separated from its cause {cause}",
                    item["seq"]
                );
                assert!(
                    between["event"].get("ruled_by").is_some(),
                    "only decisions between {cause} and {}",
                    item["seq"]
                );
            }
            assert_eq!(item["batch_id"], items[cause_index]["batch_id"]);
        }
    }
}

#[actix_web::test]
async fn two_clients_with_stale_expected_seqs_never_interleave_a_decision_between_an_event_and_its_cause()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let client = |name: &'static str| {
        let api = &api;
        async move {
            let mut stored = 0;
            let mut expected = 1;
            let mut conflicts = 0;
            while stored < 6 {
                // An incorrect claim: a ruling and a penalty follow it in the same append.
                let events = json!([{"type": "claim", "by": "white", "kind": "fifty_moves", "event_id": Uuid::new_v4()},
                                    {"type": "clock_adjust", "side": "white", "delta_ms": 0, "reason": name}]);
                let Reply { status, body, .. } = api.append_events(game, expected, events).await;
                match status {
                    201 => {
                        stored += 1;
                        expected = body["last_seq"].as_u64().unwrap();
                    }
                    409 => {
                        conflicts += 1;
                        expected = body["current_seq"].as_u64().unwrap();
                    }
                    other => panic!("{other}: {body}"),
                }
            }
            conflicts
        }
    };
    let conflicts: u32 = join_all([client("A"), client("B")]).await.into_iter().sum();
    let page = api.events(game).await.body;
    let items = page["items"].as_array().unwrap();
    assert_eq!(
        items.len(),
        1 + 12 * 4,
        "12 appends of a claim, its ruling, its penalty and an adjustment"
    );
    assert_no_decision_is_separated_from_its_cause(items);
    assert!(
        conflicts > 0 || items.len() == 49,
        "the writers raced ({conflicts} conflicts)"
    );
}

#[actix_web::test]
async fn two_service_instances_writing_to_one_game_stay_correct() {
    let db = TestDb::new().await;
    let first = api(&db).await;
    let second = api_with_state(&db, arbiter::state::AppState::new(db.service.clone())).await;
    let game = first.create_standard_game().await;
    let moves = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"];
    let mut seq = 1;
    for (ply, san) in moves.iter().enumerate() {
        let by = if ply % 2 == 0 { "white" } else { "black" };
        // A stale write through the instance that did not write last is refused, not folded.
        if ply > 0 {
            let stale = if ply % 2 == 0 {
                first
                    .append_events(game, seq - 1, json!([{"type": "resign", "by": by}]))
                    .await
            } else {
                second
                    .append_events(game, seq - 1, json!([{"type": "resign", "by": by}]))
                    .await
            };
            assert_eq!(stale.status, 409, "{}", stale.body);
        }
        let events = json!([{"type": "move", "by": by, "san": san}]);
        let Reply { status, body, .. } = if ply % 2 == 0 {
            first.append_events(game, seq, events).await
        } else {
            second.append_events(game, seq, events).await
        };
        assert_eq!(status, 201, "{san}: {body}");
        seq = body["last_seq"].as_u64().unwrap();
    }
    let a = first.game(game).await.body;
    let b = second.game(game).await.body;
    assert_eq!(a["state"], b["state"]);
    assert_eq!(
        a["state"]["fen"],
        "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5"
    );
}

#[actix_web::test]
async fn rulings_across_games_are_filtered_by_event_round_kind_article_and_outcome() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let first = eventful_game(&api).await;
    let mut other = standard_game();
    other["event"] = json!("Other Cup");
    other["round"] = json!("2");
    let created = api.create_game(&other).await.body;
    let second: Uuid = created["game"]["game_id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let Reply { status, body, .. } = api
        .append_events(second, 1, json!([{"type": "resign", "by": "white"}]))
        .await;
    assert_eq!(status, 201, "{body}");

    let get = |query: &'static str| {
        let api = &api;
        async move {
            let Reply { status, body, .. } = api.rulings(query).await;
            assert_eq!(status, 200, "{query}: {body}");
            body["items"].as_array().unwrap().clone()
        }
    };
    let all = get("").await;
    assert!(all.len() >= 4, "{all:?}");
    let rejected = get("kind=claim_ruled&outcome=rejected").await;
    assert_eq!(rejected.len(), 1);
    assert_eq!(rejected[0]["decision"]["game_id"], first.to_string());
    assert_eq!(rejected[0]["event"], "Test Open 2026");
    let upheld = get("kind=claim_ruled&outcome=upheld&article=9.2.1").await;
    assert_eq!(
        upheld.len(),
        1,
        "the intended-move claim was upheld under 9.2.1"
    );
    let cup = get("event=Other%20Cup&round=2").await;
    assert_eq!(cup.len(), 1);
    assert_eq!(cup[0]["decision"]["event"]["termination"], "resignation");
    assert_eq!(cup[0]["decision"]["event"]["article"], "5.1.2");
    let wins = get("outcome=0-1").await;
    assert_eq!(wins.len(), 1);
    let page = get("limit=1").await;
    assert_eq!(page.len(), 1);
    let reply = api.rulings("kind=verdict").await;
    crate::support::assert_problem(&reply, 400, "invalid_query");
}

#[actix_web::test]
async fn an_upheld_appeal_changes_the_result_and_the_history_shows_both() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let Reply { status, body, .. } = api
        .append_events(game, 1, json!([{"type": "flag", "side": "white"}]))
        .await;
    assert_eq!(status, 201, "{body}");
    let ended_seq = body["events"][1]["seq"].as_u64().unwrap();
    assert_eq!(body["events"][1]["event"]["result"], "0-1");
    let seq = body["last_seq"].as_u64().unwrap();
    // Appeals are recorded with an appeals token.
    let appeals = api.with_token(&db.appeals);
    let Reply { status, body, .. } = appeals.append_events(game, seq, json!([{"type": "appeal_lodged", "by": "white", "against_seq": ended_seq, "grounds": "the clock was faulty"}])).await;
    assert_eq!(status, 201, "{body}");
    let seq = body["last_seq"].as_u64().unwrap();
    let Reply { status, body, .. } = appeals.append_events(game, seq, json!([{"type": "appeal_decided", "against_seq": ended_seq, "upheld": true, "result": "1/2-1/2", "reason": "the clock was faulty; the game is drawn"}])).await;
    assert_eq!(status, 201, "{body}");
    let detail = api.game(game).await.body;
    assert_eq!(detail["state"]["result"], "1/2-1/2", "{detail}");
    assert_eq!(detail["state"]["termination"], "appeal");
    assert_eq!(
        detail["game"]["result"], "1/2-1/2",
        "the listing follows the appeal"
    );
    let page = api.events(game).await.body;
    let results: Vec<&Value> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"]["type"] == "game_ended")
        .map(|e| &e["event"]["result"])
        .collect();
    assert_eq!(
        results,
        vec![&json!("0-1"), &json!("1/2-1/2")],
        "the history shows both"
    );
    let audit = api.get(&format!("/v1/games/{game}/audit")).await.body;
    assert_eq!(audit["verdict"], "reproduced", "{audit}");
}

#[actix_web::test]
async fn a_decided_appeal_is_final_and_a_second_decision_is_refused_saying_how_a_decision_is_corrected()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let Reply { status, body, .. } = api
        .append_events(game, 1, json!([{"type": "flag", "side": "white"}]))
        .await;
    assert_eq!(status, 201, "{body}");
    let ended_seq = body["events"][1]["seq"].as_u64().unwrap();
    let seq = body["last_seq"].as_u64().unwrap();
    let record = |token: &str| api.with_token(token);
    let Reply { status, body, .. } = record(&db.appeals).append_events(game, seq, json!([{"type": "appeal_lodged", "by": "white", "against_seq": ended_seq, "grounds": "the clock was faulty"}])).await;
    assert_eq!(status, 201, "{body}");
    let seq = body["last_seq"].as_u64().unwrap();
    let Reply { status, body, .. } = record(&db.appeals).append_events(game, seq, json!([{"type": "appeal_decided", "against_seq": ended_seq, "upheld": true, "result": "1/2-1/2", "reason": "the clock was faulty"}])).await;
    assert_eq!(status, 201, "{body}");
    let decided_seq = body["events"][0]["seq"].as_u64().unwrap();
    let seq = body["last_seq"].as_u64().unwrap();

    let second = record(&db.appeals).append_events(game, seq, json!([{"type": "appeal_decided", "against_seq": ended_seq, "upheld": false, "reason": "on second thoughts"}])).await;
    crate::support::assert_problem(&second, 422, "appeal_already_decided");
    let detail = second.body["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("final"), "{detail}");
    assert!(
        detail.contains(&format!("correction (retracts_seq {decided_seq})")),
        "says how a decision recorded wrongly is corrected: {detail}"
    );
    let state = api.game(game).await.body;
    assert_eq!(
        state["state"]["result"], "1/2-1/2",
        "the first decision stands"
    );

    // A decision recorded wrongly is retracted, then recorded as made.
    let Reply { status, body, .. } = record(&db.arbiter).append_events(game, seq, json!([{"type": "correction", "retracts_seq": decided_seq, "reason": "the committee rejected the appeal; typed the wrong outcome"}])).await;
    assert_eq!(status, 201, "{body}");
    let seq = body["last_seq"].as_u64().unwrap();
    let Reply { status, body, .. } = record(&db.appeals).append_events(game, seq, json!([{"type": "appeal_decided", "against_seq": ended_seq, "upheld": false, "reason": "the clock worked"}])).await;
    assert_eq!(status, 201, "{body}");
    let state = api.game(game).await.body;
    assert_eq!(state["state"]["result"], "0-1", "{state}");
}

#[actix_web::test]
async fn a_correction_retracts_the_latest_event_and_its_decisions() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let Reply { status, body, .. } = api
        .append_events(
            game,
            1,
            json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "resign", "by": "black"}]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let resign_seq = body["events"][1]["seq"].as_u64().unwrap();
    let seq = body["last_seq"].as_u64().unwrap();
    let Reply { status, body, .. } = api.append_events(game, seq, json!([{"type": "correction", "retracts_seq": resign_seq, "reason": "typed on the wrong board"}])).await;
    assert_eq!(status, 201, "{body}");
    let seq = body["last_seq"].as_u64().unwrap();
    let detail = api.game(game).await.body;
    assert_eq!(detail["state"]["status"], "in_progress", "{detail}");
    assert_eq!(
        detail["game"]["status"], "in_progress",
        "the listing follows the correction"
    );
    assert!(detail["game"]["result"].is_null());
    let Reply { status, body, .. } = api
        .append_events(
            game,
            seq,
            json!([{"type": "move", "by": "black", "san": "e5"}]),
        )
        .await;
    assert_eq!(status, 201, "play goes on: {body}");
}

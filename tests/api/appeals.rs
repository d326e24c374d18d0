//! Appeals that send the players back to the board (issue 37, item 1): a committee upholds an
//! appeal against a ruling that ended the game (a flag fall, a repetition claim, a second
//! illegal move, a device found), annuls it with `resume` and the clock times it sets, play
//! resumes and is recorded like any other, and the audit re-runs the game across the reversal.

use actix_web::test;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::client::{Api, api};
use crate::support::{TestDb, assert_problem};

/// Records `events` as the arbiter; asserts 201 and returns the last `seq`.
async fn record(api: &Api<'_>, game: Uuid, seq: u64, events: Value) -> (u64, Value) {
    let reply = api.append_events(game, seq, events.clone()).await;
    assert_eq!(reply.status, 201, "{events} answered {}", reply.body);
    let body = reply.body;
    (body["last_seq"].as_u64().expect("last_seq"), body)
}

/// The `seq` of the first decision of `kind` in an append's answer.
fn seq_of(body: &Value, kind: &str) -> u64 {
    body["events"]
        .as_array()
        .and_then(|events| {
            events
                .iter()
                .find(|e| e["event"]["type"] == kind)
                .and_then(|e| e["seq"].as_u64())
        })
        .unwrap_or_else(|| panic!("a {kind} in {body}"))
}

async fn state(api: &Api<'_>, game: Uuid) -> Value {
    let body = api.game(game).await.expect(200);
    body["state"].clone()
}

async fn audit(api: &Api<'_>, game: Uuid) -> Value {
    api.audit(game).await.expect(200)
}

fn moves(sans: &[(&str, &str)]) -> Value {
    Value::Array(
        sans.iter()
            .map(|(by, san)| json!({"type": "move", "by": by, "san": san}))
            .collect(),
    )
}

/// The appeal against `against` lodged and upheld with `resume` by the appeals committee
/// (`committee`, the client with its token): returns the last `seq` and the decision's answer.
async fn appeal_resumes(
    committee: &Api<'_>,
    game: Uuid,
    seq: u64,
    against: u64,
    white_ms: u64,
    black_ms: u64,
) -> (u64, Value) {
    committee
        .append_events(
            game,
            seq,
            json!([{"type": "appeal_lodged", "by": "white", "against_seq": against,
                "grounds": "the ruling was wrong"}]),
        )
        .await
        .expect(201);
    let decided = committee
        .append_events(
            game,
            seq + 1,
            json!([{"type": "appeal_decided", "against_seq": against, "upheld": true,
                "resume": {"white_ms": white_ms, "black_ms": black_ms},
                "reason": "the committee found the ruling wrong; play resumes"}]),
        )
        .await
        .expect(201);
    (decided["last_seq"].as_u64().expect("last_seq"), decided)
}

/// What every reversal must give: the game in progress, the committee's times on the clocks,
/// the decision citing the right of appeal, play going on, and an audit that reproduces.
async fn assert_resumed(
    api: &Api<'_>,
    game: Uuid,
    decided: &Value,
    annulled: &[u64],
    (white_ms, black_ms): (u64, u64),
) -> Value {
    let resumed = &decided["events"][1]["event"];
    assert_eq!(resumed["type"], "game_resumed", "{decided}");
    assert_eq!(resumed["annulled"], json!(annulled), "{resumed}");
    assert_eq!(resumed["article"], "11.10", "{resumed}");
    let state = state(api, game).await;
    assert_eq!(state["status"], "in_progress", "{state}");
    assert_eq!(state["result"], Value::Null, "{state}");
    assert_eq!(state["clocks"]["white_ms"], white_ms, "{state}");
    assert_eq!(state["clocks"]["black_ms"], black_ms, "{state}");
    state
}

#[actix_web::test]
async fn an_upheld_appeal_against_a_flag_fall_resumes_the_game_with_the_committees_times() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let (seq, _) = record(&api, game, 1, moves(&[("white", "e4"), ("black", "e5")])).await;
    let before = state(&api, game).await;
    let (seq, flagged) = record(&api, game, seq, json!([{"type": "flag", "side": "white"}])).await;
    let flag_seq = seq_of(&flagged, "flag");
    let ended = seq_of(&flagged, "game_ended");
    assert_eq!(state(&api, game).await["result"], "0-1");
    let (seq, decided) = appeal_resumes(
        &api.with_token(&db.appeals),
        game,
        seq,
        ended,
        1_200_000,
        900_000,
    )
    .await;
    let after = assert_resumed(
        &api,
        game,
        &decided,
        &[flag_seq, ended],
        (1_200_000, 900_000),
    )
    .await;
    assert_eq!(after["fen"], before["fen"]);
    assert_eq!(after["ply"], 2);
    // Play goes on, recorded like any other move, and the game can end again.
    let (seq, _) = record(&api, game, seq, moves(&[("white", "Nf3")])).await;
    assert_eq!(state(&api, game).await["ply"], 3);
    let (_, resigned) = record(&api, game, seq, json!([{"type": "resign", "by": "black"}])).await;
    seq_of(&resigned, "game_ended");
    let audit = audit(&api, game).await;
    assert_eq!(audit["verdict"], "reproduced", "{audit}");
    assert!(
        audit["decisions"].as_array().is_some_and(|d| d
            .iter()
            .any(|d| d["cause_type"] == "appeal_decided" && d["reproduced"] == true)),
        "the committee's decision is re-run: {audit}"
    );
    // The PGN gives the moves played after the reversal and the new result.
    assert_eq!(api.pgn(game).await.status, 200);
}

#[actix_web::test]
async fn an_upheld_appeal_against_an_upheld_repetition_claim_puts_the_claimant_back_to_move() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let (seq, _) = record(
        &api,
        game,
        1,
        moves(&[
            ("white", "Nf3"),
            ("black", "Nf6"),
            ("white", "Ng1"),
            ("black", "Ng8"),
            ("white", "Nf3"),
            ("black", "Nf6"),
            ("white", "Ng1"),
        ]),
    )
    .await;
    let before = state(&api, game).await;
    let (seq, claimed) = record(
        &api,
        game,
        seq,
        json!([{"type": "claim", "by": "black", "kind": "repetition", "intended_move": "Ng8"}]),
    )
    .await;
    let claim_seq = seq_of(&claimed, "claim");
    let ruled = seq_of(&claimed, "claim_ruled");
    let ended = seq_of(&claimed, "game_ended");
    assert_eq!(
        claimed["events"][1]["event"]["outcome"], "upheld",
        "{claimed}"
    );
    // The appeal names the claim's ruling; its end goes with it.
    let (seq, decided) = appeal_resumes(
        &api.with_token(&db.appeals),
        game,
        seq,
        ruled,
        5_000_000,
        4_900_000,
    )
    .await;
    let after = assert_resumed(
        &api,
        game,
        &decided,
        &[claim_seq, ruled, ended],
        (5_000_000, 4_900_000),
    )
    .await;
    assert_eq!(after["fen"], before["fen"]);
    assert_eq!(after["side_to_move"], "black");
    assert_eq!(after["repetition_count"], before["repetition_count"]);
    record(&api, game, seq, moves(&[("black", "Nc6")])).await;
    let audit = audit(&api, game).await;
    assert_eq!(audit["verdict"], "reproduced", "{audit}");
}

#[actix_web::test]
async fn an_upheld_appeal_against_a_loss_for_a_second_illegal_move_restores_the_first_penalty_only()
{
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let (seq, _) = record(&api, game, 1, moves(&[("white", "e4"), ("black", "e5")])).await;
    let illegal = json!([{"type": "illegal_move", "by": "white", "description": "Ke2-e4 onto its own pawn", "completed": true}]);
    let (seq, first) = record(&api, game, seq, illegal.clone()).await;
    seq_of(&first, "penalty_applied");
    let (seq, second) = record(&api, game, seq, illegal).await;
    let second_seq = seq_of(&second, "illegal_move");
    let ended = seq_of(&second, "game_ended");
    assert_eq!(state(&api, game).await["result"], "0-1");
    let (seq, decided) = appeal_resumes(
        &api.with_token(&db.appeals),
        game,
        seq,
        ended,
        5_100_000,
        5_300_000,
    )
    .await;
    let after = assert_resumed(
        &api,
        game,
        &decided,
        &[second_seq, ended],
        (5_100_000, 5_300_000),
    )
    .await;
    // The first illegal move still counts; the second does not.
    assert_eq!(after["illegal_moves"]["white"], 1, "{after}");
    assert_eq!(after["side_to_move"], "white");
    record(&api, game, seq, moves(&[("white", "Nf3")])).await;
    let audit = audit(&api, game).await;
    assert_eq!(audit["verdict"], "reproduced", "{audit}");
}

#[actix_web::test]
async fn a_correction_of_the_committees_decision_restores_the_ruling_it_annulled() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let (seq, flagged) = record(
        &api,
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "flag", "side": "black"}]),
    )
    .await;
    let ended = seq_of(&flagged, "game_ended");
    let (seq, _) = appeal_resumes(
        &api.with_token(&db.appeals),
        game,
        seq,
        ended,
        60_000,
        60_000,
    )
    .await;
    assert_eq!(state(&api, game).await["status"], "in_progress");
    // The decision was keyed in wrongly: retracted, the flag's ruling stands again.
    let decided_seq = seq - 1;
    record(&api, game,
        seq,
        json!([{"type": "correction", "retracts_seq": decided_seq, "reason": "keyed in on the wrong game"}]),
    )
    .await;
    let state = state(&api, game).await;
    assert_eq!(state["status"], "ended", "{state}");
    assert_eq!(state["result"], "1-0", "{state}");
}

#[actix_web::test]
async fn a_committee_cannot_resume_play_on_a_dismissed_appeal_or_with_a_result_too() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let (seq, flagged) = record(
        &api,
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "flag", "side": "black"}]),
    )
    .await;
    let ended = seq_of(&flagged, "game_ended");
    api.with_token(&db.appeals)
        .append_events(
            game,
            seq,
            json!([{"type": "appeal_lodged", "by": "black", "against_seq": ended, "grounds": "g"}]),
        )
        .await
        .expect(201);
    for decision in [
        json!({"type": "appeal_decided", "against_seq": ended, "upheld": false,
               "resume": {"white_ms": 1000, "black_ms": 1000}, "reason": "r"}),
        json!({"type": "appeal_decided", "against_seq": ended, "upheld": true, "result": "1/2-1/2",
               "resume": {"white_ms": 1000, "black_ms": 1000}, "reason": "r"}),
    ] {
        let reply = api
            .with_token(&db.appeals)
            .append_events(game, seq + 1, json!([decision]))
            .await;
        assert_problem(&reply, 422, "appeal_cannot_resume");
    }
    // An appeal against a move is no ruling to annul.
    api.with_token(&db.appeals)
        .append_events(
            game,
            seq + 1,
            json!([{"type": "appeal_lodged", "by": "black", "against_seq": 2, "grounds": "g"}]),
        )
        .await
        .expect(201);
    let reply = api
        .with_token(&db.appeals)
        .append_events(
            game,
            seq + 2,
            json!([
                {"type": "appeal_decided", "against_seq": 2, "upheld": true,
                 "resume": {"white_ms": 1000, "black_ms": 1000}, "reason": "r"}]),
        )
        .await;
    assert_problem(&reply, 422, "appeal_cannot_resume");
}

#[actix_web::test]
async fn the_committee_sends_the_players_back_to_the_board_from_the_decisions_review_page() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let (seq, flagged) = record(
        &api,
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "flag", "side": "black"}]),
    )
    .await;
    let ended = seq_of(&flagged, "game_ended");
    api.with_token(&db.appeals)
        .append_events(
            game,
            seq,
            json!([{"type": "appeal_lodged", "by": "black", "against_seq": ended,
                "grounds": "my flag had not fallen"}]),
        )
        .await
        .expect(201);
    let cookie = crate::office::signed_in(&api, &db.appeals).await;
    let review = format!("/office/games/{game}/decisions/{ended}");
    let page = crate::office::page_text(&api, &review, &cookie).await;
    assert!(page.contains("annulled: play resumes"), "{page}");
    let at = page.find("name=\"csrf\" value=\"").expect("a form's token") + 19;
    let csrf = page[at..at + page[at..].find('"').expect("end")].to_string();
    let expected = (seq + 1).to_string();
    let against = ended.to_string();
    let event_id = Uuid::new_v4().to_string();
    let response = api
        .call(
            test::TestRequest::post()
                .uri(&format!("/office/games/{game}/record"))
                .insert_header(("Cookie", cookie.clone()))
                .insert_header(("Origin", "http://localhost:8080"))
                .set_form([
                    ("csrf", csrf.as_str()),
                    ("expected_seq", expected.as_str()),
                    ("event_id", event_id.as_str()),
                    ("type", "appeal_decided"),
                    ("against_seq", against.as_str()),
                    ("return_to", review.as_str()),
                    ("upheld", "yes"),
                    ("result", "resume"),
                    ("resume_white", "1:25:00"),
                    ("resume_black", "1:02:30"),
                    (
                        "reason",
                        "the clock showed time left; the arbiter misread it",
                    ),
                ]),
        )
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let state = state(&api, game).await;
    assert_eq!(state["status"], "in_progress", "{state}");
    assert_eq!(state["clocks"]["white_ms"], 5_100_000, "{state}");
    assert_eq!(state["clocks"]["black_ms"], 3_750_000, "{state}");
    assert_eq!(state["side_to_move"], "black");
}

/// A game whose regulations set the appeals procedure: an hour from the end of the game, a
/// deposit, a committee of three and a reserve, and the chief arbiter's federation.
async fn game_with_procedure(api: &Api<'_>) -> Uuid {
    let mut settings = crate::support::standard_game();
    settings["regulations"] = json!({"appeals": {
    "regulation": "ECU Tournament Rules",
    "deadline_minutes": 60,
    "deposit": "100 EUR",
    "chief_arbiter_federation": "FRA",
    "committee": [
        {"name": "Anna Chair", "federation": "NED", "role": "chairman"},
        {"name": "Ben Member", "federation": "GER"},
        {"name": "Carl Member", "federation": "GER", "banned": true},
        {"name": "Dora Reserve", "federation": "FRA", "role": "reserve"}
    ]}});
    let created = api.create_game(&settings).await.expect(201);
    created["game"]["game_id"]
        .as_str()
        .and_then(|id| id.parse().ok())
        .expect("a game id")
}

#[actix_web::test]
async fn an_appeal_lodged_after_the_regulations_deadline_is_refused_with_the_time() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = game_with_procedure(&api).await;
    let (seq, flagged) = record(
        &api,
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "flag", "side": "black"}]),
    )
    .await;
    let ended = seq_of(&flagged, "game_ended");
    let before = db.event_count().await;
    // Handed in 75 minutes after the end: late.
    let late = (chrono::Utc::now() + chrono::Duration::minutes(75)).to_rfc3339();
    let reply = api
        .with_token(&db.appeals)
        .append_events(
            game,
            seq,
            json!([
                {"type": "appeal_lodged", "by": "black", "against_seq": ended,
                 "grounds": "my flag had not fallen", "occurred_at": late}]),
        )
        .await;
    assert_problem(&reply, 422, "appeal_too_late");
    let detail = reply.body["detail"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        detail.contains("60 minutes") && detail.contains("ECU Tournament Rules"),
        "{detail}"
    );
    assert!(detail.contains("after the deadline of"), "{detail}");
    assert_eq!(db.event_count().await, before, "nothing stored");
    // In time, it is lodged.
    api.with_token(&db.appeals)
        .append_events(
            game,
            seq,
            json!([{"type": "appeal_lodged", "by": "black", "against_seq": ended,
                "grounds": "my flag had not fallen"}]),
        )
        .await
        .expect(201);
}

#[actix_web::test]
async fn the_committees_members_are_recorded_per_decision_and_an_ineligible_committee_is_refused_in_words()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = game_with_procedure(&api).await;
    let (seq, flagged) = record(
        &api,
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "flag", "side": "black"}]),
    )
    .await;
    let ended = seq_of(&flagged, "game_ended");
    api.with_token(&db.appeals)
        .append_events(
            game,
            seq,
            json!([{"type": "appeal_lodged", "by": "black", "against_seq": ended, "grounds": "g"}]),
        )
        .await
        .expect(201);
    let decision = |committee: Value| {
        json!([
            {"type": "appeal_decided", "against_seq": ended, "upheld": true,
             "resume": {"white_ms": 4_000_000, "black_ms": 3_000_000},
             "committee": committee, "reason": "the flag had not fallen"}])
    };
    let committee = api.with_token(&db.appeals);
    let reply = committee
        .append_events(game, seq + 1, decision(json!([])))
        .await;
    assert_problem(&reply, 422, "committee_ineligible");
    let reply = committee
        .append_events(
            game,
            seq + 1,
            decision(json!([{"name": "Anna Chair", "by_video": true},
                            {"name": "Carl Member"}, {"name": "Dora Reserve"}])),
        )
        .await;
    assert_problem(&reply, 422, "committee_ineligible");
    let detail = reply.body["detail"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    for words in [
        "Anna Chair is the chairman and must be present",
        "Carl Member is serving a ban",
        "Dora Reserve is of the chief arbiter's federation (FRA)",
    ] {
        assert!(detail.contains(words), "{words}: {detail}");
    }
    let body = committee
        .append_events(
            game,
            seq + 1,
            decision(json!([{"name": "Anna Chair"}, {"name": "Ben Member", "by_video": true}])),
        )
        .await
        .expect(201);
    assert_eq!(
        body["events"][0]["event"]["committee"][1]["by_video"], true,
        "who sat is kept: {body}"
    );
    let reason = body["events"][1]["event"]["reason"]
        .as_str()
        .unwrap_or_default();
    assert!(
        reason.contains("ECU Tournament Rules")
            && reason.contains("the deposit of 100 EUR is returned")
            && reason.contains("Anna Chair (chairman), Ben Member (by video)"),
        "{reason}"
    );
    assert_eq!(body["events"][1]["event"]["article"], "11.10");
}

#[actix_web::test]
async fn a_dismissed_appeal_under_the_regulations_procedure_cites_the_article_the_regulation_and_the_deposit_kept()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = game_with_procedure(&api).await;
    let (seq, flagged) = record(
        &api,
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "flag", "side": "black"}]),
    )
    .await;
    let ended = seq_of(&flagged, "game_ended");
    api.with_token(&db.appeals)
        .append_events(
            game,
            seq,
            json!([{"type": "appeal_lodged", "by": "black", "against_seq": ended, "grounds": "g"}]),
        )
        .await
        .expect(201);
    let body = api
        .with_token(&db.appeals)
        .append_events(
            game,
            seq + 1,
            json!([{"type": "appeal_decided", "against_seq": ended, "upheld": false,
                "committee": [{"name": "Anna Chair"}, {"name": "Ben Member"}],
                "reason": "the flag had fallen, as the clock showed"}]),
        )
        .await
        .expect(201);
    let dismissed = &body["events"][1]["event"];
    assert_eq!(dismissed["type"], "appeal_dismissed", "{body}");
    assert_eq!(dismissed["article"], "11.10");
    let reason = dismissed["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("ECU Tournament Rules")
            && reason.contains("the deposit of 100 EUR is kept"),
        "{reason}"
    );
    assert_eq!(state(&api, game).await["result"], "1-0");
    let audit = audit(&api, game).await;
    assert_eq!(audit["verdict"], "reproduced", "{audit}");
    // Under no procedure, a dismissal is stored as before, without a decision of the service.
    let plain = api.create_standard_game().await;
    let (seq, flagged) = record(
        &api,
        plain,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "flag", "side": "black"}]),
    )
    .await;
    let ended = seq_of(&flagged, "game_ended");
    api.with_token(&db.appeals)
        .append_events(
            plain,
            seq,
            json!([{"type": "appeal_lodged", "by": "black", "against_seq": ended, "grounds": "g"}]),
        )
        .await;
    let body = api.with_token(&db.appeals).append_events(plain,
        seq + 1,
        json!([{"type": "appeal_decided", "against_seq": ended, "upheld": false, "reason": "r"}]),
    )
    .await.expect(201);
    assert_eq!(body["events"].as_array().map(Vec::len), Some(1), "{body}");
}

#[actix_web::test]
async fn the_appeals_procedure_is_set_on_the_tournaments_page_as_its_regulations_and_read_by_others()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let tournament = api
        .create_tournament(&json!({
            "name": "Test Open 2026", "starts_on": "2026-05-01", "ends_on": "2026-05-09",
            "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000},
        }))
        .await
        .expect(201);
    let id = tournament["tournament_id"]
        .as_str()
        .expect("an id")
        .to_string();
    let page = format!("/office/events/{id}");
    let cookie = crate::office::signed_in(&api, &db.arbiter).await;
    let seen = crate::office::page_text(&api, &page, &cookie).await;
    assert!(seen.contains("Appeals procedure"), "{seen}");
    assert!(seen.contains("Save the procedure"), "{seen}");
    let at = seen.find("name=\"csrf\" value=\"").expect("a form's token") + 19;
    let csrf = seen[at..at + seen[at..].find('"').expect("end")].to_string();
    let post = |fields: Vec<(&str, &str)>| {
        let mut form: Vec<(String, String)> = vec![("csrf".into(), csrf.clone())];
        form.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        test::TestRequest::post()
            .uri(&format!("/office/events/{id}/appeals-procedure"))
            .insert_header(("Cookie", cookie.clone()))
            .insert_header(("Origin", "http://localhost:8080"))
            .set_form(form)
    };
    // A committee line without a federation is refused, saying which line; nothing is saved.
    let response = api
        .call(post(vec![
            ("regulation", "ECU Tournament Rules"),
            ("committee", "Anna Chair, NED, chairman\nBen Member"),
        ]))
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let seen = crate::office::page_text(&api, &page, &cookie).await;
    assert!(
        seen.contains("Nothing was saved: Line 2 of the committee"),
        "{seen}"
    );
    let unchanged = api.tournament(&id).await.body;
    assert!(
        unchanged["regulations"].get("appeals").is_none(),
        "{unchanged}"
    );
    // A complete procedure is saved as the API's regulations.appeals.
    let response = api
        .call(post(vec![
            ("regulation", "ECU Tournament Rules"),
            ("deadline_minutes", "60"),
            ("deadline_from", "round_end"),
            ("deposit", "100 EUR"),
            ("chief_arbiter_federation", "fra"),
            (
                "committee",
                "Anna Chair, NED, chairman\nBen Member, GER\nDora Reserve, FRA, reserve, banned",
            ),
        ]))
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let stored = api.tournament(&id).await.body;
    assert_eq!(
        stored["regulations"]["appeals"],
        json!({"regulation": "ECU Tournament Rules", "deadline_minutes": 60,
               "deadline_from": "round_end", "deposit": "100 EUR",
               "chief_arbiter_federation": "FRA",
               "committee": [
                   {"name": "Anna Chair", "federation": "NED", "role": "chairman"},
                   {"name": "Ben Member", "federation": "GER", "role": "member"},
                   {"name": "Dora Reserve", "federation": "FRA", "role": "reserve", "banned": true}]}),
        "{stored}"
    );
    let seen = crate::office::page_text(&api, &page, &cookie).await;
    assert!(seen.contains("The appeals procedure was saved"), "{seen}");
    assert!(
        seen.contains("Dora Reserve, FRA, reserve, banned"),
        "the form shows the committee saved: {seen}"
    );
    // A reader sees the procedure and no form.
    let reader = crate::office::signed_in(&api, &db.appeals).await;
    let seen = crate::office::page_text(&api, &page, &reader).await;
    assert!(
        seen.contains("60 minutes from the end of the round"),
        "{seen}"
    );
    assert!(!seen.contains("Save the procedure"), "{seen}");
}

#[actix_web::test]
async fn an_appeal_upheld_without_a_result_under_the_procedure_cites_the_article_the_regulation_and_the_deposit_returned()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = game_with_procedure(&api).await;
    // A warning (12.9.1) during the game, appealed and upheld: the game goes on.
    let (seq, warned) = record(
        &api,
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"},
               {"type": "arbiter_decision", "decision": "warning",
                "reason": "talking to a spectator (12.9.1)"}]),
    )
    .await;
    let warning = seq_of(&warned, "arbiter_decision");
    api.with_token(&db.appeals)
        .append_events(
            game,
            seq,
            json!([{"type": "appeal_lodged", "by": "white", "against_seq": warning,
                "grounds": "the spectator spoke to me"}]),
        )
        .await
        .expect(201);
    let body = api
        .with_token(&db.appeals)
        .append_events(
            game,
            seq + 1,
            json!([{"type": "appeal_decided", "against_seq": warning, "upheld": true,
                "committee": [{"name": "Anna Chair"}, {"name": "Ben Member", "by_video": true}],
                "reason": "White did not speak"}]),
        )
        .await
        .expect(201);
    let upheld = &body["events"][1]["event"];
    assert_eq!(upheld["type"], "appeal_upheld", "{body}");
    assert_eq!(upheld["article"], "11.10");
    assert_eq!(upheld["against_seq"], warning);
    let reason = upheld["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("ECU Tournament Rules")
            && reason.contains("the deposit of 100 EUR is returned")
            && reason.contains("Anna Chair (chairman), Ben Member (by video)"),
        "{reason}"
    );
    assert_eq!(state(&api, game).await["status"], "in_progress");
    let audit = audit(&api, game).await;
    assert_eq!(audit["verdict"], "reproduced", "{audit}");
}

//! Fair play through the API (issue 23): restricted recording and reading, the rulings the
//! public sees (the result and the article only), the access log, and the audit of sealed
//! payloads and evidence files.

use crate::client::{Api, api};
use crate::support::{TestDb, assert_problem, bearer};
use actix_web::{HttpServer, test};
use arbiter::access::{FairPlayRole, Role};
use serde_json::{Value, json};
use std::time::Duration;
use uuid::Uuid;

/// The text of a confidential note: no public output may ever carry it.
const NOTE: &str = "Suspected earpiece behind the left ear, Zebra-7731";

/// A token with the `fair_play` capability as `role`, limited to `events` when given.
async fn fair_play_token(db: &TestDb, role: FairPlayRole, events: Option<&[String]>) -> String {
    let (info, token) = db
        .store
        .create_token(
            &format!("fair play {}", role.as_str()),
            Role::Arbiter,
            events,
            "test",
        )
        .await
        .expect("create token");
    db.store
        .set_fair_play_role(info.token_id, Some(role))
        .await
        .expect("grant the capability")
        .expect("the token exists");
    token
}

fn record(player: Option<&str>, fact: Value) -> Value {
    let mut record = json!({
        "arbiter": "Chief arbiter",
        "at": "2026-05-03T15:20:00Z",
        "witnesses": ["Deputy arbiter"],
        "fact": fact,
    });
    if let Some(player) = player {
        record["player"] = json!(player);
    }
    json!({ "record": record })
}

fn phone_on_person() -> Value {
    json!({"type": "device_found", "device": "phone", "location": "on_person",
           "switched_on": true, "found_by": "sound", "seized": true})
}

#[actix_web::test]
async fn a_phone_on_the_person_ends_the_game_and_the_public_sees_only_the_result_and_the_article() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let game = api.create_standard_game().await;
    api.append_events(
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}]),
    )
    .await;
    as_chief
        .record_fair_play(
            game,
            &record(None, json!({"type": "fair_play_note", "text": NOTE})),
        )
        .await
        .expect(201);
    let found = as_chief
        .record_fair_play(game, &record(Some("black"), phone_on_person()))
        .await
        .expect(201);
    assert_eq!(found["payload"]["ruling"]["outcome"], "loss");
    assert_eq!(found["payload"]["ruling"]["article"], "11.3.2, 11.3.2.2");
    let public_row = &found["events"][0]["event"];
    assert_eq!(public_row["type"], "fair_play");
    assert_eq!(
        public_row["forfeit"],
        json!({"loser": "black", "article": "11.3.2.2"})
    );
    assert_eq!(
        public_row.as_object().map(|o| o.len()),
        Some(3),
        "type, sealed, forfeit: {public_row}"
    );
    let ended = &found["events"][1]["event"];
    assert_eq!(ended["type"], "game_ended");
    assert_eq!(ended["result"], "1-0");
    assert_eq!(ended["article"], "11.3.2.2");
    assert_eq!(ended["reason"], "Article 11.3.2.2.");

    // Every public output: none carries the note, the device or the kind of fact.
    let mut outputs: Vec<(String, String)> = Vec::new();
    for path in [
        format!("/v1/games/{game}"),
        format!("/v1/games/{game}/events"),
        format!("/v1/games/{game}/export"),
        format!("/v1/games/{game}/pgn"),
        format!("/v1/games/{game}/board.svg"),
        format!("/v1/games/{game}/audit"),
        format!("/v1/games/{game}/digest"),
        "/v1/feed".to_string(),
        "/v1/rulings".to_string(),
        "/v1/rounds/pgn?event=Test%20Open%202026&round=1".to_string(),
        "/v1/broadcast/rounds/pgn?event=Test%20Open%202026&round=1".to_string(),
    ] {
        let reply = api
            .with_token(&db.reader)
            .send_for_text(test::TestRequest::get().uri(&path))
            .await;
        assert_eq!(reply.status, 200, "{path}: {}", reply.text);
        outputs.push((path, reply.text));
    }
    // The live streams, read after the game ended (they replay, then close).
    let state = db.state();
    let mut broadcast_state = db.state();
    broadcast_state.streams = broadcast_state.streams.with_broadcast_delay(Duration::ZERO);
    for (state, path) in [
        (state, format!("/v1/games/{game}/stream")),
        (
            broadcast_state,
            format!("/v1/broadcast/games/{game}/stream"),
        ),
    ] {
        let server = HttpServer::new(move || arbiter::startup::app(state.clone()))
            .workers(1)
            .disable_signals()
            .bind(("127.0.0.1", 0))
            .expect("bind a free port");
        let address = server.addrs()[0];
        let server = server.run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        // A stream answers 503 with `Retry-After` while its listener connection is still
        // being opened (seconds on a loaded machine); a client tries again, and so does this.
        let mut attempts = 0;
        let response = loop {
            let response = reqwest::Client::new()
                .get(format!("http://{address}{path}"))
                .header("Authorization", format!("Bearer {}", db.reader))
                .header("Last-Event-ID", "1")
                .send()
                .await
                .expect("the stream answers");
            attempts += 1;
            if response.status() != 503 || attempts == 5 {
                break response;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        };
        let status = response.status();
        let text = tokio::time::timeout(Duration::from_secs(60), response.text())
            .await
            .expect("the stream of an ended game closes")
            .expect("the stream reads");
        assert_eq!(status, 200, "{path}: {text}");
        assert!(text.contains("game_ended"), "{path}: {text}");
        outputs.push((path, text));
        handle.stop(false).await;
    }
    for (path, body) in &outputs {
        for secret in [
            NOTE,
            "Zebra-7731",
            "device_found",
            "fair_play_note",
            "earpiece",
        ] {
            assert!(!body.contains(secret), "{path} shows `{secret}`: {body}");
        }
    }
    let audit = &outputs
        .iter()
        .find(|(p, _)| p.ends_with("/audit"))
        .expect("the audit")
        .1;
    let audit: Value = serde_json::from_str(audit).expect("the audit is JSON");
    assert_eq!(audit["verdict"], "reproduced", "{audit}");
    assert_eq!(
        audit["sealed"],
        json!({"checked": 2, "intact": true, "faults": []})
    );
    let broadcast = &outputs
        .iter()
        .find(|(p, _)| p.starts_with("/v1/broadcast/rounds"))
        .expect("the broadcast PGN")
        .1;
    assert!(broadcast.contains("1-0"), "{broadcast}");
}

#[actix_web::test]
async fn a_reader_without_fair_play_gets_404_on_every_restricted_route() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let elsewhere = fair_play_token(
        &db,
        FairPlayRole::FairPlayArbiter,
        Some(&["Another Open".to_string()]),
    )
    .await;
    let game = api.create_standard_game().await;
    let stored = as_chief
        .record_fair_play(
            game,
            &record(None, json!({"type": "fair_play_note", "text": NOTE})),
        )
        .await
        .expect(201);
    let seq = stored["seq"].as_u64().expect("a seq");
    for token in [&db.admin, &db.arbiter, &db.appeals, &db.reader, &elsewhere] {
        let as_token = api.with_token(token);
        for reply in [
            as_token.list_fair_play(game).await,
            as_token.read_fair_play(game, seq).await,
            as_token.fair_play_access(game).await,
            as_token.audit_fair_play(game).await,
        ] {
            let reply = reply.problem(404, "no_such_route");
            assert!(!reply.body.to_string().contains("Zebra"), "{}", reply.body);
        }
        as_token
            .record_fair_play(
                game,
                &record(None, json!({"type": "fair_play_note", "text": "x"})),
            )
            .await
            .problem(404, "no_such_route");
    }
    // The holder reads it.
    let read = as_chief.read_fair_play(game, seq).await.expect(200);
    assert_eq!(read["payload"]["record"]["fact"]["text"], NOTE);
    assert_eq!(read["intact"], true);
}

#[actix_web::test]
async fn each_read_of_a_restricted_event_adds_an_access_event() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let game = api.create_standard_game().await;
    let stored = as_chief
        .record_fair_play(
            game,
            &record(None, json!({"type": "fair_play_note", "text": NOTE})),
        )
        .await
        .body;
    let seq = stored["seq"].as_u64().expect("a seq");
    let before = as_chief.fair_play_access(game).await.body;
    assert_eq!(before["items"], json!([]), "nothing read yet");
    as_chief.list_fair_play(game).await;
    as_chief.read_fair_play(game, seq).await;
    let after = as_chief.fair_play_access(game).await.body;
    let items = after["items"].as_array().expect("a list");
    assert_eq!(items.len(), 2, "{after}");
    assert_eq!(items[0]["what"], "list");
    assert_eq!(items[1]["what"], "record");
    for item in items {
        assert_eq!(item["seq"], seq);
        assert!(
            item["reader"]
                .as_str()
                .is_some_and(|r| r.contains("fair play chief_arbiter")),
            "{item}"
        );
        assert!(item["read_at"].is_string());
    }
}

#[actix_web::test]
async fn bad_fair_play_records_get_422_naming_the_field() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let game = api.create_standard_game().await;
    let requested = as_chief
        .record_fair_play(
            game,
            &record(Some("white"), json!({"type": "inspection_requested"})),
        )
        .await
        .body;
    let request_seq = requested["seq"].as_u64().expect("a seq");
    let before = db.event_count().await;
    for (body, field) in [
        (
            record(
                Some("white"),
                json!({"type": "inspection_done", "request_seq": request_seq,
                       "same_gender_confirmed": true, "private_room": true,
                       "outcome": "nothing found"}),
            ),
            "record.fact.inspector",
        ),
        (
            record(
                None,
                json!({"type": "complaint_lodged", "stage": "in_tournament",
                       "complainant": {"name": "White, Wanda", "fide_id": 1},
                       "facts": "left the hall every move", "signed_at": "2026-05-03T16:00:00Z"}),
            ),
            "record.fact.respondent",
        ),
        (
            record(
                None,
                json!({"type": "complaint_lodged", "stage": "post_tournament",
                       "complainant": {"name": "White, Wanda"},
                       "respondent": {"name": "Black, Bob"},
                       "signed_at": "2026-05-03T16:00:00Z"}),
            ),
            "record.fact.facts",
        ),
        (
            record(
                None,
                json!({"type": "custody_changed", "item_seq": request_seq, "action": "stored",
                       "from": "Chief arbiter", "to": "Safe"}),
            ),
            "record.fact.item_seq",
        ),
        (
            record(None, json!({"type": "device_found", "device": "phone"})),
            "record.fact.location",
        ),
    ] {
        let reply = as_chief.record_fair_play(game, &body).await;
        assert_problem(&reply, 422, "invalid_field");
        assert_eq!(reply.body["field"], field, "{}", reply.body);
    }
    // A refusal after a completed inspection.
    as_chief
        .record_fair_play(
            game,
            &record(
                Some("white"),
                json!({"type": "inspection_done", "request_seq": request_seq,
                   "inspector": "Deputy arbiter", "same_gender_confirmed": true,
                   "private_room": true, "outcome": "nothing found"}),
            ),
        )
        .await
        .expect(201);
    let reply = as_chief
        .record_fair_play(
            game,
            &record(
                Some("white"),
                json!({"type": "inspection_refused", "request_seq": request_seq}),
            ),
        )
        .await;
    assert_problem(&reply, 422, "invalid_field");
    assert_eq!(reply.body["field"], "record.fact.request_seq");
    assert_eq!(
        db.event_count().await,
        before + 1,
        "only the inspection done"
    );
    // The sealed type cannot be sent through the log's own route.
    let refused = api
        .append_events(
            game,
            4,
            json!([{"type": "fair_play", "sealed": "a".repeat(64)}]),
        )
        .await
        .expect(422);
    assert_eq!(refused["field"], "events[0].type");
}

#[actix_web::test]
async fn a_device_after_the_game_is_recorded_with_no_ruling() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let game = api.create_standard_game().await;
    api.append_events(game, 1, json!([{"type": "resign", "by": "white"}]))
        .await;
    let found = as_chief
        .record_fair_play(game, &record(Some("black"), phone_on_person()))
        .await
        .expect(201);
    assert_eq!(found["payload"]["ruling"]["outcome"], "spectator");
    assert_eq!(found["payload"]["ruling"]["article"], "11.4");
    assert_eq!(found["events"].as_array().map(Vec::len), Some(1), "{found}");
    assert!(found["events"][0]["event"].get("forfeit").is_none());
    let summary = api.game(game).await.body;
    assert_eq!(
        summary["game"]["result"], "0-1",
        "the resignation stands: {summary}"
    );
}

#[actix_web::test]
async fn a_fair_play_officers_entry_is_a_proposal_the_chief_arbiter_confirms() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let fpo = fair_play_token(&db, FairPlayRole::Fpo, None).await;
    let as_fpo = api.with_token(&fpo);
    let game = api.create_standard_game().await;
    let proposed = as_fpo
        .record_fair_play(game, &record(Some("white"), phone_on_person()))
        .await
        .expect(201);
    assert_eq!(proposed["payload"]["proposal"], true);
    assert!(proposed["payload"].get("ruling").is_none(), "{proposed}");
    assert_eq!(proposed["events"].as_array().map(Vec::len), Some(1));
    let proposal_seq = proposed["seq"].as_u64().expect("a seq");
    let confirm = record(
        None,
        json!({"type": "proposal_confirmed", "proposal_seq": proposal_seq}),
    );
    let reply = as_fpo.record_fair_play(game, &confirm.clone()).await;
    assert_problem(&reply, 403, "forbidden");
    let confirmed = as_chief.record_fair_play(game, &confirm).await.expect(201);
    assert_eq!(confirmed["payload"]["ruling"]["outcome"], "loss");
    assert_eq!(confirmed["events"][1]["event"]["result"], "0-1");
}

#[actix_web::test]
async fn evidence_declared_with_a_wrong_sha256_is_refused_naming_the_field_and_nothing_is_stored() {
    use base64::Engine;
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let game = api.create_standard_game().await;
    let photo = b"\x89PNG the phone under the table".to_vec();
    let right = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&photo));
    let wrong = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(b"another file"));
    let before = db.event_count().await;
    let evidence = |sha256: &str| {
        record(
            Some("black"),
            json!({"type": "evidence_added", "kind": "photo", "file_name": "table.png",
                   "media_type": "image/png", "sha256": sha256,
                   "content_base64": base64::engine::general_purpose::STANDARD.encode(&photo)}),
        )
    };
    let refused = as_chief
        .record_fair_play(game, &evidence(&wrong))
        .await
        .expect(422);
    assert_eq!(refused["field"], "record.fact.sha256", "{refused}");
    assert!(
        refused["detail"]
            .as_str()
            .is_some_and(|d| d.contains(&right) && d.contains(&wrong)),
        "the detail gives both hashes: {refused}"
    );
    assert_eq!(db.event_count().await, before, "nothing stored");
    let files: i64 = sqlx::query_scalar("SELECT count(*) FROM fair_play_evidence")
        .fetch_one(db.store.pool())
        .await
        .expect("count files");
    assert_eq!(files, 0, "no file stored");
    // The right hash, in capitals as some tools print it, is taken.
    let added = as_chief
        .record_fair_play(game, &evidence(&right.to_uppercase()))
        .await
        .expect(201);
    assert_eq!(added["payload"]["record"]["fact"]["sha256"], right);
}

#[actix_web::test]
async fn a_stored_evidence_file_downloads_for_the_fair_play_roles_only_and_each_download_is_logged()
{
    use base64::Engine;
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let fpo = fair_play_token(&db, FairPlayRole::Fpo, None).await;
    let game = api.create_standard_game().await;
    let photo = b"\x89PNG\r\n\x1a\n the seized phone".to_vec();
    let added = as_chief
        .record_fair_play(
            game,
            &record(
                Some("white"),
                json!({"type": "evidence_added", "kind": "photo", "file_name": "seized phone.png",
                   "media_type": "image/png",
                   "content_base64": base64::engine::general_purpose::STANDARD.encode(&photo)}),
            ),
        )
        .await
        .expect(201);
    let seq = added["seq"].as_u64().expect("a seq");
    let download = |token: &str| {
        test::TestRequest::get()
            .uri(&format!("/v1/games/{game}/fair-play/{seq}/evidence"))
            .insert_header(bearer(token))
    };
    for token in [&chief, &fpo] {
        let response = api.call(download(token)).await;
        assert_eq!(response.status(), 200);
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string()
        };
        assert_eq!(header("content-type"), "image/png");
        assert_eq!(
            header("x-content-sha256"),
            hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&photo))
        );
        let disposition = header("content-disposition");
        assert!(
            disposition.contains("attachment") && disposition.contains("seized_phone.png"),
            "{disposition}"
        );
        let body = test::read_body(response).await;
        assert_eq!(body.as_ref(), photo.as_slice(), "the bytes as seized");
    }
    // Anyone else is told the route does not exist, as for every fair-play route.
    for token in [&db.arbiter, &db.appeals, &db.reader, &db.admin] {
        api.with_token(token)
            .fair_play_evidence(game, seq)
            .await
            .problem(404, "no_such_route");
    }
    // The back office's desk links the file, and the link downloads it for the fair-play
    // roles only.
    let office = format!("/office/fair-play/games/{game}/evidence/{seq}");
    let chief_session = crate::office::signed_in(&api, &chief).await;
    let desk = api
        .call(
            test::TestRequest::get()
                .uri(&format!("/office/fair-play/games/{game}"))
                .insert_header(("Cookie", chief_session.clone())),
        )
        .await;
    let desk = String::from_utf8(test::read_body(desk).await.to_vec()).expect("utf-8");
    assert!(desk.contains(&office), "the desk links the file");
    let response = api
        .call(
            test::TestRequest::get()
                .uri(&office)
                .insert_header(("Cookie", chief_session)),
        )
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(test::read_body(response).await.as_ref(), photo.as_slice());
    let arbiter_session = crate::office::signed_in(&api, &db.arbiter).await;
    let response = api
        .call(
            test::TestRequest::get()
                .uri(&office)
                .insert_header(("Cookie", arbiter_session)),
        )
        .await;
    assert_eq!(
        response.status(),
        404,
        "no file for an arbiter without the capability"
    );
    // No file behind a record that is no evidence.
    let note = as_chief
        .record_fair_play(
            game,
            &record(None, json!({"type": "fair_play_note", "text": NOTE})),
        )
        .await
        .body;
    let note_seq = note["seq"].as_u64().expect("a seq");
    assert_problem(
        &as_chief.fair_play_evidence(game, note_seq).await,
        404,
        "no_such_route",
    );
    // Both downloads are in the access log, by whom.
    let access = as_chief.fair_play_access(game).await.body;
    let downloads: Vec<&Value> = access["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|i| i["what"] == "evidence" && i["seq"] == seq)
        .collect();
    assert_eq!(downloads.len(), 3, "{access}");
    assert!(
        downloads
            .iter()
            .any(|d| d["reader"].as_str().is_some_and(|r| r.contains("fpo"))),
        "{access}"
    );
}

#[actix_web::test]
async fn a_tampered_evidence_file_fails_the_audit_naming_the_event() {
    use base64::Engine;
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let game = api.create_standard_game().await;
    let photo = b"\x89PNG a photo of the phone in the toilet".to_vec();
    let added = as_chief
        .record_fair_play(
            game,
            &record(
                Some("black"),
                json!({"type": "evidence_added", "kind": "photo", "file_name": "phone.png",
                   "media_type": "image/png",
                   "content_base64": base64::engine::general_purpose::STANDARD.encode(&photo)}),
            ),
        )
        .await
        .expect(201);
    let seq = added["seq"].as_u64().expect("a seq");
    let fact = &added["payload"]["record"]["fact"];
    assert_eq!(fact["size"], photo.len());
    assert_eq!(
        fact["sha256"],
        hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&photo))
    );
    assert!(
        fact.get("content_base64").is_none(),
        "the file is kept apart"
    );
    let audit = as_chief.audit_fair_play(game).await.body;
    assert_eq!(audit["intact"], true, "{audit}");
    // Someone with the database's owner rights alters the file.
    for statement in [
        "ALTER TABLE fair_play_evidence DISABLE TRIGGER fair_play_evidence_refuse_change",
        "UPDATE fair_play_evidence SET content = 'a different photo'::bytea",
        "ALTER TABLE fair_play_evidence ENABLE TRIGGER fair_play_evidence_refuse_change",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(statement))
            .execute(db.store.pool())
            .await
            .expect(statement);
    }
    let audit = as_chief.audit_fair_play(game).await.body;
    assert_eq!(audit["intact"], false, "{audit}");
    assert_eq!(audit["faults"][0]["seq"], seq, "{audit}");
    assert!(
        audit["faults"][0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("phone.png") && r.contains("altered")),
        "{audit}"
    );
    // The public audit: the chain verifies, the sealed data of that event does not, and
    // nothing of its content is named.
    let public = api.audit(game).await.body;
    assert_eq!(public["chain"]["intact"], true, "{public}");
    assert_eq!(public["verdict"], "tampered", "{public}");
    assert_eq!(public["sealed"]["faults"][0]["seq"], seq, "{public}");
    assert!(!public.to_string().contains("phone.png"), "{public}");
}

#[actix_web::test]
async fn an_altered_sealed_payload_fails_the_fair_play_audit_but_the_public_chain_still_verifies() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let game = api.create_standard_game().await;
    let stored = as_chief
        .record_fair_play(
            game,
            &record(None, json!({"type": "fair_play_note", "text": NOTE})),
        )
        .await
        .body;
    for statement in [
        "ALTER TABLE fair_play_payloads DISABLE TRIGGER fair_play_payloads_refuse_change",
        "UPDATE fair_play_payloads SET payload = jsonb_set(payload, '{record,fact,text}', '\"nothing to see\"')",
        "ALTER TABLE fair_play_payloads ENABLE TRIGGER fair_play_payloads_refuse_change",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(statement))
            .execute(db.store.pool())
            .await
            .expect(statement);
    }
    let audit = as_chief.audit_fair_play(game).await.body;
    assert_eq!(audit["intact"], false, "{audit}");
    assert_eq!(audit["faults"][0]["seq"], stored["seq"]);
    assert!(
        audit["faults"][0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("fair_play_note") && r.contains("altered")),
        "{audit}"
    );
    let public = api.audit(game).await.body;
    assert_eq!(public["chain"]["intact"], true, "{public}");
    assert_eq!(public["verdict"], "tampered", "{public}");
    assert_eq!(
        public["sealed"]["faults"][0]["seq"], stored["seq"],
        "{public}"
    );
    assert!(!public.to_string().contains("fair_play_note"), "{public}");
}

#[actix_web::test]
async fn the_report_lists_all_events_with_its_deadline_and_prints_for_the_fair_play_roles_only() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    // Given a tournament that ended on 5 January 2020, whose report is due 7 days later.
    let tournament = api.create_tournament(&json!({
            "name": "Test Open 2026", "starts_on": "2020-01-01", "ends_on": "2020-01-05",
            "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000},
            "regulations": {"fair_play_report_days": 7,
                            "electronic_devices": {"bags_allowed": true, "lesser_penalty": "warning"}}
        })).await.expect(201);
    let tournament_id = tournament["tournament_id"]
        .as_str()
        .expect("an id")
        .to_string();
    // A game of it, governed by the same regulations (fixed in its game_created).
    let mut settings = crate::support::standard_game();
    settings["regulations"] = tournament["regulations"].clone();
    let created = api.create_game(&settings).await.expect(201);
    let game: Uuid = created["game"]["game_id"]
        .as_str()
        .and_then(|id| id.parse().ok())
        .expect("a game id");
    for (player, fact) in [
        (
            Some("white"),
            json!({"type": "entry_scan", "result": "clear"}),
        ),
        (
            Some("black"),
            json!({"type": "random_check", "device": "wand", "result": "clear"}),
        ),
        (None, json!({"type": "broadcast_delay_set", "minutes": 15})),
        (Some("black"), phone_on_person()),
        (
            None,
            json!({"type": "complaint_lodged", "stage": "in_tournament",
                   "complainant": {"name": "Carlsen, Magnus", "fide_id": 1503014},
                   "respondent": {"name": "Nepomniachtchi, Ian"},
                   "facts": NOTE, "signed_at": "2020-01-03T18:00:00Z"}),
        ),
        (
            None,
            json!({"type": "referred_to_fpl", "reason": "the complaint's facts"}),
        ),
    ] {
        as_chief
            .record_fair_play(game, &record(player, fact))
            .await
            .expect(201);
    }
    let report = as_chief.fair_play_report(&tournament_id).await.expect(200);
    assert_eq!(report["deadline"], "2020-01-12");
    assert_eq!(report["status"], "overdue");
    assert_eq!(report["fair_play_rules"], "Fair-Play Rules or Guidelines");
    assert_eq!(
        report["events"].as_array().map(Vec::len),
        Some(6),
        "{report}"
    );
    assert_eq!(report["checks"]["entry_scans"], 1);
    assert_eq!(report["checks"]["random_checks"], 1);
    assert_eq!(report["checks"]["devices_found"], 1);
    assert_eq!(report["measures"]["bags_allowed"], true);
    assert_eq!(report["measures"]["broadcast_delay_minutes"], 15);
    assert_eq!(
        report["measures"]["lesser_penalty"],
        json!({"penalty": "warning", "article": "12.9.1"})
    );
    let incidents = report["incidents"].as_array().expect("incidents");
    assert_eq!(incidents.len(), 1, "{report}");
    assert_eq!(
        incidents[0]["payload"]["ruling"]["outcome"],
        "lesser_penalty"
    );
    assert_eq!(
        report["complaints"][0]["payload"]["record"]["fact"]["facts"],
        NOTE
    );
    assert_eq!(report["referrals"].as_array().map(Vec::len), Some(1));
    // Others do not see it, nor its page.
    for token in [&db.reader, &db.arbiter, &db.admin] {
        api.with_token(token)
            .fair_play_report(&tournament_id)
            .await
            .problem(404, "no_such_route");
    }
    let page = format!("/office/fair-play?event={}", "Test%20Open%202026");
    let arbiter_session = crate::office::signed_in(&api, &db.arbiter).await;
    let hidden = crate::office::page_text(&api, &page, &arbiter_session).await;
    assert!(!hidden.contains("Zebra-7731"), "{hidden}");
    assert!(!hidden.contains("Fair-play report"), "{hidden}");
    // The chief arbiter's printable page: the deadline, the complaint as FIDE's form.
    let chief_session = crate::office::signed_in(&api, &chief).await;
    let printed = crate::office::page_text(&api, &page, &chief_session).await;
    for expected in [
        "Fair-play report",
        "OVERDUE since 2020-01-12",
        "Complainant",
        "Carlsen, Magnus (FIDE ID 1503014)",
        "Respondent",
        NOTE,
        "12.9.1",
        "data-print",
        // Words and the tournament's clock, not type names and bare UTC (issue 38).
        "Device found",
        "Time (",
    ] {
        assert!(
            printed.contains(expected),
            "the page shows {expected}: {printed}"
        );
    }
    for internal in ["device_found", "lesser_penalty", "entry_scan"] {
        assert!(
            !printed.contains(internal),
            "no API name ({internal}) on the page: {printed}"
        );
    }
    assert!(
        printed.contains("(White)") || printed.contains("(Black)"),
        "a player is named with their colour: {printed}"
    );
    // Only the chief arbiter's round floor shows it overdue.
    let floor = "/office/floor?event=Test%20Open%202026&round=1";
    let chief_floor = crate::office::page_text(&api, floor, &chief_session).await;
    assert!(
        chief_floor.contains("Fair-play report overdue since 2020-01-12"),
        "{chief_floor}"
    );
    let arbiter_floor = crate::office::page_text(&api, floor, &arbiter_session).await;
    assert!(arbiter_floor.contains("round 1"), "{arbiter_floor}");
    assert!(
        !arbiter_floor.contains("Fair-play report"),
        "{arbiter_floor}"
    );
    // Each event the report holds was logged as read.
    let access = as_chief.fair_play_access(game).await.body;
    let reads = access["items"].as_array().expect("a list");
    assert_eq!(
        reads.iter().filter(|r| r["what"] == "report").count(),
        12,
        "six events, read by the JSON report and by the page: {access}"
    );
}

#[actix_web::test]
async fn an_arbiter_records_a_device_an_inspection_and_a_complaint_at_the_fair_play_desk() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let game = api.create_standard_game().await;
    api.append_events(
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}]),
    )
    .await;
    let desk = format!("/office/fair-play/games/{game}");
    // An arbiter without the capability finds no such page.
    let arbiter_session = crate::office::signed_in(&api, &db.arbiter).await;
    let hidden = crate::office::page_text(&api, &desk, &arbiter_session).await;
    assert!(!hidden.contains("Fair-play desk"), "{hidden}");
    let cookie = crate::office::signed_in(&api, &chief).await;
    let page = crate::office::page_text(&api, &desk, &cookie).await;
    assert!(page.contains("Fair-play desk"), "{page}");
    let at = page.find("name=\"csrf\" value=\"").expect("a form's token") + 19;
    let csrf = page[at..at + page[at..].find('"').expect("end")].to_string();
    let post = |fields: Vec<(&str, &str)>| {
        let mut form: Vec<(String, String)> = vec![("csrf".into(), csrf.clone())];
        form.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        test::TestRequest::post()
            .uri(&desk)
            .insert_header(("Cookie", cookie.clone()))
            .insert_header(("Origin", "http://localhost:8080"))
            .set_form(form)
    };
    for fields in [
        vec![
            ("type", "inspection_requested"),
            ("player", "black"),
            ("reason", "left often"),
        ],
        // Refused, with the arbiter's choice from 12.9 and its reason.
        vec![
            ("type", "inspection_refused"),
            ("player", "black"),
            ("request_seq", "3"),
            ("decision_penalty", "expulsion"),
            ("decision_reason", "refused twice before witnesses"),
        ],
        vec![
            ("type", "complaint_lodged"),
            ("stage", "in_tournament"),
            ("complainant_name", "Carlsen, Magnus"),
            ("complainant_fide_id", "1503014"),
            ("respondent_name", "Nepomniachtchi, Ian"),
            ("facts", NOTE),
        ],
        vec![
            ("type", "device_found"),
            ("player", "black"),
            ("device", "phone"),
            ("location", "on_person"),
            ("found_by", "search"),
            ("seized", "true"),
        ],
    ] {
        let response = api.call(post(fields)).await;
        assert_eq!(response.status().as_u16(), 303);
    }
    // An inspection done with no inspector is refused, naming the field.
    let response = api
        .call(post(vec![
            ("type", "inspection_done"),
            ("player", "black"),
            ("request_seq", "3"),
            ("same_gender_confirmed", "true"),
            ("private_room", "true"),
            ("outcome", "a phone"),
        ]))
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let page = crate::office::page_text(&api, &desk, &cookie).await;
    assert!(
        page.contains("Nothing was stored: record.fact.inspector"),
        "{page}"
    );
    let page = crate::office::page_text(&api, &desk, &cookie).await;
    assert!(page.contains(NOTE), "{page}");
    assert!(page.contains("11.3.2, 11.3.2.2"), "the ruling: {page}");
    assert!(
        page.contains("The arbiter chose expulsion from the competition (12.9.9): refused twice"),
        "{page}"
    );
    let summary = api.game(game).await.body;
    assert_eq!(summary["game"]["result"], "1-0", "{summary}");
}

#[actix_web::test]
async fn a_fair_play_desk_form_sent_twice_is_stored_once() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let game = api.create_standard_game().await;
    let desk = format!("/office/fair-play/games/{game}");
    let cookie = crate::office::signed_in(&api, &chief).await;
    let page = crate::office::page_text(&api, &desk, &cookie).await;
    let at = page.find("name=\"csrf\" value=\"").expect("a form's token") + 19;
    let csrf = page[at..at + page[at..].find('"').expect("end")].to_string();
    // One form at a time, chosen from a row of actions above it (links, no script needed):
    // the desk opens on "Device found".
    for action in [
        "Device found",
        "Inspection refused",
        "Custody",
        "Evidence file",
        "Note",
    ] {
        assert!(page.contains(&format!(">{action}</a>")), "{action}: {page}");
    }
    assert_eq!(
        page.matches("<form class=\"fair-play-form\"").count(),
        1,
        "{page}"
    );
    assert!(
        page.contains("name=\"type\" value=\"device_found\""),
        "{page}"
    );
    // Every form carries an id of its own.
    let id_of = |page: &str| -> Vec<String> {
        page.match_indices("name=\"event_id\" value=\"")
            .map(|(i, m)| page[i + m.len()..i + m.len() + 36].to_string())
            .collect()
    };
    let mut ids = id_of(&page);
    for form in [
        "inspection_requested",
        "inspection_done",
        "custody_changed",
        "checks",
        "fair_play_note",
    ] {
        let shown = crate::office::page_text(&api, &format!("{desk}?form={form}"), &cookie).await;
        assert!(
            shown.contains("aria-current=\"page\"")
                && !shown.contains("name=\"type\" value=\"device_found\""),
            "{form}: {shown}"
        );
        ids.extend(id_of(&shown));
    }
    assert!(ids.len() >= 8, "an id per form: {ids:?}");
    let distinct: std::collections::HashSet<&String> = ids.iter().collect();
    assert_eq!(distinct.len(), ids.len(), "no two forms share an id");
    let note_page =
        crate::office::page_text(&api, &format!("{desk}?form=fair_play_note"), &cookie).await;
    let event_id = id_of(&note_page)[0].clone();
    let before = db.event_count().await;
    let post = || {
        test::TestRequest::post()
            .uri(&desk)
            .insert_header(("Cookie", cookie.clone()))
            .insert_header(("Origin", "http://localhost:8080"))
            .set_form([
                ("csrf", csrf.as_str()),
                ("event_id", event_id.as_str()),
                ("type", "fair_play_note"),
                ("text", NOTE),
            ])
    };
    for _ in 0..2 {
        let response = api.call(post()).await;
        assert_eq!(response.status().as_u16(), 303);
    }
    assert_eq!(db.event_count().await, before + 1, "stored once");
    let page = crate::office::page_text(&api, &desk, &cookie).await;
    assert!(
        page.contains("this form was stored already, as event 2"),
        "{page}"
    );
    // The desk is headed by the game and reads in words, with the hall's clock.
    assert!(
        page.contains("Carlsen, Magnus") && page.contains("Nepomniachtchi, Ian"),
        "{page}"
    );
    assert!(page.contains("Back to the game desk"), "{page}");
    assert!(page.contains("Fair play note"), "{page}");
    assert!(page.contains("Time (UTC)"), "{page}");
    assert!(!page.contains(">fair_play_note"), "no type names: {page}");
}

#[actix_web::test]
async fn an_admin_gives_a_token_the_fair_play_capability_and_a_rotation_keeps_it() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let as_admin = api.with_token(&db.admin);
    let created = as_admin
        .create_token(&json!({"name": "Fair-play arbiter", "role": "arbiter",
                              "fair_play_role": "fair_play_arbiter"}))
        .await
        .expect(201);
    assert_eq!(created["info"]["fair_play_role"], "fair_play_arbiter");
    let token = created["token"].as_str().expect("a token").to_string();
    api.with_token(&token)
        .record_fair_play(
            game,
            &record(None, json!({"type": "fair_play_note", "text": NOTE})),
        )
        .await
        .expect(201);
    let id = created["info"]["token_id"].as_str().expect("an id");
    let rotated = as_admin.rotate_token(id, &json!({})).await.expect(201);
    assert_eq!(rotated["info"]["fair_play_role"], "fair_play_arbiter");
    let new_token = rotated["token"].as_str().expect("a token");
    let list = api
        .with_token(new_token)
        .list_fair_play(game)
        .await
        .expect(200);
    assert_eq!(
        list["items"][0]["payload"]["recorded_as"],
        "fair_play_arbiter"
    );
}

#[actix_web::test]
async fn an_upheld_appeal_against_a_device_loss_resumes_the_game_and_the_audit_reproduces_it() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let game = api.create_standard_game().await;
    api.append_events(
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "d4"},
               {"type": "move", "by": "black", "san": "d5"}]),
    )
    .await
    .expect(201);
    let before = api.game(game).await.body;
    // A phone rings in White's pocket: White loses (11.3.2.2).
    let found = as_chief
        .record_fair_play(game, &record(Some("white"), phone_on_person()))
        .await
        .expect(201);
    let found_seq = found["seq"].as_u64().expect("a seq");
    let ended_seq = found["events"][1]["seq"].as_u64().expect("the game_ended");
    // The device was an approved medical device: the committee annuls the loss.
    api.with_token(&db.appeals)
        .append_events(
            game,
            ended_seq,
            json!([{"type": "appeal_lodged", "by": "white", "against_seq": ended_seq,
                "grounds": "the device is an approved insulin pump"}]),
        )
        .await
        .expect(201);
    let decided = api
        .with_token(&db.appeals)
        .append_events(
            game,
            ended_seq + 1,
            json!([{"type": "appeal_decided", "against_seq": ended_seq, "upheld": true,
                "resume": {"white_ms": 5_000_000, "black_ms": 5_100_000},
                "reason": "an approved medical device is no forbidden device"}]),
        )
        .await
        .expect(201);
    assert_eq!(
        decided["events"][1]["event"]["annulled"],
        json!([found_seq, ended_seq]),
        "{decided}"
    );
    let after = api.game(game).await.body;
    assert_eq!(after["state"]["status"], "in_progress", "{after}");
    assert_eq!(after["state"]["fen"], before["state"]["fen"]);
    assert_eq!(after["state"]["clocks"]["white_ms"], 5_000_000);
    assert_eq!(after["state"]["clocks"]["black_ms"], 5_100_000);
    // Play resumes and is recorded like any other.
    let last = decided["last_seq"].as_u64().expect("last_seq");
    api.append_events(
        game,
        last,
        json!([{"type": "move", "by": "white", "san": "c4"},
               {"type": "move", "by": "black", "san": "e6"}]),
    )
    .await
    .expect(201);
    let audit = api.audit(game).await.body;
    assert_eq!(audit["verdict"], "reproduced", "{audit}");
    // The committee still reads the fair-play event its appeal cited.
    api.with_token(&db.appeals)
        .read_fair_play(game, found_seq)
        .await
        .expect(200);
}

/// The PGN at `uri` read with `token`, as text.
async fn pgn_text(api: &Api<'_>, token: &str, uri: &str) -> String {
    let reply = api
        .with_token(token)
        .send_for_text(test::TestRequest::get().uri(uri))
        .await;
    assert_eq!(reply.status, 200, "{uri}");
    reply.text
}

#[actix_web::test]
async fn the_pgns_of_a_running_game_show_a_measures_effect_on_the_clock_and_its_article_once_the_game_has_ended()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    // The regulations: a device on the person costs two minutes to the opponent's benefit
    // (11.3.2.2 with 12.9.2) instead of the loss.
    let mut settings = crate::support::standard_game();
    settings["regulations"] = json!({"electronic_devices": {
        "lesser_penalty": "opponent_time_increased", "lesser_penalty_ms": 120_000}});
    let created = api.create_game(&settings).await.expect(201);
    let game: Uuid = created["game"]["game_id"]
        .as_str()
        .and_then(|id| id.parse().ok())
        .expect("a game id");
    api.append_events(
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"},
               {"type": "move", "by": "black", "san": "e5"}]),
    )
    .await
    .expect(201);
    let found = as_chief
        .record_fair_play(game, &record(Some("white"), phone_on_person()))
        .await
        .expect(201);
    assert_eq!(
        found["events"][1]["event"]["type"], "penalty_applied",
        "{found}"
    );
    assert_eq!(found["events"][1]["event"]["article"], "12.9.2", "{found}");
    let game_pgn = format!("/v1/games/{game}/pgn");
    let round_pgn = "/v1/rounds/pgn?event=Test%20Open%202026&round=1";
    let public_pgn = "/v1/broadcast/rounds/pgn?event=Test%20Open%202026&round=1";
    for uri in [game_pgn.as_str(), round_pgn, public_pgn] {
        let text = pgn_text(&api, &db.reader, uri).await;
        assert!(
            !text.contains("12.9"),
            "no article while the game runs at {uri}: {text}"
        );
        assert!(
            !text.contains("11.3"),
            "no article while the game runs at {uri}: {text}"
        );
    }
    for uri in [game_pgn.as_str(), round_pgn] {
        let text = pgn_text(&api, &db.reader, uri).await;
        assert!(
            text.contains("120 s added to black's clock}"),
            "the effect on the clock at {uri}: {text}"
        );
    }
    // The game ends: the article appears.
    let last = found["events"][1]["seq"].as_u64().expect("a seq");
    api.append_events(game, last, json!([{"type": "resign", "by": "white"}]))
        .await
        .expect(201);
    for uri in [game_pgn.as_str(), round_pgn, public_pgn] {
        let text = pgn_text(&api, &db.reader, uri).await;
        assert!(
            text.contains("12.9.2"),
            "the article once ended at {uri}: {text}"
        );
    }
}

#[actix_web::test]
async fn the_appeals_member_reads_only_the_fair_play_event_an_appeal_cites() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let game = api.create_standard_game().await;
    let note = as_chief
        .record_fair_play(
            game,
            &record(None, json!({"type": "fair_play_note", "text": NOTE})),
        )
        .await
        .body;
    let found = as_chief
        .record_fair_play(game, &record(Some("white"), phone_on_person()))
        .await
        .body;
    let found_seq = found["seq"].as_u64().expect("a seq");
    let ended_seq = found["events"][1]["seq"].as_u64().expect("the game_ended");
    let as_appeals = api.with_token(&db.appeals);
    as_appeals
        .read_fair_play(game, found_seq)
        .await
        .problem(404, "no_such_route");
    // White appeals against the loss.
    api.append_events(
        game,
        ended_seq,
        json!([{"type": "appeal_lodged", "by": "white", "against_seq": ended_seq,
                "grounds": "the phone was the organiser's"}]),
    )
    .await
    .expect(201);
    let cited = as_appeals.read_fair_play(game, found_seq).await.expect(200);
    assert_eq!(cited["payload"]["ruling"]["article"], "11.3.2, 11.3.2.2");
    // Nothing else.
    let note_seq = note["seq"].as_u64().expect("a seq");
    as_appeals
        .read_fair_play(game, note_seq)
        .await
        .problem(404, "no_such_route");
    let list = as_appeals.list_fair_play(game).await;
    assert_problem(&list, 404, "no_such_route");
    // The read is logged.
    let access = as_chief.fair_play_access(game).await.body;
    assert!(
        access["items"]
            .as_array()
            .is_some_and(|items| items.iter().any(|i| i["reader"]
                .as_str()
                .is_some_and(|r| r.contains("appeals"))
                && i["seq"] == found_seq)),
        "{access}"
    );
}

/// `body` with the client's `event_id` for the record.
fn with_id(mut body: Value, event_id: Uuid) -> Value {
    body["event_id"] = json!(event_id);
    body
}

/// How many restricted payloads are stored under `event_id`.
async fn payloads_stored(db: &TestDb, event_id: Uuid) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM fair_play_payloads WHERE event_id = $1")
        .bind(event_id)
        .fetch_one(db.store.pool())
        .await
        .expect("count payloads")
}

#[actix_web::test]
async fn a_retried_fair_play_record_is_stored_once_and_answered_with_the_stored_event() {
    use base64::Engine;
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let game = api.create_standard_game().await;
    let before = db.event_count().await;

    // A phone on the person ends the game: the retry answers both stored rows.
    let id = Uuid::new_v4();
    let body = with_id(record(Some("black"), phone_on_person()), id);
    let first = as_chief.record_fair_play(game, &body).await.expect(201);
    assert_eq!(first["events"][0]["event_id"], json!(id));
    let again = as_chief.record_fair_play(game, &body).await;
    assert_eq!(again.status, 200, "a retry is answered 200: {}", again.body);
    let again = again.body;
    assert_eq!(again["seq"], first["seq"]);
    assert_eq!(
        again["events"], first["events"],
        "the stored rows, hashes and all"
    );
    assert_eq!(
        again["payload"], first["payload"],
        "the stored payload, its salt and ruling included"
    );
    assert_eq!(
        db.event_count().await,
        before + 2,
        "fair_play and game_ended, once"
    );
    assert_eq!(payloads_stored(&db, id).await, 1);

    // An evidence file sent twice is stored once.
    let photo = b"\x89PNG the phone on the table".to_vec();
    let evidence_id = Uuid::new_v4();
    let body = with_id(
        record(
            Some("black"),
            json!({"type": "evidence_added", "kind": "photo", "file_name": "table.png",
                   "media_type": "image/png",
                   "content_base64": base64::engine::general_purpose::STANDARD.encode(&photo)}),
        ),
        evidence_id,
    );
    let added = as_chief.record_fair_play(game, &body).await.expect(201);
    let resent = as_chief.record_fair_play(game, &body).await.expect(200);
    assert_eq!(resent["payload"], added["payload"]);
    let files: i64 =
        sqlx::query_scalar("SELECT count(*) FROM fair_play_evidence WHERE game_id = $1")
            .bind(game)
            .fetch_one(db.store.pool())
            .await
            .expect("count files");
    assert_eq!(files, 1, "the file is stored once");

    // The list holds each record once, and the retries were logged as reads.
    let list = as_chief.list_fair_play(game).await.body;
    assert_eq!(list["items"].as_array().map(Vec::len), Some(2), "{list}");
    let access = as_chief.fair_play_access(game).await.body;
    let retries = access["items"]
        .as_array()
        .map(|items| items.iter().filter(|i| i["what"] == "retry").count());
    assert_eq!(retries, Some(2), "{access}");
}

#[actix_web::test]
async fn the_same_fair_play_event_id_with_other_content_is_refused_409() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let game = api.create_standard_game().await;
    let id = Uuid::new_v4();
    let note = |text: &str| {
        with_id(
            record(None, json!({"type": "fair_play_note", "text": text})),
            id,
        )
    };
    let first = as_chief
        .record_fair_play(game, &note(NOTE))
        .await
        .expect(201);
    let count = db.event_count().await;
    let reply = as_chief.record_fair_play(game, &note("another note")).await;
    assert_problem(&reply, 409, "event_id_reused");
    assert!(
        reply.body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("new event_id")),
        "the answer says what to do: {}",
        reply.body
    );
    // The same id for a record of another game.
    let other = api.create_standard_game().await;
    let reply = as_chief.record_fair_play(other, &note(NOTE)).await;
    assert_problem(&reply, 409, "event_id_reused");
    // The id of a board event of this game.
    let board_id = Uuid::new_v4();
    api.append_events(
        game,
        first["seq"].as_u64().expect("a seq"),
        json!([{"type": "move", "by": "white", "san": "e4", "event_id": board_id}]),
    )
    .await
    .expect(201);
    let reply = as_chief
        .record_fair_play(
            game,
            &with_id(
                record(None, json!({"type": "fair_play_note", "text": NOTE})),
                board_id,
            ),
        )
        .await;
    assert_problem(&reply, 409, "event_id_reused");
    assert_eq!(
        db.event_count().await,
        count + 2,
        "only the other game's creation and the move were stored"
    );
}

#[actix_web::test]
async fn a_fair_play_record_at_a_stale_place_is_refused_409_with_the_current_seq() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let game = api.create_standard_game().await;
    api.append_events(
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}]),
    )
    .await;
    let id = Uuid::new_v4();
    let mut body = with_id(
        record(None, json!({"type": "fair_play_note", "text": NOTE})),
        id,
    );
    body["expected_seq"] = json!(1);
    let reply = as_chief.record_fair_play(game, &body).await;
    assert_problem(&reply, 409, "stale_seq");
    assert_eq!(reply.body["current_seq"], 2, "{}", reply.body);
    body["expected_seq"] = json!(2);
    let stored = as_chief.record_fair_play(game, &body).await.expect(201);
    assert_eq!(stored["seq"], 3);
    // The retry names the same place: answered. Another place: the id is reused.
    as_chief.record_fair_play(game, &body).await.expect(200);
    body["expected_seq"] = json!(3);
    let reply = as_chief.record_fair_play(game, &body).await;
    assert_problem(&reply, 409, "event_id_reused");
}

#[actix_web::test]
async fn a_crash_before_the_public_row_leaves_no_payload_and_the_retry_is_stored() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    let game = api.create_standard_game().await;
    // The append of the public row fails after the payload was written (as a crash there
    // would): a trigger refuses every fair_play row.
    for statement in [
        "CREATE FUNCTION crash_here() RETURNS trigger LANGUAGE plpgsql AS \
         $$ BEGIN RAISE EXCEPTION 'the service died here'; END $$",
        "CREATE TRIGGER crash_here BEFORE INSERT ON events FOR EACH ROW \
         WHEN (NEW.event_type = 'fair_play') EXECUTE FUNCTION crash_here()",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(statement))
            .execute(db.store.pool())
            .await
            .expect(statement);
    }
    let id = Uuid::new_v4();
    let body = with_id(record(Some("black"), phone_on_person()), id);
    let failed = as_chief.record_fair_play(game, &body).await;
    assert!(failed.status >= 500, "{} {}", failed.status, failed.body);
    assert_eq!(
        payloads_stored(&db, id).await,
        0,
        "the payload is written in the row's transaction, so it went with it"
    );
    sqlx::query("DROP TRIGGER crash_here ON events")
        .execute(db.store.pool())
        .await
        .expect("drop the trigger");
    let stored = as_chief.record_fair_play(game, &body).await;
    assert_eq!(stored.status, 201, "the retry is stored: {}", stored.body);
    let stored = stored.body;
    assert_eq!(stored["events"][1]["event"]["type"], "game_ended");
    as_chief.record_fair_play(game, &body).await.expect(200);
    assert_eq!(payloads_stored(&db, id).await, 1);
    let audit = as_chief.audit_fair_play(game).await.body;
    assert_eq!(audit["intact"], true, "{audit}");
}

#[actix_web::test]
async fn the_fair_play_roles_set_the_tournaments_measures_on_its_page_and_a_wrong_figure_says_what_to_do()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let fpo = fair_play_token(&db, FairPlayRole::Fpo, None).await;
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

    // An arbiter without the capability sees no measures, and cannot send them.
    let arbiter = crate::office::signed_in(&api, &db.arbiter).await;
    let seen = crate::office::page_text(&api, &page, &arbiter).await;
    assert!(seen.contains("Test Open 2026"), "{seen}");
    assert!(!seen.contains("Fair-play measures"), "{seen}");

    let cookie = crate::office::signed_in(&api, &chief).await;
    let seen = crate::office::page_text(&api, &page, &cookie).await;
    assert!(seen.contains("Fair-play measures"), "{seen}");
    assert!(
        seen.contains("12.9.2 increasing the remaining time of the opponent"),
        "{seen}"
    );
    assert!(
        seen.contains("/office/fair-play?event=Test%20Open%202026"),
        "the report is linked"
    );
    let at = seen.find("name=\"csrf\" value=\"").expect("a form's token") + 19;
    let csrf = seen[at..at + seen[at..].find('"').expect("end")].to_string();
    let post = |cookie: &str, fields: Vec<(&str, &str)>| {
        let mut form: Vec<(String, String)> = vec![("csrf".into(), csrf.clone())];
        form.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        test::TestRequest::post()
            .uri(&format!("/office/events/{id}/fair-play-measures"))
            .insert_header(("Cookie", cookie.to_string()))
            .insert_header(("Origin", "http://localhost:8080"))
            .set_form(form)
    };
    // A deadline beyond a year is refused, saying what to do, and the form keeps what was typed.
    let response = api
        .call(post(
            &cookie,
            vec![("pens_banned", "on"), ("fair_play_report_days", "400")],
        ))
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let seen = crate::office::page_text(&api, &page, &cookie).await;
    assert!(
        seen.contains("Nothing was saved: The report&#39;s deadline must be a whole number of days from 0 to 365")
            || seen.contains("Nothing was saved: The report's deadline must be a whole number of days from 0 to 365"),
        "{seen}"
    );
    assert!(seen.contains("value=\"400\""), "{seen}");
    let unchanged = api.tournament(&id).await.body;
    assert!(
        unchanged["regulations"].get("electronic_devices").is_none(),
        "{unchanged}"
    );

    let response = api
        .call(post(
            &cookie,
            vec![
                ("bags_allowed", "on"),
                ("pens_banned", "on"),
                ("watches_banned", "on"),
                ("lesser_penalty", "opponent_time_increased"),
                ("fair_play_report_days", "7"),
            ],
        ))
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let seen = crate::office::page_text(&api, &page, &cookie).await;
    assert!(seen.contains("The fair-play measures were saved"), "{seen}");
    let stored = api.tournament(&id).await.body;
    assert_eq!(
        stored["regulations"]["electronic_devices"],
        json!({"bags_allowed": true, "lesser_penalty": "opponent_time_increased",
               "pens_banned": true, "watches_banned": true}),
        "{stored}"
    );
    assert_eq!(stored["regulations"]["fair_play_report_days"], 7);
    // 12.9.6 with ½ for the opponent is one choice of the list, and shows chosen again.
    let response = api
        .call(post(
            &cookie,
            vec![
                ("pens_banned", "on"),
                ("watches_banned", "on"),
                ("lesser_penalty", "game_lost:draw"),
                ("fair_play_report_days", "7"),
            ],
        ))
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let stored = api.tournament(&id).await.body;
    assert_eq!(
        stored["regulations"]["electronic_devices"],
        json!({"bags_allowed": false, "lesser_penalty": "game_lost",
               "lesser_penalty_opponent_score": "draw",
               "pens_banned": true, "watches_banned": true}),
        "{stored}"
    );
    let seen = crate::office::page_text(&api, &page, &cookie).await;
    assert!(
        seen.contains("<option value=\"game_lost:draw\" selected>"),
        "{seen}"
    );

    // A Fair Play Officer reads them, and cannot change them.
    let officer = crate::office::signed_in(&api, &fpo).await;
    let seen = crate::office::page_text(&api, &page, &officer).await;
    assert!(
        seen.contains("Fair-play measures") && seen.contains("pens banned"),
        "{seen}"
    );
    assert!(!seen.contains("Save the measures"), "{seen}");
    let at = seen.find("name=\"csrf\" value=\"").expect("a form's token") + 19;
    let officer_csrf = seen[at..at + seen[at..].find('"').expect("end")].to_string();
    let response = api
        .call(
            test::TestRequest::post()
                .uri(&format!("/office/events/{id}/fair-play-measures"))
                .insert_header(("Cookie", officer.clone()))
                .insert_header(("Origin", "http://localhost:8080"))
                .set_form([("csrf", officer_csrf.as_str())]),
        )
        .await;
    assert_eq!(response.status().as_u16(), 403);
}

#[actix_web::test]
async fn an_evidence_file_uploaded_at_the_fair_play_desk_is_listed_with_its_sha256() {
    use fantoccini::Locator;
    if !crate::browser::available() {
        return;
    }
    let db = TestDb::new().await;
    let office = crate::browser::Office::start(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let created: Value = reqwest::Client::new()
        .post(office.url("/v1/games"))
        .bearer_auth(&db.arbiter)
        .json(&crate::support::standard_game())
        .send()
        .await
        .expect("the API answers")
        .json()
        .await
        .expect("JSON");
    let game = created["game"]["game_id"]
        .as_str()
        .expect("a game id")
        .to_string();
    let scanner_log = b"2026-05-03 15:20:01 wand: metal at left ear, board 1 black\n".to_vec();
    let file = std::env::temp_dir().join(format!("scanner-{}.log", Uuid::new_v4()));
    std::fs::write(&file, &scanner_log).expect("write the file");
    let sha = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&scanner_log));

    // On a tablet's screen.
    let browser = crate::browser::Browser::open(800, 1280).await;
    browser.sign_in(&office, &chief).await;
    browser
        .client
        .goto(&office.url(&format!("/office/fair-play/games/{game}?form=evidence")))
        .await
        .expect("the desk");
    browser.wait_for("#evidence-form").await;
    browser
        .choose(
            Locator::Css("#evidence-form select[name=kind]"),
            "scanner_log",
        )
        .await;
    browser
        .choose(Locator::Css("#evidence-form select[name=player]"), "black")
        .await;
    browser
        .client
        .find(Locator::Id("evidence-file"))
        .await
        .expect("the file input")
        .send_keys(file.to_str().expect("a path"))
        .await
        .expect("choose the file");
    browser
        .click(Locator::Css("#evidence-form button[type=submit]"))
        .await;
    let flash = browser
        .wait_for("p.flash.stored")
        .await
        .text()
        .await
        .expect("text");
    assert!(
        flash.contains(&sha),
        "the SHA-256 is shown after the upload: {flash}"
    );
    let listed = browser.text(Locator::Css("code.sha256")).await;
    assert_eq!(listed, sha, "the event is listed with the file's SHA-256");
    let source = browser.source().await;
    assert!(source.contains(".log"), "the file's name is listed");
    browser
        .screenshot("fair-play-desk-tablet", 800, 1280, true)
        .await;
    let _ = std::fs::remove_file(&file);
    browser.close().await;
    office.stop().await;
}

#[actix_web::test]
async fn regulations_writing_loss_with_half_for_the_opponent_end_the_game_0_to_half_on_every_output()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let chief = fair_play_token(&db, FairPlayRole::ChiefArbiter, None).await;
    let as_chief = api.with_token(&chief);
    // An opponent's score with a penalty other than 12.9.6 is refused, naming the field.
    let mut settings = crate::support::standard_game();
    settings["regulations"] = json!({"electronic_devices": {
        "lesser_penalty": "warning", "lesser_penalty_opponent_score": "draw"}});
    let refused = api.create_game(&settings).await.expect(422);
    assert!(
        refused
            .to_string()
            .contains("lesser_penalty_opponent_score"),
        "{refused}"
    );
    // The regulations: a device on the person is a loss, the opponent scoring ½ (12.9.6).
    settings["regulations"] = json!({"electronic_devices": {
        "lesser_penalty": "game_lost", "lesser_penalty_opponent_score": "draw"}});
    let created = api.create_game(&settings).await.expect(201);
    let game: Uuid = created["game"]["game_id"]
        .as_str()
        .and_then(|id| id.parse().ok())
        .expect("a game id");
    api.append_events(
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"},
               {"type": "move", "by": "black", "san": "e5"}]),
    )
    .await
    .expect(201);
    let found = as_chief
        .record_fair_play(game, &record(Some("black"), phone_on_person()))
        .await
        .expect(201);
    let ended = &found["events"][1]["event"];
    assert_eq!(ended["type"], "game_ended", "{found}");
    assert_eq!(ended["result"], "1/2-0", "{found}");
    assert_eq!(ended["article"], "11.3.2.2, 12.9.6", "{found}");
    let state = api.game(game).await.expect(200);
    assert_eq!(state["state"]["result"], "1/2-0", "{state}");
    // The PGN writes the result in its tag and says it in words in the movetext.
    let pgn = pgn_text(&api, &db.reader, &format!("/v1/games/{game}/pgn")).await;
    assert!(pgn.contains("[Result \"1/2-0\"]"), "{pgn}");
    assert!(
        pgn.contains("{Black lost, White scores 1/2 (1/2-0)} *"),
        "{pgn}"
    );
    // The audit re-runs the game to the same end.
    let audit = api.audit(game).await.body;
    assert_eq!(audit["verdict"], "reproduced", "{audit}");
}

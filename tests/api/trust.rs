//! Trust: who may write what, least privilege in the database, offline verification of
//! exports, and hostile input.

use crate::client::{api, api_with_state};
use crate::support::{TestDb, assert_problem, bearer, standard_game};
use actix_web::test::{self, TestRequest};
use arbiter::access::Role;
use arbiter::integrity::{ChainDigest, verify_export};
use serde_json::{Value, json};
use uuid::Uuid;

#[derive(Clone, Copy, Debug)]
enum Who {
    Nobody,
    BadToken,
    Admin,
    Arbiter,
    Appeals,
    Reader,
}

fn token_of(db: &TestDb, who: Who) -> Option<String> {
    match who {
        Who::Nobody => None,
        Who::BadToken => Some("arb_not-a-real-token".into()),
        Who::Admin => Some(db.admin.clone()),
        Who::Arbiter => Some(db.arbiter.clone()),
        Who::Appeals => Some(db.appeals.clone()),
        Who::Reader => Some(db.reader.clone()),
    }
}

#[actix_web::test]
async fn each_role_against_each_route_is_allowed_or_refused_and_refusals_store_nothing() {
    let db = TestDb::new().await;
    // One bad token against every route is more failures than one address may make a
    // minute; the slowing down is tested in `operations`, here each answer is.
    let state = db.state_with(|config| config.auth_failures_per_minute = 10_000);
    let api = api_with_state(&db, state).await;
    let game = api.create_standard_game().await;
    let (victim, _) = db
        .store
        .create_token("victim", Role::Reader, None, "test")
        .await
        .unwrap();
    let who_all = [
        Who::Nobody,
        Who::BadToken,
        Who::Admin,
        Who::Arbiter,
        Who::Appeals,
        Who::Reader,
    ];
    // (method, uri, body, the roles allowed)
    let board_event = json!({"expected_seq": 0, "events": [{"type": "clock_adjust", "side": "white", "delta_ms": 1, "reason": "x"}]});
    let appeal_lodged = json!({"expected_seq": 0, "events": [{"type": "appeal_lodged", "by": "white", "against_seq": 1, "grounds": "x"}]});
    let appeal_decided = json!({"expected_seq": 0, "events": [{"type": "appeal_decided", "against_seq": 1, "upheld": false, "reason": "x"}]});
    let routes: Vec<(&str, String, Option<Value>, Vec<&str>)> = vec![
        (
            "POST",
            "/v1/games".into(),
            Some(standard_game()),
            vec!["arbiter"],
        ),
        (
            "GET",
            "/v1/games".into(),
            None,
            vec!["admin", "arbiter", "appeals", "reader"],
        ),
        (
            "GET",
            format!("/v1/games/{game}"),
            None,
            vec!["admin", "arbiter", "appeals", "reader"],
        ),
        (
            "GET",
            format!("/v1/games/{game}/events"),
            None,
            vec!["admin", "arbiter", "appeals", "reader"],
        ),
        (
            "GET",
            format!("/v1/games/{game}/digest"),
            None,
            vec!["admin", "arbiter", "appeals", "reader"],
        ),
        (
            "GET",
            format!("/v1/games/{game}/export"),
            None,
            vec!["admin", "arbiter", "appeals", "reader"],
        ),
        (
            "GET",
            "/v1/feed".into(),
            None,
            vec!["admin", "arbiter", "appeals", "reader"],
        ),
        (
            "POST",
            format!("/v1/games/{game}/events"),
            Some(board_event),
            vec!["arbiter"],
        ),
        (
            "POST",
            format!("/v1/games/{game}/events"),
            Some(appeal_lodged),
            vec!["arbiter", "appeals"],
        ),
        (
            "POST",
            format!("/v1/games/{game}/events"),
            Some(appeal_decided),
            vec!["appeals"],
        ),
        (
            "POST",
            "/v1/tokens".into(),
            Some(json!({"name": "n", "role": "reader"})),
            vec!["admin"],
        ),
        ("GET", "/v1/tokens".into(), None, vec!["admin"]),
        (
            "DELETE",
            format!("/v1/tokens/{}", victim.token_id),
            None,
            vec!["admin"],
        ),
    ];
    for (method, uri, body, allowed) in &routes {
        for who in who_all {
            let events_before = db.event_count().await;
            let mut request = match *method {
                "GET" => TestRequest::get(),
                "DELETE" => TestRequest::delete(),
                _ => TestRequest::post(),
            }
            .uri(uri);
            if let Some(token) = token_of(&db, who) {
                request = request.insert_header(bearer(&token));
            }
            if let Some(body) = body {
                let mut body = body.clone();
                if body.get("expected_seq").is_some() {
                    body["expected_seq"] = json!(db.store.last_seq(game).await.unwrap().unwrap());
                }
                request = request.set_json(body);
            }
            // Built here with its own token, or none, or a bad one.
            let reply = api.send_as_built(request).await;
            let role = format!("{who:?}").to_lowercase();
            match who {
                Who::Nobody => assert_problem(&reply, 401, "missing_token"),
                Who::BadToken => assert_problem(&reply, 401, "invalid_token"),
                _ if allowed.contains(&role.as_str()) => {
                    assert!(
                        reply.status < 300,
                        "{method} {uri} as {role} is allowed: {} {}",
                        reply.status,
                        reply.body
                    )
                }
                _ => {
                    assert_problem(&reply, 403, "forbidden");
                    assert_eq!(
                        db.event_count().await,
                        events_before,
                        "{method} {uri} as {role} stored nothing"
                    );
                }
            }
        }
    }
    // Health, readiness, the document and the docs stay open.
    for uri in ["/healthz", "/readyz", "/api-docs/openapi.json", "/docs/"] {
        let response = api.call(TestRequest::get().uri(uri)).await;
        assert_eq!(response.status(), 200, "{uri} is open");
    }
}

#[actix_web::test]
async fn a_token_revoked_outside_this_instance_stops_working_within_the_cache_time() {
    let db = TestDb::new().await;
    let api = api_with_state(&db, db.state_with(|config| config.token_cache_ms = 400)).await;
    let (info, token) = db
        .store
        .create_token("Relay", Role::Reader, None, "test")
        .await
        .unwrap();
    let relay = api.with_token(&token);
    assert_eq!(relay.games("").await.status, 200);
    // Revoked as `arbiter token revoke` (another process) does: this instance is not told.
    db.store.revoke_token(info.token_id).await.unwrap();
    let revoked_at = std::time::Instant::now();
    let mut refused_after = None;
    while revoked_at.elapsed() < std::time::Duration::from_secs(3) {
        let reply = relay.games("").await;
        if reply.status == 401 {
            reply.problem(401, "invalid_token");
            refused_after = Some(revoked_at.elapsed());
            break;
        }
        assert_eq!(reply.status, 200, "{}", reply.body);
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let refused_after = refused_after.expect("the revoked token is refused within the cache time");
    assert!(
        refused_after <= std::time::Duration::from_millis(400 + 200),
        "refused only after {refused_after:?}"
    );
}

#[actix_web::test]
async fn an_expiring_token_is_never_trusted_past_its_expiry_whatever_the_cache_time() {
    let db = TestDb::new().await;
    let api = api_with_state(&db, db.state_with(|config| config.token_cache_ms = 60_000)).await;
    let expires_at = chrono::Utc::now() + chrono::Duration::milliseconds(1500);
    let (_, token) = db
        .store
        .create_expiring_token("Relay", Role::Reader, None, Some(expires_at), "test")
        .await
        .unwrap();
    let relay = api.with_token(&token);
    assert_eq!(relay.games("").await.status, 200, "remembered from now on");
    let wait = (expires_at - chrono::Utc::now())
        .to_std()
        .unwrap_or_default();
    tokio::time::sleep(wait + std::time::Duration::from_millis(100)).await;
    relay.games("").await.problem(401, "token_expired");
}

#[actix_web::test]
async fn a_token_revoked_or_rotated_through_this_instance_is_refused_at_once_though_remembered() {
    let db = TestDb::new().await;
    let api = api_with_state(&db, db.state_with(|config| config.token_cache_ms = 60_000)).await;
    let mut tokens = Vec::new();
    for _ in 0..2 {
        let (info, token) = db
            .store
            .create_token("Deputy", Role::Reader, None, "test")
            .await
            .unwrap();
        let status = api.with_token(&token).games("").await.status;
        assert_eq!(status, 200, "used, so remembered");
        tokens.push((info.token_id, token));
    }
    let (revoked_id, revoked) = &tokens[0];
    let as_admin = api.with_token(&db.admin);
    as_admin.revoke_token(revoked_id).await.expect(200);
    api.with_token(revoked)
        .games("")
        .await
        .problem(401, "invalid_token");
    let (rotated_id, rotated) = &tokens[1];
    as_admin
        .rotate_token(rotated_id, &json!({}))
        .await
        .expect(201);
    api.with_token(rotated)
        .games("")
        .await
        .problem(401, "invalid_token");
}

#[actix_web::test]
async fn a_revoked_token_stops_working_at_once() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let as_admin = api.with_token(&db.admin);
    let created = as_admin
        .create_token(&json!({"name": "Deputy", "role": "reader"}))
        .await
        .expect(201);
    let token = created["token"].as_str().unwrap().to_string();
    let id = created["info"]["token_id"].as_str().unwrap().to_string();
    let deputy = api.with_token(&token);
    deputy.games("").await.expect(200);
    let listed = as_admin.list_tokens().await.expect(200);
    assert!(
        !listed.to_string().contains(&token),
        "the token itself is never listed"
    );
    let revoked = as_admin.revoke_token(&id).await.expect(200);
    assert!(revoked["revoked_at"].is_string());
    deputy.games("").await.problem(401, "invalid_token");
}

#[actix_web::test]
async fn an_arbiter_scoped_to_one_event_cannot_write_to_another_events_games() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let other_game = api.create_standard_game().await; // event "Test Open 2026"
    let (_, scoped) = db
        .store
        .create_token(
            "Scoped arbiter",
            Role::Arbiter,
            Some(&["Junior Cup".to_string()]),
            "test",
        )
        .await
        .unwrap();
    let mut junior = standard_game();
    junior["event"] = json!("Junior Cup");
    let scoped = api.with_token(&scoped);
    let reply = scoped.create_game(&junior).await;
    assert_eq!(
        reply.status, 201,
        "its own event is allowed: {}",
        reply.body
    );
    scoped
        .create_game(&standard_game())
        .await
        .problem(403, "forbidden");
    let before = db.event_count().await;
    scoped
        .append_events(other_game, 1, json!([{"type": "resign", "by": "white"}]))
        .await
        .problem(403, "forbidden");
    assert_eq!(db.event_count().await, before);
}

#[actix_web::test]
async fn the_service_database_role_cannot_update_delete_or_truncate_events() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    api.create_standard_game().await;
    for statement in [
        "UPDATE events SET recorded_by = 'x'",
        "DELETE FROM events",
        "TRUNCATE events",
    ] {
        let error = sqlx::query(statement)
            .execute(db.service.pool())
            .await
            .expect_err(statement);
        assert!(
            error.to_string().contains("permission denied"),
            "{statement}: {error}"
        );
    }
    let user: String = sqlx::query_scalar("SELECT current_user::text")
        .fetch_one(db.service.pool())
        .await
        .unwrap();
    assert_eq!(user, "arbiter_service");
    assert_eq!(db.event_count().await, 1);
}

/// Records a game with awkward text (quotes, backslashes, newlines, control characters,
/// non-ASCII, SQL metacharacters) and returns its export and digest.
async fn awkward_export(db: &TestDb) -> (String, ChainDigest) {
    let api = api(db).await;
    let game = api.create_standard_game().await;
    let texts = [
        "Robert'); DROP TABLE events;--",
        "quote \" backslash \\ slash / tab \t newline \n cr \r bell \u{7} esc \u{1b}",
        "Ŝáñçhez–Łukasz 国际象棋 ♔♕♖ 🏁 \u{2028}",
        &"ü".repeat(1500),
    ];
    let mut seq = 1;
    for text in texts {
        api.append_events(game, seq, json!([
            {"type": "clock_adjust", "side": "black", "delta_ms": -120000, "reason": text, "occurred_at": "2026-11-22T10:00:00.5Z", "clock": {"white_ms": 1, "black_ms": null}}
        ])).await.expect(201);
        seq += 1;
    }
    api.append_events(
        game,
        seq,
        json!([{"type": "move", "by": "white", "san": "e4"}]),
    )
    .await
    .expect(201);
    // The response itself, for its media type.
    let response = api
        .call(db.get().uri(&format!("/v1/games/{game}/export")))
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers().get("content-type").unwrap(),
        "application/x-ndjson"
    );
    let export = String::from_utf8(test::read_body(response).await.to_vec()).unwrap();
    let digest = api.digest(game).await.body;
    (export, serde_json::from_value(digest).unwrap())
}

#[actix_web::test]
async fn an_export_verifies_offline_and_matches_the_digest() {
    let db = TestDb::new().await;
    let (export, digest) = awkward_export(&db).await;
    let verified = verify_export(&export, Some(&digest)).expect("the export verifies");
    assert_eq!(verified.events, 6);
    assert_eq!(verified.head, digest);
}

#[actix_web::test]
async fn a_flipped_byte_in_any_payload_is_detected_and_named() {
    let db = TestDb::new().await;
    let (export, digest) = awkward_export(&db).await;
    let lines: Vec<&str> = export.lines().collect();
    for (index, line) in lines.iter().enumerate() {
        let mut envelope: Value = serde_json::from_str(line).unwrap();
        // Flip one byte of the payload: the last character of its `type`-independent text.
        let tampered_text = envelope["event"].to_string();
        let position = tampered_text
            .rfind(|c: char| c.is_ascii_alphanumeric())
            .unwrap();
        let mut bytes = tampered_text.into_bytes();
        bytes[position] ^= 0x01;
        envelope["event"] = match serde_json::from_slice(&bytes) {
            Ok(value) => value,
            Err(_) => continue,
        };
        let mut copy: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        copy[index] = envelope.to_string();
        let broken = verify_export(&(copy.join("\n") + "\n"), Some(&digest))
            .expect_err("tampering is detected");
        assert_eq!(broken.line, index + 1, "the line is named: {broken}");
        assert_eq!(
            broken.seq,
            Some(index as u64 + 1),
            "the seq is named: {broken}"
        );
    }
}

#[actix_web::test]
async fn reordered_lines_and_a_dropped_last_line_are_detected() {
    let db = TestDb::new().await;
    let (export, digest) = awkward_export(&db).await;
    let lines: Vec<&str> = export.lines().collect();
    let mut swapped = lines.clone();
    swapped.swap(2, 3);
    let broken =
        verify_export(&swapped.join("\n"), Some(&digest)).expect_err("reordering is detected");
    assert_eq!((broken.line, broken.seq), (3, Some(3)), "{broken}");
    let dropped = lines[..lines.len() - 1].join("\n");
    let broken = verify_export(&dropped, Some(&digest))
        .expect_err("a dropped last line is detected against the digest");
    assert!(broken.reason.contains("truncated"), "{broken}");
    assert!(
        verify_export(&dropped, None).is_ok(),
        "without a digest, a truncated copy is only a shorter chain"
    );
}

#[actix_web::test]
async fn the_verify_command_checks_an_export_file_offline() {
    let db = TestDb::new().await;
    let (export, digest) = awkward_export(&db).await;
    let dir = std::env::temp_dir().join(format!("arbiter-verify-{}", Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.jsonl");
    std::fs::write(&good, &export).unwrap();
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, export.replacen("DROP TABLE", "DROP TABLF", 1)).unwrap();
    let run = |file: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .arg("verify")
            .arg(file)
            .args([
                "--digest-seq",
                &digest.seq.to_string(),
                "--digest-hash",
                &digest.hash,
            ])
            .env_remove("DATABASE_URL")
            .output()
            .expect("run arbiter verify")
    };
    let ok = run(&good);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
    let broken = run(&bad);
    assert_eq!(broken.status.code(), Some(2));
    let said = String::from_utf8_lossy(&broken.stdout);
    assert!(said.contains("line 2 (seq 2)"), "{said}");
    std::fs::remove_dir_all(dir).ok();
}

#[actix_web::test]
async fn hostile_text_is_stored_exactly_or_refused_never_a_server_error() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let before = db.event_count().await;
    for (body, status, field) in [
        (
            json!({"expected_seq": 1, "events": [{"type": "clock_adjust", "side": "white", "delta_ms": 1, "reason": "nul \u{0} byte"}]}),
            422,
            "events[0].reason",
        ),
        (
            json!({"expected_seq": 1, "events": [{"type": "touch", "by": "white", "square": "e2'; DELETE FROM events;--"}]}),
            422,
            "events[0].square",
        ),
        (
            json!({"expected_seq": 1, "events": [{"type": "move", "by": "white", "san": "e4".repeat(100)}]}),
            422,
            "events[0].san",
        ),
        (
            json!({"expected_seq": 1, "events": [{"type": "clock_adjust", "side": "white", "delta_ms": 1, "reason": "ß".repeat(5000)}]}),
            422,
            "events[0].reason",
        ),
        (
            json!({"expected_seq": 18446744073709551615u64, "events": [{"type": "resign", "by": "white"}]}),
            422,
            "expected_seq",
        ),
        (
            json!({"expected_seq": 1, "events": [{"type": "clock_adjust", "side": "white", "delta_ms": 9223372036854775807i64, "reason": "x"}]}),
            0,
            "",
        ),
    ] {
        // The whole body as sent, out-of-range numbers included.
        let reply = api.post(&format!("/v1/games/{game}/events"), &body).await;
        assert!(
            reply.status < 500,
            "never a server error: {} {}",
            reply.status,
            reply.body
        );
        if status != 0 {
            assert_eq!(reply.status, status, "{}", reply.body);
        }
        if !field.is_empty() {
            assert_eq!(reply.body["field"], field, "{}", reply.body);
        }
        if reply.status >= 400 {
            assert_eq!(
                db.event_count().await,
                before + if reply.status < 300 { 1 } else { 0 }
            );
        }
    }
    for uri in [
        "/v1/games?event=%00",
        "/v1/games?round=%27%20OR%201%3D1--",
        "/v1/games?limit=-1",
        "/v1/games?limit=99999999999999999999999",
        "/v1/feed?after=1-2-3",
        "/v1/feed?after=99999999999999999999-1",
        "/v1/games/00000000-0000-0000-0000-000000000000/events?after=-5",
    ] {
        let reply = api.get(uri).await;
        assert!(reply.status < 500, "{uri}: {} {}", reply.status, reply.body);
    }
    let mut settings = standard_game();
    settings["event"] = json!("Ŝáñçhez' OR '1'='1 国际象棋");
    settings["white"]["name"] = json!("O'Brien; DROP TABLE games;--");
    let body = api.create_game(&settings).await.expect(201);
    assert_eq!(
        body["game"]["white"], "O'Brien; DROP TABLE games;--",
        "stored exactly"
    );
}

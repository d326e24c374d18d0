//! Operations: metrics and their access rule, request ids in headers, logs and 500 bodies,
//! security headers, slowing down failed authentications, tokens that expire, rotate and
//! show when they were last used, and read positions checked without a replica.

use crate::client::{Api, Reply, api, api_with_state};
use crate::support::{TestDb, assert_problem, bearer, send, send_raw, standard_game};
use actix_web::http::header::HeaderMap;
use actix_web::test::{self, TestRequest};
use arbiter::access::Role;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use uuid::Uuid;

/// One sample of the Prometheus text: name, labels, value.
#[derive(Debug)]
struct Sample {
    name: String,
    labels: BTreeMap<String, String>,
    value: f64,
}

/// Parses the Prometheus text format (the parts the service writes).
fn samples(text: &str) -> Vec<Sample> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| {
            let (series, value) = line.rsplit_once(' ')?;
            let value: f64 = value.parse().ok()?;
            let (name, labels) = match series.split_once('{') {
                Some((name, rest)) => (name, rest.strip_suffix('}')?),
                None => (series, ""),
            };
            let labels = labels
                .split("\",")
                .filter(|pair| !pair.is_empty())
                .filter_map(|pair| {
                    let (key, value) = pair.split_once("=\"")?;
                    Some((key.to_string(), value.trim_end_matches('"').to_string()))
                })
                .collect();
            Some(Sample {
                name: name.to_string(),
                labels,
                value,
            })
        })
        .collect()
}

/// The value of the series `name` whose labels include `labels` (0 when absent).
fn value(text: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    samples(text)
        .iter()
        .filter(|s| {
            s.name == name
                && labels
                    .iter()
                    .all(|(k, v)| s.labels.get(*k).map(String::as_str) == Some(*v))
        })
        .map(|s| s.value)
        .sum()
}

fn has_series(text: &str, name: &str, labels: &[(&str, &str)]) -> bool {
    samples(text).iter().any(|s| {
        s.name == name
            && labels
                .iter()
                .all(|(k, v)| s.labels.get(*k).map(String::as_str) == Some(*v))
    })
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Sends a request exactly as built; returns the status, the response headers and the body
/// as text (what these tests check: the headers every answer carries).
async fn with_headers(api: &Api<'_>, request: TestRequest) -> (u16, HeaderMap, String) {
    let response = api.call(request).await;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = test::read_body(response).await;
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

#[actix_web::test]
async fn metrics_count_requests_by_route_pattern_appends_refusals_and_rulings_for_an_admin_only() {
    let db = TestDb::new().await;
    let state = db.state();
    let api = api_with_state(&db, state.clone()).await;
    let scrape = |token: &str| {
        TestRequest::get()
            .uri("/metrics")
            .insert_header(bearer(token))
    };
    let (status, headers, before) = with_headers(&api, scrape(&db.admin)).await;
    assert_eq!(status, 200, "{before}");
    assert!(
        header(&headers, "content-type").is_some_and(|t| t.starts_with("text/plain")),
        "{headers:?}"
    );

    let game = api.create_standard_game().await;
    let missing = Uuid::new_v4();
    for _ in 0..3 {
        let status = api.game(missing).await.status;
        assert_eq!(status, 404);
    }
    api.append_events(
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "resign", "by": "black"}]),
    )
    .await
    .expect(201);
    let status = api.game(game).await.status;
    assert_eq!(status, 200);

    let (status, _, after) = with_headers(&api, scrape(&db.admin)).await;
    assert_eq!(status, 200, "{after}");
    let delta = |name: &str, labels: &[(&str, &str)]| {
        value(&after, name, labels) - value(&before, name, labels)
    };
    let not_found = [
        ("method", "GET"),
        ("route", "/v1/games/{id}"),
        ("status", "404"),
    ];
    assert!(
        delta("arbiter_http_requests_total", &not_found) >= 3.0,
        "{after}"
    );
    assert!(
        has_series(
            &after,
            "arbiter_http_request_duration_seconds_bucket",
            &[("route", "/v1/games/{id}"), ("le", "0.005")]
        ),
        "latency histogram with buckets: {after}"
    );
    assert!(
        !after.contains(&missing.to_string()) && !after.contains(&game.to_string()),
        "labels carry route patterns, never raw paths"
    );
    assert!(
        delta(
            "arbiter_refusals_total",
            &[("code", "game_not_found"), ("status", "404")]
        ) >= 3.0
    );
    assert!(delta("arbiter_appends_total", &[("outcome", "stored")]) >= 1.0);
    assert!(delta("arbiter_events_stored_total", &[("origin", "recorded")]) >= 2.0);
    assert!(delta("arbiter_events_stored_total", &[("origin", "decision")]) >= 1.0);
    assert!(delta("arbiter_events_stored_total", &[("origin", "game_created")]) >= 1.0);
    assert!(
        delta(
            "arbiter_rulings_total",
            &[("kind", "game_ended"), ("outcome", "resignation")]
        ) >= 1.0,
        "{after}"
    );
    assert!(
        delta("arbiter_warm_game_lookups_total", &[("result", "miss")])
            + delta("arbiter_warm_game_lookups_total", &[("result", "hit")])
            >= 1.0
    );
    for (name, labels) in [
        ("arbiter_warm_games", vec![]),
        (
            "arbiter_db_pool_connections",
            vec![("pool", "primary"), ("state", "idle")],
        ),
        (
            "arbiter_db_pool_connections",
            vec![("pool", "primary"), ("state", "busy")],
        ),
        ("arbiter_db_pool_max_connections", vec![("pool", "primary")]),
        ("arbiter_stream_subscribers", vec![]),
        ("arbiter_reads_total", vec![("served_by", "primary")]),
    ] {
        assert!(
            has_series(&after, name, &labels),
            "{name} {labels:?}: {after}"
        );
    }
    assert!(after.contains("# HELP arbiter_http_requests_total"));

    // The access rule: an admin token on the service's address; nobody else there.
    api.send_as_built(TestRequest::get().uri("/metrics"))
        .await
        .problem(401, "missing_token");
    for token in [&db.arbiter, &db.reader, &db.appeals] {
        api.send_as_built(scrape(token))
            .await
            .problem(403, "forbidden");
    }
    // The separate metrics address needs no token, and serves nothing else: it is another
    // app than the API's, so it is called directly.
    let metrics_app = test::init_service(arbiter::http::metrics::metrics_app(state)).await;
    let (status, headers, open) = send_raw(&metrics_app, TestRequest::get().uri("/metrics")).await;
    assert_eq!(status, 200);
    assert!(open.contains("arbiter_http_requests_total"));
    assert_eq!(header(&headers, "x-content-type-options"), Some("nosniff"));
    let reply = send(&metrics_app, TestRequest::get().uri("/v1/games")).await;
    assert_problem(&reply, 404, "no_such_route");
}

#[actix_web::test]
async fn a_500_names_its_request_id_which_is_the_header_and_the_key_of_its_log_line() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    // Someone with database access appends a row this version cannot read: the chain
    // accepts it (the trigger links it), decoding it fails, and reading the log is a 500.
    sqlx::query(
        "INSERT INTO events (game_id, seq, event_id, batch_id, event_type, payload, recorded_by, \
         prev_hash, hash) VALUES ($1, 2, $2, $2, 'move', \
         '{\"type\": \"move\", \"by\": \"purple\", \"san\": \"e4\"}', 'sql', ''::bytea, ''::bytea)",
    )
    .bind(game)
    .bind(Uuid::new_v4())
    .execute(db.store.pool())
    .await
    .expect("the owner appends a row");

    let (log, capturing) = crate::support::capture_log();
    let (status, headers, body) =
        with_headers(&api, db.get().uri(&format!("/v1/games/{game}/events"))).await;
    drop(capturing);

    assert_eq!(status, 500, "{body}");
    assert_eq!(
        header(&headers, "content-type"),
        Some("application/problem+json")
    );
    let problem: Value = serde_json::from_str(&body).expect("a problem body");
    assert_eq!(problem["code"], "internal_error");
    let request_id = header(&headers, "x-request-id").expect("X-Request-Id");
    assert!(request_id.parse::<Uuid>().is_ok(), "{request_id}");
    assert_eq!(problem["request_id"], request_id, "{problem}");
    assert!(
        !body.contains("purple") && !body.contains("decode"),
        "no internals leak: {body}"
    );

    let text = log.text();
    let lines: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON log lines"))
        .collect();
    let request_line = lines
        .iter()
        .find(|line| line["fields"]["request_id"] == request_id)
        .unwrap_or_else(|| panic!("a log line with request_id {request_id}: {text}"));
    assert_eq!(request_line["fields"]["status"], 500);
    assert_eq!(request_line["fields"]["route"], "/v1/games/{id}/events");
    let cause_line = lines
        .iter()
        .find(|line| line["level"] == "ERROR" && line["span"]["request_id"] == request_id)
        .unwrap_or_else(|| panic!("the cause logged in the request's span: {text}"));
    assert!(
        cause_line.to_string().contains("cannot be decoded"),
        "the cause chain is in the log: {cause_line}"
    );

    // Every answer carries an id, a fresh one each time.
    let (_, first, _) = with_headers(&api, TestRequest::get().uri("/healthz")).await;
    let (_, second, _) = with_headers(&api, TestRequest::get().uri("/healthz")).await;
    assert_ne!(
        header(&first, "x-request-id"),
        header(&second, "x-request-id")
    );
}

#[actix_web::test]
async fn every_answer_carries_the_security_headers() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let requests = [
        TestRequest::get().uri("/healthz"),
        TestRequest::get().uri("/v1/games"),
        db.get().uri("/v1/games"),
        db.get().uri("/v1/no-such-thing"),
        TestRequest::get().uri("/docs/"),
        TestRequest::get().uri("/api-docs/openapi.json"),
        db.post().uri("/v1/games").set_json(standard_game()),
    ];
    for request in requests {
        let (status, headers, body) = with_headers(&api, request).await;
        assert!(status < 500, "{status} {body}");
        assert_eq!(header(&headers, "x-content-type-options"), Some("nosniff"));
        assert_eq!(header(&headers, "referrer-policy"), Some("no-referrer"));
        assert_eq!(
            header(&headers, "content-security-policy"),
            Some("frame-ancestors 'none'")
        );
        assert_eq!(header(&headers, "x-frame-options"), Some("DENY"));
        assert!(header(&headers, "x-request-id").is_some());
    }
}

#[actix_web::test]
async fn repeated_failed_authentications_from_one_address_are_slowed_but_a_valid_token_is_not() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let attacker: SocketAddr = "192.0.2.1:40000".parse().unwrap();
    let neighbour: SocketAddr = "192.0.2.2:40000".parse().unwrap();
    let guess = |from: SocketAddr| {
        TestRequest::get()
            .uri("/v1/games")
            .peer_addr(from)
            .insert_header(bearer(&format!("arb_guess-{}", Uuid::new_v4())))
    };
    for attempt in 1..=10 {
        let reply = api.send_as_built(guess(attacker)).await;
        assert_eq!(
            reply.status, 401,
            "attempt {attempt} is judged: {}",
            reply.body
        );
    }
    let (status, headers, body) = with_headers(&api, guess(attacker)).await;
    assert_eq!(status, 429, "{body}");
    let retry_after: u64 = header(&headers, "retry-after")
        .and_then(|v| v.parse().ok())
        .expect("Retry-After in seconds");
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    let problem: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(problem["code"], "too_many_failed_authentications");
    assert_eq!(
        header(&headers, "content-type"),
        Some("application/problem+json")
    );

    // A valid token from the same address works at once, every time.
    for _ in 0..3 {
        let (status, _, body) = with_headers(
            &api,
            TestRequest::get()
                .uri("/v1/games")
                .peer_addr(attacker)
                .insert_header(bearer(&db.reader)),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, _, _) = with_headers(
        &api,
        db.post()
            .uri("/v1/games")
            .peer_addr(attacker)
            .set_json(standard_game()),
    )
    .await;
    assert_eq!(status, 201, "a valid arbiter token still writes");
    // Another address is not held to the attacker's count.
    api.send_as_built(guess(neighbour))
        .await
        .problem(401, "invalid_token");
    // The attacker stays slowed down.
    let (status, _, _) = with_headers(&api, guess(attacker)).await;
    assert_eq!(status, 429);
}

/// Creates a token through the API as the admin; returns the status and the answer (the
/// token and its information, or a problem).
async fn create_token(api: &Api<'_>, db: &TestDb, body: Value) -> (u16, Value) {
    let reply = api.with_token(&db.admin).post("/v1/tokens", &body).await;
    (reply.status, reply.body)
}

fn seconds_from_now(text: &Value) -> i64 {
    let at: chrono::DateTime<chrono::Utc> = text
        .as_str()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("a time: {text}"));
    (at - chrono::Utc::now()).num_seconds()
}

#[actix_web::test]
async fn an_expired_token_is_refused_with_token_expired_and_tokens_without_expiry_keep_working() {
    let db = TestDb::new().await;
    // The database's own rule, moved in time by SQL: every request asks the database (the
    // service's short memory of valid tokens is tested in trust.rs).
    let api = api_with_state(&db, db.state_with(|config| config.token_cache_ms = 0)).await;
    let (status, created) = create_token(
        &api,
        &db,
        json!({"name": "Relay, round 1", "role": "reader", "expires_in": "12h"}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let lifetime = seconds_from_now(&created["info"]["expires_at"]);
    assert!(
        (12 * 3600 - 60..=12 * 3600).contains(&lifetime),
        "{lifetime}"
    );
    let token = created["token"].as_str().unwrap().to_string();
    let token_id: Uuid = created["info"]["token_id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let read = |token: &str| api.with_token(token);
    let status = read(&token).get("/v1/games").await.status;
    assert_eq!(status, 200, "a token before its expiry works");

    // Thirteen hours pass (the clock is the database's: move the token's times back).
    sqlx::query(
        "UPDATE api_tokens SET created_at = created_at - interval '13 hours', \
         expires_at = expires_at - interval '13 hours' WHERE token_id = $1",
    )
    .bind(token_id)
    .execute(db.store.pool())
    .await
    .unwrap();
    let reply = read(&token).get("/v1/games").await;
    assert_problem(&reply, 401, "token_expired");
    let detail = reply.body["detail"].as_str().unwrap();
    assert!(
        detail.contains("expired at") && detail.contains(&token_id.to_string()),
        "{detail}"
    );

    // A token made without an expiry (as every token before migration 0004) still works.
    let status = read(&db.reader).get("/v1/games").await.status;
    assert_eq!(status, 200);

    // Expiries that cannot be meant are refused, naming the field.
    for (body, field) in [
        (
            json!({"name": "x", "role": "reader", "expires_at": "2001-01-01T00:00:00Z"}),
            "expires_at",
        ),
        (
            json!({"name": "x", "role": "reader", "expires_in": "soon"}),
            "expires_in",
        ),
        (
            json!({"name": "x", "role": "reader", "expires_in": "1h", "expires_at": "2999-01-01T00:00:00Z"}),
            "expires_in",
        ),
    ] {
        let (status, problem) = create_token(&api, &db, body).await;
        assert_eq!(status, 422, "{problem}");
        assert_eq!(problem["field"], field, "{problem}");
    }
}

#[actix_web::test]
async fn rotating_a_token_gives_one_with_the_same_rights_and_revokes_or_winds_down_the_old_one() {
    let db = TestDb::new().await;
    // The database's own rule, moved in time by SQL: every request asks the database (the
    // service's short memory of valid tokens is tested in trust.rs).
    let api = api_with_state(&db, db.state_with(|config| config.token_cache_ms = 0)).await;
    let (status, created) = create_token(
        &api,
        &db,
        json!({"name": "Arbiter, board 1-10", "role": "arbiter", "events": ["Test Open 2026"], "expires_in": "90d"}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let old = created["token"].as_str().unwrap().to_string();
    let old_id = created["info"]["token_id"].as_str().unwrap().to_string();
    let rotate = |id: &str, body: Option<Value>| {
        let request = TestRequest::post()
            .uri(&format!("/v1/tokens/{id}/rotate"))
            .insert_header(bearer(&db.admin));
        match body {
            Some(body) => request.set_json(body),
            None => request,
        }
    };

    let Reply {
        status,
        body: rotated,
        ..
    } = api.send_as_built(rotate(&old_id, None)).await;
    assert_eq!(status, 201, "{rotated}");
    let new = rotated["token"].as_str().unwrap().to_string();
    assert_ne!(new, old);
    let info = &rotated["info"];
    assert_eq!(info["name"], "Arbiter, board 1-10");
    assert_eq!(info["role"], "arbiter");
    assert_eq!(info["events"], json!(["Test Open 2026"]));
    assert_eq!(info["rotated_from"], old_id.as_str());
    let lifetime = seconds_from_now(&info["expires_at"]);
    assert!(
        (90 * 86_400 - 120..=90 * 86_400).contains(&lifetime),
        "the old token's lifetime, from now: {lifetime}"
    );
    assert!(rotated["replaced"]["revoked_at"].is_string(), "{rotated}");

    // The new token writes within its events, and only there; the old one is gone at once.
    api.with_token(&new)
        .create_game(&standard_game())
        .await
        .expect(201);
    let mut elsewhere = standard_game();
    elsewhere["event"] = json!("Another Open 2026");
    let reply = api.with_token(&new).create_game(&elsewhere).await;
    assert_problem(&reply, 403, "forbidden");
    let reply = api.with_token(&old).get("/v1/games").await;
    assert_problem(&reply, 401, "invalid_token");
    let reply = api.send_as_built(rotate(&old_id, None)).await;
    assert_problem(&reply, 409, "token_revoked");
    let reply = api
        .send_as_built(rotate(&Uuid::new_v4().to_string(), None))
        .await;
    assert_problem(&reply, 404, "token_not_found");

    // With a grace period, the old token works until it ends, then is expired.
    let new_id = info["token_id"].as_str().unwrap().to_string();
    let Reply {
        status,
        body: graced,
        ..
    } = api
        .send_as_built(rotate(
            &new_id,
            Some(json!({"grace": "1h", "expires_in": "30d"})),
        ))
        .await;
    assert_eq!(status, 201, "{graced}");
    assert!(graced["replaced"]["revoked_at"].is_null(), "{graced}");
    let grace = seconds_from_now(&graced["replaced"]["expires_at"]);
    assert!((3600 - 60..=3600).contains(&grace), "{grace}");
    let lifetime = seconds_from_now(&graced["info"]["expires_at"]);
    assert!((30 * 86_400 - 60..=30 * 86_400).contains(&lifetime));
    let read = |token: &str| api.with_token(token);
    let status = read(&new).get("/v1/games").await.status;
    assert_eq!(
        status, 200,
        "the replaced token works during the grace period"
    );
    let newest = graced["token"].as_str().unwrap().to_string();
    let status = read(&newest).get("/v1/games").await.status;
    assert_eq!(status, 200);
    sqlx::query(
        "UPDATE api_tokens SET created_at = created_at - interval '2 hours', \
         expires_at = expires_at - interval '2 hours' WHERE token_id = $1",
    )
    .bind(new_id.parse::<Uuid>().unwrap())
    .execute(db.store.pool())
    .await
    .unwrap();
    let reply = read(&new).get("/v1/games").await;
    assert_problem(&reply, 401, "token_expired");
    let newest_id = graced["info"]["token_id"].as_str().unwrap().to_string();
    let reply = api
        .send_as_built(rotate(&newest_id, Some(json!({"grace": "60d"}))))
        .await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert_eq!(reply.body["field"], "grace");
}

#[actix_web::test]
async fn arbiter_token_rotate_prints_a_new_token_once_and_the_old_one_winds_down() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let (old_info, old) = db
        .store
        .create_token("Relay", Role::Reader, None, "test")
        .await
        .unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "token",
            "rotate",
            &old_info.token_id.to_string(),
            "--grace",
            "10m",
            "--expires-in",
            "7d",
        ])
        .env("DATABASE_URL", &db.url)
        .env("ARBITER_LOG", "warn")
        .output()
        .expect("run arbiter token rotate");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let new = stdout.trim();
    assert_eq!(
        stdout.lines().count(),
        1,
        "only the token on stdout: {stdout}"
    );
    assert!(new.starts_with("arb_"), "{stdout}");
    assert!(stderr.contains("keeps working until"), "{stderr}");
    for token in [new, old.as_str()] {
        let status = api.with_token(token).get("/v1/games").await.status;
        assert_eq!(status, 200);
    }
    let tokens = db.store.list_tokens().await.unwrap();
    let rotated = tokens
        .iter()
        .find(|t| t.rotated_from == Some(old_info.token_id))
        .expect("the new token names the old one");
    assert_eq!(rotated.name, "Relay");
    assert_eq!(rotated.role, Role::Reader);
    let lifetime = rotated.expires_at.unwrap() - chrono::Utc::now();
    assert!((6..=7).contains(&lifetime.num_days()), "{lifetime}");
    let replaced = tokens
        .iter()
        .find(|t| t.token_id == old_info.token_id)
        .unwrap();
    let grace = replaced.expires_at.unwrap() - chrono::Utc::now();
    assert!(
        (500..=600).contains(&grace.num_seconds()),
        "ten minutes' grace: {grace}"
    );
}

#[actix_web::test]
async fn the_token_list_shows_when_each_token_was_last_used_stamped_at_most_once_a_minute() {
    let db = TestDb::new().await;
    // The database's own rule, moved in time by SQL: every request asks the database (the
    // service's short memory of valid tokens is tested in trust.rs).
    let api = api_with_state(&db, db.state_with(|config| config.token_cache_ms = 0)).await;
    let (info, token) = db
        .store
        .create_token("Relay", Role::Reader, None, "test")
        .await
        .unwrap();
    let last_used = |tokens: &Value| {
        tokens
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["token_id"] == info.token_id.to_string())
            .map(|t| t["last_used_at"].clone())
            .unwrap()
    };
    let admin = api.with_token(&db.admin);
    let Reply {
        status,
        body: tokens,
        ..
    } = admin.get("/v1/tokens").await;
    assert_eq!(status, 200, "{tokens}");
    assert!(last_used(&tokens).is_null(), "never used yet");

    let relay = api.with_token(&token);
    assert_eq!(relay.get("/v1/games").await.status, 200);
    let tokens = admin.get("/v1/tokens").await.body;
    let first = last_used(&tokens);
    assert!(
        seconds_from_now(&first).abs() <= 60,
        "stamped on use: {first}"
    );
    assert_eq!(relay.get("/v1/games").await.status, 200);
    let tokens = admin.get("/v1/tokens").await.body;
    assert_eq!(
        last_used(&tokens),
        first,
        "not stamped again within the minute"
    );

    // Two minutes later the next use is stamped again.
    sqlx::query(
        "UPDATE api_tokens SET last_used_at = last_used_at - interval '2 minutes' \
         WHERE token_id = $1",
    )
    .bind(info.token_id)
    .execute(db.store.pool())
    .await
    .unwrap();
    assert_eq!(relay.get("/v1/games").await.status, 200);
    let tokens = admin.get("/v1/tokens").await.body;
    let later = last_used(&tokens);
    assert!(seconds_from_now(&later).abs() <= 60, "{later}");
    assert_ne!(later, first);

    // The command line lists it too.
    let listed = db.store.list_tokens().await.unwrap();
    assert!(
        listed
            .iter()
            .find(|t| t.token_id == info.token_id)
            .is_some_and(|t| t.last_used_at.is_some())
    );
}

#[actix_web::test]
async fn a_read_position_is_checked_in_the_header_and_the_query_and_ignored_without_a_replica() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let uri = format!("/v1/games/{game}/events");
    let (status, headers, body) = with_headers(
        &api,
        db.get()
            .uri(&format!("{uri}?min_lsn=0/16B3748"))
            .insert_header(("X-Arbiter-LSN", "1/0")),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        header(&headers, "x-arbiter-read-from"),
        Some("primary"),
        "without a replica every read is the primary's"
    );
    assert!(
        header(&headers, "x-arbiter-lsn").is_none(),
        "writes carry no position either"
    );
    for request in [
        db.get()
            .uri(&format!("{uri}?min_lsn=0/1"))
            .insert_header(("X-Arbiter-LSN", "QX.")),
        db.get()
            .uri(&format!("{uri}?min_lsn=Ed5441b2%2F7&min_lsn=zz")),
        db.get().uri(&format!("{uri}?min_lsn=123456789/0")),
    ] {
        api.send_as_built(request).await.problem(400, "invalid_lsn");
    }
}

#[actix_web::test]
async fn the_service_built_as_arbiter_serve_builds_it_honours_every_setting_of_its_configuration() {
    let db = TestDb::new().await;
    let app = db
        .spawn_app(|config| {
            config.metrics_bind = Some("127.0.0.1:0".into());
            config.public_broadcast = true;
            config.broadcast_delay_minutes = 15;
            config.warm_games = std::num::NonZeroUsize::new(1).expect("one");
            config.auth_failures_per_minute = 2;
        })
        .await;
    let api = api_with_state(&db, app.state.clone()).await;

    // The metrics listener is started and needs no token: a listener of its own, called on
    // its port.
    let client = reqwest::Client::new();
    let metrics_port = app.metrics_port.expect("a metrics listener");
    let metrics = client
        .get(format!("http://127.0.0.1:{metrics_port}/metrics"))
        .send()
        .await
        .expect("the metrics listener answers");
    assert_eq!(metrics.status(), 200);

    // The broadcast is public and 15 minutes behind.
    assert!(app.state.public_broadcast);
    assert_eq!(
        app.state.streams.broadcast_delay(),
        std::time::Duration::from_secs(15 * 60)
    );
    let public = api
        .send_as_built(TestRequest::get().uri("/v1/broadcast/rounds/pgn?event=Nothing&round=1"))
        .await;
    assert_ne!(public.status, 401, "the public broadcast needs no token");

    // One game warm at most: recording a second game forgets the first.
    let game = |n: u32| {
        let mut settings = standard_game();
        settings["board"] = json!(n);
        settings
    };
    let mut ids = Vec::new();
    for n in [1, 2] {
        let created = api.create_game(&game(n)).await.body;
        let id: Uuid = created["game"]["game_id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .expect("a game id");
        api.append_events(id, 1, json!([{"type": "move", "by": "white", "san": "e4"}]))
            .await
            .expect(201);
        ids.push(id);
    }
    assert!(!app.state.arbitration.is_warm(ids[0]));
    assert!(app.state.arbitration.is_warm(ids[1]));

    // Two failed authentications a minute, then 429.
    let mut statuses = Vec::new();
    for _ in 0..3 {
        let refused = api.with_token("not-a-token").get("/v1/games").await;
        statuses.push(refused.status);
    }
    assert_eq!(statuses, [401, 401, 429]);
    app.stop().await;
}

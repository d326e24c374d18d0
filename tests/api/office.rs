//! The back office's sessions in-process: the sign-in's origin check, the cookie's flags
//! (and `Secure` behind a proxy that terminates TLS), and sessions ending when idle, past
//! their lifetime, or with their token.

use crate::client::{Api, api};
use crate::support::TestDb;
use actix_web::test;

/// The origin of in-process requests (actix's test requests are addressed to localhost:8080).
pub(crate) const ORIGIN: &str = "http://localhost:8080";

pub(crate) fn sign_in(token: &str) -> test::TestRequest {
    test::TestRequest::post()
        .uri("/office/sign-in")
        .set_form([("token", token), ("next", "/office/")])
}

pub(crate) fn session_of<B>(response: &actix_web::dev::ServiceResponse<B>) -> Option<String> {
    response
        .response()
        .cookies()
        .find(|c| c.name() == "arbiter_session")
        .map(|c| c.value().to_string())
}

#[actix_web::test]
async fn a_sign_in_from_another_site_is_refused_and_one_from_this_origin_sets_a_strict_cookie() {
    let db = TestDb::new().await;
    let api = api(&db).await;

    let response = api
        .call(sign_in(&db.arbiter).insert_header(("Origin", "http://evil.example")))
        .await;
    assert_eq!(response.status().as_u16(), 403);
    assert!(session_of(&response).is_none());
    let response = api.call(sign_in(&db.arbiter)).await;
    assert_eq!(
        response.status().as_u16(),
        403,
        "neither Origin nor Referer"
    );

    // A browser that sends no Origin but a Referer of this origin is accepted.
    let response = api
        .call(sign_in(&db.arbiter).insert_header(("Referer", format!("{ORIGIN}/office/sign-in"))))
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let cookie = response
        .response()
        .cookies()
        .find(|c| c.name() == "arbiter_session")
        .expect("a session cookie");
    assert_eq!(cookie.http_only(), Some(true));
    assert_eq!(
        cookie.same_site(),
        Some(actix_web::cookie::SameSite::Strict)
    );
    assert_eq!(cookie.path(), Some("/"));
    assert_ne!(cookie.secure(), Some(true));
    let stored: Vec<u8> = sqlx::query_scalar("SELECT session_hash FROM web_sessions")
        .fetch_one(db.store.pool())
        .await
        .expect("one session");
    assert_ne!(stored, cookie.value().as_bytes(), "only a hash is stored");

    // Behind a proxy that terminates TLS and says so, the cookie is Secure.
    let response = api
        .call(
            sign_in(&db.arbiter)
                .insert_header(("Origin", "https://localhost:8080"))
                .insert_header(("X-Forwarded-Proto", "https")),
        )
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let cookie = response
        .response()
        .cookies()
        .find(|c| c.name() == "arbiter_session")
        .expect("a session cookie");
    assert_eq!(cookie.secure(), Some(true));
}

#[actix_web::test]
async fn a_session_ends_when_idle_past_its_lifetime_or_with_its_token() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let open = || async {
        let response = api
            .call(sign_in(&db.reader).insert_header(("Origin", ORIGIN)))
            .await;
        session_of(&response).expect("a session")
    };
    let page = |session: String| {
        test::TestRequest::get()
            .uri("/office/")
            .insert_header(("Cookie", format!("arbiter_session={session}")))
    };
    let live = open().await;
    assert_eq!(api.call(page(live.clone())).await.status().as_u16(), 200);

    // Unused for longer than the idle time (4 hours by default).
    sqlx::query("UPDATE web_sessions SET last_seen_at = now() - interval '5 hours'")
        .execute(db.store.pool())
        .await
        .expect("age the session");
    let response = api.call(page(live)).await;
    assert_eq!(response.status().as_u16(), 303);
    assert!(
        response
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|l| l.starts_with("/office/sign-in")),
    );

    // Past its absolute end, however recently used.
    let late = open().await;
    sqlx::query("UPDATE web_sessions SET expires_at = now() - interval '1 second'")
        .execute(db.store.pool())
        .await
        .expect("expire the sessions");
    assert_eq!(api.call(page(late)).await.status().as_u16(), 303);

    // With its token's expiry.
    let expiring = open().await;
    sqlx::query(
        "UPDATE api_tokens SET created_at = now() - interval '1 hour', \
         expires_at = now() - interval '1 minute' WHERE name = 'test reader'",
    )
    .execute(db.store.pool())
    .await
    .expect("expire the token");
    assert_eq!(api.call(page(expiring)).await.status().as_u16(), 303);
    sqlx::query("UPDATE api_tokens SET expires_at = NULL WHERE name = 'test reader'")
        .execute(db.store.pool())
        .await
        .expect("the token again without expiry");

    // With its token.
    let revoked = open().await;
    sqlx::query("UPDATE api_tokens SET revoked_at = now() WHERE name = 'test reader'")
        .execute(db.store.pool())
        .await
        .expect("revoke the token");
    assert_eq!(api.call(page(revoked)).await.status().as_u16(), 303);
}

#[actix_web::test]
async fn pages_are_html_with_their_own_headers_and_unknown_pages_are_not_problem_json() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let response = api
        .call(test::TestRequest::get().uri("/office/sign-in"))
        .await;
    assert_eq!(response.status().as_u16(), 200);
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    assert!(header("content-type").starts_with("text/html"));
    assert!(header("content-security-policy").contains("default-src 'self'"));
    assert_eq!(header("x-content-type-options"), "nosniff");
    assert_eq!(header("referrer-policy"), "same-origin");
    let response = api
        .call(test::TestRequest::get().uri("/office/no-such-page"))
        .await;
    // An unknown page is an HTML page, not the API's problem JSON.
    assert_eq!(response.status().as_u16(), 404);
    assert!(
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/html"))
    );
    let response = api.call(test::TestRequest::get().uri("/")).await;
    assert_eq!(response.status().as_u16(), 303);
}

/// The value of the first hidden field `name` inside the form `id` of a page.
fn field_in(page: &str, form_id: &str, name: &str) -> String {
    let form = &page[page
        .find(&format!("id=\"{form_id}\""))
        .unwrap_or_else(|| panic!("form {form_id} on the page"))..];
    let at = form
        .find(&format!("name=\"{name}\" value=\""))
        .unwrap_or_else(|| panic!("field {name} in form {form_id}"));
    let rest = &form[at + name.len() + 15..];
    rest[..rest.find('"').expect("end of value")].to_string()
}

#[actix_web::test]
async fn a_desk_form_sent_twice_is_stored_once_and_one_drawn_before_another_record_is_refused() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let cookie = signed_in(&api, &db.arbiter).await;
    let desk = format!("/office/games/{game}");
    let page = page_text(&api, &desk, &cookie).await;
    let form = |form_id: &str, extra: Vec<(&'static str, &'static str)>| {
        let mut fields = vec![
            ("csrf", field_in(&page, form_id, "csrf")),
            ("expected_seq", field_in(&page, form_id, "expected_seq")),
            ("event_id", field_in(&page, form_id, "event_id")),
            ("type", field_in(&page, form_id, "type")),
        ];
        for (name, value) in extra {
            fields.push((name, value.to_string()));
        }
        fields
    };
    let post = |fields: Vec<(&'static str, String)>| {
        test::TestRequest::post()
            .uri(&format!("/office/games/{game}/record"))
            .insert_header(("Cookie", cookie.clone()))
            .insert_header(("Origin", ORIGIN))
            .set_form(fields)
    };
    let offer = form("form-draw_offer", vec![("by", "white")]);
    let first = api.call(post(offer.clone())).await;
    assert_eq!(first.status().as_u16(), 303);
    let stored = db.event_count().await;
    let again = api.call(post(offer)).await;
    assert_eq!(again.status().as_u16(), 303);
    assert_eq!(
        db.event_count().await,
        stored,
        "the same form twice is stored once"
    );

    // The touch form was drawn at the same seq, before the offer was recorded.
    let touch = form("form-touch", vec![("by", "white"), ("square", "e2")]);
    let refused = api.call(post(touch)).await;
    assert_eq!(refused.status().as_u16(), 303);
    assert_eq!(db.event_count().await, stored, "nothing stored");
    let page = page_text(&api, &desk, &cookie).await;
    assert!(page.contains("Someone recorded in this game while the form was open"));
    assert!(
        page.contains("<span class=\"code\">Someone recorded first</span>"),
        "the refusal's title is words, not its code"
    );
    assert!(!page.contains("stale seq"), "no internal name");
    assert!(
        page.contains("value=\"e2\""),
        "the form keeps what was typed"
    );
    // Shown once: the next page no longer carries the refusal.
    let page = page_text(&api, &desk, &cookie).await;
    assert!(!page.contains("Someone recorded in this game"));
}

#[actix_web::test]
async fn guessing_tokens_at_the_sign_in_is_slowed_down_like_the_api() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let mut statuses = Vec::new();
    for attempt in 0..12 {
        let response = api
            .call(sign_in(&format!("arb_guess_{attempt}")).insert_header(("Origin", ORIGIN)))
            .await;
        statuses.push(response.status().as_u16());
        if response.status().as_u16() == 429 {
            assert!(response.headers().contains_key("retry-after"));
        }
    }
    assert_eq!(&statuses[..10], &[401; 10]);
    assert_eq!(&statuses[10..], &[429, 429]);
    // A valid token still signs in from the same address.
    let response = api
        .call(sign_in(&db.arbiter).insert_header(("Origin", ORIGIN)))
        .await;
    assert_eq!(response.status().as_u16(), 303);
}

#[actix_web::test]
async fn a_draw_offer_before_the_agreement_move_says_it_stands_and_that_agreement_is_refused() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let mut settings = crate::support::standard_game();
    settings["regulations"] = serde_json::json!({"earliest_agreement_move": 30});
    let created = api.create_game(&settings).await.expect(201);
    let game = created["game"]["game_id"].as_str().expect("id").to_string();
    api.append_events(
        &game,
        1,
        serde_json::json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "draw_offer", "by": "white"}]),
    )
    .await
    .expect(201);
    let cookie = signed_in(&api, &db.arbiter).await;
    let page = page_text(&api, &format!("/office/games/{game}?recorded=2-3"), &cookie).await;
    assert!(
        page.contains("an acceptance now would be refused")
            && page.contains("only once both players have completed 30 moves")
            && page.contains("(9.1.1)"),
        "the answer says what follows"
    );
    assert!(
        !page.contains("The Laws attach no consequence to it"),
        "not “no consequence”"
    );
}

#[actix_web::test]
async fn after_a_piece_is_touched_the_answer_says_what_4_3_binds_the_player_to_and_that_9_4_takes_the_claim()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    api.append_events(
        game,
        1,
        serde_json::json!([{"type": "move", "by": "white", "san": "e4"},
                           {"type": "move", "by": "black", "san": "e5"},
                           {"type": "touch", "by": "white", "square": "g1"}]),
    )
    .await
    .expect(201);
    let cookie = signed_in(&api, &db.arbiter).await;
    let page = page_text(&api, &format!("/office/games/{game}?recorded=4-4"), &cookie).await;
    let answer = &page[page.find("id=\"answer\"").expect("the answer")..];
    let answer = &answer[..answer.find("</section>").expect("its end")];
    assert!(
        answer.contains("White must move the piece on g1 (4.3.1): Ne2, Nf3, Nh3")
            && answer.contains("(9.4)"),
        "{answer}"
    );
    assert!(!answer.contains("no consequence"), "{answer}");
}

#[actix_web::test]
async fn a_typed_move_refused_as_illegal_is_recorded_in_one_click_as_the_illegal_move_it_was() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let cookie = signed_in(&api, &db.arbiter).await;
    let desk = format!("/office/games/{game}");
    let post = |fields: Vec<(&'static str, String)>| {
        test::TestRequest::post()
            .uri(&format!("/office/games/{game}/record"))
            .insert_header(("Cookie", cookie.clone()))
            .insert_header(("Origin", ORIGIN))
            .set_form(fields)
    };
    let page = page_text(&api, &desk, &cookie).await;
    let typed = vec![
        ("csrf", field_in(&page, "form-move", "csrf")),
        ("expected_seq", field_in(&page, "form-move", "expected_seq")),
        ("event_id", field_in(&page, "form-move", "event_id")),
        ("type", "move".to_string()),
        ("by", "white".to_string()),
        ("san", "Ke2".to_string()),
        ("press", "on".to_string()),
    ];
    let refused = api.call(post(typed)).await;
    assert_eq!(refused.status().as_u16(), 303);
    assert_eq!(
        db.event_count().await,
        1,
        "the illegal move is not stored as a move"
    );
    let page = page_text(&api, &desk, &cookie).await;
    assert!(
        page.contains("Record Ke2 as an illegal move (7.5)"),
        "the refusal offers it"
    );
    let form = |name: &str| field_in(&page, "form-played-as-illegal", name);
    let as_illegal = vec![
        ("csrf", form("csrf")),
        ("expected_seq", form("expected_seq")),
        ("event_id", form("event_id")),
        ("type", form("type")),
        ("by", form("by")),
        ("kind", form("kind")),
        ("attempted_move", form("attempted_move")),
        ("description", form("description")),
        ("completed", "on".to_string()),
    ];
    let stored = api.call(post(as_illegal)).await;
    assert_eq!(stored.status().as_u16(), 303);
    let (event, attempted, completed): (String, Option<String>, Option<bool>) = sqlx::query_as(
        "SELECT event_type, payload->>'attempted_move', (payload->>'completed')::boolean \
         FROM events WHERE game_id = $1 AND event_type = 'illegal_move'",
    )
    .bind(game)
    .fetch_one(db.store.pool())
    .await
    .expect("the illegal move, stored (with the penalty it brings, 7.5.5)");
    assert_eq!(event, "illegal_move");
    assert_eq!(attempted.as_deref(), Some("Ke2"));
    assert_eq!(completed, Some(true));
}

/// Sends a desk form of `kind` with `fields` as the page at `desk` draws it; the answer's
/// status.
async fn send_desk_form(
    api: &Api<'_>,
    cookie: &str,
    game: uuid::Uuid,
    form_id: &str,
    fields: Vec<(&'static str, String)>,
) -> u16 {
    let page = page_text(api, &format!("/office/games/{game}"), cookie).await;
    let mut form = vec![
        ("csrf", field_in(&page, form_id, "csrf")),
        ("expected_seq", field_in(&page, form_id, "expected_seq")),
        ("event_id", field_in(&page, form_id, "event_id")),
        ("type", field_in(&page, form_id, "type")),
    ];
    form.extend(fields);
    api.call(
        test::TestRequest::post()
            .uri(&format!("/office/games/{game}/record"))
            .insert_header(("Cookie", cookie.to_string()))
            .insert_header(("Origin", ORIGIN))
            .set_form(form),
    )
    .await
    .status()
    .as_u16()
}

/// Sends the confirmation form the refusal drew on the desk `page` (a flash is shown once).
async fn confirm_on_desk(api: &Api<'_>, cookie: &str, game: uuid::Uuid, page: &str) -> u16 {
    let form = &page[page
        .find("class=\"record confirm\"")
        .expect("a confirmation form")..];
    let form = &form[..form.find("</form>").expect("its end")];
    let mut fields = Vec::new();
    let mut rest = form;
    while let Some(at) = rest.find("name=\"") {
        let after = &rest[at + 6..];
        let name = &after[..after.find('"').expect("end of name")];
        let value_at = after.find("value=\"").expect("a value") + 7;
        let value = &after[value_at..value_at + after[value_at..].find('"').expect("end")];
        fields.push((name.to_string(), value.replace("&amp;", "&")));
        rest = &after[value_at..];
    }
    api.call(
        test::TestRequest::post()
            .uri(&format!("/office/games/{game}/record"))
            .insert_header(("Cookie", cookie.to_string()))
            .insert_header(("Origin", ORIGIN))
            .set_form(fields),
    )
    .await
    .status()
    .as_u16()
}

#[actix_web::test]
async fn a_flag_for_a_clock_that_cannot_have_run_down_asks_the_arbiter_to_confirm_before_it_is_recorded()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    api.append_events(
        game,
        1,
        serde_json::json!([{"type": "move", "by": "white", "san": "e4"},
                           {"type": "clock_press", "by": "white", "white_ms": 5_400_000}]),
    )
    .await
    .expect(201);
    let cookie = signed_in(&api, &db.arbiter).await;
    let status = send_desk_form(
        &api,
        &cookie,
        game,
        "form-flag",
        vec![("side", "white".to_string())],
    )
    .await;
    assert_eq!(status, 303);
    assert_eq!(db.event_count().await, 3, "nothing stored yet");
    let page = page_text(&api, &format!("/office/games/{game}"), &cookie).await;
    assert!(
        page.contains("White's clock read 1:30:00")
            && page.contains("has not run since (Black's clock runs)"),
        "the evidence is shown"
    );
    assert_eq!(confirm_on_desk(&api, &cookie, game, &page).await, 303);
    let ended: String = sqlx::query_scalar(
        "SELECT payload->>'termination' FROM events WHERE game_id = $1 AND event_type = 'game_ended'",
    )
    .bind(game)
    .fetch_one(db.store.pool())
    .await
    .expect("the confirmed flag ended the game");
    assert_eq!(ended, "flag");

    // Black's clock runs and was never read: no evidence, nothing to confirm.
    let other = api.create_standard_game().await;
    let status = send_desk_form(
        &api,
        &cookie,
        other,
        "form-flag",
        vec![("side", "black".to_string())],
    )
    .await;
    assert_eq!(status, 303);
    let page = page_text(&api, &format!("/office/games/{other}"), &cookie).await;
    assert!(!page.contains("record confirm"), "no confirmation asked");
}

#[actix_web::test]
async fn a_resignation_or_a_result_the_board_contradicts_asks_the_arbiter_to_confirm() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let mut settings = crate::support::standard_game();
    // White has a king and a rook, Black a lone king: Black cannot checkmate.
    settings["start_fen"] = serde_json::json!("4k3/8/8/8/8/8/8/R3K3 w - - 0 40");
    let created = api.create_game(&settings).await.expect(201);
    let game: uuid::Uuid = created["game"]["game_id"]
        .as_str()
        .expect("id")
        .parse()
        .expect("uuid");
    api.append_events(
        game,
        1,
        serde_json::json!([{"type": "move", "by": "white", "san": "Ra7"}]),
    )
    .await
    .expect(201);
    let cookie = signed_in(&api, &db.arbiter).await;
    let status = send_desk_form(
        &api,
        &cookie,
        game,
        "form-resign",
        vec![("by", "white".to_string())],
    )
    .await;
    assert_eq!(status, 303);
    assert_eq!(db.event_count().await, 2, "nothing stored yet");
    let page = page_text(&api, &format!("/office/games/{game}"), &cookie).await;
    assert!(
        page.contains("Black cannot checkmate White by any series of legal moves")
            && page.contains("(5.1.2)"),
        "the evidence is shown"
    );
    // A 0-1 entered on the results page for this board is asked about there.
    let results = "/office/results?event=Test+Open+2026&round=1";
    let page = page_text(&api, results, &cookie).await;
    let csrf_at = page.find("name=\"csrf\" value=\"").expect("a form") + 19;
    let csrf = &page[csrf_at..csrf_at + page[csrf_at..].find('"').expect("end")];
    let response = api
        .call(
            test::TestRequest::post()
                .uri(&format!("/office/games/{game}/record"))
                .insert_header(("Cookie", cookie.clone()))
                .insert_header(("Origin", ORIGIN))
                .set_form(vec![
                    ("csrf", csrf.to_string()),
                    ("expected_seq", "2".to_string()),
                    ("event_id", uuid::Uuid::new_v4().to_string()),
                    ("type", "result".to_string()),
                    ("result", "0-1".to_string()),
                    ("return_to", results.to_string()),
                ]),
        )
        .await;
    assert_eq!(response.status().as_u16(), 303);
    assert_eq!(db.event_count().await, 2, "nothing stored yet");
    let page = page_text(&api, results, &cookie).await;
    assert!(
        page.contains("Black cannot checkmate by any series of legal moves")
            && page.contains("record confirm"),
        "the results page shows the evidence and the confirmation"
    );
    // Black resigned after all: nothing needs confirming.
    let status = send_desk_form(
        &api,
        &cookie,
        game,
        "form-resign",
        vec![("by", "black".to_string())],
    )
    .await;
    assert_eq!(status, 303);
    let result: String = sqlx::query_scalar(
        "SELECT payload->>'result' FROM events WHERE game_id = $1 AND event_type = 'game_ended'",
    )
    .bind(game)
    .fetch_one(db.store.pool())
    .await
    .expect("the game ended");
    assert_eq!(result, "1-0");
}

/// The page at `uri` as the session of `cookie` sees it.
pub(crate) async fn page_text(api: &Api<'_>, uri: &str, cookie: &str) -> String {
    api.send_for_text_as_built(
        test::TestRequest::get()
            .uri(uri)
            .insert_header(("Cookie", cookie.to_string())),
    )
    .await
    .text
}

/// Signs in with `token` from this origin and returns the session's `Cookie` header value.
pub(crate) async fn signed_in(api: &Api<'_>, token: &str) -> String {
    let response = api
        .call(sign_in(token).insert_header(("Origin", ORIGIN)))
        .await;
    format!(
        "arbiter_session={}",
        session_of(&response).expect("a session")
    )
}

#[actix_web::test]
async fn the_form_to_decide_an_appeal_is_gone_once_the_appeal_is_decided() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let body = api
        .append_events(
            game,
            1,
            serde_json::json!([{"type": "flag", "side": "white"}]),
        )
        .await
        .expect(201);
    let ended = body["events"][1]["seq"]
        .as_u64()
        .expect("the game_ended seq");
    let mut seq = body["last_seq"].as_u64().expect("last seq");
    for event in [
        serde_json::json!({"type": "appeal_lodged", "by": "white", "against_seq": ended, "grounds": "the clock was faulty"}),
        serde_json::json!({"type": "appeal_decided", "against_seq": ended, "upheld": false, "reason": "the clock worked"}),
    ] {
        let body = api
            .with_token(&db.appeals)
            .append_events(game, seq, serde_json::json!([event.clone()]))
            .await
            .expect(201);
        seq = body["last_seq"].as_u64().expect("last seq");
        let response = api
            .call(sign_in(&db.appeals).insert_header(("Origin", ORIGIN)))
            .await;
        let session = session_of(&response).expect("a session");
        let response = api
            .call(
                test::TestRequest::get()
                    .uri(&format!("/office/games/{game}/decisions/{ended}"))
                    .insert_header(("Cookie", format!("arbiter_session={session}"))),
            )
            .await;
        assert_eq!(response.status().as_u16(), 200);
        let page = String::from_utf8_lossy(&test::read_body(response).await).into_owned();
        if event["type"] == "appeal_lodged" {
            assert!(
                page.contains("Decide the appeal"),
                "lodged: the form is offered"
            );
        } else {
            assert!(!page.contains("Decide the appeal"), "decided: no form");
            assert!(
                page.contains("is final"),
                "decided: the page says why there is no form"
            );
        }
    }
}

#[actix_web::test]
async fn the_incident_sheet_prints_the_times_of_the_log_in_the_venues_time_zone() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let mut tournament = crate::tournaments::city_open();
    tournament["time_zone"] = serde_json::json!("Not/A_Zone");
    let refused = api.create_tournament(&tournament).await.expect(422);
    assert!(
        refused["field"] == "time_zone"
            && refused["detail"]
                .as_str()
                .is_some_and(|d| d.contains("Europe/Brussels")),
        "the problem names the field and what to give: {refused}"
    );
    tournament["time_zone"] = serde_json::json!("America/Sao_Paulo");
    let created = api.create_tournament(&tournament).await.expect(201);
    assert_eq!(created["time_zone"], "America/Sao_Paulo");

    let mut settings = crate::support::standard_game();
    settings["event"] = tournament["name"].clone();
    settings["round"] = serde_json::json!("1");
    let game = api.create_game(&settings).await.expect(201);
    let game: uuid::Uuid = game["game"]["game_id"]
        .as_str()
        .expect("id")
        .parse()
        .expect("uuid");
    let appended = api
        .append_events(
            game,
            1,
            serde_json::json!([{"type": "claim", "by": "white", "kind": "fifty_moves"}]),
        )
        .await
        .expect(201);
    let recorded_at: chrono::DateTime<chrono::Utc> = appended["events"][0]["recorded_at"]
        .as_str()
        .expect("recorded_at")
        .parse()
        .expect("a time");
    let in_sao_paulo = recorded_at
        .with_timezone(&chrono_tz::America::Sao_Paulo)
        .format("%H:%M:%S %Z")
        .to_string();

    let cookie = signed_in(&api, &db.arbiter).await;
    let event = tournament["name"]
        .as_str()
        .expect("name")
        .replace(' ', "%20");
    let page = page_text(
        &api,
        &format!("/office/incidents?event={event}&round=1"),
        &cookie,
    )
    .await;
    assert!(
        page.contains("Time (America/Sao_Paulo)"),
        "the column names the zone"
    );
    assert!(
        page.contains(&in_sao_paulo),
        "the claim's time is printed as the hall's clocks showed it ({in_sao_paulo})"
    );
    assert!(!page.contains("Time (UTC)"), "not UTC");

    // The desk's timeline and the decision's review page keep the same clock.
    let claim_seq = appended["events"][0]["seq"].as_u64().expect("seq");
    let desk = page_text(&api, &format!("/office/games/{game}"), &cookie).await;
    assert!(
        desk.contains(&in_sao_paulo),
        "the timeline in the hall's time"
    );
    let appeal = api
        .append_events(
            game,
            appended["last_seq"].as_u64().expect("last_seq"),
            serde_json::json!([{"type": "appeal_lodged", "by": "White", "against_seq": claim_seq + 1,
                                "grounds": "The count of moves was wrong."}]),
        )
        .await
        .expect(201);
    let lodged_at: chrono::DateTime<chrono::Utc> = appeal["events"][0]["recorded_at"]
        .as_str()
        .expect("recorded_at")
        .parse()
        .expect("a time");
    let lodged = lodged_at
        .with_timezone(&chrono_tz::America::Sao_Paulo)
        .format("%H:%M:%S %Z")
        .to_string();
    let review = page_text(
        &api,
        &format!("/office/games/{game}/decisions/{}", claim_seq + 1),
        &cookie,
    )
    .await;
    assert!(
        review.contains(&lodged),
        "the appeal in the hall's time ({lodged})"
    );
    for (name, page) in [("desk", &desk), ("review", &review)] {
        assert!(!page.contains(" UTC"), "the {name} prints no UTC time");
    }
}

#[actix_web::test]
async fn a_double_forfeit_entered_on_the_results_page_is_each_players_forfeit_in_the_report_and_the_tournament_page_says_what_is_missing()
 {
    use serde_json::json;
    let db = TestDb::new().await;
    let api = api(&db).await;
    let mut open = crate::tournaments::city_open();
    open["starts_on"] = json!("2026-01-05");
    open["ends_on"] = json!("2026-01-10");
    let body = api.create_tournament(&open).await.expect(201);
    let tournament = body["tournament_id"].as_str().expect("id").to_string();
    let round = api
        .load_round(
            &tournament,
            1,
            &json!({"pairings": [
                {"board": 1, "white": {"name": "Absent, Ann"}, "black": {"name": "Away, Bob"}},
                {"board": 2, "white": {"name": "Sokolova, Anna"}, "black": {"name": "Meier, Jan"}}
            ]}),
        )
        .await
        .expect(201);
    let board_one = round["games"][0]["game_id"]
        .as_str()
        .expect("id")
        .to_string();
    let board_two: uuid::Uuid = round["games"][1]["game_id"]
        .as_str()
        .expect("id")
        .parse()
        .expect("uuid");

    // Board 1: neither player came; the arbiter enters it on the results page.
    let cookie = signed_in(&api, &db.arbiter).await;
    let results = "/office/results?event=City+Open+2026&round=1";
    let page = page_text(&api, results, &cookie).await;
    assert!(page.contains("double forfeit, 0-0"), "the form offers it");
    let csrf_at = page.find("name=\"csrf\" value=\"").expect("a form") + 19;
    let csrf = &page[csrf_at..csrf_at + page[csrf_at..].find('"').expect("end")];
    let response = api
        .call(
            test::TestRequest::post()
                .uri(&format!("/office/games/{board_one}/record"))
                .insert_header(("Cookie", cookie.clone()))
                .insert_header(("Origin", ORIGIN))
                .set_form(vec![
                    ("csrf", csrf.to_string()),
                    ("expected_seq", "1".to_string()),
                    ("event_id", uuid::Uuid::new_v4().to_string()),
                    ("type", "result".to_string()),
                    ("result", "forfeit:both".to_string()),
                    ("return_to", results.to_string()),
                ]),
        )
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let page = page_text(&api, results, &cookie).await;
    assert!(page.contains("−/−"), "the pairing list writes it −/−");

    // Board 2: White resigns, and White appeals; the appeal is not decided yet.
    let ended = api
        .append_events(
            board_two,
            1,
            json!([{"type": "move", "by": "white", "san": "e4"},
                   {"type": "move", "by": "black", "san": "e5"},
                   {"type": "resign", "by": "white"}]),
        )
        .await
        .expect(201);
    let end_seq = ended["last_seq"].as_u64().expect("seq");
    let appeals = api.with_token(&db.appeals);
    appeals
        .append_events(
            board_two,
            end_seq,
            json!([
                {"type": "appeal_lodged", "by": "white", "against_seq": end_seq, "grounds": "I did not resign"}
            ]),
        )
        .await
        .expect(201);

    // The report: each player of board 1 lost by forfeit, no point.
    let trf = api.trf(&tournament, "").await;
    assert_eq!(trf.status, 200, "{}", trf.text);
    let trf = trf.text;
    let report = arbiter::interchange::trf::read_report(&trf).expect("reads");
    for name in ["Absent, Ann", "Away, Bob"] {
        let player = report
            .players
            .iter()
            .find(|p| p.name == name)
            .expect("the player");
        assert_eq!(
            player.rounds[0].result,
            arbiter::interchange::trf::TrfResult::ForfeitLoss,
            "{name}"
        );
        assert_eq!(player.half_points, 0, "{name}");
    }
    // The PGN says 0-0 in its Result tag, and ends its movetext with a token every reader takes.
    let pgn = api.pgn(&board_one).await;
    assert_eq!(pgn.status, 200, "{}", pgn.text);
    let pgn = pgn.text;
    assert!(pgn.contains("[Result \"0-0\"]"), "{pgn}");
    assert!(
        pgn.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains("{Double forfeit: both players lost, 0-0} *"),
        "{pgn}"
    );
    let game = api.game(&board_one).await.body;
    assert_eq!(game["game"]["result"], "0-0", "{game}");

    // The tournament page: the report was due seven days after the last day, and an appeal
    // is still open.
    let page = page_text(&api, &format!("/office/events/{tournament}"), &cookie).await;
    assert!(
        page.contains("Due to the rating officer by <strong>2026-01-17</strong>"),
        "{page}"
    );
    assert!(page.contains("FIDE Rating Regulations 9.1"));
    assert!(page.contains("That date has passed."));
    assert!(page.contains("Appeals not decided yet"), "{page}");
    assert!(page.contains(&format!("/office/games/{board_two}/decisions/{end_seq}")));
    assert!(
        !page.contains("Games without a result yet"),
        "both games ended"
    );
    assert!(page.contains(&format!("/office/events/{tournament}/report")));

    // The chief arbiter's report: the round's tally and boards, who recorded, the appeal open.
    let report_uri = format!("/office/events/{tournament}/report");
    let report = page_text(&api, &report_uri, &cookie).await;
    assert!(report.contains("Chief arbiter"), "{report}");
    assert!(
        report.contains("2 games: 0 won by White, 0 drawn, 1 won by Black, 1 double forfeit(s)."),
        "{report}"
    );
    assert!(report.contains("−/−") && report.contains("forfeit (6.7.1)"));
    assert!(
        report.contains("IA Anna Sokolova (chief)"),
        "the arbiters named"
    );
    assert!(report.contains("Who recorded in the games"));
    assert!(report.contains("not decided yet"), "{report}");
    assert!(report.contains("I did not resign"), "{report}");
    // Decided: the report carries the committee's decision and the page no longer lists it.
    appeals
        .append_events(
            board_two,
            end_seq + 1,
            json!([
                {"type": "appeal_decided", "against_seq": end_seq, "upheld": false,
                 "reason": "the resignation was clear"}
            ]),
        )
        .await
        .expect(201);
    let report = page_text(&api, &report_uri, &cookie).await;
    assert!(!report.contains("not decided yet"));
    assert!(report.contains("the resignation was clear"), "{report}");
    let page = page_text(&api, &format!("/office/events/{tournament}"), &cookie).await;
    assert!(!page.contains("Appeals not decided yet"));
    assert!(page.contains("Nothing is missing"));
}

#[actix_web::test]
async fn the_token_form_gives_an_expiry_and_the_fair_play_capability_and_the_list_says_which_tokens_no_longer_work()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let cookie = signed_in(&api, &db.admin).await;
    let page = page_text(&api, "/office/tokens", &cookie).await;
    assert!(
        page.contains("name=\"expires_in\""),
        "the form asks for a lifetime"
    );
    assert!(
        page.contains("name=\"fair_play_role\""),
        "and for fair play"
    );
    let csrf_at = page.find("name=\"csrf\" value=\"").expect("a form") + 19;
    let csrf = &page[csrf_at..csrf_at + page[csrf_at..].find('"').expect("end")];
    let response = api
        .call(
            test::TestRequest::post()
                .uri("/office/tokens")
                .insert_header(("Cookie", cookie.clone()))
                .insert_header(("Origin", ORIGIN))
                .set_form(vec![
                    ("csrf", csrf.to_string()),
                    ("name", "FA Ane Etxeberria, fair-play arbiter".to_string()),
                    ("role", "arbiter".to_string()),
                    ("events", String::new()),
                    ("expires_in", "7d".to_string()),
                    ("fair_play_role", "fair_play_arbiter".to_string()),
                ]),
        )
        .await;
    assert_eq!(response.status().as_u16(), 200);
    let tokens = db.store.list_tokens().await.expect("tokens");
    let made = tokens
        .iter()
        .find(|t| t.name == "FA Ane Etxeberria, fair-play arbiter")
        .expect("the token was made");
    let lifetime = made.expires_at.expect("an expiry") - chrono::Utc::now();
    assert!((6..=7).contains(&lifetime.num_days()), "{lifetime}");
    assert_eq!(
        made.fair_play_role,
        Some(arbiter::access::FairPlayRole::FairPlayArbiter)
    );

    // The reader's token expired an hour ago; the arbiter's was revoked.
    sqlx::query("UPDATE api_tokens SET created_at = now() - interval '2 days', expires_at = now() - interval '1 hour' WHERE name = 'test reader'")
        .execute(db.store.pool())
        .await
        .expect("the reader's token expires");
    sqlx::query("UPDATE api_tokens SET revoked_at = now() WHERE name = 'test arbiter'")
        .execute(db.store.pool())
        .await
        .expect("the arbiter's token is revoked");
    let page = page_text(&api, "/office/tokens", &cookie).await;
    let row_of = |name: &str| {
        let at = page.find(&format!("<td>{name}</td>")).expect(name);
        page[at..at + page[at..].find("</tr>").expect("end of row")].to_string()
    };
    let reader = row_of("test reader");
    assert!(
        reader.contains("expired") && !reader.contains("valid"),
        "{reader}"
    );
    let arbiter = row_of("test arbiter");
    assert!(
        arbiter.contains("revoked") && !arbiter.contains("valid"),
        "{arbiter}"
    );
    let deputy = row_of("FA Ane Etxeberria, fair-play arbiter");
    assert!(
        deputy.contains("valid") && deputy.contains("until"),
        "{deputy}"
    );
    assert!(
        deputy.contains("fair play: fair-play arbiter"),
        "marked: {deputy}"
    );
    let admin = row_of("test admin");
    assert!(admin.contains("no expiry"), "{admin}");
}

#[actix_web::test]
async fn the_floor_says_a_board_not_started_is_not_started_and_keeps_a_finished_game_out_of_what_needs_attention()
 {
    use serde_json::json;
    let db = TestDb::new().await;
    let api = api(&db).await;
    let open = crate::tournaments::city_open();
    let body = api.create_tournament(&open).await.expect(201);
    let tournament = body["tournament_id"].as_str().expect("id").to_string();
    let round = api
        .load_round(
            &tournament,
            1,
            &json!({"pairings": [
                {"board": 1, "white": {"name": "Sokolova, Anna"}, "black": {"name": "Meier, Jan"}},
                {"board": 2, "white": {"name": "Lee, Ann"}, "black": {"name": "Okafor, Ben"}},
                {"board": 3, "white": {"name": "Absent, Ann"}, "black": {"name": "Away, Bob"}}
            ]}),
        )
        .await
        .expect(201);
    let game = |board: usize| -> uuid::Uuid {
        round["games"][board]["game_id"]
            .as_str()
            .expect("id")
            .parse()
            .expect("uuid")
    };
    api.append_events(
        game(0),
        1,
        json!([{"type": "move", "by": "white", "san": "e4"},
               {"type": "move", "by": "black", "san": "e5"},
               {"type": "resign", "by": "black"}]),
    )
    .await
    .expect(201);
    api.append_events(
        game(1),
        1,
        json!([{"type": "move", "by": "white", "san": "d4"}]),
    )
    .await
    .expect(201);
    let cookie = signed_in(&api, &db.arbiter).await;
    let page = page_text(&api, "/office/floor?event=City+Open+2026&round=1", &cookie).await;
    let row_of = |board: usize| {
        let at = page
            .find(&format!("data-game=\"{}\"", game(board)))
            .expect("the board's row");
        page[at..at + page[at..].find("</tr>").expect("end of row")].to_string()
    };
    let finished = row_of(0);
    let attention = &finished[finished.find("class=\"badges\"").expect("badges")..];
    assert!(
        finished.contains("1-0"),
        "its status is its result: {finished}"
    );
    assert!(
        !attention.contains("1-0") && !attention.contains("ended"),
        "{attention}"
    );
    assert!(row_of(1).contains("in progress"), "{}", row_of(1));
    assert!(row_of(2).contains("not started"), "{}", row_of(2));
}

#[actix_web::test]
async fn the_desk_records_the_position_the_arbiter_reconstructed_and_play_goes_on_from_it() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let cookie = signed_in(&api, &db.arbiter).await;
    let page = page_text(&api, &format!("/office/games/{game}"), &cookie).await;
    assert!(
        page.contains("value=\"position_reconstructed\""),
        "the decision form offers it"
    );
    // 7.6: pieces displaced before the first move; the start position reinstated at move 1.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let status = send_desk_form(
        &api,
        &cookie,
        game,
        "form-decision",
        vec![
            ("decision", "position_reconstructed".to_string()),
            ("fen", start.to_string()),
            (
                "reason",
                "7.6: the knights stood on the wrong squares; the initial position set up"
                    .to_string(),
            ),
        ],
    )
    .await;
    assert_eq!(status, 303);
    let view = api.game(game).await.body;
    assert_eq!(
        view["state"]["reconstructed_positions"][0]["fen"], start,
        "{view}"
    );
    let page = page_text(&api, &format!("/office/games/{game}"), &cookie).await;
    assert!(
        page.contains("reconstructs the position"),
        "the timeline tells it"
    );
}

#[actix_web::test]
async fn the_desk_scoresheet_numbers_the_moves_after_a_reconstructed_position_from_it() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let cookie = signed_in(&api, &db.arbiter).await;
    let moves = serde_json::json!([
        {"type": "move", "by": "white", "san": "e4"},
        {"type": "move", "by": "black", "san": "e5"},
        {"type": "move", "by": "white", "san": "Nf3"},
    ]);
    api.append_events(game, 1, moves).await.expect(201);
    // 8.5.3: the scoresheets show 2... Nc6 3. Bb5 played on the board; the arbiter sets up the
    // position after them, Black to move at move 3.
    let fen = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
    let status = send_desk_form(
        &api,
        &cookie,
        game,
        "form-decision",
        vec![
            ("decision", "position_reconstructed".to_string()),
            ("fen", fen.to_string()),
            (
                "reason",
                "8.5.3: the moves 2... Nc6 3. Bb5 were played and not recorded".to_string(),
            ),
        ],
    )
    .await;
    assert_eq!(status, 303);
    let reply = serde_json::json!([{"type": "move", "by": "black", "san": "a6"}]);
    api.append_events(game, 5, reply).await.expect(201);
    let page = page_text(&api, &format!("/office/games/{game}"), &cookie).await;
    let sheet = &page[page
        .find("<table class=\"scoresheet\"")
        .expect("the scoresheet")..];
    let sheet = &sheet[..sheet.find("</table>").expect("its end")];
    let rows: Vec<&str> = sheet.split("<tr").skip(2).collect();
    assert_eq!(rows.len(), 4, "{sheet}");
    assert!(rows[0].contains(">1<") && rows[0].contains("e4") && rows[0].contains("e5"));
    assert!(rows[1].contains(">2<") && rows[1].contains("Nf3") && rows[1].contains('…'));
    assert!(
        rows[2].contains("Position reconstructed") && rows[2].contains("from move 3"),
        "{}",
        rows[2]
    );
    assert!(
        rows[3].contains(">3<") && rows[3].contains('…') && rows[3].contains("a6"),
        "{}",
        rows[3]
    );
    assert!(!sheet.contains("--"), "no placeholder move: {sheet}");
}

#[actix_web::test]
async fn the_review_of_a_decision_says_what_it_rests_on_in_one_sentence_with_one_full_stop() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    api.append_events(
        game,
        1,
        serde_json::json!([{"type": "arbiter_decision", "decision": "game_ended",
            "reason": "11.3.1: White's mobile phone rang in the playing venue (11.3.2.1).",
            "result": "0-1", "cause": "rules_infraction"}]),
    )
    .await
    .expect(201);
    let cookie = signed_in(&api, &db.arbiter).await;
    let review = page_text(&api, &format!("/office/games/{game}/decisions/2"), &cookie).await;
    let before = review
        .split("The game as it stood just before this: ")
        .nth(1)
        .and_then(|rest| rest.split("</p>").next())
        .expect("the review says what the decision rests on");
    assert!(before.contains("(11.3.2.1)"), "{before}");
    assert!(
        before.trim_end().ends_with('.') && !before.trim_end().ends_with(".."),
        "one full stop: {before}"
    );
}

//! The back office's forms read through their own form types (issue 39), for the forms no
//! other test posts through the page: a tournament's settings (new and changed), signing out
//! and revoking a token. A value that does not read is answered by the page with what to fix
//! and nothing changes; a blank optional field is absent; a button that sends nothing but the
//! page's security token is still refused without it.

use crate::client::{Api, api};
use crate::office::{page_text, signed_in};
use crate::support::TestDb;
use actix_web::test;
use serde_json::{Value, json};

/// The origin of in-process requests (actix's test requests are addressed to localhost:8080).
const ORIGIN: &str = "http://localhost:8080";

/// The security token of the first form of `page`.
fn csrf_of(page: &str) -> String {
    let at = page.find("name=\"csrf\" value=\"").expect("a form's token") + 19;
    page[at..at + page[at..].find('"').expect("the token's end")].to_string()
}

/// A form sent to `uri` from this origin by the session of `cookie`.
fn form_to(uri: &str, cookie: &str, fields: &[(&str, &str)]) -> test::TestRequest {
    let fields: Vec<(String, String)> = fields
        .iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect();
    test::TestRequest::post()
        .uri(uri)
        .insert_header(("Cookie", cookie.to_string()))
        .insert_header(("Origin", ORIGIN))
        .set_form(fields)
}

/// The status of the answer to `request`, and where it sends the browser.
async fn status_and_location(api: &Api<'_>, request: test::TestRequest) -> (u16, Option<String>) {
    let response = api.call(request).await;
    let location = response
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    (response.status().as_u16(), location)
}

async fn tournament_count(db: &TestDb) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM tournaments")
        .fetch_one(db.store.pool())
        .await
        .expect("count the tournaments")
}

#[actix_web::test]
async fn a_new_tournament_whose_base_time_does_not_read_is_drawn_again_with_what_to_fix_and_not_created()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let cookie = signed_in(&api, &db.arbiter).await;
    let csrf = csrf_of(&page_text(&api, "/office/events/new", &cookie).await);
    let response = api
        .call(form_to(
            "/office/events",
            &cookie,
            &[
                ("csrf", csrf.as_str()),
                ("name", "Forms Open 2026"),
                ("site", "Ghent"),
                ("tc_form", "single"),
                ("base_minutes", "ninety"),
                ("increment_seconds", "30"),
            ],
        ))
        .await;
    assert_eq!(response.status().as_u16(), 422);
    let page = String::from_utf8(test::read_body(response).await.to_vec()).expect("utf-8");
    assert!(
        page.contains("The base time must be a whole number, not `ninety`."),
        "{page}"
    );
    assert!(page.contains("value=\"ninety\""), "what was typed: {page}");
    assert!(page.contains("value=\"Ghent\""), "the other fields: {page}");
    assert_eq!(tournament_count(&db).await, 0, "nothing was created");
}

#[actix_web::test]
async fn a_new_tournament_leaves_its_blank_optional_fields_out_and_reads_its_tie_breaks() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let cookie = signed_in(&api, &db.arbiter).await;
    let csrf = csrf_of(&page_text(&api, "/office/events/new", &cookie).await);
    let (status, location) = status_and_location(
        &api,
        form_to(
            "/office/events",
            &cookie,
            &[
                ("csrf", csrf.as_str()),
                ("name", "  Forms Open 2026 "),
                ("site", ""),
                ("starts_on", ""),
                ("tc_form", "single"),
                ("base_minutes", "90"),
                ("increment_seconds", "30"),
                ("tc_kind", ""),
                ("draw_offers", "arbiter_consent"),
                ("earliest_agreement_move", ""),
                ("incorrect_claim_seconds", "  "),
                ("arbiters", "IA Anna Sokolova (chief)\n\nFA Ben Okafor\n"),
                ("time_zone", ""),
                ("tie_breaks", "BH/C1, SB"),
                ("unplayed_rounds", ""),
            ],
        ),
    )
    .await;
    assert_eq!(status, 303);
    let location = location.expect("the tournament's page");
    let id = location.rsplit('/').next().expect("an id");
    let stored = api.tournament(id).await.expect(200);
    assert_eq!(stored["name"], "Forms Open 2026", "trimmed: {stored}");
    for absent in ["site", "starts_on", "time_zone", "unplayed_rounds"] {
        assert!(stored[absent].is_null(), "{absent}: {stored}");
    }
    let regulations = &stored["regulations"];
    assert!(regulations["earliest_agreement_move"].is_null(), "{stored}");
    assert!(
        regulations["incorrect_claim_penalty_ms"].is_null(),
        "{stored}"
    );
    assert_eq!(regulations["draw_offers"], "arbiter_consent", "{stored}");
    assert_eq!(regulations["quickplay_finish"], false, "{stored}");
    assert_eq!(
        stored["arbiters"],
        json!(["IA Anna Sokolova (chief)", "FA Ben Okafor"])
    );
    assert_eq!(stored["tie_breaks"], json!(["BH/C1", "SB"]), "{stored}");
    // The page shows the stored settings in the form again.
    let page = page_text(&api, &location, &cookie).await;
    assert!(page.contains("value=\"BH/C1, SB\""), "{page}");
}

#[actix_web::test]
async fn a_change_of_settings_with_a_day_that_does_not_read_is_refused_on_the_page_and_a_good_one_is_saved()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let created = api
        .create_tournament(&json!({
            "name": "Forms Open 2026", "starts_on": "2026-05-01",
            "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000},
        }))
        .await
        .expect(201);
    let id = created["tournament_id"]
        .as_str()
        .expect("an id")
        .to_string();
    let page_uri = format!("/office/events/{id}");
    let cookie = signed_in(&api, &db.arbiter).await;
    let csrf = csrf_of(&page_text(&api, &page_uri, &cookie).await);
    let stored = || async { api.tournament(&id).await.body };
    let before: Value = stored().await;
    let change = |starts_on: &'static str| {
        form_to(
            &page_uri,
            &cookie,
            &[
                ("csrf", csrf.as_str()),
                ("name", "Another Name"),
                ("starts_on", starts_on),
                ("tc_form", "single"),
                ("base_minutes", "90"),
                ("increment_seconds", "30"),
                ("earliest_agreement_move", "30"),
                ("quickplay_finish", "on"),
            ],
        )
    };
    let (status, _) = status_and_location(&api, change("1 May 2026")).await;
    assert_eq!(status, 303);
    let page = page_text(&api, &page_uri, &cookie).await;
    assert!(
        page.contains("The first day must be a date like 2026-11-20."),
        "{page}"
    );
    assert!(
        page.contains("value=\"1 May 2026\""),
        "what was typed: {page}"
    );
    assert_eq!(stored().await, before, "nothing was saved");

    let (status, _) = status_and_location(&api, change("2026-05-02")).await;
    assert_eq!(status, 303);
    let after = stored().await;
    assert_eq!(
        after["name"], "Forms Open 2026",
        "the name is fixed: {after}"
    );
    assert_eq!(after["starts_on"], "2026-05-02", "{after}");
    assert_eq!(
        after["regulations"]["earliest_agreement_move"], 30,
        "{after}"
    );
    assert_eq!(after["regulations"]["quickplay_finish"], true, "{after}");
    // The page says so and draws the form with what is stored.
    let page = page_text(&api, &page_uri, &cookie).await;
    assert!(page.contains("The settings were saved"), "{page}");
    assert_eq!(
        page.matches("The settings were saved").count(),
        1,
        "told once, as a notice: {page}"
    );
    assert!(
        !page.contains("class=\"refusal\""),
        "a saved change is not shown as a refusal: {page}"
    );
    assert!(page.contains("value=\"2026-05-02\""), "{page}");
    assert!(page.contains("value=\"Forms Open 2026\""), "{page}");
}

#[actix_web::test]
async fn signing_out_needs_the_pages_token_and_then_ends_the_session() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let cookie = signed_in(&api, &db.arbiter).await;
    let csrf = csrf_of(&page_text(&api, "/office/", &cookie).await);
    let home = || {
        test::TestRequest::get()
            .uri("/office/")
            .insert_header(("Cookie", cookie.clone()))
    };
    let (status, _) = status_and_location(&api, form_to("/office/sign-out", &cookie, &[])).await;
    assert_eq!(status, 403, "a sign-out without the page's token");
    assert_eq!(
        status_and_location(&api, home()).await.0,
        200,
        "still signed in"
    );

    let (status, location) = status_and_location(
        &api,
        form_to("/office/sign-out", &cookie, &[("csrf", csrf.as_str())]),
    )
    .await;
    assert_eq!(status, 303);
    assert_eq!(location.as_deref(), Some("/office/sign-in"));
    let (status, location) = status_and_location(&api, home()).await;
    assert_eq!(status, 303, "the session has ended");
    assert!(
        location.is_some_and(|l| l.starts_with("/office/sign-in")),
        "back to the sign-in"
    );
}

#[actix_web::test]
async fn revoking_a_token_on_its_page_needs_the_pages_token_and_then_stops_it_at_once() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let cookie = signed_in(&api, &db.admin).await;
    let page = page_text(&api, "/office/tokens", &cookie).await;
    let csrf = csrf_of(&page);
    let row = page.find("test reader").expect("the reader's token listed");
    let action_at = row
        + page[row..]
            .find("/office/tokens/")
            .expect("its revoke form");
    let action = &page[action_at..action_at + page[action_at..].find('"').expect("end")];
    assert!(action.ends_with("/revoke"), "{action}");
    let reader = api.with_token(&db.reader);
    let reader_reads = || async { reader.tournaments().await.status };
    assert_eq!(reader_reads().await, 200);

    let (status, _) = status_and_location(&api, form_to(action, &cookie, &[])).await;
    assert_eq!(status, 403, "a revocation without the page's token");
    assert_eq!(reader_reads().await, 200, "the token still works");

    let (status, _) =
        status_and_location(&api, form_to(action, &cookie, &[("csrf", csrf.as_str())])).await;
    assert_eq!(status, 303);
    assert_eq!(reader_reads().await, 401, "the token no longer works");
    let page = page_text(&api, "/office/tokens", &cookie).await;
    assert!(
        page.contains("The token of test reader is revoked"),
        "{page}"
    );
}

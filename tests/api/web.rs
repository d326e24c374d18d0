//! The back office in a real browser (headless Chromium): signing in, setting up a round
//! from a pairing file, recording at the game desk, the engine's answers, roles and CSRF, and
//! pages that stay on this origin. Screenshots of every screen are written to docs/screens
//! when `ARBITER_SCREENSHOTS=1`.

use crate::browser::{Browser, Office};
use crate::client::{Api, api};
use crate::support::TestDb;
use crate::tournaments::{GROS_TRF, city_open};
use fantoccini::Locator;
use serde_json::{Value, json};
use std::time::Duration;

/// A tournament with one loaded round; returns the game ids in board order.
async fn round_with(api: &Api<'_>, settings: Value, round: &str, csv: &str) -> Vec<String> {
    let tournament = api.create_tournament(&settings).await.expect(201);
    let id = tournament["tournament_id"].as_str().expect("id");
    let loaded = api
        .load_round(id, round, &json!({"csv": csv}))
        .await
        .expect(201);
    loaded["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g["game_id"].as_str().expect("id").to_string())
        .collect()
}

/// Records events through the API; returns the last seq.
async fn record(api: &Api<'_>, game: &str, expected_seq: u64, events: Value) -> u64 {
    let body = api
        .append_events(game, expected_seq, events)
        .await
        .expect(201);
    body["last_seq"].as_u64().expect("last seq")
}

/// Moves, each followed by the mover's clock press.
fn moves_with_presses(first: &str, sans: &[&str]) -> Value {
    let mut by = first.to_string();
    let mut events = Vec::new();
    for san in sans {
        events.push(json!({"type": "move", "by": by, "san": san}));
        events.push(json!({"type": "clock_press", "by": by}));
        by = if by == "white" {
            "black".into()
        } else {
            "white".into()
        };
    }
    Value::Array(events)
}

const ONE_BOARD: &str = "board,white,black,white_fide_id,black_fide_id\n1,\"Sokolova, Anna\",\"Okafor, Ben\",4100001,\n";

#[actix_web::test]
async fn an_arbiter_signs_in_with_a_token_and_signing_out_ends_the_session() {
    if !crate::browser::available() {
        return;
    }
    let db = TestDb::new().await;
    let office = Office::start(&db).await;
    let browser = Browser::open(1024, 768).await;

    browser
        .client
        .goto(&office.url("/office/sign-in"))
        .await
        .expect("sign-in page");
    browser.fill(Locator::Id("token"), "arb_not_a_token").await;
    browser
        .click(Locator::Css("form button[type=submit]"))
        .await;
    let refusal = browser
        .wait_for("p.refusal")
        .await
        .text()
        .await
        .expect("text");
    assert!(
        refusal.contains("not known or has been revoked"),
        "{refusal}"
    );

    browser.sign_in(&office, &db.arbiter).await;
    let who = browser.text(Locator::Css(".signed-in")).await;
    assert!(
        who.contains("test arbiter") && who.contains("arbiter"),
        "{who}"
    );
    let cookie = browser
        .client
        .get_named_cookie("arbiter_session")
        .await
        .expect("session cookie");
    assert_eq!(cookie.http_only(), Some(true));
    assert_eq!(format!("{:?}", cookie.same_site()), "Some(Strict)");
    assert_ne!(cookie.secure(), Some(true), "plain HTTP: not Secure");
    let session = cookie.value().to_string();

    browser.click(Locator::Css(".signed-in button")).await;
    browser.wait_for("#token").await;
    let response = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
        .get(office.url("/office/"))
        .header("Cookie", format!("arbiter_session={session}"))
        .send()
        .await
        .expect("answer");
    assert_eq!(response.status().as_u16(), 303, "the old session is gone");
    assert_eq!(
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM web_sessions")
            .fetch_one(db.store.pool())
            .await
            .expect("count"),
        0
    );
    browser.close().await;
    office.stop().await;
}

#[actix_web::test]
async fn a_tournament_is_set_up_and_a_round_loaded_from_a_trf_file_creates_its_games_once() {
    if !crate::browser::available() {
        return;
    }
    let db = TestDb::new().await;
    let office = Office::start(&db).await;
    let browser = Browser::open(1024, 768).await;
    browser.sign_in(&office, &db.arbiter).await;

    browser.click(Locator::LinkText("New tournament")).await;
    browser.wait_for("#name").await;
    browser
        .fill(Locator::Id("name"), "XX Open Internacional de Gros")
        .await;
    browser.fill(Locator::Id("site"), "Donostia").await;
    // The form opens on FIDE's 90/40+30+30; this event plays one period of 90 minutes.
    assert_eq!(
        browser
            .client
            .find(Locator::Css("#tc_form option:checked"))
            .await
            .expect("the chosen control")
            .attr("value")
            .await
            .expect("value")
            .as_deref(),
        Some("fide_standard")
    );
    browser.choose(Locator::Id("tc_form"), "single").await;
    browser.fill(Locator::Id("base_minutes"), "90").await;
    browser.fill(Locator::Id("increment_seconds"), "30").await;
    browser
        .fill(Locator::Id("arbiters"), "IA Mikel Larreategi Arana")
        .await;
    browser
        .click(Locator::Css("form.grid button[type=submit]"))
        .await;
    browser.wait_for("#pairing_file").await;
    assert!(browser.source().await.contains("standard 90 min + 30 s"));

    let trf = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gros-2010.trf");
    browser.fill(Locator::Id("round"), "4").await;
    browser
        .client
        .find(Locator::Id("pairing_file"))
        .await
        .expect("file field")
        .send_keys(&trf.display().to_string())
        .await
        .expect("choose the file");
    browser
        .click(Locator::Css("form[enctype] button[type=submit]"))
        .await;
    let notice = browser
        .wait_for("p.notice")
        .await
        .text()
        .await
        .expect("text");
    assert!(notice.contains("Round 4: 23 games created"), "{notice}");
    assert!(notice.contains("Moreno Romero Ernesto (Z)"), "{notice}");
    let rows = browser
        .client
        .find_all(Locator::Css("#floor-rows tr"))
        .await
        .expect("rows");
    assert_eq!(rows.len(), 23);
    let first = rows[0].text().await.expect("text");
    assert!(
        first.contains("Guijarro Galan Jose Luis") && first.contains("Mirzoev Azer"),
        "{first}"
    );

    // Loading the same file again creates nothing.
    browser.client.back().await.expect("back");
    browser.client.refresh().await.expect("reload");
    browser.wait_for("#pairing_file").await;
    browser.fill(Locator::Id("round"), "4").await;
    browser
        .client
        .find(Locator::Id("pairing_file"))
        .await
        .expect("file field")
        .send_keys(&trf.display().to_string())
        .await
        .expect("choose the file");
    browser
        .click(Locator::Css("form[enctype] button[type=submit]"))
        .await;
    let notice = browser
        .wait_for("p.notice")
        .await
        .text()
        .await
        .expect("text");
    assert!(
        notice.contains("0 games created, 23 already there"),
        "{notice}"
    );
    let games: i64 = sqlx::query_scalar("SELECT count(*) FROM games")
        .fetch_one(db.store.pool())
        .await
        .expect("count");
    assert_eq!(games, 23);
    // The file's players and the round's byes are kept for the tournament report.
    let kept: i64 = sqlx::query_scalar("SELECT count(*) FROM tournament_players")
        .fetch_one(db.store.pool())
        .await
        .expect("count");
    assert_eq!(kept, 52);
    let byes: Vec<(i32, String)> = sqlx::query_as(
        "SELECT start_number, code FROM tournament_byes WHERE round = '4' ORDER BY start_number",
    )
    .fetch_all(db.store.pool())
    .await
    .expect("byes");
    let byes: Vec<(i32, &str)> = byes.iter().map(|(n, c)| (*n, c.as_str())).collect();
    assert_eq!(
        byes,
        vec![
            (28, "Z"),
            (29, "H"),
            (30, "H"),
            (37, "H"),
            (41, "H"),
            (48, "U")
        ]
    );
    // The tournament's page links the report in both versions.
    browser.client.back().await.expect("back");
    browser.client.refresh().await.expect("reload");
    browser.wait_for("#pairing_file").await;
    let page = browser.source().await;
    assert!(page.contains("/trf?version=26"), "{page}");
    assert!(page.contains("TRF-16"), "{page}");
    assert!(
        page.contains("Games without a result yet (blank in the report): round 4: 23 of 23."),
        "{page}"
    );
    browser.close().await;
    office.stop().await;
}

#[actix_web::test]
async fn moves_and_clock_presses_are_recorded_at_the_desk_and_a_refused_move_keeps_the_form() {
    if !crate::browser::available() {
        return;
    }
    let db = TestDb::new().await;
    let office = Office::start(&db).await;
    let api = api(&db).await;
    let games = round_with(&api, city_open(), "1", ONE_BOARD).await;
    let game = &games[0];
    let browser = Browser::open(1024, 768).await;
    browser.sign_in(&office, &db.arbiter).await;
    browser
        .client
        .goto(&office.url("/office/floor?event=City%20Open%202026&round=1"))
        .await
        .expect("floor");
    browser.click(Locator::Css("td.board a")).await;
    browser.wait_for("#san").await;

    browser.fill(Locator::Id("san"), "e4").await;
    browser.fill(Locator::Id("move-clock"), "1:59:51").await;
    browser
        .click(Locator::Css("#form-move button[type=submit]"))
        .await;
    let answer = answer_containing(&browser, "Sokolova, Anna plays 1. e4").await;
    assert!(
        answer.contains("Sokolova, Anna presses the clock (White 1:59:51"),
        "{answer}"
    );

    // The player to move is preselected: Black.
    browser.fill(Locator::Id("san"), "c5").await;
    browser.fill(Locator::Id("move-clock"), "1:59:40").await;
    browser
        .click(Locator::Css("#form-move button[type=submit]"))
        .await;
    answer_containing(&browser, "Okafor, Ben plays 1... c5").await;
    let sheet = browser.text(Locator::Css("table.scoresheet")).await;
    assert!(
        sheet.contains("e4") && sheet.contains("1:59:51") && sheet.contains("c5"),
        "{sheet}"
    );

    let detail = api.game(&game).await.body;
    assert_eq!(detail["state"]["moves"], json!(["e4", "c5"]));
    assert_eq!(detail["state"]["clocks"]["white_ms"], 7_191_000);
    assert_eq!(detail["state"]["clocks"]["black_ms"], 7_180_000);
    let stored = db.event_count().await;

    // An illegal move is refused: nothing stored, the form keeps it, the engine says why.
    browser.fill(Locator::Id("san"), "Ke3").await;
    browser
        .click(Locator::Css("#form-move button[type=submit]"))
        .await;
    let refusal = browser
        .wait_for("#answer.refused")
        .await
        .text()
        .await
        .expect("text");
    assert!(refusal.to_lowercase().contains("illegal move"), "{refusal}");
    assert!(refusal.contains("record an illegal_move"), "{refusal}");
    let kept = browser
        .client
        .find(Locator::Id("san"))
        .await
        .expect("field")
        .prop("value")
        .await
        .expect("value");
    assert_eq!(kept.as_deref(), Some("Ke3"));
    assert_eq!(db.event_count().await, stored, "nothing stored");

    // The floor shows the clocks, and that White's clock runs.
    browser
        .client
        .goto(&office.url("/office/floor?event=City%20Open%202026&round=1"))
        .await
        .expect("floor");
    let running = browser
        .text(Locator::Css("#floor-rows .clock.running"))
        .await;
    assert!(running.contains("1:59:51"), "White's clock runs: {running}");
    browser.close().await;
    office.stop().await;
}

#[actix_web::test]
async fn an_incorrect_repetition_claim_shows_its_penalty_and_article_and_a_correct_one_ends_the_game()
 {
    if !crate::browser::available() {
        return;
    }
    let db = TestDb::new().await;
    let office = Office::start(&db).await;
    let api = api(&db).await;
    let games = round_with(&api, city_open(), "1", ONE_BOARD).await;
    let game = &games[0];
    let seq = record(
        &api,
        game,
        1,
        moves_with_presses("white", &["Nf3", "Nf6", "Ng1", "Ng8"]),
    )
    .await;
    let browser = Browser::open(1024, 768).await;
    browser.sign_in(&office, &db.arbiter).await;
    browser
        .client
        .goto(&office.url(&format!("/office/games/{game}")))
        .await
        .expect("desk");

    browser
        .click(Locator::XPath("//summary[contains(., 'Claim (9.2')]"))
        .await;
    browser
        .choose(Locator::Css("#form-claim select[name=by]"), "white")
        .await;
    browser.choose(Locator::Id("kind"), "repetition").await;
    browser
        .click(Locator::Css("#form-claim button[type=submit]"))
        .await;
    let answer = browser
        .wait_for("#answer")
        .await
        .text()
        .await
        .expect("text");
    assert!(answer.contains("Claim incorrect"), "{answer}");
    assert!(answer.contains("Article 9.2.2"), "{answer}");
    assert!(answer.contains("Black receives 120 s"), "{answer}");
    assert!(answer.contains("Article 9.5.3"), "{answer}");
    let seq = seq + 3; // the claim, its ruling, the penalty
    let seq = record(
        &api,
        game,
        seq,
        json!([{"type": "draw_decline", "by": "black"}, {"type": "move", "by": "white", "san": "Nf3"},
               {"type": "move", "by": "black", "san": "Nf6"}, {"type": "move", "by": "white", "san": "Ng1"}]),
    )
    .await;

    browser
        .client
        .goto(&office.url(&format!("/office/games/{game}")))
        .await
        .expect("desk");
    browser
        .click(Locator::XPath("//summary[contains(., 'Claim (9.2')]"))
        .await;
    browser
        .choose(Locator::Css("#form-claim select[name=by]"), "black")
        .await;
    browser.choose(Locator::Id("kind"), "repetition").await;
    browser.fill(Locator::Id("intended_move"), "Ng8").await;
    browser
        .click(Locator::Css("#form-claim button[type=submit]"))
        .await;
    let answer = browser
        .wait_for("#answer")
        .await
        .text()
        .await
        .expect("text");
    assert!(answer.contains("Claim correct"), "{answer}");
    assert!(answer.contains("Article 9.2.1"), "{answer}");
    assert!(answer.contains("Game over: ½-½"), "{answer}");
    assert!(answer.contains("0, 4"), "the occurrences: {answer}");
    let sheet = browser.wait_for("#answer figure.sheet img").await;
    let src = sheet.attr("src").await.expect("src").expect("a src");
    assert!(
        src.contains(&format!("/claims/{}/occurrences.svg", seq + 1)),
        "{src}"
    );
    // After the end the desk offers no board event any more than the engine accepts one.
    let detail = api.game(&game).await.body;
    assert_eq!(detail["state"]["result"], "1/2-1/2");
    assert_eq!(detail["state"]["termination"], "repetition_claim");
    browser.close().await;
    office.stop().await;
}

#[actix_web::test]
async fn a_reader_sees_no_recording_form_and_a_forged_post_is_refused() {
    if !crate::browser::available() {
        return;
    }
    let db = TestDb::new().await;
    let office = Office::start(&db).await;
    let api = api(&db).await;
    let games = round_with(&api, city_open(), "1", ONE_BOARD).await;
    let game = &games[0];
    let desk = office.url(&format!("/office/games/{game}"));

    let reader = Browser::open(1024, 768).await;
    reader.sign_in(&office, &db.reader).await;
    reader.client.goto(&desk).await.expect("desk");
    reader.wait_for("table.scoresheet").await;
    let forms = reader
        .client
        .find_all(Locator::Css("form.record"))
        .await
        .expect("forms");
    assert!(forms.is_empty(), "a reader sees no recording form");
    reader
        .client
        .goto(&office.url("/office/"))
        .await
        .expect("events");
    assert!(!reader.source().await.contains("New tournament"));

    let arbiter = Browser::open(1024, 768).await;
    arbiter.sign_in(&office, &db.arbiter).await;
    arbiter.client.goto(&desk).await.expect("desk");
    let csrf = arbiter
        .client
        .find(Locator::Css("#form-move input[name=csrf]"))
        .await
        .expect("the token field")
        .attr("value")
        .await
        .expect("value")
        .expect("a token");
    let session = arbiter.session_cookie().await;
    let before = db.event_count().await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let post = |form: Vec<(&'static str, String)>, origin: String| {
        client
            .post(office.url(&format!("/office/games/{game}/record")))
            .header("Cookie", format!("arbiter_session={session}"))
            .header("Origin", origin)
            .form(&form)
            .send()
    };
    let fields = |with_csrf: Option<&str>| {
        let mut form = vec![
            ("expected_seq", "1".to_string()),
            ("type", "resign".to_string()),
            ("by", "white".to_string()),
        ];
        if let Some(token) = with_csrf {
            form.push(("csrf", token.to_string()));
        }
        form
    };
    // Without the page's token, from this origin: refused.
    let forged = post(fields(None), office.base.clone())
        .await
        .expect("answer");
    assert_eq!(forged.status().as_u16(), 403);
    let page = forged.text().await.expect("page");
    assert!(page.contains("security token"), "{page}");
    // With the token but from another site: refused.
    let forged = post(fields(Some(&csrf)), "http://evil.example".into())
        .await
        .expect("answer");
    assert_eq!(forged.status().as_u16(), 403);
    assert_eq!(db.event_count().await, before, "nothing stored");
    // The genuine form is accepted (the checks do not refuse everything).
    let genuine = post(fields(Some(&csrf)), office.base.clone())
        .await
        .expect("answer");
    assert_eq!(genuine.status().as_u16(), 303);
    assert_eq!(
        db.event_count().await,
        before + 2,
        "the resignation and its end"
    );

    // A reader's session cannot record even with its own token and origin.
    reader.client.goto(&desk).await.expect("desk");
    let reader_csrf = reader
        .client
        .find(Locator::Css("header form input[name=csrf]"))
        .await
        .expect("the sign-out form's token")
        .attr("value")
        .await
        .expect("value")
        .expect("a token");
    let reader_session = reader.session_cookie().await;
    let refused = client
        .post(office.url(&format!("/office/games/{game}/record")))
        .header("Cookie", format!("arbiter_session={reader_session}"))
        .header("Origin", office.base.clone())
        .form(&[
            ("csrf", reader_csrf),
            ("expected_seq", "3".into()),
            ("type", "flag".into()),
            ("side", "white".into()),
        ])
        .send()
        .await
        .expect("answer");
    assert_eq!(refused.status().as_u16(), 403);
    assert_eq!(db.event_count().await, before + 2);
    reader.close().await;
    arbiter.close().await;
    office.stop().await;
}

#[actix_web::test]
async fn the_api_accepts_a_session_cookie_for_reading_only_and_revoking_the_token_ends_the_session()
{
    if !crate::browser::available() {
        return;
    }
    let db = TestDb::new().await;
    let office = Office::start(&db).await;
    let api = api(&db).await;
    let games = round_with(&api, city_open(), "1", ONE_BOARD).await;
    let browser = Browser::open(1024, 768).await;
    browser.sign_in(&office, &db.arbiter).await;
    let session = browser.session_cookie().await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let cookie = format!("arbiter_session={session}");
    let read = client
        .get(office.url(&format!("/v1/games/{}", games[0])))
        .header("Cookie", &cookie)
        .send()
        .await
        .expect("answer");
    assert_eq!(read.status().as_u16(), 200);
    let write = client
        .post(office.url(&format!("/v1/games/{}/events", games[0])))
        .header("Cookie", &cookie)
        .header("Origin", office.base.clone())
        .json(&json!({"expected_seq": 1, "events": [{"type": "resign", "by": "white"}]}))
        .send()
        .await
        .expect("answer");
    assert_eq!(write.status().as_u16(), 401, "writes need a token");

    let token_id: uuid::Uuid =
        sqlx::query_scalar("SELECT token_id FROM api_tokens WHERE name = 'test arbiter'")
            .fetch_one(db.store.pool())
            .await
            .expect("token id");
    let revoked = client
        .delete(office.url(&format!("/v1/tokens/{token_id}")))
        .bearer_auth(&db.admin)
        .send()
        .await
        .expect("answer");
    assert_eq!(revoked.status().as_u16(), 200);
    let read = client
        .get(office.url(&format!("/v1/games/{}", games[0])))
        .header("Cookie", &cookie)
        .send()
        .await
        .expect("answer");
    assert_eq!(
        read.status().as_u16(),
        401,
        "the session ended with its token"
    );
    browser
        .client
        .goto(&office.url("/office/"))
        .await
        .expect("events");
    browser.wait_for("#token").await;
    browser.close().await;
    office.stop().await;
}

/// Every absolute URL in `text` that does not point at this machine.
fn foreign_urls(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("//") {
        let before = &rest[..at];
        let scheme_ok = before.ends_with("http:")
            || before.ends_with("https:")
            || before.ends_with("ws:")
            || before.ends_with("wss:")
            || before.ends_with('"')
            || before.ends_with('\'')
            || before.ends_with('(')
            || before.ends_with('=');
        let after = &rest[at + 2..];
        let host: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
            .collect();
        if scheme_ok
            && !host.is_empty()
            && !host.starts_with("127.0.0.1")
            && !host.starts_with("localhost")
            && !host.starts_with("[::1]")
        {
            found.push(format!("//{host}"));
        }
        rest = &rest[at + 2..];
    }
    found
}

#[test]
fn the_url_check_finds_foreign_urls_and_passes_loopback_ones() {
    assert_eq!(
        foreign_urls("<img src=\"https://cdn.example.com/x.png\">"),
        vec!["//cdn.example.com"]
    );
    assert_eq!(
        foreign_urls("<a href=\"//evil.example/\">"),
        vec!["//evil.example"]
    );
    assert!(foreign_urls("<a href=\"http://127.0.0.1:8080/office/\"> a // comment").is_empty());
}

/// Scenario for the screens: a tournament with a loaded round and games in every state,
/// recorded through the typed client on `db`, the database the office serves (the office
/// stays a parameter for the callers that name the server the scenario is shown on).
pub(crate) async fn venue(_office: &Office, db: &TestDb) -> Vec<String> {
    let api = api(db).await;
    let mut settings = city_open();
    settings["name"] = json!("XX Open Internacional de Gros");
    settings["site"] = json!("Donostia");
    settings["starts_on"] = json!("2026-09-24");
    settings["ends_on"] = json!("2026-10-02");
    settings["arbiters"] = json!([
        "IA Mikel Larreategi Arana (chief)",
        "FA Ane Etxeberria",
        "FA Jon Agirre"
    ]);
    // The standings page and the report show a column per tie-break.
    settings["tie_breaks"] = json!(["BH/C1", "BH", "SB", "DE", "ARO"]);
    let tournament = api.create_tournament(&settings).await.expect(201);
    let id = tournament["tournament_id"]
        .as_str()
        .expect("id")
        .to_string();
    let loaded = api
        .load_round(&id, 4, &json!({"trf": GROS_TRF}))
        .await
        .expect(201);
    let games: Vec<String> = loaded["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g["game_id"].as_str().expect("id").to_string())
        .collect();
    let clocked = |sans: &[&str], start: u64| {
        let mut events = Vec::new();
        let mut white = 7_200_000u64;
        let mut black = 7_200_000u64;
        for (i, san) in sans.iter().enumerate() {
            let by = if i % 2 == 0 { "white" } else { "black" };
            let spent = start + (i as u64 * 37_000) % 240_000;
            if by == "white" {
                white -= spent
            } else {
                black -= spent
            }
            events.push(json!({"type": "move", "by": by, "san": san}));
            events.push(json!({"type": "clock_press", "by": by, "white_ms": if by == "white" { Some(white) } else { None }, "black_ms": if by == "black" { Some(black) } else { None }}));
        }
        Value::Array(events)
    };
    // Board 1: a repetition claimed too early (penalty), then correctly.
    let seq = record(
        &api,
        &games[0],
        1,
        clocked(&["Nf3", "Nf6", "Ng1", "Ng8"], 30_000),
    )
    .await;
    let seq = record(&api, &games[0], seq, json!([{"type": "clock_pause", "by": "white"}, {"type": "claim", "by": "white", "kind": "repetition"}])).await;
    let seq = record(
        &api,
        &games[0],
        seq,
        json!([{"type": "draw_decline", "by": "black"}, {"type": "clock_resume"}]),
    )
    .await;
    let seq = record(
        &api,
        &games[0],
        seq,
        clocked(&["Nf3", "Nf6", "Ng1"], 20_000),
    )
    .await;
    record(&api, &games[0], seq, json!([{"type": "clock_pause", "by": "black"}, {"type": "claim", "by": "black", "kind": "repetition", "intended_move": "Ng8"}])).await;
    // Board 2: an open game with a pending draw offer.
    let seq = record(
        &api,
        &games[1],
        1,
        clocked(
            &[
                "d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "e3", "O-O", "Bd3", "d5",
            ],
            60_000,
        ),
    )
    .await;
    record(
        &api,
        &games[1],
        seq,
        json!([{"type": "draw_offer", "by": "black"}]),
    )
    .await;
    // Board 3: a completed illegal move (penalty 7.5.5) and a touched piece.
    let seq = record(
        &api,
        &games[2],
        1,
        clocked(&["e4", "e5", "Nf3", "Nc6", "Bb5"], 45_000),
    )
    .await;
    let seq = record(&api, &games[2], seq, json!([{"type": "illegal_move", "by": "black", "description": "3...O-O with the bishop and the knight still on f8 and g8", "completed": true}])).await;
    record(
        &api,
        &games[2],
        seq,
        json!([{"type": "touch", "by": "black", "square": "a7"}]),
    )
    .await;
    // Board 4: a quickplay-finish claim waiting for the arbiter: White, short of time (less
    // than two minutes, III.5), claims that Black makes no effort to win by normal means.
    let mut scramble = Vec::new();
    for (i, (san, ms)) in [
        ("e4", 6_100_000u64),
        ("c5", 6_500_000),
        ("Nf3", 2_400_000),
        ("d6", 5_900_000),
        ("d4", 600_000),
        ("cxd4", 5_700_000),
        ("Nxd4", 105_000),
        ("Nf6", 5_650_000),
    ]
    .into_iter()
    .enumerate()
    {
        let by = if i % 2 == 0 { "white" } else { "black" };
        scramble.push(json!({"type": "move", "by": by, "san": san}));
        scramble.push(json!({"type": "clock_press", "by": by, format!("{by}_ms"): ms}));
    }
    let seq = record(&api, &games[3], 1, Value::Array(scramble)).await;
    record(&api, &games[3], seq, json!([{"type": "clock_pause", "by": "white"}, {"type": "claim", "by": "white", "kind": "quickplay_finish"}])).await;
    // Board 5: checkmate; board 6: resigned; board 7: an arbiter's decision appealed.
    let seq = record(
        &api,
        &games[4],
        1,
        clocked(&["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"], 15_000),
    )
    .await;
    record(
        &api,
        &games[4],
        seq,
        json!([{"type": "move", "by": "white", "san": "Qxf7#"}]),
    )
    .await;
    let seq = record(
        &api,
        &games[5],
        1,
        clocked(&["c4", "e5", "Nc3", "Nf6", "g3", "d5"], 50_000),
    )
    .await;
    record(
        &api,
        &games[5],
        seq,
        json!([{"type": "resign", "by": "black"}]),
    )
    .await;
    let seq = record(
        &api,
        &games[6],
        1,
        clocked(&["d4", "d5", "Bf4", "c5"], 40_000),
    )
    .await;
    let seq = record(&api, &games[6], seq, json!([{"type": "arbiter_decision", "decision": "game_ended", "result": "0-1", "reason": "11.3.1: White's mobile phone rang in the playing venue (11.3.2.1)."}])).await;
    record(&api, &games[6], seq, json!([{"type": "appeal_lodged", "by": "White (Darrigues, Alain)", "against_seq": seq - 1, "grounds": "The phone was switched off and in the bag left with the arbiter, not on the player."}])).await;
    // Board 8: a forfeit before the first move.
    record(&api, &games[7], 1, json!([{"type": "arbiter_decision", "decision": "game_ended", "result": "1-0", "reason": "Forfeit: Black did not play the game (6.7.1); White wins by forfeit."}])).await;
    // Games of an event without a tournament record, created the old way.
    let created = api
        .create_game(
            &json!({"white": {"name": "Etxeberria, Ane"}, "black": {"name": "Agirre, Jon"},
            "event": "Club Blitz Night", "round": "1", "board": 1,
            "time_control": {"kind": "blitz", "base_ms": 180_000, "increment_ms": 2_000}}),
        )
        .await;
    assert_eq!(created.status, 201);
    // Boards 9-12: games under way.
    for (index, opening) in [
        &["e4", "e6", "d4", "d5", "Nc3", "Nf6", "Bg5"][..],
        &["Nf3", "d5", "g3", "Nf6", "Bg2", "e6", "O-O", "Be7"][..],
        &["e4", "c6", "d4", "d5", "e5", "Bf5"][..],
        &["d4", "f5", "g3", "Nf6", "Bg2"][..],
    ]
    .into_iter()
    .enumerate()
    {
        record(
            &api,
            &games[8 + index],
            1,
            clocked(opening, 70_000 + index as u64 * 11_000),
        )
        .await;
    }
    games
}

#[actix_web::test]
async fn every_screen_stays_on_this_origin_and_is_captured_for_the_documentation() {
    if !crate::browser::available() {
        return;
    }
    let db = TestDb::new().await;
    let office = Office::start(&db).await;
    let games = venue(&office, &db).await;
    let event = "XX%20Open%20Internacional%20de%20Gros";
    let tournament: uuid::Uuid = sqlx::query_scalar("SELECT tournament_id FROM tournaments")
        .fetch_one(db.store.pool())
        .await
        .expect("tournament");
    let decision_seq: i64 = sqlx::query_scalar(
        "SELECT seq FROM events WHERE game_id = $1::uuid AND event_type = 'arbiter_decision'",
    )
    .bind(&games[6])
    .fetch_one(db.store.pool())
    .await
    .expect("decision");
    let claim_ruled: i64 = sqlx::query_scalar(
        "SELECT max(seq) FROM events WHERE game_id = $1::uuid AND event_type = 'claim_ruled'",
    )
    .bind(&games[0])
    .fetch_one(db.store.pool())
    .await
    .expect("ruling");
    let claim_seq = claim_ruled - 1;

    // (who, name, path, full page)
    let screens: Vec<(&str, &str, String, bool)> = vec![
        ("arbiter", "events", "/office/".into(), false),
        (
            "arbiter",
            "event",
            format!("/office/events/{tournament}"),
            true,
        ),
        (
            "arbiter",
            "floor",
            format!("/office/floor?event={event}&round=4"),
            true,
        ),
        (
            "arbiter",
            "desk",
            format!(
                "/office/games/{}?recorded={}-{}",
                games[0],
                claim_seq - 1,
                claim_ruled + 1
            ),
            true,
        ),
        (
            "arbiter",
            "desk-board-3",
            format!("/office/games/{}", games[2]),
            true,
        ),
        (
            "arbiter",
            "incidents",
            format!("/office/incidents?event={event}&round=4"),
            true,
        ),
        (
            "arbiter",
            "results",
            format!("/office/results?event={event}&round=4"),
            true,
        ),
        (
            "arbiter",
            "chief-report",
            format!("/office/events/{tournament}/report"),
            true,
        ),
        (
            "appeals",
            "appeals",
            format!("/office/appeals?event={event}"),
            true,
        ),
        (
            "appeals",
            "decision",
            format!("/office/games/{}/decisions/{decision_seq}", games[6]),
            true,
        ),
        ("admin", "tokens", "/office/tokens".into(), false),
    ];
    let mut browser = Browser::open(1024, 768).await;
    browser
        .client
        .goto(&office.url("/office/sign-in"))
        .await
        .expect("sign in");
    browser.screenshot("sign-in", 1024, 768, false).await;
    let client = reqwest::Client::new();
    let mut signed_in_as = "";
    for (who, name, path, full) in &screens {
        if *who != signed_in_as {
            browser.close().await;
            browser = Browser::open(1024, 768).await;
            let token = match *who {
                "appeals" => &db.appeals,
                "admin" => &db.admin,
                _ => &db.arbiter,
            };
            browser.sign_in(&office, token).await;
            signed_in_as = who;
        }
        browser.client.goto(&office.url(path)).await.expect("page");
        browser.wait_for("main").await;
        if *name == "tokens" {
            browser
                .fill(
                    Locator::Id("token-name"),
                    "FA Ane Etxeberria, deputy arbiter",
                )
                .await;
            browser
                .click(Locator::Css("form.grid button[type=submit]"))
                .await;
            browser.wait_for("#new-token").await;
        }
        let source = browser.source().await;
        assert!(
            !source.contains("Not found") && !source.contains("Something failed"),
            "{name}: {source}"
        );
        assert_eq!(
            foreign_urls(&source),
            Vec::<String>::new(),
            "{name} refers to another origin"
        );
        // The response itself: the policy and nothing from another origin in what was sent.
        let response = client
            .get(office.url(path))
            .header(
                "Cookie",
                format!("arbiter_session={}", browser.session_cookie().await),
            )
            .send()
            .await
            .expect("answer");
        let policy = response
            .headers()
            .get("content-security-policy")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        assert!(
            policy.contains("default-src 'self'") && policy.contains("script-src 'self'"),
            "{name}: {policy}"
        );
        let body = response.text().await.expect("body");
        assert_eq!(
            foreign_urls(&body),
            Vec::<String>::new(),
            "{name} sent another origin"
        );
        browser
            .screenshot(&format!("{name}-tablet"), 1024, 768, false)
            .await;
        browser
            .screenshot(&format!("{name}-desk"), 1440, 900, *full)
            .await;
        if matches!(*name, "incidents" | "results" | "chief-report") {
            browser.print_screenshot(&format!("{name}-print")).await;
        }
    }
    // An event without a tournament record has its screens too.
    browser.close().await;
    browser = Browser::open(1024, 768).await;
    browser.sign_in(&office, &db.arbiter).await;
    for (page, shows) in [
        ("floor", "Etxeberria, Ane"),
        ("results", "Agirre, Jon"),
        ("incidents", "Club Blitz Night"),
    ] {
        browser
            .client
            .goto(&office.url(&format!(
                "/office/{page}?event=Club%20Blitz%20Night&round=1"
            )))
            .await
            .expect("page");
        let source = browser.source().await;
        assert!(source.contains(shows), "{page}: {source}");
    }
    for asset in ["office.css", "office.js"] {
        let text = client
            .get(office.url(&format!("/office/assets/{asset}")))
            .send()
            .await
            .expect("asset")
            .text()
            .await
            .expect("text");
        assert_eq!(foreign_urls(&text), Vec::<String>::new(), "{asset}");
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    browser.close().await;
    office.stop().await;
}

#[actix_web::test]
async fn the_round_floor_of_a_second_session_updates_without_reloading() {
    if !crate::browser::available() {
        return;
    }
    let db = TestDb::new().await;
    let office = Office::start(&db).await;
    let api = api(&db).await;
    let csv =
        "board,white,black\n1,\"Sokolova, Anna\",\"Okafor, Ben\"\n2,\"Lee, Ann\",\"Meier, Jan\"\n";
    let games = round_with(&api, city_open(), "1", csv).await;
    let floor = office.url("/office/floor?event=City%20Open%202026&round=1");

    // The chief arbiter's screen: a reader's session following the round.
    let screen = Browser::open(1024, 768).await;
    screen.sign_in(&office, &db.reader).await;
    screen.client.goto(&floor).await.expect("floor");
    screen.wait_for("#live[data-state=live]").await;
    // A mark that a reload would wipe out.
    screen
        .client
        .execute("window.notReloaded = true; return true;", vec![])
        .await
        .expect("mark the page");
    let row = format!("#floor-rows tr[data-game='{}']", games[0]);
    let before = screen.text_now(&row).await.unwrap_or_default();
    assert!(before.contains("not started"), "{before}");

    // An arbiter at board 1 records a move and the clock press.
    let desk = Browser::open(1024, 768).await;
    desk.sign_in(&office, &db.arbiter).await;
    desk.client
        .goto(&office.url(&format!("/office/games/{}", games[0])))
        .await
        .expect("desk");
    desk.fill(Locator::Id("san"), "d4").await;
    desk.fill(Locator::Id("move-clock"), "1:58:30").await;
    desk.click(Locator::Css("#form-move button[type=submit]"))
        .await;
    desk.wait_for("#answer").await;

    // The floor shows it without a reload: Black's clock runs, White's shows the reading.
    let running = format!("{row} .clock.running");
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        let text = screen.text_now(&row).await.unwrap_or_default();
        let runs = screen.text_now(&running).await.unwrap_or_default();
        if text.contains("1:58:30") && runs.contains("2:00:00") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the floor did not update: {text} (running: {runs})"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let kept = screen
        .client
        .execute("return window.notReloaded === true;", vec![])
        .await
        .expect("read the mark");
    assert_eq!(kept, Value::Bool(true), "the page was not reloaded");

    // A draw offer on board 2 shows its badge.
    record(
        &api,
        &games[1],
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}, {"type": "draw_offer", "by": "white"}]),
    )
    .await;
    screen
        .wait_for(&format!(
            "#floor-rows tr[data-game='{}'] .badge-offer",
            games[1]
        ))
        .await;
    screen.close().await;
    desk.close().await;
    office.stop().await;
}

#[actix_web::test]
async fn a_wrong_move_with_its_press_and_a_wrong_result_are_undone_in_one_action_each() {
    if !crate::browser::available() {
        return;
    }
    let (db, office, game, browser) = at_the_desk_of_a_new_round().await;
    let api = api(&db).await;
    let game = &game;
    assert!(
        browser.text_now("#undo").await.is_none(),
        "nothing to undo before the first entry"
    );

    // A move typed with its clock press: the panel shows both before anything is retracted.
    browser.fill(Locator::Id("san"), "e4").await;
    browser.fill(Locator::Id("move-clock"), "1:59:51").await;
    browser
        .click(Locator::Css("#form-move button[type=submit]"))
        .await;
    browser.wait_for("#answer").await;
    let panel = browser.text(Locator::Css("#undo")).await;
    assert!(
        panel.contains("Sokolova, Anna presses the clock")
            && panel.contains("Sokolova, Anna plays 1. e4")
            && !panel.contains('#'),
        "{panel}"
    );
    let stored = db.event_count().await;
    browser
        .fill(Locator::Id("undo-reason"), "d4 was played, e4 typed")
        .await;
    browser
        .click(Locator::Css("#form-undo button[type=submit]"))
        .await;
    let answer = answer_containing(&browser, "retracted").await;
    assert!(
        answer.contains("Sokolova, Anna's clock press after 1. e4 is retracted")
            && answer.contains("Correction: 1. e4 is retracted"),
        "{answer}"
    );
    assert_eq!(
        db.event_count().await,
        stored + 2,
        "two corrections, nothing deleted"
    );
    let detail = api.game(&game).await.body;
    assert_eq!(detail["state"]["moves"], json!([]));
    let log = api.events(&game).await.body;
    let corrections: Vec<&Value> = log["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|e| e["event"]["type"] == "correction")
        .collect();
    assert_eq!(corrections.len(), 2, "{log}");
    assert_eq!(corrections[0]["event"]["retracts_seq"], 3);
    assert_eq!(corrections[1]["event"]["retracts_seq"], 2);
    for correction in &corrections {
        assert_eq!(correction["event"]["reason"], "d4 was played, e4 typed");
        assert!(
            correction["recorded_by"]
                .as_str()
                .is_some_and(|by| by.contains("test arbiter")),
            "{correction}"
        );
    }

    // A wrong result from the results page: undone from the desk, the game goes on.
    browser
        .client
        .goto(&office.url("/office/results?event=City%20Open%202026&round=1"))
        .await
        .expect("results");
    browser
        .choose(Locator::Css("select[name=result]"), "1-0")
        .await;
    browser
        .click(Locator::Css("form.record button[type=submit]"))
        .await;
    browser.wait_for("a.undo").await;
    browser.click(Locator::Css("a.undo")).await;
    browser.wait_for("#undo-reason").await;
    let panel = browser.text(Locator::Css("#undo")).await;
    assert!(
        panel.contains("retracted with it"),
        "the game's end goes too: {panel}"
    );
    browser
        .fill(Locator::Id("undo-reason"), "the result was 0-1")
        .await;
    browser
        .click(Locator::Css("#form-undo button[type=submit]"))
        .await;
    answer_containing(&browser, "the result was 0-1").await;
    let detail = api.game(&game).await.body;
    assert_eq!(detail["state"]["status"], "in_progress", "{detail}");
    assert!(detail["state"]["result"].is_null(), "{detail}");
    browser.close().await;
    office.stop().await;
}

/// The engine's answer on the desk once it says `needle` (the page after a form is posted;
/// the answer of the page before is still there until the browser has followed the redirect).
async fn answer_containing(browser: &Browser, needle: &str) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        // A result is printed with a non-breaking hyphen (a column never splits "1-0").
        if let Some(answer) = browser.text_now("#answer").await
            && answer.replace('\u{2011}', "-").contains(needle)
        {
            return answer;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the desk never answered with {needle:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[actix_web::test]
async fn the_desk_shows_a_move_recorded_on_another_device_without_a_reload_and_keeps_what_is_typed()
{
    if !crate::browser::available() {
        return;
    }
    let (db, office, game, browser) = at_the_desk_of_a_new_round().await;
    let api = api(&db).await;
    let game = &game;
    tokio::time::sleep(Duration::from_millis(500)).await; // the stream opens

    // Another tablet records 1.e4: the idle desk follows by itself.
    let appended = api
        .append_events(
            game,
            1,
            json!([{"type": "move", "by": "white", "san": "e4"}]),
        )
        .await;
    assert_eq!(appended.status, 201);
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        let sheet = browser
            .text_now("table.scoresheet")
            .await
            .unwrap_or_default();
        if sheet.contains("e4") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the desk never showed the move: {sheet}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // With a form being filled in, the desk says so and keeps what was typed.
    browser.wait_for("#san").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    browser.fill(Locator::Id("san"), "c5").await;
    let appended = api
        .append_events(game, 2, json!([{"type": "draw_offer", "by": "white"}]))
        .await;
    assert_eq!(appended.status, 201);
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    while browser
        .client
        .execute(
            "return document.getElementById('desk-news').hidden;",
            vec![],
        )
        .await
        .ok()
        .and_then(|hidden| hidden.as_bool())
        .unwrap_or(true)
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the desk never said something was recorded elsewhere"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let kept = browser
        .client
        .find(Locator::Id("san"))
        .await
        .expect("field")
        .prop("value")
        .await
        .expect("value");
    assert_eq!(kept.as_deref(), Some("c5"), "what was typed is kept");
    browser.close().await;
    office.stop().await;
}

/// A round of one board loaded, an arbiter signed in at a tablet-sized browser, at the desk of
/// its game.
async fn at_the_desk_of_a_new_round() -> (TestDb, Office, String, Browser) {
    let db = TestDb::new().await;
    let office = Office::start(&db).await;
    let game = {
        let api = api(&db).await;
        round_with(&api, city_open(), "1", ONE_BOARD)
            .await
            .remove(0)
    };
    let browser = Browser::open(1024, 768).await;
    browser.sign_in(&office, &db.arbiter).await;
    browser
        .client
        .goto(&office.url(&format!("/office/games/{game}")))
        .await
        .expect("desk");
    browser.wait_for("#san").await;
    (db, office, game, browser)
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

/// Moves from the start, each followed by the mover's press with the mover's clock: every
/// move takes 90 seconds, and the clock (a DGT, which credits the next move's 30 seconds at the
/// press) shows `start_ms` less 60 seconds a move.
fn moves_with_dgt_readings(sans: &[String], start_ms: u64) -> Value {
    let mut events = Vec::new();
    for (ply, san) in sans.iter().enumerate() {
        let by = if ply % 2 == 0 { "white" } else { "black" };
        let moves = (ply / 2 + 1) as u64;
        events.push(json!({"type": "move", "by": by, "san": san}));
        events.push(
            json!({"type": "clock_press", "by": by, format!("{by}_ms"): start_ms - 60_000 * moves}),
        );
    }
    Value::Array(events)
}

#[actix_web::test]
async fn under_90_40_plus_30_the_floor_and_the_desk_show_the_period_the_moves_to_the_control_the_control_reached_and_a_reading_that_does_not_fit()
 {
    if !crate::browser::available() {
        return;
    }
    let db = TestDb::new().await;
    let office = Office::start(&db).await;
    let api = api(&db).await;
    // A FIDE standard event on DGT 3000 clocks, which add the 30 minutes only at 0:00.
    let mut settings = city_open();
    settings["name"] = json!("Donostia Masters 2026");
    settings["time_control"] = json!({"preset": "fide_standard"});
    settings["clock_behaviour"] =
        json!({"period_time_added": "at_zero_both_clocks", "increment_credit": "before_move"});
    let csv =
        "board,white,black\n1,\"Sokolova, Anna\",\"Okafor, Ben\"\n2,\"Lee, Ann\",\"Meier, Jan\"\n";
    let games = round_with(&api, settings, "1", csv).await;
    let sans = quiet_game(82);
    // Board 1: both players have completed 40 moves: the control is reached, the clock still
    // counts the first period.
    record(
        &api,
        &games[0],
        1,
        moves_with_dgt_readings(&sans[..80], 5_430_000),
    )
    .await;
    // Board 2: twelve moves each, 28 to the control.
    record(
        &api,
        &games[1],
        1,
        moves_with_dgt_readings(&sans[..24], 5_430_000),
    )
    .await;
    // Board 3, the title-match control (no increment before move 61): White under five
    // minutes in the first period need not keep score (8.4).
    let created = api
        .create_game(
            &json!({"white": {"name": "Etxeberria, Ane"}, "black": {"name": "Agirre, Jon"},
            "event": "Donostia Masters 2026", "round": "1", "board": 3,
            "time_control": {"preset": "title_match"}}),
        )
        .await
        .expect(201);
    let title_match = created["game"]["game_id"].as_str().expect("id").to_string();
    let mut events = moves_with_presses(
        "white",
        &sans[..20].iter().map(String::as_str).collect::<Vec<_>>(),
    );
    events.as_array_mut().expect("events").push(
        json!({"type": "clock_press", "by": "black", "white_ms": 240_000, "black_ms": 3_000_000}),
    );
    record(&api, &title_match, 1, events).await;

    let browser = Browser::open(1024, 768).await;
    browser.sign_in(&office, &db.arbiter).await;
    let floor = office.url("/office/floor?event=Donostia%20Masters%202026&round=1");
    browser.client.goto(&floor).await.expect("floor");
    browser.wait_for("#floor-rows").await;
    let row = |game: &str| format!("#floor-rows tr[data-game='{game}']");
    let first = browser.text(Locator::Css(&row(&games[0]))).await;
    assert_eq!(first.matches("✓ control 40").count(), 2, "{first}");
    let second = browser.text(Locator::Css(&row(&games[1]))).await;
    assert_eq!(second.matches("P1 · 28 to go").count(), 2, "{second}");
    let third = browser.text(Locator::Css(&row(&title_match))).await;
    assert!(third.contains("White need not keep score (8.4)"), "{third}");
    assert!(!third.contains("Black need not"), "{third}");
    browser
        .screenshot("floor-periods-tablet", 1024, 768, false)
        .await;

    // Board 1's desk: the table of periods, then White's 41st move with a reading 30 1/2 minutes
    // above what the clock can show: more than even the 30 minutes the DGT adds when a
    // display reaches 0:00 (a reading within them is the clock adding the period, issue 36).
    browser
        .client
        .goto(&office.url(&format!("/office/games/{}", games[0])))
        .await
        .expect("desk");
    browser.wait_for("#periods").await;
    // The next move is in the second period; the clock still counts the first.
    let period = browser
        .text(Locator::Css("#periods tr.period td.white"))
        .await;
    assert!(period.contains("2 of 2 (last)"), "{period}");
    assert!(period.contains("the clock: period 1"), "{period}");
    let control = browser
        .text(Locator::Css("#periods tr.control td.white"))
        .await;
    assert!(control.contains("✓ reached at move 40"), "{control}");
    let note = browser.text(Locator::Css("p.periods-note")).await;
    assert!(note.contains("a flag now does not lose (6.4)"), "{note}");
    assert!(browser.text_now("#discrepancies").await.is_none());
    browser.fill(Locator::Id("san"), &sans[80]).await;
    browser.fill(Locator::Id("move-clock"), "1:21:30").await;
    browser
        .click(Locator::Css("#form-move button[type=submit]"))
        .await;
    answer_containing(&browser, &sans[80]).await;
    let panel = browser.text(Locator::Css("#discrepancies")).await;
    assert!(
        panel.contains("White's clock read 1:21:30, more than the 51:00 it could show"),
        "{panel}"
    );
    assert!(panel.contains("record the flag"), "{panel}");
    browser
        .screenshot("desk-periods-discrepancy-tablet", 1024, 768, false)
        .await;
    browser
        .client
        .execute(
            "document.getElementById('periods').scrollIntoView(); window.scrollBy(0, -60); return true;",
            vec![],
        )
        .await
        .expect("scroll to the periods");
    browser
        .screenshot("desk-periods-tablet", 1024, 768, false)
        .await;

    // Board 2's desk: the arbiter cannot establish Black's count (8.6): the next move is the
    // first of the second period, whose 30 minutes are credited.
    browser
        .client
        .goto(&office.url(&format!("/office/games/{}", games[1])))
        .await
        .expect("desk");
    browser.wait_for("#periods").await;
    let unknown = browser
        .text(Locator::Css("#periods tr.unknown td.black"))
        .await;
    assert!(unknown.contains("next move opens period 2"), "{unknown}");
    browser
        .click(Locator::XPath(
            "//summary[contains(., \"Arbiter's decision\")]",
        ))
        .await;
    browser
        .choose(Locator::Id("decision"), "move_count_set")
        .await;
    browser
        .choose(
            Locator::Css("#form-decision select[name=count_side]"),
            "black",
        )
        .await;
    browser
        .fill(
            Locator::Id("decision-reason"),
            "Scoresheets incomplete; the count cannot be established (8.6).",
        )
        .await;
    browser
        .click(Locator::Css("#form-decision button[type=submit]"))
        .await;
    let answer = answer_containing(&browser, "Article 8.6").await;
    assert!(answer.contains("Black receives 1800 s"), "{answer}");
    let period = browser
        .text(Locator::Css("#periods tr.period td.black"))
        .await;
    assert!(period.contains("2 of 2 (last)"), "{period}");

    browser.close().await;
    office.stop().await;
}

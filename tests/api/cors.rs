//! CORS on the public broadcast (issue 21 item 2): a viewer page on another origin may open
//! the public streams and fetch the public PGN; no route that needs a token or a session ever
//! answers a cross-origin request.

use crate::client::{Api, api_with_state};
use crate::support::{TestDb, bearer};
use actix_web::http::header::HeaderMap;
use actix_web::test;

const VIEWER: &str = "https://viewer.example.org";
const PUBLIC_ROUND_PGN: &str = "/v1/broadcast/rounds/pgn?event=Test%20Open%202026&round=1";

fn allow_origin(headers: &HeaderMap) -> Option<String> {
    headers
        .get("access-control-allow-origin")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// Sends a request exactly as built (its `Origin`, its method); returns the status, the
/// response headers and the body as text.
async fn with_headers(api: &Api<'_>, request: test::TestRequest) -> (u16, HeaderMap, String) {
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

fn preflight(uri: &str, origin: &str) -> test::TestRequest {
    test::TestRequest::default()
        .method(actix_web::http::Method::OPTIONS)
        .uri(uri)
        .insert_header(("Origin", origin))
        .insert_header(("Access-Control-Request-Method", "GET"))
        .insert_header(("Access-Control-Request-Headers", "last-event-id"))
}

#[actix_web::test]
async fn a_preflight_on_the_public_broadcast_from_an_allowed_origin_is_answered() {
    let db = TestDb::new().await;
    let state = db.state_with(|config| {
        config.public_broadcast = true;
        config.cors_allowed_origins = vec![VIEWER.into()];
    });
    let api = api_with_state(&db, state).await;
    let game = api.create_standard_game().await;
    for uri in [
        PUBLIC_ROUND_PGN.to_string(),
        format!("/v1/broadcast/games/{game}/stream"),
        "/v1/broadcast/rounds/stream?event=Test%20Open%202026&round=1".to_string(),
    ] {
        let (status, headers, body) = with_headers(&api, preflight(&uri, VIEWER)).await;
        assert_eq!(status, 200, "preflight of {uri}: {body}");
        assert_eq!(allow_origin(&headers).as_deref(), Some(VIEWER), "{uri}");
        let methods = headers
            .get("access-control-allow-methods")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        assert!(methods.contains("GET"), "{uri}: {methods}");
        let allowed = headers
            .get("access-control-allow-headers")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        assert!(allowed.contains("last-event-id"), "{uri}: {allowed}");
        assert!(
            headers.get("access-control-allow-credentials").is_none(),
            "never with credentials"
        );
    }
}

#[actix_web::test]
async fn a_cross_origin_read_of_the_public_pgn_names_the_origin_and_exposes_the_etag() {
    let db = TestDb::new().await;
    let state = db.state_with(|config| {
        config.public_broadcast = true;
        config.cors_allowed_origins = vec![VIEWER.into()];
    });
    let api = api_with_state(&db, state).await;
    api.create_standard_game().await;
    let (status, headers, body) = with_headers(
        &api,
        test::TestRequest::get()
            .uri(PUBLIC_ROUND_PGN)
            .insert_header(("Origin", VIEWER)),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("[Event \"Test Open 2026\"]"), "{body}");
    assert_eq!(allow_origin(&headers).as_deref(), Some(VIEWER));
    let exposed = headers
        .get("access-control-expose-headers")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    assert!(exposed.contains("etag"), "{exposed}");

    // Another site is answered (a relay or curl is not a browser) but not allowed to read.
    let (status, headers, _) = with_headers(
        &api,
        test::TestRequest::get()
            .uri(PUBLIC_ROUND_PGN)
            .insert_header(("Origin", "https://elsewhere.example.com")),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(allow_origin(&headers), None);
}

#[actix_web::test]
async fn a_star_lets_any_site_read_the_public_broadcast_with_a_wildcard() {
    let db = TestDb::new().await;
    let state = db.state_with(|config| {
        config.public_broadcast = true;
        config.cors_allowed_origins = vec!["*".into()];
    });
    let api = api_with_state(&db, state).await;
    api.create_standard_game().await;
    let (status, headers, body) =
        with_headers(&api, preflight(PUBLIC_ROUND_PGN, "http://anyone.test:8000")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(allow_origin(&headers).as_deref(), Some("*"));
}

#[actix_web::test]
async fn routes_that_need_a_token_or_a_session_never_answer_cors() {
    let db = TestDb::new().await;
    let state = db.state_with(|config| {
        config.public_broadcast = true;
        config.cors_allowed_origins = vec!["*".into()];
    });
    let api = api_with_state(&db, state).await;
    let game = api.create_standard_game().await;
    for uri in [
        "/v1/rounds/pgn?event=Test%20Open%202026&round=1".to_string(),
        format!("/v1/games/{game}/stream"),
        format!("/v1/games/{game}"),
        "/v1/games".to_string(),
        "/office/".to_string(),
    ] {
        let (status, headers, _) = with_headers(&api, preflight(&uri, VIEWER)).await;
        assert_ne!(status, 200, "no preflight on {uri}");
        assert_eq!(allow_origin(&headers), None, "{uri}");
        // Headers only: the body of a stream never ends.
        let response = api
            .call(
                test::TestRequest::get()
                    .uri(&uri)
                    .insert_header(("Origin", VIEWER))
                    .insert_header(bearer(&db.reader)),
            )
            .await;
        assert_eq!(allow_origin(response.headers()), None, "{uri}");
    }
}

#[actix_web::test]
async fn without_configured_origins_the_public_broadcast_answers_no_cors() {
    let db = TestDb::new().await;
    let state = db.state_with(|config| config.public_broadcast = true);
    let api = api_with_state(&db, state).await;
    api.create_standard_game().await;
    let (_, headers, _) = with_headers(&api, preflight(PUBLIC_ROUND_PGN, VIEWER)).await;
    assert_eq!(allow_origin(&headers), None);
}

/// A page of another origin (another port) reads the public PGN with `fetch` and follows a
/// game with `EventSource` in headless Chromium; the full view, which needs a token, stays
/// unreadable from there.
#[actix_web::test]
async fn a_page_of_another_origin_fetches_the_public_pgn_and_follows_a_game_in_a_browser() {
    if !crate::browser::available() {
        return;
    }
    let db = TestDb::new().await;
    // Any page served on another port is another origin: the viewer's site.
    let viewer = db.spawn_app(|_| {}).await;
    let viewer_origin = viewer.base.clone();
    let service = db
        .spawn_app(|config| {
            config.public_broadcast = true;
            config.cors_allowed_origins = vec![viewer_origin];
        })
        .await;
    // The game is created in-process over the service's state; the browser reads it from
    // the service's port.
    let api = api_with_state(&db, service.state.clone()).await;
    let game = api.create_standard_game().await.to_string();

    let browser = crate::browser::Browser::open(1024, 768).await;
    browser
        .client
        .goto(&viewer.url("/healthz"))
        .await
        .expect("the viewer's page");
    let fetch = |url: String| {
        let client = browser.client.clone();
        async move {
            client
                .execute_async(
                    "const [url, done] = arguments;
                     fetch(url)
                       .then(r => r.text().then(text => done({status: r.status, etag: r.headers.get('etag'), text})))
                       .catch(e => done({error: String(e)}));",
                    vec![serde_json::json!(url)],
                )
                .await
                .expect("the script runs")
        }
    };
    let pgn = fetch(service.url(PUBLIC_ROUND_PGN)).await;
    assert_eq!(pgn["status"], 200, "{pgn}");
    assert!(
        pgn["text"]
            .as_str()
            .is_some_and(|t| t.contains("[Event \"Test Open 2026\"]")),
        "{pgn}"
    );
    assert!(pgn["etag"].is_string(), "the ETag is exposed: {pgn}");
    let full = fetch(service.url("/v1/rounds/pgn?event=Test%20Open%202026&round=1")).await;
    assert!(
        full["error"].is_string(),
        "the full view is not readable across origins: {full}"
    );

    let snapshot = browser
        .client
        .execute_async(
            "const [url, done] = arguments;
             const stream = new EventSource(url);
             stream.addEventListener('snapshot', m => { stream.close(); done(JSON.parse(m.data)); });
             stream.onerror = () => { stream.close(); done({error: 'the stream failed'}); };",
            vec![serde_json::json!(
                service.url(&format!("/v1/broadcast/games/{game}/stream"))
            )],
        )
        .await
        .expect("the script runs");
    assert!(snapshot["error"].is_null(), "{snapshot}");
    assert_eq!(snapshot["game_id"], game, "{snapshot}");
    browser.close().await;
    service.stop().await;
    viewer.stop().await;
}

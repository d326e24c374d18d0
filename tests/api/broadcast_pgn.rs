//! The round PGN that broadcast relays poll: tags, a clock after every move, legal SAN only,
//! ETags, and the public view's delay and filter.

use crate::client::{Api, Reply, api, api_with_state};
use crate::support::{TestDb, bearer};
use actix_web::test;
use serde_json::json;
use shakmaty::san::San;
use shakmaty::{Chess, Position};
use std::time::Duration;
use uuid::Uuid;

const ROUND_PGN: &str = "/v1/rounds/pgn?event=Club%20Championship%202026&round=4";
const PUBLIC_ROUND_PGN: &str = "/v1/broadcast/rounds/pgn?event=Club%20Championship%202026&round=4";

/// Creates a game of round 4 on `board`.
async fn create_board(api: &Api<'_>, board: u32) -> Uuid {
    let settings = json!({
        "white": {"name": format!("Alpha, Board{board}"), "fide_id": 4_100_000 + board},
        "black": {"name": format!("Beta, Board{board}"), "fide_id": 4_200_000 + board},
        "event": "Club Championship 2026", "round": "4", "board": board,
        "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000}
    });
    let body = api.create_game(&settings).await.expect(201);
    body["game"]["game_id"].as_str().unwrap().parse().unwrap()
}

/// GETs a round PGN with `token` (and `If-None-Match` when given): status, ETag, body.
async fn get_pgn(
    api: &Api<'_>,
    token: &str,
    uri: &str,
    if_none_match: Option<&str>,
) -> (u16, Option<String>, String) {
    let mut request = test::TestRequest::get()
        .uri(uri)
        .insert_header(bearer(token));
    if let Some(etag) = if_none_match {
        request = request.insert_header(("If-None-Match", etag));
    }
    let response = api.call(request).await;
    let status = response.status().as_u16();
    let etag = response
        .headers()
        .get("etag")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body = String::from_utf8(test::read_body(response).await.to_vec()).expect("UTF-8");
    (status, etag, body)
}

/// The games of a PGN text: tags and movetext.
fn games_of(text: &str) -> Vec<(Vec<(String, String)>, String)> {
    let mut games = Vec::new();
    for block in text.split("\n\n[").filter(|b| !b.trim().is_empty()) {
        let block = if block.starts_with('[') {
            block.to_string()
        } else {
            format!("[{block}")
        };
        let (header, movetext) = block.split_once("\n\n").expect("tags, then movetext");
        let tags = header
            .lines()
            .map(|line| {
                let inner = line.trim_start_matches('[').trim_end_matches(']');
                let (name, value) = inner.split_once(' ').expect("a tag");
                (name.to_string(), value.trim_matches('"').to_string())
            })
            .collect();
        games.push((tags, movetext.trim().to_string()));
    }
    games
}

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> &'a str {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("tag {name} in {tags:?}"))
}

/// The movetext split into moves (with the comment after each) and the result; comments are
/// removed from the moves, so an illegal move could only hide in a comment.
fn moves_and_comments(movetext: &str) -> (Vec<(String, String)>, String) {
    let mut moves: Vec<(String, String)> = Vec::new();
    let mut result = String::new();
    let mut rest = movetext;
    while let Some(c) = rest.chars().next() {
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
        } else if c == '{' {
            let end = rest.find('}').expect("a closed comment");
            if let Some(last) = moves.last_mut() {
                // The export wraps lines inside comments: read them as one line.
                last.1.push_str(&rest[1..end].replace('\n', " "));
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
            } else if !token.starts_with(|c: char| c.is_ascii_digit()) {
                moves.push((token.to_string(), String::new()));
            }
        }
    }
    (moves, result)
}

/// Plays SAN moves from the start: every one must be legal.
fn assert_legal(moves: &[(String, String)]) {
    let mut position = Chess::default();
    for (san, _) in moves {
        let m = san
            .parse::<San>()
            .unwrap_or_else(|_| panic!("{san} is SAN"))
            .to_move(&position)
            .unwrap_or_else(|_| panic!("{san} is legal"));
        position.play_unchecked(m);
    }
}

#[actix_web::test]
async fn the_round_pgn_has_round_board_fide_ids_results_and_a_clock_after_every_move() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let board_two = create_board(&api, 2).await;
    let board_one = create_board(&api, 1).await;
    let Reply { status, body, .. } = api
        .append_events(
            board_one,
            1,
            json!([
                {"type": "move", "by": "white", "san": "e4", "clock": {"white_ms": 5_395_000, "black_ms": 5_400_000}},
                {"type": "move", "by": "black", "san": "e5"},
                {"type": "clock_press", "by": "black", "white_ms": 5_395_000, "black_ms": 5_361_000},
                {"type": "move", "by": "white", "san": "Nf3"},
                {"type": "resign", "by": "black"}
            ]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    api.append_events(
        board_two,
        1,
        json!([{"type": "move", "by": "white", "san": "d4"}]),
    )
    .await;
    let (status, etag, text) = get_pgn(&api, &db.reader, ROUND_PGN, None).await;
    assert_eq!(status, 200);
    assert!(etag.is_some_and(|e| e.starts_with('"') && e.ends_with('"')));
    let games = games_of(&text);
    assert_eq!(games.len(), 2, "{text}");
    let (tags, movetext) = &games[0];
    assert_eq!(tag(tags, "Round"), "4.1", "round.board, board 1 first");
    assert_eq!(tag(tags, "Event"), "Club Championship 2026");
    assert_eq!(tag(tags, "WhiteFideId"), "4100001");
    assert_eq!(tag(tags, "BlackFideId"), "4200001");
    assert_eq!(tag(tags, "Result"), "1-0");
    let (moves, result) = moves_and_comments(movetext);
    assert_eq!(result, "1-0");
    let sans: Vec<&str> = moves.iter().map(|(san, _)| san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "Nf3"]);
    assert!(
        moves[0].1.contains("[%clk 1:29:55]"),
        "the reading sent with e4: {movetext}"
    );
    assert!(
        moves[1].1.contains("[%clk 1:29:21]"),
        "black's clock press: {movetext}"
    );
    assert!(
        moves[2].1.contains("[%clk 1:29:55]"),
        "Nf3 has no reading: white's clock as the engine keeps it: {movetext}"
    );
    let (tags, movetext) = &games[1];
    assert_eq!(tag(tags, "Round"), "4.2");
    assert_eq!(tag(tags, "Result"), "*", "in progress");
    assert!(movetext.contains("1. d4 {[%clk 1:30:00]} *"), "{movetext}");
    // The single-game PGN keeps its own form: the round as set, clocks only where read.
    let (_, _, single) = get_pgn(
        &api,
        &db.reader,
        &format!("/v1/games/{board_one}/pgn"),
        None,
    )
    .await;
    assert!(single.contains("[Round \"4\"]"), "{single}");
    assert_eq!(single.matches("[%clk").count(), 2, "{single}");
}

#[actix_web::test]
async fn polling_the_round_pgn_with_its_etag_is_answered_304_until_a_move_changes_it() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let board = create_board(&api, 1).await;
    create_board(&api, 2).await;
    let (status, etag, _) = get_pgn(&api, &db.reader, ROUND_PGN, None).await;
    assert_eq!(status, 200);
    let etag = etag.expect("an ETag");
    let (status, again, body) = get_pgn(&api, &db.reader, ROUND_PGN, Some(&etag)).await;
    assert_eq!(status, 304);
    assert_eq!(again.as_deref(), Some(etag.as_str()));
    assert!(body.is_empty());
    api.append_events(
        board,
        1,
        json!([{"type": "move", "by": "white", "san": "c4"}]),
    )
    .await;
    let (status, changed, body) = get_pgn(&api, &db.reader, ROUND_PGN, Some(&etag)).await;
    assert_eq!(status, 200, "a move changes the ETag");
    let changed = changed.expect("an ETag");
    assert_ne!(changed, etag);
    assert!(body.contains("1. c4"), "{body}");
    let (status, _, _) = get_pgn(&api, &db.reader, ROUND_PGN, Some(&format!("W/{changed}"))).await;
    assert_eq!(status, 304, "a weak comparison matches too");
    // Any event changes it, not only moves.
    api.append_events(board, 2, json!([{"type": "draw_offer", "by": "white"}]))
        .await;
    let (status, _, body) = get_pgn(&api, &db.reader, ROUND_PGN, Some(&changed)).await;
    assert_eq!(status, 200);
    assert!(body.contains("offers a draw (=)"), "{body}");
    let (status, _, _) = get_pgn(
        &api,
        &db.reader,
        "/v1/rounds/pgn?event=Club%20Championship%202026&round=5",
        None,
    )
    .await;
    assert_eq!(status, 404, "a round without games");
}

#[actix_web::test]
async fn an_illegal_move_appears_in_the_round_pgn_only_in_a_comment() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let board = create_board(&api, 1).await;
    let Reply { status, body, .. } = api
        .append_events(
            board,
            1,
            json!([
                {"type": "move", "by": "white", "san": "e4"},
                {"type": "move", "by": "black", "san": "e5"},
                {"type": "illegal_move", "by": "white", "description": "Bxf7 with the bishop still on f1", "completed": true},
                {"type": "move", "by": "white", "san": "Bc4"}
            ]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (_, _, text) = get_pgn(&api, &db.reader, ROUND_PGN, None).await;
    let games = games_of(&text);
    let (moves, _) = moves_and_comments(&games[0].1);
    assert_legal(&moves);
    let sans: Vec<&str> = moves.iter().map(|(san, _)| san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "Bc4"], "the illegal move is not a move");
    assert!(
        moves[1].1.contains("An illegal move by")
            && moves[1].1.contains("Bxf7 with the bishop still on f1")
            && moves[1].1.contains("(7.5)"),
        "it stands in a comment: {text}"
    );
}

#[actix_web::test]
async fn the_public_round_pgn_is_delayed_and_shows_claims_only_after_the_game_and_touches_never() {
    let db = TestDb::new().await;
    let delay = Duration::from_secs(2);
    let mut state = db.state();
    state.streams = state.streams.with_broadcast_delay(delay);
    let api = api_with_state(&db, state).await;
    let board = create_board(&api, 1).await;
    let Reply { status, body, .. } = api
        .append_events(
            board,
            1,
            json!([
                {"type": "touch", "by": "white", "square": "g1"},
                {"type": "move", "by": "white", "san": "Nf3"},
                {"type": "claim", "by": "black", "kind": "fifty_moves"},
                {"type": "move", "by": "black", "san": "Nf6"}
            ]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, _, text) = get_pgn(&api, &db.reader, PUBLIC_ROUND_PGN, None).await;
    assert_eq!(status, 200);
    assert!(
        text.is_empty(),
        "nothing is older than the delay yet: {text}"
    );
    tokio::time::sleep(delay + Duration::from_millis(200)).await;
    let (_, public_etag, text) = get_pgn(&api, &db.reader, PUBLIC_ROUND_PGN, None).await;
    assert!(text.contains("1. Nf3"), "{text}");
    assert!(!text.contains("touches"), "a touch is never public: {text}");
    assert!(
        !text.contains("claims"),
        "no claim before the game ends: {text}"
    );
    let (_, full_etag, full) = get_pgn(&api, &db.arbiter, ROUND_PGN, None).await;
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words(&full).contains("touches the piece on g1 (4.3)"),
        "arbiters see the touch: {full}"
    );
    assert!(
        words(&full).contains("claims a draw by the 50-move rule"),
        "{full}"
    );
    assert_ne!(public_etag, full_etag);
    // The game ends; once the end is older than the delay the claim is public, the touch not.
    let last_seq = body["last_seq"].as_u64().unwrap();
    api.append_events(board, last_seq, json!([{"type": "resign", "by": "white"}]))
        .await;
    let (_, _, text) = get_pgn(&api, &db.reader, PUBLIC_ROUND_PGN, None).await;
    assert!(
        text.contains("[Result \"*\"]"),
        "the end is not public yet: {text}"
    );
    tokio::time::sleep(delay + Duration::from_millis(200)).await;
    let (_, _, text) = get_pgn(&api, &db.reader, PUBLIC_ROUND_PGN, None).await;
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    assert!(
        words(&text).contains("claims a draw by the 50-move rule"),
        "{text}"
    );
    assert!(!text.contains("touches"), "{text}");
}

#[actix_web::test]
async fn the_public_broadcast_needs_a_token_unless_the_service_serves_it_publicly() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    create_board(&api, 1).await;
    let anonymous = |uri: &str| test::TestRequest::get().uri(uri);
    let response = api.send_as_built(anonymous(PUBLIC_ROUND_PGN)).await;
    assert_eq!(response.status, 401, "a token is needed by default");

    let state = db.state_with(|config| config.public_broadcast = true);
    let public = api_with_state(&db, state).await;
    let response = public.send_as_built(anonymous(PUBLIC_ROUND_PGN)).await;
    assert_eq!(response.status, 200, "a relay polls without a token");
    let response = public.send_as_built(anonymous(ROUND_PGN)).await;
    assert_eq!(response.status, 401, "the full view always needs a token");
    let response = public
        .with_token("arb_not-a-token")
        .get(PUBLIC_ROUND_PGN)
        .await;
    assert_eq!(response.status, 401, "a token sent is checked");
}

#[actix_web::test]
async fn a_file_answer_is_served_as_text_plain_when_the_request_asks_for_text_and_not_for_pgn() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let pgn = |accept: Option<&str>| {
        let mut request = db.get().uri(&format!("/v1/games/{game}/pgn"));
        if let Some(accept) = accept {
            request = request.insert_header(("Accept", accept.to_string()));
        }
        request
    };
    for (accept, expected) in [
        (None, "application/x-chess-pgn"),
        (Some("*/*"), "application/x-chess-pgn"),
        (
            Some("application/x-chess-pgn, text/plain"),
            "application/x-chess-pgn",
        ),
        (Some("text/plain"), "text/plain; charset=utf-8"),
        (
            Some("text/plain, application/json"),
            "text/plain; charset=utf-8",
        ),
    ] {
        let response = api.call(pgn(accept)).await;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = String::from_utf8_lossy(&test::read_body(response).await).into_owned();
        assert_eq!(status, 200, "{body}");
        let content_type = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        assert!(
            content_type.starts_with(expected),
            "Accept {accept:?}: {content_type}"
        );
        assert!(body.contains("[White \"Carlsen, Magnus\"]"), "{body}");
    }
}

#[actix_web::test]
async fn after_a_corrected_resignation_the_public_pgn_shows_neither_the_resignation_nor_its_ending()
{
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = create_board(&api, 1).await;
    let Reply { status, body, .. } = api
        .append_events(
            game,
            1,
            json!([
                {"type": "move", "by": "white", "san": "e4"},
                {"type": "claim", "by": "black", "kind": "repetition"},
                {"type": "draw_decline", "by": "white"},
                {"type": "resign", "by": "black"}
            ]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let resign_seq = body["events"][body["events"].as_array().unwrap().len() - 2]["seq"]
        .as_u64()
        .unwrap();
    let seq = body["last_seq"].as_u64().unwrap();
    let Reply { status, body, .. } = api
        .append_events(
            game,
            seq,
            json!([{"type": "correction", "retracts_seq": resign_seq, "reason": "the resignation was on board 2"}]),
        )
        .await;
    assert_eq!(status, 201, "{body}");

    let (_, _, public) = get_pgn(&api, &db.reader, PUBLIC_ROUND_PGN, None).await;
    assert!(public.contains("[Result \"*\"]"), "{public}");
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    for retracted in ["resigns", "Game over", "Correction", "declines the draw"] {
        assert!(
            !words(&public).contains(retracted),
            "`{retracted}` in {public}"
        );
    }
    let (_, _, full) = get_pgn(&api, &db.reader, ROUND_PGN, None).await;
    for kept in ["resigns", "Correction: ", "declines the draw"] {
        assert!(
            words(&full).contains(kept),
            "the arbiters' PGN keeps `{kept}`: {full}"
        );
    }
}

#[actix_web::test]
async fn an_undone_move_and_its_press_are_told_before_the_move_played_instead_and_sentences_join_without_a_stray_full_stop()
 {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = create_board(&api, 1).await;
    // 1. e4 and its press are recorded, then undone (the press first, then the move), as the
    // desk's undo does; then 1. d4 is recorded instead.
    let Reply { status, body, .. } = api
        .append_events(
            game,
            1,
            json!([
                {"type": "move", "by": "white", "san": "e4"},
                {"type": "clock_press", "by": "white", "white_ms": 5_399_000}
            ]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let Reply { status, body, .. } = api
        .append_events(
            game,
            3,
            json!([
                {"type": "correction", "retracts_seq": 3, "reason": "d4 was played, e4 typed."},
                {"type": "correction", "retracts_seq": 2, "reason": "d4 was played, e4 typed."},
                {"type": "move", "by": "white", "san": "d4"},
                {"type": "move", "by": "black", "san": "d5"}
            ]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (_, _, text) = get_pgn(&api, &db.arbiter, ROUND_PGN, None).await;
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let press_undone = words
        .find("Correction: Alpha, Board1's clock press after 1. e4 is retracted")
        .unwrap_or_else(|| panic!("the press's correction is told: {text}"));
    let move_undone = words
        .find("Correction: 1. e4 is retracted")
        .unwrap_or_else(|| panic!("the move's correction is told: {text}"));
    let played_instead = words
        .find("1. d4")
        .unwrap_or_else(|| panic!("1. d4 is in the movetext: {text}"));
    assert!(
        press_undone < played_instead && move_undone < played_instead,
        "both corrections come before the move played instead: {text}"
    );
    assert!(!words.contains(".;"), "no `.;` between sentences: {text}");
    let (moves, _) = moves_and_comments(&games_of(&text)[0].1);
    assert_legal(&moves);
}

#[actix_web::test]
async fn a_cdn_may_keep_the_public_round_pgn_for_a_second_and_no_shared_cache_the_arbiters_one() {
    let db = TestDb::new().await;
    let state = db.state_with(|config| config.public_broadcast = true);
    let api = api_with_state(&db, state).await;
    create_board(&api, 1).await;
    let cache_control = |headers: &actix_web::http::header::HeaderMap| {
        headers
            .get("cache-control")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let public = test::TestRequest::get().uri(PUBLIC_ROUND_PGN);
    let response = api.call(public).await;
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        cache_control(response.headers()).as_deref(),
        Some("public, max-age=1, stale-while-revalidate=5")
    );
    let etag = response.headers().get("etag").cloned().expect("an ETag");
    // The 304 of a CDN's revalidation carries the same directive.
    let again = test::TestRequest::get()
        .uri(PUBLIC_ROUND_PGN)
        .insert_header(("If-None-Match", etag));
    let response = api.call(again).await;
    assert_eq!(response.status().as_u16(), 304);
    assert_eq!(
        cache_control(response.headers()).as_deref(),
        Some("public, max-age=1, stale-while-revalidate=5")
    );
    let full = test::TestRequest::get()
        .uri(ROUND_PGN)
        .insert_header(bearer(&db.reader));
    let response = api.call(full).await;
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        cache_control(response.headers()).as_deref(),
        Some("private, no-cache")
    );
}

#[actix_web::test]
async fn a_poll_answered_304_reads_no_game_log_and_a_move_rebuilds_only_its_own_game() {
    let db = TestDb::new().await;
    let state = db.state();
    let api = api_with_state(&db, state.clone()).await;
    let board = create_board(&api, 1).await;
    create_board(&api, 2).await;
    create_board(&api, 3).await;
    let (status, etag, _) = get_pgn(&api, &db.reader, ROUND_PGN, None).await;
    assert_eq!(status, 200);
    let etag = etag.expect("an ETag");
    let built = state.streams.pgn_log_reads();
    assert_eq!(
        built, 3,
        "the first answer builds each of the three games once"
    );
    for _ in 0..5 {
        let (status, _, _) = get_pgn(&api, &db.reader, ROUND_PGN, Some(&etag)).await;
        assert_eq!(status, 304);
    }
    assert_eq!(
        state.streams.pgn_log_reads(),
        built,
        "a 304 is answered from the heads alone, without reading a game's log"
    );
    api.append_events(
        board,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}]),
    )
    .await;
    let (status, _, body) = get_pgn(&api, &db.reader, ROUND_PGN, Some(&etag)).await;
    assert_eq!(status, 200);
    assert!(body.contains("1. e4"), "{body}");
    assert_eq!(
        state.streams.pgn_log_reads(),
        built + 1,
        "only the game that changed is read again"
    );
}

//! Board diagrams: the pure renderer against golden files (reviewed once, then compared
//! byte for byte), every SVG parsed as XML, and the HTTP routes on recorded games.
//!
//! Regenerate the golden files after an intended change of the drawing with
//! `UPDATE_GOLDEN=1 cargo test --test api diagrams`, then look at them and commit them.

use crate::client::{Reply, api};
use crate::support::TestDb;
use actix_web::test as actix_test;
use arbiter::game::Game;
use arbiter::game::event::{ClaimKind, Event, GameSettings, RecordedEvent, ServiceEvent, Side};
use arbiter::interchange::diagram::{
    Arrow, Circle, Diagram, DrawnAt, MarkColour, Sheet, board_at, clocks_line,
    illegal_move_squares, marks_in_pgn_comment, move_squares, occurrence_sheet, ply_diagram,
};
use serde_json::{Value, json};
use shakmaty::{Chess, Color, Position, Square};
use std::path::PathBuf;
use uuid::Uuid;

fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

/// Parses `svg` as XML and returns the number of elements with the given class.
fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("the SVG parses as XML: {e}\n{svg}"))
}

fn count_class(svg: &str, class: &str) -> usize {
    parse(svg)
        .descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').any(|part| part == class))
        })
        .count()
}

/// The pieces drawn, as (piece id, x, y) in drawing units.
fn pieces_drawn(svg: &str) -> Vec<(String, String)> {
    parse(svg)
        .descendants()
        .filter(|n| n.has_tag_name("use"))
        .map(|n| {
            (
                n.attribute("href").unwrap_or_default().to_string(),
                n.attribute("transform").unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// Compares with the golden file (or writes it when `UPDATE_GOLDEN` is set).
fn assert_golden(name: &str, svg: &str) {
    parse(svg);
    let path = golden_path(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, svg).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "{} is missing: run UPDATE_GOLDEN=1 cargo test --test api diagrams, look at it, commit it",
            path.display()
        )
    });
    assert!(
        svg == expected,
        "{name} differs from its golden file {}; if the change is intended, regenerate with \
         UPDATE_GOLDEN=1 and review it. Got:\n{svg}",
        path.display()
    );
}

fn settings() -> GameSettings {
    serde_json::from_value(crate::support::standard_game()).unwrap()
}

/// A game folded through the engine from recorded events, as the service would store them
/// (the event at `seq` 1 is `game_created`).
fn play(events: &[RecordedEvent]) -> (Game, Vec<(u64, Event)>) {
    let settings = settings();
    let mut game = Game::new(&settings).unwrap();
    let created = Event::Service(ServiceEvent::GameCreated(Box::new(settings)));
    game.apply(1, &created).unwrap();
    let mut log = vec![(1, created)];
    let mut seq = 1;
    for event in events {
        seq += 1;
        let decisions = game
            .decide(seq, event)
            .expect("the engine accepts the event");
        let event = Event::Recorded(event.clone());
        game.apply(seq, &event).unwrap();
        log.push((seq, event));
        for decision in decisions {
            seq += 1;
            let decision = Event::Service(decision);
            game.apply(seq, &decision).unwrap();
            log.push((seq, decision));
        }
    }
    (game, log)
}

fn moves(sans: &[&str]) -> Vec<RecordedEvent> {
    sans.iter()
        .enumerate()
        .map(|(i, san)| RecordedEvent::Move {
            by: if i % 2 == 0 { Side::White } else { Side::Black },
            san: san.to_string(),
        })
        .collect()
}

const KNIGHT_DANCE: [&str; 8] = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];

#[test]
fn the_start_position_is_drawn_as_in_its_golden_file() {
    let svg = Diagram::new(&Chess::default()).render();
    assert_golden("start.svg", &svg);
    assert_eq!(pieces_drawn(&svg).len(), 32);
    // a1 is at the bottom left: the white rook's drawing is translated to (15, 315).
    assert!(
        pieces_drawn(&svg).contains(&("#white-rook".into(), "translate(15, 315)".into())),
        "{:?}",
        pieces_drawn(&svg)
    );
    assert_eq!(count_class(&svg, "coordinate"), 16);
}

#[test]
fn a_mate_is_drawn_flipped_with_the_last_move_and_the_king_in_check() {
    let (game, _) = play(&moves(&["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]));
    let svg = ply_diagram(&game, 7)
        .unwrap()
        .flipped(true)
        .coordinates(false)
        .size(240)
        .render();
    assert_golden("mate-flipped.svg", &svg);
    assert_eq!(count_class(&svg, "last-move"), 2);
    assert_eq!(count_class(&svg, "check"), 1);
    // Flipped, h1 is at the top left and a8 at the bottom right; the black king on e8 stands
    // on the fourth column from the left of the bottom row.
    assert!(pieces_drawn(&svg).contains(&("#black-king".into(), "translate(135, 315)".into())));
    assert!(pieces_drawn(&svg).contains(&("#white-rook".into(), "translate(0, 0)".into())));
    assert!(svg.contains("width=\"240\" height=\"240\""), "{svg}");
}

#[test]
fn arrows_circles_a_touched_piece_an_illegal_move_and_a_caption_are_drawn_as_in_their_golden_file()
{
    let (arrows, circles) = marks_in_pgn_comment("[%cal Ge2e4,Rg1f3,Yd2d4,Bb1c3] [%csl Rd5,Gf7]");
    assert_eq!(arrows.len(), 4);
    assert_eq!(circles.len(), 2);
    let svg = Diagram::new(&Chess::default())
        .arrows(arrows)
        .circles(circles)
        .touched(Square::G1)
        .illegal_move(Square::E1, Square::E3)
        .caption([
            "Carlsen, Magnus – Nepomniachtchi, Ian & <friends>".to_string(),
            "Move 1, White to move".into(),
            clocks_line(Some(5_400_000), None).unwrap(),
        ])
        .render();
    assert_golden("marks-and-caption.svg", &svg);
    assert_eq!(count_class(&svg, "arrow"), 4);
    assert_eq!(count_class(&svg, "circle"), 2);
    assert_eq!(count_class(&svg, "touched"), 1);
    assert_eq!(count_class(&svg, "illegal-move"), 1);
    assert_eq!(count_class(&svg, "caption"), 3);
    assert!(svg.contains("&amp; &lt;friends&gt;"));
    assert!(svg.contains("White 1:30:00 · Black ?"));
}

#[test]
fn marks_are_read_as_pgn_writes_them_and_wrong_ones_are_refused() {
    assert_eq!(
        Arrow::parse("Re1e3").unwrap(),
        Arrow {
            from: Square::E1,
            to: Square::E3,
            colour: MarkColour::Red
        }
    );
    assert_eq!(Arrow::parse("e2e4").unwrap().colour, MarkColour::Green);
    assert_eq!(Arrow::parse("Yd2d4").unwrap().pgn(), "Yd2d4");
    assert_eq!(Circle::parse("Bd5").unwrap().pgn(), "Bd5");
    for wrong in ["", "Xe2e4", "e2e9", "e2", "Ge2e4e5", "i1a1"] {
        assert!(Arrow::parse(wrong).is_err(), "{wrong}");
    }
    for wrong in ["", "d9", "Gd", "Rd5d6"] {
        assert!(Circle::parse(wrong).is_err(), "{wrong}");
    }
    let message = Arrow::parse("Ze2e4").unwrap_err().to_string();
    assert!(message.contains("G green"), "{message}");
}

#[test]
fn the_squares_of_an_illegal_move_are_read_from_its_description_when_it_names_them() {
    assert_eq!(
        illegal_move_squares("2...Ke8-e7 leaving the king in check"),
        Some((Square::E8, Square::E7))
    );
    assert_eq!(
        illegal_move_squares("Nb1xd4"),
        Some((Square::B1, Square::D4))
    );
    assert_eq!(illegal_move_squares("e2e5"), Some((Square::E2, Square::E5)));
    assert_eq!(illegal_move_squares("castled through check"), None);
    assert_eq!(illegal_move_squares("moved the king to e7"), None);
}

#[test]
fn castling_is_highlighted_on_the_kings_squares() {
    let (game, _) = play(&moves(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"]));
    let before = game.position_at_ply(6).unwrap();
    let castle = before
        .legal_moves()
        .into_iter()
        .find(|m| m.is_castle())
        .unwrap();
    assert_eq!(
        move_squares(castle, Color::White),
        Some((Square::E1, Square::G1))
    );
    let svg = ply_diagram(&game, 7).unwrap().render();
    let doc = parse(&svg);
    let highlighted: Vec<(String, String)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("last-move"))
        .map(|n| {
            (
                n.attribute("x").unwrap().to_string(),
                n.attribute("y").unwrap().to_string(),
            )
        })
        .collect();
    // e1 and g1: files 4 and 6 on the bottom row.
    assert_eq!(
        highlighted,
        vec![("195".into(), "315".into()), ("285".into(), "315".into())]
    );
}

#[test]
fn the_occurrence_sheet_of_an_upheld_repetition_claim_is_drawn_as_in_its_golden_file() {
    let mut events = moves(&KNIGHT_DANCE);
    events.push(RecordedEvent::Claim {
        by: Side::White,
        kind: ClaimKind::Repetition,
        intended_move: None,
    });
    let (game, log) = play(&events);
    let ruling = log
        .iter()
        .find_map(|(_, e)| match e {
            Event::Service(ServiceEvent::ClaimRuled(r)) => Some(r.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(ruling.evidence.occurrences, Some(vec![0, 4, 8]));
    let svg = occurrence_sheet(&game, 10, Side::White, &ruling, |d| d.size(240)).render();
    assert_golden("repetition-sheet.svg", &svg);
    assert_eq!(count_class(&svg, "board"), 3);
    assert!(svg.contains("Repetition claim by white at seq 10: upheld (9.2.2)"));
    assert!(svg.contains("Occurrence 3 of 3: ply 8"));
}

#[test]
fn a_claim_with_an_intended_move_shows_the_position_after_that_move_as_the_last_occurrence() {
    let mut events = moves(&KNIGHT_DANCE[..7]);
    events.push(RecordedEvent::Claim {
        by: Side::Black,
        kind: ClaimKind::Repetition,
        intended_move: Some("Ng8".into()),
    });
    let (game, log) = play(&events);
    let ruling = log
        .iter()
        .find_map(|(_, e)| match e {
            Event::Service(ServiceEvent::ClaimRuled(r)) => Some(r.clone()),
            _ => None,
        })
        .unwrap();
    let svg = occurrence_sheet(&game, 9, Side::Black, &ruling, |d| d).render();
    assert_eq!(count_class(&svg, "board"), 3);
    assert!(
        svg.contains("Occurrence 3 of 3: after the intended move Ng8"),
        "{svg}"
    );
    assert!(svg.contains("upheld (9.2.1)"), "{svg}");
}

#[test]
fn a_sheet_with_more_than_four_positions_goes_on_to_a_second_row() {
    let position = Chess::default();
    let mut sheet = Sheet::new(["Five".to_string()]);
    for _ in 0..5 {
        sheet = sheet.panel(Diagram::new(&position).size(100));
    }
    let svg = sheet.render();
    let doc = parse(&svg);
    let root = doc.root_element();
    let (width, height): (f64, f64) = (
        root.attribute("width").unwrap().parse().unwrap(),
        root.attribute("height").unwrap().parse().unwrap(),
    );
    assert!(width > 4.0 * 100.0 && width < 5.0 * 100.0, "{width}");
    assert!(height > 2.0 * 100.0, "{height}");
}

#[test]
fn the_caption_of_a_board_names_the_players_the_move_the_clocks_and_the_event() {
    let mut events = moves(&["e4", "e5"]);
    events.push(RecordedEvent::Touch {
        by: Side::White,
        square: "g1".into(),
    });
    let (game, log) = play(&events);
    let (seq, event) = log.last().unwrap();
    let event_id = Uuid::nil();
    let svg = board_at(
        &game,
        &DrawnAt {
            seq: *seq,
            event_id,
            event,
            white_ms: Some(5_395_000),
            black_ms: Some(5_391_000),
        },
    )
    .render();
    parse(&svg);
    for text in [
        "Carlsen, Magnus – Nepomniachtchi, Ian",
        "Move 2, White to move",
        "White 1:29:55 · Black 1:29:51",
        "Carlsen, Magnus touched the piece on g1 (4.3)",
        "event 00000000-0000-0000-0000-000000000000",
    ] {
        assert!(svg.contains(text), "{text} in {svg}");
    }
    assert_eq!(count_class(&svg, "touched"), 1);
    assert_eq!(count_class(&svg, "last-move"), 2);
}

// ---- HTTP ----

/// The status, the SVG text and the media type of an answer.
fn svg_of(reply: Reply) -> (u16, String, Option<String>) {
    let text = match reply.body {
        Value::String(text) => text,
        other => other.to_string(),
    };
    (reply.status, text, reply.content_type)
}

fn move_events(sans: &[&str]) -> Value {
    Value::Array(
        sans.iter()
            .enumerate()
            .map(|(i, san)| {
                json!({"type": "move", "by": if i % 2 == 0 { "white" } else { "black" }, "san": san})
            })
            .collect(),
    )
}

#[actix_web::test]
async fn the_board_of_a_game_is_served_at_a_seq_at_a_ply_and_flipped() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let reader = api.with_token(&db.reader);
    let Reply { status, body, .. } = api
        .append_events(game, 1, move_events(&["e4", "c5", "Nf3"]))
        .await;
    assert_eq!(status, 201, "{body}");
    let Reply { status, body, .. } = api
        .append_events(
            game,
            4,
            json!([{"type": "illegal_move", "by": "black", "description": "2...Ke8-e7 onto its own pawn", "completed": false,
                    "clock": {"white_ms": 5_380_000, "black_ms": 5_390_000}}]),
        )
        .await;
    assert_eq!(status, 201, "{body}");

    // Now: after the illegal move (seq 5), drawn as a red arrow on the position before it.
    let (status, now, content_type) = svg_of(reader.board_svg(game, "").await);
    assert_eq!(status, 200, "{now}");
    assert_eq!(content_type.as_deref(), Some("image/svg+xml"));
    assert_eq!(count_class(&now, "illegal-move"), 1);
    assert!(now.contains("White 1:29:40 · Black 1:29:50"), "{now}");
    assert!(now.contains("Illegal move by Nepomniachtchi, Ian"), "{now}");
    assert!(!now.contains("seq"), "no seq in the caption: {now}");

    // at_seq 3 (after 1...c5) and ply 2 are the same position, drawn at the same event.
    let (_, at_seq, _) = svg_of(reader.board_svg(game, "at_seq=3").await);
    let (_, at_ply, _) = svg_of(reader.board_svg(game, "ply=2").await);
    assert_eq!(at_seq, at_ply);
    assert!(at_seq.contains("Move 2, White to move"), "{at_seq}");
    assert!(pieces_drawn(&at_seq).contains(&("#black-pawn".into(), "translate(105, 135)".into())));
    assert_eq!(count_class(&at_seq, "last-move"), 2);
    // ply 0 is the start position.
    let (_, start, _) = svg_of(reader.board_svg(game, "ply=0").await);
    assert!(pieces_drawn(&start).contains(&("#white-pawn".into(), "translate(195, 270)".into())));

    // Flipped (and no margin): c5 is drawn on the sixth column and the fifth row from the top.
    let (_, flipped, _) = svg_of(
        reader
            .board_svg(
                game,
                "ply=2&flip=true&coordinates=false&size=200&arrows=Rg8f6,Bb8c6&circles=Yd4",
            )
            .await,
    );
    assert!(pieces_drawn(&flipped).contains(&("#black-pawn".into(), "translate(225, 180)".into())));
    assert_eq!(count_class(&flipped, "coordinate"), 0);
    assert_eq!(count_class(&flipped, "arrow"), 2);
    assert_eq!(count_class(&flipped, "circle"), 1);
    assert!(flipped.contains("width=\"200\""));
}

#[actix_web::test]
async fn bad_board_parameters_are_refused_with_a_problem_naming_the_parameter() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    api.append_events(game, 1, move_events(&["d4"])).await;
    for (query, status, code, field) in [
        ("at_seq=2&ply=1", 400, "invalid_query", "ply"),
        ("at_seq=0", 400, "invalid_query", "at_seq"),
        ("ply=-1", 400, "invalid_query", "ply"),
        ("flip=maybe", 400, "invalid_query", "flip"),
        ("size=10", 400, "invalid_query", "size"),
        ("arrows=Ge2e9", 400, "invalid_query", "arrows"),
        ("circles=Zd5", 400, "invalid_query", "circles"),
        ("ply=2", 404, "ply_beyond_game", "ply"),
        ("at_seq=3", 404, "seq_beyond_log", "at_seq"),
    ] {
        let reply = api.board_svg(game, query).await.problem(status, code);
        assert_eq!(reply.body["field"], field, "{query}: {}", reply.body);
    }
    api.board_svg(Uuid::new_v4(), "")
        .await
        .problem(404, "game_not_found");
    api.send_as_built(actix_test::TestRequest::get().uri(&format!("/v1/games/{game}/board.svg")))
        .await
        .problem(401, "missing_token");
}

#[actix_web::test]
async fn the_occurrence_sheet_of_a_recorded_repetition_claim_equals_its_golden_file() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let mut events = move_events(&KNIGHT_DANCE);
    events
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "claim", "by": "white", "kind": "repetition"}));
    let Reply { status, body, .. } = api.append_events(game, 1, events).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["events"][9]["event"]["outcome"], "upheld", "{body}");
    let reader = api.with_token(&db.reader);
    let (status, sheet, content_type) = svg_of(reader.occurrences_svg(game, 10, "size=240").await);
    assert_eq!(status, 200, "{sheet}");
    assert_eq!(content_type.as_deref(), Some("image/svg+xml"));
    // The same sheet as the one drawn from the engine's ruling in the pure test above.
    assert_golden("repetition-sheet.svg", &sheet);

    // Not a claim, and not a repetition claim.
    api.occurrences_svg(game, 2, "")
        .await
        .problem(404, "no_such_claim");
}

#[actix_web::test]
async fn a_fifty_move_claim_has_no_occurrence_sheet() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let Reply { status, body, .. } = api
        .append_events(
            game,
            1,
            json!([{"type": "claim", "by": "white", "kind": "fifty_moves"}]),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    api.occurrences_svg(game, 2, "")
        .await
        .problem(422, "not_a_repetition_claim");
}

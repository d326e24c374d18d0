//! The desk reads a ruling's evidence through its typed fields: every part of the evidence
//! a stored log holds is shown, none as "–" (no database needed).

use arbiter::game::narration::Narrator;
use arbiter::store::EventEnvelope;
use arbiter::web::desk::decision_panel;
use serde_json::{Value, json};

/// The line of a stored log (tests/fixtures/audit) holding an event of `kind`.
fn stored(fixture: &str, kind: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/audit")
        .join(format!("{fixture}.jsonl"));
    std::fs::read_to_string(&path)
        .expect("fixture is readable")
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("a JSON line"))
        .find(|line| line["event"]["type"] == kind)
        .unwrap_or_else(|| panic!("{fixture} holds a {kind}"))
}

fn panel(line: Value) -> String {
    let envelope: EventEnvelope = serde_json::from_value(line).expect("the envelope decodes");
    decision_panel(envelope.game_id, &envelope, &Narrator::default()).into_string()
}

#[test]
fn desk_shows_every_part_of_a_written_move_claims_evidence() {
    let html = panel(stored("written-move-claim-rejected", "claim_ruled"));
    for shown in [
        "<dd>Black</dd>",
        "<dd>the position appears after the written move (9.2.1.1)</dd>",
        "<dt>Written move</dt><dd>Nf6</dd>",
        "5 half-moves without a capture or pawn move, 6 after the written move",
        "after ply 2; and again after the written move",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 5 3",
        "occurrences.svg",
    ] {
        assert!(html.contains(shown), "{shown} is shown: {html}");
    }
    assert!(!html.contains("–"), "nothing is missing: {html}");
}

#[test]
fn desk_shows_the_near_misses_and_what_made_them_differ() {
    let mut line = stored("repetition-claim-upheld", "claim_ruled");
    line["event"]["evidence"]["near_misses"] = json!([{
        "differs_by": ["castling_rights", "en_passant"],
        "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qkq - 4 3",
        "ply": 4,
    }]);
    let html = panel(line);
    assert!(
        html.contains("after ply 4: differs by castling rights, en passant"),
        "{html}"
    );
    assert!(
        html.contains("the starting position; after ply 4; after ply 8"),
        "{html}"
    );
}

#[test]
fn desk_shows_the_position_of_an_automatic_end() {
    let html = panel(stored("fivefold", "game_ended"));
    assert!(
        html.contains("Position: <code class=\"fen\">rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 16 9</code>"),
        "{html}"
    );
}
